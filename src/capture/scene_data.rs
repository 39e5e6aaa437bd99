//! What a captured run adds to its scene: the engine, its bodies, colliders and shapes with
//! the engine's own ids. The scene's rigid bodies are the colliders (body id = collider
//! index), each drawn as its shape at the collider's pose; this says which engine body and
//! shape each one belongs to.

use super::EngineId;
use super::item::{Captured, Motion, PoseItem};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CaptureScene {
    /// The engine as it names itself ("rapier3d 0.36.1").
    pub engine: String,
    pub up: [f64; 3],
    pub length_unit_m: f64,
    /// What the header promised to send every step.
    pub captures: Captured,
    /// The engine's prediction distance (header extension), when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction_distance_m: Option<f64>,
    /// The contacts and pairs of a step are of the poses at its start (header extension).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contacts_at_start: bool,
    pub bodies: Vec<CapturedBody>,
    /// Index = the scene's body id.
    pub colliders: Vec<CapturedCollider>,
    pub shapes: Vec<CapturedShapeInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapturedBody {
    pub id: EngineId,
    pub name: Option<String>,
    pub motion: Motion,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapturedCollider {
    pub id: EngineId,
    /// Index into [`CaptureScene::bodies`].
    pub body: u32,
    /// Index into [`CaptureScene::shapes`].
    pub shape: u32,
    /// The collider on its body, as the engine declared it.
    pub pose: PoseItem,
    /// The drawn shape's origin in the collider's frame (see `shape::Mapped::frame`).
    pub shape_frame: PoseItem,
    pub sensor: bool,
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapturedShapeInfo {
    pub id: EngineId,
    /// The engine's shape type ("cylinder").
    pub kind: String,
    /// When what is drawn is not the shape itself, what it is instead.
    pub note: Option<String>,
}

impl CaptureScene {
    /// The collider of a scene body.
    pub fn collider(&self, body: crate::trace::BodyId) -> Option<&CapturedCollider> {
        self.colliders.get(body as usize)
    }

    /// The engine body a scene body (a collider) belongs to.
    pub fn body_of(&self, body: crate::trace::BodyId) -> Option<&CapturedBody> {
        self.bodies.get(self.collider(body)?.body as usize)
    }

    /// How views and reports name a collider: its body's name or id, and the collider's id
    /// when the body has more than one.
    pub fn collider_label(&self, index: usize) -> String {
        let Some(c) = self.colliders.get(index) else {
            return format!("#{index}");
        };
        let body = &self.bodies[c.body as usize];
        let mut label = body_label(body);
        let siblings = self.colliders.iter().filter(|o| o.body == c.body).count();
        if siblings > 1 || c.name.is_some() {
            match &c.name {
                Some(n) => label.push_str(&format!(" / {n} (collider {})", c.id)),
                None => label.push_str(&format!(" / collider {}", c.id)),
            }
        }
        label
    }
}

/// "bullet (body 1)", or "body 1" without a name.
pub fn body_label(body: &CapturedBody) -> String {
    match &body.name {
        Some(n) => format!("{n} (body {})", body.id),
        None => format!("body {}", body.id),
    }
}
