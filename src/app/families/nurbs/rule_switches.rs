//! The query's rules as switches: the box frame, the split direction, the shape of the
//! recursion (Algorithms 2.1, 2.2, 2.3) and where a hit's normal comes from. A change runs the
//! scene again from its first frame up to the frame shown, so one contact can be stepped
//! through under each rule; the run's cost in the thesis' model sits under them.

use super::queries::Query;
use crate::app::families::FamilyContext;
use crate::app::families::switch_edits::{RowAction, SwitchEdits};
use crate::app::state::Command;
use crate::app::widgets::prose::prose;
use crate::families::FamilySceneData;
use crate::nurbs::rules::{BoxRule, NormalRule, NurbsRules, Recursion, SplitRule};
use egui::{RichText, Ui};

/// The rules being edited, for the session they were made in.
pub type RuleEdits = SwitchEdits<NurbsRules>;

fn nurbs_rules(families: &mut [FamilySceneData]) -> Option<&mut NurbsRules> {
    families.iter_mut().find_map(|d| match d {
        FamilySceneData::Nurbs(n) => Some(&mut n.rules),
        _ => None,
    })
}

/// The commands that re-run the scene under `rules` up to the frame shown.
pub fn resimulate(cx: &FamilyContext, rules: NurbsRules) -> Vec<Command> {
    cx.resimulate_with(|edits| {
        nurbs_rules(&mut edits.families)
            .map(|r| *r = rules)
            .is_some()
    })
}

pub fn box_name(rule: BoxRule) -> &'static str {
    match rule {
        BoxRule::Covariance => "covariance of the control points (thesis)",
        BoxRule::CornerFrame => "frame of the four corners",
    }
}

pub fn split_name(rule: SplitRule) -> &'static str {
    match rule {
        SplitRule::Thesis => "more knots first, then alternate (thesis)",
        SplitRule::Alternate => "u and v in turn",
    }
}

pub fn recursion_name(rule: Recursion) -> &'static str {
    match rule {
        Recursion::OneSplit => "2.3: one box built, one piece halved (thesis)",
        Recursion::Base => "2.1: both boxes built, one piece halved",
        Recursion::Subdivide4 => "2.2: both boxes built, both cut in four",
    }
}

pub fn normal_name(rule: NormalRule) -> &'static str {
    match rule {
        NormalRule::Surface => "the surface's ∂S/∂u × ∂S/∂v",
        NormalRule::ThinnestAxis => "the leaf box's thinnest axis (thesis)",
    }
}

/// The run's rules in one line.
pub fn rules_words(r: NurbsRules) -> String {
    format!(
        "boxes: {}; split: {}; recursion {}; normal: {}.",
        box_name(r.box_rule),
        split_name(r.split_rule),
        recursion_name(r.recursion),
        normal_name(r.normal)
    )
}

/// The counts of the thesis' cost model T = N·(C_c + C_t + C_s) for one recorded query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// N: calls, one box test each.
    pub calls: u64,
    pub boxes_built: u64,
    pub splits: u64,
}

/// The cost of a query read from its trace: one box built a call under 2.3 plus the first
/// surface's, two a call under 2.1 and 2.2.
pub fn cost(query: &Query, recursion: Recursion) -> Cost {
    let calls = query.tests.len() as u64;
    let boxes_built = match recursion {
        Recursion::OneSplit => calls + u64::from(calls > 0),
        Recursion::Base | Recursion::Subdivide4 => 2 * calls,
    };
    Cost {
        calls,
        boxes_built,
        splits: query.splits as u64,
    }
}

pub fn cost_words(query: &Query, recursion: Recursion) -> String {
    let c = cost(query, recursion);
    format!(
        "Cost of the query shown (T = N·(C_c + C_t + C_s)): N = {} calls, {} boxes built, {} \
         box tests, {} halvings.",
        c.calls, c.boxes_built, c.calls, c.splits
    )
}

pub fn show(
    edits: &mut RuleEdits,
    ui: &mut Ui,
    cx: &FamilyContext,
    shown: Option<&Query>,
    out: &mut Vec<Command>,
) {
    let Some(run) = super::geometry::nurbs_scene(cx).map(|s| s.rules) else {
        return;
    };
    let e = edits.get(cx, run);
    radios(ui, e);
    let chosen = *e;
    let action = edits.row(
        ui,
        cx,
        run,
        "Re-simulate",
        "Run the scene again from its first frame with these rules, up to this frame (the \
         frames after it are dropped)",
    );
    if action == RowAction::Resimulate {
        out.extend(resimulate(cx, chosen));
    }
    prose(
        ui,
        RichText::new(format!("This run: {}", rules_words(run)))
            .small()
            .weak(),
    );
    if let Some(q) = shown {
        prose(ui, RichText::new(cost_words(q, run.recursion)).small());
    }
}

fn radios(ui: &mut Ui, e: &mut NurbsRules) {
    egui::Grid::new("nurbs-rules")
        .num_columns(2)
        .spacing([8.0, 2.0])
        .show(ui, |ui| {
            let boxes = [BoxRule::Covariance, BoxRule::CornerFrame];
            radio_row(ui, "boxes", &mut e.box_rule, &boxes, box_name);
            let splits = [SplitRule::Thesis, SplitRule::Alternate];
            radio_row(ui, "split", &mut e.split_rule, &splits, split_name);
            let recursions = [Recursion::OneSplit, Recursion::Base, Recursion::Subdivide4];
            radio_row(ui, "recursion", &mut e.recursion, &recursions, recursion_name);
            let normals = [NormalRule::Surface, NormalRule::ThinnestAxis];
            radio_row(ui, "normal", &mut e.normal, &normals, normal_name);
        });
}

/// One rule's row of the grid: its name, then a radio button per choice.
fn radio_row<T: Copy + PartialEq>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    choices: &[T],
    name: fn(T) -> &'static str,
) {
    ui.label(label);
    ui.vertical(|ui| {
        for &c in choices {
            ui.radio_value(value, c, name(c));
        }
    });
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::families::nurbs::queries;
    use crate::nurbs::query::{HitMode, QueryOptions, intersect_traced};
    use crate::nurbs::shapes::{plane, sphere_octant};
    use crate::trace::{TraceEvent, Verdict};

    /// The counts read from the trace are the engine's own, under each recursion.
    #[test]
    fn the_cost_read_from_the_trace_is_the_engines() {
        let ball = sphere_octant([0.0, 0.0, 0.45], 0.5, [1.0, 1.0, -1.0]);
        for recursion in [Recursion::OneSplit, Recursion::Base, Recursion::Subdivide4] {
            let options = QueryOptions::precision(0.05, HitMode::All).with_recursion(recursion);
            let mut trace = Vec::new();
            let (_, stats) = intersect_traced(&ball, &plane(2.0, 0.0), (0, 1), options, |e| {
                trace.push(TraceEvent::new(Verdict::Info, e));
            });
            let read = queries::read(&trace);
            let c = cost(&read[0], recursion);
            let engine = Cost {
                calls: stats.calls,
                boxes_built: stats.boxes_built,
                splits: stats.splits,
            };
            assert_eq!(c, engine, "{recursion:?}");
            assert!(cost_words(&read[0], recursion).contains(&format!("N = {} calls", c.calls)));
        }
    }

    #[test]
    fn every_rule_has_words_and_the_thesis_says_so() {
        let words = rules_words(NurbsRules::default());
        assert_eq!(words.matches("(thesis)").count(), 3, "{words}");
        assert!(words.contains("∂S/∂u × ∂S/∂v"), "the default normal is the surface's");
    }
}
