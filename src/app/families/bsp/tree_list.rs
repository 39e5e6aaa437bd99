//! The BSP tree as a collapsible list: statistics first, then the nodes from the root, each
//! with its depth, brushes and leaves below. The node the step scrubber is on is marked and
//! its ancestors are opened, so stepping through a sweep walks down this list.

use super::Pick;
use super::level::Level;
use crate::app::views::colors;
use crate::app::widgets::grid::grid;
use crate::bsp::Child;

/// The marker in front of the current node's row (tests look for it).
pub const CURRENT: &str = "▶ current";

pub fn stats(ui: &mut egui::Ui, level: &Level) {
    let s = &level.tree.stats;
    let leaves = level.tree.leaves.len().max(1);
    let rows = [
        ("brushes", s.brushes.to_string()),
        ("nodes", s.nodes.to_string()),
        ("solid leaves", s.solid_leaves.to_string()),
        ("empty leaves", s.empty_leaves.to_string()),
        ("max depth", s.max_depth.to_string()),
        ("mean leaf depth", format!("{:.2}", s.mean_leaf_depth)),
        ("brushes split", s.split_brushes.to_string()),
        ("bevel planes", s.bevel_planes.to_string()),
        (
            "brushes per leaf",
            format!(
                "{:.2}",
                level.tree.leaf_brushes.len() as f64 / leaves as f64
            ),
        ),
    ];
    grid(ui, "bsp-stats", &rows);
}

/// The list from the root; clicking a node picks its plane.
pub fn tree(ui: &mut egui::Ui, level: &Level, current: Option<u32>, picked: &mut Option<Pick>) {
    let path = current.map(|n| level.path_to(n)).unwrap_or_default();
    child(ui, level, level.tree.root, "root", &path, current, picked);
}

fn child(
    ui: &mut egui::Ui,
    level: &Level,
    c: Child,
    role: &str,
    path: &[u32],
    current: Option<u32>,
    picked: &mut Option<Pick>,
) {
    match c {
        Child::Leaf(l) => {
            let Some(leaf) = level.tree.leaves.get(l as usize) else {
                return;
            };
            let text = if leaf.is_solid() {
                let ids: Vec<String> = level
                    .tree
                    .leaf_brush_ids(l)
                    .iter()
                    .map(|b| b.to_string())
                    .collect();
                format!("{role}: leaf {l}, solid, brushes {}", ids.join(", "))
            } else {
                format!("{role}: leaf {l}, empty")
            };
            ui.label(text);
        }
        Child::Node(n) => {
            let Some(node) = level.tree.nodes.get(n as usize) else {
                return;
            };
            let info = level.node_info.get(n as usize).copied().unwrap_or_default();
            let is_current = current == Some(n);
            let mut text = format!(
                "{role}: node {n} · depth {} · {} brushes in {} leaves below",
                info.depth, info.brushes_below, info.leaves_below
            );
            if is_current {
                text = format!("{CURRENT}: node {n} · {text}");
            }
            let mut rich = egui::RichText::new(text);
            if is_current {
                rich = rich.color(egui::Color32::from_rgb(
                    (colors::SELECTION[0] * 255.0) as u8,
                    (colors::SELECTION[1] * 255.0) as u8,
                    (colors::SELECTION[2] * 255.0) as u8,
                ));
            }
            let on_path = path.contains(&n);
            let open = if on_path {
                Some(true)
            } else if current.is_some() {
                // Stepping: only the way to the current node stays open.
                Some(false)
            } else {
                None
            };
            let resp = egui::CollapsingHeader::new(rich)
                .id_salt(("bsp-node", n))
                .default_open(info.depth < 2)
                .open(open)
                .show(ui, |ui| {
                    let p = node.plane;
                    let row = ui.selectable_label(
                        *picked == Some(Pick::Node(n)),
                        format!(
                            "plane n = ({:.2}, {:.2}, {:.2}), d = {:.3} (face of brush {})",
                            p.normal.x, p.normal.y, p.normal.z, p.d, node.from_brush
                        ),
                    );
                    if row.clicked() {
                        *picked = Some(Pick::Node(n));
                    }
                    child(ui, level, node.front, "front", path, current, picked);
                    child(ui, level, node.back, "back", path, current, picked);
                });
            if is_current {
                resp.header_response.scroll_to_me(None);
            }
        }
    }
}
