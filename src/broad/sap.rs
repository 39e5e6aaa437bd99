//! Sweep and prune (I-Collide, Cohen et al. 1995): each axis keeps the boxes' interval ends in
//! one sorted list. Between steps the boxes move little, so the lists stay nearly sorted and
//! an **insertion sort** restores them in near-linear time; each swap of two ends is an event:
//!
//! - the begin of X passes to the left of the end of Y: X and Y may start to overlap; they are
//!   tested with their new boxes and the pair is added if they do;
//! - the end of X passes to the left of the begin of Y: X now lies wholly before Y on this
//!   axis; the pair is removed.
//!
//! A pair's status changes only through such swaps, so the **persistent pair set** is exact
//! after every update. Ends with equal values sort begins first: touching intervals overlap,
//! as in `Aabb::intersects`.
//!
//! Not the thesis's rule (spec 003 §2.10): it sorted with "Quick Sort" from scratch and called
//! an object free when its own ends were consecutive, which misses an interval nested inside
//! another. Swap toggling has no such blind spot.

use super::BroadEvent;
use super::{BroadStats, finish, is_regular, ordered, stray_pairs};
use crate::geom::Aabb;
use crate::trace::{Probe, TraceEvent, Verdict};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq)]
struct End {
    value: f64,
    body: u32,
    is_max: bool,
}

impl End {
    /// Sort key: by value, begins before ends at equal values.
    #[inline]
    fn after(&self, other: &End) -> bool {
        self.value > other.value || (self.value == other.value && self.is_max && !other.is_max)
    }
}

#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    axes: [Vec<End>; 3],
    /// Which boxes took part in the lists at the last update (regular ones).
    members: Vec<bool>,
    pairs: BTreeSet<(u32, u32)>,
    pub stats: BroadStats,
}

impl SweepAndPrune {
    /// The persistent pairs (among regular boxes) after the last update.
    pub fn persistent_pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.pairs.iter().copied()
    }

    pub fn update<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P) -> Vec<(u32, u32)> {
        self.stats = BroadStats::default();
        let members: Vec<bool> = boxes.iter().map(is_regular).collect();
        if members != self.members {
            self.rebuild(boxes, &members, probe);
        } else {
            for axis in 0..3 {
                self.sort_axis(axis, boxes, probe);
            }
        }
        let mut out: Vec<(u32, u32)> = self.pairs.iter().copied().collect();
        stray_pairs(boxes, &mut self.stats, probe, &mut out);
        finish(out)
    }

    /// From scratch, when boxes come or go (or turn stray): sort the lists, then find the
    /// pairs with one sweep along x, reporting the changes to the previous pair set.
    fn rebuild<P: Probe>(&mut self, boxes: &[Aabb], members: &[bool], probe: &mut P) {
        for (axis, list) in self.axes.iter_mut().enumerate() {
            list.clear();
            for (i, b) in boxes.iter().enumerate() {
                if members[i] {
                    list.push(End {
                        value: b.min[axis],
                        body: i as u32,
                        is_max: false,
                    });
                    list.push(End {
                        value: b.max[axis],
                        body: i as u32,
                        is_max: true,
                    });
                }
            }
            list.sort_by(|a, b| {
                a.value
                    .total_cmp(&b.value)
                    .then(a.is_max.cmp(&b.is_max))
                    .then(a.body.cmp(&b.body))
            });
        }
        let mut fresh = BTreeSet::new();
        let mut active: Vec<u32> = Vec::new();
        for end in &self.axes[0] {
            if end.is_max {
                active.retain(|&b| b != end.body);
            } else {
                for &other in &active {
                    self.stats.box_tests += 1;
                    if boxes[other as usize].intersects(&boxes[end.body as usize]) {
                        fresh.insert(ordered(other, end.body));
                    }
                }
                active.push(end.body);
            }
        }
        for &(a, b) in fresh.difference(&self.pairs) {
            self.stats.pairs_added += 1;
            crate::trace_event!(
                probe,
                TraceEvent::new(Verdict::Hit, BroadEvent::PairChanged { a, b })
            );
        }
        for &(a, b) in self.pairs.difference(&fresh) {
            self.stats.pairs_removed += 1;
            crate::trace_event!(
                probe,
                TraceEvent::new(Verdict::Miss, BroadEvent::PairChanged { a, b })
            );
        }
        self.pairs = fresh;
        self.members = members.to_vec();
    }

    fn sort_axis<P: Probe>(&mut self, axis: usize, boxes: &[Aabb], probe: &mut P) {
        let list = &mut self.axes[axis];
        for end in list.iter_mut() {
            let b = &boxes[end.body as usize];
            end.value = if end.is_max { b.max[axis] } else { b.min[axis] };
        }
        for i in 1..list.len() {
            let mut j = i;
            while j > 0 && list[j - 1].after(&list[j]) {
                let (moving, passed) = (list[j], list[j - 1]);
                list.swap(j - 1, j);
                j -= 1;
                if moving.body == passed.body {
                    continue;
                }
                self.stats.swaps += 1;
                crate::trace_event!(
                    probe,
                    TraceEvent::new(
                        Verdict::Info,
                        BroadEvent::SapSwap {
                            axis: axis as u8,
                            a: moving.body,
                            b: passed.body,
                            value: moving.value
                        }
                    )
                );
                let pair = ordered(moving.body, passed.body);
                if !moving.is_max && passed.is_max {
                    self.stats.box_tests += 1;
                    if boxes[moving.body as usize].intersects(&boxes[passed.body as usize])
                        && self.pairs.insert(pair)
                    {
                        self.stats.pairs_added += 1;
                        crate::trace_event!(
                            probe,
                            TraceEvent::new(
                                Verdict::Hit,
                                BroadEvent::PairChanged {
                                    a: pair.0,
                                    b: pair.1
                                }
                            )
                        );
                    }
                } else if moving.is_max && !passed.is_max && self.pairs.remove(&pair) {
                    self.stats.pairs_removed += 1;
                    crate::trace_event!(
                        probe,
                        TraceEvent::new(
                            Verdict::Miss,
                            BroadEvent::PairChanged {
                                a: pair.0,
                                b: pair.1
                            }
                        )
                    );
                }
            }
        }
    }
}
