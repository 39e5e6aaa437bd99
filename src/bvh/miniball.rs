//! Smallest enclosing sphere (Welzl 1991, with the move-to-front heuristic of Gärtner's
//! miniball): expected linear time after a deterministic shuffle.
//!
//! Rounding can leave a point a hair outside the sphere built on its support set, so the
//! radius is finally set to the largest distance from the centre: the sphere always encloses
//! every point, and is minimal up to rounding.

use crate::geom::{Point3, Real, Sphere, Vec3};

pub fn min_sphere(points: &[Point3]) -> Sphere {
    let Some(first) = points.first() else {
        return Sphere::new(Point3::origin(), 0.0);
    };
    let mut pts = points.to_vec();
    // A fixed shuffle: expected linear time on adversarial (sorted) input, and the same
    // sphere on every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ pts.len() as u64;
    for i in (1..pts.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pts.swap(i, (state >> 33) as usize % (i + 1));
    }
    let mut support = Vec::with_capacity(4);
    let s = welzl(&mut pts, points.len(), &mut support);
    let center = if s.center.iter().all(|c| c.is_finite()) {
        s.center
    } else {
        *first
    };
    let radius = points
        .iter()
        .map(|p| (p - center).norm())
        .fold(0.0, Real::max);
    Sphere::new(center, radius)
}

fn welzl(pts: &mut [Point3], n: usize, support: &mut Vec<Point3>) -> Sphere {
    let mut s = from_support(support);
    if support.len() == 4 {
        return s;
    }
    for i in 0..n {
        let p = pts[i];
        let r2 = s.radius * s.radius;
        let outside = s.radius < 0.0 || (p - s.center).norm_squared() > r2 + 1e-12 * r2.max(1e-300);
        if outside {
            support.push(p);
            s = welzl(pts, i, support);
            support.pop();
            pts[..=i].rotate_right(1);
        }
    }
    s
}

/// The smallest sphere through all of at most four points (circumsphere), falling back to
/// a sphere around their farthest pair when they are degenerate.
fn from_support(s: &[Point3]) -> Sphere {
    match s.len() {
        0 => Sphere::new(Point3::origin(), -1.0),
        1 => Sphere::new(s[0], 0.0),
        2 => Sphere::new(nalgebra::center(&s[0], &s[1]), 0.5 * (s[1] - s[0]).norm()),
        3 => circle3(&s[0], &s[1], &s[2]).unwrap_or_else(|| farthest_pair(s)),
        _ => sphere4(s).unwrap_or_else(|| farthest_pair(s)),
    }
}

fn circle3(p0: &Point3, p1: &Point3, p2: &Point3) -> Option<Sphere> {
    let a = p1 - p0;
    let b = p2 - p0;
    let axb = a.cross(&b);
    let d = 2.0 * axb.norm_squared();
    if !(d > 1e-300) {
        return None;
    }
    let off = (b * a.norm_squared() - a * b.norm_squared()).cross(&axb) / d;
    let c = p0 + off;
    off.iter()
        .all(|x| x.is_finite())
        .then(|| Sphere::new(c, off.norm()))
}

fn sphere4(s: &[Point3]) -> Option<Sphere> {
    let (a, b, c) = (s[1] - s[0], s[2] - s[0], s[3] - s[0]);
    let m = crate::geom::Mat3::from_rows(&[a.transpose(), b.transpose(), c.transpose()]);
    let rhs = Vec3::new(a.norm_squared(), b.norm_squared(), c.norm_squared()) * 0.5;
    let scale = a.norm() * b.norm() * c.norm();
    if !(m.determinant().abs() > 1e-12 * scale) {
        return None;
    }
    let off = m.lu().solve(&rhs)?;
    off.iter()
        .all(|x| x.is_finite())
        .then(|| Sphere::new(s[0] + off, off.norm()))
}

fn farthest_pair(s: &[Point3]) -> Sphere {
    let mut best = (s[0], s[0], 0.0);
    for (i, p) in s.iter().enumerate() {
        for q in &s[i + 1..] {
            let d = (q - p).norm_squared();
            if d > best.2 {
                best = (*p, *q, d);
            }
        }
    }
    Sphere::new(nalgebra::center(&best.0, &best.1), 0.5 * best.2.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encloses_and_is_tight_on_known_sets() {
        // Cube corners: the circumsphere.
        let cube: Vec<Point3> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let s = min_sphere(&cube);
        assert!((s.radius - 3f64.sqrt() / 2.0).abs() < 1e-12);
        // A segment with points in between: the diameter sphere.
        let line: Vec<Point3> = (0..=10).map(|i| Point3::new(i as f64, 0.0, 0.0)).collect();
        let s = min_sphere(&line);
        assert!(
            (s.radius - 5.0).abs() < 1e-12
                && (s.center - Point3::new(5.0, 0.0, 0.0)).norm() < 1e-12
        );
        // Sampling oracle: no sphere through random perturbations is smaller than a lower
        // bound of half the diameter, and all points are inside.
        let mut st = 7u64;
        let mut r = || {
            st = st
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (st >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let cloud: Vec<Point3> = (0..300)
            .map(|_| Point3::new(r(), 2.0 * r(), 0.5 * r()))
            .collect();
        let s = min_sphere(&cloud);
        let diam = cloud
            .iter()
            .flat_map(|p| cloud.iter().map(move |q| (p - q).norm()))
            .fold(0.0, f64::max);
        assert!(s.radius >= diam / 2.0 - 1e-12);
        // Jung's theorem: r ≤ diam · sqrt(3/8).
        assert!(s.radius <= diam * (3.0f64 / 8.0).sqrt() + 1e-12);
        assert!(cloud.iter().all(|p| (p - s.center).norm() <= s.radius));
    }
}
