//! The side panel: the pair and its closest features, the walk move by move (pair, reason,
//! clip, state chart, distance plot, containment checks), the Voronoi regions, the live
//! drag, and GJK's simplex steps beside the walk.

use super::current::Current;
use super::feature_word::kind_word;
use super::state_chart::StateChart;
use super::walk::{Move, state_name};
use super::{ConvexView, Picked, checks, palette, plot, shapes};
use crate::app::families::FamilyContext;
use crate::app::state::{Command, Selection};
use crate::app::views::colors;
use crate::app::widgets::prose::{prose, within_edge};
use crate::app::widgets::stepper::Stepper;
use crate::convex::{Feature, Outcome, region_planes};
use crate::geom::Vec3;
use egui::{RichText, Ui};

pub fn show(view: &mut ConvexView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let pairs = shapes::pairs(cx);
    if pairs.is_empty() {
        prose(
            ui,
            "This scene tracks no convex pairs. Open one of the convex scenes \
             (convex-cube-walk, convex-orbit, convex-parallel-faces, convex-penetration).",
        );
        return;
    }
    if pairs.len() > 1 {
        pair_chooser(view, ui, cx, &pairs, out);
    }
    let Some(current) = view.current(cx) else {
        prose(
            ui,
            cx.statics
                .problem
                .clone()
                .unwrap_or_else(|| "The pair's bodies are not convex polyhedra.".into()),
        );
        return;
    };
    summary(ui, cx, &current);
    palette::legend(ui);
    ui.horizontal(|ui| {
        if ui
            .button("Frame the pair")
            .on_hover_text("Move the camera to the two bodies")
            .clicked()
        {
            view.frame_request = true;
        }
    });
    ui.separator();
    walk_step(view, ui, cx, &current, out);
    ui.separator();
    super::gjk_panel::show(view, ui, &current, out);
    ui.separator();
    regions(view, ui, cx, &current);
    ui.separator();
    live(view, ui, &current);
}

fn pair_chooser(
    view: &mut ConvexView,
    ui: &mut Ui,
    cx: &FamilyContext,
    pairs: &[[u32; 2]],
    out: &mut Vec<Command>,
) {
    let shown = view.pair_index(cx).unwrap_or(0);
    let name = |p: [u32; 2]| format!("{} × {}", cx.body_name(p[0]), cx.body_name(p[1]));
    egui::ComboBox::from_label("Pair")
        .selected_text(pairs.get(shown).map_or_else(String::new, |p| name(*p)))
        .show_ui(ui, |ui| {
            for (k, p) in pairs.iter().enumerate() {
                if ui.selectable_label(k == shown, name(*p)).clicked() {
                    view.pair = k;
                    out.push(Command::Select(Selection::pair(p[0], p[1])));
                }
            }
        });
}

fn feature_text(f: Feature) -> RichText {
    palette::rich(format!("{f} ({})", kind_word(f)), f.kind()).strong()
}

fn summary(ui: &mut Ui, cx: &FamilyContext, c: &Current) {
    let [a, b] = c.bodies();
    prose(
        ui,
        format!(
            "A = {} (#{a}, {} vertices) · B = {} (#{b}, {} vertices)",
            cx.body_name(a),
            c.a.shape.vertices.len(),
            cx.body_name(b),
            c.b.shape.vertices.len()
        ),
    );
    let Some(end) = &c.walk.end else {
        prose(ui, "No walk recorded for this pair in this frame.");
        return;
    };
    within_edge(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Closest features:").strong());
            ui.label("A's");
            ui.label(feature_text(end.features[0]));
            ui.label("and B's");
            ui.label(feature_text(end.features[1]));
        })
    });
    let outcome = match end.outcome {
        Outcome::Separated => format!("separated, distance {:.6}", end.distance),
        Outcome::Touching => "touching (distance 0)".into(),
        Outcome::Penetrating => "PENETRATING: these features prove the overlap".into(),
        Outcome::IterationCap => "the walk hit its iteration cap (a bug)".into(),
    };
    let color = match end.outcome {
        Outcome::Separated => colors::NORMAL,
        Outcome::Touching => colors::RESULT,
        _ => colors::WARNING,
    };
    prose(
        ui,
        RichText::new(format!(
            "{outcome} · {} move(s){}{}",
            c.walk.moves.len(),
            if end.warm {
                ", warm-started from the last frame's pair"
            } else {
                ", cold start"
            },
            if c.live { " · LIVE (dragged)" } else { "" }
        ))
        .color(colors::egui(color)),
    );
}

