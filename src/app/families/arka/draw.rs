//! The Arka3D overlay: the box's six walls as a light wireframe, the board as the frame has
//! it (cubes hit this frame tinted), the balls (named, with a dot that stays visible from
//! afar), the paddle, and for the bounces of the frame the facet and the Voronoi region that
//! decided each one (the face itself, or the edge or vertex band of the square grown by the
//! radius), with the tested segment, its crossing and the normal; recoveries as a red bar
//! from where the ball was to where it was put. The event being stepped to is drawn over the
//! others, named at its crossing.

use crate::app::viewport::draw_list::{DrawList, Label, Rgba, Style};
use crate::arka::board::{Board, Facet, INDESTRUCTIBLE, SIDE, cell_coords};
use crate::arka::{ArkaEvent, ArkaFrame, ArkaScene, PaddleDesc, Region};
use crate::geom::{Point3, Vec3};
use crate::trace::{EventKind, TraceEvent};

pub const WALL: Rgba = [0.75, 0.8, 0.9, 0.55];
pub const CUBE: Rgba = [0.55, 0.6, 0.7, 0.25];
pub const HARD_CUBE: Rgba = [0.3, 0.3, 0.35, 0.35];
pub const HIT_CUBE: Rgba = [1.0, 0.6, 0.1, 0.7];
pub const BALL: Rgba = [0.95, 0.95, 0.3, 1.0];
pub const PADDLE: Rgba = [0.3, 0.9, 0.95, 0.9];
pub const FACE_REGION: Rgba = [0.2, 0.85, 0.3, 0.75];
pub const EDGE_REGION: Rgba = [0.25, 0.55, 1.0, 0.75];
pub const VERTEX_REGION: Rgba = [0.85, 0.35, 1.0, 0.75];
pub const FACET: Rgba = [1.0, 1.0, 1.0, 0.35];
pub const SEGMENT: Rgba = [1.0, 1.0, 1.0, 1.0];
pub const RECOVERY: Rgba = [1.0, 0.15, 0.15, 1.0];

/// The colour of a region, in the view and the panel's key.
pub fn region_color(region: Region) -> Rgba {
    match region {
        Region::Face => FACE_REGION,
        Region::Edge => EDGE_REGION,
        Region::Vertex => VERTEX_REGION,
    }
}

/// What [`draw`] drew, for the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    pub bounces: usize,
    pub recoveries: usize,
    pub paddle_bounces: usize,
}

/// Draws the frame; `current` is the index of the event stepped to, if any.
pub fn draw(
    scene: &ArkaScene,
    frame: &ArkaFrame,
    events: &[TraceEvent],
    current: Option<usize>,
    list: &mut DrawList,
) -> Drawn {
    walls(scene.height, list);
    // Stepped to an event: the cubes around it stand out, the rest fade.
    let near = current
        .and_then(|i| events.get(i))
        .and_then(|e| match &e.kind {
            EventKind::Arka(
                ArkaEvent::Bounce { point, .. }
                | ArkaEvent::Paddle { point, .. }
                | ArkaEvent::Recovery { to: point, .. },
            ) => Some(*point),
            _ => None,
        });
    board(scene, frame, near, list);
    for (b, s) in frame.balls.iter().enumerate() {
        let r = scene.balls.get(b).map_or(0.2, |d| d.radius);
        list.sphere(&s.position, r, BALL, true);
        list.point(&s.position, 7.0, BALL);
        label(list, s.position + Vec3::new(0.0, 0.0, r + 0.15), format!("ball {b}"), BALL);
    }
    if let (Some(desc), Some(at)) = (&scene.paddle, frame.paddle) {
        paddle(desc, at, list);
    }
    let mut drawn = Drawn::default();
    // The current event last, so that it is drawn over the others.
    let order = (0..events.len())
        .filter(|&i| Some(i) != current)
        .chain(current.filter(|&i| i < events.len()));
    for i in order {
        let EventKind::Arka(e) = &events[i].kind else {
            continue;
        };
        let picked = Some(i) == current;
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
                region_band(&facet, *region, point, r, list);
                list.line_on_top(to32(from), to32(to), SEGMENT);
                list.point(point, if picked { 12.0 } else { 8.0 }, region_color(*region));
                list.arrow(point, &(normal * 0.6), SEGMENT);
                if picked || current.is_none() {
                    label(
                        list,
                        *point + normal * 0.7,
                        format!("ball {ball}: {}", region.describe()),
                        region_color(*region),
                    );
                }
                drawn.bounces += 1;
            }
            ArkaEvent::Recovery { ball, from, to, .. } => {
                list.bar(from, to, 0.05, RECOVERY);
                list.point(to, 12.0, RECOVERY);
                label(list, *to, format!("ball {ball} recovered"), RECOVERY);
                drawn.recoveries += 1;
            }
            ArkaEvent::Paddle {
                ball,
                point,
                normal,
            } => {
                list.point(point, 10.0, PADDLE);
                list.arrow(point, &(normal * 0.8), PADDLE);
                if picked || current.is_none() {
                    label(list, *point, format!("ball {ball} off the paddle"), PADDLE);
                }
                drawn.paddle_bounces += 1;
            }
            _ => {}
        }
    }
    drawn
}

