//! The cloth family's built-in scenes: one behaviour of the ray-traced narrow phase each.

use super::params::ClothParams;
use super::scene_data::{ClothScene, ExtraSheet, ObjPiece, ScriptedBody};
use crate::families::FamilySceneData;
use crate::family::BuiltinScene;
use crate::geom::{Point3, Vec3};
use crate::world::scene_kit::{floor, scene, torus};
use crate::world::{BodyDesc, BroadPhaseKind, Scene, ShapeDesc};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "cloth-sheet-on-sphere",
            description: "a sheet falls on a sphere and drapes: collision and prediction rays, \
                          the first contact frames cross the surface (inversions, corrected)",
            build: sheet_on_sphere,
        },
        BuiltinScene {
            name: "cloth-flag-in-wind",
            description: "a flag pinned along its pole flaps in the wind and folds on itself: \
                          cloth-to-cloth rays and self-collision",
            build: flag_in_wind,
        },
        BuiltinScene {
            name: "cloth-draped-rotating-box",
            description: "a sheet draped over a box turning about the vertical: the iterative \
                          cast walks while the displacement gate allows",
            build: draped_rotating_box,
        },
        BuiltinScene {
            name: "cloth-rigid-pusher",
            description: "a sheet pinned at its corners, a ball pushed up into it from below",
            build: rigid_pusher,
        },
        BuiltinScene {
            name: "cloth-large-step",
            description: "the sheet-on-sphere drop with a time step of 1/20 s and one substep: \
                          vertices cross the sphere within a step (inversions, marked)",
            build: large_step,
        },
        BuiltinScene {
            name: "cloth-sheet-on-edge",
            description: "a sheet held vertical falls on its bottom edge onto the floor: the \
                          landing row's rays run parallel to the floor, so only the inversion \
                          test sees it cross, then the sheet buckles and folds down",
            build: sheet_on_edge,
        },
        BuiltinScene {
            name: "cloth-draped-torus",
            description: "a sheet falls over a torus lying on the floor, a non-convex body: \
                          it drapes over the ring and sags into the hole, where rays meet the \
                          inner wall",
            build: draped_torus,
        },
        BuiltinScene {
            name: "cloth-stacked-sheets",
            description: "three sheets, each smaller and turned a little more, dropped one above \
                          the other onto a box: they land and pile up, kept apart by the \
                          cloth-to-cloth rays between sheets",
            build: stacked_sheets,
        },
        BuiltinScene {
            name: "cloth-two-sheets-on-ball",
            description: "two sheets fall on a ball, the upper one fast onto the lower: its \
                          vertices cross the lower sheet within a step, and inversion \
                          detection puts them back (turn it off under Switches to see the \
                          sheets tangle, Fig. 3.25)",
            build: two_sheets_on_ball,
        },
        BuiltinScene {
            name: "cloth-skirt-on-ball",
            description: "a skirt made from a triangle mesh (assets/meshes/cloth-skirt.obj) \
                          falls on a ball: its waist, narrower than the ball, catches on it and \
                          the hem drapes and folds around it",
            build: skirt_on_ball,
        },
        BuiltinScene {
            name: "cloth-corner-poke",
            description: "a cube, corner up, pushed into a coarse sheet between its vertices: \
                          the sheet's own rays miss the corner, the cube's vertices' rays \
                          (volume → cloth) lift the sheet over it (turn them off under Switches \
                          to see the corner go through)",
            build: corner_poke,
        },
    ]
}

/// A flat `n × n` sheet of side `size` centred above the origin at `height`.
fn square_sheet(n: u32, size: f64, height: f64, params: ClothParams) -> ClothScene {
    ClothScene {
        columns: n,
        rows: n,
        corner: Point3::new(-size / 2.0, height, -size / 2.0),
        u: Vec3::new(0.0, 0.0, size),
        v: Vec3::new(size, 0.0, 0.0),
        pinned: Vec::new(),
        initial_velocity: Vec3::zeros(),
        params: Box::new(params),
        substeps: 2,
        scripted: Vec::new(),
        extra_sheets: Vec::new(),
        obj_pieces: Vec::new(),
    }
}

