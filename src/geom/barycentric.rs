//! Barycentric coordinates of a point against a triangle, and the two ways a contact weighs a
//! triangle's corners by them (the cloth's contacts and inversion checks use all three).

use super::triangle::scaled_normal;
use super::{Point3, Real};

/// The weights of `p`'s projection on the triangle's plane (they sum to one; outside the
/// triangle some are negative); `None` for a triangle without area.
pub fn barycentric(p: &Point3, [a, b, c]: [Point3; 3]) -> Option<[Real; 3]> {
    let n = scaled_normal(a, b, c);
    let area = n.norm_squared();
    if area <= 0.0 {
        return None;
    }
    let wa = (c - b).cross(&(p - b)).dot(&n) / area;
    let wb = (a - c).cross(&(p - c)).dot(&n) / area;
    Some([wa, wb, 1.0 - wa - wb])
}

/// [`barycentric`], or equal weights for a triangle without area: a contact on it still moves
/// its corners together.
pub fn barycentric_or_centre(p: &Point3, triangle: [Point3; 3]) -> [Real; 3] {
    barycentric(p, triangle).unwrap_or([1.0 / 3.0; 3])
}

/// [`barycentric`] clamped into the triangle and scaled back to sum to one: the weights of a
/// response that must not push a corner the wrong way.
pub fn clamped_weights(p: &Point3, triangle: [Point3; 3]) -> [Real; 3] {
    let Some(w) = barycentric(p, triangle) else {
        return [1.0 / 3.0; 3];
    };
    let w = w.map(|x| x.clamp(0.0, 1.0));
    let sum: Real = w.iter().sum();
    if sum > 0.0 {
        w.map(|x| x / sum)
    } else {
        [1.0 / 3.0; 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_rebuild_the_point_they_were_taken_from() {
        let tri = [
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 1.0),
        ];
        for p in [
            Point3::new(0.5, 0.25, 0.25),
            Point3::new(3.0, -1.0, -1.0),
            tri[1],
        ] {
            let w = barycentric(&p, tri).unwrap();
            let rebuilt = tri[0].coords * w[0] + tri[1].coords * w[1] + tri[2].coords * w[2];
            assert!((rebuilt - p.coords).norm() < 1e-12, "{p:?}: {w:?}");
        }
        let outside = clamped_weights(&Point3::new(3.0, -1.0, -1.0), tri);
        assert!(
            outside.iter().all(|&x| (0.0..=1.0).contains(&x)),
            "{outside:?}"
        );
        assert!((outside.iter().sum::<Real>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_triangle_without_area_has_no_weights() {
        let p = Point3::new(1.0, 0.0, 0.0);
        let flat = [Point3::origin(), p, Point3::new(2.0, 0.0, 0.0)];
        assert_eq!(barycentric(&p, flat), None);
        assert_eq!(barycentric_or_centre(&p, flat), [1.0 / 3.0; 3]);
        assert_eq!(clamped_weights(&p, flat), [1.0 / 3.0; 3]);
    }
}
