//! The hierarchies' built-in scenes: mesh against mesh through two trees.

use crate::family::BuiltinScene;
use crate::world::scene_kit::{floor, scene, torus};
use crate::world::{BodyDesc, BroadPhaseKind, ProceduralMesh, Scene, ShapeDesc};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "interlocked-tori",
            description: "a ring hanging from a fixed ring: mesh against mesh through two hierarchies",
            build: interlocked_tori,
        },
        BuiltinScene {
            name: "dense-mesh-on-terrain",
            description: "a 102,400-triangle torus falling on a terrain: hierarchy traversal at scale",
            build: dense_mesh_on_terrain,
        },
    ]
}

fn interlocked_tori() -> Scene {
    // Two links of a chain: the fixed ring stands in the yz plane (its hole faces x); the
    // hanging ring stands in the xy plane with its top passing through the fixed ring's hole,
    // so it drops a little and hangs on the fixed ring's lowest point.
    let mut fixed = torus("fixed torus", 1.2, 0.25, (64, 20), [0.0, 3.0, 0.0]).fixed();
    fixed.rotation = [0.0, 0.0, std::f64::consts::FRAC_PI_2];
    fixed.color = Some([0.55, 0.6, 0.7]);
    let mut hanging = torus("hanging torus", 1.0, 0.22, (64, 20), [0.0, 1.4, 0.0]);
    hanging.rotation = [std::f64::consts::FRAC_PI_2, 0.0, 0.0];
    hanging.material = Some("steel".into());
    hanging.linear_velocity = [0.0, 0.0, 1.5];
    scene(
        "interlocked-tori",
        "A ring hanging from a fixed ring, like two chain links; contacts come from their hierarchies.",
        vec![floor(4.0), fixed, hanging],
        BroadPhaseKind::BruteForce,
    )
}

fn dense_mesh_on_terrain() -> Scene {
    let mut terrain = BodyDesc::new(
        "terrain",
        ShapeDesc::Procedural(ProceduralMesh::Terrain {
            size: 16.0,
            cells: 64,
            amplitude: 0.6,
            seed: 7,
        }),
        [0.0, 0.0, 0.0],
    )
    .fixed();
    terrain.material = Some("ground".into());
    terrain.color = Some([0.45, 0.55, 0.4]);
    let mut dense = torus("dense torus", 1.5, 0.5, (320, 160), [0.0, 3.0, 0.0]);
    dense.rotation = [0.5, 0.0, 0.2];
    dense.material = Some("wood".into());
    scene(
        "dense-mesh-on-terrain",
        "A 102,400-triangle torus falling on a 8,192-triangle terrain.",
        vec![terrain, dense],
        BroadPhaseKind::BruteForce,
    )
}
