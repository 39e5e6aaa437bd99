//! The BSP family's built-in scenes: one teaching case each (spec 001 §8.10), and `.map`
//! levels read into a scene with the walker at the player start.

use super::Shape;
use super::level::{BspScene, box_planes};
use super::map::load_map;
use crate::family::BuiltinScene;
use crate::geom::{Plane, Point3, Vec3};
use crate::world::{Scene, SceneError};
use std::path::Path;

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "bsp-room-stairs",
            description: "a capsule walks around a walled room and into a flight of stairs: \
                          one-wall slides, the risers stop it",
            build: room_with_stairs,
        },
        BuiltinScene {
            name: "bsp-corridor",
            description: "a sphere grazes a convex corner (no false impact) and runs into a \
                          concave crease it follows",
            build: corridor,
        },
        BuiltinScene {
            name: "bsp-ramp",
            description: "a box pushed forward and down slides up and along a ramp",
            build: ramp,
        },
        BuiltinScene {
            name: "bsp-narrow-gap",
            description: "a sphere wider than a gap between two blocks slides along them and \
                          never passes",
            build: narrow_gap,
        },
        BuiltinScene {
            name: "bsp-three-plane-corner",
            description: "a sphere pushed into the corner of a floor and two walls: crease, \
                          then a corner stop",
            build: three_plane_corner,
        },
        BuiltinScene {
            name: "bsp-mesh-u-block",
            description: "a level built from a closed non-convex mesh (a U-shaped block cut \
                          into convex brushes): a sphere walks into the U's pocket",
            build: mesh_u_block,
        },
        BuiltinScene {
            name: "bsp-faces",
            description: "three pillars whose cross-section's faces, inserted in order, make \
                          the article's BSP (faces A–J, three solid leaves)",
            build: faces,
        },
        BuiltinScene {
            name: "bsp-head-on",
            description: "a sphere head-on into walls: the slide ends too short, then reversed \
                          (the projection rounds backwards)",
            build: super::scenes_ends::head_on,
        },
        BuiltinScene {
            name: "bsp-max-impact",
            description: "a sphere thrown along a round room's wall: five impacts in one slide, \
                          MAX_IMPACT runs out (the article loses the move)",
            build: super::scenes_ends::round_room_throw,
        },
        BuiltinScene {
            name: "bsp-start-solid",
            description: "a sphere placed inside a block: the engine says so and keeps it; the \
                          article walks through",
            build: super::scenes_ends::start_solid,
        },
        BuiltinScene {
            name: "bsp-bevel-corner",
            description: "a box at a diamond pillar's corner: stops short without bevel planes",
            build: super::scenes_ends::bevel_corner,
        },
        BuiltinScene {
            name: "bsp-article-extension",
            description: "the article's early hit on a plane's extension, beside the engine's",
            build: super::scenes_article::plane_extension,
        },
        BuiltinScene {
            name: "bsp-article-phantom",
            description: "the article's phantom hit past a convex corner, beside the engine's miss",
            build: super::scenes_article::phantom_corner,
        },
        BuiltinScene {
            name: "bsp-article-skin",
            description: "the article's negative fraction: a start inside the skin moves back",
            build: super::scenes_article::inside_skin,
        },
        BuiltinScene {
            name: "bsp-article-nan",
            description: "the article's NaN crease: a wall with a rounded normal met twice",
            build: super::scenes_article::nan_crease,
        },
    ]
}

/// Ten frames each way, in a loop: the walker comes back and does it again.
fn back_and_forth(m: Vec3, frames: usize) -> Vec<Vec3> {
    let mut out = vec![m; frames];
    out.extend(std::iter::repeat_n(-m, frames));
    out
}

fn room_with_stairs() -> Scene {
    let mut brushes = vec![
        box_planes([-5.0, -0.5, -5.0], [5.0, 0.0, 5.0]),
        box_planes([-5.5, -0.5, -5.5], [-5.0, 3.0, 5.5]),
        box_planes([5.0, -0.5, -5.5], [5.5, 3.0, 5.5]),
        box_planes([-5.0, -0.5, -5.5], [5.0, 3.0, -5.0]),
        box_planes([-5.0, -0.5, 5.0], [5.0, 3.0, 5.5]),
    ];
    for k in 0..6 {
        let x0 = 1.0 + 0.5 * k as f64;
        brushes.push(box_planes(
            [x0, 0.0, -2.0],
            [5.0, 0.2 * (k + 1) as f64, 2.0],
        ));
    }
    let mut moves = vec![Vec3::new(0.12, -0.02, 0.03); 40];
    moves.extend(vec![Vec3::new(-0.05, -0.02, 0.12); 40]);
    moves.extend(vec![Vec3::new(-0.07, -0.02, -0.15); 40]);
    super::scene_kit::bsp_scene(
        "bsp-room-stairs",
        "A capsule walks in a walled room, into the stairs' risers and along the walls.",
        BspScene::new(
            brushes,
            Shape::Capsule {
                radius: 0.3,
                half_height: 0.5,
            },
            Point3::new(-3.0, 0.82, 0.0),
            moves,
        ),
    )
}

