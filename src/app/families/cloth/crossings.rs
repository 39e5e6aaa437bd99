//! The frame's inversions as the panel lists them. A frame of several substeps may hold the
//! same vertex crossing the same triangle in more than one of them; listed one per crossing,
//! the table repeated vertices and a reader took them for more inverted vertices.

use super::recorded::InversionRow;
use crate::cloth::Target;
use std::collections::HashMap;

/// One vertex through one triangle, however many substeps it crossed it in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossingRow {
    /// The first crossing: its event is where a click steps to.
    pub first: InversionRow,
    pub substeps: usize,
    /// Every crossing of this vertex through this triangle was corrected.
    pub corrected: bool,
    pub promoted: bool,
}

/// The rows in the order of their first crossing.
pub fn merge_crossings(inversions: &[InversionRow]) -> Vec<CrossingRow> {
    let key = |r: &InversionRow| {
        let (cloth, id) = match r.target {
            Target::Rigid(b) => (false, b),
            Target::Cloth(c) => (true, c),
        };
        (r.vertex, r.triangle, cloth, id)
    };
    let mut rows: Vec<CrossingRow> = Vec::new();
    let mut index = HashMap::new();
    for r in inversions {
        match index.get(&key(r)) {
            Some(&i) => {
                let row: &mut CrossingRow = &mut rows[i];
                row.substeps += 1;
                row.corrected &= r.corrected;
                row.promoted |= r.promoted;
            }
            None => {
                index.insert(key(r), rows.len());
                rows.push(CrossingRow {
                    first: *r,
                    substeps: 1,
                    corrected: r.corrected,
                    promoted: r.promoted,
                });
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(vertex: u32, triangle: u32, target: Target, corrected: bool) -> InversionRow {
        InversionRow {
            event: Some(vertex as usize * 100 + triangle as usize),
            vertex,
            target,
            triangle,
            promoted: false,
            corrected,
        }
    }

    /// Repeats merge into their first row; another triangle, or the same triangle number of
    /// another target, stays its own row; one uncorrected crossing makes the row uncorrected.
    #[test]
    fn repeated_crossings_merge_and_keep_their_first_event() {
        let body = Target::Rigid(1);
        let sheet = Target::Cloth(1);
        let rows = merge_crossings(&[
            row(105, 6, body, true),
            row(114, 6, body, true),
            row(105, 6, body, false),
            row(105, 7, body, true),
            row(114, 6, sheet, true),
            row(105, 6, body, true),
        ]);
        let seen: Vec<(u32, u32, Target, usize, bool)> = rows
            .iter()
            .map(|r| {
                (
                    r.first.vertex,
                    r.first.triangle,
                    r.first.target,
                    r.substeps,
                    r.corrected,
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                (105, 6, body, 3, false),
                (114, 6, body, 1, true),
                (105, 7, body, 1, true),
                (114, 6, sheet, 1, true),
            ]
        );
        assert_eq!(rows[0].first.event, Some(10_506));
        assert!(merge_crossings(&[]).is_empty());
    }
}
