//! The hierarchy and broad-phase views driven through the accessibility tree (egui_kittest),
//! with no display and no GL: select a mesh body, move the depth range, change the colour
//! mode, sort the node table, inspect a node, step onto a traversal event, and read the
//! broad phase of the convex pile.

use crate::ui_harness;

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::families::hierarchy::HierarchyView;
use collidoscope::app::families::hierarchy::draw::{ColorMode, DepthRange, tested_counts};
use collidoscope::app::families::hierarchy::panel::HierarchyPanel;
use collidoscope::app::families::hierarchy::table::{SortKey, row_text};
use collidoscope::app::state::{Command, Selection};
use collidoscope::trace::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness_on(scene: &str, steps: i64) -> Harness<'static, CollidoscopeApp> {
    let mut h = ui_harness::app_on(scene, [1500.0, 950.0]);
    h.state_mut().apply(Command::StepFrames(steps));
    h.run();
    h
}

/// The hierarchy view's panel state.
fn hierarchy<'h>(h: &'h Harness<'_, CollidoscopeApp>) -> &'h HierarchyPanel {
    &h.state()
        .families
        .view::<HierarchyView>()
        .expect("the hierarchy view is registered")
        .panel
}

/// Opens a view from the View menu (the label is also the panel's heading once open), unless
/// the scene opened it already.
fn open_view(h: &mut Harness<'_, CollidoscopeApp>, label: &str) {
    let family = match label {
        "Hierarchy" => "hierarchy",
        _ => "broad phase",
    };
    crate::ui_harness::open_family_view(h, label, family);
}

#[test]
fn hierarchy_of_the_selected_mesh_body() {
    let mut h = harness_on("interlocked-tori", 12);
    open_view(&mut h, "Hierarchy");
    assert!(h.state().settings.families.is_open("hierarchy"));
    h.get_by_label_contains("Select a triangle-mesh body");

    // The panel lists the mesh bodies; clicking one selects it and shows its tree.
    h.get_by_label("hanging torus (#2)").click();
    h.run();
    assert_eq!(h.state().state.selection, Selection::Body(2));
    assert_eq!(hierarchy(&h).body, Some(2));
    h.get_by_label_contains("Hierarchy of body #2: aabb tree");
    h.get_by_label("SAH cost");

    // Depth range: one level deeper.
    let before = hierarchy(&h).range;
    h.get_by_label("Deeper ▶").click();
    h.run();
    let after = hierarchy(&h).range;
    assert_eq!((after.lo, after.hi), (before.lo + 1, before.hi + 1));

    // Colour mode.
    h.get_by_label("SAH contribution").click();
    h.run();
    assert_eq!(hierarchy(&h).mode, ColorMode::Sah);
    h.get_by_label("Tested this frame").click();
    h.run();
    assert_eq!(hierarchy(&h).mode, ColorMode::Tested);

    // Sorting: by depth (ascending), then again (descending), then back to ids.
    h.get_by_label("depth").click();
    h.run();
    assert_eq!(hierarchy(&h).sort, SortKey::Depth);
    let first = hierarchy(&h).descending;
    h.get_by_label("depth ▲").click();
    h.run();
    assert_ne!(hierarchy(&h).descending, first);
    assert!(hierarchy(&h).descending);
    h.get_by_label("depth ▼").click();
    h.run();
    assert!(!hierarchy(&h).descending);
    h.get_by_label("node").click();
    h.run();
    assert_eq!(hierarchy(&h).sort, SortKey::Id);

    // Room for the node inspector below the table: no plots, metrics folded.
    h.state_mut().settings.show_plots = false;
    h.get_by_label("Tree metrics").click();
    h.run();

    // Click the root's row: it shows in the node inspector.
    let stats = h
        .state()
        .families
        .statics()
        .tree(2)
        .expect("tree of the torus")
        .stats_with_tests(&[]);
    let tested = {
        let frame = h.state().state.current_frame().expect("frame").clone();
        tested_counts(&frame.trace, 2, stats.per_node.len())
    };
    assert!(tested[0] > 0, "the traversal starts at the root");
    let row = row_text(&stats.per_node[0], tested[0]);
    h.get_by_label(&row).click();
    h.run();
    assert_eq!(hierarchy(&h).selected_node, Some(0));
    h.get_by_label("Node 0");
    h.get_by_label("triangles under");
    h.get_by_label(&stats.per_node[0].triangles.to_string());
    // From the root to a child.
    let (left, _) = h
        .state()
        .families
        .statics()
        .tree(2)
        .and_then(|t| t.children(0))
        .expect("the root has children");
    h.get_by_label(&format!("Child {left}")).click();
    h.run();
    assert_eq!(hierarchy(&h).selected_node, Some(left));
    h.get_by_label(&format!("Node {left}"));
}

