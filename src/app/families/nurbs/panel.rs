//! The side panel: the query shown and how it went, the step in words, then the sections
//! (parameter space, separating axes, OBB levels, recursion tree, benchmarks, the thesis'
//! experiments).

use super::geometry::test_boxes;
use super::overlay::WHOLE_LEVEL_MAX;
use super::{NurbsView, describe, palette, rule_switches, sat, tree_list, uv};
use crate::app::families::FamilyContext;
use crate::app::state::Command;
use crate::app::widgets::prose::prose;
use crate::app::widgets::step_row::StepRow;
use crate::trace::EventKind;
use egui::{RichText, Ui};

/// Which sections are open; screenshots set them, the user keeps them afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sections {
    pub uv: bool,
    pub sat: bool,
    pub levels: bool,
    pub tree: bool,
    pub bench: bool,
    pub thesis: bool,
    pub rules: bool,
}

impl Sections {
    /// All closed: a screenshot opens the ones it shows.
    pub fn closed() -> Sections {
        Sections {
            uv: false,
            sat: false,
            levels: false,
            tree: false,
            bench: false,
            thesis: false,
            rules: false,
        }
    }
}

fn section(
    ui: &mut Ui,
    title: &str,
    default_open: bool,
    forced: Option<bool>,
    body: impl FnOnce(&mut Ui),
) {
    egui::CollapsingHeader::new(title)
        .id_salt(("nurbs-section", title))
        .default_open(default_open)
        .open(forced)
        .show(ui, body);
}

pub fn show(view: &mut NurbsView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let forced = view.force_sections.take();
    let shown = view.shown_query(cx);
    if let Some(p) = &view.geometry.problem {
        prose(ui, p.clone());
    }
    let Some(q) = shown else {
        if view.geometry.problem.is_none() {
            prose(
                ui,
                "No surface pair was queried in this frame (two still bodies are never \
                 queried). Play or step a few frames.",
            );
        }
        closing_sections(view, ui, cx, None, forced, out);
        return;
    };
    let current = view.current_test(cx, q);
    header(view, ui, cx, q, out);
    palette::legend(ui);
    step_text(view, ui, cx, q, current, out);
    let query = view.geometry.queries[q].clone();
    ui.separator();
    // The tree first, under the step it follows: it is how a reader moves through the query,
    // and below the 15-row axis inspector it left the panel's view at every step.
    section(ui, "Recursion tree", true, forced.map(|s| s.tree), |ui| {
        tree_list::show(
            ui,
            &mut view.geometry,
            q,
            current,
            &mut view.tree,
            cx.generation(),
            out,
        );
    });
    section(
        ui,
        "Parameter space (u, v)",
        true,
        forced.map(|s| s.uv),
        |ui| {
            let here = current.map(|k| (query.tests[k].path_a, query.tests[k].path_b));
            uv::show(ui, &mut view.geometry, q, here);
        },
    );
    section(
        ui,
        "Separating-axis inspector",
        true,
        forced.map(|s| s.sat),
        |ui| match current.and_then(|k| test_boxes(&mut view.geometry, q, k).map(|b| (k, b))) {
            Some((k, (a, b))) => sat::show(ui, &a, &b, query.tests[k].axis),
            None => prose(
                ui,
                "Step onto a box test (Shift + →, or a row of the recursion tree) to see both \
                 boxes' shadows on the 15 candidate axes.",
            ),
        },
    );
    section(
        ui,
        "OBB tree by level",
        true,
        forced.map(|s| s.levels),
        |ui| {
            levels(view, ui, q);
        },
    );
    closing_sections(view, ui, cx, Some(&query), forced, out);
}

/// The sections that do not need a query shown: the rules, the benchmarks, the thesis'
/// experiments.
fn closing_sections(
    view: &mut NurbsView,
    ui: &mut Ui,
    cx: &FamilyContext,
    shown: Option<&super::queries::Query>,
    forced: Option<Sections>,
    out: &mut Vec<Command>,
) {
    section(
        ui,
        "Query rules (Algorithms 2.1, 2.2, 2.3)",
        false,
        forced.map(|s| s.rules),
        |ui| rule_switches::show(&mut view.rule_edits, ui, cx, shown, out),
    );
    section(ui, "Benchmarks", false, forced.map(|s| s.bench), |ui| {
        view.bench.show(ui);
    });
    section(
        ui,
        "Thesis experiments (Figs 3.2–3.8)",
        false,
        forced.map(|s| s.thesis),
        |ui| view.thesis.show(ui),
    );
}

