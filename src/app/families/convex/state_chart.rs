//! The state chart of V-Clip (Mirtich 1998; spec 003 Fig. 1.24) as a small diagram: a node
//! per state (V-V, V-E, E-E, V-F, E-F), the current one lit, the move just taken drawn as an
//! arrow, solid when the distance strictly fell and dashed when it may have stayed equal.
//! E-F never ends a walk: reaching its end there means penetration, flagged in red.

use crate::app::views::colors;
use egui::{Color32, Pos2, Sense, Shape, Stroke, Ui, Vec2};

/// Where each state sits, in a unit square: the separated states top, the face states below.
const NODES: [(&str, [f32; 2]); 6] = [
    ("V-V", [0.1, 0.25]),
    ("V-E", [0.42, 0.25]),
    ("E-E", [0.78, 0.25]),
    ("V-F", [0.42, 0.78]),
    ("E-F", [0.78, 0.78]),
    ("F-F", [0.1, 0.78]),
];

/// The transitions the walk can take (either way), drawn faint as the chart's skeleton.
const LINKS: [(&str, &str); 6] = [
    ("V-V", "V-E"),
    ("V-E", "E-E"),
    ("V-E", "V-F"),
    ("E-E", "E-F"),
    ("V-F", "E-F"),
    ("F-F", "V-F"),
];

pub struct StateChart<'a> {
    pub current: &'a str,
    /// The move into the current state: (from state, dashed).
    pub arrived_from: Option<(&'a str, bool)>,
    /// The walk ended in penetration at this state.
    pub penetrating: bool,
}

impl StateChart<'_> {
    pub fn show(&self, ui: &mut Ui, height: f32) -> egui::Response {
        let width = ui.available_width().clamp(160.0, 360.0);
        let (rect, response) = ui.allocate_exact_size(Vec2::new(width, height), Sense::hover());
        let label = format!(
            "V-Clip state chart: current state {}{}",
            self.current,
            self.arrived_from
                .map(|(f, dashed)| format!(
                    ", arrived from {f} ({})",
                    if dashed {
                        "dashed: distance may stay"
                    } else {
                        "solid: distance fell"
                    }
                ))
                .unwrap_or_default()
        );
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
        let at = |name: &str| -> Pos2 {
            let (_, [x, y]) = NODES
                .iter()
                .find(|(n, _)| *n == name)
                .copied()
                .unwrap_or(("", [0.5, 0.5]));
            rect.min + Vec2::new(x * rect.width(), y * rect.height())
        };
        let radius = (rect.height() * 0.17).min(22.0);
        let faint = ui.visuals().weak_text_color().gamma_multiply(0.5);
        for (p, q) in LINKS {
            painter.line_segment([at(p), at(q)], Stroke::new(1.0, faint));
        }
        let lit = colors::egui(colors::RESULT);
        if let Some((from, dashed)) = self.arrived_from {
            arrow(&painter, at(from), at(self.current), radius, dashed, lit);
        }
        for (name, _) in NODES {
            let c = at(name);
            let current = name == self.current;
            let alarm = current && self.penetrating;
            let fill = if alarm {
                colors::egui(colors::WARNING)
            } else if current {
                lit
            } else {
                ui.visuals().faint_bg_color
            };
            let r = if name == "F-F" { radius * 0.75 } else { radius };
            painter.circle(c, r, fill, Stroke::new(1.0, ui.visuals().text_color()));
            let text = if current {
                Color32::BLACK
            } else {
                ui.visuals().text_color()
            };
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                name,
                egui::FontId::monospace(if name == "F-F" { 10.0 } else { 12.0 }),
                text,
            );
        }
        if self.penetrating {
            painter.text(
                at("E-F") + Vec2::new(0.0, radius + 8.0),
                egui::Align2::CENTER_CENTER,
                "penetration",
                egui::FontId::proportional(11.0),
                colors::egui(colors::WARNING),
            );
        }
        response
    }
}

/// An arrow between two node rims; a move within one state is a loop over the node.
fn arrow(painter: &egui::Painter, from: Pos2, to: Pos2, radius: f32, dashed: bool, c: Color32) {
    let stroke = Stroke::new(2.5, c);
    if (to - from).length() < 1.0 {
        let centre = to - Vec2::new(0.0, radius * 1.35);
        painter.circle_stroke(centre, radius * 0.55, stroke);
        return;
    }
    let dir = (to - from).normalized();
    let (a, b) = (from + dir * radius, to - dir * (radius + 2.0));
    if dashed {
        painter.extend(Shape::dashed_line(&[a, b], stroke, 6.0, 4.0));
    } else {
        painter.line_segment([a, b], stroke);
    }
    let side = Vec2::new(-dir.y, dir.x) * 6.0;
    painter.add(Shape::convex_polygon(
        vec![b + dir * 2.0, b - dir * 9.0 + side, b - dir * 9.0 - side],
        c,
        Stroke::NONE,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_joins_known_states() {
        for (p, q) in LINKS {
            assert!(NODES.iter().any(|(n, _)| *n == p), "{p}");
            assert!(NODES.iter().any(|(n, _)| *n == q), "{q}");
        }
        for name in ["V-V", "V-E", "E-E", "V-F", "E-F", "F-F"] {
            assert!(NODES.iter().any(|(n, _)| *n == name));
        }
    }
}
