//! Octree (spec 004 §3, adaptive partition): a cube around all boxes, split in eight when a
//! node holds more than `max_objects` boxes, down to `max_depth`. A box goes to the deepest
//! node that contains it **without touching a splitting plane**: boxes in different children
//! are then strictly apart, and each box only needs testing against the boxes of its own node
//! and of its ancestors. Rebuilt each update (the course's advice is to keep octrees for the
//! static scenery; here it is rebuilt so any scene can use it, and the viewer can show it).

use super::BroadEvent;
use super::{BroadStats, finish, is_regular, ordered, stray_pairs, test_pair};
use crate::geom::{Aabb, Point3, Real};
use crate::trace::{Probe, TraceEvent, Verdict};

#[derive(Clone, Debug)]
pub struct Octree {
    pub max_objects: usize,
    pub max_depth: u8,
    nodes: Vec<OctNode>,
    pub stats: BroadStats,
}

impl Default for Octree {
    fn default() -> Self {
        Self {
            max_objects: 8,
            max_depth: 8,
            nodes: Vec::new(),
            stats: BroadStats::default(),
        }
    }
}

#[derive(Clone, Debug)]
struct OctNode {
    bounds: Aabb,
    depth: u8,
    /// Index of the first of eight consecutive children.
    children: Option<usize>,
    objects: Vec<u32>,
}

impl Octree {
    pub fn new(max_objects: usize, max_depth: u8) -> Self {
        Self {
            max_objects: max_objects.max(1),
            max_depth,
            ..Self::default()
        }
    }

    pub fn update<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P) -> Vec<(u32, u32)> {
        self.stats = BroadStats::default();
        self.nodes.clear();
        let regular: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| is_regular(&boxes[i as usize]))
            .collect();
        let mut out = Vec::new();
        if !regular.is_empty() {
            let all = regular
                .iter()
                .fold(Aabb::empty(), |acc, &i| acc.merged(&boxes[i as usize]));
            let half = all.half_extents().max();
            let root =
                Aabb::from_center_half_extents(all.center(), crate::geom::Vec3::repeat(half));
            // The cube must contain every box despite rounding of centre ± half.
            let root = root.merged(&all);
            self.nodes.push(OctNode {
                bounds: root,
                depth: 0,
                children: None,
                objects: Vec::new(),
            });
            for &i in &regular {
                self.insert(0, i, boxes);
            }
            self.collect(boxes, probe, &mut out);
        }
        stray_pairs(boxes, &mut self.stats, probe, &mut out);
        finish(out)
    }

    fn centre(b: &Aabb) -> Point3 {
        b.center()
    }

    /// The child (0..8) that holds `b` clear of the splitting planes, if any.
    fn child_for(node: &Aabb, b: &Aabb) -> Option<usize> {
        let c = Self::centre(node);
        let mut k = 0;
        for axis in 0..3 {
            if b.max[axis] < c[axis] {
                // lower half
            } else if b.min[axis] > c[axis] {
                k |= 1 << axis;
            } else {
                return None;
            }
        }
        Some(k)
    }

    fn insert(&mut self, mut node: usize, object: u32, boxes: &[Aabb]) {
        let b = boxes[object as usize];
        while let Some(first) = self.nodes[node].children {
            match Self::child_for(&self.nodes[node].bounds, &b) {
                Some(k) => node = first + k,
                None => break,
            }
        }
        self.nodes[node].objects.push(object);
        // Only leaves split: an internal node keeps the boxes that straddle its planes.
        let n = &self.nodes[node];
        if n.children.is_none() && n.objects.len() > self.max_objects && n.depth < self.max_depth {
            self.split(node, boxes);
        }
    }

    fn split(&mut self, node: usize, boxes: &[Aabb]) {
        let bounds = self.nodes[node].bounds;
        let c = Self::centre(&bounds);
        let first = self.nodes.len();
        let depth = self.nodes[node].depth + 1;
        for k in 0..8 {
            let pick = |axis: usize, lo: Real, mid: Real, hi: Real| {
                if k & (1 << axis) == 0 {
                    (lo, mid)
                } else {
                    (mid, hi)
                }
            };
            let (x0, x1) = pick(0, bounds.min.x, c.x, bounds.max.x);
            let (y0, y1) = pick(1, bounds.min.y, c.y, bounds.max.y);
            let (z0, z1) = pick(2, bounds.min.z, c.z, bounds.max.z);
            self.nodes.push(OctNode {
                bounds: Aabb::new(Point3::new(x0, y0, z0), Point3::new(x1, y1, z1)),
                depth,
                children: None,
                objects: Vec::new(),
            });
        }
        self.nodes[node].children = Some(first);
        let objects = std::mem::take(&mut self.nodes[node].objects);
        for o in objects {
            match Self::child_for(&bounds, &boxes[o as usize]) {
                Some(k) => self.nodes[first + k].objects.push(o),
                None => self.nodes[node].objects.push(o),
            }
        }
        // A child may itself overflow (all boxes in one octant): split it too.
        for k in 0..8 {
            let child = first + k;
            if self.nodes[child].objects.len() > self.max_objects && depth < self.max_depth {
                self.split(child, boxes);
            }
        }
    }

    /// Each box against the boxes after it in its node and all boxes of its ancestors.
    fn collect<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P, out: &mut Vec<(u32, u32)>) {
        let mut ancestors: Vec<u32> = Vec::new();
        // (node, how many ancestor objects were on the stack when it was entered)
        let mut stack: Vec<(usize, usize, bool)> = vec![(0, 0, false)];
        while let Some((id, mark, leaving)) = stack.pop() {
            if leaving {
                ancestors.truncate(mark);
                continue;
            }
            let node = &self.nodes[id];
            if !node.objects.is_empty() {
                self.stats.cells += 1;
                crate::trace_event!(
                    probe,
                    TraceEvent::new(
                        Verdict::Info,
                        BroadEvent::SpatialCell {
                            bounds: node.bounds,
                            depth: node.depth,
                            bodies: node.objects.clone()
                        }
                    )
                );
            }
            for (k, &a) in node.objects.iter().enumerate() {
                for &b in node.objects[k + 1..].iter().chain(ancestors.iter()) {
                    if test_pair(boxes, a, b, &mut self.stats, probe) {
                        out.push(ordered(a, b));
                    }
                }
            }
            if let Some(first) = node.children {
                let mark = ancestors.len();
                ancestors.extend_from_slice(&node.objects);
                stack.push((id, mark, true));
                for k in (0..8).rev() {
                    stack.push((first + k, 0, false));
                }
            }
        }
    }
}
