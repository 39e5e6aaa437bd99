//! At most four contact points per pair, as Bullet's persistent manifold keeps (the thesis
//! hands its rays to Bullet's solver, spec 002 §5.3): the deepest, the farthest from it,
//! the one spanning the largest triangle with both, and the one adding the most area to that
//! triangle. A face resting on a face keeps its four corners' support; the solver is spared
//! one constraint per colliding vertex of a dense mesh.

use crate::geom::{Point3, Real};
use crate::narrow::ContactPoint;

pub fn reduce_to_four(points: Vec<ContactPoint>) -> Vec<ContactPoint> {
    if points.len() <= 4 {
        return points;
    }
    let deepest = argmax(&points, |p| p.depth);
    let first = points[deepest].point;
    let second = argmax(&points, |p| (p.point - first).norm_squared());
    let b = points[second].point;
    let third = argmax(&points, |p| triangle_area2(&first, &b, &p.point));
    let c = points[third].point;
    // The fourth: the point that adds the most area outside the triangle (the sum over the
    // edges it lies beyond of the triangle it forms with that edge; zero inside).
    let normal = (b - first).cross(&(c - first));
    let fourth = argmax(&points, |p| {
        [(first, b), (b, c), (c, first)]
            .iter()
            .map(|(e0, e1)| (e1 - e0).cross(&(p.point - e0)).dot(&normal))
            .filter(|s| *s < 0.0)
            .map(|s| -s)
            .sum::<Real>()
    });
    let mut chosen = vec![deepest, second, third, fourth];
    chosen.sort_unstable();
    chosen.dedup();
    chosen.into_iter().map(|i| points[i]).collect()
}

/// The first index of the largest key (ties go to the earlier point, so the choice is the
/// same on every run).
fn argmax(points: &[ContactPoint], key: impl Fn(&ContactPoint) -> Real) -> usize {
    let mut best = 0;
    let mut best_key = Real::NEG_INFINITY;
    for (i, p) in points.iter().enumerate() {
        let k = key(p);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

fn triangle_area2(a: &Point3, b: &Point3, c: &Point3) -> Real {
    (b - a).cross(&(c - a)).norm()
}
