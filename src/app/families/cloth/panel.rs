//! The cloth view's side panel: the legend, the step view, the frame's inverted vertices, the
//! rays by kind (toggles, counts, why rejected), the depth scale and the parameters.

use super::ClothView;
use super::crossings::merge_crossings;
use super::describe::describe;
use super::draw::kind_index;
use super::palette::{self, rich};
use super::recorded::{self, InversionRow, Sheet, target_name};
use super::{gate_map, heat, params};
use crate::app::families::FamilyContext;
use crate::app::state::Command;
use crate::app::views::colors;
use crate::app::widgets::prose::prose;
use crate::app::widgets::step_row::StepRow;
use crate::cloth::{ClothEvent, ClothMesh, RayKind, RejectReason};
use crate::record::MarkerKind;
use egui::{RichText, Ui};

pub fn show(view: &mut ClothView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(statics) = view.statics.get(cx) else {
        prose(ui, view.statics.problem.clone().unwrap_or_default());
        return;
    };
    let Some(frame) = recorded::cloth_frame(cx) else {
        prose(ui, "No cloth state in this frame.");
        return;
    };
    let trace = cx.frame().map_or(&[][..], |f| &f.trace[..]);
    let sheet = Sheet::new(&statics, frame);
    let rays = recorded::rays(trace);
    let inversions = recorded::inversions(frame, trace);
    let p = &statics.scene.params;
    header(ui, cx, &statics.mesh);
    ui.separator();
    step_view(ui, cx, sheet.as_ref(), p, (&inversions, &rays), out);
    ui.separator();
    inverted_list(view, ui, cx, &inversions, out);
    ui.checkbox(
        &mut view.toggles.inversions,
        "Mark every inverted vertex in 3D",
    );
    run_markers(ui, cx, out);
    ui.separator();
    ray_section(view, ui, &rays, frame);
    volume_section(view, ui, trace);
    ui.separator();
    super::switches::show(view, ui, cx, out);
    ui.separator();
    depth_section(view, ui, cx, sheet.as_ref(), &rays, p.half_thickness_m);
    ui.separator();
    gate_section(view, ui, p, frame);
    ui.separator();
    egui::CollapsingHeader::new("Detection parameters")
        .id_salt("cloth-params")
        .default_open(true)
        .show(ui, |ui| params::show(ui, &statics.scene));
}

/// The frame, the mesh's size, and the legend of the colours below.
fn header(ui: &mut Ui, cx: &FamilyContext, mesh: &ClothMesh) {
    let grids: Vec<String> = mesh
        .sheets
        .iter()
        .map(|s| format!("{} × {}", s.columns, s.rows))
        .collect();
    let frame = cx.state.playhead.frame;
    if mesh.pieces.is_empty() {
        ui.strong(format!(
            "Cloth of frame {frame}: {}{} vertices, {} triangles",
            if grids.len() > 1 {
                format!("{} sheets of ", grids.len())
            } else {
                String::new()
            },
            grids.join(", "),
            mesh.triangles.len()
        ));
    } else {
        ui.strong(made_of(frame, mesh, &grids));
    }
    ui.scope(|ui| {
        ui.set_max_width((ui.clip_rect().right() - ui.cursor().left() - 8.0).max(160.0));
        palette::legend(ui);
        if mesh.part_count() > 1 {
            palette::sheet_legend(ui, mesh);
        }
    });
}

/// What a cloth with mesh pieces is made of: its grid sheets ("N × M"), then each piece
/// ("file: V vertices, T triangles"), and the whole when there are several parts.
fn made_of(frame: usize, mesh: &ClothMesh, grids: &[String]) -> String {
    let parts: Vec<String> = grids
        .iter()
        .map(|g| format!("sheet of {g}"))
        .chain(mesh.pieces.iter().map(|p| {
            format!(
                "mesh piece {}: {} vertices, {} triangles",
                p.name, p.count, p.triangles
            )
        }))
        .collect();
    let whole = if parts.len() > 1 {
        format!(
            " ({} vertices, {} triangles in all)",
            mesh.vertex_count(),
            mesh.triangles.len()
        )
    } else {
        String::new()
    };
    format!("Cloth of frame {frame}: {}{whole}", parts.join("; "))
}

