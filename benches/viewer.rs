//! The viewer's own cost, measured on its real code paths without a window:
//!
//! - `viewer/ui_frame_1000_bodies`: one UI frame while playing a scene of 1,000 bodies and a
//!   100,352-triangle terrain: the playhead moves, so the draw list is rebuilt, every panel is
//!   laid out and egui tessellates; with `+gpu`, three-d then draws the frame into an offscreen
//!   target on the software GL (Mesa llvmpipe, through EGL) and waits for it.
//! - `viewer/idle_frame_1000_bodies`: the same UI frame with nothing changed (orbiting a paused
//!   frame): the draw list is reused.
//! - `viewer/seek_random_frame_100k`: seek to a random frame of a 100,000-frame recording and
//!   redraw it (decode, draw list, UI, and with `+gpu` the GPU draw).
//! - `viewer/draw_100k_boxes+gpu`: a frame whose trace overlay holds 100,000 boxes.
//!
//! Goal for each: at most 16 ms. Run: `cargo bench --bench viewer`.

use collidoscope::app::settings::Settings;
use collidoscope::app::state::Command;
use collidoscope::app::state::session::{Origin, Session};
use collidoscope::app::viewport::draw_list::DrawList;
use collidoscope::app::viewport::gpu::{FrameParams, GpuRenderer};
use collidoscope::app::views::TraceOverlay;
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::geom::{Aabb, Point3};
use collidoscope::record::{Frame, RecordingMeta, RecordingReader, RecordingWriter, WriterOptions};
use collidoscope::trace::{EventKind, NoProbe, Stage, TraceEvent, Verdict};
use collidoscope::world::{BodyDesc, ProceduralMesh, Scene, ShapeDesc, World, builtin_scene};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

const SIZE: [f32; 2] = [1600.0, 1000.0];

/// 1,000 bodies of every kind over a 100,352-triangle terrain.
fn big_scene() -> Scene {
    // Start from a built-in scene so new scene fields keep their defaults.
    let mut scene = builtin_scene("box-stack").unwrap();
    scene.name = "bench-1000".into();
    let mut terrain = BodyDesc::new(
        "terrain",
        ShapeDesc::Procedural(ProceduralMesh::Terrain {
            size: 60.0,
            cells: 224,
            amplitude: 1.5,
            seed: 7,
        }),
        [0.0, -3.0, 0.0],
    )
    .fixed();
    terrain.color = Some([0.45, 0.5, 0.45]);
    scene.bodies = vec![terrain];
    for i in 0..1000 {
        let (x, y, z) = ((i % 10) as f64, ((i / 10) % 10) as f64, (i / 100) as f64);
        let shape = match i % 4 {
            0 => ShapeDesc::Sphere {
                radius: 0.3 + 0.02 * (i % 5) as f64,
            },
            1 => ShapeDesc::Box {
                half_extents: [0.3, 0.25, 0.35],
            },
            2 => ShapeDesc::Capsule {
                radius: 0.2,
                half_height: 0.3,
            },
            _ => ShapeDesc::ConvexHull {
                points: (0..10)
                    .map(|k| {
                        let a = k as f64 * 2.4;
                        let h = (k as f64 / 9.0) * 2.0 - 1.0;
                        let r = (1.0 - h * h).sqrt() * 0.35;
                        [r * a.cos(), h * 0.35, r * a.sin()]
                    })
                    .collect(),
            },
        };
        scene.bodies.push(BodyDesc::new(
            format!("body-{i}"),
            shape,
            [x * 1.4 - 6.3, 3.0 + y * 1.4, z * 1.4 - 6.3],
        ));
    }
    scene
}

fn ui_frame(ctx: &egui::Context, app: &mut CollidoscopeApp, time: f64) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SIZE.into())),
        time: Some(time),
        ..Default::default()
    };
    let out = ctx.run_ui(input, |ui| app.frame(ui));
    black_box(ctx.tessellate(out.shapes, out.pixels_per_point));
}

