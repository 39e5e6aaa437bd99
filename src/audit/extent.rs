//! How deep two convex shapes overlap along a given direction: what decides whether an
//! engine's contact normal is as good as ours. Where contact is at an edge or a corner, many
//! normals are right (every one in the cone of the faces that meet there); a normal is wrong
//! when pushing the shapes apart along it takes more than along ours.

use crate::convex::support::{Posed, SupportMap};
use crate::geom::{Pose, Shape, Vec3};

/// The farthest a shape at a pose reaches along the unit direction `d` (`max d · x`);
/// `None` for a triangle mesh, which need not be convex.
fn reach(shape: &Shape, pose: &Pose, d: &Vec3) -> Option<f64> {
    let centre = pose.translation.vector;
    match shape {
        Shape::Sphere { radius } => Some(centre.dot(d) + radius),
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let axis = pose.rotation * Vec3::y() * *half_height;
            Some(centre.dot(d) + axis.dot(d).abs() + radius)
        }
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
            let posed = Posed {
                shape: &**polyhedron,
                pose,
            };
            Some(posed.support(d).0.coords.dot(d))
        }
        Shape::Mesh(_) => None,
    }
}

/// How far `b` must move along the unit normal `n` (from `a` towards `b`) to clear `a`:
/// positive when they overlap along it, negative (the gap) when `n` separates them.
pub fn overlap_along(a: (&Shape, &Pose), b: (&Shape, &Pose), n: &Vec3) -> Option<f64> {
    Some(reach(a.0, a.1, n)? + reach(b.0, b.1, &-n)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Quat;
    use proptest::prelude::*;

    fn at(x: f64, y: f64, z: f64) -> Pose {
        Pose::from_parts(Vec3::new(x, y, z).into(), Quat::identity())
    }

    /// Two unit boxes side by side and one up: they touch along an edge, where every normal
    /// between the two faces' is right, and overlap along none of them.
    #[test]
    fn at_an_edge_every_normal_of_the_cone_clears_them() {
        let cube = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5));
        let (a, b) = (at(0.0, 0.0, 0.0), at(1.0, 1.0, 0.0));
        for deg in [0.0f64, 20.0, 45.0, 70.0, 90.0] {
            let t = deg.to_radians();
            let n = Vec3::new(t.cos(), t.sin(), 0.0);
            let o = overlap_along((&cube, &a), (&cube, &b), &n).unwrap();
            assert!(o.abs() < 1e-12, "{deg}°: {o}");
        }
        let down = Vec3::new(1.0, -0.2, 0.0).normalize();
        assert!(overlap_along((&cube, &a), (&cube, &b), &down).unwrap() > 0.1);
    }

    proptest! {
        /// Against dense sampling of both spheres' surfaces: the overlap along n is the
        /// largest n · (p - q) over p on a and q on b.
        #[test]
        fn sphere_and_capsule_reach_matches_sampling(
            c in prop::array::uniform3(-2.0..2.0f64),
            r in 0.1..1.0f64,
            h in 0.0..1.0f64,
            angle in 0.0..3.1f64,
            dir in prop::array::uniform3(-1.0..1.0f64),
        ) {
            let d = Vec3::from(dir);
            prop_assume!(d.norm() > 0.1);
            let d = d.normalize();
            let pose = Pose::from_parts(Vec3::from(c).into(), Quat::from_euler_angles(angle, 0.3, 0.0));
            let capsule = Shape::Capsule { radius: r, half_height: h };
            let got = reach(&capsule, &pose, &d).unwrap();
            let mut best = f64::NEG_INFINITY;
            for i in 0..=40 {
                let y = -h + 2.0 * h * i as f64 / 40.0;
                let centre = pose.transform_point(&Vec3::new(0.0, y, 0.0).into());
                best = best.max(centre.coords.dot(&d) + r);
            }
            prop_assert!((got - best).abs() < 1e-9 + 2.0 * h / 40.0, "{} vs {}", got, best);
        }
    }
}
