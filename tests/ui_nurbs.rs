//! The NURBS view driven headless (egui_kittest, no display, no GL): on the spheres falling
//! on a plane, its panel shows a query that hit with its (u, v) panels and recursion tree, the
//! level slider changes the boxes drawn, stepping onto a box test lights that pair, the
//! bench CSV reader keeps good lines and names bad ones, and the thesis' experiments are
//! plotted from their CSVs beside the thesis' claims.

use crate::ui_harness;
use ui_harness::{app_on, labels, open_family_view};

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::families::nurbs::NurbsView;
use collidoscope::app::families::nurbs::bench::{self, Sweep};
use collidoscope::app::families::nurbs::tree_list::CURRENT;
use collidoscope::app::state::Command;
use collidoscope::app::viewport::draw_list::{Style, Template};
use collidoscope::nurbs::NurbsEvent;
use collidoscope::trace::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const SCENE: &str = "nurbs-spheres-on-plane";

/// The scene stepped frame by frame until a frame's trace holds a hit, the view open.
fn harness_on_first_hit() -> Harness<'static, CollidoscopeApp> {
    let mut h = app_on(SCENE, [1500.0, 1100.0]);
    let mut found = false;
    for _ in 0..90 {
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
        if !hit_events(&h).is_empty() {
            found = true;
            break;
        }
    }
    assert!(found, "no hit within 90 frames of {SCENE}");
    open_view(&mut h);
    h
}

fn open_view(h: &mut Harness<'_, CollidoscopeApp>) {
    open_family_view(h, "NURBS boxes", "nurbs");
}

fn events(h: &Harness<'_, CollidoscopeApp>) -> Vec<(usize, NurbsEvent)> {
    let frame = h.state().state.current_frame().expect("a frame").clone();
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Nurbs(n) => Some((i, n.clone())),
            _ => None,
        })
        .collect()
}

fn hit_events(h: &Harness<'_, CollidoscopeApp>) -> Vec<usize> {
    events(h)
        .into_iter()
        .filter(|(_, e)| matches!(e, NurbsEvent::Hit { .. }))
        .map(|(i, _)| i)
        .collect()
}

fn view<'h>(h: &'h Harness<'_, CollidoscopeApp>) -> &'h NurbsView {
    h.state()
        .families
        .view::<NurbsView>()
        .expect("the NURBS view is registered")
}

#[test]
fn the_panel_shows_the_query_that_hit() {
    let h = harness_on_first_hit();
    h.get_by_label_contains("OBB subdivision, frame");
    h.get_by_label("Parameter space (u, v)");
    h.get_by_label("Recursion tree");
    h.get_by_label("OBB tree by level");
    // The query shown is one that hit, and both (u, v) squares say so.
    assert!(h.query_all_by_label_contains(" · hit").count() >= 1);
    assert_eq!(
        h.get_all_by_label_contains("parameter space of ").count(),
        2
    );
    let a = h.get_by_label_contains("parameter space of A:");
    assert!(!format!("{a:?}").contains(" 0 hit"), "{a:?}");
    // The 3D view names the hit and draws its point.
    assert!(
        labels(&h).iter().any(|l| l.starts_with("hit")),
        "{:?}",
        labels(&h)
    );
    assert!(!h.state().viewport.draw_list().points.is_empty());
    // The outliner lists the queries that went deeper than their root boxes.
    h.get_by_label_contains("NURBS queries (");
}

/// Volumes of one template and style in the 3D view's draw list.
fn drawn(h: &Harness<'_, CollidoscopeApp>, template: Template, style: Style) -> usize {
    h.state().viewport.draw_list().volume_count(template, style)
}

