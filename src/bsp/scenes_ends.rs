//! Scenes for the ways a slide ends that the teaching scenes do not show (spec 001 §8.8):
//! stopped head-on (too short, and reversed by rounding), five impacts in one slide
//! (`MAX_IMPACT`), a walker placed inside solid; and a box at a diamond's corner, where the
//! bevel planes matter (§13.3).

use super::Shape;
use super::level::{BspScene, box_planes, prism_planes};
use super::scene_kit::{bsp_scene, floor};
use crate::geom::{Plane, Point3, Vec3};
use crate::world::Scene;

/// The normal of the slanted wall of `bsp-head-on`: unit, and head-on against it the
/// projection of the move rounds to a tiny vector pointing back (checked by the scene test).
pub const HEAD_ON_ANGLE: f64 = 0.1096;

/// Head-on into an axis-aligned wall (the projection is exactly zero: too short), then
/// head-on into a slanted one (zero up to rounding, and here it rounds backwards: the
/// `Reversed` test, which comes first, catches it).
pub(super) fn head_on() -> Scene {
    let (c, s) = (HEAD_ON_ANGLE.cos(), HEAD_ON_ANGLE.sin());
    let n = -Vec3::new(c, 0.0, s);
    // A slab whose face, normal `n`, passes through (3, 0, 0).
    let t = Vec3::new(-s, 0.0, c);
    let face = Point3::new(3.0, 0.0, 0.0);
    let corner = |a: f64, b: f64| {
        let p = face.coords + t * a - n * b;
        (p.x, p.z)
    };
    let slab = prism_planes(
        &[
            corner(-1.5, 0.0),
            corner(1.5, 0.0),
            corner(1.5, 1.0),
            corner(-1.5, 1.0),
        ],
        0.0,
        2.0,
    );
    // The face towards the walker as the brush stores it, and a stride along it whose
    // projection rounds backwards (most strides round to exactly zero or forwards).
    let face_n = slab
        .iter()
        .map(|p| p.normal)
        .find(|m| m.dot(&n) > 0.99)
        .unwrap_or(n);
    let back = |k: &f64| {
        let v = -face_n * *k;
        v.dot(&(v - face_n * v.dot(&face_n))) < 0.0
    };
    let stride = (0..200)
        .map(|i| 0.2 + 0.001 * f64::from(i))
        .find(back)
        .unwrap_or(0.25);
    let brushes = vec![
        floor(5.0),
        box_planes([-4.0, 0.0, -1.5], [-3.0, 2.0, 1.5]),
        slab,
    ];
    let mut moves = vec![Vec3::new(-0.3, 0.0, 0.0); 12];
    moves.extend(vec![Vec3::new(0.3, 0.0, 0.0); 10]);
    moves.extend(vec![-face_n * stride; 12]);
    moves.extend(vec![face_n * stride; 12]);
    moves.extend(vec![Vec3::new(-0.3, 0.0, 0.0); 10]);
    bsp_scene(
        "bsp-head-on",
        "A sphere walks head-on into an axis-aligned wall: the projection of its move on the \
         wall is exactly zero, and the slide ends too short. Then head-on into a slanted wall: \
         the projection is zero up to rounding, here a tiny vector pointing back, and the slide \
         ends reversed (the test the article makes first).",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.3 },
            Point3::new(0.05, 0.5, 0.0),
            moves,
        ),
    )
}

/// The walls of a round room of `sides` sides, `apothem` from its centre: each wall a
/// thick slab much longer than its side (they overlap outside the room), so that inside the
/// room no wall has a convex corner within reach: the article's search, which takes a
/// plane's extension for the wall near convex corners, sees the same walls as the engine.
fn round_room(apothem: f64, sides: usize) -> Vec<Vec<Plane>> {
    let step = std::f64::consts::TAU / sides as f64;
    (0..sides)
        .map(|k| {
            // Face k centred on -90° + k step: face 0 is the one at -z.
            let a = -std::f64::consts::FRAC_PI_2 + k as f64 * step;
            let out = Vec3::new(a.cos(), 0.0, a.sin());
            let along = Vec3::new(-a.sin(), 0.0, a.cos());
            vec![
                Plane {
                    normal: -out,
                    d: -apothem,
                },
                Plane {
                    normal: out,
                    d: apothem + 10.0,
                },
                Plane {
                    normal: along,
                    d: 10.0,
                },
                Plane {
                    normal: -along,
                    d: 10.0,
                },
                Plane {
                    normal: Vec3::y(),
                    d: 2.0,
                },
                Plane {
                    normal: -Vec3::y(),
                    d: 0.0,
                },
            ]
        })
        .collect()
}