/// The sheet coloured by penetration depth: its toggle, scale and deepest vertex.
fn depth_section(
    view: &mut ClothView,
    ui: &mut Ui,
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    rays: &[recorded::RayRow],
    half_thickness_m: f64,
) {
    ui.strong("Penetration depth");
    if ui
        .checkbox(&mut view.toggles.heatmap, "Colour the sheet by depth")
        .changed()
        && view.toggles.heatmap
    {
        view.toggles.gate_map = false;
    }
    let Some(sheet) = sheet else {
        return;
    };
    let depths = heat::depths(cx, sheet, rays);
    let max = heat::scale_max(&depths, half_thickness_m);
    heat::legend(ui, max);
    let deepest = depths
        .iter()
        .enumerate()
        .filter(|(_, d)| **d > 0.0)
        .max_by(|a, b| a.1.total_cmp(b.1));
    match deepest {
        Some((v, d)) => {
            ui.horizontal(|ui| {
                ui.label(format!("Deepest: vertex {v}, {:.1} mm", d * 1000.0));
                if ui.small_button("show").clicked() {
                    view.picked = Some(v as u32);
                    view.refocus += 1;
                }
            });
        }
        None => {
            ui.label("No vertex penetrates in this frame.");
        }
    }
    prose(
        ui,
        RichText::new(
            "Depth of a vertex: how far its deepest collision ray says it must move to \
             clear the shell (shell minus the re-projected ray length, or the way out \
             plus the shell when it is inside a body).",
        )
        .small()
        .weak(),
    );
}

/// "lost ray ▶", on its own row (the step row is full): the frame's next failed walk.
fn lost_ray_row(
    ui: &mut Ui,
    cx: &FamilyContext,
    rays: &[recorded::RayRow],
    out: &mut Vec<Command>,
) {
    let lost: Vec<usize> = rays
        .iter()
        .filter(|r| r.kind == RayKind::Lost)
        .map(|r| r.event)
        .collect();
    if lost.is_empty() {
        return;
    }
    let at = cx.event().map(|(i, _)| i);
    let next = lost.iter().find(|&&e| at.is_none_or(|a| e > a));
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{} lost rays in this frame", lost.len())).small());
        if ui
            .add_enabled(next.is_some(), egui::Button::new("lost ray ▶"))
            .on_hover_text("Step onto the frame's next ray whose walk failed")
            .clicked()
            && let Some(&e) = next
        {
            out.push(Command::SeekEvent(Some(e)));
        }
    });
}

fn step_view(
    ui: &mut Ui,
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    p: &crate::cloth::ClothParams,
    (inversions, rays): (&[InversionRow], &[recorded::RayRow]),
    out: &mut Vec<Command>,
) {
    ui.strong("Step through the trace");
    StepRow::new().with_keys_hint().show(ui, out, |ui, out| {
        let at = cx.event().map(|(i, _)| i);
        let events: Vec<usize> = inversions.iter().filter_map(|r| r.event).collect();
        let previous = events.iter().rev().find(|&&e| at.is_some_and(|a| e < a));
        let next = events.iter().find(|&&e| at.is_none_or(|a| e > a));
        if ui
            .add_enabled(previous.is_some(), egui::Button::new("◀ inversion"))
            .clicked()
            && let Some(&e) = previous
        {
            out.push(Command::SeekEvent(Some(e)));
        }
        if ui
            .add_enabled(next.is_some(), egui::Button::new("inversion ▶"))
            .clicked()
            && let Some(&e) = next
        {
            out.push(Command::SeekEvent(Some(e)));
        }
    });
    lost_ray_row(ui, cx, rays, out);
    match cx.event() {
        Some((i, e)) if recorded::cloth_event(e).is_some() => {
            let Some(ce) = recorded::cloth_event(e) else {
                return;
            };
            let total = cx.frame().map_or(0, |f| f.trace.len());
            ui.label(
                RichText::new(format!("Event {} of {total}", i + 1))
                    .small()
                    .weak(),
            );
            let color = match ce {
                ClothEvent::Ray { kind, .. }
                | ClothEvent::WalkedRay { kind, .. }
                | ClothEvent::VolumeRay { kind, .. } => palette::ray(*kind),
                ClothEvent::LostRay { .. } => palette::LOST,
                ClothEvent::Inversion { corrected, .. } => palette::inversion(*corrected),
            };
            describe(cx, sheet, p, i, ce).show_colored(ui, colors::egui(color));
        }
        _ => prose(
            ui,
            "Step through the events (or press \"inversion ▶\") to see one ray or one \
             inverted vertex at a time, drawn thick in the 3D view and explained here.",
        ),
    }
}