fn headless_app(session: Session) -> (egui::Context, CollidoscopeApp) {
    let ctx = egui::Context::default();
    let mut app = CollidoscopeApp::with_settings(
        ctx.clone(),
        Settings::default(),
        false,
        StartOptions::headless(),
    );
    app.state.install(session);
    while app.state.is_busy() {
        app.state.tick(0.0);
        std::thread::sleep(Duration::from_millis(20));
    }
    // Two frames to settle layout (panel sizes, fonts).
    ui_frame(&ctx, &mut app, 0.0);
    ui_frame(&ctx, &mut app, 0.1);
    (ctx, app)
}

/// A GL context on Mesa's software EGL device, current on this thread, with an offscreen
/// target: the same renderer the app uses, drawing the same lists.
struct OffscreenGl {
    renderer: GpuRenderer,
    color: three_d::Texture2D,
    depth: three_d::DepthTexture2D,
    _context: glutin::api::egl::context::PossiblyCurrentContext,
}

fn offscreen_gl() -> Result<OffscreenGl, String> {
    use glutin::api::egl::{device::Device, display::Display};
    use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
    use glutin::context::{ContextApi, ContextAttributesBuilder, Version};
    use glutin::prelude::*;
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let device = Device::query_devices()
        .map_err(|e| err(&e))?
        .next()
        .ok_or("no EGL device")?;
    let display = unsafe { Display::with_device(&device, None) }.map_err(|e| err(&e))?;
    let template = ConfigTemplateBuilder::new()
        .with_surface_type(ConfigSurfaceTypes::empty())
        .build();
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| err(&e))?
        .next()
        .ok_or("no EGL config")?;
    let attrs = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .build(None);
    let context = unsafe { display.create_context(&config, &attrs) }
        .map_err(|e| err(&e))?
        .make_current_surfaceless()
        .map_err(|e| err(&e))?;
    let gl = Arc::new(unsafe {
        eframe::glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s))
    });
    let renderer = GpuRenderer::new(gl)?;
    let ctx = renderer.context().clone();
    let (w, h) = (SIZE[0] as u32, SIZE[1] as u32);
    use three_d::{Interpolation, Wrapping};
    let color = three_d::Texture2D::new_empty::<[u8; 4]>(
        &ctx,
        w,
        h,
        Interpolation::Nearest,
        Interpolation::Nearest,
        None,
        Wrapping::ClampToEdge,
        Wrapping::ClampToEdge,
    );
    let depth = three_d::DepthTexture2D::new::<f32>(
        &ctx,
        w,
        h,
        Wrapping::ClampToEdge,
        Wrapping::ClampToEdge,
    );
    Ok(OffscreenGl {
        renderer,
        color,
        depth,
        _context: context,
    })
}

impl OffscreenGl {
    /// Draws the app's current draw list and waits for the GPU (the CPU, on llvmpipe).
    fn draw(&mut self, app: &CollidoscopeApp) {
        let Some(session) = &app.state.session else {
            return;
        };
        self.renderer.sync_meshes(&session.catalog);
        self.draw_list(app, app.viewport.draw_list().clone());
    }

    fn draw_list(&mut self, app: &CollidoscopeApp, list: Arc<DrawList>) {
        self.draw_list_sized(app, list, SIZE[0] as u32, SIZE[1] as u32);
    }

    fn draw_list_sized(&mut self, app: &CollidoscopeApp, list: Arc<DrawList>, w: u32, h: u32) {
        let cam = app.viewport.camera;
        let vp: nalgebra::Matrix4<f32> = cam
            .view_projection(w as f64 / h as f64, list.scene_radius)
            .cast();
        let eye = cam.eye();
        let params = FrameParams {
            view_projection: vp.into(),
            eye: [eye.x as f32, eye.y as f32, eye.z as f32],
            light_dir: [0.3, 0.9, 0.3],
            viewport: three_d::Viewport::new_at_origo(w, h),
            scissor: three_d::ScissorBox::new_at_origo(w, h),
            clear: [0.1, 0.1, 0.12, 1.0],
        };
        let target = three_d::RenderTarget::new(
            self.color.as_color_target(None),
            self.depth.as_depth_target(),
        );
        let renderer = &mut self.renderer;
        target
            .write(|| {
                renderer.render(&list, &params);
                Ok::<(), std::io::Error>(())
            })
            .unwrap();
        unsafe {
            use eframe::glow::HasContext as _;
            self.renderer.context().finish();
        }
    }
}

