//! A static tree of boxes for nearest-item searches: the items near a point are visited, the
//! nearer subtree first, and a subtree whose box lies further than the search's current radius
//! is skipped. Built per query batch (the triangles two meshes cross, the segments where they
//! cross), it turns "every corner against every crossing triangle" into a logarithmic search,
//! which two dense meshes sunk into each other need: tens of thousands of corners and
//! triangles each.

use super::{Aabb, Point3, Real};

/// Items per leaf.
const LEAF: usize = 4;

struct Node {
    bounds: Aabb,
    /// Leaf: `order[start..start + count]`; inner node: children at `start` and `start + 1`
    /// in `nodes` (count 0).
    start: u32,
    count: u32,
}

pub struct NearTree {
    nodes: Vec<Node>,
    order: Vec<u32>,
}

impl NearTree {
    /// The tree over `boxes`, item `k` being `boxes[k]`.
    pub fn new(boxes: &[Aabb]) -> NearTree {
        let mut tree = NearTree {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF + 1),
            order: (0..boxes.len() as u32).collect(),
        };
        if !boxes.is_empty() {
            tree.nodes.push(Node {
                bounds: Aabb::empty(),
                start: 0,
                count: 0,
            });
            let centres: Vec<Point3> = boxes.iter().map(Aabb::center).collect();
            tree.build(0, 0, boxes.len(), (boxes, &centres));
        }
        tree
    }

    fn build(&mut self, node: usize, lo: usize, hi: usize, (boxes, centres): (&[Aabb], &[Point3])) {
        let mut bounds = Aabb::empty();
        let mut spread = Aabb::empty();
        for &k in &self.order[lo..hi] {
            bounds = bounds.merged(&boxes[k as usize]);
            spread.grow(&centres[k as usize]);
        }
        self.nodes[node].bounds = bounds;
        if hi - lo <= LEAF {
            self.nodes[node].start = lo as u32;
            self.nodes[node].count = (hi - lo) as u32;
            return;
        }
        let axis = spread.longest_axis();
        let mid = lo + (hi - lo) / 2;
        let key = |k: &u32| centres[*k as usize][axis];
        self.order[lo..hi].select_nth_unstable_by(mid - lo, |a, b| key(a).total_cmp(&key(b)));
        let first = self.nodes.len();
        for _ in 0..2 {
            self.nodes.push(Node {
                bounds: Aabb::empty(),
                start: 0,
                count: 0,
            });
        }
        self.nodes[node].start = first as u32;
        self.build(first, lo, mid, (boxes, centres));
        self.build(first + 1, mid, hi, (boxes, centres));
    }

    /// Calls `visit(k)` for every item whose box lies within the current radius of `p`, the
    /// nearer subtrees first; `visit` returns the radius from then on (start: infinite), so a
    /// nearest search returns its best distance so far, plus its tolerance.
    pub fn search(&self, p: &Point3, mut visit: impl FnMut(u32) -> Real) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        let gap = |b: &Aabb| (b.closest_point(p) - p).norm();
        let mut radius = Real::INFINITY;
        let mut stack = vec![(0usize, gap(&root.bounds))];
        while let Some((n, d)) = stack.pop() {
            if d > radius {
                continue;
            }
            let node = &self.nodes[n];
            if node.count > 0 {
                let (s, c) = (node.start as usize, node.count as usize);
                for &k in &self.order[s..s + c] {
                    radius = visit(k);
                }
                continue;
            }
            let (a, b) = (node.start as usize, node.start as usize + 1);
            let (da, db) = (gap(&self.nodes[a].bounds), gap(&self.nodes[b].bounds));
            // The nearer child is popped first.
            if da <= db {
                stack.push((b, db));
                stack.push((a, da));
            } else {
                stack.push((a, da));
                stack.push((b, db));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn boxes_of(points: &[(f64, f64, f64, f64)]) -> Vec<Aabb> {
        points
            .iter()
            .map(|&(x, y, z, r)| {
                let c = Point3::new(x, y, z);
                Aabb::new(
                    c - crate::geom::Vec3::repeat(r),
                    c + crate::geom::Vec3::repeat(r),
                )
            })
            .collect()
    }

    proptest! {
        /// The nearest box found by the search is the nearest by brute force, and every box
        /// within the final radius is visited (degenerate boxes and repeats included).
        #[test]
        fn search_finds_what_brute_force_finds(
            items in prop::collection::vec((-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64, prop_oneof![Just(0.0), 0.0..1.0f64]), 0..200),
            p in (-8.0..8.0f64, -8.0..8.0f64, -8.0..8.0f64),
            repeat in 0..3usize,
        ) {
            let mut items = items;
            for _ in 0..repeat {
                if let Some(&first) = items.first() {
                    items.push(first);
                }
            }
            let boxes = boxes_of(&items);
            let tree = NearTree::new(&boxes);
            let p = Point3::new(p.0, p.1, p.2);
            let dist = |k: usize| (boxes[k].closest_point(&p) - p).norm();
            let mut best = f64::INFINITY;
            let mut seen = Vec::new();
            tree.search(&p, |k| {
                best = best.min(dist(k as usize));
                seen.push(k as usize);
                best
            });
            let brute = (0..boxes.len()).map(dist).fold(f64::INFINITY, f64::min);
            prop_assert_eq!(best, brute);
            for k in 0..boxes.len() {
                if dist(k) <= brute {
                    prop_assert!(seen.contains(&k), "box {} at the best distance not visited", k);
                }
            }
        }
    }
}
