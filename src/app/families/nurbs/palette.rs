//! The view's colours, shared by the 3D view, the (u, v) panels and the legend, so that a
//! box, its rectangle and its row in the tree read as the same thing.

use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors;

/// Surface A of the query shown, its boxes and rectangles.
pub const A: Rgba = colors::FIRST;
/// Surface B.
pub const B: Rgba = colors::SECOND;
/// A box pair told apart by a separating axis: the branch ends there.
pub const SEPARATED: Rgba = [0.62, 0.62, 0.68, 1.0];
/// Leaf pairs accepted as hits, and the hit point.
pub const HIT: Rgba = colors::RESULT;
/// The box pair under the step scrubber.
pub const CURRENT: Rgba = [1.0, 1.0, 1.0, 1.0];
/// Surfaces not in the query shown.
pub const OTHER_SURFACE: Rgba = [0.72, 0.76, 0.86, 0.16];
/// Surfaces drawn as the scene's bodies while another family's panel is shown.
pub const BODY: Rgba = [0.72, 0.76, 0.86, 0.55];
/// Segments of the intersection curve (curve mode), in 3D and on the (u, v) panels.
pub const CURVE: Rgba = [0.25, 1.0, 0.55, 1.0];
/// Control nets.
pub const NET: Rgba = [0.95, 0.7, 0.35, 0.85];

/// The colour of side `a_side` (true: A).
pub fn side(a_side: bool) -> Rgba {
    if a_side { A } else { B }
}

pub fn egui(c: Rgba) -> egui::Color32 {
    colors::egui(c)
}

/// A legend line: swatch and words, kept together when the panel wraps.
pub fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for (c, text) in [
            (A, "surface A"),
            (B, "surface B"),
            (SEPARATED, "separated"),
            (HIT, "hit"),
            (CURVE, "curve"),
            (CURRENT, "this step"),
        ] {
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 3.0;
                ui.label(egui::RichText::new("■").color(egui(c)));
                ui.label(egui::RichText::new(text).small());
            });
        }
    });
}
