//! The collider pairs whose bounding boxes overlap: a sweep along x, so a step of a few
//! thousand colliders costs a sort, not every pair.

use crate::geom::Aabb;

/// Pairs `(i, j)`, `i < j`, of boxes that overlap once each is grown by `margin`, in order.
/// A box that is not finite takes part in no pair.
pub fn overlapping(boxes: &[Option<Aabb>], margin: f64) -> Vec<(u32, u32)> {
    let mut order: Vec<(usize, Aabb)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| (i, b)))
        .filter(|(_, b)| b.min.iter().chain(b.max.iter()).all(|v| v.is_finite()))
        .collect();
    order.sort_by(|x, y| x.1.min.x.total_cmp(&y.1.min.x));
    let mut pairs = Vec::new();
    for (k, (i, a)) in order.iter().enumerate() {
        for (j, b) in &order[k + 1..] {
            if b.min.x > a.max.x + 2.0 * margin {
                break;
            }
            let apart = (0..3)
                .any(|d| a.min[d] > b.max[d] + 2.0 * margin || b.min[d] > a.max[d] + 2.0 * margin);
            if !apart {
                pairs.push(((*i).min(*j) as u32, (*i).max(*j) as u32));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Point3;
    use proptest::prelude::*;

    fn boxed(c: [f64; 3], h: f64) -> Aabb {
        Aabb::new(
            Point3::new(c[0] - h, c[1] - h, c[2] - h),
            Point3::new(c[0] + h, c[1] + h, c[2] + h),
        )
    }

    proptest! {
        /// Against every pair tested directly.
        #[test]
        fn the_sweep_finds_every_overlapping_pair(
            centres in proptest::collection::vec((prop::array::uniform3(-5.0..5.0f64), 0.0..2.0f64), 0..40),
            margin in 0.0..0.5f64,
        ) {
            let boxes: Vec<Option<Aabb>> = centres.iter().map(|(c, h)| Some(boxed(*c, *h))).collect();
            let mut brute = Vec::new();
            for i in 0..boxes.len() {
                for j in i + 1..boxes.len() {
                    let (a, b) = (boxes[i].unwrap(), boxes[j].unwrap());
                    let grown = Aabb::new(a.min - nalgebra::Vector3::repeat(2.0 * margin), a.max + nalgebra::Vector3::repeat(2.0 * margin));
                    if grown.intersects(&b) {
                        brute.push((i as u32, j as u32));
                    }
                }
            }
            prop_assert_eq!(overlapping(&boxes, margin), brute);
        }
    }

    #[test]
    fn boxes_that_are_not_finite_pair_with_nothing() {
        let nan = Aabb::new(Point3::new(f64::NAN, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
        let boxes = [
            Some(boxed([0.0; 3], 1.0)),
            Some(nan),
            None,
            Some(boxed([0.5; 3], 1.0)),
        ];
        assert_eq!(overlapping(&boxes, 0.0), vec![(0, 3)]);
    }
}
