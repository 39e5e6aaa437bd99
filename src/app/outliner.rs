//! The outliner: bodies, the pairs in contact, the open family views' groups, the frame's
//! trace events and the markers, in one virtualised list (only the visible rows are laid out, so 10,000 bodies or 100,000
//! events scroll smoothly) with a filter box.

mod row_widgets;

use crate::app::families::OutlinerGroup;
use crate::app::state::session::Session;
use crate::app::state::{AppState, Command, Selection};
use crate::app::views::colors::EventPalette;
use crate::record::Frame;
use crate::trace::BodyId;
use egui::Ui;
use row_widgets::{Clicks, RowWidgets};

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

/// The filter box's text, lower-cased: a row is kept when one of its texts contains it.
struct Filter {
    needle: String,
}

impl Filter {
    fn is_empty(&self) -> bool {
        self.needle.is_empty()
    }

    fn keeps(&self, text: &str) -> bool {
        self.needle.is_empty() || text.to_lowercase().contains(&self.needle)
    }
}

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
        let filter = Filter {
            needle: self.filter.to_lowercase(),
        };
        let family_sections = (0..groups.len()).map(Section::Family);
        let sections = Section::ALL[..2]
            .iter()
            .copied()
            .chain(family_sections)
            .chain(Section::ALL[2..].iter().copied());
        for section in sections {
            let items = section_rows(section, groups, session, frame, &filter);
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
        palette: &EventPalette,
    ) -> Vec<Command> {
        ui.horizontal(|ui| {
            ui.heading("Outliner");
        });
        self.filter_box(ui);
        ui.add_space(4.0);
        self.rebuild(state, groups);
        self.reveal(state);
        let Some(session) = &state.session else {
            ui.weak("Nothing open.");
            return Vec::new();
        };
        let row_height = ui.spacing().interact_size.y;
        let mut area = egui::ScrollArea::vertical().auto_shrink([false, false]);
        if let Some(i) = self.scroll_to.take() {
            let spacing = ui.spacing().item_spacing.y;
            let y = (i as f32 * (row_height + spacing) - ui.available_height() / 3.0).max(0.0);
            area = area.vertical_scroll_offset(y);
        }
        let widgets = RowWidgets {
            state,
            session,
            frame: state.current_frame().map(|f| f.as_ref()),
            groups,
            palette,
            collapsed: &self.collapsed,
        };
        let rows = &self.rows;
        let mut clicks = Clicks::default();
        area.show_rows(ui, row_height, rows.len(), |ui, range| {
            // Rows must be one line each: the list is laid out by row index.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for row in &rows[range] {
                widgets.show(ui, row, &mut clicks);
            }
        });
        self.take_clicks(clicks)
    }

    fn filter_box(&mut self, ui: &mut Ui) {
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
    }

    /// Reveals what was selected elsewhere (viewport click, inspector link).
    fn reveal(&mut self, state: &AppState) {
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
    }

    /// What was chosen here is not revealed again; a clicked header folds or unfolds.
    fn take_clicks(&mut self, clicks: Clicks) -> Vec<Command> {
        if let Some(s) = clicks.selection {
            self.last_selection = s;
        }
        if let Some(e) = clicks.event {
            self.last_event = Some(e);
        }
        if let Some(s) = clicks.toggle {
            if let Some(i) = self.collapsed.iter().position(|c| *c == s) {
                self.collapsed.remove(i);
            } else {
                self.collapsed.push(s);
            }
            self.rows_key = None;
        }
        clicks.commands
    }
}

/// The rows of one section that pass the filter (its header not included).
fn section_rows(
    section: Section,
    groups: &[OutlinerGroup],
    session: &Session,
    frame: &Frame,
    filter: &Filter,
) -> Vec<Row> {
    let catalog = &session.catalog;
    match section {
        Section::Family(g) => groups[g]
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| filter.keeps(&r.text))
            .map(|(r, _)| Row::Family(g, r))
            .collect(),
        Section::Bodies => catalog
            .bodies
            .iter()
            .filter(|b| {
                filter.keeps(&b.name)
                    || filter.keeps(b.shape_kind)
                    || filter.keeps(&format!("#{}", b.id))
            })
            .map(|b| Row::Body(b.id))
            .collect(),
        Section::Pairs => contact_pairs(frame)
            .into_iter()
            .filter(|(a, b, ..)| filter.keeps(&catalog.name(*a)) || filter.keeps(&catalog.name(*b)))
            .map(|(a, b, contacts, depth)| Row::Pair {
                a,
                b,
                contacts,
                depth,
            })
            .collect(),
        Section::Events => frame
            .trace
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                filter.is_empty()
                    || filter.keeps(&e.summary())
                    || filter.keeps(e.stage.name())
                    || filter.keeps(e.family())
            })
            .map(|(i, _)| Row::Event(i))
            .collect(),
        Section::Markers => session
            .markers()
            .all()
            .iter()
            .enumerate()
            .filter(|(_, m)| filter.keeps(&m.text) || filter.keeps(m.kind.label()))
            .map(|(i, _)| Row::Marker(i))
            .collect(),
    }
}

/// The frame's contacts by pair (lower id first): how many, and the deepest, in the order
/// the pairs first touch.
fn contact_pairs(frame: &Frame) -> Vec<(BodyId, BodyId, usize, f64)> {
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
}