fn cloth_scene(name: &str, description: &str, bodies: Vec<BodyDesc>, data: ClothScene) -> Scene {
    let mut s = scene(name, description, bodies, BroadPhaseKind::BruteForce);
    s.families.push(FamilySceneData::Cloth(data));
    s
}

fn sheet_on_sphere() -> Scene {
    let ball = BodyDesc::new("ball", ShapeDesc::Sphere { radius: 0.5 }, [0.0, 0.5, 0.0]).fixed();
    let data = square_sheet(20, 1.6, 1.3, ClothParams::default());
    cloth_scene(
        "cloth-sheet-on-sphere",
        "a sheet falls on a sphere and drapes",
        vec![floor(3.0), ball],
        data,
    )
}

fn flag_in_wind() -> Scene {
    let params = ClothParams {
        wind_mps: Vec3::new(6.0, 0.0, 2.5),
        wind_drag: 2.0,
        ..ClothParams::default()
    };
    let (columns, rows) = (20, 14);
    let mut data = ClothScene {
        columns,
        rows,
        corner: Point3::new(0.0, 1.0, 0.0),
        u: Vec3::new(1.6, 0.0, 0.0),
        v: Vec3::new(0.0, 1.0, 0.0),
        pinned: Vec::new(),
        initial_velocity: Vec3::zeros(),
        params: Box::new(params),
        substeps: 2,
        scripted: Vec::new(),
        extra_sheets: Vec::new(),
        obj_pieces: Vec::new(),
    };
    // The pole: the first vertex of every row.
    data.pinned = (0..rows).map(|j| j * columns).collect();
    let pole = BodyDesc::new(
        "pole",
        ShapeDesc::Capsule {
            radius: 0.03,
            half_height: 1.0,
        },
        [-0.05, 1.0, 0.0],
    )
    .fixed();
    cloth_scene(
        "cloth-flag-in-wind",
        "a flag in the wind folds on itself",
        vec![floor(3.0), pole],
        data,
    )
}

fn draped_rotating_box() -> Scene {
    let table = BodyDesc::new(
        "turning box",
        ShapeDesc::Box {
            half_extents: [0.35, 0.35, 0.35],
        },
        [0.0, 0.35, 0.0],
    )
    .fixed();
    let mut data = square_sheet(20, 1.4, 1.0, ClothParams::default());
    data.scripted.push(ScriptedBody {
        body: 1,
        linear_mps: Vec3::zeros(),
        angular_rps: Vec3::new(0.0, 0.8, 0.0),
        frames: u64::MAX,
    });
    cloth_scene(
        "cloth-draped-rotating-box",
        "a sheet draped over a turning box",
        vec![floor(3.0), table],
        data,
    )
}

fn rigid_pusher() -> Scene {
    let ball = BodyDesc::new(
        "pusher",
        ShapeDesc::Sphere { radius: 0.25 },
        [0.0, 0.35, 0.0],
    )
    .fixed();
    let mut data = square_sheet(20, 1.6, 1.0, ClothParams::default());
    data.pinned = vec![0, 19, 380, 399];
    data.scripted.push(ScriptedBody {
        body: 1,
        linear_mps: Vec3::new(0.0, 0.5, 0.0),
        angular_rps: Vec3::zeros(),
        frames: 120,
    });
    cloth_scene(
        "cloth-rigid-pusher",
        "a ball pushed up into a sheet pinned at its corners",
        vec![floor(3.0), ball],
        data,
    )
}

