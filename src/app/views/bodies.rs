//! Bodies at their recorded poses, the selection and the frame's contacts.

use super::colors::{self, mix, with_alpha};
use super::{AlgorithmView, Shading, ViewContext};
use crate::app::state::Selection;
use crate::app::state::catalog::BodyInfo;
use crate::app::viewport::draw_list::{
    DrawList, Instance, Label, MeshBatch, Rgba, Rows, placement,
};
use crate::record::BodyState;
use nalgebra::Vector3;

pub struct BodiesView;

/// Contact normals are drawn this long, whatever the depth: a direction is what matters.
const NORMAL_LENGTH_FRACTION: f64 = 0.035;

impl AlgorithmView for BodiesView {
    fn name(&self) -> &'static str {
        "bodies"
    }

    fn draw(&self, ctx: &ViewContext, out: &mut DrawList) {
        let event_bodies = ctx.event_bodies();
        let focusing = ctx.options.focus_event && !event_bodies.is_empty();
        for state in &ctx.frame.bodies {
            let Some(info) = ctx.catalog.body(state.id) else {
                continue;
            };
            let base = [info.color[0], info.color[1], info.color[2], 1.0];
            let selected = ctx.selection.involves(state.id);
            let role = event_bodies.iter().position(|&b| b == state.id);
            if info.mesh >= ctx.catalog.meshes.len() {
                // No mesh (the scene could not be rebuilt): the origin stands in for the body.
                out.point(&state.position, if selected { 12.0 } else { 8.0 }, base);
                continue;
            }
            let look = Look {
                selected,
                role,
                faded: ctx.ghost_bodies || (focusing && role.is_none() && !selected),
            };
            let rows = placement(&state.position, &state.rotation, &Vector3::repeat(1.0));
            push_instances(ctx, out.batch(info.mesh), rows, look.color(base), look);
            if ctx.options.labels && (selected || role.is_some()) {
                out.labels.push(label(ctx, state, info, selected));
            }
        }
        if ctx.options.contacts {
            draw_contacts(ctx, out);
        }
    }
}

/// How a body stands out: selected, taking part in the current event (first or second
/// body), or faded behind the bodies that matter.
#[derive(Clone, Copy)]
struct Look {
    selected: bool,
    role: Option<usize>,
    faded: bool,
}

impl Look {
    /// The body's colour tinted by the selection and its role in the event.
    fn color(self, base: Rgba) -> Rgba {
        let mut color = base;
        if self.selected {
            color = mix(color, colors::SELECTION, 0.45);
        }
        if let Some(r) = self.role {
            color = mix(color, role_color(r), 0.35);
        }
        color
    }
}

fn role_color(role: usize) -> Rgba {
    if role == 0 {
        colors::FIRST
    } else {
        colors::SECOND
    }
}

/// The body's instances in its mesh's batch: as the shading asks, then the outlines of the
/// selection and of the event's bodies.
fn push_instances(ctx: &ViewContext, batch: &mut MeshBatch, rows: Rows, color: Rgba, look: Look) {
    match (ctx.options.shading, look.faded) {
        (Shading::Wireframe, _) => batch.wire.push(Instance {
            rows,
            color: if look.faded {
                with_alpha(color, 0.25)
            } else {
                color
            },
        }),
        (_, true) => batch.translucent.push(Instance {
            rows,
            color: with_alpha(mix(color, [0.6, 0.6, 0.65, 1.0], 0.5), 0.22),
        }),
        (shading, false) => {
            batch.solid.push(Instance { rows, color });
            if shading == Shading::SolidWithEdges {
                batch.outline.push(Instance {
                    rows,
                    color: [color[0] * 0.35, color[1] * 0.35, color[2] * 0.35, 0.9],
                });
            }
        }
    }
    if look.selected {
        batch.outline.push(Instance {
            rows,
            color: colors::SELECTION,
        });
        if ctx.options.xray_selection {
            batch.xray.push(Instance {
                rows,
                color: with_alpha(colors::SELECTION, 0.35),
            });
        }
    } else if let Some(r) = look.role {
        batch.outline.push(Instance {
            rows,
            color: role_color(r),
        });
    }
}

/// The body's name just above it.
fn label(ctx: &ViewContext, state: &BodyState, info: &BodyInfo, selected: bool) -> Label {
    let r = ctx
        .catalog
        .mesh_of(state.id)
        .map_or(0.5, |m| m.radius as f64);
    Label {
        position: [
            state.position.x,
            state.position.y + r * 1.1,
            state.position.z,
        ],
        text: info.name.clone(),
        color: if selected {
            colors::SELECTION
        } else {
            [0.95, 0.95, 0.95, 1.0]
        },
    }
}

fn draw_contacts(ctx: &ViewContext, out: &mut DrawList) {
    let length = ctx.scene_radius.max(1.0) * NORMAL_LENGTH_FRACTION;
    for c in &ctx.frame.contacts {
        let deep = c.depth > ctx.penetration_tolerance_m;
        let chosen = match ctx.selection {
            Selection::None => false,
            Selection::Body(b) => c.a == b || c.b == b,
            Selection::Pair(a, b) => (c.a.min(c.b), c.a.max(c.b)) == (a, b),
        };
        let color = if deep {
            colors::WARNING
        } else {
            colors::CONTACT
        };
        out.point(&c.point, if chosen { 9.0 } else { 6.0 }, color);
        if ctx.options.normals {
            let n = c.normal.try_normalize(1e-12).unwrap_or_else(Vector3::y);
            out.arrow(
                &c.point,
                &(n * length),
                if deep {
                    colors::WARNING
                } else {
                    colors::NORMAL
                },
            );
        }
    }
}
