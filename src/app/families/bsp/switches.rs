//! The level's switches: bevel planes, the article's search and slide instead of the engine's,
//! and the other one slid beside it each frame. Changing them re-simulates the scene from its
//! first frame up to the frame shown, so a defect appears on the frame where it happens.

use super::BspView;
use crate::app::families::FamilyContext;
use crate::app::families::switch_edits::RowAction;
use crate::app::state::Command;
use crate::app::widgets::prose::prose;
use crate::bsp::{BspScene, BspSweepMode};
use crate::families::FamilySceneData;
use egui::{RichText, Ui};

/// What the switches set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    pub bevels: bool,
    pub sweep: BspSweepMode,
    pub compare: bool,
}

impl Switches {
    pub fn of(d: &BspScene) -> Switches {
        Switches {
            bevels: d.bevels,
            sweep: d.sweep,
            compare: d.compare,
        }
    }

    fn apply(self, d: &mut BspScene) {
        d.bevels = self.bevels;
        d.sweep = self.sweep;
        d.compare = self.compare;
    }
}

fn bsp_data(families: &mut [FamilySceneData]) -> Option<&mut BspScene> {
    families.iter_mut().find_map(|d| match d {
        FamilySceneData::Bsp(b) => Some(b),
        _ => None,
    })
}

/// The commands that re-run the scene with `s` from its first frame to the one shown.
pub fn resimulate(cx: &FamilyContext, s: Switches) -> Vec<Command> {
    cx.resimulate_with(|edits| {
        bsp_data(&mut edits.families).map(|d| s.apply(d)).is_some()
    })
}

pub fn show(view: &mut BspView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(run) = super::level::bsp_scene(cx).map(Switches::of) else {
        return;
    };
    ui.strong("Level switches");
    let edits = view.switch_edits.get(cx, run);
    ui.checkbox(&mut edits.bevels, "use bevel planes")
        .on_hover_text(
            "Off: each brush is its faces alone, pushed out by the shape's offsets. At a convex \
             edge or corner they meet further out than the shape can reach (a box stops short \
             of a diamond's corner by half its width; spec 001 §13.3).",
        );
    ui.horizontal_wrapped(|ui| {
        ui.label("slide:");
        ui.radio_value(&mut edits.sweep, BspSweepMode::Engine, "engine");
        ui.radio_value(&mut edits.sweep, BspSweepMode::Article, "article")
            .on_hover_text(
                "The article's getCollision (each brush its planes one behind the other, the \
                 smallest entering fraction, iBrush saved and restored) and its slide \
                 (fractions unclamped, the position not written at MAX_IMPACT, the crease \
                 normalised blindly).",
            );
    });
    let other = edits.sweep.other().name();
    ui.checkbox(&mut edits.compare, format!("compare with the {other}"))
        .on_hover_text(format!(
            "Each frame, also slide the same move from the same start with the {other}, \
             recorded after the walker's own and drawn beside it in red"
        ));
    let edits = *edits;
    let action = view.switch_edits.row(
        ui,
        cx,
        run,
        "Re-simulate",
        "Run the scene again from its first frame with these switches, up to this frame (the \
         frames after it are dropped)",
    );
    if action == RowAction::Resimulate {
        out.extend(resimulate(cx, edits));
    }
    let ran = format!(
        "This run: bevels {}, the {} slide{}.",
        if run.bevels { "on" } else { "OFF" },
        run.sweep.name(),
        if run.compare {
            format!(", the {} beside it", run.sweep.other().name())
        } else {
            String::new()
        }
    );
    prose(ui, RichText::new(ran).small().weak());
}
