//! The recursion tree of the query shown (the thesis' "arbre de recherche"): one row per box
//! pair tested, children indented under the test that split, with the verdict, the separating
//! axis or the split. Only the rows in view are laid out, so a query of 100,000 tests scrolls
//! as fast as one of ten; the branches open by default are the first two levels and the
//! paths to the step and to the hits.

use super::geometry::FrameGeometry;
use super::palette;
use super::queries::{Query, Test};
use crate::app::state::Command;
use crate::bvh::sat_obb::SAT_AXIS_NAMES;
use crate::nurbs::PatchPath;
use crate::nurbs::split::Direction;
use std::collections::HashSet;

/// Marks the row of the test under the step scrubber (tests look for it).
pub const CURRENT: &str = "▶ now";

const ROW_HEIGHT: f32 = 18.0;
const TREE_HEIGHT: f32 = 300.0;

/// Which branches the user opened or closed, for one query.
#[derive(Default)]
pub struct TreeState {
    key: Option<(u64, usize, u32, u32)>,
    toggled: HashSet<usize>,
    scrolled_to: Option<usize>,
}

/// The path as the halves taken, root first ("whole", "0", "01"...).
pub fn path_words(path: PatchPath) -> String {
    if path.depth == 0 {
        return "whole".into();
    }
    (0..path.depth)
        .map(|k| if path.step(k) == 0 { '0' } else { '1' })
        .collect()
}

/// Tests open by default: the first two call levels and every test on a path to `keep`.
fn opened_by_default(query: &Query, keep: &[usize]) -> HashSet<usize> {
    let mut open: HashSet<usize> = query
        .tests
        .iter()
        .enumerate()
        .filter(|(_, t)| t.depth() < 2)
        .map(|(k, _)| k)
        .collect();
    for &k in keep {
        open.extend(query.path_to(k));
    }
    open
}

/// The visible rows (test index, indent), depth first as the engine ran them.
pub fn visible_rows(
    query: &Query,
    open: &HashSet<usize>,
    toggled: &HashSet<usize>,
) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    if query.tests.is_empty() {
        return out;
    }
    let mut stack = vec![(0usize, 0u32)];
    while let Some((k, indent)) = stack.pop() {
        out.push((k, indent));
        let is_open = open.contains(&k) != toggled.contains(&k);
        if is_open {
            for &c in query.tests[k].children.iter().rev() {
                stack.push((c, indent + 1));
            }
        }
    }
    out
}

fn row_text(g: &mut FrameGeometry, query: &Query, t: &Test) -> String {
    let verdict = match (t.axis, t.hit, t.splits.as_slice()) {
        (Some(a), ..) => format!(
            "separated on {}",
            SAT_AXIS_NAMES.get(a as usize).copied().unwrap_or("?")
        ),
        (None, Some(_), _) => "overlap → HIT".into(),
        (None, None, [(_, s, p)]) => {
            let side = if *s == query.surface_a { "A" } else { "B" };
            let dir = match g.split_of(*s, *p) {
                Some(Direction::U) => "u",
                Some(Direction::V) => "v",
                None => "?",
            };
            format!("overlap → split {side} along {dir}")
        }
        (None, None, [_, _, ..]) => format!("overlap → cut in four ({} halvings)", t.splits.len()),
        (None, None, []) => "overlap (trace cut short)".into(),
    };
    format!(
        "d{} · A {} × B {} · {verdict}",
        t.depth(),
        path_words(t.path_a),
        path_words(t.path_b)
    )
}

