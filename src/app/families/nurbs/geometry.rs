//! The frame's surfaces as the engine queried them, and the sub-patches its events name.
//!
//! Events carry a surface id and a path of halvings; the engine documents that a recorded box
//! is the one `rebuild_piece_box` gives for the path, on the surface placed where the query saw
//! it. Pieces are rebuilt once per frame from their parent's, by the engine's own split rule
//! and box rule (`piece_box`, from the parent's box), so a deep tree costs what the query
//! itself cost.

use super::queries::{self, Query};
use crate::app::families::FamilyContext;
use crate::families::{FamilyFrameData, FamilySceneData};
use crate::geom::{Obb, Point3, Vec3};
use crate::nurbs::rules::{NurbsRules, halve, split_direction, split_plan};
use crate::nurbs::split::Direction;
use crate::nurbs::{HitMode, NurbsFrame, NurbsScene, NurbsSim, NurbsSurface, PatchPath, piece_box};
use std::collections::HashMap;

/// The scene's NURBS data, if it brings any.
pub fn nurbs_scene<'a>(cx: &FamilyContext<'a>) -> Option<&'a NurbsScene> {
    cx.scene_data().iter().find_map(|d| match d {
        FamilySceneData::Nurbs(n) => Some(n),
        _ => None,
    })
}

pub(super) fn nurbs_frame(frame: &crate::record::Frame) -> Option<&NurbsFrame> {
    frame.families.iter().find_map(|d| match d {
        FamilyFrameData::Nurbs(n) => Some(n),
        _ => None,
    })
}

/// A sub-patch: its exact parameter rectangle `[u0, u1, v0, v1]`, its box, and the piece.
pub struct Piece {
    pub surface: NurbsSurface,
    pub rect: [f64; 4],
    pub obb: Obb,
}

/// One surface of the scene in this frame.
pub struct FrameSurface {
    pub body: usize,
    pub index: usize,
    pub name: String,
    pub world: NurbsSurface,
}

/// Everything the view draws for one frame, built once when the playhead moves.
#[derive(Default)]
pub struct FrameGeometry {
    key: Option<(u64, usize)>,
    pub surfaces: Vec<FrameSurface>,
    pub queries: Vec<Query>,
    /// True when a body that bounced is drawn where its query saw it, not where the frame
    /// records it (back at its start).
    pub moved_back: bool,
    pub size: f64,
    /// The rules the scene's queries ran with: pieces and boxes are rebuilt by them.
    pub rules: NurbsRules,
    /// The scene's hit mode (curve mode explains its leaves differently).
    pub mode: Option<HitMode>,
    pieces: HashMap<(u32, PatchPath), Piece>,
    pub problem: Option<String>,
}

impl FrameGeometry {
    /// Brings the cache to the frame under the playhead; false when there is nothing to show.
    pub fn sync(&mut self, cx: &FamilyContext) -> bool {
        let key = (cx.generation(), cx.state.playhead.frame);
        if self.key != Some(key) {
            *self = FrameGeometry::build(cx);
            self.key = Some(key);
        }
        !self.surfaces.is_empty()
    }

    fn build(cx: &FamilyContext) -> FrameGeometry {
        let mut g = FrameGeometry::default();
        let Some(scene) = nurbs_scene(cx) else {
            g.problem = Some(
                "This scene has no NURBS surfaces. Open one of the nurbs-* scenes \
                 (Scenes menu)."
                    .into(),
            );
            return g;
        };
        g.rules = scene.rules;
        g.mode = Some(scene.mode);
        let (poses, time_s) = match cx.frame() {
            Some(f) => {
                let recorded = nurbs_frame(f).and_then(|d| NurbsSim::recorded_poses(scene, d));
                let queried = queried_positions(cx, scene, f);
                if let (Some(r), Some(q)) = (&recorded, &queried) {
                    g.moved_back = r != q;
                }
                (queried.or(recorded), f.time_s)
            }
            None => (None, 0.0),
        };
        let poses = poses.unwrap_or_else(|| {
            scene
                .bodies
                .iter()
                .map(|b| crate::geom::Pose::from_parts(b.start.coords.into(), crate::geom::Quat::identity()))
                .collect()
        });
        if poses.len() != scene.bodies.len() {
            g.problem = Some("the frame's NURBS data does not fit the scene".into());
            return g;
        }
        for (b, body) in scene.bodies.iter().enumerate() {
            for s in 0..body.surfaces.len() {
                let name = if body.surfaces.len() == 1 {
                    body.name.clone()
                } else {
                    format!("{} · patch {}", body.name, s + 1)
                };
                g.surfaces.push(FrameSurface {
                    body: b,
                    index: s,
                    name,
                    world: scene.world_surface_posed(b, s, &poses[b], time_s),
                });
            }
        }
        g.size = scene_size(&g.surfaces);
        if let Some(f) = cx.frame() {
            g.queries = queries::read(&f.trace);
        }
        g
    }

