//! The frame's NURBS events read back into the queries that made them. The engine recurses
//! depth first and emits a box test on entry, then either nothing (separated), a hit (at the
//! stop) or its splits followed by the child calls: two (Algorithms 2.1 and 2.3: one piece
//! halved) or up to 16 (Algorithm 2.2: both pieces cut in four). Every piece a call halves is
//! split in its children, so a test's parent is the nearest open test whose two paths name
//! pieces containing its own, whichever recursion ran. Nothing here needs the geometry: it is
//! the trace alone, testable on a hand-written one.

use crate::nurbs::{NurbsEvent, PatchPath};
use crate::trace::{EventKind, TraceEvent};

/// One box-pair test of a query, a node of the recursion tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    /// Its index in the frame's trace.
    pub event: usize,
    pub path_a: PatchPath,
    pub path_b: PatchPath,
    /// The separating axis (`bvh::sat_obb` order), `None` when the boxes overlap.
    pub axis: Option<u8>,
    /// Index of the parent test in [`Query::tests`].
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// The splits that followed (trace index, surface halved, its path before the split):
    /// one, or (Algorithm 2.2) the halvings that cut both pieces in four.
    pub splits: Vec<(usize, u32, PatchPath)>,
    /// The trace index of the hit this test was accepted as.
    pub hit: Option<usize>,
    /// Calls above it: its number of ancestors.
    pub call_depth: u32,
}

impl Test {
    /// The call depth (with one piece halved per call, the two path depths summed).
    pub fn depth(&self) -> u32 {
        self.call_depth
    }

    /// Whether this test's pieces contain `other`'s, each on its own surface, and are not both
    /// the same: `other` lies below it in the recursion.
    fn is_above(&self, other: &Test) -> bool {
        let above = contains(self.path_a, other.path_a) && contains(self.path_b, other.path_b);
        above && (self.path_a, self.path_b) != (other.path_a, other.path_b)
    }

    pub fn separated(&self) -> bool {
        self.axis.is_some()
    }

    /// The last trace index that belongs to this test (its split or hit follows it).
    pub fn last_event(&self) -> usize {
        [Some(self.event), self.splits.last().map(|s| s.0), self.hit]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(self.event)
    }
}

/// One surface–surface query: a run of events between two root tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query {
    pub surface_a: u32,
    pub surface_b: u32,
    pub tests: Vec<Test>,
    /// Indices in `tests` of the tests accepted as hits.
    pub hits: Vec<usize>,
    pub splits: usize,
    /// Pieces of the intersection curve (curve mode), in trace order.
    pub segments: Vec<CurveSegment>,
}

/// A recorded piece of the intersection curve: the (u, v) of its ends on both surfaces, and
/// the hit test whose pieces' corner triangles gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveSegment {
    pub event: usize,
    pub test: usize,
    pub uv_a: [[f64; 2]; 2],
    pub uv_b: [[f64; 2]; 2],
}

impl Query {
    pub fn first_event(&self) -> usize {
        self.tests.first().map_or(0, |t| t.event)
    }

    pub fn last_event(&self) -> usize {
        self.tests
            .iter()
            .map(Test::last_event)
            .chain(self.segments.iter().map(|s| s.event))
            .max()
            .unwrap_or(0)
    }

    pub fn contains(&self, event: usize) -> bool {
        (self.first_event()..=self.last_event()).contains(&event)
    }

    /// The test a trace index belongs to: the test itself, or the test its split or hit
    /// followed.
    pub fn test_of_event(&self, event: usize) -> Option<usize> {
        if !self.contains(event) {
            return None;
        }
        let k = self.tests.partition_point(|t| t.event <= event);
        k.checked_sub(1)
    }

    pub fn separated(&self) -> usize {
        self.tests.iter().filter(|t| t.separated()).count()
    }

    pub fn max_depth(&self) -> u32 {
        self.tests.iter().map(Test::depth).max().unwrap_or(0)
    }

    /// The deepest sub-patch of either surface (the level slider's range).
    pub fn max_level(&self) -> u8 {
        self.tests
            .iter()
            .map(|t| t.path_a.depth.max(t.path_b.depth))
            .max()
            .unwrap_or(0)
    }

    /// The tests from the root down to `test`, root first.
    pub fn path_to(&self, test: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = Some(test);
        while let Some(k) = at {
            if k >= self.tests.len() || out.len() > self.tests.len() {
                break;
            }
            out.push(k);
            at = self.tests[k].parent;
        }
        out.reverse();
        out
    }
}

/// Whether the piece at `outer` contains the piece at `inner` (the same surface): its path
/// is the start of `inner`'s.
fn contains(outer: PatchPath, inner: PatchPath) -> bool {
    if outer.depth > inner.depth {
        return false;
    }
    let mask = 1u64.checked_shl(outer.depth.into()).map_or(u64::MAX, |m| m - 1);
    inner.bits & mask == outer.bits & mask
}

/// The NURBS events of a trace, in order, with their index.
pub fn nurbs_events(trace: &[TraceEvent]) -> impl Iterator<Item = (usize, &NurbsEvent)> {
    trace.iter().enumerate().filter_map(|(i, e)| match &e.kind {
        EventKind::Nurbs(n) => Some((i, n)),
        _ => None,
    })
}