/// The pieces of depth `level` that the first hit's query tested, per side: what the level's
/// boxes must show. The query is depth-first with an early exit (Alg. 2.3), so a level holds
/// the pieces on the way to the hit plus the siblings tested on the way back, not every piece.
fn tested_at(h: &Harness<'_, CollidoscopeApp>, level: u8) -> usize {
    let (a, b) = events(h)
        .into_iter()
        .find_map(|(_, e)| match e {
            NurbsEvent::Hit {
                surface_a,
                surface_b,
                ..
            } => Some((surface_a, surface_b)),
            _ => None,
        })
        .expect("a hit");
    let mut pieces = std::collections::HashSet::new();
    for (_, e) in events(h) {
        if let NurbsEvent::BoxPair {
            surface_a,
            surface_b,
            path_a,
            path_b,
            ..
        } = e
            && (surface_a, surface_b) == (a, b)
        {
            for (side, path) in [(0, path_a), (1, path_b)] {
                if path.depth == level {
                    pieces.insert((side, path.bits));
                }
            }
        }
    }
    pieces.len()
}

#[test]
fn the_level_slider_changes_the_boxes_drawn() {
    let mut h = harness_on_first_hit();
    let wires = |h: &Harness<'_, CollidoscopeApp>| drawn(h, Template::Cube, Style::Wire);
    let set_level = |h: &mut Harness<'_, CollidoscopeApp>, level: u8| {
        h.state_mut()
            .families
            .view_mut::<NurbsView>()
            .expect("view")
            .level = level;
        h.run();
    };
    // Each level draws exactly the pieces the trace tested at that depth, one box each.
    let mut counts = Vec::new();
    for level in 0..8 {
        set_level(&mut h, level);
        let expected = tested_at(&h, level);
        assert_eq!(wires(&h), expected, "level {level}");
        counts.push(expected);
    }
    // Level 0: the two whole surfaces' boxes; deeper levels differ from it.
    assert_eq!(counts[0], 2);
    assert!(counts[1..].iter().all(|&n| n >= 1), "{counts:?}");
    // Every sub-patch of level 2: four per surface, whether tested or not.
    set_level(&mut h, 2);
    h.state_mut()
        .families
        .view_mut::<NurbsView>()
        .expect("view")
        .whole_level = true;
    h.run();
    assert_eq!(wires(&h), 8);
    // The slider itself is in the panel, and the boxes toggle off.
    assert!(h.query_all_by_label_contains("level (halvings)").count() >= 1);
    // Below the recursion tree: scrolled to first, as a user would.
    h.get_by_label("Boxes of the level").scroll_to_me();
    h.run();
    h.get_by_label("Boxes of the level").click();
    h.run();
    assert_eq!(wires(&h), 0);
    assert!(!view(&h).show_level);
}

#[test]
fn stepping_onto_a_box_test_lights_that_pair() {
    let mut h = harness_on_first_hit();
    let hit = hit_events(&h)[0];
    // The box test accepted as the hit comes just before the hit event.
    let test = events(&h)
        .into_iter()
        .filter(|(i, e)| *i < hit && matches!(e, NurbsEvent::BoxPair { .. }))
        .map(|(i, _)| i)
        .next_back()
        .expect("a box test before the hit");
    h.state_mut().apply(Command::SeekEvent(Some(test)));
    // The recursion tree's list scrolls to the step: let it settle.
    h.run_steps(40);
    // The recursion tree marks exactly one row, the step text explains it, both (u, v)
    // squares outline the step, and the 3D view fills the pair's two boxes.
    assert_eq!(h.query_all_by_label_contains(CURRENT).count(), 1);
    h.get_by_label_contains("overlap → HIT");
    // The step text, in the panel and in the inspector.
    assert_eq!(
        h.query_all_by_label_contains("Box test at depth").count(),
        2
    );
    assert_eq!(h.get_all_by_label_contains("this step outlined").count(), 2);
    assert!(
        labels(&h).iter().any(|l| l == "boxes overlap: hit"),
        "{:?}",
        labels(&h)
    );
    let fills = drawn(&h, Template::Cube, Style::Translucent);
    assert!(fills >= 2);
    // The separating-axis inspector: an overlapping pair shows its tightest axis.
    h.get_by_label_contains("Overlap: on every one of the 15 axes");
    // One step back from the root of the query: stepping the scrubber onto a separated test
    // names its axis in 3D and in the inspector.
    let separated = events(&h)
        .into_iter()
        .find(|(_, e)| matches!(e, NurbsEvent::BoxPair { axis: Some(_), .. }))
        .map(|(i, _)| i)
        .expect("a separated test in the frame");
    h.state_mut().apply(Command::SeekEvent(Some(separated)));
    h.run();
    assert!(
        labels(&h).iter().any(|l| l.starts_with("separated on ")),
        "{:?}",
        labels(&h)
    );
    h.get_by_label_contains("the engine tried");
    // The gap along the separating axis: in the step text and the inspector's axis row.
    assert!(h.query_all_by_label_contains("gap ").count() >= 2);
    // The step button moves the scrubber by one event.
    h.get_by_label("step ▶").click();
    h.run();
    assert_eq!(h.state().state.playhead.event, Some(separated + 1));
}

