//! The 3D view: three-d draws inside eframe's GL context through a paint callback. Mouse:
//! drag to orbit, right/middle-drag (or Shift+drag) to pan, wheel to zoom, click to pick,
//! double-click to frame. Without a GL context (headless tests) it shows a placeholder and
//! still builds its draw list, so everything but the pixels is exercised.

pub mod camera;
pub mod draw_list;
pub mod gpu;
pub mod label_layout;
pub mod shaders;

use crate::app::families::{Drag, FamilyBody, ShownOverlay, count_family_bodies};
use crate::app::state::catalog::BodyCatalog;
use crate::app::state::{AppState, Command};
use crate::app::views::{self, ViewContext, ViewOptions, colors};
use crate::geom::{Pose, Ray};
use camera::OrbitCamera;
use draw_list::DrawList;
use eframe::egui_glow;
use egui::{Color32, Pos2, Rect, Sense, Vec2};
use nalgebra::{Point3, Vector3};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// Why the 3D renderer could not start, shown in place of the view.
static RENDER_ERROR: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    // The renderer lives on the GL thread, created from the painter's context on first use.
    static RENDERER: RefCell<Option<gpu::GpuRenderer>> = const { RefCell::new(None) };
}

pub struct ViewportUi {
    pub camera: OrbitCamera,
    list: Arc<DrawList>,
    list_key: u64,
    framed_generation: u64,
    /// Time spent building the last draw list, for the status bar.
    pub build_ms: f32,
    /// The shown family view's geometry, merged into the list.
    pub overlay: Option<ShownOverlay>,
    /// The last click in the view, for the shell to resolve (a family's pick, else a body).
    click: Option<Click>,
    /// The last Ctrl + drag motion, for the shown family view (see `take_drag`).
    drag: Option<Drag>,
    /// The pointer's ray at the drag's previous frame.
    drag_ray: Option<Ray>,
    /// The pointer's ray while it is over the view.
    hover: Option<Ray>,
}

/// A click in the 3D view: its pick ray and the body under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Click {
    pub ray: Ray,
    pub body: Option<u32>,
}

impl Default for ViewportUi {
    fn default() -> Self {
        Self {
            camera: OrbitCamera::default(),
            list: Arc::new(DrawList::default()),
            list_key: 0,
            framed_generation: u64::MAX,
            build_ms: 0.0,
            overlay: None,
            click: None,
            drag: None,
            drag_ray: None,
            hover: None,
        }
    }
}

/// Everything the draw list depends on, hashed: the list is rebuilt only when it changes.
fn list_key(state: &AppState, options: &ViewOptions) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    state.session_generation.hash(&mut h);
    state.playhead.hash_fields(&mut h);
    state.selection.hash(&mut h);
    options.hash(&mut h);
    state.frame_count().hash(&mut h);
    state
        .compare
        .as_ref()
        .map(|c| (c.generation, c.b.path.clone()))
        .hash(&mut h);
    h.finish()
}

impl crate::app::state::Playhead {
    fn hash_fields(&self, h: &mut impl Hasher) {
        self.frame.hash(h);
        self.event.hash(h);
    }
}

/// A point of the view in normalised device coordinates (y up).
fn ndc_of(rect: Rect, p: Pos2) -> [f64; 2] {
    [
        ((p.x - rect.left()) / rect.width() * 2.0 - 1.0) as f64,
        (1.0 - (p.y - rect.top()) / rect.height() * 2.0) as f64,
    ]
}

/// Without a renderer: the background and why there is no 3D view.
fn paint_placeholder(
    ui: &egui::Ui,
    painter: &egui::Painter,
    rect: Rect,
    state: &AppState,
    clear: [f32; 4],
) {
    painter.rect_filled(rect, 0.0, colors::egui(clear));
    let text = if let (None, Some(l)) = (&state.session, &state.listening) {
        format!(
            "Listening on {}: waiting for an engine to stream its run (docs/capture-stream.md)",
            l.addr
        )
    } else if state.session.is_none() {
        "Nothing open: pick a built-in scene, open a file, or drop one here".to_string()
    } else {
        "3D view unavailable: no OpenGL context (headless run).\nThe scene is loaded; panels, timeline and plots work."
            .to_string()
    };
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(15.0),
        ui.visuals().weak_text_color(),
    );
}

