//! How many pairs of boxes overlap, counted up to a cap: enough to refuse a scene whose
//! bodies start piled into one another (10,000 copies of one body make 50 million pairs, each
//! with its contacts and trace) before the first step allocates them.

use crate::geom::Aabb;

/// The pairs `(i, j)` whose boxes intersect by `Aabb::intersects` and that `counts(i, j)`
/// admits, counted until the count passes `cap`: the answer is exact up to `cap` and
/// `cap + 1` beyond, in `O(n log n)` plus the pairs looked at. A box with a non-finite
/// coordinate is tested against every other, as in the broad phases.
pub fn overlapping_pairs_up_to(
    boxes: &[Aabb],
    counts: impl Fn(usize, usize) -> bool,
    cap: usize,
) -> usize {
    let finite = |b: &Aabb| b.min.iter().chain(b.max.iter()).all(|v| v.is_finite());
    let (mut sorted, stray): (Vec<usize>, Vec<usize>) =
        (0..boxes.len()).partition(|&i| finite(&boxes[i]));
    sorted.sort_by(|&a, &b| boxes[a].min.x.total_cmp(&boxes[b].min.x));
    let mut count = 0usize;
    let mut tally = |i: usize, j: usize| {
        if boxes[i].intersects(&boxes[j]) && counts(i.min(j), i.max(j)) {
            count += 1;
        }
        count > cap
    };
    for (k, &i) in sorted.iter().enumerate() {
        for &j in &sorted[k + 1..] {
            if boxes[j].min.x > boxes[i].max.x {
                break;
            }
            if tally(i, j) {
                return cap + 1;
            }
        }
    }
    for (k, &i) in stray.iter().enumerate() {
        for &j in sorted.iter().chain(&stray[k + 1..]) {
            if tally(i, j) {
                return cap + 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Point3;
    use proptest::prelude::*;

    fn aabb(c: [f64; 3], h: f64) -> Aabb {
        Aabb {
            min: Point3::new(c[0] - h, c[1] - h, c[2] - h),
            max: Point3::new(c[0] + h, c[1] + h, c[2] + h),
        }
    }

    fn brute(boxes: &[Aabb], counts: impl Fn(usize, usize) -> bool) -> usize {
        let mut n = 0;
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                n += usize::from(boxes[i].intersects(&boxes[j]) && counts(i, j));
            }
        }
        n
    }

    proptest! {
        #[test]
        fn counts_as_brute_force_up_to_the_cap(
            centres in prop::collection::vec(
                (prop_oneof![Just(0.0), -3.0..3.0f64], -3.0..3.0f64, -3.0..3.0f64), 0..60),
            h in prop_oneof![Just(0.0), 0.1..2.0f64],
            stray in prop::collection::vec(0usize..60, 0..3),
            cap in 0usize..400,
        ) {
            let mut boxes: Vec<Aabb> = centres.iter().map(|c| aabb([c.0, c.1, c.2], h)).collect();
            for s in stray {
                if let Some(b) = boxes.get_mut(s) {
                    b.max.y = f64::NAN;
                }
            }
            let odd = |i: usize, j: usize| (i + j) % 2 == 1;
            let expected = brute(&boxes, odd);
            prop_assert_eq!(overlapping_pairs_up_to(&boxes, odd, cap), expected.min(cap + 1));
        }
    }

    #[test]
    fn coincident_boxes_stop_at_the_cap() {
        let boxes = vec![aabb([0.0; 3], 1.0); 10_000];
        assert_eq!(overlapping_pairs_up_to(&boxes, |_, _| true, 1_000), 1_001);
        assert_eq!(
            overlapping_pairs_up_to(&boxes[..100], |_, _| true, 1_000_000),
            4_950
        );
    }
}