#[test]
fn a_traversal_step_is_described_with_its_nodes() {
    let mut h = harness_on("interlocked-tori", 12);
    open_view(&mut h, "Hierarchy");
    h.state_mut().apply(Command::Select(Selection::Body(2)));
    let i = h
        .state()
        .state
        .current_frame()
        .and_then(|f| {
            f.trace.iter().position(|e| {
                matches!(
                    e.kind,
                    EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair { .. })
                )
            })
        })
        .expect("the tori's trees are traversed every frame");
    h.state_mut().apply(Command::SeekEvent(Some(i)));
    h.run();
    // The inspector and the hierarchy panel both describe the step.
    h.get_by_label_contains("Tree-versus-tree traversal (aabb trees)");
    h.get_by_label("tree A");
    h.get_by_label_contains(&format!("Traversal step (event {})", i + 1));
    h.get_by_label_contains("A: node 0 of body #1, depth 0");
}

#[test]
fn broad_phase_of_the_convex_pile() {
    let mut h = harness_on("convex-pile", 3);
    open_view(&mut h, "Broad phase");
    assert!(h.state().settings.families.is_open("broad phase"));
    h.get_by_label("x intervals");
    h.get_by_label("y intervals");
    h.get_by_label("z intervals");
    h.get_by_label("SweepAndPrune");
    h.get_by_label_contains("Overlapping pairs (");
    // The first pair of the list (floor and the first wall) selects that pair.
    h.get_by_label_contains("floor (#0) – wall +x (#1)").click();
    h.run_steps(6);
    assert_eq!(h.state().state.selection, Selection::Pair(0, 1));
}

/// Where a world point appears in the 3D view, and the view's pick ray through it.
fn on_screen(h: &Harness<'_, CollidoscopeApp>, p: [f64; 3]) -> egui::Pos2 {
    let rect = h.get_by_label("3D view").rect();
    let aspect = (rect.width() / rect.height()) as f64;
    let app = h.state();
    let radius = app.viewport.draw_list().scene_radius;
    let [x, y] = app
        .viewport
        .camera
        .project(&p.into(), aspect, radius)
        .expect("in front of the camera");
    egui::pos2(
        rect.left() + ((x + 1.0) / 2.0) as f32 * rect.width(),
        rect.top() + ((1.0 - y) / 2.0) as f32 * rect.height(),
    )
}

fn click_at(h: &mut Harness<'_, CollidoscopeApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    h.run();
}

/// Whether a segment of the ray (sampled densely) passes inside a volume: an oracle that
/// shares nothing with the engine's slab tests.
fn ray_crosses(origin: [f64; 3], dir: [f64; 3], v: &collidoscope::trace::Volume) -> bool {
    use collidoscope::trace::Volume;
    let inside = |p: nalgebra::Point3<f64>| match v {
        Volume::Obb(o) => {
            let local = o.axes.transpose() * (p - o.center);
            (0..3).all(|k| local[k].abs() <= o.half_extents[k] + 1e-9)
        }
        Volume::Aabb(b) => (0..3).all(|k| b.min[k] - 1e-9 <= p[k] && p[k] <= b.max[k] + 1e-9),
        _ => panic!("the tori have box trees"),
    };
    let o = nalgebra::Point3::from(origin);
    let d = nalgebra::Vector3::from(dir).normalize();
    (0..200_000).any(|i| inside(o + d * (i as f64 * 0.0005)))
}

