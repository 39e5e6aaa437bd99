//! The geometry an event asks the viewer to draw. Computed from the event's own data, so the
//! viewer never runs collision code to show a step.

use super::{EventKind, TraceEvent, Volume};
use crate::geom::{Aabb, Obb, Point3, Sphere, Triangle, Vec3};
use serde::{Deserialize, Serialize};

/// How a shape relates to the event: the viewer maps roles and verdicts to colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShapeRole {
    /// The first object of a pair (or the only one).
    First,
    /// The second object of a pair.
    Second,
    /// The outcome: an intersection segment, a contact point, a normal.
    Result,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DebugShape {
    Point(Point3, ShapeRole),
    Line(Point3, Point3, ShapeRole),
    Arrow(Point3, Vec3, ShapeRole),
    Box(Aabb, ShapeRole),
    Obb(Obb, ShapeRole),
    Sphere(Sphere, ShapeRole),
    Triangle(Triangle, ShapeRole),
}

fn volume_shapes(v: &Volume, role: ShapeRole, out: &mut Vec<DebugShape>) {
    match v {
        Volume::Aabb(b) => out.push(DebugShape::Box(*b, role)),
        Volume::Obb(o) => out.push(DebugShape::Obb(*o, role)),
        Volume::Sphere(s) => out.push(DebugShape::Sphere(*s, role)),
        // The slabs clipped into a polytope, drawn by its edges: a k-DOP of a rotated body
        // has rotated slabs, which no box could show.
        Volume::Kdop { axes, min, max } => {
            if let Some(poly) = crate::bvh::polytope::Polytope::from_slabs(axes, min, max) {
                out.extend(poly.edges().map(|(a, b)| DebugShape::Line(a, b, role)));
            }
        }
    }
}

impl TraceEvent {
    pub fn shapes(&self) -> Vec<DebugShape> {
        use DebugShape as S;
        use EventKind::*;
        use ShapeRole::*;
        let mut out = Vec::new();
        match &self.kind {
            Integrated { from, to, .. } => out.push(S::Line(*from, *to, First)),
            BroadPair { box_a, box_b, .. } => {
                out.push(S::Box(*box_a, First));
                out.push(S::Box(*box_b, Second));
            }
            SpatialCell { bounds, .. } => out.push(S::Box(*bounds, First)),
            SapSwap { .. } | PairChanged { .. } | ShapeTest { .. } => {}
            Contact {
                point,
                normal,
                depth,
                ..
            } => {
                out.push(S::Point(*point, Result));
                out.push(S::Arrow(*point, normal * depth.abs().max(0.05), Result));
            }
            Impulse {
                point,
                normal,
                normal_impulse,
                ..
            } => out.push(S::Arrow(
                *point,
                normal * normal_impulse.abs().max(0.05),
                Result,
            )),
            NodePair {
                volume_a, volume_b, ..
            } => {
                volume_shapes(volume_a, First, &mut out);
                volume_shapes(volume_b, Second, &mut out);
            }
            TrianglePair {
                triangle_a,
                triangle_b,
                segment,
                ..
            } => {
                out.push(S::Triangle(*triangle_a, First));
                out.push(S::Triangle(*triangle_b, Second));
                if let Some(s) = segment {
                    out.push(S::Line(s.a, s.b, Result));
                }
            }
            Refit { volume, .. } => volume_shapes(volume, First, &mut out),
            RayStep { origin, dir, t, .. } => {
                let len = t.unwrap_or(1.0);
                out.push(S::Arrow(*origin, dir * len, First));
                if let Some(t) = t {
                    out.push(S::Point(origin + dir * *t, Result));
                }
            }
            FeaturePair {
                closest_a,
                closest_b,
                ..
            } => {
                out.push(S::Point(*closest_a, First));
                out.push(S::Point(*closest_b, Second));
                out.push(S::Line(*closest_a, *closest_b, Result));
            }
            SlideIteration {
                start, end, plane, ..
            } => {
                out.push(S::Line(*start, *end, First));
                if let Some(p) = plane {
                    out.push(S::Arrow(*end, p.normal * 0.5, Result));
                }
            }
            PatchPair { obb_a, obb_b, .. } => {
                out.push(S::Obb(*obb_a, First));
                out.push(S::Obb(*obb_b, Second));
            }
            InvertedVertex { point, normal, .. } => {
                out.push(S::Point(*point, Result));
                out.push(S::Arrow(*point, normal * 0.2, Result));
            }
            Note { points, .. } => out.extend(points.iter().map(|p| S::Point(*p, Result))),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kdop_is_drawn_by_the_edges_of_its_polytope() {
        // A 14-DOP-like slab set: a unit cube with its eight corners cut off.
        let mut axes = vec![Vec3::x(), Vec3::y(), Vec3::z()];
        let mut min = vec![-1.0; 3];
        let mut max = vec![1.0; 3];
        for d in [
            [1.0, 1.0, 1.0],
            [1.0, -1.0, 1.0],
            [1.0, 1.0, -1.0],
            [-1.0, 1.0, 1.0],
        ] {
            axes.push(Vec3::from(d).normalize());
            min.push(-2.5 / 3f64.sqrt());
            max.push(2.5 / 3f64.sqrt());
        }
        let mut out = Vec::new();
        volume_shapes(&Volume::Kdop { axes, min, max }, ShapeRole::First, &mut out);
        // 6 octagons and 8 triangles, each edge drawn once per face: 6·8 + 8·3 = 72 lines.
        assert_eq!(out.len(), 72, "{out:?}");
        assert!(out.iter().all(|s| matches!(s, DebugShape::Line(a, b, _)
            if a.coords.amax() <= 1.0 + 1e-9 && b.coords.amax() <= 1.0 + 1e-9)));
    }
}
