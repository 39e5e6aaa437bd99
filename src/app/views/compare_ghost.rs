//! A comparison in the 3D view: run B's moving bodies as a translucent violet ghost over run
//! A, and the bodies any difference of the frame names outlined in red in both runs (drawn
//! through other bodies, since two runs that just parted overlap almost exactly).

use super::colors::{self, mix, with_alpha};
use crate::app::state::catalog::BodyCatalog;
use crate::app::state::compare::ShownFrame;
use crate::app::viewport::draw_list::{DrawList, Instance, Label, placement};
use crate::record::Frame;
use nalgebra::Vector3;

/// Labels for at most this many differing bodies: more would bury the view.
const MAX_LABELS: usize = 8;

pub fn draw(a: &Frame, shown: &ShownFrame, catalog: &BodyCatalog, out: &mut DrawList) {
    let Some(b) = &shown.b else {
        return;
    };
    for state in &b.bodies {
        let Some(info) = catalog.body(state.id) else {
            continue;
        };
        let differs = shown.differing.contains(&state.id);
        // A fixed body that does not differ is the same in both runs: a ghost adds nothing.
        if (info.fixed && !differs) || info.mesh >= catalog.meshes.len() {
            continue;
        }
        // A hair larger than the body: where the runs still agree the ghost is a thin violet
        // skin around A's body instead of fighting it for the same pixels.
        let rows = placement(&state.position, &state.rotation, &Vector3::repeat(1.015));
        let batch = out.batch(info.mesh);
        let base = [info.color[0], info.color[1], info.color[2], 1.0];
        batch.translucent.push(Instance {
            rows,
            color: with_alpha(mix(base, colors::RUN_B, 0.7), 0.3),
        });
        // Its edges too: a translucent fill alone reads as A's own faded bodies.
        let edges = Instance {
            rows,
            color: colors::RUN_B,
        };
        if differs {
            batch.xray.push(edges);
        } else {
            batch.wire.push(Instance {
                color: with_alpha(colors::RUN_B, 0.6),
                ..edges
            });
        }
    }
    let mut labelled = 0;
    for state in a.bodies.iter().filter(|s| shown.differing.contains(&s.id)) {
        let Some(info) = catalog.body(state.id) else {
            continue;
        };
        if info.mesh >= catalog.meshes.len() {
            out.point(&state.position, 12.0, colors::DIFFERS);
            continue;
        }
        let rows = placement(&state.position, &state.rotation, &Vector3::repeat(1.0));
        let batch = out.batch(info.mesh);
        batch.outline.push(Instance {
            rows,
            color: colors::DIFFERS,
        });
        batch.xray.push(Instance {
            rows,
            color: with_alpha(colors::DIFFERS, 0.8),
        });
        if labelled < MAX_LABELS {
            labelled += 1;
            let r = catalog.mesh_of(state.id).map_or(0.5, |m| m.radius as f64);
            out.labels.push(Label {
                position: [
                    state.position.x,
                    state.position.y - r * 1.1,
                    state.position.z,
                ],
                text: format!("≠ {}", info.name),
                color: colors::DIFFERS,
            });
        }
    }
}
