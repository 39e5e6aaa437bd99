//! The node inspector: one node's metrics, its world volume, its leaf triangles and links to
//! its parent and children.

use super::describe::volume_text;
use super::panel::HierarchyPanel;
use crate::app::families::FamilyContext;
use crate::bvh::{AnyBvh, TreeStats};
use crate::trace::BodyId;
use egui::Ui;

impl HierarchyPanel {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn node_inspector(
        &mut self,
        ui: &mut Ui,
        cx: &FamilyContext,
        tree: &AnyBvh,
        stats: &TreeStats,
        tested: &[u32],
        body: BodyId,
        id: u32,
    ) {
        let Some(n) = stats.per_node.get(id as usize) else {
            return;
        };
        let mut rows: Vec<(String, String)> = vec![
            (
                "kind".into(),
                if n.leaf {
                    "leaf".into()
                } else {
                    "internal".into()
                },
            ),
            ("depth".into(), n.depth.to_string()),
            ("triangles under".into(), n.triangles.to_string()),
            ("surface area (m²)".into(), format!("{:.5}", n.surface_area)),
            ("volume (m³)".into(), format!("{:.6}", n.volume)),
            (
                "SAH contribution".into(),
                format!("{:.5}", n.sah_contribution),
            ),
            (
                "children overlap (m³)".into(),
                format!("{:.6}", n.children_overlap_volume),
            ),
            (
                "sibling overlap (m³)".into(),
                format!("{:.6}", n.sibling_overlap_volume),
            ),
            (
                "tested this frame".into(),
                tested.get(id as usize).copied().unwrap_or(0).to_string(),
            ),
        ];
        if let Some(v) = cx.pose(body).and_then(|p| tree.node_world_volume(id, &p)) {
            rows.push(("volume (world)".into(), volume_text(&v)));
        }
        if n.leaf {
            let tris = tree.leaf_triangles(id);
            let shown: Vec<String> = tris.iter().take(12).map(|t| t.to_string()).collect();
            let more = if tris.len() > 12 { " …" } else { "" };
            rows.push((
                "leaf triangles".into(),
                format!("{}{more}", shown.join(", ")),
            ));
        }
        crate::app::widgets::grid::grid(ui, "node-fields", &rows);
        ui.horizontal(|ui| {
            if let Some(p) = n.parent
                && ui.button(format!("Parent {p}")).clicked()
            {
                self.selected_node = Some(p);
            }
            if let Some((l, r)) = tree.children(id) {
                for c in [l, r] {
                    if ui.button(format!("Child {c}")).clicked() {
                        self.selected_node = Some(c);
                    }
                }
            }
            if ui
                .button("Clear")
                .on_hover_text("Stop inspecting this node")
                .clicked()
            {
                self.selected_node = None;
            }
        });
    }
}
