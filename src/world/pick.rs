//! Which body a ray hits first: the viewer's click-to-select. Engine code, so that the viewer
//! never runs geometry of its own; the ray is tested against the exact collision shapes,
//! not against their display meshes.

use crate::dynamics::Shape;
use crate::geom::{ConvexPolyhedron, Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::BodyId;

/// The first surface a ray crosses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PickHit {
    pub body: BodyId,
    /// Parameter along the ray (in units of its direction's length).
    pub t: Real,
    pub point: crate::geom::Point3,
    /// Unit normal of the surface at the hit, in world space.
    pub normal: Vec3,
}

/// The closest body whose surface the ray crosses at `t >= 0`. Bodies come with their pose
/// as recorded in the frame being shown; a ray starting inside a solid hits its far side.
pub fn pick<'a>(
    ray: &Ray,
    bodies: impl IntoIterator<Item = (BodyId, &'a Shape, Pose)>,
) -> Option<PickHit> {
    let mut best: Option<PickHit> = None;
    for (body, shape, pose) in bodies {
        let limit = best.map_or(Real::INFINITY, |b| b.t);
        if let Some((t, normal)) = ray_shape(ray, shape, &pose, limit)
            && t < limit
        {
            best = Some(PickHit {
                body,
                t,
                point: ray.at(t),
                normal,
            });
        }
    }
    best
}

/// The first crossing of the ray with one shape at `pose`, with `t` in `[0, max_t]`, and the
/// world-space normal there.
pub fn ray_shape(ray: &Ray, shape: &Shape, pose: &Pose, max_t: Real) -> Option<(Real, Vec3)> {
    if !(ray.dir.norm_squared() > 0.0) || !ray.dir.iter().all(|c| c.is_finite()) {
        return None;
    }
    // Work in the body's frame: a rigid transform keeps `t` unchanged.
    let local = Ray::new(
        pose.inverse_transform_point(&ray.origin),
        pose.inverse_transform_vector(&ray.dir),
    );
    let (t, n) = match shape {
        Shape::Sphere { radius } => ray_sphere(&local, &Vec3::zeros(), *radius)?,
        Shape::Capsule {
            radius,
            half_height,
        } => ray_capsule(&local, *radius, *half_height)?,
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
            ray_convex(&local, polyhedron)?
        }
        Shape::Mesh(mesh) => ray_mesh(&local, mesh, max_t)?,
    };
    (t <= max_t).then(|| (t, pose.rotation * n))
}

/// Smallest root `t >= 0` of `|o + t d - c|² = r²`, with the outward normal there.
fn ray_sphere(ray: &Ray, center: &Vec3, radius: Real) -> Option<(Real, Vec3)> {
    let oc = ray.origin.coords - center;
    let a = ray.dir.norm_squared();
    let b = oc.dot(&ray.dir);
    let c = oc.norm_squared() - radius * radius;
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    // The numerically stable pair of roots.
    let q = if b > 0.0 { -(b + s) } else { -b + s };
    let (mut t0, mut t1) = if q != 0.0 { (q / a, c / q) } else { (0.0, 0.0) };
    if t0 > t1 {
        std::mem::swap(&mut t0, &mut t1);
    }
    let t = if t0 >= 0.0 {
        t0
    } else if t1 >= 0.0 {
        t1
    } else {
        return None;
    };
    let p = ray.at(t).coords - center;
    Some((
        t,
        p.try_normalize(0.0).unwrap_or_else(|| -ray.dir.normalize()),
    ))
}

/// Both roots of `|o + t d - c|² = r²`, smallest first.
fn sphere_roots(ray: &Ray, center: &Vec3, radius: Real) -> Option<(Real, Real)> {
    let oc = ray.origin.coords - center;
    let a = ray.dir.norm_squared();
    let b = oc.dot(&ray.dir);
    let disc = b * b - a * (oc.norm_squared() - radius * radius);
    (disc >= 0.0).then(|| {
        let s = disc.sqrt();
        ((-b - s) / a, (-b + s) / a)
    })
}

