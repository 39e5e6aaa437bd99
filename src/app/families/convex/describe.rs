//! The convex events in words for the inspector: which features of which bodies, the state
//! change, why, and (for the end of a walk) the two containment checks at the frame's poses.

use super::checks;
use super::feature_word::kind_word;
use super::shapes::ShapeCache;
use super::walk::state_name;
use crate::app::families::FamilyContext;
use crate::app::views::colors;
use crate::convex::{ConvexEvent, Feature, Outcome};
use egui::{RichText, Ui};

fn pair_text(cx: &FamilyContext, bodies: [u32; 2], f: [Feature; 2]) -> String {
    format!(
        "{}'s {} {} · {}'s {} {}",
        cx.body_name(bodies[0]),
        kind_word(f[0]),
        f[0],
        cx.body_name(bodies[1]),
        kind_word(f[1]),
        f[1]
    )
}

pub fn inspect(ui: &mut Ui, cx: &FamilyContext, shapes: &mut ShapeCache, e: &ConvexEvent) {
    ui.label(RichText::new("V-Clip").strong());
    match e {
        ConvexEvent::Step {
            bodies,
            from,
            to,
            reason,
            clip,
            distance,
        } => {
            ui.label(format!("{} → {}", state_name(*from), state_name(*to)));
            ui.label(format!("from: {}", pair_text(cx, *bodies, *from)));
            ui.label(format!("to: {}", pair_text(cx, *bodies, *to)));
            ui.label(RichText::new(format!("why: {}", reason.explain())).strong());
            ui.label(if reason.may_keep_distance() {
                "a dashed move: the distance may stay equal"
            } else {
                "a solid move: the distance falls"
            });
            if let Some([lo, hi]) = clip {
                ui.label(format!("clip interval on the edge: [{lo:.3}, {hi:.3}]"));
            }
            ui.label(format!("distance of the new pair: {distance:.6}"));
        }
        ConvexEvent::End {
            bodies,
            features,
            outcome,
            distance,
            iterations,
            warm,
        } => {
            ui.label(format!("closest: {}", pair_text(cx, *bodies, *features)));
            let (text, c) = match outcome {
                Outcome::Separated => (format!("separated by {distance:.6}"), colors::NORMAL),
                Outcome::Touching => ("touching".into(), colors::RESULT),
                Outcome::Penetrating => ("penetrating".into(), colors::WARNING),
                Outcome::IterationCap => ("iteration cap hit".into(), colors::WARNING),
            };
            ui.label(RichText::new(text).color(colors::egui(c)));
            ui.label(format!(
                "{iterations} step(s), {}",
                if *warm { "warm start" } else { "cold start" }
            ));
            if let (Some(a), Some(b)) = (shapes.posed(cx, bodies[0]), shapes.posed(cx, bodies[1]))
                && let Some(check) =
                    checks::containment(&a.placed(), features[0], &b.placed(), features[1])
            {
                checks::show(ui, &check, features[0], features[1]);
            }
        }
        // GJK's simplex steps (the cross-check) in words until their own section lands here.
        #[allow(unreachable_patterns)]
        other => {
            ui.label(crate::family::FamilyEvent::summary(
                other,
                crate::trace::Verdict::Info,
            ));
        }
    }
}
