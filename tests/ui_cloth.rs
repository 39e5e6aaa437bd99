//! The cloth view driven headless (egui_kittest), with no display and no GL: on the sheet
//! falling on the sphere, a frame with inverted vertices shows its rays by kind and its list
//! of inverted vertices; clicking one picks it and steps onto its inversion; stepping onto a
//! ray explains it; the run's inversion markers and the event strip's marks exist. On the
//! stacked sheets, each sheet is named and tinted its own way. The gate's fill recolours the
//! sheet.

use crate::ui_harness;
use ui_harness::{app_on, labels, open_family_view, press};

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::families::cloth::ClothView;
use collidoscope::app::families::cloth::palette;
use collidoscope::app::families::{FamilyContext, FamilyView};
use collidoscope::app::state::Command;
use collidoscope::cloth::{ClothEvent, RayKind};
use collidoscope::families::FamilyFrameData;
use collidoscope::record::MarkerKind;
use collidoscope::trace::{EventKind, TraceEvent};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The sheet on the sphere, stepped frame by frame up to its first frame with inverted
/// vertices (the sheet reaches the sphere within a second), the cloth view open.
fn harness_at_first_inversion() -> Harness<'static, CollidoscopeApp> {
    harness_at_inversion(|_| true)
}

/// The first frame of `cloth-sheet-on-sphere` with inversions and with `also`, the cloth
/// view open.
fn harness_at_inversion(
    also: impl Fn(&Harness<'_, CollidoscopeApp>) -> bool,
) -> Harness<'static, CollidoscopeApp> {
    let mut h = app_on("cloth-sheet-on-sphere", [1500.0, 1100.0]);
    for _ in 0..90 {
        if !inversions(&h).is_empty() && also(&h) {
            break;
        }
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
    }
    assert!(
        !inversions(&h).is_empty() && also(&h),
        "the sheet on the sphere inverts vertices within 90 frames"
    );
    h.run();
    open_family_view(&mut h, "Cloth rays", "cloth");
    h
}

/// The first frame with inversions and collision rays of the cloth's own vertices (the
/// sphere's top vertex meets the sheet first, by its volume ray, a frame before them).
fn harness_at_inversion_with_collision_rays() -> Harness<'static, CollidoscopeApp> {
    harness_at_inversion(has_collision_ray)
}

fn has_collision_ray(h: &Harness<'_, CollidoscopeApp>) -> bool {
    h.state()
        .state
        .current_frame()
        .is_some_and(|f| f.trace.iter().any(is_collision_ray))
}

/// A collision ray of the cloth's own vertices, cast completely or walked.
fn is_collision_ray(e: &TraceEvent) -> bool {
    matches!(
        e.kind,
        EventKind::Cloth(
            ClothEvent::Ray {
                kind: RayKind::Collision,
                ..
            } | ClothEvent::WalkedRay {
                kind: RayKind::Collision,
                ..
            }
        )
    )
}

/// (event index, vertex, corrected) of the current frame's inversion events.
fn inversions(h: &Harness<'_, CollidoscopeApp>) -> Vec<(usize, u32, bool)> {
    let Some(frame) = h.state().state.current_frame() else {
        return Vec::new();
    };
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.kind {
            EventKind::Cloth(ClothEvent::Inversion {
                vertex, corrected, ..
            }) => Some((i, vertex, corrected)),
            _ => None,
        })
        .collect()
}

fn view<'h>(h: &'h Harness<'_, CollidoscopeApp>) -> &'h ClothView {
    h.state()
        .families
        .view::<ClothView>()
        .expect("the cloth view is registered")
}

