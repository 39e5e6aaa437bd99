//! GJK beside the walk, in the side panel: the two methods' answers on one line with their
//! agreement, GJK's iterations one at a time (the simplex, the search direction, the support
//! point added, the distance so far), EPA's expansions when the bodies overlap, and the inset
//! that draws them in A − B.

use super::current::Current;
use super::gjk_inset::{self, simplex_word};
use super::gjk_steps::{GjkSteps, Source, Step};
use super::penetration;
use super::shapes::PosedShape;
use super::{ConvexView, palette};
use crate::app::state::Command;
use crate::app::views::colors;
use crate::app::widgets::prose::{prose, within_edge};
use crate::app::widgets::stepper::Stepper;
use crate::convex::Outcome;
use crate::convex::gjk::GjkStatus;
use crate::convex::gjk::simplex::SimplexVertex;
use crate::geom::{ConvexPolyhedron, Point3, Vec3};
use egui::{RichText, Ui};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A − B has |A|·|B| candidate points; past this many its hull is not built for the inset
/// (the simplex and the origin are drawn all the same).
const MAX_DIFFERENCE_POINTS: usize = 20_000;

/// The hull of A − B at the poses shown, built once per pose pair.
#[derive(Default)]
pub struct DifferenceCache {
    key: Option<u64>,
    hull: Option<Arc<ConvexPolyhedron>>,
}

impl DifferenceCache {
    pub fn get(&mut self, a: &PosedShape, b: &PosedShape) -> Option<Arc<ConvexPolyhedron>> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (a.body, b.body, Arc::as_ptr(&a.shape), Arc::as_ptr(&b.shape)).hash(&mut h);
        for x in [a.pose, b.pose] {
            for c in x.to_homogeneous().iter() {
                c.to_bits().hash(&mut h);
            }
        }
        let key = h.finish();
        if self.key != Some(key) {
            self.key = Some(key);
            self.hull = difference_hull(a, b).map(Arc::new);
        }
        self.hull.clone()
    }
}

fn difference_hull(a: &PosedShape, b: &PosedShape) -> Option<ConvexPolyhedron> {
    let (na, nb) = (a.shape.vertices.len(), b.shape.vertices.len());
    if na * nb > MAX_DIFFERENCE_POINTS {
        return None;
    }
    let wa: Vec<Point3> = a.shape.vertices.iter().map(|p| a.pose * p).collect();
    let wb: Vec<Point3> = b.shape.vertices.iter().map(|p| b.pose * p).collect();
    let points: Vec<Point3> = wa
        .iter()
        .flat_map(|p| wb.iter().map(move |q| Point3::from(p - q)))
        .collect();
    ConvexPolyhedron::hull(&points).ok()
}

fn id_text(v: &SimplexVertex) -> String {
    let one = |i: u32| {
        if i == u32::MAX {
            "·".to_string()
        } else {
            format!("V{i}")
        }
    };
    format!("A's {} − B's {}", one(v.ids[0]), one(v.ids[1]))
}

fn vec_text(v: &Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z)
}

/// "V-Clip: n moves, distance d — GJK: m iterations, distance d′" and whether they agree.
pub fn comparison(c: &Current) -> Option<(String, bool)> {
    let end = c.walk.end.as_ref()?;
    let g = &c.gjk;
    let iterations = g.end.map_or(g.answer.gjk.iterations, |e| e.iterations);
    let vclip = match end.outcome {
        Outcome::Penetrating => "penetrating".to_string(),
        _ => format!("distance {:.6}", end.distance),
    };
    let gjk = if g.penetrating() {
        format!(
            "penetrating, EPA depth {:.6}",
            g.answer.epa.map_or(0.0, |e| e.depth)
        )
    } else {
        format!("distance {:.6}", g.answer.gjk.distance)
    };
    let vclip_in = end.outcome == Outcome::Penetrating;
    let agree = if vclip_in || g.penetrating() {
        // Touching counts as both: a contact at distance zero is GJK's "origin on A − B".
        vclip_in == g.penetrating()
            || (end.outcome == Outcome::Touching && g.penetrating())
            || (vclip_in && g.answer.gjk.distance <= 1e-9)
    } else {
        let d = g.answer.gjk.distance;
        (d - end.distance).abs() <= 1e-6 * (1.0 + d.max(end.distance))
    };
    let text = format!(
        "V-Clip: {} move(s), {vclip} — GJK: {iterations} iteration(s), {gjk}",
        c.walk.moves.len()
    );
    Some((text, agree))
}