/// What the volume → cloth rays are for (§4.3 a): a sheet of 23 cm cells pinned at its
/// corners, and a 10 cm cube turned corner up, pushed 0.75 m up into the middle of a cell at
/// 0.5 m/s, then held there.
fn corner_poke() -> Scene {
    // The cube's diagonal (1, 1, 1) turned onto +y: about (-1, 0, 1) by acos(1/√3).
    let mut cube = BodyDesc::new(
        "cube",
        ShapeDesc::Box {
            half_extents: [0.05; 3],
        },
        [0.0, 0.35, 0.0],
    )
    .fixed();
    cube.rotation = [-0.6755, 0.0, 0.6755];
    let n = 8;
    let mut data = square_sheet(n, 1.6, 1.0, ClothParams::default());
    data.pinned = vec![0, n - 1, n * (n - 1), n * n - 1];
    data.scripted.push(ScriptedBody {
        body: 1,
        linear_mps: Vec3::new(0.0, 0.5, 0.0),
        angular_rps: Vec3::zeros(),
        frames: 90,
    });
    cloth_scene(
        "cloth-corner-poke",
        "a cube's corner pushed into a coarse sheet between its vertices",
        vec![floor(3.0), cube],
        data,
    )
}

/// What the thesis' inversion test is for: steps so long that a falling vertex goes from one
/// side of the sphere's surface to the other between two detections.
fn large_step() -> Scene {
    let ball = BodyDesc::new("ball", ShapeDesc::Sphere { radius: 0.5 }, [0.0, 0.5, 0.0]).fixed();
    let mut data = square_sheet(20, 1.6, 1.3, ClothParams::default());
    data.substeps = 1;
    data.initial_velocity = Vec3::new(0.0, -3.0, 0.0);
    let mut s = cloth_scene(
        "cloth-large-step",
        "a sheet thrown at a sphere with long steps: inversions",
        vec![floor(3.0), ball],
        data,
    );
    s.solver.dt_s = 1.0 / 20.0;
    s
}

/// The thesis' "sheet on edge" scene: a vertical sheet whose bottom row lands first. Those
/// vertices' normals are horizontal, so their rays run along the floor and never meet its top:
/// a vertex that sinks into the floor is seen only by its rays hitting the floor box's far
/// sides from inside, and by the inversion test. A slight tilt makes the sheet fold over.
fn sheet_on_edge() -> Scene {
    let size = 1.0;
    let lean = 0.08;
    let data = ClothScene {
        columns: 16,
        rows: 16,
        corner: Point3::new(-size / 2.0, 0.25, 0.0),
        u: Vec3::new(size, 0.0, 0.0),
        v: Vec3::new(0.0, size, lean),
        pinned: Vec::new(),
        initial_velocity: Vec3::zeros(),
        params: Box::default(),
        substeps: 2,
        scripted: Vec::new(),
        extra_sheets: Vec::new(),
        obj_pieces: Vec::new(),
    };
    cloth_scene(
        "cloth-sheet-on-edge",
        "a vertical sheet dropped on its bottom edge",
        vec![floor(3.0)],
        data,
    )
}

/// A cloth over a non-convex body: the torus' hole lets the sheet sag below the ring's top,
/// so rays from the sagging part meet the inner wall from the side, and a vertex can be
/// inside the ring's tube with both rays hitting its inside.
fn draped_torus() -> Scene {
    let ring = torus("torus", 0.45, 0.15, (40, 14), [0.0, 0.15, 0.0]).fixed();
    let data = square_sheet(20, 1.4, 0.7, ClothParams::default());
    cloth_scene(
        "cloth-draped-torus",
        "a sheet draped over a torus",
        vec![floor(3.0), ring],
        data,
    )
}

/// A level square sheet of side `size` centred on the vertical axis at `height`, turned by
/// `turn_rad` about it; `u × v` points up, as in [`square_sheet`].
fn turned_sheet(n: u32, size: f64, height: f64, turn_rad: f64) -> ExtraSheet {
    let (sin, cos) = turn_rad.sin_cos();
    let u = Vec3::new(-sin, 0.0, cos) * size;
    let v = Vec3::new(cos, 0.0, sin) * size;
    ExtraSheet {
        columns: n,
        rows: n,
        corner: Point3::new(0.0, height, 0.0) - (u + v) / 2.0,
        u,
        v,
        pinned: Vec::new(),
    }
}