/// The walk's stepper: through the moves of the walk shown.
const MOVES: Stepper<'static> = Stepper {
    buttons: [
        ("⏮ Start", "The pair the walk started from"),
        ("◀ Previous move", "One move back"),
        ("Next move ▶", "One move on"),
        ("End ⏭", "Where the walk stopped"),
    ],
};

fn walk_step(
    view: &mut ConvexView,
    ui: &mut Ui,
    cx: &FamilyContext,
    c: &Current,
    out: &mut Vec<Command>,
) {
    ui.label(RichText::new("The walk, move by move").heading());
    let last = c.walk.last();
    if let Some(to) = MOVES.show(ui, c.position, last) {
        view.go_to(cx, c, to, out);
    }
    prose(
        ui,
        format!(
            "Position {} of {} ({} move(s) in this walk){}",
            c.position,
            last,
            last,
            if c.at_end() { ": the end" } else { "" }
        ),
    );
    let Some(pair) = c.features() else {
        return;
    };
    within_edge(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("State {}:", state_name(pair))).strong());
            ui.label("A's");
            ui.label(feature_text(pair[0]));
            ui.label("· B's");
            ui.label(feature_text(pair[1]));
        })
    });
    let arrived = c.walk.move_into(c.position);
    arrival(ui, c, arrived);
    clip_text(ui, c);
    let penetrating = c.at_end()
        && c.walk
            .end
            .as_ref()
            .is_some_and(|e| e.outcome == Outcome::Penetrating);
    StateChart {
        current: state_name(pair),
        arrived_from: arrived.map(|m| (state_name(m.from), m.reason.may_keep_distance())),
        penetrating,
    }
    .show(ui, 120.0);
    revisits(ui, c);
    ui.label(RichText::new("Distance after each move").strong());
    plot::show(ui, "convex-walk-distance", &c.distances(), c.position);
    containment(ui, c, pair);
}

/// The move that led to the position shown, and why; or where the walk started.
fn arrival(ui: &mut Ui, c: &Current, arrived: Option<&Move>) {
    match arrived {
        Some(m) => {
            prose(
                ui,
                format!(
                    "From {}: A's {} · B's {}",
                    state_name(m.from),
                    m.from[0],
                    m.from[1]
                ),
            );
            prose(
                ui,
                RichText::new(format!("Why: {}.", m.reason.explain()))
                    .strong()
                    .color(colors::egui(colors::RESULT)),
            );
            prose(
                ui,
                RichText::new(if m.reason.may_keep_distance() {
                    "Dashed arrow: this kind of move may keep the distance (it lowers the feature dimension instead)."
                } else {
                    "Solid arrow: this kind of move strictly lowers the distance."
                })
                .small(),
            );
        }
        None => {
            prose(
                ui,
                if c.walk.end.as_ref().is_some_and(|e| e.warm) {
                    "The start: last frame's closest pair (warm start)."
                } else {
                    "The start: the first vertex of each body (cold start)."
                },
            );
        }
    }
}

fn clip_text(ui: &mut Ui, c: &Current) {
    if let Some(clip) = c.clipped() {
        let owner = if clip.side == 0 { "B" } else { "A" };
        let edge_of = if clip.side == 0 { "A" } else { "B" };
        prose(
            ui,
            format!(
                "Clip: {edge_of}'s edge E{} clipped against VR({owner}: {}) keeps [{:.3}, {:.3}] of it (white in the 3D view).",
                clip.edge, clip.against, clip.interval[0], clip.interval[1]
            ),
        );
    }
}

/// How many feature pairs the walk visited twice: none, or a cycle.
fn revisits(ui: &mut Ui, c: &Current) {
    let revisits = c.walk.revisits();
    prose(
        ui,
        RichText::new(format!(
            "Feature pairs visited twice: {revisits}{}",
            if revisits == 0 {
                " (V-Clip never cycles)"
            } else {
                " — a cycle"
            }
        ))
        .small()
        .color(if revisits == 0 {
            ui.visuals().text_color()
        } else {
            colors::egui(colors::WARNING)
        }),
    );
}

/// The two containment checks at the pair shown.
fn containment(ui: &mut Ui, c: &Current, pair: [Feature; 2]) {
    let (a, b) = (c.a.placed(), c.b.placed());
    if let Some(check) = checks::containment(&a, pair[0], &b, pair[1]) {
        prose(
            ui,
            RichText::new(if c.at_end() {
                "The closest-pair condition at the final pair (Fig. 1.14)"
            } else {
                "The closest-pair condition at this pair"
            })
            .strong(),
        );
        checks::show(ui, &check, pair[0], pair[1]);
    }
}

