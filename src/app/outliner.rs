//! The outliner: bodies, the pairs in contact, the open family views' groups, the frame's
//! trace events and the markers, in one virtualised list (only the visible rows are laid out, so 10,000 bodies or 100,000
//! events scroll smoothly) with a filter box.

use crate::app::families::OutlinerGroup;
use crate::app::state::{AppState, Command, Selection};
use crate::app::views::colors;
use crate::trace::BodyId;
use egui::{Sense, Ui, Vec2};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Section {
    Bodies,
    Pairs,
    Events,
    Markers,
    /// The n-th group the family views gave.
    Family(usize),
}

impl Section {
    const ALL: [Section; 4] = [
        Section::Bodies,
        Section::Pairs,
        Section::Markers,
        Section::Events,
    ];
    fn title(self, groups: &[OutlinerGroup]) -> &str {
        match self {
            Section::Bodies => "Bodies",
            Section::Pairs => "Pairs in contact",
            Section::Events => "Trace events",
            Section::Markers => "Markers",
            Section::Family(g) => groups.get(g).map_or("", |g| g.title.as_str()),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Row {
    Header(Section, usize),
    Body(BodyId),
    Pair {
        a: BodyId,
        b: BodyId,
        contacts: usize,
        depth: f64,
    },
    Event(usize),
    /// The events past the trace limit: how many the frame did not keep.
    TraceCut(u64),
    Marker(usize),
    /// Group, row.
    Family(usize, usize),
}

/// What the rows depend on: session, frame, frame count, filter, folded sections, markers,
/// the family groups.
type RowsKey = (u64, usize, usize, String, Vec<Section>, usize, u64);

#[derive(Default)]
pub struct OutlinerUi {
    pub filter: String,
    collapsed: Vec<Section>,
    rows: Vec<Row>,
    rows_key: Option<RowsKey>,
    last_selection: Selection,
    last_event: Option<usize>,
    scroll_to: Option<usize>,
}

impl OutlinerUi {
    fn rebuild(&mut self, state: &AppState, groups: &[OutlinerGroup]) {
        let groups_key = groups
            .iter()
            .fold(groups.len() as u64, |k, g| k.rotate_left(7) ^ g.key());
        let key = (
            state.session_generation,
            state.playhead.frame,
            state.frame_count(),
            self.filter.clone(),
            self.collapsed.clone(),
            state.session.as_ref().map_or(0, |s| s.markers().len()),
            groups_key,
        );
        if self.rows_key.as_ref() == Some(&key) {
            return;
        }
        self.rows_key = Some(key);
        self.rows.clear();
        let (Some(session), Some(frame)) = (&state.session, state.current_frame()) else {
            return;
        };
        let needle = self.filter.to_lowercase();
        let keep = |text: &str| needle.is_empty() || text.to_lowercase().contains(&needle);
        let catalog = &session.catalog;
        let family_sections = (0..groups.len()).map(Section::Family);
        let sections = Section::ALL[..2]
            .iter()
            .copied()
            .chain(family_sections)
            .chain(Section::ALL[2..].iter().copied());
        for section in sections {
            let items: Vec<Row> = match section {
                Section::Family(g) => groups[g]
                    .rows
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| keep(&r.text))
                    .map(|(r, _)| Row::Family(g, r))
                    .collect(),
                Section::Bodies => catalog
                    .bodies
                    .iter()
                    .filter(|b| keep(&b.name) || keep(b.shape_kind) || keep(&format!("#{}", b.id)))
                    .map(|b| Row::Body(b.id))
                    .collect(),
                Section::Pairs => {
                    let mut pairs: Vec<(BodyId, BodyId, usize, f64)> = Vec::new();
                    for c in &frame.contacts {
                        let (a, b) = (c.a.min(c.b), c.a.max(c.b));
                        match pairs.iter_mut().find(|p| (p.0, p.1) == (a, b)) {
                            Some(p) => {
                                p.2 += 1;
                                p.3 = p.3.max(c.depth);
                            }
                            None => pairs.push((a, b, 1, c.depth)),
                        }
                    }
                    pairs
                        .into_iter()
                        .filter(|(a, b, ..)| keep(&catalog.name(*a)) || keep(&catalog.name(*b)))
                        .map(|(a, b, contacts, depth)| Row::Pair {
                            a,
                            b,
                            contacts,
                            depth,
                        })
                        .collect()
                }
                Section::Events => frame
                    .trace
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        needle.is_empty() || keep(&e.summary()) || keep(e.stage.name())
                    })
                    .map(|(i, _)| Row::Event(i))
                    .collect(),
                Section::Markers => session
                    .markers()
                    .all()
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| keep(&m.text) || keep(m.kind.label()))
                    .map(|(i, _)| Row::Marker(i))
                    .collect(),
            };
            self.rows.push(Row::Header(section, items.len()));
            if !self.collapsed.contains(&section) {
                self.rows.extend(items);
                if section == Section::Events && frame.counters.trace_dropped > 0 {
                    self.rows.push(Row::TraceCut(frame.counters.trace_dropped));
                }
            }
        }
    }

    pub fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        groups: &[OutlinerGroup],
    ) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading("Outliner");
        });
        let filter = ui
            .add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("Filter bodies, pairs, events…")
                    .desired_width(f32::INFINITY),
            )
            .on_hover_text("Shows only the rows whose text contains this (case-insensitive)");
        if filter.changed() {
            self.rows_key = None;
        }
        ui.add_space(4.0);
        self.rebuild(state, groups);

        // Reveal what was selected elsewhere (viewport click, inspector link).
        if state.selection != self.last_selection {
            self.last_selection = state.selection;
            self.scroll_to = self.rows.iter().position(|r| match (r, state.selection) {
                (Row::Body(id), Selection::Body(s)) => *id == s,
                (Row::Pair { a, b, .. }, Selection::Pair(x, y)) => (*a, *b) == (x, y),
                _ => false,
            });
        }
        if state.playhead.event != self.last_event {
            self.last_event = state.playhead.event;
            if let Some(e) = state.playhead.event {
                self.scroll_to = self.rows.iter().position(|r| *r == Row::Event(e));
            }
        }

        let Some(session) = &state.session else {
            ui.weak("Nothing open.");
            return out;
        };
        let frame = state.current_frame();
        let row_height = ui.spacing().interact_size.y;
        let mut area = egui::ScrollArea::vertical().auto_shrink([false, false]);
        if let Some(i) = self.scroll_to.take() {
            let spacing = ui.spacing().item_spacing.y;
            let y = (i as f32 * (row_height + spacing) - ui.available_height() / 3.0).max(0.0);
            area = area.vertical_scroll_offset(y);
        }
        let rows = &self.rows;
        let mut toggle: Option<Section> = None;
        area.show_rows(ui, row_height, rows.len(), |ui, range| {
            // Rows must be one line each: the list is laid out by row index.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for row in &rows[range] {
                match row {
                    Row::Header(section, count) => {
                        let collapsed = self.collapsed.contains(section);
                        let arrow = if collapsed { "▶" } else { "▼" };
                        let text = egui::RichText::new(format!(
                            "{arrow} {} ({count})",
                            section.title(groups)
                        ))
                        .strong();
                        if ui
                            .add(egui::Button::new(text).frame(false))
                            .on_hover_text(if collapsed { "Expand" } else { "Collapse" })
                            .clicked()
                        {
                            toggle = Some(*section);
                        }
                    }
                    Row::Body(id) => {
                        let Some(info) = session.catalog.body(*id) else {
                            continue;
                        };
                        ui.horizontal(|ui| {
                            let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
                            ui.painter().rect_filled(
                                r,
                                2.0,
                                colors::egui([info.color[0], info.color[1], info.color[2], 1.0]),
                            );
                            let fixed = if info.fixed { " · fixed" } else { "" };
                            let text =
                                format!("#{} {} · {}{fixed}", info.id, info.name, info.shape_kind);
                            let selected = state.selection == Selection::Body(*id);
                            if ui
                                .selectable_label(selected, text)
                                .on_hover_text(&info.shape_text)
                                .clicked()
                            {
                                self.last_selection = Selection::Body(*id);
                                out.push(Command::Select(if selected {
                                    Selection::None
                                } else {
                                    Selection::Body(*id)
                                }));
                            }
                        });
                    }
                    Row::Pair {
                        a,
                        b,
                        contacts,
                        depth,
                    } => {
                        let sel = Selection::pair(*a, *b);
                        let text = format!(
                            "{} – {} · {contacts} contact{} · depth {depth:.4} m",
                            session.catalog.name(*a),
                            session.catalog.name(*b),
                            if *contacts == 1 { "" } else { "s" }
                        );
                        if ui
                            .selectable_label(state.selection == sel, text)
                            .on_hover_text(
                                "Select the pair: its contacts and tests, frame after frame",
                            )
                            .clicked()
                        {
                            self.last_selection = sel;
                            out.push(Command::Select(sel));
                        }
                    }
                    Row::Event(i) => {
                        let Some(e) = frame.and_then(|f| f.trace.get(*i)) else {
                            continue;
                        };
                        let current = state.playhead.event == Some(*i);
                        let text = egui::RichText::new(format!("{:>5} {}", i + 1, e.summary()))
                            .monospace()
                            .color(colors::egui(colors::stage(e.stage)));
                        if ui
                            .selectable_label(current, text)
                            .on_hover_text(format!(
                                "{} · {:?}: step to this event",
                                e.stage.name(),
                                e.verdict
                            ))
                            .clicked()
                        {
                            self.last_event = Some(*i);
                            out.push(Command::SeekEvent(Some(*i)));
                        }
                    }
                    Row::TraceCut(dropped) => {
                        ui.colored_label(
                            colors::egui(colors::WARNING),
                            format!("… {dropped} more events not recorded (trace limit)"),
                        )
                        .on_hover_text(
                            "The frame's trace reached the trace limit; raise it in Settings \
                             (stepped frames) or record with a larger --trace-limit",
                        );
                    }
                    Row::Family(g, r) => {
                        let Some(row) = groups.get(*g).and_then(|g| g.rows.get(*r)) else {
                            continue;
                        };
                        let mut label = ui.selectable_label(row.selected, &row.text);
                        if !row.hover.is_empty() {
                            label = label.on_hover_text(&row.hover);
                        }
                        if label.clicked() {
                            out.push(row.command.clone());
                        }
                    }
                    Row::Marker(i) => {
                        let Some(m) = session.markers().all().get(*i) else {
                            continue;
                        };
                        let text = egui::RichText::new(format!("◆ {}: {}", m.frame, m.text))
                            .color(colors::egui(colors::marker(&m.kind)));
                        if ui
                            .selectable_label(state.playhead.frame == m.frame, text)
                            .on_hover_text(format!(
                                "{} — jump to frame {}",
                                m.kind.label(),
                                m.frame
                            ))
                            .clicked()
                        {
                            out.push(Command::SeekFrame(m.frame));
                            if let Some(&b) = m.bodies.first() {
                                out.push(Command::Select(match m.bodies.get(1) {
                                    Some(&c) => Selection::pair(b, c),
                                    None => Selection::Body(b),
                                }));
                            }
                        }
                    }
                }
            }
        });
        if let Some(s) = toggle {
            if let Some(i) = self.collapsed.iter().position(|c| *c == s) {
                self.collapsed.remove(i);
            } else {
                self.collapsed.push(s);
            }
            self.rows_key = None;
        }
        out
    }
}
