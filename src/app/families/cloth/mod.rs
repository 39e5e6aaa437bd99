//! The cloth view: what the ray-traced narrow phase saw on a sheet (spec 002 §3–§4). The 3D
//! view draws the sheet coloured by penetration depth, every ray coloured by kind (collision,
//! prediction, rejected; capped when there are thousands) and each inverted vertex with the
//! triangle it went through, ringed and outlined over everything. The panel lists the frame's
//! inverted vertices (click one to step onto it), counts the rays and why they were rejected,
//! explains the event under the step scrubber and shows the detection's parameters.
//!
//! - [`statics`]: the sheet's grid and the obstacles, rebuilt from the recorded scene;
//! - [`recorded`]: one frame's rays and inversions with their trace indices, ids to points;
//! - [`draw`], [`heat`], [`palette`]: the 3D view and its colours;
//! - [`panel`], [`params`], [`describe`]: the side panel and the inspector;
//! - [`pick`]: a click to a vertex; [`screenshot`].

pub mod body_rays;
pub mod crossings;
pub mod describe;
pub mod draw;
pub mod gate_map;
pub mod heat;
pub mod palette;
pub mod panel;
pub mod params;
pub mod pick;
pub mod recorded;
mod screenshot;
pub mod statics;
pub mod walks;
pub mod switches;

use super::{EventMark, FamilyBody, FamilyContext, FamilyView, Focus, OutlinerGroup, OutlinerRow, Overlay};
use crate::app::state::Command;
use crate::app::viewport::draw_list::{DrawList, Label};
use crate::cloth::{ClothEvent, RayKind};
use crate::geom::{Point3, Ray};
use crate::trace::TraceEvent;
use recorded::Sheet;
use statics::StaticsCache;

/// Rows of inverted vertices the outliner lists at most.
const OUTLINER_ROWS: usize = 30;

#[derive(Default)]
pub struct ClothView {
    pub statics: StaticsCache,
    /// The vertex the reader picked (in the list or the 3D view): ringed, its rays drawn
    /// whatever the cap, the camera on it.
    pub picked: Option<u32>,
    pub toggles: draw::Toggles,
    /// What the last overlay drew, for the panel's cap notice.
    pub drawn: draw::Drawn,
    /// Bumped to frame the picked vertex again.
    pub refocus: u64,
    /// The switches as edited in the panel, with the session generation they belong to.
    pub switch_edits: crate::app::families::switch_edits::SwitchEdits<crate::cloth::ClothParams>,
}

impl ClothView {
    /// The walks' paths the toggles ask for (the picked vertex's always) and the bodies' rays
    /// at the sheet; returns those rays, for the event stepped onto.
    fn walks_and_body_rays(
        &self,
        cx: &FamilyContext,
        sheet: &Sheet,
        rays: &[recorded::RayRow],
        trace: &[TraceEvent],
        list: &mut DrawList,
    ) -> Vec<recorded::VolumeRayRow> {
        let shown = |r: &&recorded::RayRow| {
            r.walk.is_some()
                && ((self.toggles.walks && self.toggles.shows(r.kind))
                    || self.picked == Some(r.vertex))
        };
        let mut walks = walks::Retracer::new(cx, sheet);
        for r in rays.iter().filter(shown) {
            walks.draw(r, false, list);
        }
        let volume_rays = recorded::volume_rays(trace);
        if self.toggles.volume {
            body_rays::draw(cx, sheet, &volume_rays, self.toggles.rejected, list);
        }
        volume_rays
    }
}

