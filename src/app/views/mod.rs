//! The views every scene gets: guides, bodies and the trace events' own shapes, turned into
//! draw data from what the engine recorded (a frame, its trace, the current event). Each
//! algorithm family adds its own drawing through its view in `app::families`.

pub mod bodies;
pub mod ccd_mode;
pub mod colors;
pub mod compare_ghost;
pub mod rigid_rays;
pub mod scene_guides;
pub mod trace_overlay;

use crate::app::state::Selection;
use crate::app::state::catalog::BodyCatalog;
use crate::app::viewport::draw_list::DrawList;
use crate::record::Frame;
use crate::trace::{Stage, TraceEvent};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shading {
    Solid,
    #[default]
    SolidWithEdges,
    Wireframe,
}

impl Shading {
    pub const ALL: [Shading; 3] = [Shading::Solid, Shading::SolidWithEdges, Shading::Wireframe];
    pub fn label(self) -> &'static str {
        match self {
            Shading::Solid => "Solid",
            Shading::SolidWithEdges => "Solid + edges",
            Shading::Wireframe => "Wireframe",
        }
    }
}

/// Which trace events the viewport draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TraceOverlay {
    Off,
    /// Only the event under the step scrubber.
    #[default]
    Current,
    /// Every event from the start of the frame to the current one: the work done so far.
    UpToCurrent,
    /// Every event of the frame.
    WholeFrame,
}

impl TraceOverlay {
    pub const ALL: [TraceOverlay; 4] = [
        TraceOverlay::Off,
        TraceOverlay::Current,
        TraceOverlay::UpToCurrent,
        TraceOverlay::WholeFrame,
    ];
    pub fn label(self) -> &'static str {
        match self {
            TraceOverlay::Off => "No events",
            TraceOverlay::Current => "Current event",
            TraceOverlay::UpToCurrent => "Events up to current",
            TraceOverlay::WholeFrame => "All events of the frame",
        }
    }
}

/// What the viewport shows; persisted with the settings.
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewOptions {
    pub shading: Shading,
    pub grid: bool,
    pub axes: bool,
    pub contacts: bool,
    pub normals: bool,
    pub trace: TraceOverlay,
    /// Stages whose events the overlay does not draw (the current event is always drawn).
    /// Stored under a new name: the old list also held families, which are no longer stages.
    #[serde(rename = "hidden_pipeline_stages")]
    pub hidden_stages: Vec<Stage>,
    /// Families whose events the overlay does not draw (their `EngineFamily::NAME`).
    pub hidden_families: Vec<String>,
    /// Draw the selection's edges through other bodies.
    pub xray_selection: bool,
    /// While stepping events, fade the bodies an event does not involve.
    pub focus_event: bool,
    pub labels: bool,
    /// The rays of the ray-traced narrow phase (`narrow: Rays`), from the trace.
    pub rays: bool,
}

impl ViewOptions {
    /// Whether the overlay draws an event other than the current one.
    pub fn draws(&self, e: &crate::trace::TraceEvent) -> bool {
        !self.hidden_stages.contains(&e.stage)
            && !self.hidden_families.iter().any(|f| f == e.family())
    }
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            shading: Shading::default(),
            grid: true,
            axes: true,
            contacts: true,
            normals: true,
            trace: TraceOverlay::default(),
            hidden_stages: vec![Stage::Integrate],
            hidden_families: Vec::new(),
            xray_selection: true,
            focus_event: true,
            labels: true,
            rays: true,
        }
    }
}

/// Everything a view may read.
pub struct ViewContext<'a> {
    pub frame: &'a Frame,
    pub catalog: &'a BodyCatalog,
    pub selection: Selection,
    pub event: Option<(usize, &'a TraceEvent)>,
    pub options: &'a ViewOptions,
    pub penetration_tolerance_m: f64,
    /// A radius that contains the scene, for sizing guides.
    pub scene_radius: f64,
    /// Fade every body: a family view's drawing is the subject (a traversal step).
    pub ghost_bodies: bool,
}

impl ViewContext<'_> {
    /// Bodies the current event involves.
    pub fn event_bodies(&self) -> Vec<u32> {
        self.event.map(|(_, e)| e.bodies()).unwrap_or_default()
    }
}

/// A view of one algorithm family.
pub trait AlgorithmView {
    fn name(&self) -> &'static str;
    /// Adds what this family shows of the frame and the current event.
    fn draw(&self, ctx: &ViewContext, out: &mut DrawList);
}

pub fn all_views() -> Vec<Box<dyn AlgorithmView>> {
    vec![
        Box::new(scene_guides::SceneGuides),
        Box::new(bodies::BodiesView),
        Box::new(trace_overlay::TraceOverlayView),
        Box::new(rigid_rays::RigidRaysView),
    ]
}

/// The whole draw list for one frame.
pub fn build_draw_list(ctx: &ViewContext) -> DrawList {
    let mut out = DrawList {
        catalog_generation: ctx.catalog.generation,
        scene_radius: ctx.scene_radius,
        ..Default::default()
    };
    for view in all_views() {
        view.draw(ctx, &mut out);
    }
    out
}

/// A radius about the origin that holds every body of the frame (with its mesh).
pub fn scene_radius(frame: &Frame, catalog: &BodyCatalog) -> f64 {
    frame
        .bodies
        .iter()
        .map(|b| {
            let r = catalog.mesh_of(b.id).map_or(0.5, |m| m.radius as f64);
            b.position.coords.norm() + r
        })
        .filter(|r| r.is_finite())
        .fold(1.0, f64::max)
}