/// Groups a frame's trace into queries. A truncated trace (events dropped at the limit) gives
/// the queries it holds, the last one cut short.
pub fn read(trace: &[TraceEvent]) -> Vec<Query> {
    let mut queries: Vec<Query> = Vec::new();
    // The tests of the open query whose calls have not returned, root first.
    let mut open_tests: Vec<usize> = Vec::new();
    for (i, e) in nurbs_events(trace) {
        match *e {
            NurbsEvent::BoxPair {
                surface_a,
                surface_b,
                path_a,
                path_b,
                axis,
            } => {
                let root = path_a.depth == 0 && path_b.depth == 0;
                let open = queries
                    .last()
                    .is_some_and(|q| q.surface_a == surface_a && q.surface_b == surface_b);
                if root || !open {
                    queries.push(Query {
                        surface_a,
                        surface_b,
                        ..Query::default()
                    });
                    open_tests.clear();
                }
                let Some(q) = queries.last_mut() else {
                    continue;
                };
                let mut test = Test {
                    event: i,
                    path_a,
                    path_b,
                    axis,
                    parent: None,
                    children: Vec::new(),
                    splits: Vec::new(),
                    hit: None,
                    call_depth: 0,
                };
                while let Some(&top) = open_tests.last()
                    && !q.tests[top].is_above(&test)
                {
                    open_tests.pop();
                }
                let k = q.tests.len();
                if let Some(&p) = open_tests.last() {
                    q.tests[p].children.push(k);
                    test.parent = Some(p);
                    test.call_depth = q.tests[p].call_depth + 1;
                }
                open_tests.push(k);
                q.tests.push(test);
            }
            NurbsEvent::Split { surface, path } => {
                if let Some(t) = queries.last_mut().and_then(|q| q.tests.last_mut()) {
                    t.splits.push((i, surface, path));
                }
                if let Some(q) = queries.last_mut() {
                    q.splits += 1;
                }
            }
            NurbsEvent::Hit { .. } => {
                if let Some(q) = queries.last_mut()
                    && let Some(k) = q.tests.len().checked_sub(1)
                {
                    q.tests[k].hit = Some(i);
                    q.hits.push(k);
                }
            }
            NurbsEvent::Segment { uv_a, uv_b, .. } => {
                if let Some(q) = queries.last_mut()
                    && let Some(&test) = q.hits.last()
                {
                    q.segments.push(CurveSegment {
                        event: i,
                        test,
                        uv_a,
                        uv_b,
                    });
                }
            }
        }
    }
    queries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Verdict;

    fn path(depth: u8, bits: u64) -> PatchPath {
        PatchPath { depth, bits }
    }

    fn ev(e: NurbsEvent) -> TraceEvent {
        TraceEvent::new(Verdict::Info, e)
    }

    fn pair(a: PatchPath, b: PatchPath, axis: Option<u8>) -> TraceEvent {
        ev(NurbsEvent::BoxPair {
            surface_a: 0,
            surface_b: 3,
            path_a: a,
            path_b: b,
            axis,
        })
    }

    /// Root overlaps, A halved; the lower half is separated, the upper overlaps, B halved;
    /// B's upper half hits. Then a second query separated at its root.
    fn trace() -> Vec<TraceEvent> {
        let root = path(0, 0);
        vec![
            pair(root, root, None),
            ev(NurbsEvent::Split {
                surface: 0,
                path: root,
            }),
            pair(path(1, 0), root, Some(4)),
            pair(path(1, 1), root, None),
            ev(NurbsEvent::Split {
                surface: 3,
                path: root,
            }),
            pair(path(1, 1), path(1, 0), Some(9)),
            pair(path(1, 1), path(1, 1), None),
            ev(NurbsEvent::Hit {
                surface_a: 0,
                surface_b: 3,
                path_a: path(1, 1),
                path_b: path(1, 1),
            }),
            pair(root, root, Some(0)),
        ]
    }

    #[test]
    fn the_recursion_tree_is_read_from_the_trace_alone() {
        let qs = read(&trace());
        assert_eq!(qs.len(), 2);
        let q = &qs[0];
        assert_eq!(q.tests.len(), 5);
        assert_eq!(q.tests[0].children, vec![1, 2]);
        assert_eq!(q.tests[2].children, vec![3, 4]);
        assert_eq!(q.tests[4].parent, Some(2));
        assert_eq!(q.tests[0].splits.first().map(|s| (s.0, s.1)), Some((1, 0)));
        assert_eq!(q.tests[2].splits.first().map(|s| (s.0, s.1)), Some((4, 3)));
        assert_eq!(q.hits, vec![4]);
        assert_eq!(q.tests[4].hit, Some(7));
        assert_eq!(
            (q.separated(), q.splits, q.max_depth(), q.max_level()),
            (2, 2, 2, 1)
        );
        assert_eq!(q.path_to(4), vec![0, 2, 4]);
        assert_eq!((q.first_event(), q.last_event()), (0, 7));
        // The second query is its root alone.
        assert_eq!(qs[1].tests.len(), 1);
        assert_eq!(qs[1].first_event(), 8);
    }

    #[test]
    fn splits_and_hits_belong_to_the_test_before_them() {
        let qs = read(&trace());
        let q = &qs[0];
        assert_eq!(q.test_of_event(1), Some(0));
        assert_eq!(q.test_of_event(4), Some(2));
        assert_eq!(q.test_of_event(7), Some(4));
        assert_eq!(q.test_of_event(8), None);
        assert_eq!(qs[1].test_of_event(8), Some(0));
    }

    #[test]
    fn a_trace_cut_short_keeps_what_it_holds() {
        let mut t = trace();
        t.truncate(5);
        let qs = read(&t);
        assert_eq!(qs.len(), 1);
        assert_eq!(qs[0].tests.len(), 3);
        assert!(qs[0].hits.is_empty());
        // Events of other families and a stray split before any test are ignored.
        let stray = vec![ev(NurbsEvent::Split {
            surface: 1,
            path: path(0, 0),
        })];
        assert!(read(&stray).is_empty());
    }
}