    pub fn surface(&self, id: u32) -> Option<&FrameSurface> {
        self.surfaces.get(id as usize)
    }

    pub fn name(&self, id: u32) -> String {
        self.surface(id)
            .map_or_else(|| format!("surface {id}"), |s| s.name.clone())
    }

    /// The sub-patch `path` of surface `id`, rebuilt from its parent by the engine's rule.
    pub fn piece(&mut self, id: u32, path: PatchPath) -> Option<&Piece> {
        if !self.pieces.contains_key(&(id, path)) {
            let piece = if path.depth == 0 {
                let s = self.surface(id)?.world.clone();
                Piece {
                    rect: s.domain(),
                    obb: piece_box(&s, None, self.rules.box_rule),
                    surface: s,
                }
            } else {
                let d = path.depth - 1;
                let parent = PatchPath {
                    depth: d,
                    bits: path.bits & ((1u64 << d) - 1),
                };
                let (box_rule, split_rule) = (self.rules.box_rule, self.rules.split_rule);
                let p = self.piece(id, parent)?;
                let (lo, hi) = halve(&p.surface, d, split_rule);
                let s = if path.step(d) == 0 { lo } else { hi };
                Piece {
                    rect: s.domain(),
                    obb: piece_box(&s, Some(&p.obb), box_rule),
                    surface: s,
                }
            };
            self.pieces.insert((id, path), piece);
        }
        self.pieces.get(&(id, path))
    }

    /// The direction in which the piece at `path` was halved.
    pub fn split_of(&mut self, id: u32, path: PatchPath) -> Option<Direction> {
        let rule = self.rules.split_rule;
        let p = self.piece(id, path)?;
        Some(split_direction(&p.surface, path.depth, rule))
    }

    /// Where the piece at `path` was cut: its direction and parameter.
    pub fn split_plan_of(&mut self, id: u32, path: PatchPath) -> Option<(Direction, f64)> {
        let rule = self.rules.split_rule;
        let p = self.piece(id, path)?;
        Some(split_plan(&p.surface, path.depth, rule))
    }

    /// The whole domain of a surface, to which (u, v) rectangles are drawn.
    pub fn domain(&self, id: u32) -> Option<[f64; 4]> {
        Some(self.surface(id)?.world.domain())
    }

    /// The query the trace index falls in.
    pub fn query_of_event(&self, event: usize) -> Option<usize> {
        self.queries.iter().position(|q| q.contains(event))
    }

    /// The 3D ends of segment `k` of query `q`: surface A's points at the recorded
    /// parameters (within the flat tolerance of where the corner triangles crossed).
    pub fn segment_ends(&self, q: usize, k: usize) -> Option<[Point3; 2]> {
        let query = self.queries.get(q)?;
        let seg = query.segments.get(k)?;
        let a = &self.surface(query.surface_a)?.world;
        let end = |e: [f64; 2]| a.point(e[0], e[1]);
        Some([end(seg.uv_a[0]), end(seg.uv_a[1])])
    }

