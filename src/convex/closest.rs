//! The closest points between two features, one on each polyhedron: the final answer of
//! the walk, and the distance of every intermediate pair for the step view.

use super::{Feature, Placed};
use crate::geom::closest::{point_segment, point_triangle, segment_segment};
use crate::geom::{Point3, Real, Segment};

/// The closest points (on `a`'s feature, on `b`'s feature). Where the features intersect, a
/// point of the intersection for both.
pub fn feature_points(a: &Placed, fa: Feature, b: &Placed, fb: Feature) -> (Point3, Point3) {
    use Feature::*;
    match (fa, fb) {
        (Vertex(i), Vertex(j)) => (a.vertex(i), b.vertex(j)),
        (Vertex(i), Edge(j)) => {
            let p = a.vertex(i);
            (p, point_segment(&p, &b.edge(j)).0)
        }
        (Edge(_), Vertex(_)) => swap(feature_points(b, fb, a, fa)),
        (Edge(i), Edge(j)) => {
            let (p, q) = segment_segment(&a.edge(i), &b.edge(j));
            (p.point, q.point)
        }
        (Vertex(i), Face(j)) => {
            let p = a.vertex(i);
            (p, point_face(&p, b, j))
        }
        (Face(_), Vertex(_)) => swap(feature_points(b, fb, a, fa)),
        (Edge(i), Face(j)) => segment_face(&a.edge(i), b, j),
        (Face(_), Edge(_)) => swap(feature_points(b, fb, a, fa)),
        (Face(i), Face(j)) => {
            let from_a = a.shape.face_edges[i as usize]
                .iter()
                .map(|&e| segment_face(&a.edge(e), b, j));
            let from_b = b.shape.face_edges[j as usize]
                .iter()
                .map(|&e| swap(segment_face(&b.edge(e), a, i)));
            nearest(from_a.chain(from_b)).unwrap_or((a.anchor(fa), b.anchor(fb)))
        }
    }
}

pub fn feature_distance(a: &Placed, fa: Feature, b: &Placed, fb: Feature) -> Real {
    let (p, q) = feature_points(a, fa, b, fb);
    (p - q).norm()
}

fn swap((p, q): (Point3, Point3)) -> (Point3, Point3) {
    (q, p)
}

fn nearest(pairs: impl Iterator<Item = (Point3, Point3)>) -> Option<(Point3, Point3)> {
    pairs.min_by(|x, y| {
        (x.0 - x.1)
            .norm_squared()
            .total_cmp(&(y.0 - y.1).norm_squared())
    })
}

/// Whether a point of the face's plane lies inside the face polygon.
fn inside_face(p: &Point3, b: &Placed, f: u32, tolerance: Real) -> bool {
    let n = b.normal(f);
    let face = &b.shape.faces[f as usize];
    (0..face.len()).all(|k| {
        let v0 = b.vertex(face[k]);
        let v1 = b.vertex(face[(k + 1) % face.len()]);
        n.cross(&(v1 - v0)).dot(&(p - v0)) >= -tolerance * (v1 - v0).norm()
    })
}

/// The point of face `f` closest to `p`.
pub fn point_face(p: &Point3, b: &Placed, f: u32) -> Point3 {
    let (n, d) = b.face_plane(f);
    let proj = p - n * (n.dot(&p.coords) - d);
    if inside_face(&proj, b, f, 0.0) {
        return proj;
    }
    b.face_triangles(f)
        .map(|t| point_triangle(p, &t))
        .min_by(|x, y| (p - x).norm_squared().total_cmp(&(p - y).norm_squared()))
        .unwrap_or(proj)
}

/// The closest points between a segment and face `f`.
pub fn segment_face(s: &Segment, b: &Placed, f: u32) -> (Point3, Point3) {
    let (n, d) = b.face_plane(f);
    let (da, db) = (n.dot(&s.a.coords) - d, n.dot(&s.b.coords) - d);
    if da * db <= 0.0 && da != db {
        let x = s.at(da / (da - db));
        if inside_face(&x, b, f, b.tolerance()) {
            return (x, x);
        }
    }
    let ends = [s.a, s.b].into_iter().map(|p| (p, point_face(&p, b, f)));
    let face = &b.shape.faces[f as usize];
    let sides = (0..face.len()).map(|k| {
        let side = Segment::new(b.vertex(face[k]), b.vertex(face[(k + 1) % face.len()]));
        let (p, q) = segment_segment(s, &side);
        (p.point, q.point)
    });
    nearest(ends.chain(sides)).unwrap_or((s.a, s.a))
}