#[test]
fn the_surfaces_stay_drawn_under_another_panel_and_with_none() {
    let mut h = harness_on_first_hit();
    let sheets =
        |h: &Harness<'_, CollidoscopeApp>| drawn(h, Template::Triangle, Style::Translucent);
    assert!(sheets(&h) > 0);
    // The hierarchy panel shown instead: the NURBS surfaces are bodies of the scene still.
    open_family_view(&mut h, "Hierarchy", "hierarchy");
    h.run();
    let under_other = sheets(&h);
    assert!(
        under_other > 0,
        "no surface drawn under the hierarchy panel"
    );
    // No family panel open at all.
    for family in ["hierarchy", "nurbs"] {
        h.state_mut().settings.families.set_open(family, false);
    }
    h.run();
    assert!(sheets(&h) > 0, "no surface drawn with every panel closed");
}

#[test]
fn the_bench_csv_reader_keeps_good_lines_and_names_bad_ones() {
    let text = "sweep,x,median_us,mean_us,collision_rate,queries\n\
                depth,10,2.5,2.8,0.5,3000\n\
                depth,20,4.0,4.4,0.5,3000\n\
                net,4,1.0,1.1,0.5,5000\n\
                rate,0,0.4,0.5,0.0,3000\n\
                rate,banana,1,1,1,1\n\
                wobble,1,1,1,1,1\n\
                net,10,3.0\n";
    let t = bench::parse(text).expect("a header");
    assert_eq!(t.rows.len(), 4);
    assert_eq!(t.sweep(Sweep::Depth).len(), 2);
    assert_eq!(t.sweep(Sweep::Depth)[1].median_us, 4.0);
    assert_eq!(
        t.skipped.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![6, 7, 8]
    );
    assert!(t.skipped[0].1.contains("banana"));
    assert!(t.skipped[1].1.contains("wobble"));
    assert!(bench::parse("no,header,here\n1,2,3\n").is_err());
}

