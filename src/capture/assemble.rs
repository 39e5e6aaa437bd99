//! The capture stream's items, put together into frames: declarations build the scene, each
//! `frame` … `end_frame` becomes one [`Frame`]. Every rule of the contract that spans lines
//! (ids declared before use, frame numbers strictly increasing, lines inside a frame) is
//! checked here; the parser checks each line alone.

use super::EngineId;
use super::event::{CaptureEvent, stage_of};
use super::fields::FieldError;
use super::frame_data::{BodyFlags, CaptureFrame, CapturedPair, ContactDetail};
use super::item::*;
use super::scene_data::{CaptureScene, CapturedBody, CapturedCollider, CapturedShapeInfo};
use super::shape::{map_shape, quat};
use crate::families::{FamilyFrameData, FamilySceneData};
use crate::frame::{BodyState, Contact, Counters, Frame, Marker, MarkerKind};
use crate::geom::{Point3, Vec3};
use crate::scene::{BodyDesc, Scene, ShapeDesc};
use crate::trace::TraceEvent;
use std::collections::{HashMap, HashSet};

/// Penetration beyond which a contact is marked, when the header does not say.
pub const DEFAULT_TOLERANCE_M: f64 = 0.01;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Motion6 {
    pose: PoseItem,
    linvel: [f64; 3],
    angvel: [f64; 3],
}

#[derive(Default)]
struct OpenFrame {
    engine_frame: u64,
    time_s: Option<f64>,
    pairs: Vec<CapturedPair>,
    contacts: Vec<Contact>,
    details: Vec<ContactDetail>,
    events: Vec<TraceEvent>,
}

/// Turns items into frames. See the module doc.
#[derive(Default)]
pub struct Assembler {
    header: Option<Header>,
    scene: CaptureScene,
    descs: Vec<ShapeDesc>,
    shapes: HashMap<EngineId, u32>,
    shape_maps: Vec<(ShapeDesc, PoseItem)>,
    bodies: HashMap<EngineId, u32>,
    colliders: HashMap<EngineId, u32>,
    body_removed: Vec<bool>,
    collider_removed: Vec<bool>,
    states: Vec<Option<Motion6>>,
    flags: Vec<BodyFlags>,
    open: Option<OpenFrame>,
    last_engine_frame: Option<u64>,
    frames: u64,
    generation: u64,
    captured: Captured,
    touched: HashSet<(u32, u32)>,
    warnings: Vec<FieldError>,
}

fn err<T>(field: &str, cause: impl Into<String>) -> Result<T, FieldError> {
    Err(FieldError::new(field, cause))
}