#[test]
fn a_frame_with_inversions_shows_rays_by_kind_and_the_inverted_vertices() {
    let h = harness_at_inversion_with_collision_rays();
    let found = inversions(&h);
    h.get_by_label_contains("Cloth of frame");
    // Vertices, not crossings: one may cross again in a later substep.
    let vertices: std::collections::HashSet<u32> = found.iter().map(|f| f.1).collect();
    h.get_by_label_contains(&format!(
        "Inverted vertices in this frame: {}",
        vertices.len()
    ));
    // Each kind of ray has its toggle and count, and the parameters are shown.
    assert!(
        h.query_all_by_label_contains("collision ").count() >= 2,
        "legend and toggle"
    );
    assert!(
        h.query_all_by_label_contains("prediction ").count() >= 2,
        "legend and toggle"
    );
    assert!(
        h.query_all_by_label_contains("rejected ").count() >= 2,
        "legend and toggle"
    );
    h.get_by_label_contains("Detection parameters");
    h.get_by_label("half thickness e");
    h.get_by_label("prediction distance d_pred");
    // Every inverted vertex has a row.
    for (_, v, _) in &found {
        h.get_by_label(&format!("v{v}"));
    }
    // The 3D view: rays were drawn in their kinds' colours, the inverted vertices are marked
    // in theirs and named.
    let list = h.state().viewport.draw_list().clone();
    let drawn = view(&h).drawn;
    assert!(drawn.drawn[0] > 0, "collision rays drawn: {drawn:?}");
    assert_eq!(drawn.drawn[2], 0, "rejected rays are off until asked for");
    let colored = |c: [f32; 4]| list.lines.iter().any(|l| l.color == c);
    assert!(colored(palette::COLLISION));
    let marks = list
        .points
        .iter()
        .filter(|p| p.color == palette::INVERTED || p.color == palette::UNCORRECTED)
        .count();
    assert_eq!(marks, found.len(), "one dot per inverted vertex");
    assert!(
        labels(&h).iter().any(|l| l.starts_with("inverted v")),
        "{:?}",
        labels(&h)
    );
    // The heatmap fills the sheet: one triangle per sheet triangle at least.
    assert!(
        list.volume_count(
            collidoscope::app::viewport::draw_list::Template::Triangle,
            collidoscope::app::viewport::draw_list::Style::Translucent
        ) >= 19 * 19 * 2
    );
}

#[test]
fn clicking_an_inverted_vertex_picks_it_and_steps_onto_its_inversion() {
    let mut h = harness_at_first_inversion();
    let (event, vertex, corrected) = inversions(&h)[0];
    press(&mut h, &format!("v{vertex}"));
    assert_eq!(view(&h).picked, Some(vertex));
    assert_eq!(h.state().state.playhead.event, Some(event));
    // The step text and the inspector explain it in words.
    assert!(
        h.query_all_by_label_contains(&format!("Inverted vertex {vertex}: through triangle"))
            .count()
            >= 1
    );
    h.get_all_by_label_contains("it went through the surface within one time step")
        .next()
        .expect("the inversion explained");
    if corrected {
        h.get_all_by_label_contains("Corrected: after the response")
            .next()
            .expect("said corrected");
    }
    // It is named first in the 3D view (the labels go to the emphasised vertex first).
    let named = format!("inverted v{vertex} →");
    assert!(
        labels(&h).iter().any(|l| l.starts_with(&named)),
        "{:?}",
        labels(&h)
    );
    // The camera turned to it: its target is within a few grid spacings of the vertex.
    let target = h.state().viewport.camera.target;
    let frame = h.state().state.current_frame().expect("frame").clone();
    let p = frame
        .families
        .iter()
        .find_map(|d| match d {
            FamilyFrameData::Cloth(c) => Some(c.positions[vertex as usize]),
            _ => None,
        })
        .expect("cloth state");
    let d = (0..3)
        .map(|k| (target[k] - p[k]).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(
        d <= 0.4,
        "camera target {target:?} is {d} m from vertex {vertex}"
    );
}

#[test]
fn stepping_onto_a_ray_explains_it_and_rejected_rays_come_with_their_toggle() {
    let mut h = harness_at_inversion_with_collision_rays();
    let frame = h.state().state.current_frame().expect("frame").clone();
    let collision = frame
        .trace
        .iter()
        .position(is_collision_ray)
        .expect("a collision ray");
    h.state_mut().apply(Command::SeekEvent(Some(collision)));
    h.run();
    h.get_all_by_label_contains("Collision: the hit lies within the cloth's shell")
        .next()
        .expect("the ray explained");
    assert!(
        labels(&h).iter().any(|l| l.contains("ray of v")),
        "{:?}",
        labels(&h)
    );
    let lines = h.state().viewport.draw_list().lines.len();
    let rejected = frame
        .trace
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Cloth(
                    ClothEvent::Ray {
                        kind: RayKind::Rejected,
                        ..
                    } | ClothEvent::WalkedRay {
                        kind: RayKind::Rejected,
                        ..
                    }
                )
            )
        })
        .count();
    let toggle = format!("rejected {rejected}");
    press(&mut h, &toggle);
    assert!(view(&h).toggles.rejected);
    assert!(view(&h).drawn.drawn[2] > 0);
    assert!(h.state().viewport.draw_list().lines.len() > lines);
}