#[test]
fn clicking_a_node_in_the_3d_view_selects_it() {
    let mut h = harness_on("interlocked-tori", 12);
    open_view(&mut h, "Hierarchy");
    h.get_by_label("hanging torus (#2)").click();
    h.run();
    let center = {
        let b = h
            .state()
            .state
            .current_frame()
            .expect("frame")
            .body(2)
            .expect("torus");
        [b.position.x, b.position.y, b.position.z]
    };
    let view = |h: &mut Harness<'_, CollidoscopeApp>| {
        h.state_mut()
            .families
            .view_mut::<HierarchyView>()
            .expect("registered")
            .panel
            .range = DepthRange { lo: 3, hi: 3 };
    };

    // Only the root drawn: a click through the torus's centre (its hole) picks the root.
    h.state_mut()
        .families
        .view_mut::<HierarchyView>()
        .expect("registered")
        .panel
        .range = DepthRange { lo: 0, hi: 0 };
    h.state_mut().apply(Command::Select(Selection::None));
    h.run();
    let pos = on_screen(&h, center);
    click_at(&mut h, pos);
    assert_eq!(hierarchy(&h).selected_node, Some(0));
    assert_eq!(h.state().state.selection, Selection::Body(2));
    h.get_by_label("Node 0");

    // Level 3 drawn: the click picks a node of that level that the click's ray crosses.
    view(&mut h);
    h.run();
    let pos = on_screen(&h, [center[0] + 1.0, center[1], center[2]]);
    click_at(&mut h, pos);
    let node = hierarchy(&h).selected_node.expect("a node picked");
    let app = h.state();
    let stats = app
        .families
        .statics()
        .tree(2)
        .expect("tree")
        .stats_with_tests(&[]);
    assert_eq!(stats.per_node[node as usize].depth, 3);
    let rect = h.get_by_label("3D view").rect();
    let ndc = [
        ((pos.x - rect.left()) / rect.width() * 2.0 - 1.0) as f64,
        (1.0 - (pos.y - rect.top()) / rect.height() * 2.0) as f64,
    ];
    let ray = app.viewport.ray(ndc, (rect.width() / rect.height()) as f64);
    let b = app
        .state
        .current_frame()
        .expect("frame")
        .body(2)
        .expect("torus");
    let pose = collidoscope::geom::Pose::from_parts(b.position.coords.into(), b.rotation);
    let volume = app
        .families
        .statics()
        .tree(2)
        .and_then(|t| t.node_world_volume(node, &pose))
        .expect("volume");
    assert!(ray_crosses(ray.origin.into(), ray.dir.into(), &volume));

    // A click on empty space picks no node and clears the selection, as without the view.
    let corner = rect.right_top() + egui::vec2(-40.0, 40.0);
    click_at(&mut h, corner);
    assert_eq!(h.state().state.selection, Selection::None);
}