/// The iterative cast's gates (spec 002 §3.5) from the recorded cast memory: how many
/// clusters were cast completely this step, and the sheet coloured by how near each is to
/// its next complete cast.
fn gate_section(
    view: &mut ClothView,
    ui: &mut Ui,
    params: &crate::cloth::ClothParams,
    frame: &crate::cloth::ClothFrame,
) {
    ui.strong("Iterative-cast gate");
    if ui
        .checkbox(&mut view.toggles.gate_map, "Colour the sheet by gate fill")
        .changed()
        && view.toggles.gate_map
    {
        view.toggles.heatmap = false;
    }
    let threshold_mm = params.gate.threshold_m * 1000.0;
    heat::scale_bar(
        ui,
        format!(
            "0 … {:.1} … {threshold_mm:.1} mm (D_thr)",
            threshold_mm / 2.0
        ),
    );
    let counts = gate_map::counts(&frame.memory.accumulated_m);
    let text = if !params.iterative_cast {
        "The iterative cast is off: every ray is cast completely.".to_string()
    } else {
        format!(
            "{} of {} clusters were cast completely this step; the others walked from last \
             step's triangles.",
            counts.cast_completely, counts.clusters
        )
    };
    prose(ui, RichText::new(text).small());
    prose(
        ui,
        RichText::new(
            "Fill of a cluster: the displacement relative to its targets (bodies and, with \
             self-collision, nearby parts of the sheet) accumulated since its last complete \
             cast, against the gate's threshold D_thr. Slate: cast completely this step; \
             white: the next step casts completely.",
        )
        .small()
        .weak(),
    );
}

fn inverted_list(
    view: &mut ClothView,
    ui: &mut Ui,
    cx: &FamilyContext,
    inversions: &[InversionRow],
    out: &mut Vec<Command>,
) {
    let uncorrected = inversions.iter().filter(|r| !r.corrected).count();
    // A vertex may cross again in a later substep: count vertices, and say how many crossings.
    let vertices: std::collections::HashSet<u32> = inversions.iter().map(|r| r.vertex).collect();
    let mut notes = Vec::new();
    if inversions.len() > vertices.len() {
        notes.push(format!("{} crossings over the substeps", inversions.len()));
    }
    if uncorrected > 0 {
        notes.push(format!("{uncorrected} uncorrected"));
    }
    ui.strong(format!(
        "Inverted vertices in this frame: {}{}",
        vertices.len(),
        if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        }
    ));
    if inversions.is_empty() {
        prose(
            ui,
            RichText::new("None: no vertex went through a surface during this frame's steps.")
                .weak(),
        );
        return;
    }
    prose(
        ui,
        RichText::new(
            "A vertex that went through a triangle during the step. Click one to show it.",
        )
        .small()
        .weak(),
    );
    egui::ScrollArea::vertical()
        .id_salt("cloth-inversions")
        .max_height(180.0)
        .show(ui, |ui| {
            egui::Grid::new("cloth-inversion-grid")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    ui.label(RichText::new("vertex").small().strong());
                    ui.label(RichText::new("crossed triangle").small().strong());
                    ui.label(RichText::new("corrected?").small().strong());
                    ui.label(RichText::new("substeps").small().strong())
                        .on_hover_text("In how many of the frame's substeps it crossed");
                    ui.end_row();
                    for row in merge_crossings(inversions) {
                        let r = row.first;
                        let c = palette::inversion(row.corrected);
                        let selected = view.picked == Some(r.vertex);
                        if ui
                            .selectable_label(selected, rich(format!("v{}", r.vertex), c))
                            .on_hover_text("Select this vertex: step onto its inversion")
                            .clicked()
                        {
                            view.picked = Some(r.vertex);
                            view.refocus += 1;
                            if let Some(e) = r.event {
                                out.push(Command::SeekEvent(Some(e)));
                            }
                        }
                        ui.label(format!(
                            "tri {} of {}",
                            r.triangle,
                            target_name(cx, r.target)
                        ));
                        ui.label(match (row.corrected, row.promoted) {
                            (true, false) => "yes".into(),
                            (true, true) => "yes (promoted)".into(),
                            (false, _) => rich("NO", palette::UNCORRECTED).strong(),
                        });
                        ui.label(row.substeps.to_string());
                        ui.end_row();
                    }
                });
        });
}

