//! The hierarchy and broad-phase views driven through the accessibility tree (egui_kittest),
//! with no display and no GL: select a mesh body, move the depth range, change the colour
//! mode, sort the node table, inspect a node, step onto a traversal event, and read the
//! broad phase of the convex pile.

use collidoscope::app::families::hierarchy::HierarchyView;
use collidoscope::app::families::hierarchy::draw::{ColorMode, tested_counts};
use collidoscope::app::families::hierarchy::panel::HierarchyPanel;
use collidoscope::app::families::hierarchy::table::{SortKey, row_text};
use collidoscope::app::state::loader::LoadRequest;
use collidoscope::app::state::{Command, Selection};
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::trace::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness_on(scene: &str, steps: i64) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Builtin(scene.into()))
    );
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

/// Opens a view from the View menu (the label is also the panel's heading once open).
fn open_view(h: &mut Harness<'_, CollidoscopeApp>, label: &str) {
    h.get_by_label("View").click();
    h.run();
    h.get_all_by_label(label)
        .next()
        .expect("menu entry")
        .click();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
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
    h.run();
    assert_eq!(h.state().state.selection, Selection::Pair(0, 1));
}