fn corridor() -> Scene {
    // An L-shaped corridor: the inner block's corner is convex, the outer walls meet in a
    // concave crease.
    let brushes = vec![
        box_planes([-6.0, -0.5, -6.0], [6.0, 0.0, 6.0]),
        box_planes([-1.0, 0.0, -6.0], [6.0, 2.0, 1.0]),
        box_planes([-4.0, 0.0, -6.0], [-3.0, 2.0, 4.0]),
        box_planes([-4.0, 0.0, 4.0], [6.0, 2.0, 5.0]),
    ];
    let mut moves = vec![Vec3::new(0.0, 0.0, 0.1); 25];
    moves.extend(vec![Vec3::new(0.12, 0.0, 0.05); 30]);
    moves.extend(vec![Vec3::new(-0.1, -0.01, 0.1); 30]);
    // East along the north leg, then two long strides south-west that cut the inner block's
    // convex corner outside it: the second passes the extensions of both its faces there
    // (no impact; the article's entry-only test reports one).
    moves.extend(vec![Vec3::new(0.12, 0.0, 0.0); 20]);
    moves.extend(vec![Vec3::new(-1.0, 0.0, -1.0); 2]);
    moves.extend(vec![Vec3::new(0.0, 0.0, -0.12); 30]);
    super::scene_kit::bsp_scene(
        "bsp-corridor",
        "A sphere walks an L-shaped corridor: along the inner block, into the concave crease of \
         the outer walls, then in two long strides across the convex corner of the inner \
         block, outside it (no impact, though the move crosses both faces' extensions).",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.4 },
            Point3::new(-2.0, 0.5, -4.0),
            moves,
        ),
    )
}

fn ramp() -> Scene {
    let slope = Vec3::new(-0.5, 1.0, 0.0).normalize();
    let ramp = vec![
        Plane {
            normal: slope,
            d: slope.dot(&Vec3::new(0.0, 0.0, 0.0)),
        },
        Plane {
            normal: Vec3::new(0.0, -1.0, 0.0),
            d: 0.0,
        },
        Plane {
            normal: Vec3::new(1.0, 0.0, 0.0),
            d: 4.0,
        },
        Plane {
            normal: Vec3::new(0.0, 0.0, 1.0),
            d: 2.0,
        },
        Plane {
            normal: Vec3::new(0.0, 0.0, -1.0),
            d: 2.0,
        },
    ];
    let brushes = vec![box_planes([-4.0, -0.5, -3.0], [6.0, 0.0, 3.0]), ramp];
    super::scene_kit::bsp_scene(
        "bsp-ramp",
        "A box pushed forward and down slides along the floor, up the ramp and back.",
        BspScene::new(
            brushes,
            Shape::Box {
                half_extents: Vec3::new(0.3, 0.3, 0.3),
            },
            Point3::new(-3.0, 0.32, 0.5),
            back_and_forth(Vec3::new(0.15, -0.05, 0.0), 40),
        ),
    )
}

fn narrow_gap() -> Scene {
    let brushes = vec![
        box_planes([-5.0, -0.5, -3.0], [5.0, 0.0, 3.0]),
        box_planes([-1.0, 0.0, -3.0], [1.0, 2.0, -0.2]),
        box_planes([-1.0, 0.0, 0.2], [1.0, 2.0, 3.0]),
    ];
    super::scene_kit::bsp_scene(
        "bsp-narrow-gap",
        "A sphere 0.8 wide is pushed into a 0.4 gap between two blocks: it stops at the mouth \
         and slides along the faces, never through.",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.4 },
            Point3::new(-3.0, 0.42, 0.1),
            back_and_forth(Vec3::new(0.12, -0.01, 0.01), 35),
        ),
    )
}

fn three_plane_corner() -> Scene {
    let brushes = vec![
        box_planes([-3.0, -0.5, -3.0], [3.0, 0.0, 3.0]),
        box_planes([2.0, 0.0, -3.0], [3.0, 2.0, 3.0]),
        box_planes([-3.0, 0.0, 2.0], [2.0, 2.0, 3.0]),
    ];
    super::scene_kit::bsp_scene(
        "bsp-three-plane-corner",
        "A sphere pushed down and into the corner of the floor and two walls: it slides along \
         a wall, follows the crease, then stops in the corner.",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.5 },
            Point3::new(-1.0, 0.52, -1.0),
            back_and_forth(Vec3::new(0.1, -0.03, 0.13), 30),
        ),
    )
}

/// A `.map` level as a scene: its world brushes, a sphere walker at the player start (or
/// above the level's middle), circling slowly.
/// Quake's z-up frame turned into the scenes' y-up one (a rotation about x: the file's up
/// becomes +y, its +y becomes -z), so standing shapes (cylinders, capsules, the player box)
/// stand on the level's floors and the viewer's walk mode moves on them.
pub fn z_up_to_y_up(v: &Vec3) -> Point3 {
    Point3::new(v.x, v.z, -v.y)
}

