//! The iterative cast's walks (spec 002 §3.4) drawn from what the recording holds: a walked
//! ray names the triangle it started from and how many it tested, a lost one also why it
//! stopped. The walk is deterministic, so its path is retraced on the frame's geometry and
//! drawn as a line through the centroids of the triangles it crossed.
//!
//! The frame records the sheet after the response, the walk ran on it before: when the
//! retraced walk does not end where the recorded one did (another triangle, another count),
//! only the recorded ends are drawn, joined by a dashed line, and the panel says so.

use super::palette;
use super::recorded::{RayRow, Sheet, centroid};
use crate::app::families::FamilyContext;
use crate::app::viewport::draw_list::{DrawList, to_f32};
use crate::app::views::colors::with_alpha;
use crate::cloth::{RayKind, Target};
use crate::geom::{Point3, Ray, TriMesh};
use crate::raycast::{IterativeOutcome, TriangleAdjacency, walk_path};

/// A walk retraced on the frame's geometry: the triangles it tested, in order, and whether
/// it ends as the recording says.
pub struct Retraced {
    pub path: Vec<u32>,
    pub matches: bool,
}

/// The targets' meshes at the frame, each built once however many walks cross it (a frame
/// draws hundreds of walks on one or two targets).
pub struct Retracer<'a> {
    cx: &'a FamilyContext<'a>,
    sheet: &'a Sheet<'a>,
    meshes: Vec<(Target, Option<TriMesh>)>,
}

impl<'a> Retracer<'a> {
    pub fn new(cx: &'a FamilyContext<'a>, sheet: &'a Sheet<'a>) -> Self {
        Self {
            cx,
            sheet,
            meshes: Vec::new(),
        }
    }

    /// `target`'s triangles at the frame, its adjacency and its mean triangle size.
    fn target(&mut self, target: Target) -> Option<(&TriMesh, &'a TriangleAdjacency, f64)> {
        let (sheet, cx) = (self.sheet, self.cx);
        let (adjacency, mean) = match target {
            Target::Rigid(body) => {
                let rigid = sheet.statics.rigid.get(body as usize)?;
                (&rigid.adjacency, rigid.mean_triangle_m)
            }
            Target::Cloth(_) => (&sheet.statics.mesh.adjacency, sheet.statics.mesh.mean_edge_m()),
        };
        let k = match self.meshes.iter().position(|(t, _)| *t == target) {
            Some(k) => k,
            None => {
                let mesh = match target {
                    Target::Rigid(body) => {
                        let rigid = sheet.statics.rigid.get(body as usize)?;
                        let pose = cx.pose(body)?;
                        TriMesh::new(
                            rigid.local.vertices.iter().map(|v| pose * v).collect(),
                            rigid.local.triangles.clone(),
                        )
                    }
                    Target::Cloth(_) => TriMesh::new(
                        sheet.positions.to_vec(),
                        sheet.statics.mesh.triangles.clone(),
                    ),
                };
                self.meshes.push((target, mesh.ok()));
                self.meshes.len() - 1
            }
        };
        let mesh = self.meshes[k].1.as_ref()?;
        Some((mesh, adjacency, mean))
    }

    /// The walk of ray `r`, retraced (None for a ray that was cast completely, or when the
    /// recording's geometry cannot be rebuilt).
    pub fn retrace(&mut self, r: &RayRow) -> Option<Retraced> {
        let walk = r.walk?;
        let origin = self.sheet.vertex(r.vertex)?;
        let normal = *self.sheet.normals.get(r.vertex as usize)?;
        // Only the inner ray is walked; the sign of t tells the side (§3.4.4).
        let ray = Ray::new(origin, -normal);
        let gate = self.sheet.statics.scene.params.gate;
        let (mesh, adjacency, mean) = self.target(r.target)?;
        let cap = gate.max_iterations(mean);
        let (path, outcome) = walk_path(mesh, adjacency, &ray, walk.from, cap);
        let ended = match outcome {
            IterativeOutcome::Collision(h) | IterativeOutcome::Prediction(h) => {
                r.triangle == Some(h.triangle)
            }
            IterativeOutcome::NotFound { reason, .. } => walk.stop == Some(reason),
        };
        let matches = ended && path.len() as u32 == walk.steps;
        Some(Retraced { path, matches })
    }

    /// Draws the walk of `r`: its start triangle outlined, its path through the centroids,
    /// and where it ended. `loud` for the ray stepped onto (drawn over everything).
    pub fn draw(&mut self, r: &RayRow, loud: bool, list: &mut DrawList) {
        let (cx, sheet) = (self.cx, self.sheet);
        let Some(walk) = r.walk else {
            return;
        };
        let color = if r.kind == RayKind::Lost {
            palette::LOST
        } else {
            palette::WALK
        };
        let color = if loud { color } else { with_alpha(color, 0.7) };
        let centre = |t: u32| sheet.triangle(cx, r.target, t).map(|tri| centroid(&tri));
        if let Some([a, b, c]) = sheet.triangle(cx, r.target, walk.from) {
            for (p, q) in [(a, b), (b, c), (c, a)] {
                line(list, &p, &q, color, loud);
            }
        }
        let points: Vec<Point3> = match self.retrace(r) {
            Some(w) if w.matches => w.path.iter().filter_map(|&t| centre(t)).collect(),
            // Only what is recorded: the start and, if found, the hit.
            _ => [Some(walk.from), r.triangle]
                .into_iter()
                .flatten()
                .filter_map(centre)
                .collect(),
        };
        for pair in points.windows(2) {
            line(list, &pair[0], &pair[1], color, loud);
        }
        for p in &points {
            list.point(p, if loud { 7.0 } else { 4.0 }, color);
        }
    }
}

fn line(list: &mut DrawList, p: &Point3, q: &Point3, color: [f32; 4], loud: bool) {
    if loud {
        list.line_on_top(to_f32(p), to_f32(q), color);
    } else {
        list.line(to_f32(p), to_f32(q), color);
    }
}