pub fn show(view: &mut ConvexView, ui: &mut Ui, c: &Current, out: &mut Vec<Command>) {
    prose(ui, RichText::new("GJK beside the walk").heading());
    if std::mem::take(&mut view.scroll_to_gjk) {
        ui.scroll_to_cursor(Some(egui::Align::TOP));
    }
    if let Some((text, agree)) = comparison(c) {
        prose(ui, RichText::new(text).strong());
        let (word, color) = if agree {
            ("They agree.", colors::NORMAL)
        } else {
            ("They disagree: a defect of one of them.", colors::WARNING)
        };
        prose(ui, RichText::new(word).color(colors::egui(color)));
    }
    prose(
        ui,
        RichText::new(
            "GJK never looks at features: it works on A − B, every point of A minus every \
             point of B. The bodies overlap exactly when the origin is inside A − B, and \
             their distance is the origin's distance to it. Each iteration keeps a simplex \
             (1 to 4 points of A − B), finds its point v nearest the origin, and adds the \
             support point of A − B farthest along −v.",
        )
        .small(),
    );
    prose(ui, RichText::new(match c.gjk.source {
            Source::Recorded => "Steps from this frame's recording (the scene cross-checks with GJK).",
            Source::Rerun if c.live => "Steps of the engine's GJK run again here at the dragged pose.",
            Source::Rerun => {
                "This frame recorded no GJK for the pair: the engine's GJK ran here at the recorded poses."
            }
        })
        .small(),
    );
    stepper(view, ui, c, out);
    step_text(ui, c);
    let hull = view.minkowski.get(&c.a, &c.b);
    gjk_inset::show(ui, c, hull.as_deref(), &mut view.inset_turn, 300.0);
    within_edge(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            for (color, text) in [
                (palette::SIMPLEX, "simplex"),
                (palette::GHOST, "previous simplex"),
                (palette::SEARCH, "search direction"),
                (palette::SUPPORT, "support point added"),
                (palette::CLOSEST, "nearest point v"),
                (palette::OVERLAP, "EPA polytope, depth"),
            ] {
                palette::swatch(ui, color, text);
            }
        })
    });
    let mut show_3d = !view.hide_gjk_3d;
    let toggled = within_edge(ui, |ui| {
        ui.checkbox(
            &mut show_3d,
            "Show the simplex's support points on both bodies in the 3D view",
        )
        .changed()
    });
    if toggled {
        view.hide_gjk_3d = !show_3d;
    }
}

/// GJK's stepper: through its iterations, then EPA's expansions, then the end.
const STEPS: Stepper<'static> = Stepper {
    buttons: [
        ("⏮ First iteration", "GJK's first iteration"),
        ("◀ Previous step", "One GJK step back"),
        ("Next step ▶", "One GJK step on"),
        ("GJK end ⏭", "Where GJK (and EPA) stopped"),
    ],
};

fn stepper(view: &mut ConvexView, ui: &mut Ui, c: &Current, out: &mut Vec<Command>) {
    let (p, last) = (c.gjk_position, c.gjk.last());
    if let Some(to) = STEPS.show(ui, p, last) {
        view.go_to_gjk(c, to, out);
    }
    let n = c.gjk.iterations.len();
    let m = c.gjk.expansions.len();
    let what = match c.gjk.step(p) {
        Step::Iteration(it) => format!("GJK iteration {}", it.number),
        Step::Expansion(ex) => format!("EPA expansion {}", ex.number),
        Step::End => "the end".to_string(),
    };
    prose(
        ui,
        format!(
            "GJK step {} of {}: {what} ({n} reported iteration(s){})",
            p + 1,
            last + 1,
            if m > 0 {
                format!(", {m} EPA expansion(s)")
            } else {
                String::new()
            }
        ),
    );
}

