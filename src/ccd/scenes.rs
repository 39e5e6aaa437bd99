//! The scene that teaches continuous collision (spec 004 §8).

use crate::family::BuiltinScene;
use crate::scene::CcdMode;
use crate::world::scene_kit::{floor, scene};
use crate::world::{BodyDesc, BroadPhaseKind, Scene, ShapeDesc};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![BuiltinScene {
        name: "tunnelling",
        description: "a 40 m/s bullet and a thin wall: stopped at its time of impact (ccd: Toi); \
                      with ccd: Off it passes through between two frames",
        build: tunnelling,
    }]
}

/// The bullet crosses 0.67 m per frame and the wall with the bullet is 0.14 m thick: frame 6
/// leaves it 0.23 m before the wall, frame 7 0.30 m past it, so discrete steps never see them
/// touch. `Off` misses (a "tunnelled" marker), `Substep(4)` samples 0.17 m apart and lands
/// inside the wall, `Speculative` and `Toi` stop it at the face.
pub fn tunnelling() -> Scene {
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
        [-2.3, 1.0, 0.0],
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
    let mut s = scene(
        "tunnelling",
        "A 40 m/s bullet and a thin wall. In ccd: Toi the bullet stops at its time of impact \
         and bounces (the trace shows the ray between its positions and the impact); set \
         ccd: Off to watch it pass through between two frames, Substep(n) to see the \
         supersampled positions; a slow ball bounces off in every mode.",
        bodies,
        BroadPhaseKind::BruteForce,
    );
    s.solver.ccd = CcdMode::Toi;
    s
}

/// The same scene in another mode (tests, benches, the lesson's other halves).
pub fn tunnelling_in(mode: CcdMode) -> Scene {
    let mut s = tunnelling();
    s.solver.ccd = mode;
    s
}