/// The thesis' experiments section plots what the CSVs hold, each figure under the thesis'
/// claim, and names a bad line of the precision file.
#[test]
fn the_thesis_plots_show_the_csvs_beside_the_thesis_claims() {
    use collidoscope::app::families::nurbs::panel::Sections;
    use collidoscope::app::families::nurbs::precision_csv::Motion;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let timing = "sweep,x,median_us,mean_us,collision_rate,queries\n\
                  thesis-depth,0,1.0,1.2,0.9,360\n\
                  thesis-depth,32,40,45,0.5,360\n\
                  thesis-depth,64,41,47,0.5,360\n\
                  thesis-rate,0,5,6,0.0,360\n\
                  thesis-rate,100,50,55,1.0,360\n\
                  worst-case,8,10,10,1,1\n\
                  worst-case,16,1000,1000,1,1\n\
                  thesis-net,16,10,11,0.5,500\n\
                  thesis-net,100,20,22,0.5,500\n\
                  thesis-net,225,30,33,0.5,500\n";
    let precision = "case,motion,level,error,mean_error,hits\n\
                     1,static,8,1e-1,1e-2,16\n\
                     1,static,16,1e-3,1e-4,16\n\
                     3,moving,8,2e-1,2e-1,1\n\
                     3,moving,16,2e-3,2e-3,1\n\
                     3,moving,24,oops,2e-3,1\n";
    std::fs::write(dir.path().join(bench::THESIS_CSV), timing).expect("written");
    std::fs::write(dir.path().join(bench::PRECISION_CSV), precision).expect("written");
    let mut h = app_on(SCENE, [1500.0, 1400.0]);
    open_view(&mut h);
    {
        let v = h
            .state_mut()
            .families
            .view_mut::<NurbsView>()
            .expect("the NURBS view");
        v.thesis.load_from(dir.path());
        v.force_sections = Some(Sections {
            thesis: true,
            ..Sections::closed()
        });
    }
    h.run_steps(4);
    for s in Sweep::THESIS {
        assert!(h.query_by_label(s.title()).is_some(), "no plot {s:?}");
        let claim = s.thesis_claim().expect("a thesis sweep has a claim");
        assert!(h.query_by_label(claim).is_some(), "no claim for {s:?}");
    }
    for m in Motion::ALL {
        assert!(h.query_by_label(m.title()).is_some(), "no plot {m:?}");
        assert!(h.query_by_label(m.thesis_claim()).is_some());
    }
    // The captions count what was read: 3 depth points, 3 net points, 2 worst-case points,
    // 2 + 2 precision points.
    for caption in [
        "ours: 3 points, 1080 queries",
        "ours: 3 points, 1500 queries",
        "ours: 2 points, 2 queries",
        "┆ thesis' plateau 30–55",
    ] {
        assert!(h.query_by_label(caption).is_some(), "no caption {caption}");
    }
    for n in [1, 3] {
        assert!(h.query_by_label(&format!("■ case {n}")).is_some());
    }
    // One case in each of the static and moving figures.
    let caption = "ours: 1 cases, 2 points (worst hit's distance to the analytic contact)";
    assert_eq!(h.query_all_by_label(caption).count(), 2);
    assert!(
        h.query_by_label("1 line(s) skipped; line 6: error `oops` is not a finite distance")
            .is_some()
    );
}

fn nurbs_rules(h: &Harness<'_, CollidoscopeApp>) -> collidoscope::nurbs::NurbsRules {
    ui_harness::scene_data(h, |d| match d {
        collidoscope::families::FamilySceneData::Nurbs(n) => Some(n.rules),
        _ => None,
    })
}

/// The rules section runs the scene again under Algorithm 2.2 up to the frame shown: the
/// frame's queries then cut both pieces in four, the tree and the run's line say so, and the
/// cost line counts two boxes a call.
#[test]
fn choosing_algorithm_2_2_resimulates_with_quarters() {
    use collidoscope::app::families::nurbs::panel::Sections;
    use collidoscope::nurbs::Recursion;
    use ui_harness::press;
    let mut h = harness_on_first_hit();
    let frame = h.state().state.playhead.frame;
    assert!(
        nurbs_rules(&h).is_thesis(),
        "the built-in scene runs the thesis' rules"
    );
    h.state_mut()
        .families
        .view_mut::<NurbsView>()
        .expect("the NURBS view")
        .force_sections = Some(Sections {
        rules: true,
        tree: true,
        ..Sections::closed()
    });
    h.run_steps(2);
    h.get_by_label_contains("This run: boxes: covariance of the control points (thesis)");
    press(&mut h, "2.2: both boxes built, both cut in four");
    press(&mut h, "Re-simulate");
    h.run_steps(8);
    assert_eq!(nurbs_rules(&h).recursion, Recursion::Subdivide4);
    assert_eq!(
        h.state().state.playhead.frame,
        frame,
        "back at the frame shown"
    );
    // A test followed by more than one halving: the pieces were quartered.
    let evs = events(&h);
    let quartered = evs.windows(3).any(|w| {
        matches!(w[0].1, NurbsEvent::BoxPair { axis: None, .. })
            && matches!(w[1].1, NurbsEvent::Split { .. })
            && matches!(w[2].1, NurbsEvent::Split { .. })
    });
    assert!(quartered, "no test was cut in four");
    h.get_by_label_contains("recursion 2.2: both boxes built, both cut in four");
    assert!(
        h.query_all_by_label_contains("overlap → cut in four")
            .count()
            > 0
    );
    let tests = evs
        .iter()
        .filter(|(_, e)| matches!(e, NurbsEvent::BoxPair { .. }))
        .count();
    assert!(tests > 0);
    assert!(h.query_all_by_label_contains("boxes built").count() > 0);
}
