//! The article's BSP by face insertion (spec 001 §2.3) of the level cut at the walker's
//! height: the tree as an indented list (node: the face whose plane it is, with the faces on
//! that plane; leaves solid "−" or empty "+"), and the faces labelled in the 3D view.

use super::level::Level;
use crate::app::viewport::draw_list::{DrawList, Label, Rgba, to_f32};
use crate::bsp::face_tree::{FaceTree, Slot, label};
use crate::geom::Point3;

const FACE: Rgba = [1.0, 0.8, 0.3, 1.0];

fn face_name(t: &FaceTree, k: u32) -> String {
    let f = &t.faces[k as usize];
    format!("{} (brush {} face {})", label(k as usize), f.brush, f.plane)
}

/// The tree's lines, depth first, front before rear.
pub fn lines(t: &FaceTree) -> Vec<String> {
    let mut out = Vec::new();
    walk(t, t.root, "", "", &mut out);
    out
}

fn walk(t: &FaceTree, slot: Slot, lead: &str, rest: &str, out: &mut Vec<String>) {
    match slot {
        Slot::Solid => out.push(format!("{lead}− solid")),
        Slot::Empty => out.push(format!("{lead}+ empty")),
        Slot::Node(n) => {
            let node = &t.nodes[n as usize];
            let also: Vec<String> = node.on[1..].iter().map(|&k| label(k as usize)).collect();
            let on = if also.is_empty() {
                String::new()
            } else {
                format!(", with {}", also.join(" "))
            };
            out.push(format!("{lead}{}{on}", face_name(t, node.face)));
            walk(t, node.front, &format!("{rest}├ front: "), &format!("{rest}│ "), out);
            walk(t, node.rear, &format!("{rest}└ rear: "), &format!("{rest}  "), out);
        }
    }
}

pub fn panel(ui: &mut egui::Ui, level: &Level) {
    let t = &level.face_tree;
    if t.faces.is_empty() {
        ui.label("No brush is cut at the walker's height.");
        return;
    }
    let (solid, empty) = t.leaves();
    ui.label(format!(
        "The level cut at y = {:.2}: {} faces inserted in order (A, B, …, brush by brush); \
         {} nodes, {} splits, {solid} solid leaves (−), {empty} empty (+).",
        t.height,
        t.faces.len(),
        t.nodes.len(),
        t.splits
    ));
    egui::ScrollArea::vertical()
        .id_salt("bsp-face-tree")
        .max_height(260.0)
        .show(ui, |ui| {
            for line in lines(t) {
                ui.monospace(line);
            }
        });
}

/// Each face of the cross-section drawn at the cut's height with its letter.
pub fn draw(level: &Level, list: &mut DrawList) {
    let t = &level.face_tree;
    for (k, f) in t.faces.iter().enumerate() {
        let a = Point3::new(f.a[0], t.height, f.a[1]);
        let b = Point3::new(f.b[0], t.height, f.b[1]);
        list.line_on_top(to_f32(&a), to_f32(&b), FACE);
        let mid = nalgebra::center(&a, &b);
        list.labels.push(Label {
            position: [mid.x, mid.y, mid.z],
            text: label(k),
            color: FACE,
        });
    }
}
