//! The 1,000-box wall the rigid-step bench and the profiling example share.

use collidoscope::scene::Scene;
use std::path::Path;

/// 1,000 boxes in a wall 50 wide and 20 high, resting on a fixed floor.
pub fn box_wall() -> Scene {
    let mut bodies = vec![
        "(name: \"floor\", shape: Box(half_extents: (20.0, 0.5, 4.0)), position: (0.0, -0.5, 0.0), fixed: true)"
            .to_string(),
    ];
    for row in 0..20 {
        for column in 0..50 {
            let x = (f64::from(column) - 24.5) * 0.5;
            let y = 0.25 + f64::from(row) * 0.5;
            bodies.push(format!(
                "(name: \"b{row}_{column}\", shape: Box(half_extents: (0.25, 0.25, 0.25)), position: ({x}, {y}, 0.0))"
            ));
        }
    }
    let ron = format!(
        "(name: \"box-wall\", description: \"1,000 boxes in a wall\", solver: (sleep: true), bodies: [{}])",
        bodies.join(", ")
    );
    Scene::from_ron(&ron, Path::new("box-wall.ron")).expect("the wall scene parses")
}