impl FamilyView for ClothView {
    fn family(&self) -> &'static str {
        <crate::cloth::ClothFamily as crate::family::EngineFamily>::NAME
    }

    /// Only where the scene carries the family's data.
    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.has_data(self.family())
    }

    fn title(&self) -> &'static str {
        "Cloth rays"
    }

    fn about(&self) -> &'static str {
        "Cloth: rays by kind, inverted vertices with the triangle they crossed, penetration depth"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.9, 0.55, 0.35, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        panel::show(self, ui, cx, out);
    }

    fn scene_bodies(&mut self, cx: &FamilyContext, list: &mut DrawList) {
        if let Some(statics) = self.statics.get(cx)
            && let Some(frame) = recorded::cloth_frame(cx)
            && let Some(sheet) = Sheet::new(&statics, frame)
        {
            draw::sheet(&sheet, None, true, list);
        }
    }

    fn family_bodies(&mut self, cx: &FamilyContext, out: &mut Vec<FamilyBody>) {
        if let Some(frame) = recorded::cloth_frame(cx) {
            out.extend(FamilyBody::around("cloth", frame.positions.iter().copied()));
        }
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        let Some(statics) = self.statics.get(cx) else {
            return;
        };
        let Some(frame) = recorded::cloth_frame(cx) else {
            return;
        };
        let Some(sheet) = Sheet::new(&statics, frame) else {
            return;
        };
        let trace = cx.frame().map_or(&[][..], |f| &f.trace[..]);
        let rays = recorded::rays(trace);
        let inversions = recorded::inversions(frame, trace);
        let params = &statics.scene.params;
        let depths = if self.toggles.gate_map {
            Some((
                gate_map::fills(&statics.mesh, params, &frame.memory.accumulated_m),
                1.0,
            ))
        } else {
            self.toggles.heatmap.then(|| {
                let d = heat::depths(cx, &sheet, &rays);
                let max = heat::scale_max(&d, params.half_thickness_m);
                (d, max)
            })
        };
        let heat = depths
            .as_ref()
            .filter(|(d, _)| !d.is_empty())
            .map(|(d, max)| (&d[..], *max));
        draw::sheet(&sheet, heat, !self.toggles.gate_map, &mut out.list);
        let current = cx
            .event()
            .and_then(|(i, e)| recorded::cloth_event(e).map(|c| (i, c)));
        let emphasised = match current {
            Some((_, ClothEvent::Inversion { vertex, .. })) => Some(*vertex),
            _ => self.picked,
        };
        self.drawn = draw::rays(&sheet, &rays, &self.toggles, self.picked, &mut out.list);
        let volume_rays = self.walks_and_body_rays(cx, &sheet, &rays, trace, &mut out.list);
        draw::inversions(
            cx,
            &sheet,
            &inversions,
            emphasised,
            self.toggles.inversions,
            &mut out.list,
        );
        let edge = statics.mesh.mean_edge_m();
        let mut frame_on: Vec<Point3> = Vec::new();
        match current {
            Some((
                i,
                ClothEvent::Ray { .. } | ClothEvent::WalkedRay { .. } | ClothEvent::LostRay { .. },
            )) => {
                if let Some(r) = rays.iter().find(|r| r.event == i) {
                    frame_on = draw::current_ray(
                        cx,
                        &sheet,
                        r,
                        params.prediction_distance_m,
                        &mut out.list,
                    );
                    walks::Retracer::new(cx, &sheet).draw(r, true, &mut out.list);
                }
            }
            Some((i, ClothEvent::VolumeRay { .. })) => {
                if let Some(r) = volume_rays.iter().find(|r| r.event == i) {
                    frame_on = body_rays::current(cx, &sheet, r, &mut out.list);
                }
            }
            Some((
                _,
                ClothEvent::Inversion {
                    vertex,
                    target,
                    triangle,
                    ..
                },
            )) => {
                frame_on.extend(sheet.vertex(*vertex));
                if let Some(tri) = sheet.triangle(cx, *target, *triangle) {
                    frame_on.extend(tri);
                }
            }
            None => {}
        }
        if let Some(v) = self.picked
            && let Some(p) = sheet.vertex(v)
        {
            out.list.point(&p, 16.0, [1.0, 1.0, 1.0, 1.0]);
            // An inverted vertex is named by its inversion's label already.
            let named = inversions.iter().any(|r| r.vertex == v) && emphasised == Some(v);
            if !named {
                out.list.labels.push(Label {
                    position: (p + sheet.normals[v as usize] * edge * 1.6).into(),
                    text: format!("picked v{v}"),
                    color: [1.0, 1.0, 1.0, 1.0],
                });
            }
            if frame_on.is_empty() {
                frame_on.push(p);
            }
        }
        let points: Vec<[f64; 3]> = frame_on.iter().map(|p| (*p).into()).collect();
        out.focus = Focus::around(&points, edge * 2.5);
        out.ghost_bodies = self.toggles.fade_bodies;
    }

    fn overlay_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.picked, self.toggles, self.refocus).hash(&mut h);
        h.finish()
    }

    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        index: usize,
        event: &TraceEvent,
    ) {
        let Some(e) = recorded::cloth_event(event) else {
            return;
        };
        let statics = self.statics.get(cx);
        let params = statics
            .as_ref()
            .map(|s| *s.scene.params)
            .unwrap_or_default();
        let sheet = statics
            .as_ref()
            .zip(recorded::cloth_frame(cx))
            .and_then(|(s, f)| Sheet::new(s, f));
        describe::describe(cx, sheet.as_ref(), &params, index, e).show(ui);
    }

    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let frame = recorded::cloth_frame(cx)?;
        let trace = cx.frame().map_or(&[][..], |f| &f.trace[..]);
        let rows = recorded::inversions(frame, trace);
        if rows.is_empty() {
            return None;
        }
        let at = cx.event().map(|(i, _)| i);
        Some(OutlinerGroup {
            title: format!("Inverted vertices ({})", rows.len()),
            rows: rows
                .iter()
                .filter(|r| r.event.is_some())
                .take(OUTLINER_ROWS)
                .map(|r| OutlinerRow {
                    text: format!(
                        "v{} → tri {} of {}{}",
                        r.vertex,
                        r.triangle,
                        recorded::target_name(cx, r.target),
                        if r.corrected { "" } else { " · uncorrected" }
                    ),
                    hover: "Step onto this inversion".into(),
                    selected: r.event.is_some() && r.event == at,
                    command: Command::SeekEvent(r.event),
                })
                .collect(),
        })
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let Some(frame) = recorded::cloth_frame(cx) else {
            return;
        };
        let trace = cx.frame().map_or(&[][..], |f| &f.trace[..]);
        for r in recorded::rays(trace).iter().filter(|r| r.kind == RayKind::Lost) {
            out.push(EventMark {
                event: r.event,
                color: palette::LOST,
                text: format!("lost ray of vertex {}: its walk found no triangle", r.vertex),
            });
        }
        for r in recorded::inversions(frame, trace) {
            let Some(event) = r.event else { continue };
            out.push(EventMark {
                event,
                color: palette::inversion(r.corrected),
                text: format!(
                    "vertex {} inverted through triangle {}{}",
                    r.vertex,
                    r.triangle,
                    if r.corrected {
                        ""
                    } else {
                        ", left uncorrected"
                    }
                ),
            });
        }
    }

    fn click(&mut self, cx: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        let statics = self.statics.get(cx)?;
        let frame = recorded::cloth_frame(cx)?;
        let sheet = Sheet::new(&statics, frame)?;
        let trace = cx.frame().map_or(&[][..], |f| &f.trace[..]);
        let inversions = recorded::inversions(frame, trace);
        let v = pick::vertex_under(&sheet, &inversions, ray)?;
        self.picked = Some(v);
        let event = inversions
            .iter()
            .find(|r| r.vertex == v)
            .and_then(|r| r.event);
        Some(
            event
                .map(|e| Command::SeekEvent(Some(e)))
                .into_iter()
                .collect(),
        )
    }

    fn save_settings(&self) -> Option<String> {
        ron::to_string(&self.toggles).ok()
    }

    fn load_settings(&mut self, text: &str) {
        if let Ok(t) = ron::from_str(text) {
            self.toggles = t;
        }
    }

    fn prepare_screenshot(&mut self, setup: &mut super::ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}