/// The run's cloth markers (the engine marks the first inversion and each frame that left
/// one uncorrected): where to go.
fn run_markers(ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(session) = cx.session() else {
        return;
    };
    let ours = |k: &MarkerKind| matches!(k, MarkerKind::Other(s) if s == "first inverted vertex" || s == "uncorrected inversion");
    let first = session
        .markers()
        .all()
        .iter()
        .find(|m| matches!(&m.kind, MarkerKind::Other(s) if s == "first inverted vertex"));
    let uncorrected: Vec<usize> = session
        .markers()
        .all()
        .iter()
        .filter(|m| {
            ours(&m.kind)
                && !matches!(&m.kind, MarkerKind::Other(s) if s == "first inverted vertex")
        })
        .map(|m| m.frame)
        .collect();
    ui.horizontal_wrapped(|ui| match first {
        Some(m) => {
            ui.label(format!("First inversion of the run: frame {}", m.frame));
            if ui.small_button("go").clicked() {
                out.push(Command::SeekFrame(m.frame));
            }
        }
        None => {
            ui.label("No inversion in the run so far.");
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "Frames with uncorrected inversions: {}",
            uncorrected.len()
        ));
        let now = cx.state.playhead.frame;
        if let Some(&f) = uncorrected
            .iter()
            .find(|&&f| f > now)
            .or(uncorrected.first())
            && ui.small_button(format!("go to {f}")).clicked()
        {
            out.push(Command::SeekFrame(f));
        }
    });
}

