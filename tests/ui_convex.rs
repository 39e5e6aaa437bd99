//! The closest-features view driven through the accessibility tree (egui_kittest), with no
//! display and no GL: the panel on the cube walk, stepping through the V-Clip walk, picking a
//! feature to see its Voronoi region, a live drag re-running the walk, the timeline's
//! penetration marks, GJK's simplex steps beside the walk, and a penetrating pair's features,
//! overlap and EPA depth.

use crate::ui_harness;
use ui_harness::{app_on, labels, open_family_view, press};

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::families::Drag;
use collidoscope::app::families::convex::ConvexView;
use collidoscope::app::state::Command;
use collidoscope::app::viewport::draw_list::{Style, Template};
use collidoscope::convex::ConvexEvent;
use collidoscope::convex::gjk::GjkStep;
use collidoscope::geom::{Point3, Ray, Vec3};
use collidoscope::trace::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

fn harness_on(scene: &str, steps: i64) -> Harness<'static, CollidoscopeApp> {
    let mut h = app_on(scene, [1500.0, 1100.0]);
    h.state_mut().apply(Command::StepFrames(steps));
    h.run();
    h
}

fn open_view(h: &mut Harness<'_, CollidoscopeApp>) {
    open_family_view(h, "Closest features", "convex");
}

fn view<'h>(h: &'h Harness<'_, CollidoscopeApp>) -> &'h ConvexView {
    h.state()
        .families
        .view::<ConvexView>()
        .expect("the convex view is registered")
}

/// The 3D labels of the highlighted pair ("A: V3 (vertex)", "B: …").
fn pair_labels(h: &Harness<'_, CollidoscopeApp>) -> Vec<String> {
    labels(h)
        .into_iter()
        .filter(|l| l.starts_with("A: ") || l.starts_with("B: "))
        .collect()
}

/// Indices of the current frame's V-Clip moves.
fn moves(h: &Harness<'_, CollidoscopeApp>) -> Vec<usize> {
    let frame = h.state().state.current_frame().expect("frame").clone();
    frame
        .trace
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::Convex(ConvexEvent::Step { .. })))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn the_panel_explains_the_closest_pair_of_the_cube_walk() {
    let mut h = harness_on("convex-cube-walk", 20);
    open_view(&mut h);
    h.get_by_label_contains("The walk, move by move");
    h.get_by_label_contains("Closest features:");
    h.get_by_label_contains("V-Clip state chart: current state");
    h.get_by_label_contains("lies in VR(B: ");
    h.get_by_label_contains("lies in VR(A: ");
    // The 3D view names both features and the distance between them.
    let all = labels(&h);
    assert_eq!(pair_labels(&h).len(), 2, "{all:?}");
    assert!(all.iter().any(|l| l.starts_with("distance ")), "{all:?}");
    // The three labels sit apart (A's and B's part on either side of the gap), so that
    // none hides another.
    let list = h.state().viewport.draw_list().clone();
    let spots: Vec<[f64; 3]> = list
        .labels
        .iter()
        .filter(|l| {
            ["A: ", "B: ", "distance "]
                .iter()
                .any(|p| l.text.starts_with(p))
        })
        .map(|l| l.position)
        .collect();
    assert_eq!(spots.len(), 3);
    for (i, p) in spots.iter().enumerate() {
        for q in &spots[i + 1..] {
            let d = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f64>().sqrt();
            assert!(d > 0.15, "labels {p:?} and {q:?} are {d} apart");
        }
    }
    // Features are drawn: at least one point (a vertex) or bar (an edge) or filled face.
    assert!(!list.points.is_empty());
    assert!(
        h.state()
            .viewport
            .overlay
            .as_ref()
            .is_some_and(|o| o.ghost_bodies)
    );
    // At the end of a separated walk both containment checks pass.
    assert_eq!(h.get_all_by_label(" PASS ").count(), 2);
    // The outliner lists the pair.
    h.get_by_label_contains("fixed cube × walker cube");
}

