//! Where a traversal stands at one of its steps, read from the recorded trace alone: the run
//! of events of this tree-versus-tree traversal, the two nodes under test, and for each tree
//! which nodes were tested, which were culled (every test of them so far separated) and which
//! are still waiting on the stack.
//!
//! A node pair is known to be on the stack at step `i` when it is tested later in the run and
//! its parent pair (one node replaced by its parent, or both) was tested, overlapping, at or
//! before `i`: the recording says so without re-running the descent rule.

use crate::bvh::{BvhEvent, NodeStats};
use crate::trace::{BodyId, EventKind, TraceEvent, Verdict};
use std::collections::HashMap;

/// What a node of one tree has been through at the step shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeMark {
    /// Tested at least once, overlapping: the traversal went below it.
    Descended,
    /// Tested, and separated every time so far: its subtree was skipped.
    Culled,
    /// In a pair still waiting on the stack.
    OnStack,
    /// An ancestor of the node under test.
    Path,
    /// The node under test (for a triangle pair, the leaf holding the triangle).
    Current,
}

/// The node pairs and triangle pairs of one traversal, around the step shown.
#[derive(Clone, Debug, PartialEq)]
pub struct TraversalStep {
    pub a: BodyId,
    pub b: BodyId,
    /// The run of this traversal's events in the frame's trace: `start..end`.
    pub start: usize,
    pub end: usize,
    /// The event shown.
    pub current: usize,
    /// The nodes under test (for a triangle pair: the leaves holding the triangles, when
    /// known).
    pub node_a: Option<u32>,
    pub node_b: Option<u32>,
    /// Node pairs tested so far in the run, overlapping or not.
    pub tested: usize,
    pub overlapping: usize,
    /// Node pairs still on the stack.
    pub pending: Vec<(u32, u32)>,
}

fn pair_of(e: &TraceEvent) -> Option<(BodyId, BodyId)> {
    match &e.kind {
        EventKind::Bvh(BvhEvent::NodePair { a, b, .. })
        | EventKind::Bvh(BvhEvent::TrianglePair { a, b, .. }) => Some((*a, *b)),
        _ => None,
    }
}

fn nodes_of(e: &TraceEvent) -> Option<(u32, u32)> {
    match &e.kind {
        EventKind::Bvh(BvhEvent::NodePair { node_a, node_b, .. }) => Some((*node_a, *node_b)),
        _ => None,
    }
}

impl TraversalStep {
    /// The traversal the event at `current` belongs to, or `None` when it is not a
    /// traversal step. `leaf_of` finds the leaf holding a triangle of a body.
    pub fn at(
        trace: &[TraceEvent],
        current: usize,
        leaf_of: impl Fn(BodyId, u32) -> Option<u32>,
    ) -> Option<TraversalStep> {
        let (a, b) = pair_of(trace.get(current)?)?;
        let same = |e: &TraceEvent| pair_of(e) == Some((a, b));
        // A traversal starts at its root pair: a second traversal of the same bodies right
        // after the first starts a new run.
        let is_root = |e: &TraceEvent| nodes_of(e) == Some((0, 0));
        let mut start = current;
        while start > 0 && !is_root(&trace[start]) && same(&trace[start - 1]) {
            start -= 1;
        }
        let mut end = current + 1;
        while end < trace.len() && same(&trace[end]) && !is_root(&trace[end]) {
            end += 1;
        }
        let (node_a, node_b) = match &trace[current].kind {
            EventKind::Bvh(BvhEvent::NodePair { node_a, node_b, .. }) => {
                (Some(*node_a), Some(*node_b))
            }
            EventKind::Bvh(BvhEvent::TrianglePair { tri_a, tri_b, .. }) => {
                (leaf_of(a, *tri_a), leaf_of(b, *tri_b))
            }
            _ => (None, None),
        };
        let mut step = TraversalStep {
            a,
            b,
            start,
            end,
            current,
            node_a,
            node_b,
            tested: 0,
            overlapping: 0,
            pending: Vec::new(),
        };
        step.count(trace);
        Some(step)
    }

    fn count(&mut self, trace: &[TraceEvent]) {
        for e in &trace[self.start..=self.current] {
            if nodes_of(e).is_some() {
                self.tested += 1;
                if e.verdict == Verdict::Hit {
                    self.overlapping += 1;
                }
            }
        }
    }

    /// Fills `pending` given each tree's parent links.
    pub fn find_pending(&mut self, trace: &[TraceEvent], parents: [&[NodeStats]; 2]) {
        let parent = |t: usize, n: u32| parents[t].get(n as usize).and_then(|s| s.parent);
        let mut hit_at: HashMap<(u32, u32), usize> = HashMap::new();
        for (i, e) in trace[self.start..=self.current].iter().enumerate() {
            if e.verdict == Verdict::Hit
                && let Some(p) = nodes_of(e)
            {
                hit_at.entry(p).or_insert(i);
            }
        }
        self.pending = trace[self.current + 1..self.end]
            .iter()
            .filter_map(nodes_of)
            .filter(|&(x, y)| {
                let (px, py) = (parent(0, x), parent(1, y));
                let candidates = [px.map(|p| (p, y)), py.map(|p| (x, p)), px.zip(py)];
                candidates
                    .into_iter()
                    .flatten()
                    .any(|c| hit_at.contains_key(&c))
            })
            .collect();
    }

