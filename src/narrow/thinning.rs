//! A bound on one pair's work against a dense mesh. A body that swallows part of a mesh of
//! hundreds of thousands of triangles meets each of them, and the pair's exact test per
//! triangle (or per corner, mesh against mesh) ran for seconds a step, for a manifold that
//! keeps at most `MAX_PAIR_CONTACTS` anyway. Past the bound the pair tests an even sample of
//! its candidates, in their order, and says so: the frame gets a marker naming the pair, how
//! many candidates it had and how many it tested. Two meshes of slivers crossing each other
//! overlap over millions of leaf pairs: their traversal stops at a budget of triangle tests,
//! and the marker says that too. No built-in scene comes near these bounds.

/// Triangles one shape tests against a mesh in one pair.
pub const MAX_PAIR_TRIANGLES: usize = 32_768;

/// Corners one mesh searches for in the other, mesh against mesh.
pub const MAX_PAIR_CORNERS: usize = 2_048;

/// Triangle pairs the traversal of two meshes' hierarchies tests in one pair (the built-in
/// scenes' most is 11,570).
pub const MAX_PAIR_TRIANGLE_TESTS: u64 = 1 << 20;

/// A pair that tested a part of its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinned {
    /// What was tested: "triangles", "corners" or "triangle pairs".
    pub what: &'static str,
    /// How many there were to test; `None` when a search stopped at its budget, before it
    /// knew.
    pub candidates: Option<usize>,
    pub tested: usize,
}

impl Thinned {
    /// Two parts of one pair's work as one: both sides' corner samples add up; a stopped
    /// search, whose contacts come from part of the overlap, is what the user must hear of.
    pub fn merged(a: Option<Thinned>, b: Option<Thinned>) -> Option<Thinned> {
        match (a, b) {
            (Some(a), Some(b)) => Some(match (a.candidates, b.candidates) {
                (Some(ca), Some(cb)) => Thinned {
                    what: a.what,
                    candidates: Some(ca + cb),
                    tested: a.tested + b.tested,
                },
                (None, _) => a,
                (_, None) => b,
            }),
            (a, b) => a.or(b),
        }
    }

    /// What was tested, in a few words: "3 of 10 corners tested".
    pub fn summary(&self) -> String {
        match self.candidates {
            Some(c) => format!("{} of {c} {} tested", self.tested, self.what),
            None => format!(
                "the search stopped after {} {} tested",
                self.tested, self.what
            ),
        }
    }

    /// The marker's text for the pair of `names`.
    pub fn describe(&self, names: (&str, &str)) -> String {
        let how = match self.candidates {
            Some(_) => "an even sample",
            None => "its budget: the contacts come from the part of the overlap it reached",
        };
        format!(
            "{} – {}: {} ({how}); the contacts are approximate",
            names.0,
            names.1,
            self.summary()
        )
    }
}

/// `items` whole up to `max`; past it every k-th of them (k the least stride that keeps at
/// most `max`), from the first, with what was dropped.
pub fn thin<T>(items: Vec<T>, max: usize, what: &'static str) -> (Vec<T>, Option<Thinned>) {
    let candidates = items.len();
    if candidates <= max || max == 0 {
        return (items, None);
    }
    let stride = candidates.div_ceil(max);
    let kept: Vec<T> = items.into_iter().step_by(stride).collect();
    let thinned = Thinned {
        what,
        candidates: Some(candidates),
        tested: kept.len(),
    };
    (kept, Some(thinned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_sample_keeps_at_most_the_bound_spread_over_all(n in 0usize..5000, max in 0usize..600) {
            let items: Vec<usize> = (0..n).collect();
            let (kept, thinned) = thin(items.clone(), max, "triangles");
            if n <= max || max == 0 {
                prop_assert_eq!(kept, items);
                prop_assert!(thinned.is_none());
            } else {
                let t = thinned.expect("a sample");
                prop_assert_eq!((t.candidates, t.tested), (Some(n), kept.len()));
                prop_assert!(kept.len() <= max && !kept.is_empty());
                // Even: the same gap between any two kept items, and the last gap of the
                // whole list no wider than it.
                let gap = kept.get(1).map_or(n, |k| k - kept[0]);
                prop_assert_eq!(kept[0], 0);
                prop_assert!(kept.windows(2).all(|w| w[1] - w[0] == gap));
                prop_assert!(n - 1 - kept[kept.len() - 1] < gap);
                // The least such stride: one less would keep more than the bound.
                prop_assert!(gap == 1 || n.div_ceil(gap - 1) > max);
            }
        }
    }

    #[test]
    fn both_sides_of_a_pair_add_up_and_a_stopped_search_is_told() {
        let side = |c, t| {
            Some(Thinned {
                what: "corners",
                candidates: Some(c),
                tested: t,
            })
        };
        assert_eq!(Thinned::merged(side(10, 5), side(4, 4)), side(14, 9));
        assert_eq!(Thinned::merged(None, side(4, 2)), side(4, 2));
        assert_eq!(Thinned::merged(None, None), None);
        let text = side(40_000, 4_000).unwrap().describe(("a", "b"));
        assert!(
            text.starts_with("a – b: 4000 of 40000 corners tested (an even sample)"),
            "{text}"
        );
        let stopped = Thinned {
            what: "triangle pairs",
            candidates: None,
            tested: 1 << 20,
        };
        assert_eq!(Thinned::merged(side(10, 5), Some(stopped)), Some(stopped));
        assert_eq!(Thinned::merged(Some(stopped), side(10, 5)), Some(stopped));
        let text = stopped.describe(("a", "b"));
        assert!(
            text.contains("the search stopped after 1048576 triangle pairs tested (its budget"),
            "{text}"
        );
    }
}