#[test]
fn the_run_marks_its_first_inversion_and_the_strip_marks_each_one() {
    let mut h = harness_at_first_inversion();
    let now = h.state().state.playhead.frame;
    let markers = h
        .state()
        .state
        .session
        .as_ref()
        .expect("session")
        .markers()
        .all()
        .to_vec();
    assert!(
        markers.iter().any(|m| m.frame == now
            && matches!(&m.kind, MarkerKind::Other(s) if s == "first inverted vertex")),
        "{markers:?}"
    );
    h.get_by_label_contains(&format!("First inversion of the run: frame {now}"));
    let mut marks = Vec::new();
    {
        let app = h.state();
        let cx = FamilyContext::new(&app.state, app.families.statics());
        ClothView::default().event_marks(&cx, &mut marks);
    }
    let expected = inversions(&h);
    for (event, _, _) in &expected {
        assert!(marks.iter().any(|m| m.event == *event), "{marks:?}");
    }
    // The outliner lists them too.
    h.get_by_label_contains(&format!("Inverted vertices ({})", expected.len()));
    h.run();
}

/// Issue 12, several sheets (scene cloth-stacked-sheets) a few frames into the drop, nothing
/// touching yet: the panel names the three sheets and the vertices each holds, and the 3D
/// view fills every triangle of sheet k with sheet k's tint (the heatmap's clear end), so
/// the reader tells the sheets apart.
#[test]
fn the_sheets_of_a_stacked_cloth_are_told_apart() {
    let mut h = app_on("cloth-stacked-sheets", [1500.0, 1100.0]);
    h.state_mut().apply(Command::StepFrames(5));
    h.run();
    open_family_view(&mut h, "Cloth rays", "cloth");
    h.get_by_label_contains("3 sheets of 20 × 20, 16 × 16, 12 × 12 vertices");
    for name in [
        "sheet 0: v0–v399",
        "sheet 1: v400–v655",
        "sheet 2: v656–v799",
    ] {
        h.get_by_label(name);
    }
    let list = h.state().viewport.draw_list().clone();
    let fills: Vec<[f32; 4]> = list
        .volumes
        .iter()
        .filter(|(k, _)| {
            *k == (
                collidoscope::app::viewport::draw_list::Template::Triangle,
                collidoscope::app::viewport::draw_list::Style::Translucent,
            )
        })
        .flat_map(|(_, instances)| instances.iter().map(|i| i.color))
        .collect();
    for (k, n) in [(0, 20), (1, 16), (2, 12)] {
        let tint = palette::sheet_tint(k);
        let tinted = fills.iter().filter(|c| c[..3] == tint[..3]).count();
        assert_eq!(tinted, 2 * (n - 1) * (n - 1), "triangles of sheet {k}");
    }
}

/// Issue 28, a cloth made from an OBJ mesh (scene cloth-skirt-on-ball): the panel says what
/// it is made of (the mesh piece, its file, vertices and triangles, and no grid), and the 3D
/// view fills each of its 2,040 triangles (one part: the plain colour, no tint).
#[test]
fn a_mesh_piece_cloth_is_named_and_drawn() {
    let mut h = app_on("cloth-skirt-on-ball", [1500.0, 1100.0]);
    h.state_mut().apply(Command::StepFrames(5));
    h.run();
    open_family_view(&mut h, "Cloth rays", "cloth");
    h.get_by_label_contains("mesh piece cloth-skirt.obj: 1080 vertices, 2040 triangles");
    assert!(
        h.query_by_label_contains("sheet of").is_none(),
        "no grid sheet is named"
    );
    let list = h.state().viewport.draw_list().clone();
    let fills = list
        .volumes
        .iter()
        .filter(|(k, _)| {
            *k == (
                collidoscope::app::viewport::draw_list::Template::Triangle,
                collidoscope::app::viewport::draw_list::Style::Translucent,
            )
        })
        .map(|(_, instances)| instances.len())
        .sum::<usize>();
    assert_eq!(fills, 2040);
}

