//! The world of the `rapier_capture` example, its test and its bench: a wall of boxes, 3 wide
//! and 4 high, on a fixed ground, and a small ball fired at it fast enough to pass through a
//! box within one step: without CCD it would tunnel through the wall.

use rapier3d::prelude::*;

/// Half extents of a wall box: 1 m wide and high, 0.5 m thick (along z, the ball's way).
pub const BOX_HALF: [f32; 3] = [0.5, 0.5, 0.25];
pub const COLUMNS: usize = 3;
pub const ROWS: usize = 4;
pub const BALL_RADIUS: f32 = 0.1;
/// Along -z. At 60 Hz the ball moves 2 m per step: four times the wall's thickness plus the
/// ball's diameter is less than that, so without CCD one step jumps it clean through.
pub const BALL_SPEED: f32 = 120.0;
/// Where the ball starts on z: it reaches the wall after about a quarter of a second. Its
/// centre is at z = 1 m one step and at -1 m the next, both clear of the wall (|z| <= 0.25 m
/// plus the radius), so without CCD no step ever sees it touch a box.
pub const BALL_START_Z: f32 = 31.0;

pub struct ExampleWorld {
    pub world: PhysicsWorld,
    pub ball: RigidBodyHandle,
    pub boxes: Vec<RigidBodyHandle>,
}

/// The example's world at rest, before its first step; `ccd` enables CCD on the ball (the
/// example's; without it the ball tunnels, which the test checks).
pub fn example_world(ccd: bool) -> ExampleWorld {
    let mut world = PhysicsWorld::new();
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)),
        ColliderBuilder::cuboid(20.0, 0.5, 40.0),
    );
    let [hx, hy, hz] = BOX_HALF;
    let mut boxes = Vec::with_capacity(COLUMNS * ROWS);
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let x = (column as f32 - (COLUMNS as f32 - 1.0) / 2.0) * 2.0 * hx;
            let y = hy + row as f32 * 2.0 * hy;
            let (handle, _) = world.insert(
                RigidBodyBuilder::dynamic().translation(Vector::new(x, y, 0.0)),
                ColliderBuilder::cuboid(hx, hy, hz),
            );
            boxes.push(handle);
        }
    }
    // Aimed at the second row's middle box; it falls about 0.3 m on its way.
    let (ball, _) = world.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 1.8, BALL_START_Z))
            .linvel(Vector::new(0.0, 0.0, -BALL_SPEED))
            .ccd_enabled(ccd),
        ColliderBuilder::ball(BALL_RADIUS).density(20.0),
    );
    ExampleWorld { world, ball, boxes }
}
