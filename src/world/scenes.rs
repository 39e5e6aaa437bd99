//! The rigid pipeline's built-in scenes.

use super::scene_kit::{Lcg, floor, materials};
use super::{BodyDesc, BroadPhaseKind, Scene, ShapeDesc, SolverSettings};
use crate::family::BuiltinScene;

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "mixed-drop",
            description: "spheres, boxes, capsules and convex hulls dropped onto a floor",
            build: mixed_drop,
        },
        BuiltinScene {
            name: "box-stack",
            description: "a tower of boxes: resting contact and stacking stability",
            build: box_stack,
        },
        BuiltinScene {
            name: "rays-drop",
            description: "meshes and hulls dropped on a floor, collided by rays from their \
                          vertices (narrow: Rays)",
            build: rays_drop,
        },
    ]
}

fn mixed_drop() -> Scene {
    let mut rng = Lcg(2026);
    let mut bodies = vec![floor(8.0)];
    let mats = ["rubber", "wood", "steel"];
    for i in 0..24 {
        let (layer, slot) = (i / 8, i % 8);
        let angle = slot as f64 / 8.0 * std::f64::consts::TAU + layer as f64 * 0.4;
        let r = 1.2 + 0.6 * layer as f64;
        let position = [
            r * angle.cos(),
            2.0 + 1.6 * layer as f64 + rng.range(0.0, 0.5),
            r * angle.sin(),
        ];
        let shape = match i % 4 {
            0 => ShapeDesc::Sphere {
                radius: rng.range(0.3, 0.5),
            },
            1 => ShapeDesc::Box {
                half_extents: [
                    rng.range(0.25, 0.45),
                    rng.range(0.25, 0.45),
                    rng.range(0.25, 0.45),
                ],
            },
            2 => ShapeDesc::Capsule {
                radius: rng.range(0.2, 0.3),
                half_height: rng.range(0.25, 0.45),
            },
            _ => {
                let points = (0..12)
                    .map(|_| {
                        let (th, ph) = (
                            rng.range(0.0, std::f64::consts::TAU),
                            rng.range(-1.0, 1.0f64).acos(),
                        );
                        let s = rng.range(0.3, 0.5);
                        [
                            s * ph.sin() * th.cos(),
                            s * ph.cos(),
                            s * ph.sin() * th.sin(),
                        ]
                    })
                    .collect();
                ShapeDesc::ConvexHull { points }
            }
        };
        let kind = ["sphere", "box", "capsule", "hull"][i % 4];
        let mut b = BodyDesc::new(format!("{kind}-{i}"), shape, position);
        b.material = Some(mats[i % 3].into());
        b.rotation = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        b.angular_velocity = [
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ];
        b.linear_velocity = [-position[0] * 0.3, 0.0, -position[2] * 0.3];
        bodies.push(b);
    }
    Scene {
        name: "mixed-drop".into(),
        description: "Spheres, boxes, capsules and convex hulls dropped onto a floor.".into(),
        gravity: [0.0, -9.81, 0.0],
        // The pile in the middle passes impulses down to bodies resting a few centimetres
        // above the floor, faster than any margin computed before the solve foresees: with
        // speculative contacts alone a steel box sinks 0.11 m into the floor (frame 46).
        // The first-impact pass after the solve keeps every contact under 0.06 m.
        solver: SolverSettings {
            ccd: crate::scene::CcdMode::Toi,
            sleep: true,
            ..SolverSettings::default()
        },
        broad_phase: BroadPhaseKind::BruteForce,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
        families: Vec::new(),
    }
}

fn box_stack() -> Scene {
    let mut bodies = vec![floor(6.0)];
    for level in 0..8 {
        let mut b = BodyDesc::new(
            format!("box-{level}"),
            ShapeDesc::Box {
                half_extents: [0.5, 0.25, 0.5],
            },
            [0.02 * (level % 2) as f64, 0.25 + 0.5 * level as f64, 0.0],
        );
        b.material = Some("wood".into());
        bodies.push(b);
    }
    Scene {
        name: "box-stack".into(),
        description: "A tower of eight boxes: resting contact and stacking.".into(),
        gravity: [0.0, -9.81, 0.0],
        solver: SolverSettings {
            iterations: 20,
            sleep: true,
            ..SolverSettings::default()
        },
        broad_phase: BroadPhaseKind::BruteForce,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
        families: Vec::new(),
    }
}

/// The ray-traced narrow phase's scene (spec 002 §6, scene 4 in miniature): boxes, hulls,
/// sphere meshes and tori fall on a flat floor; every pair of them is tested by rays.
fn rays_drop() -> Scene {
    use super::ProceduralMesh;
    let mut rng = Lcg(2016);
    let mut bodies = vec![floor(6.0)];
    for i in 0..12 {
        let angle = i as f64 / 12.0 * std::f64::consts::TAU;
        let r = 0.6 + 0.5 * (i % 3) as f64;
        let position = [r * angle.cos(), 0.8 + 0.45 * i as f64, r * angle.sin()];
        let shape = match i % 4 {
            0 => ShapeDesc::Box {
                half_extents: [
                    rng.range(0.2, 0.35),
                    rng.range(0.15, 0.3),
                    rng.range(0.2, 0.35),
                ],
            },
            1 => ShapeDesc::ConvexHull {
                points: (0..10)
                    .map(|_| {
                        [
                            rng.range(-0.3, 0.3),
                            rng.range(-0.3, 0.3),
                            rng.range(-0.3, 0.3),
                        ]
                    })
                    .collect(),
            },
            2 => ShapeDesc::Procedural(ProceduralMesh::IcoSphere {
                radius: rng.range(0.25, 0.35),
                level: 2,
            }),
            _ => ShapeDesc::Procedural(ProceduralMesh::Torus {
                major_radius: 0.3,
                minor_radius: 0.1,
                major_segments: 20,
                minor_segments: 10,
            }),
        };
        let kind = ["box", "hull", "ball", "torus"][i % 4];
        let mut b = BodyDesc::new(format!("{kind}-{i}"), shape, position);
        b.material = Some(["wood", "rubber", "steel"][i % 3].into());
        b.rotation = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        bodies.push(b);
    }
    Scene {
        name: "rays-drop".into(),
        description: "Boxes, hulls, sphere meshes and tori dropped on a floor. Every pair \
                      of them is collided by rays cast from each vertex along its normal \
                      (red: collision, green: prediction, grey: rejected)."
            .into(),
        gravity: [0.0, -9.81, 0.0],
        solver: SolverSettings {
            narrow: crate::scene::NarrowKind::Rays,
            rays: crate::narrow::rays::RaySettings {
                prediction_m: 0.15,
                ..Default::default()
            },
            ..SolverSettings::default()
        },
        broad_phase: BroadPhaseKind::SweepAndPrune,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
        families: Vec::new(),
    }
}
