//! The Arka3D overlay: the board as the frame has it (cubes hit this frame tinted), the balls,
//! and for each bounce of the frame the facet and the Voronoi region that decided it (the face
//! itself, or the edge or vertex band of the square grown by the radius) with the segment
//! tested; recoveries as a red bar from where the ball was to where it was put.

use crate::app::viewport::draw_list::{DrawList, Rgba, Style};
use crate::arka::board::{Board, Facet, INDESTRUCTIBLE, cell_coords};
use crate::arka::{ArkaEvent, ArkaFrame, ArkaScene, Region};
use crate::geom::Point3;
use crate::trace::{EventKind, TraceEvent};

pub const CUBE: Rgba = [0.55, 0.6, 0.7, 0.25];
pub const HARD_CUBE: Rgba = [0.3, 0.3, 0.35, 0.35];
pub const HIT_CUBE: Rgba = [1.0, 0.6, 0.1, 0.7];
pub const BALL: Rgba = [0.95, 0.95, 0.3, 1.0];
pub const FACE_REGION: Rgba = [0.2, 0.8, 0.3, 0.6];
pub const CORNER_REGION: Rgba = [0.2, 0.5, 1.0, 0.6];
pub const SEGMENT: Rgba = [1.0, 1.0, 1.0, 1.0];
pub const RECOVERY: Rgba = [1.0, 0.15, 0.15, 1.0];

/// Draws the frame; returns how many bounce regions and recoveries were drawn.
pub fn draw(
    scene: &ArkaScene,
    frame: &ArkaFrame,
    events: &[TraceEvent],
    list: &mut DrawList,
) -> (usize, usize) {
    let board = Board::new(frame.board_cells(scene));
    for (cell, &state) in board.cells.iter().enumerate() {
        if state == 0 || !(0..6).any(|f| board.is_exposed(cell, f)) {
            continue;
        }
        let [i, j, k] = cell_coords(cell);
        let min = [i as f64, j as f64, k as f64];
        let color = if frame.hit_now.contains(&(cell as u16)) {
            HIT_CUBE
        } else if state == INDESTRUCTIBLE {
            HARD_CUBE
        } else {
            CUBE
        };
        list.aabb(min, [min[0] + 1.0, min[1] + 1.0, min[2] + 1.0], color, false);
    }
    for (b, s) in frame.balls.iter().enumerate() {
        let r = scene.balls.get(b).map_or(0.2, |d| d.radius);
        list.sphere(&s.position, r, BALL, true);
    }
    let (mut bounces, mut recoveries) = (0, 0);
    for e in events {
        let EventKind::Arka(e) = &e.kind else {
            continue;
        };
        match e {
            ArkaEvent::Bounce {
                ball,
                cell,
                face,
                region,
                from,
                to,
                point,
                normal,
            } => {
                let r = scene.balls.get(*ball as usize).map_or(0.2, |d| d.radius);
                let facet = Facet {
                    cell: *cell,
                    face: *face,
                };
                region_band(&facet, *region, r, list);
                list.line_on_top(to32(from), to32(to), SEGMENT);
                list.point(point, 8.0, SEGMENT);
                list.arrow(point, &(normal * 0.5), SEGMENT);
                bounces += 1;
            }
            ArkaEvent::Recovery { from, to, .. } => {
                list.bar(from, to, 0.04, RECOVERY);
                list.point(to, 10.0, RECOVERY);
                recoveries += 1;
            }
            _ => {}
        }
    }
    (bounces, recoveries)
}

fn to32(p: &Point3) -> [f32; 3] {
    [p.x as f32, p.y as f32, p.z as f32]
}

/// The facet filled, and for a corner bounce the square grown by `r` outlined around it: the
/// region that decided the bounce.
pub fn region_band(facet: &Facet, region: Region, r: f64, list: &mut DrawList) {
    let c = facet.center();
    let [u, v] = facet.in_plane_axes();
    let corner = |du: f64, dv: f64| {
        let mut p = c;
        p[u] += du;
        p[v] += dv;
        p
    };
    let color = if region == Region::Face {
        FACE_REGION
    } else {
        CORNER_REGION
    };
    let q = [
        corner(-0.5, -0.5),
        corner(0.5, -0.5),
        corner(0.5, 0.5),
        corner(-0.5, 0.5),
    ];
    list.triangle([&q[0], &q[1], &q[2]], color, Style::Translucent);
    list.triangle([&q[0], &q[2], &q[3]], color, Style::Translucent);
    if region != Region::Face {
        let g = 0.5 + r;
        let grown = [
            corner(-g, -g),
            corner(g, -g),
            corner(g, g),
            corner(-g, g),
        ];
        for k in 0..4 {
            list.line_on_top(to32(&grown[k]), to32(&grown[(k + 1) % 4]), CORNER_REGION);
        }
    }
}