fn regions(view: &mut ConvexView, ui: &mut Ui, cx: &FamilyContext, c: &Current) {
    ui.label(RichText::new("Voronoi regions").heading());
    prose(
        ui,
        "A feature's region holds the points closer to it than to any other feature of its \
         body. Click a body in the 3D view to pick the vertex, edge or face under the cursor, \
         or pick one below; its region is drawn cut to a box around the body.",
    );
    within_edge(ui, |ui| {
        ui.checkbox(
            &mut view.pair_regions,
            "Show the regions of the current pair (each closest point must lie in the other's)",
        )
    });
    ui.horizontal(|ui| {
        ui.label("Show every region of:");
        for (name, body) in [("none", None), ("A", Some(c.a.body)), ("B", Some(c.b.body))] {
            if ui
                .selectable_label(view.all_regions_of == body, name)
                .clicked()
            {
                view.all_regions_of = body;
            }
        }
    });
    if let Some(p) = view.picked {
        let side = if p.body == c.a.body { &c.a } else { &c.b };
        let placed = side.placed();
        let mut planes = Vec::new();
        if placed.shape.contains(p.feature) {
            region_planes(&placed, p.feature, &mut planes);
        }
        let mut leads: Vec<String> = planes.iter().map(|pl| pl.neighbour.to_string()).collect();
        if matches!(p.feature, Feature::Face(_)) {
            leads.push("the body itself (the face's own plane)".into());
        }
        let shape = match p.feature {
            Feature::Vertex(_) => "a cone, one plane per incident edge",
            Feature::Edge(_) => "a wedge: two planes through its ends, two along its faces",
            Feature::Face(_) => "a prism over the face: one plane per side, above the face",
        };
        within_edge(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("Region shown:");
                ui.label(palette::rich(
                    format!("VR({}) of {}", p.feature, cx.body_name(p.body)),
                    p.feature.kind(),
                ));
                if ui.small_button("Clear").clicked() {
                    view.picked = None;
                }
            })
        });
        prose(
            ui,
            format!(
                "{shape}: bounded by {} plane(s), crossing them leads to {}.",
                leads.len(),
                leads.join(", ")
            ),
        );
    }
    for (name, side) in [("A", &c.a), ("B", &c.b)] {
        let shape = &side.shape;
        egui::CollapsingHeader::new(format!(
            "Features of {name} ({} vertices, {} edges, {} faces)",
            shape.vertices.len(),
            shape.edges.len(),
            shape.faces.len()
        ))
        .id_salt(("convex-features", name))
        .show(ui, |ui| {
            within_edge(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for f in shape.features().take(600) {
                        let picked = Some(Picked {
                            body: side.body,
                            feature: f,
                        });
                        if ui
                            .selectable_label(
                                view.picked == picked,
                                palette::rich(f.to_string(), f.kind()),
                            )
                            .clicked()
                        {
                            view.picked = picked;
                        }
                    }
                })
            });
        });
    }
}

fn live(view: &mut ConvexView, ui: &mut Ui, c: &Current) {
    ui.label(RichText::new("Live drag").heading());
    prose(
        ui,
        "Ctrl + drag a body of the pair in the 3D view, or nudge it here: the engine's V-Clip \
         runs again from this frame's pair and the walk above becomes that live walk.",
    );
    ui.horizontal(|ui| {
        ui.label("Move:");
        for (k, name) in ["A", "B"].into_iter().enumerate() {
            if ui.selectable_label(view.live.side == k, name).clicked() && view.live.side != k {
                view.live.side = k;
                view.live.reset();
            }
        }
    });
    let step = 0.05 * c.scale().size;
    ui.horizontal(|ui| {
        for (axis, unit) in [("x", Vec3::x()), ("y", Vec3::y()), ("z", Vec3::z())] {
            if ui.small_button(format!("−{axis}")).clicked() {
                view.live.nudge(-unit * step);
                view.gjk_position = None;
            }
            if ui.small_button(format!("+{axis}")).clicked() {
                view.live.nudge(unit * step);
                view.gjk_position = None;
            }
        }
        if ui
            .add_enabled(
                view.live.active(),
                egui::Button::new("Back to the recording"),
            )
            .clicked()
        {
            view.live.reset();
        }
    });
    if view.live.active() {
        let o = view.live.offset;
        prose(
            ui,
            RichText::new(format!(
                "Live: {} moved by ({:.3}, {:.3}, {:.3}); the walk shown is the re-run.",
                if view.live.side == 0 { "A" } else { "B" },
                o[0],
                o[1],
                o[2]
            ))
            .color(colors::egui(colors::SELECTION)),
        );
    }
}
