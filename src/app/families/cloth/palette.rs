//! The cloth view's colours, the same in the 3D view, the panel and the legend. Rays keep the
//! thesis' convention (red collision, green prediction, Fig. 2.4); inversions get the two
//! loudest colours left, magenta when corrected and yellow when left on the wrong side.

use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors;
use crate::cloth::{ClothMesh, RayKind};
use egui::{RichText, Sense, Ui, Vec2};

pub const COLLISION: Rgba = [1.0, 0.22, 0.18, 1.0];
pub const PREDICTION: Rgba = [0.25, 0.9, 0.35, 1.0];
pub const REJECTED: Rgba = [0.6, 0.6, 0.66, 0.55];
/// A vertex no ray left: faint, it only says where the culling spared the casts.
pub const CULLED: Rgba = [0.4, 0.5, 0.75, 0.45];
/// A ray the walk lost, and the walk's path: orange, apart from red, green and yellow.
pub const LOST: Rgba = [1.0, 0.55, 0.1, 1.0];
/// The body's end of a volume → cloth ray.
pub const BODY_RAY: Rgba = [1.0, 1.0, 1.0, 0.9];
/// The path of a walk that found its triangle.
pub const WALK: Rgba = [0.55, 0.85, 1.0, 1.0];
pub const INVERTED: Rgba = [1.0, 0.2, 0.95, 1.0];
pub const UNCORRECTED: Rgba = [1.0, 0.92, 0.1, 1.0];
/// The grid lines of the sheet.
pub const GRID: Rgba = [0.1, 0.12, 0.16, 0.6];

/// The base colour of each sheet when a cloth has several (the heatmap's "clear" end, the
/// plain fill's hue), cycled: the first is the one-sheet slate; the others are muted hues
/// kept apart from the rays' red and green, the inversions' magenta and yellow and the
/// heatmap's cyan.
pub const SHEET_TINTS: [Rgba; 4] = [
    [0.30, 0.38, 0.55, 1.0],
    [0.62, 0.42, 0.24, 1.0],
    [0.47, 0.33, 0.60, 1.0],
    [0.44, 0.46, 0.34, 1.0],
];

pub fn sheet_tint(sheet: usize) -> Rgba {
    SHEET_TINTS[sheet % SHEET_TINTS.len()]
}

pub fn ray(kind: RayKind) -> Rgba {
    match kind {
        RayKind::Collision => COLLISION,
        RayKind::Prediction => PREDICTION,
        RayKind::Rejected => REJECTED,
        RayKind::Culled => CULLED,
        RayKind::Lost => LOST,
    }
}

pub fn inversion(corrected: bool) -> Rgba {
    if corrected { INVERTED } else { UNCORRECTED }
}

pub fn kind_word(kind: RayKind) -> &'static str {
    match kind {
        RayKind::Collision => "collision",
        RayKind::Prediction => "prediction",
        RayKind::Rejected => "rejected",
        RayKind::Culled => "culled",
        RayKind::Lost => "lost",
    }
}

pub fn rich(text: impl Into<String>, c: Rgba) -> RichText {
    RichText::new(text.into()).color(colors::egui(c))
}

/// A colour and its meaning, kept on one line when the legend wraps.
pub fn swatch(ui: &mut Ui, c: Rgba, text: &str) {
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
        ui.painter()
            .rect_filled(r, 2.0, colors::egui(colors::with_alpha(c, 1.0)));
        ui.label(RichText::new(text).small());
    });
}

/// The legend of what the 3D view draws.
pub fn legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 6.0;
        swatch(ui, COLLISION, "collision ray");
        swatch(ui, PREDICTION, "prediction ray");
        swatch(ui, REJECTED, "rejected ray");
        swatch(ui, LOST, "lost ray (failed walk)");
        swatch(ui, WALK, "walk path");
        swatch(ui, INVERTED, "inverted vertex + crossed triangle");
        swatch(ui, UNCORRECTED, "uncorrected");
    });
}

/// Which tint is which sheet, with the vertex numbers each holds.
pub fn sheet_legend(ui: &mut Ui, mesh: &ClothMesh) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 6.0;
        for k in 0..mesh.part_count() {
            let vertices = mesh.part_vertices(k);
            let last = vertices.end.saturating_sub(1);
            swatch(
                ui,
                sheet_tint(k),
                &format!("{}: v{}–v{last}", mesh.part_name(k), vertices.start),
            );
        }
    });
}
