//! The rays of the ray-traced narrow phase (`narrow: Rays`), drawn from their trace events:
//! each starts at its source vertex (the body's shape at the frame's pose) along that
//! vertex's normal, as far as its hit, marked by a dot (contact normals are the arrows). Red:
//! collision, green: prediction, grey: rejected (the thesis's colours, as the cloth view draws
//! its rays). With a body or a pair selected, only their rays are drawn.

use super::{AlgorithmView, ViewContext};
use crate::app::state::Selection;
use crate::app::viewport::draw_list::{DrawList, to_f32};
use crate::frame::PipelineEvent;
use crate::geom::{Pose, Shape};
use crate::narrow::rays::{RayMesh, RigidRay, RigidRayCaster, RigidRayClass, RigidRaySide};
use crate::record::Frame;
use crate::trace::EventKind;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct RigidRaysView;

pub const COLLISION: [f32; 4] = [1.0, 0.22, 0.2, 1.0];
pub const PREDICTION: [f32; 4] = [0.25, 0.95, 0.35, 1.0];
pub const REJECTED: [f32; 4] = [0.6, 0.6, 0.62, 0.45];

/// A rejected ray with no hit is drawn this long, to show where it went.
const STUB_M: f64 = 0.05;

/// The frame's ray events.
pub fn frame_rays(frame: &Frame) -> impl Iterator<Item = (usize, &RigidRay)> {
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Pipeline(PipelineEvent::Ray(r)) => Some((i, r)),
            _ => None,
        })
}

/// Ray counts of pair `a`–`b` in this frame: collision, prediction, rejected, walked.
pub fn pair_ray_counts(frame: &Frame, a: u32, b: u32) -> Option<[usize; 4]> {
    let mut counts = [0; 4];
    let mut any = false;
    for (_, r) in frame_rays(frame) {
        if (r.source.min(r.target), r.source.max(r.target)) != (a.min(b), a.max(b)) {
            continue;
        }
        any = true;
        counts[match r.class {
            RigidRayClass::Collision => 0,
            RigidRayClass::Prediction => 1,
            RigidRayClass::Rejected => 2,
        }] += 1;
        if r.caster == RigidRayCaster::Walked {
            counts[3] += 1;
        }
    }
    any.then_some(counts)
}

/// The ray meshes of one catalog (its generation), by body.
type MeshCache = Option<(u64, HashMap<u32, Option<Arc<RayMesh>>>)>;

/// Each body's ray mesh (normals included) is built once per catalog: the viewer knows the
/// shapes, not the world.
fn ray_mesh(generation: u64, body: u32, shape: &Shape) -> Option<Arc<RayMesh>> {
    static CACHE: Mutex<MeshCache> = Mutex::new(None);
    let mut cache = CACHE.lock().ok()?;
    if cache.as_ref().is_none_or(|(g, _)| *g != generation) {
        *cache = Some((generation, HashMap::new()));
    }
    let (_, meshes) = cache.as_mut()?;
    meshes
        .entry(body)
        .or_insert_with(|| RayMesh::of_shape(shape).map(Arc::new))
        .clone()
}

fn shows(selection: Selection, r: &RigidRay) -> bool {
    match selection {
        Selection::None => true,
        Selection::Body(b) => r.source == b || r.target == b,
        Selection::Pair(a, b) => (r.source.min(r.target), r.source.max(r.target)) == (a, b),
    }
}

impl AlgorithmView for RigidRaysView {
    fn name(&self) -> &'static str {
        "rigid rays"
    }

    fn draw(&self, ctx: &ViewContext, out: &mut DrawList) {
        if !ctx.options.rays {
            return;
        }
        let current = ctx.event.map(|(i, _)| i);
        for (i, r) in frame_rays(ctx.frame) {
            let is_current = current == Some(i);
            if !is_current && !shows(ctx.selection, r) {
                continue;
            }
            let Some(shape) = ctx.catalog.shapes.get(r.source as usize) else {
                continue;
            };
            let Some(state) = ctx.frame.bodies.iter().find(|b| b.id == r.source) else {
                continue;
            };
            let Some(mesh) = ray_mesh(ctx.catalog.generation, r.source, shape) else {
                continue;
            };
            let (Some(v), Some(Some(n))) = (
                mesh.mesh.vertices.get(r.vertex as usize),
                mesh.normals.get(r.vertex as usize),
            ) else {
                continue;
            };
            let pose = Pose::from_parts(state.position.coords.into(), state.rotation);
            let origin = pose * v;
            let dir = pose.rotation
                * match r.side {
                    RigidRaySide::Inner => -n,
                    RigidRaySide::Outer => *n,
                };
            let length = if r.t.is_finite() { r.t as f64 } else { STUB_M };
            let color = match r.class {
                RigidRayClass::Collision => COLLISION,
                RigidRayClass::Prediction => PREDICTION,
                RigidRayClass::Rejected => REJECTED,
            };
            let end = origin + dir * length;
            out.line(to_f32(&origin), to_f32(&end), color);
            // A dot at the hit, not an arrowhead: contact normals are green arrows, and a
            // prediction ray drawn as one could not be told from them.
            if r.class != RigidRayClass::Rejected || is_current {
                out.point(&end, if is_current { 10.0 } else { 5.0 }, color);
            }
            if is_current {
                out.point(&origin, 10.0, color);
            }
        }
    }
}