/// The summary line and the list.
pub fn show(
    ui: &mut egui::Ui,
    g: &mut FrameGeometry,
    q: usize,
    current: Option<usize>,
    state: &mut TreeState,
    generation: u64,
    out: &mut Vec<Command>,
) {
    let Some(query) = g.queries.get(q).cloned() else {
        return;
    };
    let key = (generation, q, query.surface_a, query.surface_b);
    if state.key != Some(key) {
        *state = TreeState {
            key: Some(key),
            ..TreeState::default()
        };
    }
    ui.label(format!(
        "{} box tests · {} separated · {} splits · {} hit · deepest call {}",
        query.tests.len(),
        query.separated(),
        query.splits,
        query.hits.len(),
        query.max_depth()
    ));
    let mut keep: Vec<usize> = query.hits.clone();
    keep.extend(current);
    let open = opened_by_default(&query, &keep);
    let rows = visible_rows(&query, &open, &state.toggled);
    let mut scroll = egui::ScrollArea::vertical()
        .id_salt("nurbs-recursion-tree")
        .max_height(TREE_HEIGHT)
        .auto_shrink([false, true])
        // A jump to the step, not a glide: stepping fast must not leave the list behind.
        .animated(false);
    // Follow the step: bring its row into view once each time it changes.
    if current != state.scrolled_to
        && let Some(c) = current
        && let Some(pos) = rows.iter().position(|(k, _)| *k == c)
    {
        let spacing = ui.spacing().item_spacing.y;
        // Two rows of context above it: the panel may leave only a few rows in view.
        // Never past the end: an offset beyond it springs back, repainting for a while.
        let content = rows.len() as f32 * (ROW_HEIGHT + spacing);
        let max = (content - TREE_HEIGHT).max(0.0);
        let wanted = ((pos as f32) - 2.0).max(0.0) * (ROW_HEIGHT + spacing);
        scroll = scroll.vertical_scroll_offset(wanted.min(max));
        state.scrolled_to = current;
    }
    let mut toggle = None;
    scroll.show_rows(ui, ROW_HEIGHT, rows.len(), |ui, range| {
        for &(k, indent) in &rows[range] {
            let t = &query.tests[k];
            ui.horizontal(|ui| {
                ui.add_space(indent as f32 * 12.0);
                if t.children.is_empty() {
                    ui.add_sized([16.0, ROW_HEIGHT], egui::Label::new("·"));
                } else {
                    let is_open = open.contains(&k) != state.toggled.contains(&k);
                    let arrow = if is_open { "▾" } else { "▸" };
                    if ui
                        .add_sized([16.0, ROW_HEIGHT], egui::Button::new(arrow).frame(false))
                        .on_hover_text(format!("{} children", t.children.len()))
                        .clicked()
                    {
                        toggle = Some(k);
                    }
                }
                let here = current == Some(k);
                let mut text = row_text(g, &query, t);
                if here {
                    text = format!("{CURRENT} · {text}");
                }
                let rich = egui::RichText::new(text).small();
                let rich = if t.hit.is_some() {
                    rich.color(palette::egui(palette::HIT))
                } else if t.separated() {
                    rich.weak()
                } else {
                    rich
                };
                if ui
                    .selectable_label(here, rich)
                    .on_hover_text("Step onto this test")
                    .clicked()
                {
                    out.push(Command::SeekEvent(Some(t.event)));
                }
            });
        }
    });
    if let Some(k) = toggle
        && !state.toggled.remove(&k)
    {
        state.toggled.insert(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nurbs::PatchPath;

    fn test(depth_a: u8, parent: Option<usize>, children: Vec<usize>) -> Test {
        Test {
            event: 0,
            path_a: PatchPath {
                depth: depth_a,
                bits: 0,
            },
            path_b: PatchPath::default(),
            axis: None,
            parent,
            children,
            splits: Vec::new(),
            hit: None,
            call_depth: depth_a.into(),
        }
    }

    #[test]
    fn rows_follow_the_open_branches_depth_first() {
        // 0 -> (1, 2); 1 -> (3, 4); 3 -> (5)
        let q = Query {
            tests: vec![
                test(0, None, vec![1, 2]),
                test(1, Some(0), vec![3, 4]),
                test(1, Some(0), vec![]),
                test(2, Some(1), vec![5]),
                test(2, Some(1), vec![]),
                test(3, Some(3), vec![]),
            ],
            ..Query::default()
        };
        let open = opened_by_default(&q, &[]);
        let rows: Vec<usize> = visible_rows(&q, &open, &HashSet::new())
            .iter()
            .map(|r| r.0)
            .collect();
        assert_eq!(rows, vec![0, 1, 3, 4, 2]);
        // The path to a kept test opens; a toggle closes a branch.
        let open = opened_by_default(&q, &[5]);
        let all = visible_rows(&q, &open, &HashSet::new());
        assert_eq!(all.len(), 6);
        assert_eq!(all[3], (5, 3));
        let closed: HashSet<usize> = [1].into();
        let rows: Vec<usize> = visible_rows(&q, &open, &closed)
            .iter()
            .map(|r| r.0)
            .collect();
        assert_eq!(rows, vec![0, 1, 2]);
        assert_eq!(
            path_words(PatchPath {
                depth: 3,
                bits: 0b110
            }),
            "011"
        );
    }
}