impl ViewportUi {
    pub fn draw_list(&self) -> &Arc<DrawList> {
        &self.list
    }

    /// Rebuilds the draw list if anything it shows changed; returns true when it did.
    pub fn refresh(&mut self, state: &AppState, options: &ViewOptions) -> bool {
        let key = list_key(state, options) ^ self.overlay.as_ref().map_or(0, |o| o.key);
        if key == self.list_key {
            return false;
        }
        let started = std::time::Instant::now();
        self.list_key = key;
        let (Some(session), Some(frame)) = (&state.session, state.current_frame()) else {
            self.list = Arc::new(DrawList::default());
            return true;
        };
        let radius = views::scene_radius(frame, &session.catalog);
        let ctx = ViewContext {
            frame,
            catalog: &session.catalog,
            selection: state.selection,
            event: state.current_event(),
            options,
            penetration_tolerance_m: session.scene.solver.penetration_tolerance_m,
            scene_radius: radius,
            ghost_bodies: self.overlay.as_ref().is_some_and(|o| o.ghost_bodies),
        };
        let mut list = views::build_draw_list(&ctx);
        if let Some(shown) = state.compare.as_ref().and_then(|c| c.shown.as_ref())
            && shown.a_pos == state.playhead.frame
        {
            views::compare_ghost::draw(frame, shown, &session.catalog, &mut list);
        }
        if let Some(o) = &self.overlay {
            list.merge(&o.list);
        }
        self.list = Arc::new(list);
        self.build_ms = started.elapsed().as_secs_f32() * 1e3;
        if self.framed_generation != state.session_generation {
            self.framed_generation = state.session_generation;
            self.frame_all(state);
        }
        true
    }

    pub fn frame_all(&mut self, state: &AppState) {
        let (Some(session), Some(frame)) = (&state.session, state.current_frame()) else {
            return;
        };
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        // The moving bodies are what one looks at; a big fixed floor would make them tiny.
        let fixed = |id: u32| session.catalog.body(id).is_some_and(|i| i.fixed);
        let any_dynamic = frame.bodies.iter().any(|b| !fixed(b.id));
        for b in frame.bodies.iter().filter(|b| !any_dynamic || !fixed(b.id)) {
            let r = session
                .catalog
                .mesh_of(b.id)
                .map_or(0.5, |m| m.radius as f64);
            let p = b.position.coords;
            if p.iter().all(|c| c.is_finite()) {
                lo = lo.inf(&(p - Vector3::repeat(r)));
                hi = hi.sup(&(p + Vector3::repeat(r)));
            }
        }
        // What the families simulate besides (a BSP level and its walker, a cloth) is on
        // screen too, and may be all there is.
        for b in self.family_bodies().iter() {
            let c = Vector3::from(b.focus.center);
            let r = Vector3::repeat(b.focus.radius);
            lo = lo.inf(&(c - r));
            hi = hi.sup(&(c + r));
        }
        if lo.x.is_finite() {
            let c = (lo + hi) / 2.0;
            self.camera
                .frame_sphere([c.x, c.y, c.z], ((hi - lo) / 2.0).norm());
        }
    }

    /// The families' bodies of the frame shown (see `FamilyBody`).
    pub fn family_bodies(&self) -> Arc<Vec<FamilyBody>> {
        self.overlay
            .as_ref()
            .map_or_else(Default::default, |o| o.bodies.clone())
    }

    pub fn frame_selected(&mut self, state: &AppState) {
        let (Some(session), Some(frame)) = (&state.session, state.current_frame()) else {
            return;
        };
        let bodies = state.selection.bodies();
        if bodies.is_empty() {
            self.frame_all(state);
            return;
        }
        let mut center = Vector3::zeros();
        let mut n = 0.0;
        for &id in &bodies {
            if let Some(b) = frame.body(id) {
                center += b.position.coords;
                n += 1.0;
            }
        }
        if n == 0.0 {
            return;
        }
        center /= n;
        let radius = bodies
            .iter()
            .filter_map(|&id| {
                let b = frame.body(id)?;
                let r = session.catalog.mesh_of(id).map_or(0.5, |m| m.radius as f64);
                Some((b.position.coords - center).norm() + r)
            })
            .fold(0.1, f64::max);
        self.camera
            .frame_sphere([center.x, center.y, center.z], radius);
    }

