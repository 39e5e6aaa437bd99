//! The Voronoi region of each feature (Lin & Canny 1991, Mirtich 1998): the points closer to
//! that feature than to any other of the polyhedron, outside it. Each region is bounded by
//! planes, and each plane separates the region from one neighbouring feature's region:
//! - a vertex's cone: one plane per incident edge, through the vertex, perpendicular to it;
//! - an edge's wedge: two planes through its ends perpendicular to it, and two containing it,
//!   perpendicular to its two faces;
//! - a face's prism: one plane per boundary edge, containing the edge and the face's normal,
//!   and the face's own plane (the prism is above it).

use super::{Feature, Placed};
use crate::geom::{Point3, Real, Vec3};

/// A bounding plane of a region: points with `normal · p ≥ offset` are on the region's side.
/// Crossing it leads into the region of `neighbour`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegionPlane {
    pub normal: Vec3,
    pub offset: Real,
    pub neighbour: Feature,
}

impl RegionPlane {
    fn through(point: &Point3, normal: Vec3, neighbour: Feature) -> Self {
        RegionPlane {
            normal,
            offset: normal.dot(&point.coords),
            neighbour,
        }
    }

    /// Positive on the region's side.
    #[inline]
    pub fn signed(&self, p: &Point3) -> Real {
        self.normal.dot(&p.coords) - self.offset
    }
}

/// The side planes of the feature's region, in the world (for a face, without the face's own
/// plane: the walk treats that one apart). Vertex-neighbour planes of an edge come first, so
/// that the walk prefers moving to a vertex over moving to a face (Mirtich's order).
pub fn region_planes(p: &Placed, f: Feature, out: &mut Vec<RegionPlane>) {
    out.clear();
    let s = p.shape;
    match f {
        Feature::Vertex(v) => {
            let at = p.vertex(v);
            for &e in &s.vertex_edges[v as usize] {
                let w = p.vertex(s.other_end(e, v));
                if let Some(n) = (at - w).try_normalize(0.0) {
                    out.push(RegionPlane::through(&at, n, Feature::Edge(e)));
                }
            }
        }
        Feature::Edge(e) => {
            let [t, h] = s.edges[e as usize];
            let (tail, head) = (p.vertex(t), p.vertex(h));
            let Some(u) = (head - tail).try_normalize(0.0) else {
                return;
            };
            let [l, r] = s.edge_faces[e as usize];
            out.push(RegionPlane::through(&tail, u, Feature::Vertex(t)));
            out.push(RegionPlane::through(&head, -u, Feature::Vertex(h)));
            out.push(RegionPlane::through(
                &tail,
                u.cross(&p.normal(l)),
                Feature::Face(l),
            ));
            out.push(RegionPlane::through(
                &tail,
                p.normal(r).cross(&u),
                Feature::Face(r),
            ));
        }
        Feature::Face(fi) => {
            let n = p.normal(fi);
            let face = &s.faces[fi as usize];
            for (k, &e) in s.face_edges[fi as usize].iter().enumerate() {
                let a = p.vertex(face[k]);
                let b = p.vertex(face[(k + 1) % face.len()]);
                if let Some(u) = (b - a).try_normalize(0.0) {
                    out.push(RegionPlane::through(&a, n.cross(&u), Feature::Edge(e)));
                }
            }
        }
    }
}

/// Whether `q` lies in the feature's region, up to `tolerance` (for a face, above its plane
/// too): the containment check of the closest-pair condition.
pub fn in_region(p: &Placed, f: Feature, q: &Point3, tolerance: Real) -> bool {
    let mut planes = Vec::new();
    region_planes(p, f, &mut planes);
    let sides = planes.iter().all(|pl| pl.signed(q) >= -tolerance);
    match f {
        Feature::Face(fi) => {
            let (n, d) = p.face_plane(fi);
            sides && n.dot(&q.coords) - d >= -tolerance
        }
        _ => sides,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{ConvexPolyhedron, Pose};
    use proptest::prelude::*;

    /// Oracle: a point outside the polyhedron lies in the region of the feature that holds
    /// its closest point on the surface (found by dense brute force over the faces).
    fn owner(p: &Placed, q: &Point3) -> (Real, Vec<Feature>) {
        let s = p.shape;
        let mut best: Vec<(Real, Feature)> = Vec::new();
        for (i, _) in s.vertices.iter().enumerate() {
            best.push(((q - p.vertex(i as u32)).norm(), Feature::Vertex(i as u32)));
        }
        for e in 0..s.edges.len() as u32 {
            let (c, _) = crate::geom::closest::point_segment(q, &p.edge(e));
            best.push(((q - c).norm(), Feature::Edge(e)));
        }
        for f in 0..s.faces.len() as u32 {
            let (n, d) = p.face_plane(f);
            let proj = q - n * (n.dot(&q.coords) - d);
            let inside = p
                .face_triangles(f)
                .any(|t| (crate::geom::closest::point_triangle(&proj, &t) - proj).norm() < 1e-12);
            if inside {
                best.push(((q - proj).norm(), Feature::Face(f)));
            }
        }
        let d = best.iter().map(|b| b.0).fold(Real::INFINITY, Real::min);
        let ties = best
            .iter()
            .filter(|b| b.0 <= d + 1e-9)
            .map(|b| b.1)
            .collect();
        (d, ties)
    }

    proptest! {
        #[test]
        fn closest_feature_region_holds_the_point(
            q in prop::array::uniform3(-3.0f64..3.0),
            half in prop::array::uniform3(0.2f64..1.5),
            angle in 0.0f64..6.3,
        ) {
            let poly = ConvexPolyhedron::cuboid(Vec3::from(half));
            let pose = Pose::new(Vec3::new(0.1, -0.2, 0.3), Vec3::new(0.3, 1.0, -0.5).normalize() * angle);
            let placed = Placed::new(&poly, &pose);
            let q = Point3::from(q);
            let local = pose.inverse_transform_point(&q);
            prop_assume!((0..3).any(|i| local[i].abs() > half[i] + 1e-6));
            let (_, owners) = owner(&placed, &q);
            // The owning feature's region contains the point, and no region of a feature
            // farther away does.
            for f in poly.features() {
                let inside = in_region(&placed, f, &q, 1e-9);
                if owners.contains(&f) && owners.len() == 1 {
                    prop_assert!(inside, "{f} should hold {q}");
                }
                if inside {
                    prop_assert!(owners.contains(&f) || owners.iter().any(|o| poly.neighbours(*o).contains(&f) || poly.neighbours(f).contains(o)), "{f} claims {q}, owners {owners:?}");
                }
            }
        }
    }
}