/// A capsule along local y: the nearest crossing of its boundary, which is the cylinder
/// wall between the cap centres plus the outer half of each end sphere.
fn ray_capsule(ray: &Ray, radius: Real, half_height: Real) -> Option<(Real, Vec3)> {
    let mut best: Option<(Real, Vec3)> = None;
    let mut consider = |t: Real, n: Vec3| {
        if t >= 0.0 && best.is_none_or(|(b, _)| t < b) {
            best = Some((t, n));
        }
    };
    let (ox, oz, dx, dz) = (ray.origin.x, ray.origin.z, ray.dir.x, ray.dir.z);
    let a = dx * dx + dz * dz;
    if a > 0.0 {
        let b = ox * dx + oz * dz;
        let disc = b * b - a * (ox * ox + oz * oz - radius * radius);
        if disc >= 0.0 {
            let s = disc.sqrt();
            for t in [(-b - s) / a, (-b + s) / a] {
                let p = ray.at(t);
                if p.y.abs() <= half_height {
                    consider(t, Vec3::new(p.x, 0.0, p.z) / radius);
                }
            }
        }
    }
    for sign in [-1.0, 1.0] {
        let c = Vec3::new(0.0, sign * half_height, 0.0);
        if let Some((t0, t1)) = sphere_roots(ray, &c, radius) {
            for t in [t0, t1] {
                let n = (ray.at(t).coords - c) / radius;
                if n.y * sign >= 0.0 {
                    consider(t, n);
                }
            }
        }
    }
    best
}

