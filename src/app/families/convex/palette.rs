//! Colours by feature kind, the same in the 3D view, the regions, the panel and the legend,
//! so that "orange is a vertex" is learnt once.

use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors::{self, with_alpha};
use crate::app::widgets::prose::within_edge;
use crate::convex::FeatureKind;
use egui::{RichText, Ui};

pub const VERTEX: Rgba = [1.0, 0.55, 0.15, 1.0];
pub const EDGE: Rgba = [0.3, 0.95, 0.45, 1.0];
pub const FACE: Rgba = [0.35, 0.6, 1.0, 1.0];
/// The closest points and the segment between them.
pub const CLOSEST: Rgba = colors::RESULT;
/// The part of an edge inside the region it was clipped against.
pub const CLIP: Rgba = [1.0, 1.0, 1.0, 1.0];
/// The pair the walk just left.
pub const GHOST: Rgba = [0.7, 0.7, 0.75, 0.45];
/// GJK's simplex in A − B, and its support points on the bodies.
pub const SIMPLEX: Rgba = [0.95, 0.4, 1.0, 1.0];
/// The support point an iteration (or an EPA expansion) just added.
pub const SUPPORT: Rgba = [1.0, 0.95, 0.3, 1.0];
/// GJK's search direction.
pub const SEARCH: Rgba = [0.3, 0.85, 1.0, 1.0];
/// The origin of A − B: inside it exactly when the bodies overlap.
pub const ORIGIN: Rgba = [1.0, 1.0, 1.0, 1.0];
/// The overlap of a penetrating pair, and EPA's way out.
pub const OVERLAP: Rgba = colors::WARNING;

pub fn kind(k: FeatureKind) -> Rgba {
    match k {
        FeatureKind::Vertex => VERTEX,
        FeatureKind::Edge => EDGE,
        FeatureKind::Face => FACE,
    }
}

/// A region's fill: faint, so that several overlap readably.
pub fn region_fill(k: FeatureKind, strong: bool) -> Rgba {
    with_alpha(kind(k), if strong { 0.28 } else { 0.12 })
}

pub fn rich(text: impl Into<String>, k: FeatureKind) -> RichText {
    RichText::new(text.into()).color(colors::egui(kind(k)))
}

/// A colour and its meaning as one unbreakable label: the legend wraps between entries,
/// never inside one (a nested row wrapped its words letter by letter at the panel's edge).
pub fn swatch(ui: &mut Ui, c: Rgba, text: &str) {
    let mut job = egui::text::LayoutJob::default();
    let style = ui.style().clone();
    for part in [
        RichText::new("■ ").color(colors::egui(c)),
        RichText::new(text).small(),
    ] {
        part.append_to(
            &mut job,
            &style,
            egui::FontSelection::Default,
            egui::Align::Center,
        );
    }
    ui.add(egui::Label::new(job).extend());
}

/// The legend of the 3D view.
pub fn legend(ui: &mut Ui) {
    within_edge(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            swatch(ui, VERTEX, "vertex (dot) / its region");
            swatch(ui, EDGE, "edge (bar)");
            swatch(ui, FACE, "face (filled)");
            swatch(ui, CLOSEST, "closest points and distance");
            swatch(ui, CLIP, "clipped part of an edge");
            swatch(ui, GHOST, "previous pair");
        })
    });
}