#[test]
fn stepping_moves_the_highlighted_pair() {
    // The first frame walks cold from the first vertices: several moves.
    let mut h = harness_on("convex-cube-walk", 1);
    open_view(&mut h);
    let mut found = moves(&h);
    for _ in 0..30 {
        if found.len() >= 2 {
            break;
        }
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
        found = moves(&h);
    }
    assert!(
        found.len() >= 2,
        "a walk of two moves or more within 30 frames"
    );
    h.state_mut().apply(Command::SeekEvent(Some(found[0])));
    h.run();
    h.get_by_label_contains("Why: ");
    h.get_by_label_contains("Non-increasing at every move");
    let first = pair_labels(&h);
    assert_eq!(first.len(), 2);
    press(&mut h, "Next move ▶");
    assert_eq!(h.state().state.playhead.event, Some(found[1]));
    let second = pair_labels(&h);
    assert_eq!(second.len(), 2);
    assert_ne!(first, second, "the highlighted pair moved");
    // The pair just left is drawn faint, and the step back returns.
    press(&mut h, "◀ Previous move");
    assert_eq!(h.state().state.playhead.event, Some(found[0]));
    assert_eq!(pair_labels(&h), first);
    press(&mut h, "⏮ Start");
    h.get_by_label_contains("The start: ");
}

#[test]
fn picking_a_feature_shows_its_region() {
    let mut h = harness_on("convex-cube-walk", 10);
    open_view(&mut h);
    h.state_mut().settings.show_plots = false;
    let translucent = |h: &Harness<'_, CollidoscopeApp>| {
        h.state()
            .viewport
            .draw_list()
            .volume_count(Template::Triangle, Style::Translucent)
    };
    let before = translucent(&h);
    press(&mut h, "Features of A (8 vertices, 12 edges, 6 faces)");
    press(&mut h, "V0");
    let picked = view(&h).picked.expect("a feature picked");
    assert_eq!(picked.feature.to_string(), "V0");
    h.get_by_label_contains("bounded by 3 plane(s)");
    assert!(labels(&h).iter().any(|l| l == "VR(V0)"), "{:?}", labels(&h));
    // A cube's vertex region cut by the box is a cell: six quadrilaterals, twelve triangles.
    assert!(
        translucent(&h) >= before + 12,
        "{before} -> {}",
        translucent(&h)
    );
    press(&mut h, "F0");
    h.get_by_label_contains("bounded by 5 plane(s)");

    // Every region of A: 26 volumes, far more faces.
    let one = translucent(&h);
    // The first "A" is "Show every region of: A" (the live drag's "A" comes later).
    h.get_all_by_label("A")
        .next()
        .expect("every region of A")
        .scroll_to_me();
    h.run();
    h.get_all_by_label("A")
        .next()
        .expect("every region of A")
        .click();
    h.run();
    assert!(
        translucent(&h) >= one + 26 * 8,
        "{one} -> {}",
        translucent(&h)
    );
}

#[test]
fn dragging_a_body_reruns_the_walk_live() {
    let mut h = harness_on("convex-cube-walk", 10);
    open_view(&mut h);
    let before = pair_labels(&h);
    let centre = {
        let frame = h.state().state.current_frame().expect("frame").clone();
        frame.body(1).expect("walker cube").position
    };
    let ray_at = |x: f64| Ray {
        origin: Point3::new(centre.x + x, centre.y, centre.z + 10.0),
        dir: Vec3::new(0.0, 0.0, -1.0),
    };
    let drags = [
        Drag {
            previous: ray_at(0.0),
            now: ray_at(0.0),
            start: true,
        },
        Drag {
            previous: ray_at(0.0),
            now: ray_at(-0.3),
            start: false,
        },
    ];
    for d in drags {
        let app = h.state_mut();
        let _ = app.families.drag(&app.state, &app.settings.families, &d);
        h.run();
    }
    let live = &view(&h).live;
    assert_eq!(live.side, 1, "the walker cube (B) was grabbed");
    assert!((live.offset[0] + 0.3).abs() < 1e-9, "{:?}", live.offset);
    h.get_by_label_contains("LIVE (dragged)");
    h.get_by_label_contains("Live: B moved by (-0.300");
    assert_eq!(pair_labels(&h).len(), 2);
    // The panel's nudge buttons move it further; back to the recording undoes it all.
    press(&mut h, "+y");
    assert!(view(&h).live.offset[1] > 0.0);
    press(&mut h, "Back to the recording");
    assert!(!view(&h).live.active());
    assert_eq!(pair_labels(&h), before);
}