/// Clips the ray by every face plane (Cyrus–Beck): the entry, or the exit from inside.
fn ray_convex(ray: &Ray, poly: &ConvexPolyhedron) -> Option<(Real, Vec3)> {
    let (mut t_in, mut t_out) = (Real::NEG_INFINITY, Real::INFINITY);
    let (mut n_in, mut n_out) = (Vec3::zeros(), Vec3::zeros());
    for (f, n) in poly.normals.iter().enumerate() {
        let dist = poly.face_plane_distance(f, &ray.origin);
        let along = n.dot(&ray.dir);
        if along == 0.0 {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / along;
        if along < 0.0 {
            if t > t_in {
                t_in = t;
                n_in = *n;
            }
        } else if t < t_out {
            t_out = t;
            n_out = *n;
        }
        if t_in > t_out {
            return None;
        }
    }
    if t_in >= 0.0 {
        Some((t_in, n_in))
    } else if t_out >= 0.0 && t_out.is_finite() {
        Some((t_out, n_out))
    } else {
        None
    }
}

fn ray_mesh(ray: &Ray, mesh: &TriMesh, max_t: Real) -> Option<(Real, Vec3)> {
    let bound = mesh.aabb();
    ray.intersect_aabb(&bound, if max_t.is_finite() { max_t } else { Real::MAX })?;
    let mut best: Option<(Real, Vec3)> = None;
    for tri in mesh.triangles() {
        if let Some((t, _, _)) = ray.intersect_triangle(&tri)
            && t >= 0.0
            && best.is_none_or(|(b, _)| t < b)
        {
            let n = tri.normal().unwrap_or_else(Vec3::y);
            // Face the viewer: a debugger's mesh may be open or inside out.
            let n = if n.dot(&ray.dir) > 0.0 { -n } else { n };
            best = Some((t, n));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Capsule, Point3, Quat, Segment, Sphere};
    use proptest::prelude::*;
    use std::sync::Arc;

    /// The oracle for solids: march along the ray testing containment, then bisect the first
    /// change of state. Independent of the analytic code above.
    fn march(ray: &Ray, inside: impl Fn(&Point3) -> bool, max_t: Real) -> Option<Real> {
        let steps = 20_000;
        let dt = max_t / steps as Real;
        let start = inside(&ray.origin);
        let mut prev = 0.0;
        for i in 1..=steps {
            let t = i as Real * dt;
            if inside(&ray.at(t)) != start {
                let (mut lo, mut hi) = (prev, t);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if inside(&ray.at(mid)) != start {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(0.5 * (lo + hi));
            }
            prev = t;
        }
        None
    }

    fn pose(t: [f64; 3], r: [f64; 3]) -> Pose {
        Pose::from_parts(Vec3::from(t).into(), Quat::from_scaled_axis(Vec3::from(r)))
    }

    fn shape_inside<'a>(shape: &'a Shape, pose: &'a Pose) -> Box<dyn Fn(&Point3) -> bool + 'a> {
        match shape {
            Shape::Sphere { radius } => {
                let s = Sphere::new(pose * Point3::origin(), *radius);
                Box::new(move |p| s.contains_point(p))
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let a = pose * Point3::new(0.0, -*half_height, 0.0);
                let b = pose * Point3::new(0.0, *half_height, 0.0);
                let c = Capsule {
                    segment: Segment::new(a, b),
                    radius: *radius,
                };
                Box::new(move |p| c.contains_point(p))
            }
            Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
                let world = polyhedron.transformed(pose);
                Box::new(move |p| world.contains_point(p, 0.0))
            }
            Shape::Mesh(_) => unreachable!("meshes are checked against brute force"),
        }
    }

    fn solid_shape(kind: u8, a: f64, b: f64, c: f64) -> Shape {
        match kind % 4 {
            0 => Shape::Sphere { radius: a },
            1 => Shape::cuboid(Vec3::new(a, b, c)),
            2 => Shape::Capsule {
                radius: a * 0.6,
                half_height: b,
            },
            _ => {
                let pts: Vec<Point3> = (0..16)
                    .map(|i| {
                        let th = i as f64 * 2.399;
                        let y = 1.0 - 2.0 * (i as f64 + 0.5) / 16.0;
                        let r = (1.0 - y * y).sqrt();
                        Point3::new(a * r * th.cos(), b * y, c * r * th.sin())
                    })
                    .collect();
                Shape::Convex(Arc::new(
                    ConvexPolyhedron::hull(&pts).expect("a valid hull"),
                ))
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64 * scale()))]
        #[test]
        fn solids_agree_with_marching(
            kind in 0u8..4,
            dims in (0.2f64..1.5, 0.2f64..1.5, 0.2f64..1.5),
            at in prop::array::uniform3(-2.0f64..2.0),
            rot in prop::array::uniform3(-3.0f64..3.0),
            from in prop::array::uniform3(-6.0f64..6.0),
            aim in prop::array::uniform3(-1.0f64..1.0),
        ) {
            let shape = solid_shape(kind, dims.0, dims.1, dims.2);
            let pose = pose(at, rot);
            let origin = Point3::from(from);
            let target = pose * Point3::from(Vec3::from(aim) * 0.8);
            let dir = target - origin;
            prop_assume!(dir.norm() > 1e-3);
            let ray = Ray::new(origin, dir);
            let inside = shape_inside(&shape, &pose);
            let expected = march(&ray, &inside, 4.0);
            let got = ray_shape(&ray, &shape, &pose, Real::INFINITY).map(|h| h.0);
            match (expected, got) {
                (Some(e), Some(g)) => prop_assert!((e - g).abs() < 1e-3 * (1.0 + e), "march {e} vs pick {g}"),
                (None, None) => {}
                // Grazing rays can touch a surface between two marching steps.
                (e, g) => {
                    let t = e.or(g).unwrap_or(0.0);
                    let p = ray.at(t);
                    let near_surface = (0..200).any(|k| {
                        let d = 1e-3 * (k as f64 - 100.0) / 100.0;
                        inside(&(p + Vec3::new(d, 0.0, 0.0))) != inside(&(p - Vec3::new(d, 0.0, 0.0)))
                    });
                    prop_assert!(near_surface, "march {e:?} vs pick {g:?}");
                }
            }
        }

        #[test]
        fn meshes_and_scenes_agree_with_brute_force(
            seed in 0u64..10_000,
            bodies in prop::collection::vec((0u8..5, prop::array::uniform3(-3.0f64..3.0), prop::array::uniform3(-3.0f64..3.0)), 1..6),
            from in prop::array::uniform3(-8.0f64..8.0),
            aim in prop::array::uniform3(-3.0f64..3.0),
        ) {
            let shapes: Vec<(Shape, Pose)> = bodies
                .iter()
                .map(|(kind, at, rot)| {
                    // Polyhedra and meshes only: both sides are exact here, so grazing rays
                    // agree too. Round solids are checked against marching above.
                    let shape = match kind % 3 {
                        0 => Shape::Mesh(Arc::new(crate::world::procedural::terrain(2.0, 6, 0.3, seed))),
                        1 => solid_shape(1, 0.5, 0.7, 0.4),
                        _ => solid_shape(3, 0.5, 0.7, 0.4),
                    };
                    (shape, pose(*at, *rot))
                })
                .collect();
            let ray = Ray::new(Point3::from(from), Point3::from(aim) - Point3::from(from));
            prop_assume!(ray.dir.norm() > 1e-3);
            let got = pick(&ray, shapes.iter().enumerate().map(|(i, (s, p))| (i as BodyId, s, *p)));
            // Brute force: every body on its own, world-space triangles for meshes and
            // polyhedra, marching for round solids; keep the nearest.
            let mut expected: Option<(BodyId, Real)> = None;
            for (i, (shape, p)) in shapes.iter().enumerate() {
                let t = match shape {
                    Shape::Mesh(m) => m.transformed(p).cast_ray_brute_force(&ray, Real::MAX).map(|h| h.t),
                    Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
                        let mesh = TriMesh { vertices: polyhedron.vertices.clone(), triangles: polyhedron.triangles() };
                        mesh.transformed(p).cast_ray_brute_force(&ray, Real::MAX).map(|h| h.t)
                    }
                    _ => unreachable!("only polyhedra and meshes here"),
                };
                if let Some(t) = t && expected.is_none_or(|(_, b)| t < b) {
                    expected = Some((i as BodyId, t));
                }
            }
            match (expected, got) {
                (Some((_, e)), Some(g)) => prop_assert!((e - g.t).abs() < 1e-3 * (1.0 + e), "brute {e} vs pick {}", g.t),
                (None, None) => {}
                (e, g) => prop_assert!(false, "brute force {e:?} vs pick {g:?}"),
            }
        }
    }

    pub(super) fn scale() -> u32 {
        std::env::var("COLLIDOSCOPE_TEST_SCALE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1)
            .max(1)
    }

    #[test]
    fn sphere_from_outside_inside_and_behind() {
        let s = Shape::Sphere { radius: 1.0 };
        let p = pose([0.0, 0.0, 5.0], [0.0; 3]);
        let hit = |o: [f64; 3], d: [f64; 3]| {
            ray_shape(
                &Ray::new(Point3::from(o), Vec3::from(d)),
                &s,
                &p,
                Real::INFINITY,
            )
        };
        let (t, n) = hit([0.0, 0.0, 0.0], [0.0, 0.0, 1.0]).expect("hits the near side");
        assert!((t - 4.0).abs() < 1e-12 && (n - Vec3::new(0.0, 0.0, -1.0)).norm() < 1e-12);
        let (t, _) = hit([0.0, 0.0, 5.0], [0.0, 0.0, 1.0]).expect("from the centre, the far side");
        assert!((t - 1.0).abs() < 1e-12);
        assert!(
            hit([0.0, 0.0, 0.0], [0.0, 0.0, -1.0]).is_none(),
            "behind the ray"
        );
        assert!(
            hit([0.0, 2.0, 0.0], [0.0, 0.0, 1.0]).is_none(),
            "passes beside"
        );
        assert!(
            hit([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]).is_none(),
            "no direction"
        );
    }

    #[test]
    fn nearest_body_wins_and_limits_apply() {
        let a = Shape::cuboid(Vec3::new(0.5, 0.5, 0.5));
        let b = Shape::Sphere { radius: 0.5 };
        let ray = Ray::new(Point3::new(0.0, 0.0, -10.0), Vec3::z());
        let bodies = [
            (7, &a, pose([0.0, 0.0, 3.0], [0.0; 3])),
            (9, &b, pose([0.0, 0.0, 1.0], [0.0; 3])),
        ];
        let hit = pick(&ray, bodies.iter().map(|(i, s, p)| (*i, *s, *p))).expect("a hit");
        assert_eq!(hit.body, 9);
        assert!((hit.t - 10.5).abs() < 1e-12);
        assert!((hit.point - Point3::new(0.0, 0.0, 0.5)).norm() < 1e-12);
        assert!(
            ray_shape(&ray, &a, &bodies[0].2, 5.0).is_none(),
            "beyond max_t"
        );
    }
}