#[test]
fn stepping_a_traversal_frames_the_pair_and_maps_both_trees() {
    use collidoscope::app::viewport::draw_list::{Style, Template};
    use collidoscope::bvh::BvhEvent;
    let mut h = harness_on("interlocked-tori", 12);
    open_view(&mut h, "Hierarchy");
    h.get_by_label("hanging torus (#2)").click();
    h.run();
    let trace = h
        .state()
        .state
        .current_frame()
        .expect("frame")
        .trace
        .clone();
    let root = trace
        .iter()
        .position(|e| matches!(e.kind, EventKind::Bvh(BvhEvent::NodePair { .. })))
        .expect("the tori's trees are traversed every frame");

    // The first step: both roots under test, the camera on them, the bodies ghosted.
    h.get_by_label("Event scrubber")
        .set_value_accesskit(root as f64);
    h.run();
    h.get_by_label_contains("Step 1 of ");
    h.get_by_label_contains("Tree A diagram: node 0 under test, 0 subtrees culled");
    h.get_by_label_contains("Tree B diagram: node 0 under test");
    // The pair's volumes, resolved from its ids at the poses its traversal announced.
    let (volume_a, volume_b) = {
        let app = h.state();
        let statics = app.families.statics();
        let frame = app.state.current_frame().expect("frame");
        BvhEvent::node_pair_volumes(&trace, root, &|b| statics.tree(b), &|b| {
            let s = frame.body(b)?;
            Some(collidoscope::geom::Pose::from_parts(
                s.position.coords.into(),
                s.rotation,
            ))
        })
        .expect("resolved")
    };
    let (volume_a, volume_b) = (&volume_a, &volume_b);
    let centre = |v: &collidoscope::trace::Volume| match v {
        collidoscope::trace::Volume::Obb(o) => o.center,
        collidoscope::trace::Volume::Aabb(b) => nalgebra::center(&b.min, &b.max),
        _ => panic!("box trees"),
    };
    let mid = nalgebra::center(&centre(volume_a), &centre(volume_b));
    let target = h.state().viewport.camera.target;
    assert!(
        (0..3).all(|k| (target[k] - mid[k]).abs() < 1e-6),
        "camera on the pair: {target:?} vs {mid:?}"
    );
    let list = h.state().viewport.draw_list().clone();
    assert!(
        list.meshes.iter().all(|m| m.solid.is_empty()),
        "every body ghosted"
    );
    assert!(list.meshes.iter().any(|m| !m.translucent.is_empty()));

    // The next step, with Shift+→.
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowRight);
    h.run();
    h.get_by_label_contains("Step 2 of ");

    // A triangle pair that intersects (the first frame from here that has one): two filled
    // triangles and the segment as a solid bar.
    let intersecting = |e: &collidoscope::trace::TraceEvent| {
        matches!(
            e.kind,
            EventKind::Bvh(BvhEvent::TrianglePair {
                segment: Some(_),
                ..
            })
        )
    };
    let mut tri = None;
    for _ in 0..40 {
        let trace = &h.state().state.current_frame().expect("frame").trace;
        tri = trace.iter().position(intersecting);
        if tri.is_some() {
            break;
        }
        h.state_mut().apply(Command::StepFrames(1));
        h.run();
    }
    let tri = tri.expect("the interlocked tori intersect within 40 frames");
    h.get_by_label("Event scrubber")
        .set_value_accesskit(tri as f64);
    h.run();
    // Described in the inspector and in the panel.
    assert_eq!(h.get_all_by_label_contains("intersect: a ").count(), 2);
    let list = h.state().viewport.draw_list().clone();
    assert_eq!(list.volume_count(Template::Triangle, Style::Solid), 2);
    assert_eq!(
        list.volume_count(Template::Cube, Style::Solid),
        1,
        "the segment's bar"
    );
    let labels: Vec<&str> = list.labels.iter().map(|l| l.text.as_str()).collect();
    for want in ["triangle A (1:", "triangle B (2:", "intersection: "] {
        assert!(
            labels.iter().any(|l| l.starts_with(want)),
            "{want} in {labels:?}"
        );
    }
    h.get_by_label_contains("Tree A diagram: node ");

    // Leaving the trace gives the bodies back.
    h.key_press(egui::Key::ArrowRight);
    h.run();
    let list = h.state().viewport.draw_list().clone();
    assert!(list.meshes.iter().any(|m| !m.solid.is_empty()));
}