    /// The pick ray through a point of the view (in NDC).
    pub fn ray(&self, ndc: [f64; 2], aspect: f64) -> Ray {
        let (origin, dir) = self.camera.ray(ndc[0], ndc[1], aspect);
        Ray::new(origin, dir)
    }

    /// The last click in the view (taken once).
    /// The pointer's ray while it is over the 3D view.
    pub fn hover_ray(&self) -> Option<Ray> {
        self.hover
    }

    pub fn take_click(&mut self) -> Option<Click> {
        self.click.take()
    }

    /// The last Ctrl + drag motion in the view (taken once), for the shown family view.
    pub fn take_drag(&mut self) -> Option<Drag> {
        self.drag.take()
    }

    /// The body under a point of the view (in NDC), by the engine's pick ray.
    pub fn pick(&self, state: &AppState, ndc: [f64; 2], aspect: f64) -> Option<u32> {
        let (session, frame) = (state.session.as_ref()?, state.current_frame()?);
        let ray = self.ray(ndc, aspect);
        let catalog: &BodyCatalog = &session.catalog;
        let bodies = frame.bodies.iter().filter_map(|b| {
            let shape = catalog.shapes.get(b.id as usize)?;
            Some((
                b.id,
                shape,
                Pose::from_parts(b.position.coords.into(), b.rotation),
            ))
        });
        crate::world::pick::pick(&ray, bodies).map(|h| h.body)
    }

