//! The broad phase's built-in scenes.

use crate::family::BuiltinScene;
use crate::world::scene_kit::{Lcg, floor, scene};
use crate::world::{BodyDesc, BroadPhaseKind, Scene, ShapeDesc};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![BuiltinScene {
        name: "convex-pile",
        description: "300 convex hulls poured into a box: the sweep-and-prune broad phase",
        build: convex_pile,
    }]
}

fn convex_pile() -> Scene {
    let mut rng = Lcg(77);
    let mut bodies = vec![floor(5.0)];
    for (name, pos, half) in [
        ("wall +x", [2.6, 1.5, 0.0], [0.1, 1.5, 2.7]),
        ("wall -x", [-2.6, 1.5, 0.0], [0.1, 1.5, 2.7]),
        ("wall +z", [0.0, 1.5, 2.6], [2.7, 1.5, 0.1]),
        ("wall -z", [0.0, 1.5, -2.6], [2.7, 1.5, 0.1]),
    ] {
        let mut w = BodyDesc::new(name, ShapeDesc::Box { half_extents: half }, pos).fixed();
        w.color = Some([0.5, 0.5, 0.55]);
        bodies.push(w);
    }
    for i in 0..300 {
        let (layer, slot) = (i / 36, i % 36);
        let position = [
            -2.0 + 0.8 * (slot % 6) as f64 + rng.range(-0.1, 0.1),
            2.0 + 0.8 * layer as f64,
            -2.0 + 0.8 * (slot / 6) as f64 + rng.range(-0.1, 0.1),
        ];
        let points = (0..10)
            .map(|_| {
                [
                    rng.range(-0.3, 0.3),
                    rng.range(-0.3, 0.3),
                    rng.range(-0.3, 0.3),
                ]
            })
            .collect();
        let mut b = BodyDesc::new(
            format!("hull-{i}"),
            ShapeDesc::ConvexHull { points },
            position,
        );
        b.material = Some(["wood", "rubber", "steel"][i % 3].into());
        b.rotation = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        bodies.push(b);
    }
    let mut pile = scene(
        "convex-pile",
        "300 convex hulls poured into a box; sweep and prune finds the pairs.",
        bodies,
        BroadPhaseKind::SweepAndPrune,
    );
    // Hulls struck mid-fall spin at 20-35 rad/s. The historical solver needed four whole
    // substeps to keep them within the tolerance; small steps seek the contacts once a frame
    // and again between substeps only for the pairs turning fast.
    pile.solver.method = crate::scene::SolverMethod::Tgs(4);
    // A settled pile sleeps, as rapier's does: the bench compares like with like.
    pile.solver.sleep = true;
    pile
}