#[test]
fn penetration_is_marked_on_the_timeline() {
    let mut h = harness_on("convex-penetration", 1);
    open_view(&mut h);
    let mut marked = None;
    for _ in 0..60 {
        h.state_mut().apply(Command::StepFrames(5));
        h.run();
        let app = h.state_mut();
        let marks = app.families.event_marks(&app.state, &app.settings.families);
        if let Some(m) = marks.iter().find(|m| m.text.contains("penetrate")) {
            marked = Some(m.clone());
            break;
        }
    }
    let mark = marked.expect("the tetrahedron enters the box within 300 frames");
    h.state_mut().apply(Command::SeekEvent(Some(mark.event)));
    h.run();
    h.get_by_label_contains("PENETRATING");
}

/// The current frame's GJK iterations: (trace index, simplex size).
fn gjk_iterations(h: &Harness<'_, CollidoscopeApp>) -> Vec<(usize, u8)> {
    let frame = h.state().state.current_frame().expect("frame").clone();
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Convex(ConvexEvent::Gjk(g)) => match g.step {
                GjkStep::Simplex { len, .. } => Some((i, len)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The inset's own description (it is a painting: its words are in the accessibility tree).
fn inset_text(h: &Harness<'_, CollidoscopeApp>) -> String {
    h.get_by_label_contains("GJK inset: ")
        .accesskit_node()
        .label()
        .unwrap_or_default()
}

#[test]
fn the_gjk_section_shows_a_real_simplex_beside_the_walk() {
    let mut h = harness_on("convex-cube-walk", 20);
    open_view(&mut h);
    h.get_by_label_contains("GJK beside the walk");
    // The two methods on one line, and their agreement.
    h.get_by_label_contains("V-Clip: ");
    h.get_by_label_contains(" — GJK: ");
    h.get_by_label("They agree.");
    h.get_by_label_contains("Steps from this frame's recording");
    // On the recorded iteration with the largest simplex, the inset and the text show it.
    let its = gjk_iterations(&h);
    let &(event, len) = its
        .iter()
        .max_by_key(|(_, len)| *len)
        .expect("the cube walk cross-checks with GJK every frame");
    assert!(len >= 2, "a simplex of more than a point: {its:?}");
    h.state_mut().apply(Command::SeekEvent(Some(event)));
    h.run();
    let text = inset_text(&h);
    assert!(
        text.contains(&format!("simplex of {len} point(s)")),
        "{text}"
    );
    assert!(text.contains("origin marked"), "{text}");
    h.get_by_label_contains("Support point added: w = A's V");
    h.get_by_label_contains(&format!("Simplex now: {len} point(s)"));
    h.get_by_label_contains("Distance so far |v| = ");
    // The 3D view names the support point on both bodies.
    assert!(
        labels(&h)
            .iter()
            .any(|l| l.starts_with("GJK support: A's V")),
        "{:?}",
        labels(&h)
    );
}

#[test]
fn stepping_gjk_moves_the_highlight() {
    let mut h = harness_on("convex-cube-walk", 1);
    open_view(&mut h);
    let mut its = gjk_iterations(&h);
    for _ in 0..30 {
        if its.len() >= 2 {
            break;
        }
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
        its = gjk_iterations(&h);
    }
    assert!(
        its.len() >= 2,
        "two GJK iterations in a frame within 30 frames"
    );
    press(&mut h, "⏮ First iteration");
    assert_eq!(h.state().state.playhead.event, Some(its[0].0));
    let support = |h: &Harness<'_, CollidoscopeApp>| {
        labels(h)
            .into_iter()
            .filter(|l| l.starts_with("GJK support: "))
            .collect::<Vec<_>>()
    };
    let (first_inset, first_support) = (inset_text(&h), support(&h));
    assert!(first_inset.contains("iteration 1,"), "{first_inset}");
    assert_eq!(first_support.len(), 1);
    press(&mut h, "Next step ▶");
    assert_eq!(h.state().state.playhead.event, Some(its[1].0));
    assert!(
        inset_text(&h).contains("iteration 2,"),
        "{}",
        inset_text(&h)
    );
    assert_eq!(support(&h).len(), 1);
    assert_ne!(
        support(&h),
        first_support,
        "a new support point is highlighted"
    );
    h.get_by_label_contains("GJK step 2 of ");
    press(&mut h, "◀ Previous step");
    assert_eq!(inset_text(&h), first_inset);
    press(&mut h, "GJK end ⏭");
    assert!(inset_text(&h).contains("the end"), "{}", inset_text(&h));
}

#[test]
fn a_penetrating_pair_shows_its_features_overlap_and_depth() {
    let mut h = harness_on("convex-penetration", 1);
    open_view(&mut h);
    let mut marked = None;
    for _ in 0..60 {
        h.state_mut().apply(Command::StepFrames(5));
        h.run();
        let app = h.state_mut();
        let marks = app.families.event_marks(&app.state, &app.settings.families);
        if let Some(m) = marks.iter().find(|m| m.text.contains("penetrate")) {
            marked = Some(m.clone());
            break;
        }
    }
    let mark = marked.expect("the tetrahedron enters the box within 300 frames");
    let translucent = |h: &Harness<'_, CollidoscopeApp>| {
        h.state()
            .viewport
            .draw_list()
            .volume_count(Template::Triangle, Style::Translucent)
    };
    h.state_mut().apply(Command::SeekEvent(Some(mark.event)));
    h.run();
    let all = labels(&h);
    // The two penetrating features, named, and the point that proves the overlap.
    assert_eq!(pair_labels(&h).len(), 2, "{all:?}");
    assert!(
        all.iter()
            .any(|l| l.contains("enters") || l.contains("is inside")),
        "{all:?}"
    );
    // The overlap is drawn as a volume, EPA's depth and normal beside it.
    assert!(all.iter().any(|l| l == "overlap of A and B"), "{all:?}");
    assert!(all.iter().any(|l| l.starts_with("EPA depth ")), "{all:?}");
    assert!(translucent(&h) >= 4, "{}", translucent(&h));
    // Its outline is seen through both bodies: at least a tetrahedron's six edges in red.
    let red_on_top = h
        .state()
        .viewport
        .draw_list()
        .lines_on_top
        .iter()
        .filter(|v| v.color == collidoscope::app::views::colors::WARNING)
        .count();
    assert!(red_on_top >= 12, "{red_on_top} line ends");
    // The panel: both methods say penetrating, EPA's answer and V-Clip's proof.
    h.get_by_label("They agree.");
    h.get_by_label_contains("EPA: depth ");
    h.get_by_label_contains("V-Clip's proof of the overlap: ");
    // Back in GJK's steps, the last iteration holds the origin in a tetrahedron, then EPA.
    press(&mut h, "GJK end ⏭");
    press(&mut h, "◀ Previous step");
    let text = inset_text(&h);
    assert!(
        text.contains("EPA expansion") || text.contains("simplex of 4 point(s)"),
        "{text}"
    );
}
