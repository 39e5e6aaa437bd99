//! A click on a body of the pair, turned into the feature under the cursor: the vertex when
//! the hit is near one, else the edge when near one, else the face hit. Near is a share of
//! the body's size, so small features stay clickable on any scale.

use super::shapes::PosedShape;
use crate::convex::{Feature, Placed};
use crate::geom::closest::point_segment;
use crate::geom::{Point3, Ray, Real};

/// Where a ray enters a convex polyhedron: the parameter and the face it enters through.
pub fn ray_entry(p: &Placed, ray: &Ray) -> Option<(Real, u32)> {
    let (mut enter, mut exit) = (0.0 as Real, Real::INFINITY);
    let mut face = None;
    for f in 0..p.shape.faces.len() as u32 {
        let (n, d) = p.face_plane(f);
        let denom = n.dot(&ray.dir);
        let dist = d - n.dot(&ray.origin.coords);
        if denom.abs() < 1e-300 {
            if dist < 0.0 {
                return None;
            }
            continue;
        }
        let t = dist / denom;
        if denom < 0.0 {
            if t > enter || face.is_none() {
                enter = enter.max(t);
                face = Some(f);
            }
        } else {
            exit = exit.min(t);
        }
    }
    (enter <= exit).then_some(())?;
    face.map(|f| (enter, f))
}

/// The feature of `p` nearest the surface point `at` on face `face`.
pub fn feature_near(p: &Placed, at: &Point3, face: u32) -> Feature {
    let size = p.shape.radius.max(1e-9);
    let vertex = p.shape.faces[face as usize]
        .iter()
        .map(|&v| ((p.vertex(v) - at).norm(), v))
        .min_by(|x, y| x.0.total_cmp(&y.0));
    if let Some((d, v)) = vertex
        && d < 0.14 * size
    {
        return Feature::Vertex(v);
    }
    let edge = p.shape.face_edges[face as usize]
        .iter()
        .map(|&e| ((point_segment(at, &p.edge(e)).0 - at).norm(), e))
        .min_by(|x, y| x.0.total_cmp(&y.0));
    if let Some((d, e)) = edge
        && d < 0.08 * size
    {
        return Feature::Edge(e);
    }
    Feature::Face(face)
}

/// The nearest hit among the bodies: which one (its index in `bodies`) and its feature.
pub fn pick(bodies: &[&PosedShape], ray: &Ray) -> Option<(usize, Feature)> {
    bodies
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            let placed = b.placed();
            let (t, face) = ray_entry(&placed, ray)?;
            let at = ray.origin + ray.dir * t;
            Some((t, k, feature_near(&placed, &at, face)))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, k, f)| (k, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convex::Polyhedron;
    use crate::geom::{ConvexPolyhedron, Pose, Vec3};
    use std::sync::Arc;

    fn cube() -> PosedShape {
        PosedShape {
            body: 0,
            shape: Arc::new(
                Polyhedron::from_convex(&ConvexPolyhedron::cuboid(Vec3::new(1.0, 1.0, 1.0)))
                    .expect("cube"),
            ),
            pose: Pose::identity(),
        }
    }

    fn ray(origin: [f64; 3], dir: [f64; 3]) -> Ray {
        Ray {
            origin: Point3::from(origin),
            dir: Vec3::from(dir),
        }
    }

    #[test]
    fn clicks_pick_vertex_edge_or_face() {
        let c = cube();
        let placed = c.placed();
        let down = [0.0, 0.0, -1.0];
        let kinds = [
            ([0.0, 0.0, 5.0], 'F'),
            ([0.98, 0.97, 5.0], 'V'),
            ([0.0, 0.97, 5.0], 'E'),
        ];
        for (origin, kind) in kinds {
            let (k, f) = pick(&[&c], &ray(origin, down)).expect("a hit");
            assert_eq!(k, 0);
            assert_eq!(f.kind().letter(), kind, "{origin:?} picked {f}");
            // The picked feature touches the hit point's face (z = 1).
            assert!((placed.anchor(f).z - 1.0).abs() < 1e-9);
        }
        assert_eq!(pick(&[&c], &ray([3.0, 0.0, 5.0], down)), None);
        assert_eq!(pick(&[&c], &ray([0.0, 0.0, 5.0], [0.0, 0.0, 1.0])), None);
    }
}