fn label(list: &mut DrawList, at: Point3, text: String, color: Rgba) {
    list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text,
        color,
    });
}

fn to32(p: &Point3) -> [f32; 3] {
    [p.x as f32, p.y as f32, p.z as f32]
}

/// The six walls of the box (x and y from 0 to the board's side, z from 0 to `height`): a
/// light wireframe, so that the balls above the board are seen inside it.
pub fn walls(height: f64, list: &mut DrawList) {
    let s = SIDE as f32;
    let h = height as f32;
    let c = |i: usize| {
        [
            if i & 1 == 0 { 0.0 } else { s },
            if i & 2 == 0 { 0.0 } else { s },
            if i & 4 == 0 { 0.0 } else { h },
        ]
    };
    for a in 0..8 {
        for bit in [1, 2, 4] {
            if a & bit == 0 {
                list.line(c(a), c(a | bit), WALL);
            }
        }
    }
    // The board's top, where the cubes end and the balls' space begins.
    for (a, b) in [(0, 1), (1, 3), (3, 2), (2, 0)] {
        let (mut p, mut q) = (c(a), c(b));
        p[2] = s;
        q[2] = s;
        list.line(p, q, [WALL[0], WALL[1], WALL[2], 0.25]);
    }
}

/// Cubes farther than this (on any axis, centre to point) from the event stepped to fade.
const NEAR: f64 = 2.0;

fn board(scene: &ArkaScene, frame: &ArkaFrame, near: Option<Point3>, list: &mut DrawList) {
    let board = Board::new(frame.board_cells(scene));
    for (cell, &state) in board.cells.iter().enumerate() {
        if state == 0 || !(0..6).any(|f| board.is_exposed(cell, f)) {
            continue;
        }
        let [i, j, k] = cell_coords(cell);
        let min = [i as f64, j as f64, k as f64];
        let mut color = if frame.hit_now.contains(&(cell as u16)) {
            HIT_CUBE
        } else if state == INDESTRUCTIBLE {
            HARD_CUBE
        } else {
            CUBE
        };
        if let Some(p) = near {
            let far = (0..3).any(|a| (min[a] + 0.5 - p[a]).abs() > NEAR);
            if far {
                color[3] = 0.06;
            }
        }
        list.aabb(min, [min[0] + 1.0, min[1] + 1.0, min[2] + 1.0], color, false);
    }
}

