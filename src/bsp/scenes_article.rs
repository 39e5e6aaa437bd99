//! One scene per defect of the article's search and slide (spec 001 §7.5, §8.8, §13), each
//! run by the engine with the article's slide recorded beside it (`compare`), so the viewer
//! draws both: where the article goes wrong and what the engine does instead. (The start
//! inside solid and `MAX_IMPACT` ones are `bsp-start-solid` and `bsp-max-impact`.)

use super::Shape;
use super::level::{BspScene, box_planes};
use super::scene_kit::{bsp_scene, floor};
use crate::geom::{Plane, Point3, Vec3};
use crate::world::Scene;

fn compared(brushes: Vec<Vec<Plane>>, radius: f64, start: Point3, moves: Vec<Vec3>) -> BspScene {
    BspScene {
        compare: true,
        ..BspScene::new(brushes, Shape::Sphere { radius }, start, moves)
    }
}

/// Spec 001 §13.1's first case, scaled by two: a move that crosses the extension of the
/// block's face x = 0 in open space (at t = 0.5) before it enters by the face z = 0 (t = 0.8).
pub(super) fn plane_extension() -> Scene {
    let brushes = vec![floor(6.0), box_planes([0.0, 0.0, 0.0], [2.0, 1.5, 2.0])];
    bsp_scene(
        "bsp-article-extension",
        "A sphere's move crosses the extension of the block's west face in open space, 1.5 \
         from the block, before it reaches the block's south face. The article keeps the \
         smallest entering fraction, stops there and slides along a wall that is not there; \
         the engine takes the latest entry and the earliest exit and stops at the south face.",
        compared(
            brushes,
            0.2,
            Point3::new(-1.2, 0.5, -4.2),
            vec![Vec3::new(2.0, 0.0, 5.0), Vec3::new(-2.0, 0.0, -5.0)],
        ),
    )
}

/// Spec 001 §13.1's second case, scaled by two: a move past the block's north-east corner,
/// outside it, that the article's entry-only test takes for an impact on the north face.
pub(super) fn phantom_corner() -> Scene {
    let brushes = vec![floor(6.0), box_planes([0.0, 0.0, 0.0], [2.0, 1.5, 2.0])];
    bsp_scene(
        "bsp-article-phantom",
        "A sphere passes outside the block's north-east corner. The article's search sees the \
         move enter the north face's plane (it ignores that the move has already left by the \
         east one) and stops it in open space; the engine sees the exit before the entry: a \
         miss.",
        compared(
            brushes,
            0.2,
            Point3::new(1.0, 0.5, 4.4),
            vec![Vec3::new(3.4, 0.0, -3.4), Vec3::new(-3.4, 0.0, 3.4)],
        ),
    )
}

/// A walker resting inside the skin of the floor (0.005 above it, the skin is 0.01) that
/// moves forward and a little down: the article's impact fraction is negative, and its slide
/// moves the walker back along the move before it projects the rest.
pub(super) fn inside_skin() -> Scene {
    let brushes = vec![floor(6.0)];
    bsp_scene(
        "bsp-article-skin",
        "A sphere 0.005 above the floor (inside the 0.01 skin) moves forward and a little down. \
         The article's impact fraction is (0.005 - 0.01) / 0.01 = -0.5: its slide first moves \
         the sphere back half a move, against its velocity. The engine clamps the fraction to \
         0: no move back.",
        compared(
            brushes,
            0.3,
            Point3::new(-4.0, 0.305, 0.0),
            vec![Vec3::new(1.0, -0.01, 0.0); 8],
        ),
    )
}

/// The slanted wall's face as the level writes it: normal (-0.7, 0, -0.7), of length 0.99.
pub const ROUNDED_NORMAL: [f64; 3] = [-0.7, 0.0, -0.7];

/// A 45° wall whose face normal the level rounds to one decimal, length 0.99 (the engine
/// makes normals unit; the article uses them as written). Projected on it, the move still
/// heads 2 % into the wall; the next search hits the same wall again after no move, the
/// article's slide holds the same normal twice, neither projection passes the other, and
/// the crease of a wall with itself normalises a zero vector: NaN.
pub(super) fn nan_crease() -> Scene {
    let n = Vec3::from(ROUNDED_NORMAL);
    // The face through (1, 0, 1); the wall 0.5 thick behind it, 4 long.
    let unit = n.normalize();
    let along = Vec3::new(-unit.z, 0.0, unit.x);
    let o = Vec3::new(1.0, 0.0, 1.0);
    let mut wall: Vec<Plane> = vec![
        Plane {
            normal: n,
            d: n.dot(&o),
        },
        Plane {
            normal: -unit,
            d: -unit.dot(&(o - unit * 0.5)),
        },
        Plane {
            normal: along,
            d: along.dot(&(o + along * 2.0)),
        },
        Plane {
            normal: -along,
            d: -along.dot(&(o - along * 2.0)),
        },
    ];
    wall.push(Plane {
        normal: Vec3::y(),
        d: 2.0,
    });
    wall.push(Plane {
        normal: -Vec3::y(),
        d: 0.0,
    });
    bsp_scene(
        "bsp-article-nan",
        "A sphere runs into a 45° wall whose normal the level wrote with one decimal, (-0.7, 0, \
         -0.7), length 0.99. The article projects on it as written: the move still heads into \
         the wall, the next search hits it again after no move, the same normal is held twice \
         and their crease is the normalised zero vector: the position would be NaN (the walker \
         is held, and the timeline marks it). The engine makes the normal unit and slides.",
        compared(
            vec![floor(6.0), wall],
            0.3,
            Point3::new(0.3, 0.5, 0.7),
            vec![Vec3::new(1.2, 0.0, 0.6), Vec3::new(-1.2, 0.0, -0.6)],
        ),
    )
}