fn header(view: &mut NurbsView, ui: &mut Ui, cx: &FamilyContext, q: usize, out: &mut Vec<Command>) {
    let g = &view.geometry;
    let query = &g.queries[q];
    ui.strong(format!(
        "OBB subdivision, frame {}: {} surface pairs queried",
        cx.state.playhead.frame,
        g.queries.len()
    ));
    let name = |k: usize| {
        let x = &g.queries[k];
        format!(
            "{} × {} · {} tests{}",
            g.name(x.surface_a),
            g.name(x.surface_b),
            x.tests.len(),
            if x.hits.is_empty() { "" } else { " · hit" }
        )
    };
    let mut pick = None;
    egui::ComboBox::from_label("Query")
        .selected_text(name(q))
        .width((ui.available_width() - 60.0).max(120.0))
        .show_ui(ui, |ui| {
            for k in 0..g.queries.len() {
                if ui.selectable_label(k == q, name(k)).clicked() {
                    pick = Some(k);
                }
            }
        });
    let (a, b) = (query.surface_a, query.surface_b);
    prose(
        ui,
        RichText::new(format!("A = {}", g.name(a))).color(palette::egui(palette::A)),
    );
    prose(
        ui,
        RichText::new(format!("B = {}", g.name(b))).color(palette::egui(palette::B)),
    );
    let verdict = if query.hits.is_empty() {
        "no contact".to_string()
    } else {
        format!("{} hit(s)", query.hits.len())
    };
    prose(
        ui,
        format!(
            "{} box tests, {} splits, deepest call {}: {verdict}.",
            query.tests.len(),
            query.splits,
            query.max_depth()
        ),
    );
    if g.moved_back {
        prose(
            ui,
            RichText::new(
                "A body bounced this frame: it is drawn where the query saw it (the frame \
                 records it back where it started the step).",
            )
            .small(),
        );
    }
    if let Some(k) = pick {
        let chosen = &g.queries[k];
        view.chosen = Some((chosen.surface_a, chosen.surface_b));
        // Leave the step if it was in another query, so the choice shows at once.
        if cx.event().is_some() {
            out.push(Command::SeekEvent(None));
        }
    }
}

fn step_text(
    view: &mut NurbsView,
    ui: &mut Ui,
    cx: &FamilyContext,
    q: usize,
    current: Option<usize>,
    out: &mut Vec<Command>,
) {
    let query = view.geometry.queries[q].clone();
    StepRow::new().show(ui, out, |ui, out| {
        if ui
            .button("First test")
            .on_hover_text("Step onto this query's root box test")
            .clicked()
        {
            out.push(Command::SeekEvent(Some(query.first_event())));
        }
        if let Some(&k) = query.hits.first()
            && ui
                .button("First hit")
                .on_hover_text("Step onto the box test accepted as this query's first hit")
                .clicked()
        {
            out.push(Command::SeekEvent(Some(query.tests[k].event)));
        }
    });
    match (cx.event(), current) {
        (Some((i, e)), Some(_)) => {
            if let EventKind::Nurbs(n) = &e.kind {
                describe::describe(&mut view.geometry, q, i, n).show(ui);
            }
        }
        _ => prose(
            ui,
            "Step through the events (Shift + → or the buttons) to follow the search: each \
             box test lights its two boxes in 3D and its two rectangles in (u, v).",
        ),
    }
}

fn levels(view: &mut NurbsView, ui: &mut Ui, q: usize) {
    let max = view.geometry.queries[q].max_level();
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut view.show_surfaces, "Surfaces");
        ui.checkbox(&mut view.show_nets, "Control nets");
        ui.checkbox(&mut view.show_level, "Boxes of the level");
    });
    let mut level = view.level.min(max);
    ui.add_enabled(
        max > 0,
        egui::Slider::new(&mut level, 0..=max.max(1)).text("level (halvings)"),
    );
    view.level = level.min(max);
    ui.checkbox(
        &mut view.whole_level,
        format!(
            "Every sub-patch of the level (up to level {WHOLE_LEVEL_MAX}), not only those tested"
        ),
    );
    let level = view.level;
    let query = &view.geometry.queries[q];
    let count = |a_side: bool| {
        let mut paths: Vec<_> = query
            .tests
            .iter()
            .map(|t| if a_side { t.path_a } else { t.path_b })
            .filter(|p| p.depth == level)
            .collect();
        paths.sort_by_key(|p| p.bits);
        paths.dedup();
        paths.len()
    };
    prose(
        ui,
        format!(
            "Level {level}: {} boxes of A and {} of B tested (of {} each). Filled: overlapped \
             the other box at least once; grey: always separated.",
            count(true),
            count(false),
            if level < 63 {
                (1u64 << level).to_string()
            } else {
                "2^63".into()
            }
        ),
    );
}