impl Assembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// The header, once read.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// Changes each time a declaration changes the scene.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The engine frame number of a step begun and not yet ended (a cut stream loses it).
    pub fn open_frame(&self) -> Option<u64> {
        self.open.as_ref().map(|f| f.engine_frame)
    }

    /// What the items taken since the last call did that a user should hear of, without
    /// being errors (a step that began before the one before it ended).
    pub fn take_warnings(&mut self) -> Vec<FieldError> {
        std::mem::take(&mut self.warnings)
    }

    pub fn capture_scene(&self) -> &CaptureScene {
        &self.scene
    }

    /// The scene as declared so far: one rigid body per collider.
    pub fn scene(&self) -> Scene {
        let header = self
            .header
            .clone()
            .unwrap_or_else(|| Header::new("unknown engine"));
        let mut scene = crate::scene::Scene::from_ron(
            "(name: \"\", bodies: [])",
            std::path::Path::new("<capture>"),
        )
        .unwrap_or_else(|_| unreachable!("an empty scene parses"));
        scene.name = format!("captured from {}", header.engine);
        scene.description = format!(
            "A run of {} captured through the capture stream: its bodies as it drew them, \
             its pairs, contacts and events as it sent them.",
            header.engine
        );
        scene.gravity = header.gravity.unwrap_or([0.0, 0.0, 0.0]);
        if let Some(dt) = header.dt_s {
            scene.solver.dt_s = dt;
        }
        scene.solver.penetration_tolerance_m = self.tolerance();
        scene.bodies = self
            .scene
            .colliders
            .iter()
            .enumerate()
            .map(|(i, c)| {
                // Where the collider is while its body has no state: the body at the origin,
                // the collider at its pose on it (a ground that never moves sends none).
                let rest = pose(&c.pose) * pose(&c.shape_frame);
                let t = rest.translation.vector;
                let mut desc = BodyDesc::new(
                    self.scene.collider_label(i),
                    self.descs[i].clone(),
                    [t.x, t.y, t.z],
                );
                let r = rest.rotation.scaled_axis();
                desc.rotation = [r.x, r.y, r.z];
                desc.fixed = self.scene.bodies[c.body as usize].motion == Motion::Fixed;
                desc
            })
            .collect();
        scene.families = vec![FamilySceneData::Capture(self.scene.clone())];
        scene
    }

    pub fn body_names(&self) -> Vec<String> {
        (0..self.scene.colliders.len())
            .map(|i| self.scene.collider_label(i))
            .collect()
    }

    fn tolerance(&self) -> f64 {
        self.header
            .as_ref()
            .and_then(|h| h.penetration_tolerance_m)
            .unwrap_or(DEFAULT_TOLERANCE_M)
    }

    /// Takes one item; returns the frame it ends, if it ends one. An error leaves the
    /// assembler as it was before the item.
    pub fn push(&mut self, item: Item) -> Result<Option<Frame>, FieldError> {
        if self.header.is_none() && !matches!(item, Item::Header(_)) {
            // A stream without its header still reads; the engine stays unnamed.
            self.header = Some(Header::new("unknown engine"));
        }
        match item {
            Item::Header(h) => self.take_header(h).map(|()| None),
            Item::Shape(s) => self.shape(s).map(|()| None),
            Item::Body(b) => self.body(b).map(|()| None),
            Item::Collider(c) => self.collider(c).map(|()| None),
            Item::Remove(r) => self.remove(&r).map(|()| None),
            Item::Frame(f) => self.begin(f),
            Item::State(s) => self.state(s).map(|()| None),
            Item::Pair(p) => self.pair(p).map(|()| None),
            Item::Contact(c) => self.contact(c).map(|()| None),
            Item::Event(e) => self.event(e).map(|()| None),
            Item::EndFrame(e) => self.end(e).map(Some),
        }
    }

    fn take_header(&mut self, h: Header) -> Result<(), FieldError> {
        if self.header.is_some() {
            return err("kind", "a second header (the header comes once, first)");
        }
        self.scene.engine = h.engine.clone();
        self.scene.up = h.up;
        self.scene.length_unit_m = h.length_unit_m;
        self.scene.captures = h.captures;
        self.scene.prediction_distance_m = h.prediction_distance_m;
        self.scene.contacts_at_start = h.contacts_at_start;
        self.captured = h.captures;
        self.header = Some(h);
        self.generation += 1;
        Ok(())
    }

    fn shape(&mut self, s: ShapeItem) -> Result<(), FieldError> {
        if self.shapes.contains_key(&s.id) {
            return err("id", format!("shape {} is declared already", s.id));
        }
        let mapped = map_shape(&s.shape, s.approximates.as_deref());
        self.shapes
            .insert(s.id.clone(), self.scene.shapes.len() as u32);
        self.scene.shapes.push(CapturedShapeInfo {
            id: s.id,
            kind: s.shape.type_name().into(),
            note: mapped.note,
        });
        self.shape_maps.push((mapped.desc, mapped.frame));
        self.generation += 1;
        Ok(())
    }

    fn body(&mut self, b: BodyItem) -> Result<(), FieldError> {
        if let Some(&i) = self.bodies.get(&b.id)
            && !self.body_removed[i as usize]
        {
            return err("id", format!("body {} is declared already", b.id));
        }
        self.bodies
            .insert(b.id.clone(), self.scene.bodies.len() as u32);
        self.scene.bodies.push(CapturedBody {
            id: b.id,
            name: b.name,
            motion: b.motion,
        });
        self.body_removed.push(false);
        self.states.push(None);
        self.generation += 1;
        Ok(())
    }

    fn collider(&mut self, c: ColliderItem) -> Result<(), FieldError> {
        if let Some(&i) = self.colliders.get(&c.id)
            && !self.collider_removed[i as usize]
        {
            return err("id", format!("collider {} is declared already", c.id));
        }
        let body = self.live_body(&c.body, "body")?;
        let Some(&shape) = self.shapes.get(&c.shape) else {
            return err("shape", format!("no shape {} was declared", c.shape));
        };
        let (desc, shape_frame) = self.shape_maps[shape as usize].clone();
        self.colliders
            .insert(c.id.clone(), self.scene.colliders.len() as u32);
        self.scene.colliders.push(CapturedCollider {
            id: c.id,
            body,
            shape,
            pose: c.pose,
            shape_frame,
            sensor: c.sensor,
            name: c.name,
        });
        self.descs.push(desc);
        self.collider_removed.push(false);
        self.generation += 1;
        Ok(())
    }

    fn live_body(&self, id: &EngineId, field: &str) -> Result<u32, FieldError> {
        match self.bodies.get(id) {
            Some(&i) if !self.body_removed[i as usize] => Ok(i),
            Some(_) => err(field, format!("body {id} was removed")),
            None => err(field, format!("no body {id} was declared")),
        }
    }

    fn live_collider(&self, id: &EngineId, field: &str) -> Result<u32, FieldError> {
        match self.colliders.get(id) {
            Some(&i) if !self.collider_removed[i as usize] => Ok(i),
            Some(_) => err(field, format!("collider {id} was removed")),
            None => err(field, format!("no collider {id} was declared")),
        }
    }

    fn remove(&mut self, r: &RemoveItem) -> Result<(), FieldError> {
        let id = &r.id;
        let body = (r.what != Some(Removed::Collider))
            .then(|| self.bodies.get(id).copied())
            .flatten()
            .filter(|&i| !self.body_removed[i as usize]);
        let collider = (r.what != Some(Removed::Body))
            .then(|| self.colliders.get(id).copied())
            .flatten()
            .filter(|&i| !self.collider_removed[i as usize]);
        if body.is_none() && collider.is_none() {
            return err("id", format!("no body or collider {id} is there to remove"));
        }
        if let Some(b) = body {
            self.body_removed[b as usize] = true;
            for (i, c) in self.scene.colliders.iter().enumerate() {
                if c.body == b {
                    self.collider_removed[i] = true;
                }
            }
        }
        if let Some(c) = collider {
            self.collider_removed[c as usize] = true;
        }
        Ok(())
    }

    fn begin(&mut self, f: FrameItem) -> Result<Option<Frame>, FieldError> {
        if let Some(last) = self.last_engine_frame
            && f.frame <= last
        {
            return err(
                "frame",
                format!(
                    "frame {} after frame {last}: frame numbers must increase",
                    f.frame
                ),
            );
        }
        let unfinished = self.open.take().map(|open| self.finish_frame(open, None));
        self.last_engine_frame = Some(f.frame);
        self.open = Some(OpenFrame {
            engine_frame: f.frame,
            time_s: f.time_s,
            ..OpenFrame::default()
        });
        if let Some(frame) = &unfinished {
            // The step before had no end_frame: it is kept as it was, and said so.
            self.warnings.push(FieldError::new(
                "frame",
                format!(
                    "frame {} began before the step before it ended: that step is kept as it was",
                    f.frame
                ),
            ));
            let _ = frame;
        }
        Ok(unfinished)
    }

    fn open_frame_mut(&mut self, kind: &str) -> Result<&mut OpenFrame, FieldError> {
        self.open
            .as_mut()
            .ok_or_else(|| FieldError::new("kind", format!("a {kind} line outside a frame")))
    }

    fn state(&mut self, s: StateItem) -> Result<(), FieldError> {
        self.open_frame_mut("state")?;
        let body = self.live_body(&s.body, "body")?;
        self.captured = self.captured.with(Captured::STATES);
        if s.linvel.is_some() || s.angvel.is_some() {
            self.captured = self.captured.with(Captured::VELOCITIES);
        }
        let before = self.states[body as usize];
        self.states[body as usize] = Some(Motion6 {
            pose: s.pose,
            linvel: s.linvel.or(before.map(|b| b.linvel)).unwrap_or([0.0; 3]),
            angvel: s.angvel.or(before.map(|b| b.angvel)).unwrap_or([0.0; 3]),
        });
        if s.sleeping.is_some() || s.ccd.is_some() {
            if s.sleeping.is_some() {
                self.captured = self.captured.with(Captured::SLEEPING);
            }
            if s.ccd.is_some() {
                self.captured = self.captured.with(Captured::CCD);
            }
            let slot = match self.flags.iter().position(|f| f.body == body) {
                Some(i) => i,
                None => {
                    self.flags.push(BodyFlags {
                        body,
                        sleeping: None,
                        ccd: None,
                    });
                    self.flags.len() - 1
                }
            };
            let f = &mut self.flags[slot];
            f.sleeping = s.sleeping.or(f.sleeping);
            f.ccd = s.ccd.or(f.ccd);
        }
        Ok(())
    }

    fn pair(&mut self, p: PairItem) -> Result<(), FieldError> {
        self.open_frame_mut("pair")?;
        let a = self.live_collider(&p.a, "a")?;
        let b = self.live_collider(&p.b, "b")?;
        self.captured = self.captured.with(Captured::PAIRS);
        let open = self.open_frame_mut("pair")?;
        open.pairs.push(CapturedPair {
            a,
            b,
            touching: p.touching,
        });
        Ok(())
    }

    fn contact(&mut self, c: ContactItem) -> Result<(), FieldError> {
        self.open_frame_mut("contact")?;
        let a = self.live_collider(&c.a, "a")?;
        let b = self.live_collider(&c.b, "b")?;
        self.captured = self.captured.with(Captured::CONTACTS);
        if c.normal_impulse.is_some() || c.tangent_impulse.is_some() {
            self.captured = self.captured.with(Captured::IMPULSES);
        }
        let open = self.open_frame_mut("contact")?;
        open.contacts.push(Contact {
            a,
            b,
            point: Point3::from(c.position),
            normal: Vec3::from(c.normal),
            depth: -c.distance,
        });
        open.details.push(ContactDetail {
            manifold: c.manifold,
            point: c.point,
            normal_impulse: c.normal_impulse,
            tangent_impulse: c.tangent_impulse,
            feature_a: c.feature_a,
            feature_b: c.feature_b,
        });
        Ok(())
    }

    fn event(&mut self, e: EventItem) -> Result<(), FieldError> {
        self.open_frame_mut("event")?;
        let mut bodies = Vec::with_capacity(e.bodies.len());
        for (i, id) in e.bodies.iter().enumerate() {
            bodies.push(self.live_body(id, &format!("bodies[{i}]"))?);
        }
        let colliders = self
            .scene
            .colliders
            .iter()
            .enumerate()
            .filter(|(i, c)| bodies.contains(&c.body) && !self.collider_removed[*i])
            .map(|(i, _)| i as u32)
            .collect();
        self.captured = self.captured.with(Captured::EVENTS);
        let event = TraceEvent::staged(
            stage_of(&e.stage),
            e.verdict,
            CaptureEvent {
                stage: e.stage,
                label: e.label,
                bodies,
                colliders,
                values: e.values,
            },
        );
        self.open_frame_mut("event")?.events.push(event);
        Ok(())
    }

    fn end(&mut self, e: EndFrameItem) -> Result<Frame, FieldError> {
        let open = self
            .open
            .take()
            .ok_or_else(|| FieldError::new("kind", "an end_frame line outside a frame"))?;
        Ok(self.finish_frame(open, e.state_hash))
    }

    fn finish_frame(&mut self, open: OpenFrame, state_hash: Option<String>) -> Frame {
        let index = self.frames;
        self.frames += 1;
        let dt = self.header.as_ref().and_then(|h| h.dt_s).unwrap_or(0.0);
        let time_s = open.time_s.unwrap_or(open.engine_frame as f64 * dt);
        let bodies = self.body_states();
        let markers = self.markers(&open.contacts);
        let max_penetration_m = open.contacts.iter().map(|c| c.depth).fold(0.0, f64::max);
        let counters = Counters {
            bodies: bodies.len() as u32,
            broad_pairs: open.pairs.len() as u32,
            narrow_tests: 0,
            contacts: open.contacts.len() as u32,
            max_penetration_m,
            kinetic_energy_j: 0.0,
            trace_events: open.events.len() as u32,
            trace_dropped: 0,
        };
        let live_flags = self
            .flags
            .iter()
            .filter(|f| !self.body_removed[f.body as usize])
            .copied()
            .collect();
        Frame {
            index,
            time_s,
            bodies,
            counters,
            markers,
            trace: open.events,
            families: vec![FamilyFrameData::Capture(CaptureFrame {
                engine_frame: open.engine_frame,
                captured: self.captured,
                pairs: open.pairs,
                contacts: open.details,
                flags: live_flags,
                state_hash,
            })],
            contacts: open.contacts,
            ..Frame::default()
        }
    }

    /// Every live collider whose body has a state, at its drawn shape's pose.
    fn body_states(&self) -> Vec<BodyState> {
        let mut out = Vec::with_capacity(self.scene.colliders.len());
        for (i, c) in self.scene.colliders.iter().enumerate() {
            if self.collider_removed[i] || self.body_removed[c.body as usize] {
                continue;
            }
            let Some(m) = self.states[c.body as usize] else {
                continue;
            };
            let body = pose(&m.pose);
            let drawn = body * pose(&c.pose) * pose(&c.shape_frame);
            out.push(BodyState {
                id: i as u32,
                position: Point3::from(drawn.translation.vector),
                rotation: drawn.rotation,
                linear_velocity: Vec3::from(m.linvel),
                angular_velocity: Vec3::from(m.angvel),
            });
        }
        out
    }

    fn markers(&mut self, contacts: &[Contact]) -> Vec<Marker> {
        let tolerance = self.tolerance();
        let mut markers = Vec::new();
        let mut deepest: HashMap<(u32, u32), f64> = HashMap::new();
        for c in contacts {
            let key = (c.a.min(c.b), c.a.max(c.b));
            if c.depth >= 0.0 && self.touched.insert(key) {
                markers.push(Marker {
                    kind: MarkerKind::FirstContact,
                    text: format!(
                        "{} – {}",
                        self.scene.collider_label(c.a as usize),
                        self.scene.collider_label(c.b as usize)
                    ),
                    bodies: vec![c.a, c.b],
                });
            }
            if c.depth > tolerance {
                let d = deepest.entry(key).or_insert(c.depth);
                *d = d.max(c.depth);
            }
        }
        let mut deep: Vec<_> = deepest.into_iter().collect();
        deep.sort_by_key(|x| x.0);
        for ((a, b), depth) in deep {
            markers.push(Marker {
                kind: MarkerKind::DeepPenetration,
                text: format!(
                    "{} – {} penetrate {depth:.4} m (tolerance {tolerance:.4} m)",
                    self.scene.collider_label(a as usize),
                    self.scene.collider_label(b as usize)
                ),
                bodies: vec![a, b],
            });
        }
        markers
    }
}

/// A pose as an isometry. A NaN in it stays a NaN (what the engine's state was).
pub fn pose(p: &PoseItem) -> crate::geom::Pose {
    crate::geom::Pose::from_parts(
        nalgebra::Translation3::from(Vec3::from(p.translation)),
        quat(p.rotation),
    )
}