fn step_text(ui: &mut Ui, c: &Current) {
    let g: &GjkSteps = &c.gjk;
    match g.step(c.gjk_position) {
        Step::Iteration(it) => {
            let before: Vec<String> = it.before.iter().map(id_text).collect();
            prose(
                ui,
                format!(
                    "From the simplex [{}], searched along −v = {}.",
                    before.join(", "),
                    vec_text(&it.direction)
                ),
            );
            if let Some(w) = &it.added {
                prose(
                    ui,
                    RichText::new(format!(
                        "Support point added: w = {} = {}",
                        id_text(w),
                        vec_text(&w.w)
                    ))
                    .color(colors::egui(palette::SUPPORT)),
                );
            }
            let after: Vec<String> = it.after.iter().map(id_text).collect();
            prose(
                ui,
                RichText::new(format!(
                    "Simplex now: {} point(s), {}: [{}]",
                    it.after.len(),
                    simplex_word(it.after.len()),
                    after.join(", ")
                ))
                .color(colors::egui(palette::SIMPLEX)),
            );
            if it.after.len() == 4 {
                prose(
                    ui,
                    RichText::new(
                        "A tetrahedron holds the origin: the bodies overlap, and EPA takes over.",
                    )
                    .color(colors::egui(palette::OVERLAP)),
                );
            } else {
                prose(
                    ui,
                    RichText::new(format!(
                        "Distance so far |v| = {:.6} (an upper bound; it only falls).",
                        it.distance
                    ))
                    .color(colors::egui(palette::CLOSEST)),
                );
            }
        }
        Step::Expansion(ex) => {
            prose(
                ui,
                RichText::new(format!(
                    "EPA: the polytope's face nearest the origin is at depth {:.6}, normal {}.",
                    ex.depth,
                    vec_text(&ex.normal)
                ))
                .color(colors::egui(palette::OVERLAP)),
            );
            prose(
                ui,
                RichText::new(format!(
                    "Support point added beyond it: {} = {}; the polytope grows to {} points.",
                    id_text(&ex.added),
                    vec_text(&ex.added.w),
                    ex.polytope.len() + 1
                ))
                .color(colors::egui(palette::SUPPORT)),
            );
        }
        Step::End => end_text(ui, c),
    }
}

fn end_text(ui: &mut Ui, c: &Current) {
    let g = &c.gjk;
    let status = g.end.map_or(g.answer.gjk.status, |e| e.status);
    match (status, g.answer.epa) {
        (GjkStatus::Penetrating, Some(e)) => {
            prose(
                ui,
                RichText::new(format!(
                    "EPA: depth {:.6} along normal {} after {} expansion(s): moving B by \
                     depth × normal separates the bodies.",
                    e.depth,
                    vec_text(&e.normal),
                    e.iterations
                ))
                .strong()
                .color(colors::egui(palette::OVERLAP)),
            );
            if penetration::penetrating(c)
                && let Some(end) = &c.walk.end
            {
                prose(
                    ui,
                    format!(
                        "V-Clip's proof of the overlap: {}.",
                        penetration::features_text(end.features)
                    ),
                );
            }
        }
        (status, _) => {
            let (x, y) = (g.answer.gjk.point_a, g.answer.gjk.point_b);
            prose(
                ui,
                format!(
                    "{}: distance {:.6}, witness points on A {} and on B {}.",
                    match status {
                        GjkStatus::Converged => "Converged",
                        GjkStatus::NoProgress => "No progress left in floating point",
                        GjkStatus::Penetrating => "The origin is on A − B (touching)",
                        GjkStatus::IterationCap => "The iteration cap stopped it (a bug)",
                        GjkStatus::Decided => "Stopped once the asked limit was settled",
                    },
                    g.answer.gjk.distance,
                    vec_text(&x.coords),
                    vec_text(&y.coords)
                ),
            );
            if let Some((w, gap)) = g.closing_support(&c.a, &c.b) {
                prose(
                    ui,
                    RichText::new(format!(
                        "The last search found {}: v·v − v·w = {gap:.2e}, nothing left to gain.",
                        id_text(&w)
                    ))
                    .small(),
                );
            }
        }
    }
}