/// A sphere thrown along the wall of a round room of 32 sides: each slide follows a side,
/// meets the next one, and is projected again, five times in one frame: `MAX_IMPACT` runs
/// out. The engine keeps the last impact point; the article does not write the position,
/// and the whole move is lost.
pub(super) fn round_room_throw() -> Scene {
    let mut brushes = vec![floor(4.0)];
    brushes.extend(round_room(3.0, 32));
    let moves = vec![
        Vec3::new(4.5, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(-1.0, 0.0, 0.0),
    ];
    bsp_scene(
        "bsp-max-impact",
        "A sphere thrown along the wall of a round room (32 sides): each impact projects the \
         move on the next side, five impacts in one slide, and MAX_IMPACT runs out. The engine \
         keeps the last impact point; the article does not write the position (the whole move \
         is lost: compare with the article's slide).",
        BspScene {
            compare: true,
            ..BspScene::new(
                brushes,
                Shape::Sphere { radius: 0.3 },
                Point3::new(0.0, 0.5, -2.65),
                moves,
            )
        },
    )
}

/// A walker the level's author placed inside a thick block. The engine finds the start
/// inside solid, reports it and keeps the walker there; the article's search reaches the
/// block's solid leaf with nothing stored (every plane crossed behind), reports no impact and
/// walks through.
pub(super) fn start_solid() -> Scene {
    let brushes = vec![floor(4.0), box_planes([-1.5, 0.0, -1.5], [1.5, 2.0, 1.5])];
    bsp_scene(
        "bsp-start-solid",
        "A sphere placed by the level inside a thick block: the engine finds it inside solid, \
         says so and keeps it there; the article's search reaches the block's solid leaf with \
         nothing stored, sees no impact and walks it through the block (shown beside it).",
        BspScene {
            compare: true,
            ..BspScene::new(
                brushes,
                Shape::Sphere { radius: 0.3 },
                Point3::new(-0.5, 1.0, 0.0),
                [
                    vec![Vec3::new(0.4, 0.0, 0.1); 6],
                    vec![Vec3::new(-0.4, 0.0, -0.1); 6],
                ]
                .concat(),
            )
        },
    )
}

/// A box walker pushed at the east corner of a diamond pillar (a square turned 45°) and past
/// it. Without bevels the two faces at the corner, pushed out by the box's offsets, meet
/// `half extent` further out than the box can reach: the box stops short and is deflected
/// by a point in open space. The bevel plane through the corner (axial, facing +x) cuts that
/// spike off.
pub(super) fn bevel_corner() -> Scene {
    let brushes = vec![
        floor(5.0),
        prism_planes(
            &[(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)],
            0.0,
            2.0,
        ),
    ];
    let mut moves = vec![Vec3::new(-0.25, 0.0, 0.0); 12];
    moves.extend(vec![Vec3::new(0.25, 0.0, 0.0); 12]);
    bsp_scene(
        "bsp-bevel-corner",
        "A box pushed head-on at the corner of a diamond pillar. With bevel planes it stops \
         against the plane through the corner, its face on the corner; without them (switch \
         them off and re-simulate) the pushed-out faces meet in a spike half a box further \
         out, and the box stops there and slides off it in open space.",
        BspScene::new(
            brushes,
            Shape::Box {
                half_extents: Vec3::new(0.3, 0.3, 0.3),
            },
            Point3::new(4.0, 0.35, 0.05),
            moves,
        ),
    )
}