    /// The panel: the 3D view (or its placeholder), its input, labels and head-up text.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        gl_available: bool,
        dark: bool,
    ) -> Vec<Command> {
        let commands = Vec::new();
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "3D view"));
        let response = response.on_hover_text(
            "3D view — drag: orbit · right/middle or Shift+drag: pan · wheel: zoom · click: select · \
             double-click: frame the body · Ctrl+drag: move what the family view offers · \
             F: frame selected · H: frame all",
        );
        let aspect = (rect.width() / rect.height().max(1.0)) as f64;
        self.camera_input(ui, &response, rect);
        self.pointer_input(ui, &response, rect, state, aspect);

        let painter = ui.painter_at(rect);
        let clear = if dark {
            [0.105, 0.11, 0.13, 1.0]
        } else {
            [0.86, 0.87, 0.9, 1.0]
        };
        if gl_available && state.session.is_some() {
            self.paint_3d(ui, rect, state, clear, aspect);
        } else {
            paint_placeholder(ui, &painter, rect, state, clear);
        }
        if let Some(err) = RENDER_ERROR.lock().ok().and_then(|e| e.clone()) {
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                format!("3D renderer failed: {err}"),
                egui::FontId::proportional(14.0),
                Color32::from_rgb(240, 90, 80),
            );
        }
        self.paint_labels(&painter, rect, aspect);
        self.paint_hud(&painter, rect, state, dark);
        commands
    }

    /// Orbit, pan and zoom from the mouse.
    fn camera_input(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
        let shift = ui.input(|i| i.modifiers.shift);
        // Ctrl + drag belongs to the shown family view (it moves what the view draws).
        let hand = ui.input(|i| i.modifiers.command);
        if response.dragged_by(egui::PointerButton::Primary) && !shift && !hand {
            let d = response.drag_delta();
            self.camera.orbit(-d.x as f64 * 0.008, d.y as f64 * 0.008);
        } else if response.dragged_by(egui::PointerButton::Secondary)
            || response.dragged_by(egui::PointerButton::Middle)
            || (response.dragged_by(egui::PointerButton::Primary) && shift)
        {
            let d = response.drag_delta();
            let h = rect.height().max(1.0) as f64;
            self.camera.pan(d.x as f64 / h, d.y as f64 / h);
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom((-scroll as f64 * 0.002).exp());
            }
        }
    }

    /// The pointer's rays for the shell and the family views: Ctrl + drag, hover and click;
    /// a double-click frames the body under it.
    fn pointer_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        state: &AppState,
        aspect: f64,
    ) {
        let hand = ui.input(|i| i.modifiers.command);
        if hand
            && response.dragged_by(egui::PointerButton::Primary)
            && let Some(pos) = response.interact_pointer_pos()
        {
            let now = self.ray(ndc_of(rect, pos), aspect);
            let start = self.drag_ray.is_none() || response.drag_started();
            let previous = if start {
                now
            } else {
                self.drag_ray.unwrap_or(now)
            };
            self.drag = Some(Drag {
                previous,
                now,
                start,
            });
            self.drag_ray = Some(now);
        } else if !response.dragged() {
            self.drag_ray = None;
        }
        self.hover = response
            .hover_pos()
            .map(|pos| self.ray(ndc_of(rect, pos), aspect));
        // The shell resolves the click (see `take_click`): a family view may take it.
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            self.click = Some(Click {
                ray: self.ray(ndc_of(rect, pos), aspect),
                body: self.pick(state, ndc_of(rect, pos), aspect),
            });
        }
        if response.double_clicked()
            && let Some(pos) = response.interact_pointer_pos()
            && let Some(id) = self.pick(state, ndc_of(rect, pos), aspect)
        {
            self.frame_body(state, id);
        }
    }

    pub fn frame_body(&mut self, state: &AppState, id: u32) {
        let (Some(session), Some(frame)) = (&state.session, state.current_frame()) else {
            return;
        };
        if let Some(b) = frame.body(id) {
            let r = session.catalog.mesh_of(id).map_or(0.5, |m| m.radius as f64);
            self.camera
                .frame_sphere([b.position.x, b.position.y, b.position.z], r);
        }
    }

    fn paint_3d(&self, ui: &egui::Ui, rect: Rect, state: &AppState, clear: [f32; 4], aspect: f64) {
        let Some(session) = &state.session else {
            return;
        };
        let list = self.list.clone();
        let catalog = session.catalog.clone();
        let cam = self.camera;
        let vp = cam.view_projection(aspect, list.scene_radius);
        let vp32: nalgebra::Matrix4<f32> = vp.cast();
        let eye = cam.eye();
        // The key light comes from over the viewer's left shoulder.
        let back = cam.back();
        let right = Vector3::new(cam.yaw.cos(), 0.0, -cam.yaw.sin());
        let light = (back * 0.7 + Vector3::y() * 0.8 - right * 0.35).normalize();
        let callback = egui_glow::CallbackFn::new(move |info, painter| {
            let gl = painter.gl();
            RENDERER.with(|cell| {
                let mut slot = cell.borrow_mut();
                if slot.is_none() {
                    match gpu::GpuRenderer::new(gl.clone()) {
                        Ok(r) => *slot = Some(r),
                        Err(e) => {
                            if let Ok(mut g) = RENDER_ERROR.lock() {
                                *g = Some(e);
                            }
                            return;
                        }
                    }
                }
                let Some(renderer) = slot.as_mut() else {
                    return;
                };
                let v = info.viewport_in_pixels();
                let c = info.clip_rect_in_pixels();
                let params = gpu::FrameParams {
                    view_projection: vp32.into(),
                    eye: [eye.x as f32, eye.y as f32, eye.z as f32],
                    light_dir: [light.x as f32, light.y as f32, light.z as f32],
                    viewport: three_d::Viewport {
                        x: v.left_px,
                        y: v.from_bottom_px,
                        width: v.width_px.max(1) as u32,
                        height: v.height_px.max(1) as u32,
                    },
                    // The clip rect is the panel's: keep the clear and the drawing inside the view.
                    scissor: {
                        let x0 = v.left_px.max(c.left_px);
                        let y0 = v.from_bottom_px.max(c.from_bottom_px);
                        let x1 = (v.left_px + v.width_px).min(c.left_px + c.width_px);
                        let y1 =
                            (v.from_bottom_px + v.height_px).min(c.from_bottom_px + c.height_px);
                        three_d::ScissorBox {
                            x: x0,
                            y: y0,
                            width: (x1 - x0).max(0) as u32,
                            height: (y1 - y0).max(0) as u32,
                        }
                    },
                    clear,
                };
                unsafe {
                    use eframe::glow::HasContext as _;
                    gl.bind_framebuffer(eframe::glow::FRAMEBUFFER, painter.intermediate_fbo());
                }
                renderer.sync_meshes(&catalog);
                renderer.render(&list, &params);
            });
        });
        ui.painter().add(egui::PaintCallback {
            rect,
            callback: Arc::new(callback),
        });
    }

    fn paint_labels(&self, painter: &egui::Painter, rect: Rect, aspect: f64) {
        let mut anchors = Vec::new();
        let mut galleys = Vec::new();
        let mut wanted = Vec::new();
        for label in &self.list.labels {
            let p = Point3::from(label.position);
            let Some([x, y]) = self.camera.project(&p, aspect, self.list.scene_radius) else {
                continue;
            };
            if x.abs() > 1.0 || y.abs() > 1.0 {
                continue;
            }
            let pos = Pos2::new(
                rect.left() + ((x + 1.0) / 2.0) as f32 * rect.width(),
                rect.top() + ((1.0 - y) / 2.0) as f32 * rect.height(),
            );
            let font = egui::FontId::proportional(13.0);
            let galley =
                painter.layout_no_wrap(label.text.clone(), font, colors::egui(label.color));
            wanted.push(
                egui::Align2::CENTER_BOTTOM
                    .anchor_size(pos, galley.size())
                    .expand(3.0),
            );
            anchors.push((pos, label.color));
            galleys.push(galley);
        }
        let placed = label_layout::place_labels(&wanted, rect);
        for (((r, want), galley), (anchor, color)) in
            placed.iter().zip(&wanted).zip(galleys).zip(anchors)
        {
            if r != want {
                // Moved off its point to stay readable: a leader line says whose it is.
                let end = if r.center().y < anchor.y {
                    r.center_bottom()
                } else {
                    r.center_top()
                };
                let stroke = egui::Stroke::new(1.0, colors::egui(color).gamma_multiply(0.8));
                painter.line_segment([anchor, end], stroke);
            }
            painter.rect_filled(*r, 3.0, Color32::from_black_alpha(150));
            painter.galley(r.min + Vec2::splat(3.0), galley, Color32::WHITE);
        }
    }

    fn paint_hud(&self, painter: &egui::Painter, rect: Rect, state: &AppState, dark: bool) {
        let Some(frame) = state.current_frame() else {
            return;
        };
        let family = self.family_bodies();
        let family = if family.is_empty() {
            String::new()
        } else {
            format!(" + {}", count_family_bodies(&family))
        };
        let mut text = format!(
            "frame {}   t = {:.3} s   {} bodies{family}   {} contacts   {} pairs",
            frame.index,
            frame.time_s,
            frame.bodies.len(),
            frame.contacts.len(),
            frame.counters.broad_pairs
        );
        if let Some((i, e)) = state.current_event() {
            text.push_str(&format!(
                "\nevent {} / {}: {}",
                i + 1,
                frame.trace.len(),
                e.summary()
            ));
        }
        let color = if dark {
            Color32::from_gray(225)
        } else {
            Color32::from_gray(30)
        };
        let galley = painter.layout(
            text,
            egui::FontId::monospace(12.0),
            color,
            rect.width() - 20.0,
        );
        let r =
            Rect::from_min_size(rect.left_top() + Vec2::new(8.0, 8.0), galley.size()).expand(5.0);
        let bg = if dark {
            Color32::from_black_alpha(140)
        } else {
            Color32::from_white_alpha(170)
        };
        painter.rect_filled(r, 4.0, bg);
        painter.galley(r.min + Vec2::splat(5.0), galley, color);
        if let Some(c) = &state.compare {
            let legend = compare_legend(c, state.playhead.frame, color);
            let galley = painter.layout_job(legend);
            let l = Rect::from_min_size(r.left_bottom() + Vec2::new(5.0, 9.0), galley.size())
                .expand(5.0);
            painter.rect_filled(l, 4.0, bg);
            painter.galley(l.min + Vec2::splat(5.0), galley, color);
        }
    }
}

/// What the colours of a comparison mean, so the view reads without the README.
fn compare_legend(
    c: &crate::app::state::compare::Compare,
    frame: usize,
    text: Color32,
) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::default();
    let mut add = |s: &str, color: Color32| {
        job.append(
            s,
            0.0,
            egui::TextFormat::simple(egui::FontId::proportional(14.0), color),
        );
    };
    add("A  solid     ", text);
    add("B  violet ghost     ", colors::egui(colors::RUN_B));
    let shown = c.shown.as_ref().filter(|s| s.a_pos == frame);
    match shown {
        Some(s) if !s.differing.is_empty() => add(
            &format!(
                "≠ red: what differs at this frame ({} bodies)",
                s.differing.len()
            ),
            colors::egui(colors::DIFFERS),
        ),
        Some(s) if s.problem.is_some() => add("B has no such frame", text),
        _ => add("the runs agree at this frame", colors::egui(colors::NORMAL)),
    }
    job
}
