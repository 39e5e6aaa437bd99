//! The basic tests of the course (spec 004 §5) against brute-force sampling.

use collidoscope::geom::{Capsule, Plane, Point3, Segment, Sphere, Vec3};
use proptest::prelude::*;

fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn pt() -> impl Strategy<Value = Point3> {
    prop::array::uniform3(-3.0f64..3.0).prop_map(|c| Point3::new(c[0], c[1], c[2]))
}

/// Points evenly spread on a sphere (Fibonacci lattice).
fn sphere_samples(s: &Sphere, n: usize) -> Vec<Point3> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let th = golden * i as f64;
            s.center + Vec3::new(r * th.cos(), y, r * th.sin()) * s.radius
        })
        .collect()
}

fn segment_samples(s: &Segment, n: usize) -> Vec<Point3> {
    (0..=n).map(|i| s.at(i as f64 / n as f64)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300 * scale()))]

    // The surface distance is the smallest distance from B's centre to a sample of A's
    // surface, minus B's radius; sampling can only overestimate it, by at most the spacing.
    #[test]
    fn sphere_sphere(ca in pt(), cb in pt(), ra in 0.0f64..2.0, rb in 0.0f64..2.0) {
        let (a, b) = (Sphere::new(ca, ra), Sphere::new(cb, rb));
        let sampled = sphere_samples(&a, 4000).iter().map(|p| (p - cb).norm() - rb).fold(f64::INFINITY, f64::min);
        let d = a.distance_to_sphere(&b);
        prop_assert!(d <= sampled + 1e-9 || (ca - cb).norm() < ra, "{d} > {sampled}");
        prop_assert!(sampled - d <= 0.1 * ra + 1e-9 || (ca - cb).norm() < ra);
        prop_assert_eq!(a.intersects_sphere(&b), d <= 0.0);
    }

    #[test]
    fn sphere_plane(c in pt(), r in 0.0f64..2.0, n in prop::array::uniform3(-1.0f64..1.0), d in -2.0f64..2.0) {
        let Some(plane) = Plane::new(Vec3::from(n), d) else { return Ok(()); };
        let s = Sphere::new(c, r);
        // The sphere meets the plane when some sampled surface point lies on each side.
        let sides: Vec<f64> = sphere_samples(&s, 2000).iter().map(|p| plane.signed_distance(p)).collect();
        let crosses = sides.iter().any(|&x| x <= 0.0) && sides.iter().any(|&x| x >= 0.0);
        let margin = plane.signed_distance(&c).abs() - r;
        if margin.abs() > 0.05 * r + 1e-9 {
            prop_assert_eq!(s.intersects_plane(&plane), crosses);
        }
        // The course's formula with coefficients (ax + by + cz + d = 0) gives the same plane.
        let p2 = Plane::from_coefficients(n[0], n[1], n[2], -d).unwrap();
        prop_assert!((p2.signed_distance(&c) - plane.signed_distance(&c)).abs() < 1e-9);
    }

    #[test]
    fn sphere_capsule(c in pt(), r in 0.0f64..1.5, p0 in pt(), p1 in pt(), rc in 0.0f64..1.5) {
        let cap = Capsule::new(p0, p1, rc);
        let s = Sphere::new(c, r);
        let brute = segment_samples(&cap.segment, 2000).iter().map(|q| (c - q).norm()).fold(f64::INFINITY, f64::min) - r - rc;
        let d = cap.distance_to_sphere(&s);
        prop_assert!(d <= brute + 1e-9);
        prop_assert!(brute - d <= cap.segment.length() / 2000.0 + 1e-9);
        prop_assert_eq!(cap.intersects_sphere(&s), d <= 0.0);
    }

    #[test]
    fn capsule_capsule(a0 in pt(), a1 in pt(), b0 in pt(), b1 in pt(), ra in 0.0f64..1.0, rb in 0.0f64..1.0) {
        let (a, b) = (Capsule::new(a0, a1, ra), Capsule::new(b0, b1, rb));
        let sa = segment_samples(&a.segment, 300);
        let sb = segment_samples(&b.segment, 300);
        let mut brute = f64::INFINITY;
        for p in &sa { for q in &sb { brute = brute.min((p - q).norm()); } }
        let brute = brute - ra - rb;
        let d = a.distance_to_capsule(&b);
        prop_assert!(d <= brute + 1e-9, "{d} > {brute}");
        let h = (a.segment.length() + b.segment.length()) / 300.0;
        prop_assert!(brute - d <= h + 1e-9, "{d} vs {brute}");
        prop_assert_eq!(a.intersects_capsule(&b), d <= 0.0);
    }
}

#[test]
fn touching_counts_as_intersecting() {
    let a = Sphere::new(Point3::origin(), 1.0);
    let b = Sphere::new(Point3::new(2.0, 0.0, 0.0), 1.0);
    assert!(a.intersects_sphere(&b));
    let plane = Plane::new(Vec3::y(), -1.0).unwrap();
    assert!(a.intersects_plane(&plane));
}