    /// Where a hit lies: the mean of the two leaf boxes' centres, as the engine reports it.
    pub fn hit_point(&mut self, q: usize, test: usize) -> Option<Point3> {
        let query = self.queries.get(q)?;
        let t = query.tests.get(test)?;
        let (a, b, pa, pb) = (query.surface_a, query.surface_b, t.path_a, t.path_b);
        let ca = self.piece(a, pa)?.obb.center;
        let cb = self.piece(b, pb)?.obb.center;
        Some(nalgebra::center(&ca, &cb))
    }
}

/// Where the frame's queries saw the bodies, from the frame before (see
/// `NurbsSim::queried_poses`); `None` for the first frame.
fn queried_positions(
    cx: &FamilyContext,
    scene: &NurbsScene,
    frame: &crate::record::Frame,
) -> Option<Vec<crate::geom::Pose>> {
    let at = cx.state.playhead.frame.checked_sub(1)?;
    let previous = cx.session()?.frame(at).ok()?;
    let before = nurbs_frame(&previous)?;
    let world = cx.scene()?;
    let dt = world.solver.dt_s;
    NurbsSim::queried_poses(scene, before, Vec3::from(world.gravity), dt, frame.time_s)
}

fn scene_size(surfaces: &[FrameSurface]) -> f64 {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for s in surfaces {
        for p in s.world.cartesian_points() {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
    }
    let d = (hi - lo).norm();
    if d.is_finite() { d.max(1e-3) } else { 1.0 }
}

/// The two boxes of a test, A's first.
pub fn test_boxes(g: &mut FrameGeometry, q: usize, test: usize) -> Option<(Obb, Obb)> {
    let query = g.queries.get(q)?;
    let t = query.tests.get(test)?;
    let (a, b, pa, pb) = (query.surface_a, query.surface_b, t.path_a, t.path_b);
    let ba = g.piece(a, pa)?.obb;
    let bb = g.piece(b, pb)?.obb;
    Some((ba, bb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nurbs::query::{QueryOptions, intersect_traced, rebuild_piece_box_with};
    use crate::nurbs::shapes::{plane, sphere_octant};
    use crate::nurbs::{HitMode, NurbsEvent};

    fn geometry_of(a: NurbsSurface, b: NurbsSurface) -> (FrameGeometry, Vec<NurbsEvent>) {
        geometry_under(a, b, QueryOptions::precision(0.05, HitMode::All))
    }

    fn geometry_under(
        a: NurbsSurface,
        b: NurbsSurface,
        options: QueryOptions,
    ) -> (FrameGeometry, Vec<NurbsEvent>) {
        let mut events = Vec::new();
        intersect_traced(&a, &b, (0, 1), options, |e| events.push(e));
        let mut g = FrameGeometry {
            rules: options.rules(),
            ..FrameGeometry::default()
        };
        for (k, s) in [a, b].into_iter().enumerate() {
            g.surfaces.push(FrameSurface {
                body: k,
                index: 0,
                name: format!("s{k}"),
                world: s,
            });
        }
        (g, events)
    }

    /// Every box and rectangle the view resolves equals the one the engine rebuilds for the
    /// recorded path, event by event, under every choice of rules.
    #[test]
    fn resolved_pieces_are_the_engines_pieces() {
        use crate::nurbs::rules::{BoxRule, Recursion, SplitRule};
        let ball = sphere_octant([0.0, 0.0, 0.45], 0.5, [1.0, 1.0, -1.0]);
        let originals = [ball, plane(2.0, 0.0)];
        for box_rule in [BoxRule::Covariance, BoxRule::CornerFrame] {
            for split_rule in [SplitRule::Thesis, SplitRule::Alternate] {
                for recursion in [Recursion::OneSplit, Recursion::Base, Recursion::Subdivide4] {
                    let options = QueryOptions::precision(0.05, HitMode::All)
                        .with_box_rule(box_rule)
                        .with_split_rule(split_rule)
                        .with_recursion(recursion);
                    let [a, b] = originals.clone();
                    let (mut g, events) = geometry_under(a, b, options);
                    let mut checked = 0;
                    for e in &events {
                        let NurbsEvent::BoxPair { path_a, path_b, .. } = e else {
                            continue;
                        };
                        for (id, path) in [(0u32, *path_a), (1u32, *path_b)] {
                            let (engine, engine_box) =
                                rebuild_piece_box_with(&originals[id as usize], path, &options);
                            let piece = g.piece(id, path).expect("piece");
                            assert_eq!(piece.rect, engine.domain(), "{options:?}");
                            assert_eq!(piece.obb, engine_box, "{options:?}");
                            checked += 1;
                        }
                    }
                    assert!(checked > 10, "only {checked} boxes checked under {options:?}");
                }
            }
        }
    }

    fn trace_of(events: Vec<NurbsEvent>) -> Vec<crate::trace::TraceEvent> {
        let info = crate::trace::Verdict::Info;
        events
            .into_iter()
            .map(|e| crate::trace::TraceEvent::new(info, e))
            .collect()
    }

    /// Algorithm 2.2's trace read back as a tree: one test per call, and every overlapping
    /// call above the stop has for children the pairs of its two pieces' quarters, as
    /// `query_four::quarters` cuts them, one call deeper.
    #[test]
    fn a_cut_in_four_reads_as_a_tree_of_quarters() {
        use crate::nurbs::query_four::quarters;
        use crate::nurbs::rules::{Recursion, SplitRule};
        let ball = sphere_octant([0.0, 0.0, 0.45], 0.5, [1.0, 1.0, -1.0]);
        let options = QueryOptions::precision(0.05, HitMode::All)
            .with_recursion(Recursion::Subdivide4)
            .with_split_rule(SplitRule::Alternate);
        let (_, stats) = crate::nurbs::intersect(&ball, &plane(2.0, 0.0), options);
        let (mut g, events) = geometry_under(ball, plane(2.0, 0.0), options);
        g.queries = queries::read(&trace_of(events));
        assert_eq!(g.queries.len(), 1);
        let query = g.queries[0].clone();
        assert_eq!(query.tests.len() as u64, stats.calls);
        let mut widest = 0;
        for t in &query.tests {
            if t.splits.is_empty() {
                assert!(t.children.is_empty());
                continue;
            }
            let cut = |g: &mut FrameGeometry, id, path| {
                let piece = g.piece(id, path).expect("piece").surface.clone();
                let (pieces, _) = quarters(&piece, path, SplitRule::Alternate);
                pieces.into_iter().map(|(_, p)| p).collect::<Vec<_>>()
            };
            let (qa, qb) = (cut(&mut g, 0, t.path_a), cut(&mut g, 1, t.path_b));
            let want: Vec<_> = qa.iter().flat_map(|&a| qb.iter().map(move |&b| (a, b))).collect();
            let got: Vec<_> = t
                .children
                .iter()
                .map(|&c| (query.tests[c].path_a, query.tests[c].path_b))
                .collect();
            assert_eq!(got, want);
            for &c in &t.children {
                assert_eq!(query.tests[c].depth(), t.depth() + 1);
            }
            widest = widest.max(t.children.len());
        }
        assert_eq!(widest, 16, "no call cut both pieces in four");
    }

    #[test]
    fn a_hit_lies_between_its_leaf_boxes_on_both_surfaces() {
        let ball = sphere_octant([0.0, 0.0, 0.45], 0.5, [1.0, 1.0, -1.0]);
        let (a, b) = (ball.clone(), plane(2.0, 0.0));
        let (hits, _) =
            crate::nurbs::intersect(&a, &b, QueryOptions::precision(0.05, HitMode::All));
        let (mut g, events) = geometry_of(a, b);
        g.queries = queries::read(&trace_of(events));
        assert_eq!(g.queries.len(), 1);
        let leaves = g.queries[0].hits.clone();
        assert_eq!(leaves.len(), hits.len());
        assert!(!hits.is_empty());
        for (k, h) in leaves.iter().zip(&hits) {
            let p = g.hit_point(0, *k).expect("point");
            assert!((p - h.point).norm() < 1e-12, "{p} vs {}", h.point);
        }
    }
}