/// The paddle: the rim of its flat back, and meridians from the rim to the cap's tip.
pub fn paddle(desc: &PaddleDesc, at: [f64; 2], list: &mut DrawList) {
    let c = desc.sphere_centre(at);
    let rho = desc.disc_radius();
    let n = 32;
    let rim = |k: usize| {
        let a = k as f64 / n as f64 * std::f64::consts::TAU;
        Point3::new(at[0] + rho * a.cos(), at[1] + rho * a.sin(), desc.plane_z)
    };
    for k in 0..n {
        list.line(to32(&rim(k)), to32(&rim(k + 1)), PADDLE);
    }
    // A meridian: from the rim's angle down the sphere to the tip, in the sphere's plane.
    let tip_angle = 0.0_f64;
    let rim_angle = (rho / desc.sphere_radius).asin();
    for m in 0..8 {
        let a = m as f64 / 8.0 * std::f64::consts::TAU;
        let point = |t: f64| {
            let polar = rim_angle + (tip_angle - rim_angle) * t;
            let (s, co) = (polar.sin(), polar.cos());
            Point3::new(
                c.x + desc.sphere_radius * s * a.cos(),
                c.y + desc.sphere_radius * s * a.sin(),
                c.z - desc.sphere_radius * co,
            )
        };
        for k in 0..6 {
            let (p, q) = (point(k as f64 / 6.0), point((k + 1) as f64 / 6.0));
            list.line(to32(&p), to32(&q), PADDLE);
        }
    }
    label_paddle(desc, at, list);
}

fn label_paddle(desc: &PaddleDesc, at: [f64; 2], list: &mut DrawList) {
    label(
        list,
        Point3::new(at[0], at[1], desc.plane_z + 0.3),
        "paddle".into(),
        PADDLE,
    );
}

/// The facet outlined, the region that decided the bounce filled in its colour (the facet
/// itself for the face region; the band of the grown square beside the crossed edge, or
/// the corner square at the crossed vertex), and the square grown by `r` outlined.
pub fn region_band(facet: &Facet, region: Region, crossing: &Point3, r: f64, list: &mut DrawList) {
    let c = facet.center();
    let [u, v] = facet.in_plane_axes();
    let at = |du: f64, dv: f64| {
        let mut p = c;
        p[u] += du;
        p[v] += dv;
        p
    };
    let quad = |list: &mut DrawList, (u0, v0): (f64, f64), (u1, v1): (f64, f64), color: Rgba| {
        let q = [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
        list.triangle([&q[0], &q[1], &q[2]], color, Style::Translucent);
        list.triangle([&q[0], &q[2], &q[3]], color, Style::Translucent);
    };
    let color = region_color(region);
    let g = 0.5 + r;
    // Where the crossing lies, per in-plane axis: below (−1), within (0) or above (+1).
    let side = |ax: usize| {
        let off = crossing[ax] - c[ax];
        if off > 0.5 {
            1.0
        } else if off < -0.5 {
            -1.0
        } else {
            0.0
        }
    };
    let (su, sv) = (side(u), side(v));
    let span = |s: f64| {
        if s == 0.0 {
            (-0.5, 0.5)
        } else {
            (0.5 * s, g * s)
        }
    };
    let (ur, vr) = (span(su), span(sv));
    match region {
        Region::Face => quad(list, (-0.5, -0.5), (0.5, 0.5), color),
        _ => {
            quad(list, (-0.5, -0.5), (0.5, 0.5), FACET);
            quad(list, (ur.0, vr.0), (ur.1, vr.1), color);
        }
    }
    let grown = [at(-g, -g), at(g, -g), at(g, g), at(-g, g)];
    let square = [at(-0.5, -0.5), at(0.5, -0.5), at(0.5, 0.5), at(-0.5, 0.5)];
    for k in 0..4 {
        list.line_on_top(to32(&grown[k]), to32(&grown[(k + 1) % 4]), color);
        list.line_on_top(to32(&square[k]), to32(&square[(k + 1) % 4]), SEGMENT);
    }
}
