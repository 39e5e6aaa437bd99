//! The built-in scenes: demos that need no file, each showing one thing well.

use super::{
    BodyDesc, BroadPhaseKind, Material, ProceduralMesh, Scene, SceneError, ShapeDesc,
    SolverSettings,
};

pub const DEFAULT_SCENE: &str = "mixed-drop";

/// Every built-in scene: (name, one-line description).
pub const BUILTIN_SCENES: &[(&str, &str)] = &[
    (
        "mixed-drop",
        "spheres, boxes, capsules and convex hulls dropped onto a floor",
    ),
    (
        "box-stack",
        "a tower of boxes: resting contact and stacking stability",
    ),
    (
        "tunnelling",
        "a 40 m/s bullet against a thin wall: caught by speculative contacts where plain discrete steps would miss it",
    ),
    (
        "interlocked-tori",
        "a ring hanging from a fixed ring: mesh against mesh through two hierarchies",
    ),
    (
        "dense-mesh-on-terrain",
        "a 102,400-triangle torus falling on a terrain: hierarchy traversal at scale",
    ),
    (
        "convex-pile",
        "300 convex hulls poured into a box: the sweep-and-prune broad phase",
    ),
];

pub fn builtin_scene(name: &str) -> Result<Scene, SceneError> {
    match name {
        "mixed-drop" => Ok(mixed_drop()),
        "box-stack" => Ok(box_stack()),
        "tunnelling" => Ok(tunnelling()),
        "interlocked-tori" => Ok(interlocked_tori()),
        "dense-mesh-on-terrain" => Ok(dense_mesh_on_terrain()),
        "convex-pile" => Ok(convex_pile()),
        _ => Err(SceneError::UnknownBuiltin {
            name: name.to_string(),
            available: BUILTIN_SCENES
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

fn floor(half: f64) -> BodyDesc {
    let mut f = BodyDesc::new(
        "floor",
        ShapeDesc::Box {
            half_extents: [half, 0.5, half],
        },
        [0.0, -0.5, 0.0],
    )
    .fixed();
    f.material = Some("ground".into());
    f.color = Some([0.42, 0.45, 0.5]);
    f
}

fn materials() -> Vec<Material> {
    vec![
        Material {
            name: "ground".into(),
            density: 1.0,
            restitution: 0.2,
            friction: 0.7,
        },
        Material {
            name: "rubber".into(),
            density: 1.1,
            restitution: 0.6,
            friction: 0.9,
        },
        Material {
            name: "wood".into(),
            density: 0.7,
            restitution: 0.3,
            friction: 0.5,
        },
        Material {
            name: "steel".into(),
            density: 7.8,
            restitution: 0.15,
            friction: 0.4,
        },
    ]
}

/// A small deterministic generator so scenes are the same on every machine.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
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
        solver: SolverSettings::default(),
        broad_phase: BroadPhaseKind::BruteForce,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
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
            ..SolverSettings::default()
        },
        broad_phase: BroadPhaseKind::BruteForce,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
    }
}

fn tunnelling() -> Scene {
    let mut bodies = vec![floor(6.0)];
    let mut wall = BodyDesc::new(
        "thin wall",
        ShapeDesc::Box {
            half_extents: [0.02, 1.5, 2.0],
        },
        [2.0, 1.5, 0.0],
    )
    .fixed();
    wall.color = Some([0.6, 0.35, 0.3]);
    bodies.push(wall);
    let mut bullet = BodyDesc::new(
        "bullet",
        ShapeDesc::Sphere { radius: 0.05 },
        [-2.0, 1.0, 0.0],
    );
    bullet.linear_velocity = [40.0, 0.0, 0.0];
    bullet.material = Some("steel".into());
    bodies.push(bullet);
    let mut slow = BodyDesc::new(
        "slow ball",
        ShapeDesc::Sphere { radius: 0.2 },
        [-2.0, 2.2, 0.0],
    );
    slow.linear_velocity = [4.0, 0.0, 0.0];
    bodies.push(slow);
    Scene {
        name: "tunnelling".into(),
        description:
            "A fast sphere passes through a thin wall between two frames; a slow one bounces."
                .into(),
        gravity: [0.0, -9.81, 0.0],
        solver: SolverSettings::default(),
        broad_phase: BroadPhaseKind::BruteForce,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
    }
}

fn scene(
    name: &str,
    description: &str,
    bodies: Vec<BodyDesc>,
    broad_phase: BroadPhaseKind,
) -> Scene {
    Scene {
        name: name.into(),
        description: description.into(),
        gravity: [0.0, -9.81, 0.0],
        solver: SolverSettings::default(),
        broad_phase,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
    }
}

fn torus(name: &str, major: f64, minor: f64, segments: (u32, u32), position: [f64; 3]) -> BodyDesc {
    BodyDesc::new(
        name,
        ShapeDesc::Procedural(ProceduralMesh::Torus {
            major_radius: major,
            minor_radius: minor,
            major_segments: segments.0,
            minor_segments: segments.1,
        }),
        position,
    )
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
    scene(
        "convex-pile",
        "300 convex hulls poured into a box; sweep and prune finds the pairs.",
        bodies,
        BroadPhaseKind::SweepAndPrune,
    )
}
