//! The outliner's "Engine bodies" group: each engine body with its engine id, name and
//! motion, and under it its colliders with their ids and shapes; a row selects the collider.

use super::data;
use crate::app::families::{FamilyContext, OutlinerGroup, OutlinerRow};
use crate::app::state::{Command, Selection};
use crate::capture::body_label;

/// Rows listed at most (bodies and colliders together).
const ROWS: usize = 400;

pub fn group(cx: &FamilyContext) -> Option<OutlinerGroup> {
    let scene = data::scene(cx)?;
    let selection = cx.selection();
    let mut rows = Vec::new();
    for (b, body) in scene.bodies.iter().enumerate() {
        let colliders = data::colliders_of(scene, b as u32);
        let Some(&first) = colliders.first() else {
            continue;
        };
        rows.push(OutlinerRow {
            text: format!("{} · {}", body_label(body), body.motion.name()),
            hover: format!(
                "Engine body {} with {} collider(s): select it",
                body.id,
                colliders.len()
            ),
            selected: colliders.iter().any(|&c| selection.involves(c)),
            command: Command::Select(Selection::Body(first)),
        });
        for c in colliders {
            let Some(collider) = scene.collider(c) else {
                continue;
            };
            let shape = data::shape_of(scene, c).map_or_else(String::new, data::shape_text);
            rows.push(OutlinerRow {
                text: format!("    collider {} · {shape}", collider.id),
                hover: format!("Collider {} of body {}: select it", collider.id, body.id),
                selected: selection.involves(c),
                command: Command::Select(Selection::Body(c)),
            });
        }
        if rows.len() >= ROWS {
            break;
        }
    }
    rows.truncate(ROWS);
    Some(OutlinerGroup {
        title: "Engine bodies and colliders".into(),
        rows,
    })
}