pub fn from_map_file(path: &Path) -> Result<Scene, SceneError> {
    let level = load_map(path).map_err(|e| SceneError::Family {
        entry: None,
        // Line 0: the file could not be read at all.
        line: (e.line > 0).then_some(e.line),
        file: path.to_path_buf(),
        family: "bsp",
        cause: e.cause,
    })?;
    let mut bounds = crate::geom::Aabb::empty();
    for b in &level.brushes {
        bounds = bounds.merged(&b.bounds);
    }
    let start = z_up_to_y_up(&level.player_start.unwrap_or_else(|| bounds.center()).coords);
    let brushes = level
        .brushes
        .iter()
        .map(|b| {
            b.faces()
                .iter()
                .map(|p| Plane {
                    normal: z_up_to_y_up(&p.normal).coords,
                    d: p.d,
                })
                .collect()
        })
        .collect();
    // Round the level on the ground, pressing down a little so the walker follows floors.
    let moves = (0..120)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 120.0;
            z_up_to_y_up(&Vec3::new(a.cos() * 8.0, a.sin() * 8.0, -2.0)).coords
        })
        .collect();
    let name = path
        .file_name()
        .map_or("map".to_string(), |n| n.to_string_lossy().into_owned());
    let mut description = format!(
        "{} world brushes from {} ({} format); walker at the player start",
        level.brushes.len(),
        path.display(),
        if level.valve220 {
            "Valve 220"
        } else {
            "standard"
        },
    );
    for note in &level.notes {
        description.push_str(&format!("\nnote: {note}"));
    }
    Ok(super::scene_kit::bsp_scene(
        &name,
        &description,
        BspScene::new(
            brushes,
            // Quake's player box (32 × 56 units about the origin's height), standing along y.
            Shape::Box {
                half_extents: Vec3::new(16.0, 24.0, 16.0),
            },
            start,
            moves,
        ),
    ))
}

/// The level is a triangle mesh, not brushes: a U-shaped block that the mesh BSP cuts into
/// convex brushes (`mesh_bsp`), on a floor. The sphere walks into the U's pocket, meets its
/// back wall, is pushed into the corner with a side wall, then walks out.
fn mesh_u_block() -> Scene {
    let block = super::u_block::u_block(Point3::new(-1.5, 0.0, -1.5), 1.0, 1.5);
    let mut brushes = vec![box_planes([-4.0, -0.5, -4.0], [4.0, 0.0, 4.0])];
    // The block is built above and tested closed (the scene's test checks the brushes are
    // there); were it not, the floor alone would still make a scene.
    if let Ok(built) = super::mesh_bsp::brushes_from_mesh(&block.vertices, &block.triangles) {
        brushes.extend(built.brushes.iter().map(|b| b.faces().to_vec()));
    }
    // Straight into the pocket to its back wall, then into the corner with the side wall
    // (a crease, then a stop), then back out.
    let mut moves = vec![Vec3::new(0.0, 0.0, -0.1); 35];
    moves.extend(vec![Vec3::new(0.08, 0.0, -0.02); 10]);
    moves.extend(vec![Vec3::new(-0.02, 0.0, 0.1); 45]);
    super::scene_kit::bsp_scene(
        "bsp-mesh-u-block",
        "A level made from a closed triangle mesh: a U-shaped block cut into convex brushes by \
         the mesh BSP (solid cells become brushes). The sphere walks into the U's pocket to \
         its back wall, is pushed into the corner with a side wall, then walks out.",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.3 },
            Point3::new(0.0, 0.35, 3.0),
            moves,
        ),
    )
}

/// The article's "bsp" figure, in the spirit of its lost image: three closed objects (a
/// triangle, a quadrilateral, a triangle) cut at the walker's height give faces A–J; inserted
/// in order they make a tree whose three kinds of solid leaf are the objects' insides. The
/// walker weaves between them.
fn faces() -> Scene {
    let brushes = vec![
        box_planes([-5.0, -0.5, -5.0], [5.0, 0.0, 5.0]),
        super::level::prism_planes(&[(-3.0, -1.0), (-1.0, -2.0), (-2.0, 0.5)], 0.0, 1.5),
        super::level::prism_planes(
            &[(0.5, -0.5), (2.0, -1.0), (2.5, 1.0), (1.0, 1.2)],
            0.0,
            1.5,
        ),
        super::level::prism_planes(&[(-1.0, 2.0), (1.0, 2.5), (-0.5, 3.5)], 0.0, 1.5),
    ];
    let mut moves = vec![Vec3::new(0.1, 0.0, 0.12); 25];
    moves.extend(vec![Vec3::new(-0.14, 0.0, 0.02); 25]);
    moves.extend(vec![Vec3::new(0.04, 0.0, -0.14); 25]);
    super::scene_kit::bsp_scene(
        "bsp-faces",
        "Three pillars. Cut at the walker's height, their faces (A-J, brush by brush) inserted \
         one by one make the article's BSP: open 'Face-insertion BSP' in the panel for the \
         tree, its solid (-) and empty (+) leaves.",
        BspScene::new(
            brushes,
            Shape::Sphere { radius: 0.3 },
            Point3::new(-0.5, 0.5, -0.5),
            moves,
        ),
    )
}
