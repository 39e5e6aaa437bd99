//! How many contacts separate each body from a fixed one: the order in which a shock pass
//! hands support up a stack, from the ground to the top.

/// A body no chain of contacts joins to a fixed body.
pub const UNSUPPORTED: u32 = u32::MAX;

/// Level 0 for the bodies `fixed` says are fixed, n + 1 for a body in contact with one of
/// level n, [`UNSUPPORTED`] for the rest; `pairs` are the contacts' body indices.
pub fn support_levels(fixed: &[bool], pairs: &[(usize, usize)]) -> Vec<u32> {
    let n = fixed.len();
    // The contact graph as adjacency lists packed in one array (`start[i]..start[i + 1]`).
    let mut start = vec![0usize; n + 1];
    for &(a, b) in pairs {
        start[a + 1] += 1;
        start[b + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut next = vec![0usize; start[n]];
    for &(a, b) in pairs {
        next[fill[a]] = b;
        fill[a] += 1;
        next[fill[b]] = a;
        fill[b] += 1;
    }
    let mut level: Vec<u32> = fixed
        .iter()
        .map(|&f| if f { 0 } else { UNSUPPORTED })
        .collect();
    let mut frontier: Vec<usize> = (0..n).filter(|&i| fixed[i]).collect();
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut reached = Vec::new();
        for &i in &frontier {
            for &j in &next[start[i]..start[i + 1]] {
                if level[j] == UNSUPPORTED {
                    level[j] = depth;
                    reached.push(j);
                }
            }
        }
        frontier = reached;
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: relax every pair until nothing changes (Bellman–Ford on unit edges).
    fn by_relaxation(fixed: &[bool], pairs: &[(usize, usize)]) -> Vec<u32> {
        let mut level: Vec<u32> = fixed
            .iter()
            .map(|&f| if f { 0 } else { UNSUPPORTED })
            .collect();
        loop {
            let mut changed = false;
            for &(a, b) in pairs {
                for (from, to) in [(a, b), (b, a)] {
                    if level[from] != UNSUPPORTED && level[from] + 1 < level[to] {
                        level[to] = level[from] + 1;
                        changed = true;
                    }
                }
            }
            if !changed {
                return level;
            }
        }
    }

    #[test]
    fn a_column_counts_up_from_the_floor_and_a_loose_body_stays_unsupported() {
        let fixed = [true, false, false, false, false];
        let pairs = [(0, 1), (1, 2), (2, 3)];
        assert_eq!(support_levels(&fixed, &pairs), [0, 1, 2, 3, UNSUPPORTED]);
    }

    proptest! {
        #[test]
        fn levels_are_the_shortest_chains_to_a_fixed_body(
            fixed in prop::collection::vec(prop::bool::weighted(0.2), 1..30),
            raw in prop::collection::vec((0..30usize, 0..30usize), 0..80),
        ) {
            let n = fixed.len();
            let pairs: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            prop_assert_eq!(support_levels(&fixed, &pairs), by_relaxation(&fixed, &pairs));
        }
    }
}