    /// The marks of one tree's nodes (`side` 0: tree A, 1: tree B); unmarked nodes are
    /// absent.
    pub fn marks(
        &self,
        trace: &[TraceEvent],
        side: usize,
        nodes: &[NodeStats],
    ) -> HashMap<u32, NodeMark> {
        let pick = |p: (u32, u32)| if side == 0 { p.0 } else { p.1 };
        let mut marks: HashMap<u32, NodeMark> = HashMap::new();
        for e in &trace[self.start..self.current] {
            if let Some(p) = nodes_of(e) {
                let n = pick(p);
                let m = if e.verdict == Verdict::Hit {
                    NodeMark::Descended
                } else {
                    NodeMark::Culled
                };
                // Descended wins over culled: once overlapping, the node was not skipped.
                let slot = marks.entry(n).or_insert(m);
                if m == NodeMark::Descended {
                    *slot = m;
                }
            }
        }
        for &p in &self.pending {
            marks.insert(pick(p), NodeMark::OnStack);
        }
        let current = if side == 0 { self.node_a } else { self.node_b };
        if let Some(c) = current {
            let mut up = nodes.get(c as usize).and_then(|n| n.parent);
            let mut guard = 0;
            while let Some(p) = up
                && guard < 256
            {
                marks.insert(p, NodeMark::Path);
                up = nodes.get(p as usize).and_then(|n| n.parent);
                guard += 1;
            }
            marks.insert(c, NodeMark::Current);
        }
        marks
    }

    /// Steps of the run, for "step 12 of 80".
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Stage;

    fn pair(a: u32, b: u32, na: u32, nb: u32, hit: bool) -> TraceEvent {
        TraceEvent::new(
            if hit { Verdict::Hit } else { Verdict::Miss },
            EventKind::Bvh(BvhEvent::NodePair {
                a,
                b,
                node_a: na,
                node_b: nb,
                separating_axis: None,
            }),
        )
    }

    fn other() -> TraceEvent {
        TraceEvent::staged(
            Stage::BroadPhase,
            Verdict::Hit,
            EventKind::Broad(crate::broad::BroadEvent::PairChanged { a: 1, b: 2 }),
        )
    }

    /// A tree of 5 nodes: 0 → (1, 2), 2 → (3, 4).
    fn tree() -> Vec<NodeStats> {
        let parents = [None, Some(0), Some(0), Some(2), Some(2)];
        parents
            .iter()
            .enumerate()
            .map(|(i, &parent)| NodeStats {
                parent,
                leaf: !matches!(i, 0 | 2),
                ..super::super::test_node(i as u32, [0, 1, 1, 2, 2][i])
            })
            .collect()
    }

    fn trace() -> Vec<TraceEvent> {
        vec![
            other(),
            pair(1, 2, 0, 0, true), // 1: root pair, overlapping: pushes (1,0) and (2,0)
            pair(1, 2, 1, 0, false), // 2: culled
            pair(1, 2, 2, 0, true), // 3: pushes (3,0), (4,0)
            pair(1, 2, 3, 0, false), // 4
            pair(1, 2, 4, 0, true), // 5
            pair(1, 2, 0, 0, true), // 6: a second traversal of the same bodies
            other(),
        ]
    }

    #[test]
    fn a_run_is_one_traversal_of_one_body_pair() {
        let t = trace();
        let s = TraversalStep::at(&t, 3, |_, _| None).expect("a step");
        assert_eq!((s.a, s.b, s.start, s.end), (1, 2, 1, 6));
        assert_eq!((s.node_a, s.node_b), (Some(2), Some(0)));
        assert_eq!((s.tested, s.overlapping, s.len()), (3, 2, 5));
        let second = TraversalStep::at(&t, 6, |_, _| None).expect("a step");
        assert_eq!((second.start, second.end), (6, 7));
        assert!(TraversalStep::at(&t, 0, |_, _| None).is_none());
        assert!(TraversalStep::at(&t, 99, |_, _| None).is_none());
    }

    #[test]
    fn pending_pairs_are_later_pairs_whose_parent_pair_overlapped() {
        let t = trace();
        let n = tree();
        let mut s = TraversalStep::at(&t, 2, |_, _| None).expect("a step");
        s.find_pending(&t, [&n, &n]);
        // At step 2, (2,0) waits (pushed by the root pair); (3,0) and (4,0) are not pushed yet.
        assert_eq!(s.pending, vec![(2, 0)]);
        let mut s = TraversalStep::at(&t, 3, |_, _| None).expect("a step");
        s.find_pending(&t, [&n, &n]);
        assert_eq!(s.pending, vec![(3, 0), (4, 0)]);
    }

    #[test]
    fn marks_tell_culled_descended_pending_path_and_current() {
        let t = trace();
        let n = tree();
        let mut s = TraversalStep::at(&t, 4, |_, _| None).expect("a step");
        s.find_pending(&t, [&n, &n]);
        let a = s.marks(&t, 0, &n);
        assert_eq!(a.get(&1), Some(&NodeMark::Culled));
        assert_eq!(a.get(&3), Some(&NodeMark::Current));
        assert_eq!(
            a.get(&2),
            Some(&NodeMark::Path),
            "parent of the current node"
        );
        assert_eq!(a.get(&0), Some(&NodeMark::Path));
        assert_eq!(a.get(&4), Some(&NodeMark::OnStack));
        let b = s.marks(&t, 1, &n);
        assert_eq!(b.get(&0), Some(&NodeMark::Current));
        assert_eq!(b.len(), 1);
    }
}
