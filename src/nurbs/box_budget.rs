//! The box tests one step of the simulator may spend over all its surface queries: the
//! contact tests of every sub-step and the bisections of their contact times. A scene file
//! is untrusted, and a per-query cap alone lets a step cost that cap times the number of
//! queries (surface pairs × sub-steps × (bisections + 2)).

use super::input_limits::MAX_BOX_TESTS;
use super::query::{QueryOptions, QueryStats};

#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxBudget {
    left: u64,
    /// Queries stopped at their cap before they ended.
    pub cut_short: u32,
    /// Queries not run at all, the budget being spent.
    pub skipped: u32,
}

impl BoxBudget {
    pub fn new(total: u64) -> Self {
        Self {
            left: total,
            cut_short: 0,
            skipped: 0,
        }
    }

    /// The options of the next query, capped by what is left (and by one query's cap);
    /// `None` when nothing is left.
    pub fn options(&mut self, options: QueryOptions) -> Option<QueryOptions> {
        if self.left == 0 {
            self.skipped += 1;
            return None;
        }
        Some(options.with_max_calls(self.left.min(MAX_BOX_TESTS)))
    }

    pub fn spend(&mut self, stats: &QueryStats) {
        self.left = self.left.saturating_sub(stats.calls);
        self.cut_short += u32::from(stats.truncated);
    }

    /// What the user is told when the budget changed an answer, `None` when it did not.
    pub fn report(&self, total: u64) -> Option<String> {
        (self.cut_short + self.skipped > 0).then(|| {
            format!(
                "box budget: {} surface queries cut short and {} skipped (at most {MAX_BOX_TESTS} \
                 box tests a query and {total} a step): contacts may be missed",
                self.cut_short, self.skipped
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nurbs::query::HitMode;

    fn ran(calls: u64, truncated: bool) -> QueryStats {
        QueryStats {
            calls,
            truncated,
            ..QueryStats::default()
        }
    }

    #[test]
    fn queries_share_what_is_left_and_the_rest_are_skipped() {
        let plain = QueryOptions::precision(0.1, HitMode::All);
        let mut budget = BoxBudget::new(MAX_BOX_TESTS + 500);
        // The first query is capped by a query's own limit, not by the whole budget.
        let first = budget.options(plain).expect("a budget to spend");
        assert_eq!(first.max_calls, MAX_BOX_TESTS);
        budget.spend(&ran(MAX_BOX_TESTS, true));
        assert_eq!(budget.options(plain).map(|o| o.max_calls), Some(500));
        budget.spend(&ran(200, false));
        assert_eq!(budget.options(plain).map(|o| o.max_calls), Some(300));
        budget.spend(&ran(300, true));
        assert!(budget.options(plain).is_none());
        assert!(budget.options(plain).is_none());
        assert_eq!((budget.cut_short, budget.skipped), (2, 2));
        let said = budget.report(MAX_BOX_TESTS + 500).expect("a report");
        assert!(
            said.contains("2 surface queries cut short and 2 skipped"),
            "{said}"
        );
    }

    #[test]
    fn a_budget_never_reached_says_nothing() {
        let mut budget = BoxBudget::new(1000);
        let options = budget.options(QueryOptions::precision(0.1, HitMode::All));
        assert_eq!(options.map(|o| o.max_calls), Some(1000));
        budget.spend(&ran(1000, false));
        assert_eq!(budget.report(1000), None);
    }
}
