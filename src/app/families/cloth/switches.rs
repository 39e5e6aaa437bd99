//! The fixes of the ray-traced narrow phase as switches (issue: show what each fix is worth):
//! the run's values, and a re-simulation from the first frame with others, up to the frame
//! shown, so that the failure a fix prevents appears on the frame where it happens.

use super::ClothView;
use crate::app::families::FamilyContext;
use crate::app::families::switch_edits::RowAction;
use crate::app::state::Command;
use crate::app::widgets::prose::prose;
use crate::cloth::ClothParams;
use crate::families::FamilySceneData;
use egui::{RichText, Ui};

/// One switch: its label, what turning it off shows, and the flag in the parameters.
struct Switch {
    label: &'static str,
    off_shows: &'static str,
    flag: fn(&mut ClothParams) -> &mut bool,
}

const SWITCHES: [Switch; 8] = [
    Switch {
        label: "inversion detection",
        off_shows: "a vertex that went through a thin surface in one step stays on the wrong \
                    side: uncorrected inversions (yellow) and their timeline markers",
        flag: |p| &mut p.switches.inversion_detection,
    },
    Switch {
        label: "re-projection",
        off_shows: "raw ray lengths: contacts deeper than they are and pushes along the vertex \
                    normal, not the surface's (the sheet slides and vibrates on curved bodies)",
        flag: |p| &mut p.switches.reprojection,
    },
    Switch {
        label: "volume → cloth rays",
        off_shows: "a body's corner or cap poking between the sheet's vertices goes through it",
        flag: |p| &mut p.volume_rays,
    },
    Switch {
        label: "volume rays: side before the step",
        off_shows: "the thesis' half-way rule: a sheet that crossed a body's middle within one \
                    step is pushed on through it (needs volume → cloth rays on)",
        flag: |p| &mut p.switches.volume_side_before_step,
    },
    Switch {
        label: "iterative cast",
        off_shows: "every ray cast through the hierarchy: the same contacts for many more \
                    ray–triangle tests",
        flag: |p| &mut p.iterative_cast,
    },
    Switch {
        label: "displacement gate (bodies)",
        off_shows: "walks run however far the body moved since the last full cast: lost rays \
                    and walks ending on the wrong triangle",
        flag: |p| &mut p.switches.rigid_gate,
    },
    Switch {
        label: "displacement gate (self)",
        off_shows: "the sheet's own rays walk however far the sheet moved",
        flag: |p| &mut p.switches.self_gate,
    },
    Switch {
        label: "recast lost rays",
        off_shows: "a failed walk leaves its vertex without a ray (the thesis' ray loss): \
                    collisions missed until a complete cast",
        flag: |p| &mut p.switches.recast_lost_rays,
    },
];

/// The cloth's parameters in a scene's family data.
fn cloth_params(families: &mut [FamilySceneData]) -> Option<&mut ClothParams> {
    families.iter_mut().find_map(|d| match d {
        FamilySceneData::Cloth(c) => Some(&mut *c.params),
        _ => None,
    })
}

/// The edits that re-run the scene with `params` from its first frame to the one shown.
pub fn resimulate(cx: &FamilyContext, params: ClothParams) -> Vec<Command> {
    cx.resimulate_with(|edits| {
        cloth_params(&mut edits.families).map(|p| *p = params).is_some()
    })
}

pub fn show(view: &mut ClothView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(mut run) = cx
        .scene()
        .and_then(|s| cloth_params(&mut s.families.clone()).copied())
    else {
        return;
    };
    ui.strong("Switches: what each fix is worth");
    let edits = view.switch_edits.get(cx, run);
    egui::Grid::new("cloth-switches")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for s in &SWITCHES {
                let ran = *(s.flag)(&mut run);
                let flag = (s.flag)(edits);
                let text = if *flag == ran {
                    RichText::new(s.label)
                } else {
                    RichText::new(format!("{} (changed)", s.label)).strong()
                };
                ui.checkbox(flag, text)
                    .on_hover_text(format!("Turned off: {}", s.off_shows));
                ui.label(RichText::new(if ran { "on in this run" } else { "OFF in this run" }).small());
                ui.end_row();
            }
        });
    let edits = *edits;
    let action = view.switch_edits.row(
        ui,
        cx,
        run,
        "Re-simulate with these switches",
        "Run the scene again from its first frame with the switches above, up to this frame \
         (the frames after it are dropped)",
    );
    if action == RowAction::Resimulate {
        out.extend(resimulate(cx, edits));
    }
    prose(
        ui,
        RichText::new(
            "Turn a fix off and re-simulate: the failure it prevents shows on the frame where \
             it happens (hover a switch for what to look for). With inversion detection off, \
             the crossings are still recorded, as uncorrected.",
        )
        .small()
        .weak(),
    );
}