fn ray_section(
    view: &mut ClothView,
    ui: &mut Ui,
    rays: &[recorded::RayRow],
    frame: &crate::cloth::ClothFrame,
) {
    let mut total = [0usize; 5];
    let mut reasons = [0usize; 3];
    let mut stops = std::collections::BTreeMap::new();
    let mut walked = 0;
    for r in rays {
        total[kind_index(r.kind)] += 1;
        walked += (r.iterative && r.kind != RayKind::Lost) as usize;
        match r.reason {
            Some(RejectReason::LongerWayOut) => reasons[0] += 1,
            Some(RejectReason::TooFar) => reasons[1] += 1,
            Some(RejectReason::NoHit) => reasons[2] += 1,
            None => {}
        }
        if let Some(stop) = r.walk.and_then(|w| w.stop) {
            *stops.entry(format!("{stop:?}")).or_insert(0usize) += 1;
        }
    }
    ui.strong(format!("Rays of the frame's last step: {}", rays.len()));
    for (kind, flag) in [
        (RayKind::Collision, &mut view.toggles.collision),
        (RayKind::Prediction, &mut view.toggles.prediction),
        (RayKind::Rejected, &mut view.toggles.rejected),
        (RayKind::Lost, &mut view.toggles.lost),
        (RayKind::Culled, &mut view.toggles.culled),
    ] {
        let k = kind_index(kind);
        let mut text = format!("{} {}", palette::kind_word(kind), total[k]);
        let stride = total[k].div_ceil(super::draw::RAY_CAP);
        if *flag && stride > 1 {
            text.push_str(&format!(
                " (1 in {stride} drawn: over the cap of {})",
                super::draw::RAY_CAP
            ));
        }
        let hover = match kind {
            RayKind::Lost => "Walks from last step's triangle that found none (§3.4.5)",
            RayKind::Culled => {
                "Vertices outside a body's box grown by d_pred: no ray cast (Hermann's culling)"
            }
            _ => "Show or hide these rays in the 3D view",
        };
        ui.checkbox(
            flag,
            rich(
                text,
                crate::app::views::colors::with_alpha(palette::ray(kind), 1.0),
            ),
        )
        .on_hover_text(hover);
    }
    if total[2] > 0 {
        ui.label(
            RichText::new(format!(
                "why rejected: {} the longer way out of a body, {} too far, {} no hit",
                reasons[0], reasons[1], reasons[2]
            ))
            .small(),
        );
    }
    if !stops.is_empty() {
        let words: Vec<String> = stops.iter().map(|(k, n)| format!("{n} {k}")).collect();
        ui.label(RichText::new(format!("why lost: {}", words.join(", "))).small());
    }
    ui.checkbox(
        &mut view.toggles.walks,
        rich(
            format!("walk paths of the {walked} walked rays"),
            palette::WALK,
        ),
    )
    .on_hover_text(
        "The triangles each walked ray crossed from last step's hit (the picked vertex's \
         and the ray stepped onto are always drawn)",
    );
    let mut work = format!(
        "walked from last step's triangle: {walked} of {}; over all substeps the frame cast \
         {} rays in full and walked {}",
        rays.len(),
        frame.full_casts,
        frame.iterative_casts
    );
    // Tests are only counted when asked for (the bench): zero means "not counted".
    if frame.ray_triangle_tests > 0 {
        work.push_str(&format!(
            ", {} ray–triangle tests",
            frame.ray_triangle_tests
        ));
    }
    prose(ui, RichText::new(work).small().weak());
}

/// The bodies' rays against the sheet (volume → cloth), when the scene casts them.
fn volume_section(view: &mut ClothView, ui: &mut Ui, trace: &[crate::trace::TraceEvent]) {
    let rows = recorded::volume_rays(trace);
    if rows.is_empty() {
        return;
    }
    let count = |k: RayKind| rows.iter().filter(|r| r.kind == k).count();
    ui.checkbox(
        &mut view.toggles.volume,
        format!(
            "bodies' rays at the sheet (volume → cloth): {} collision, {} prediction, {} \
             rejected",
            count(RayKind::Collision),
            count(RayKind::Prediction),
            count(RayKind::Rejected)
        ),
    )
    .on_hover_text("Rays from the vertices of closed bodies near the sheet (§4.3 a)");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloth::mesh::GridSpec;
    use crate::cloth::mesh_piece::PieceInput;
    use crate::geom::{Point3, Vec3};

    /// A cloth of a grid sheet and a mesh piece: the header names both and the whole.
    #[test]
    fn the_header_says_what_a_mixed_cloth_is_made_of() {
        let sheet = GridSpec {
            columns: 3,
            rows: 3,
            corner: Point3::origin(),
            u: Vec3::new(1.0, 0.0, 0.0),
            v: Vec3::new(0.0, 0.0, 1.0),
        };
        let piece = PieceInput {
            name: "tri.obj".into(),
            positions: vec![
                Point3::new(0.0, 1.0, 0.0),
                Point3::new(1.0, 1.0, 0.0),
                Point3::new(0.0, 1.0, 1.0),
            ],
            triangles: vec![[0, 1, 2]],
            ..Default::default()
        };
        let (mesh, _) = ClothMesh::build(&[sheet], &[piece]).unwrap();
        assert_eq!(
            made_of(7, &mesh, &["3 × 3".into()]),
            "Cloth of frame 7: sheet of 3 × 3; mesh piece tri.obj: 3 vertices, 1 triangles \
             (12 vertices, 9 triangles in all)"
        );
    }
}
