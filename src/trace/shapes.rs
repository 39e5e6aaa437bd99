//! The geometry an event asks the viewer to draw. Computed from the event's own data, so the
//! viewer never runs collision code to show a step.

use super::{TraceEvent, Volume};
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

/// A recorded bounding volume as lines and boxes.
pub fn volume_shapes(v: &Volume, role: ShapeRole, out: &mut Vec<DebugShape>) {
    match v {
        Volume::Aabb(b) => out.push(DebugShape::Box(*b, role)),
        Volume::Obb(o) => out.push(DebugShape::Obb(*o, role)),
        Volume::Sphere(s) => out.push(DebugShape::Sphere(*s, role)),
        // The slabs clipped into a polytope, drawn by its edges: a k-DOP of a rotated body
        // has rotated slabs, which no box could show.
        Volume::Kdop { axes, min, max } => {
            if let Some(poly) = crate::geom::polytope::Polytope::from_slabs(axes, min, max) {
                out.extend(poly.edges().map(|(a, b)| DebugShape::Line(a, b, role)));
            }
        }
    }
}

impl TraceEvent {
    /// The geometry the event draws from its own data.
    pub fn shapes(&self) -> Vec<DebugShape> {
        let mut out = Vec::new();
        self.kind.shapes(&mut out);
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