/// The gate section counts the clusters cast completely in the recorded memory, and its
/// checkbox colours the sheet by gate fill instead of depth: the sheet's triangles change
/// colour, and the two colourings exclude each other.
#[test]
fn the_gate_fill_colours_the_sheet_instead_of_the_depth() {
    let mut h = harness_at_first_inversion();
    h.get_by_label("Iterative-cast gate");
    let frame = h.state().state.current_frame().expect("frame").clone();
    let memory = frame
        .families
        .iter()
        .find_map(|d| match d {
            FamilyFrameData::Cloth(c) => Some(c.memory.clone()),
            _ => None,
        })
        .expect("a cloth frame");
    let counts = collidoscope::app::families::cloth::gate_map::counts(&memory.accumulated_m);
    assert!(counts.clusters > 0);
    h.get_by_label_contains(&format!(
        "{} of {} clusters were cast completely this step",
        counts.cast_completely, counts.clusters
    ));
    let colours = |h: &Harness<'_, CollidoscopeApp>| {
        let list = h.state().viewport.draw_list();
        list.volumes
            .iter()
            .filter(|((template, style), _)| {
                *template == collidoscope::app::viewport::draw_list::Template::Triangle
                    && *style == collidoscope::app::viewport::draw_list::Style::Translucent
            })
            .flat_map(|(_, instances)| instances.iter().map(|i| i.color))
            .collect::<Vec<_>>()
    };
    assert!(view(&h).toggles.heatmap && !view(&h).toggles.gate_map);
    let by_depth = colours(&h);
    press(&mut h, "Colour the sheet by gate fill");
    assert!(view(&h).toggles.gate_map && !view(&h).toggles.heatmap);
    let by_gate = colours(&h);
    assert_eq!(by_depth.len(), by_gate.len());
    assert_ne!(by_depth, by_gate, "the sheet took the gate's colours");
    press(&mut h, "Colour the sheet by depth");
    assert!(view(&h).toggles.heatmap && !view(&h).toggles.gate_map);
}

/// The cloth's own stages are timed and shown beside the rigid pipeline's: each is a row of
/// the inspector and a line of the stage-time plot, and the ray casts took time.
#[test]
fn the_cloth_step_shows_its_own_stage_times() {
    let mut h = app_on("cloth-sheet-on-sphere", [1500.0, 1100.0]);
    h.state_mut().apply(Command::StepFrames(3));
    h.run_steps(3);
    let frame = h.state().state.current_frame().expect("a frame");
    let cloth = frame
        .timings
        .families
        .iter()
        .find(|f| f.family == "cloth")
        .expect("the cloth's stage times");
    assert_eq!(cloth.stages_s.len(), 5);
    assert!(cloth.stages_s[2] > 0.0, "{:?}", cloth.stages_s);
    for stage in ["integrate", "springs", "ray casts", "response", "other"] {
        let label = format!("cloth: {stage}");
        // One in the inspector, one in the plot's legend.
        let shown = h.query_all_by_label(&label).count();
        assert!(shown >= 2, "{label} is shown {shown} times");
    }
}

/// Issue 28 item 3: a fix turned off under Switches and the scene re-simulated from its first
/// frame up to the one shown. On the large-step drop the sheet crosses the sphere's surface
/// within a step: without inversion detection those crossings stay uncorrected, marked on the
/// timeline, and the panel says the run has the switch off.
#[test]
fn a_switch_turned_off_resimulates_the_run_and_shows_what_it_prevented() {
    let mut h = app_on("cloth-large-step", [1500.0, 1100.0]);
    for _ in 0..6 {
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
    }
    open_family_view(&mut h, "Cloth rays", "cloth");
    let uncorrected = |h: &Harness<'_, CollidoscopeApp>| {
        h.state()
            .state
            .session
            .as_ref()
            .expect("a session")
            .markers()
            .all()
            .iter()
            .filter(|m| matches!(&m.kind, MarkerKind::Other(s) if s == "uncorrected inversion"))
            .count()
    };
    assert_eq!(uncorrected(&h), 0, "the scene corrects every inversion");
    press(&mut h, "inversion detection");
    press(&mut h, "Re-simulate with these switches");
    h.run_steps(8);
    let session = h.state().state.session.as_ref().expect("a session");
    let params = session
        .scene
        .families
        .iter()
        .find_map(|d| match d {
            collidoscope::families::FamilySceneData::Cloth(c) => Some(*c.params),
            _ => None,
        })
        .expect("a cloth");
    assert!(!params.switches.inversion_detection);
    assert_eq!(h.state().state.playhead.frame, 6, "back at the frame shown");
    assert!(uncorrected(&h) > 0, "the crossings stay uncorrected");
    assert!(
        h.get_all_by_label_contains("OFF in this run")
            .next()
            .is_some()
    );
}
