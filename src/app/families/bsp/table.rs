//! The slide's table: one row per iteration, in the colour its drawing uses.

use super::describe::{branch_name, end_words};
use super::draw::iteration_color;
use super::level::Level;
use super::log::SlideLog;
use crate::app::state::Command;

fn color32(c: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgb(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
    )
}

pub fn slide_table(
    ui: &mut egui::Ui,
    log: &SlideLog,
    level: &Level,
    (current, tint): (Option<usize>, Option<[f32; 4]>),
    out: &mut Vec<Command>,
) {
    if log.iterations.is_empty() {
        ui.label("No slide in this frame (record with tracing on, or step the walker).");
        return;
    }
    egui::Grid::new(("bsp-slide-table", tint.is_some()))
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            for h in [
                "it.",
                "touch / stop",
                "brush, plane",
                "normal",
                "then",
                "walls",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for it in &log.iterations {
                let c = color32(tint.unwrap_or_else(|| iteration_color(it.index as usize)));
                let mark = if current == Some(it.index as usize) {
                    "▶"
                } else {
                    "■"
                };
                if ui
                    .link(egui::RichText::new(format!("{mark} {}", it.index + 1)).color(c))
                    .clicked()
                {
                    out.push(Command::SeekEvent(Some(it.event)));
                }
                match it.hit {
                    Some((b, p)) => {
                        ui.label(format!("{:.4} / {:.4}", it.frac_real, it.frac_impact));
                        ui.label(format!("brush {b}, {p}"));
                        let n = level.plane(b, p).map(|pl| {
                            let n = pl.normal;
                            format!("({:.2}, {:.2}, {:.2})", n.x, n.y, n.z)
                        });
                        ui.label(n.unwrap_or_else(|| "?".into()));
                    }
                    None => {
                        ui.label("1 (free)");
                        ui.label("-");
                        ui.label("-");
                    }
                }
                ui.label(branch_name(it.branch));
                ui.label(format!(
                    "{}{}",
                    it.normals,
                    if it.reset { " (reset)" } else { "" }
                ));
                ui.end_row();
            }
        });
    if let Some((i, reason, n)) = log.end {
        let text = format!("Ended after {n} iteration(s): {}", end_words(reason));
        if ui.link(text).clicked() {
            out.push(Command::SeekEvent(Some(i)));
        }
    }
}
