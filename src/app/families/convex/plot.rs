//! The distance after each move of the walk. V-Clip's moves never increase it (Mirtich's
//! termination argument), so a rise is drawn and named as a defect.

use crate::app::views::colors;
use egui::{RichText, Ui};

/// The first position where the distance rose above the one before, beyond rounding.
pub fn first_rise(distances: &[f64]) -> Option<usize> {
    distances
        .windows(2)
        .position(|w| {
            let tol = 1e-5 * (1.0 + w[0].abs());
            w[1] > w[0] + tol
        })
        .map(|k| k + 1)
}

pub fn show(ui: &mut Ui, id: &str, distances: &[f64], current: usize) {
    let points: Vec<[f64; 2]> = distances
        .iter()
        .enumerate()
        .map(|(k, &d)| [k as f64, d])
        .collect();
    let here = distances.get(current).map(|&d| vec![[current as f64, d]]);
    egui_plot::Plot::new(id)
        .height(110.0)
        .include_y(0.0)
        .include_x(0.0)
        .allow_scroll(false)
        .allow_drag(false)
        .x_axis_label("move")
        .y_axis_label("distance")
        .show(ui, |p| {
            p.line(
                egui_plot::Line::new("distance", points.clone()).color(colors::egui(colors::FIRST)),
            );
            p.points(
                egui_plot::Points::new("", points)
                    .radius(2.5)
                    .color(colors::egui(colors::FIRST)),
            );
            if let Some(h) = here {
                p.points(
                    egui_plot::Points::new("this move", h)
                        .radius(5.0)
                        .color(colors::egui(colors::RESULT)),
                );
            }
        });
    match first_rise(distances) {
        None => ui.label(RichText::new("Non-increasing at every move, as it must be.").small()),
        Some(k) => ui.label(
            RichText::new(format!(
                "The distance rose at move {k}: a defect of the walk."
            ))
            .color(colors::egui(colors::WARNING)),
        ),
    };
}

#[cfg(test)]
mod tests {
    use super::first_rise;

    #[test]
    fn rises_are_found_and_ties_are_not() {
        assert_eq!(first_rise(&[3.0, 2.0, 2.0, 1.0]), None);
        assert_eq!(first_rise(&[3.0, 2.0, 2.5, 1.0]), Some(2));
        assert_eq!(first_rise(&[]), None);
    }
}
