//! The detection's thresholds and the sheet's parameters as the scene set them
//! (`cloth::ClothParams`): the thesis gives them no values, so the reader must see which ones
//! this run used.

use crate::app::widgets::grid::explained_grid;
use crate::cloth::{ClothParams, ClothScene};
use egui::{RichText, Ui};

fn mm(m: f64) -> String {
    format!("{:.1} mm", m * 1000.0)
}

/// (name, value, what it does), detection first.
pub fn rows(scene: &ClothScene) -> Vec<(&'static str, String, &'static str)> {
    let p: &ClothParams = &scene.params;
    let v = |x: &crate::geom::Vec3| format!("({:.2}, {:.2}, {:.2})", x.x, x.y, x.z);
    vec![
        (
            "half thickness e",
            mm(p.half_thickness_m),
            "the shell reaches this far each side of the sheet: a hit closer is a collision",
        ),
        (
            "prediction distance d_pred",
            mm(p.prediction_distance_m),
            "a hit farther than the shell but within this is a prediction; beyond, rejected",
        ),
        (
            "iterative cast",
            if p.iterative_cast { "on" } else { "off" }.into(),
            "rays walk from last step's triangle while the gate allows",
        ),
        (
            "gate D_thr",
            mm(p.gate.threshold_m),
            "displacement since the last full cast above which a full cast runs again",
        ),
        (
            "walk confidence",
            format!("{:.1}", p.gate.confidence),
            "scales the walk's step cap (Eq. 4.1)",
        ),
        (
            "gate measure",
            format!("{:?}", p.gate_measure),
            "how two clusters' relative displacement is measured (Table 4.2; mean + std recommended)",
        ),
        (
            "gate cluster side",
            format!("{} vertices", p.cluster_side),
            "vertices sharing one displacement measure; near clusters of the sheet gate its self rays",
        ),
        (
            "self-collision",
            if p.self_collision { "on" } else { "off" }.into(),
            "rays against the sheet itself (cloth → cloth, inversions within the sheet)",
        ),
        (
            "substeps per frame",
            scene.substeps.to_string(),
            "rays shown are the last substep's; inversions are every substep's",
        ),
        (
            "solver iterations",
            p.solver_iterations.to_string(),
            "constraint passes per step",
        ),
        (
            "stiffness stretch / shear / bend",
            format!(
                "{:.2} / {:.2} / {:.2}",
                p.stretch_stiffness, p.shear_stiffness, p.bend_stiffness
            ),
            "per iteration, 0 to 1",
        ),
        (
            "damping",
            format!("{:.2}", p.damping),
            "velocity kept: 1 − damping",
        ),
        (
            "friction",
            format!("{:.2}", p.friction),
            "Coulomb coefficient of contacts",
        ),
        ("gravity", v(&p.gravity_mps2), "m/s²"),
        ("wind", v(&p.wind_mps), "m/s"),
    ]
}

pub fn show(ui: &mut Ui, scene: &ClothScene) {
    explained_grid(ui, "cloth-params", &rows(scene));
    ui.label(
        RichText::new("Hover a name for what it does.")
            .small()
            .weak(),
    );
}
