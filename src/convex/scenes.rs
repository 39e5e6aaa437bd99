//! The convex family's built-in scenes: the thesis' own Voronoi example (two cubes, spec 003
//! §5.7), coherent orbits of larger hulls, the degenerate parallel-face case, and a
//! penetration the walk must report.

use super::scene::{ConvexScene, Path, ScriptedMotion};
use crate::families::FamilySceneData;
use crate::family::BuiltinScene;
use crate::world::scene_kit::{Lcg, scene};
use crate::world::{BodyDesc, BroadPhaseKind, Scene, ShapeDesc};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "convex-cube-walk",
            description: "a spinning cube circles a fixed one: the closest features walk \
                          through vertex, edge and face regions (the thesis' 26-region cube)",
            build: cube_walk,
        },
        BuiltinScene {
            name: "convex-orbit",
            description: "a 60-vertex hull orbits a 200-vertex one: coherent motion, where the \
                          warm-started walk takes a step or two a frame",
            build: orbit,
        },
        BuiltinScene {
            name: "convex-parallel-faces",
            description: "two boxes slide past each other face to face, then edge to edge: \
                          parallel features, where ties must not make the walk cycle",
            build: parallel_faces,
        },
        BuiltinScene {
            name: "convex-penetration",
            description: "a tetrahedron swings into a box and out again: the walk reports the \
                          edge through the face, then finds the closest features again",
            build: penetration,
        },
    ]
}

fn hull(name: &str, points: Vec<[f64; 3]>, position: [f64; 3], color: [f32; 3]) -> BodyDesc {
    let mut b = BodyDesc::new(name, ShapeDesc::ConvexHull { points }, position);
    b.fixed = true;
    b.color = Some(color);
    b
}

fn cuboid(name: &str, half: [f64; 3], position: [f64; 3], color: [f32; 3]) -> BodyDesc {
    let mut b = BodyDesc::new(name, ShapeDesc::Box { half_extents: half }, position);
    b.fixed = true;
    b.color = Some(color);
    b
}

/// Points on an ellipsoid, evenly spread (a Fibonacci lattice), slightly jittered.
pub fn ellipsoid_points(n: usize, radii: [f64; 3], seed: u64) -> Vec<[f64; 3]> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let phi = i as f64 * 2.399_963_229_728_653 + rng.range(-0.1, 0.1);
            [
                radii[0] * r * phi.cos(),
                radii[1] * r * phi.sin(),
                radii[2] * z,
            ]
        })
        .collect()
}

fn convex_scene(name: &str, description: &str, bodies: Vec<BodyDesc>, data: ConvexScene) -> Scene {
    let mut s = scene(name, description, bodies, BroadPhaseKind::BruteForce);
    s.gravity = [0.0, 0.0, 0.0];
    s.families.push(FamilySceneData::Convex(data));
    s
}

fn cube_walk() -> Scene {
    convex_scene(
        "convex-cube-walk",
        "a spinning cube circles a fixed one",
        vec![
            cuboid("fixed cube", [0.5; 3], [0.0, 0.0, 0.0], [0.55, 0.6, 0.7]),
            cuboid("walker cube", [0.35; 3], [1.6, 0.3, 0.0], [0.9, 0.6, 0.3]),
        ],
        ConvexScene {
            pairs: vec![[0, 1]],
            motions: vec![ScriptedMotion {
                body: 1,
                path: Path::Orbit {
                    radius: 0.8,
                    axis: [0.2, 1.0, 0.1],
                    period_s: 8.0,
                },
                spin: [0.3, 0.7, 0.2],
            }],
            cross_check: true,
        },
    )
}

fn orbit() -> Scene {
    convex_scene(
        "convex-orbit",
        "a 60-vertex hull orbits a 200-vertex one",
        vec![
            hull(
                "rock",
                ellipsoid_points(200, [0.9, 0.6, 0.7], 7),
                [0.0, 0.0, 0.0],
                [0.6, 0.55, 0.5],
            ),
            hull(
                "pebble",
                ellipsoid_points(60, [0.35, 0.25, 0.3], 11),
                [1.5, 0.0, 0.0],
                [0.4, 0.7, 0.5],
            ),
        ],
        ConvexScene {
            pairs: vec![[0, 1]],
            motions: vec![ScriptedMotion {
                body: 1,
                path: Path::Orbit {
                    radius: 0.75,
                    axis: [0.0, 1.0, 0.3],
                    period_s: 6.0,
                },
                spin: [0.0, 1.1, 0.4],
            }],
            cross_check: true,
        },
    )
}

fn parallel_faces() -> Scene {
    convex_scene(
        "convex-parallel-faces",
        "two boxes slide past each other face to face",
        vec![
            cuboid(
                "lower box",
                [0.6, 0.3, 0.6],
                [0.0, 0.0, 0.0],
                [0.55, 0.6, 0.7],
            ),
            cuboid(
                "upper box",
                [0.4, 0.3, 0.4],
                [-1.4, 0.75, 0.0],
                [0.9, 0.6, 0.3],
            ),
        ],
        ConvexScene {
            pairs: vec![[0, 1]],
            motions: vec![ScriptedMotion {
                body: 1,
                path: Path::Swing {
                    offset: [2.8, 0.0, 0.0],
                    period_s: 8.0,
                },
                spin: [0.0, 0.0, 0.0],
            }],
            cross_check: true,
        },
    )
}

fn penetration() -> Scene {
    let s = 0.5;
    convex_scene(
        "convex-penetration",
        "a tetrahedron swings into a box and out again",
        vec![
            cuboid("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.0], [0.55, 0.6, 0.7]),
            hull(
                "tetrahedron",
                vec![[s, s, s], [s, -s, -s], [-s, s, -s], [-s, -s, s]],
                [0.0, 1.6, 0.0],
                [0.85, 0.35, 0.35],
            ),
        ],
        ConvexScene {
            pairs: vec![[0, 1]],
            motions: vec![ScriptedMotion {
                body: 1,
                path: Path::Swing {
                    offset: [0.0, -1.0, 0.0],
                    period_s: 6.0,
                },
                spin: [0.2, 0.5, 0.0],
            }],
            cross_check: true,
        },
    )
}