/// A 100,000-frame recording of the default scene, made once and kept under target/.
fn recording_100k() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join("viewer-100k.cdrec");
    if RecordingReader::open(&path).is_ok_and(|r| r.len() == 100_000 && r.recovery().is_none()) {
        return path;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let scene = builtin_scene("mixed-drop").unwrap();
    let mut world = World::new(scene.clone()).unwrap();
    let meta = RecordingMeta {
        scene_ron: scene.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let mut w = RecordingWriter::create(&path, meta, WriterOptions::default()).unwrap();
    w.write_frame(&world.initial_frame()).unwrap();
    for i in 1..100_000u32 {
        // Every 50th frame keeps its trace, as a debugging session would for some frames.
        let f = if i.is_multiple_of(50) {
            world.step_traced(5_000)
        } else {
            world.step(&mut NoProbe)
        };
        w.write_frame(&f).unwrap();
    }
    w.finish().unwrap();
    path
}

/// A deterministic stream of frame positions.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Whether criterion's name filter (the first argument that is not an option) may select
/// benchmarks of this part: parts that are not selected skip their (long) setup too.
fn wanted(part: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty()
        || filters
            .iter()
            .any(|f| part.contains(f.as_str()) || f.contains(part))
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn bench(c: &mut Criterion) {
    let mut gpu = match offscreen_gl() {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("viewer bench: no offscreen GL ({e}); GPU timings skipped");
            None
        }
    };
    let mut g = c.benchmark_group("viewer");
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    let mut t = 1.0;
    {
        let (ctx, mut app) = big_app();
        ui_frames(&mut g, &ctx, &mut app, gpu.as_mut(), &mut t);
        if let Some(gl) = gpu.as_mut() {
            overlay_boxes(&mut g, &app, gl);
        }
    }
    if wanted("seek_random_frame_100k") {
        seek_100k(&mut g, gpu.as_mut(), &mut t);
    }
    g.finish();
}

/// 1,000 bodies and a 100,000-triangle mesh, stepped a few frames.
fn big_app() -> (egui::Context, CollidoscopeApp) {
    let scene = big_scene();
    let mut session =
        Session::live(Origin::Builtin("bench-1000".into()), scene, 20_000, 1 << 30).unwrap();
    for _ in 0..8 {
        session.step().unwrap();
    }
    eprintln!(
        "scene: {} bodies, {} triangles drawn, {} distinct meshes",
        session.catalog.bodies.len(),
        session.catalog.triangle_count(),
        session.catalog.meshes.len()
    );
    headless_app(session)
}

fn ui_frames(
    g: &mut Group<'_>,
    ctx: &egui::Context,
    app: &mut CollidoscopeApp,
    mut gpu: Option<&mut OffscreenGl>,
    t: &mut f64,
) {
    let mut k = 0usize;
    g.bench_function("ui_frame_1000_bodies", |b| {
        b.iter(|| {
            k += 1;
            app.apply(Command::SeekFrame(1 + k % 8));
            *t += 0.016;
            ui_frame(ctx, app, *t);
        })
    });
    g.bench_function("idle_frame_1000_bodies", |b| {
        b.iter(|| {
            app.viewport.camera.orbit(0.001, 0.0);
            *t += 0.016;
            ui_frame(ctx, app, *t);
        })
    });
    if let Some(gl) = gpu.as_mut() {
        g.bench_function("ui_frame_1000_bodies+gpu", |b| {
            b.iter(|| {
                k += 1;
                app.apply(Command::SeekFrame(1 + k % 8));
                *t += 0.016;
                ui_frame(ctx, app, *t);
                gl.draw(app);
            })
        });
    }
}

/// 100,000 boxes in the trace overlay.
fn overlay_boxes(g: &mut Group<'_>, app: &CollidoscopeApp, gl: &mut OffscreenGl) {
    let boxes: Vec<TraceEvent> = (0..50_000)
        .map(|i| {
            let p = Point3::new(
                (i % 100) as f64 * 0.3 - 15.0,
                ((i / 100) % 50) as f64 * 0.3,
                (i / 5000) as f64 * 0.3,
            );
            let q = p + nalgebra::Vector3::repeat(0.2);
            TraceEvent::staged(
                Stage::BroadPhase,
                Verdict::Hit,
                EventKind::Broad(collidoscope::broad::BroadEvent::BroadPair {
                    a: 1,
                    b: 2,
                    box_a: Aabb::new(p, q),
                    box_b: Aabb::new(
                        p + nalgebra::Vector3::x() * 0.1,
                        q + nalgebra::Vector3::x() * 0.1,
                    ),
                }),
            )
        })
        .collect();
    let frame = Frame {
        trace: boxes,
        ..Default::default()
    };
    let catalog = app.state.session.as_ref().unwrap().catalog.clone();
    let options = collidoscope::app::views::ViewOptions {
        trace: TraceOverlay::WholeFrame,
        hidden_stages: vec![],
        ..Default::default()
    };
    let ctx_view = collidoscope::app::views::ViewContext {
        frame: &frame,
        catalog: &catalog,
        selection: collidoscope::app::state::Selection::None,
        event: None,
        options: &options,
        penetration_tolerance_m: 0.1,
        scene_radius: 30.0,
        ghost_bodies: false,
    };
    let list = Arc::new(collidoscope::app::views::build_draw_list(&ctx_view));
    eprintln!(
        "overlay: {} wire boxes",
        list.volume_count(
            collidoscope::app::viewport::draw_list::Template::Cube,
            collidoscope::app::viewport::draw_list::Style::Wire
        )
    );
    g.bench_function("draw_100k_boxes+gpu", |b| {
        b.iter(|| gl.draw_list(app, list.clone()))
    });
    // The same at a tenth of the width and height: what is left is geometry, not fill.
    g.bench_function("draw_100k_boxes_tiny_viewport+gpu", |b| {
        b.iter(|| gl.draw_list_sized(app, list.clone(), 160, 100))
    });
    g.bench_function("build_and_draw_100k_boxes+gpu", |b| {
        b.iter(|| {
            let list = Arc::new(collidoscope::app::views::build_draw_list(&ctx_view));
            gl.draw_list(app, list);
        })
    });
}

/// Random seeks in a 100,000-frame recording.
fn seek_100k(g: &mut Group<'_>, mut gpu: Option<&mut OffscreenGl>, t: &mut f64) {
    let started = std::time::Instant::now();
    let path = recording_100k();
    eprintln!(
        "recording: 100,000 frames, {} MB, ready in {:.1} s",
        std::fs::metadata(&path).unwrap().len() / 1_000_000,
        started.elapsed().as_secs_f64()
    );
    let reader = Arc::new(RecordingReader::open(&path).unwrap());
    let started = std::time::Instant::now();
    let (ctx, mut app) = headless_app(Session::replay(reader, 20_000, 256 << 20));
    eprintln!(
        "recording: scanned and validated in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut rng = Lcg(42);
    g.bench_function("seek_random_frame_100k", |b| {
        b.iter(|| {
            app.apply(Command::SeekFrame(rng.below(100_000)));
            *t += 0.016;
            ui_frame(&ctx, &mut app, *t);
        })
    });
    if let Some(gl) = gpu.as_mut() {
        g.bench_function("seek_random_frame_100k+gpu", |b| {
            b.iter(|| {
                app.apply(Command::SeekFrame(rng.below(100_000)));
                *t += 0.016;
                ui_frame(&ctx, &mut app, *t);
                gl.draw(&app);
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
