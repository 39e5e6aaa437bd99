//! The node table: one row per node, sortable by every column.

use crate::bvh::{NodeStats, TreeStats};
use egui::{RichText, Ui};

/// Node table columns, each sortable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SortKey {
    #[default]
    Id,
    Depth,
    Triangles,
    Sah,
    SiblingOverlap,
    Tested,
}

impl SortKey {
    pub const ALL: [SortKey; 6] = [
        SortKey::Id,
        SortKey::Depth,
        SortKey::Triangles,
        SortKey::Sah,
        SortKey::SiblingOverlap,
        SortKey::Tested,
    ];

    pub fn header(self) -> &'static str {
        match self {
            SortKey::Id => "node",
            SortKey::Depth => "depth",
            SortKey::Triangles => "tris",
            SortKey::Sah => "SAH",
            SortKey::SiblingOverlap => "overlap",
            SortKey::Tested => "tested",
        }
    }

    /// Characters the column takes in the monospace rows.
    fn width(self) -> usize {
        match self {
            SortKey::Id => 6,
            SortKey::Depth => 5,
            SortKey::Triangles => 6,
            SortKey::Sah => 9,
            SortKey::SiblingOverlap => 9,
            SortKey::Tested => 6,
        }
    }
}

/// Node ids ordered by a column (ties by id, so the order is total and stable).
pub fn sort_nodes(nodes: &[NodeStats], tested: &[u32], key: SortKey, descending: bool) -> Vec<u32> {
    let t = |n: &NodeStats| tested.get(n.id as usize).copied().unwrap_or(0);
    let mut order: Vec<&NodeStats> = nodes.iter().collect();
    order.sort_by(|a, b| {
        let primary = match key {
            SortKey::Id => a.id.cmp(&b.id),
            SortKey::Depth => a.depth.cmp(&b.depth),
            SortKey::Triangles => a.triangles.cmp(&b.triangles),
            SortKey::Sah => a.sah_contribution.total_cmp(&b.sah_contribution),
            SortKey::SiblingOverlap => a
                .sibling_overlap_volume
                .total_cmp(&b.sibling_overlap_volume),
            SortKey::Tested => t(a).cmp(&t(b)),
        };
        let primary = if descending {
            primary.reverse()
        } else {
            primary
        };
        primary.then(a.id.cmp(&b.id))
    });
    order.into_iter().map(|n| n.id).collect()
}

/// One node table row, aligned to the column widths.
pub fn row_text(n: &NodeStats, tested: u32) -> String {
    format!(
        "{:>w0$} {:>w1$} {:>w2$} {:>w3$.4} {:>w4$.4} {:>w5$}",
        n.id,
        n.depth,
        n.triangles,
        n.sah_contribution,
        n.sibling_overlap_volume,
        tested,
        w0 = SortKey::Id.width(),
        w1 = SortKey::Depth.width(),
        w2 = SortKey::Triangles.width(),
        w3 = SortKey::Sah.width(),
        w4 = SortKey::SiblingOverlap.width(),
        w5 = SortKey::Tested.width(),
    )
}

/// The table's state in the panel: the column sorted by, its direction, the node picked.
pub struct NodeTable<'a> {
    pub sort: &'a mut SortKey,
    pub descending: &'a mut bool,
    pub selected: &'a mut Option<u32>,
}

impl NodeTable<'_> {
    /// The header (click a column to sort by it, again to reverse) and the rows in `order`.
    pub fn show(self, ui: &mut Ui, stats: &TreeStats, tested: &[u32], order: &[u32]) {
        let font = egui::FontId::monospace(12.0);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = char_w;
            for key in SortKey::ALL {
                let arrow = match (*self.sort == key, *self.descending) {
                    (true, false) => " ▲",
                    (true, true) => " ▼",
                    _ => "",
                };
                let text = RichText::new(format!("{}{arrow}", key.header()))
                    .font(font.clone())
                    .strong();
                let resp = ui
                    .add_sized(
                        [char_w * key.width() as f32, 18.0],
                        egui::Button::new(text).frame(false),
                    )
                    .on_hover_text(format!("Sort by {}", key.header()));
                if resp.clicked() {
                    if *self.sort == key {
                        *self.descending = !*self.descending;
                    } else {
                        *self.sort = key;
                        *self.descending = !matches!(key, SortKey::Id | SortKey::Depth);
                    }
                }
            }
        });
        let row_h = 17.0;
        egui::ScrollArea::vertical()
            .id_salt("node-table")
            .max_height(200.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_h, order.len(), |ui, rows| {
                for &id in &order[rows] {
                    let Some(n) = stats.per_node.get(id as usize) else {
                        continue;
                    };
                    let t = tested.get(id as usize).copied().unwrap_or(0);
                    let text = RichText::new(row_text(n, t)).font(font.clone());
                    let resp = ui
                        .selectable_label(*self.selected == Some(id), text)
                        .on_hover_text(if n.leaf {
                            "leaf: click to inspect"
                        } else {
                            "click to inspect"
                        });
                    if resp.clicked() {
                        *self.selected = Some(id);
                    }
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u32, depth: u32, triangles: u32, sah: f64, overlap: f64) -> NodeStats {
        NodeStats {
            triangles,
            sah_contribution: sah,
            sibling_overlap_volume: overlap,
            ..super::super::test_node(id, depth)
        }
    }

    fn nodes() -> Vec<NodeStats> {
        vec![
            node(0, 0, 8, 1.0, 0.0),
            node(1, 1, 4, 0.5, 0.2),
            node(2, 1, 4, 0.7, 0.2),
            node(3, 2, 2, f64::NAN, 0.0),
        ]
    }

    #[test]
    fn sorting_orders_by_the_column_then_by_id() {
        let n = nodes();
        let tested = [3, 0, 7];
        assert_eq!(sort_nodes(&n, &tested, SortKey::Id, true), vec![3, 2, 1, 0]);
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Depth, false),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Depth, true),
            vec![3, 1, 2, 0]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Triangles, true),
            vec![0, 1, 2, 3]
        );
        // NaN sorts after every number (total order), so it never scrambles the table.
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Sah, false),
            vec![1, 2, 0, 3]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::SiblingOverlap, true),
            vec![1, 2, 0, 3]
        );
        // Missing counts are 0.
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Tested, true),
            vec![2, 0, 1, 3]
        );
    }

    #[test]
    fn rows_line_up_with_the_headers() {
        let width: usize = SortKey::ALL.iter().map(|k| k.width() + 1).sum::<usize>() - 1;
        for n in nodes() {
            assert_eq!(
                row_text(&n, 12).chars().count(),
                width,
                "{:?}",
                row_text(&n, 12)
            );
        }
    }
}