/// Issue 12: several sheets stacking. One cloth of three disconnected sheets, so the
/// self-collision rays are what keeps one sheet off another. Each sheet is smaller than the
/// one below and turned within its footprint (flat, no sheet reaches past the borders of
/// those below, so every part of it lands on cloth), 5 cm apart at the start: the lowest
/// lands on the box first, the others on it, and their flaps drape over the box's sides one
/// over the other. The grids keep about the same spacing (5.3 cm), so a vertex finds a
/// triangle of similar size below it. Three substeps keep the fastest landing (the top
/// sheet's, about 1.5 m/s after an 11 cm fall) at 8 mm per substep, under the half
/// thickness: a vertex enters the shell of the sheet below before it can cross it.
fn stacked_sheets() -> Scene {
    let table = BodyDesc::new(
        "box",
        ShapeDesc::Box {
            half_extents: [0.25, 0.25, 0.25],
        },
        [0.0, 0.25, 0.0],
    )
    .fixed();
    let mut data = square_sheet(20, 1.0, 0.56, ClothParams::default());
    data.substeps = 3;
    data.extra_sheets = vec![
        turned_sheet(16, 0.8, 0.61, 15f64.to_radians()),
        turned_sheet(12, 0.6, 0.66, 30f64.to_radians()),
    ];
    cloth_scene(
        "cloth-stacked-sheets",
        "three sheets dropped one above the other onto a box",
        vec![floor(3.0), table],
        data,
    )
}

/// Fig. 3.25: two sheets fall on a ball. The lower lands first; the upper, dropped 0.35 m
/// above it, meets it at about 2.6 m/s, 2.2 cm a substep: more than the two shells' 2 cm,
/// so its vertices cross the lower sheet within a substep and only the inversion test sees
/// them (without it the two sheets tangle). One cloth of two sheets, so the self rays are
/// what keeps one off the other.
fn two_sheets_on_ball() -> Scene {
    let ball = BodyDesc::new("ball", ShapeDesc::Sphere { radius: 0.5 }, [0.0, 0.5, 0.0]).fixed();
    let mut data = square_sheet(20, 1.6, 1.1, ClothParams::default());
    data.extra_sheets = vec![turned_sheet(18, 1.4, 1.45, 20f64.to_radians())];
    cloth_scene(
        "cloth-two-sheets-on-ball",
        "two sheets fall on a ball, one onto the other",
        vec![floor(3.0), ball],
        data,
    )
}

/// The skirt's OBJ, embedded so that the built-in scene needs no file (its header carries the
/// text, as a scene file's loaded OBJ does). Made by scripts/cloth-skirt-obj.py.
const SKIRT_OBJ: &str = include_str!("../../assets/meshes/cloth-skirt.obj");

/// Issue 28: cloth from any triangle mesh. A cone frustum (1,080 vertices, near-equilateral
/// triangles 3.3–8.4 cm a side) whose waist (radius 0.32 m) is narrower than the ball (0.5 m):
/// dropped 16 cm above where the waist meets the ball, it catches there, and the hem, wider
/// than the ball, swings in against its side and buckles into folds (self rays between them).
/// A cloth of a mesh piece only: no grid sheet.
fn skirt_on_ball() -> Scene {
    let ball = BodyDesc::new("ball", ShapeDesc::Sphere { radius: 0.5 }, [0.0, 0.5, 0.0]).fixed();
    let data = ClothScene {
        columns: 0,
        rows: 0,
        corner: Point3::origin(),
        u: Vec3::zeros(),
        v: Vec3::zeros(),
        pinned: Vec::new(),
        initial_velocity: Vec3::zeros(),
        params: Box::default(),
        substeps: 2,
        scripted: Vec::new(),
        extra_sheets: Vec::new(),
        obj_pieces: vec![ObjPiece {
            obj: "assets/meshes/cloth-skirt.obj".into(),
            translation: Vec3::new(0.0, 1.05, 0.0),
            scale: 1.0,
            pinned: Vec::new(),
            text: SKIRT_OBJ.into(),
        }],
    };
    cloth_scene(
        "cloth-skirt-on-ball",
        "a skirt from an OBJ mesh falls on a ball",
        vec![floor(3.0), ball],
        data,
    )
}
