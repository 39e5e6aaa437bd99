//! One row of the outliner as a widget: a section's header, a body, a pair in contact, a
//! trace event, the note that the trace was cut, a family view's row or a marker.

use super::{Row, Section};
use crate::app::families::OutlinerGroup;
use crate::app::state::session::Session;
use crate::app::state::{AppState, Command, Selection};
use crate::app::views::colors::{self, EventPalette};
use crate::record::Frame;
use crate::trace::BodyId;
use egui::{Sense, Ui, Vec2};

/// What the rows were clicked for this frame.
#[derive(Default)]
pub(super) struct Clicks {
    pub commands: Vec<Command>,
    /// The section whose header was clicked, to fold or unfold.
    pub toggle: Option<Section>,
    /// Chosen in the outliner itself, so not to be revealed again.
    pub selection: Option<Selection>,
    pub event: Option<usize>,
}

/// What the rows show: the session, its current frame and the family views' groups.
pub(super) struct RowWidgets<'a> {
    pub state: &'a AppState,
    pub session: &'a Session,
    pub frame: Option<&'a Frame>,
    pub groups: &'a [OutlinerGroup],
    pub palette: &'a EventPalette,
    pub collapsed: &'a [Section],
}

impl RowWidgets<'_> {
    pub fn show(&self, ui: &mut Ui, row: &Row, clicks: &mut Clicks) {
        match row {
            Row::Header(section, count) => self.header(ui, *section, *count, clicks),
            Row::Body(id) => self.body(ui, *id, clicks),
            Row::Pair {
                a,
                b,
                contacts,
                depth,
            } => self.pair(ui, (*a, *b), *contacts, *depth, clicks),
            Row::Event(i) => self.event(ui, *i, clicks),
            Row::TraceCut(dropped) => trace_cut(ui, *dropped),
            Row::Family(g, r) => self.family(ui, *g, *r, clicks),
            Row::Marker(i) => self.marker(ui, *i, clicks),
        }
    }

    fn header(&self, ui: &mut Ui, section: Section, count: usize, clicks: &mut Clicks) {
        let collapsed = self.collapsed.contains(&section);
        let arrow = if collapsed { "▶" } else { "▼" };
        let text = egui::RichText::new(format!("{arrow} {} ({count})", section.title(self.groups)))
            .strong();
        if ui
            .add(egui::Button::new(text).frame(false))
            .on_hover_text(if collapsed { "Expand" } else { "Collapse" })
            .clicked()
        {
            clicks.toggle = Some(section);
        }
    }

    fn body(&self, ui: &mut Ui, id: BodyId, clicks: &mut Clicks) {
        let Some(info) = self.session.catalog.body(id) else {
            return;
        };
        ui.horizontal(|ui| {
            let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
            ui.painter().rect_filled(
                r,
                2.0,
                colors::egui([info.color[0], info.color[1], info.color[2], 1.0]),
            );
            let fixed = if info.fixed { " · fixed" } else { "" };
            let text = format!("#{} {} · {}{fixed}", info.id, info.name, info.shape_kind);
            let selected = self.state.selection == Selection::Body(id);
            if ui
                .selectable_label(selected, text)
                .on_hover_text(&info.shape_text)
                .clicked()
            {
                clicks.selection = Some(Selection::Body(id));
                clicks.commands.push(Command::Select(if selected {
                    Selection::None
                } else {
                    Selection::Body(id)
                }));
            }
        });
    }

    fn pair(
        &self,
        ui: &mut Ui,
        (a, b): (BodyId, BodyId),
        contacts: usize,
        depth: f64,
        clicks: &mut Clicks,
    ) {
        let sel = Selection::pair(a, b);
        let text = format!(
            "{} – {} · {contacts} contact{} · depth {depth:.4} m",
            self.session.catalog.name(a),
            self.session.catalog.name(b),
            if contacts == 1 { "" } else { "s" }
        );
        if ui
            .selectable_label(self.state.selection == sel, text)
            .on_hover_text("Select the pair: its contacts and tests, frame after frame")
            .clicked()
        {
            clicks.selection = Some(sel);
            clicks.commands.push(Command::Select(sel));
        }
    }

    fn event(&self, ui: &mut Ui, i: usize, clicks: &mut Clicks) {
        let Some(e) = self.frame.and_then(|f| f.trace.get(i)) else {
            return;
        };
        let current = self.state.playhead.event == Some(i);
        let text = egui::RichText::new(format!("{:>5} {}", i + 1, e.summary()))
            .monospace()
            .color(colors::egui(self.palette.event(e)));
        if ui
            .selectable_label(current, text)
            .on_hover_text(format!(
                "{} · {} · {:?}: step to this event",
                e.family(),
                e.stage.name(),
                e.verdict
            ))
            .clicked()
        {
            clicks.event = Some(i);
            clicks.commands.push(Command::SeekEvent(Some(i)));
        }
    }

    fn family(&self, ui: &mut Ui, group: usize, row: usize, clicks: &mut Clicks) {
        let Some(row) = self.groups.get(group).and_then(|g| g.rows.get(row)) else {
            return;
        };
        let mut label = ui.selectable_label(row.selected, &row.text);
        if !row.hover.is_empty() {
            label = label.on_hover_text(&row.hover);
        }
        if label.clicked() {
            clicks.commands.push(row.command.clone());
        }
    }

    fn marker(&self, ui: &mut Ui, i: usize, clicks: &mut Clicks) {
        let Some(m) = self.session.markers().all().get(i) else {
            return;
        };
        let text = egui::RichText::new(format!("◆ {}: {}", m.frame, m.text))
            .color(colors::egui(colors::marker(&m.kind)));
        if ui
            .selectable_label(self.state.playhead.frame == m.frame, text)
            .on_hover_text(format!("{} — jump to frame {}", m.kind.label(), m.frame))
            .clicked()
        {
            clicks.commands.push(Command::SeekFrame(m.frame));
            if let Some(&b) = m.bodies.first() {
                clicks.commands.push(Command::Select(match m.bodies.get(1) {
                    Some(&c) => Selection::pair(b, c),
                    None => Selection::Body(b),
                }));
            }
        }
    }
}

fn trace_cut(ui: &mut Ui, dropped: u64) {
    ui.colored_label(
        colors::egui(colors::WARNING),
        format!("… {dropped} more events not recorded (trace limit)"),
    )
    .on_hover_text(
        "The frame's trace reached the trace limit; raise it in Settings \
         (stepped frames) or record with a larger --trace-limit",
    );
}
