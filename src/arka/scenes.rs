//! The Arka3D scenarios of the thesis (§3.3, spec 003 §4.3 and §5): boards 1 and 2 are not
//! given cube by cube (their figures are lost), so plausible boards with the stated cube counts
//! are built, played with a scripted paddle; board 3 is a seeded random full board with the
//! open side bouncing, 4–6 are 3 with one switch off, and the `-thesis` variants of 3–6 add
//! the thesis' frame-rate step and single precision.

use super::board::{CELLS, EXPLOSIVE, INDESTRUCTIBLE, SIDE, cell_index};
use super::level::{ArkaScene, BallDesc};
use super::paddle::PaddleDesc;
use super::routine::Switches;
use crate::families::FamilySceneData;
use crate::family::BuiltinScene;
use crate::world::scene_kit::{Lcg, scene};
use crate::world::{BroadPhaseKind, Scene};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "arka-1-easy",
            description: "Arka3D scenario 1: six 3D crosses with explosive centres and two \
                          indestructible cubes (44 cubes), one big slow ball",
            build: easy,
        },
        BuiltinScene {
            name: "arka-2-intermediate",
            description: "Arka3D scenario 2: three separate 8×6 slabs (144 cubes), one \
                          smaller, faster ball bouncing between them",
            build: intermediate,
        },
        BuiltinScene {
            name: "arka-3-hard",
            description: "Arka3D scenario 3: a full random 10×10×10 board (1,000 cubes), four \
                          small fast balls, the open side bouncing",
            build: hard,
        },
        BuiltinScene {
            name: "arka-4-no-space-division",
            description: "Arka3D scenario 4: scenario 3 with every cube tested (no 3×3×3 \
                          neighbourhood)",
            build: no_space_division,
        },
        BuiltinScene {
            name: "arka-5-no-culling",
            description: "Arka3D scenario 5: scenario 3 without orientation culling (facets \
                          seen from behind are tested too)",
            build: no_culling,
        },
        BuiltinScene {
            name: "arka-6-no-early-exit",
            description: "Arka3D scenario 6: scenario 3 without the distance early exit \
                          (every preselected facet is tested)",
            build: no_early_exit,
        },
        BuiltinScene {
            name: "arka-3-thesis",
            description: "Arka3D scenario 3 under the thesis' conditions: a step as long as \
                          the previous one's work, single-precision arithmetic",
            build: || thesis(3),
        },
        BuiltinScene {
            name: "arka-4-thesis",
            description: "Arka3D scenario 4 (no space division) under the thesis' \
                          conditions: its slow frames make long steps, and recoveries",
            build: || thesis(4),
        },
        BuiltinScene {
            name: "arka-5-thesis",
            description: "Arka3D scenario 5 (no orientation culling) under the thesis' \
                          conditions: frame-rate step, single precision",
            build: || thesis(5),
        },
        BuiltinScene {
            name: "arka-6-thesis",
            description: "Arka3D scenario 6 (no distance early exit) under the thesis' \
                          conditions: frame-rate step, single precision",
            build: || thesis(6),
        },
    ]
}

/// The switches of scenario `n` (3–6): all on but the one the scenario turns off.
pub fn scenario_switches(n: u8) -> Switches {
    let on = Switches::default();
    match n {
        4 => Switches {
            space_division: false,
            ..on
        },
        5 => Switches {
            orientation_culling: false,
            ..on
        },
        6 => Switches {
            distance_early_exit: false,
            ..on
        },
        _ => on,
    }
}

/// Scenario `n` (3–6) with the thesis' two causes of error switched on.
fn thesis(n: u8) -> Scene {
    let name = format!("arka-{n}-thesis");
    let switches = Switches {
        frame_rate_step: true,
        single_precision: true,
        ..scenario_switches(n)
    };
    hard_with(&name, switches)
}

/// The paddle of scenarios 1 and 2: a sphere of radius 2.5 cut 0.6 from its front, its flat
/// back at z = 15 (a disc of radius 1.6), following the ball at up to 8 units/s.
fn paddle(start: [f64; 2]) -> PaddleDesc {
    PaddleDesc {
        plane_z: HEIGHT - 1.0,
        sphere_radius: 2.5,
        cap_height: 0.6,
        start,
        speed: 8.0,
    }
}

/// The box's height: the board fills z 0–10, the balls start in the space above it.
const HEIGHT: f64 = 16.0;

fn arka_scene(name: &str, description: &str, data: ArkaScene) -> Scene {
    let mut s = scene(name, description, Vec::new(), BroadPhaseKind::BruteForce);
    s.gravity = [0.0, 0.0, 0.0];
    s.families.push(FamilySceneData::Arka(data));
    s
}

fn description(name: &str) -> &'static str {
    scenes()
        .into_iter()
        .find(|s| s.name == name)
        .map_or("", |s| s.description)
}

fn set(board: &mut [u8], i: usize, j: usize, k: usize, state: u8) {
    board[cell_index(i, j, k)] = state;
}

/// Six 3D crosses (a centre and its six neighbours, the centre explosive) and two
/// indestructible cubes: 44 cubes. The thesis' "seven crosses of seven cubes" would be 49.
pub fn easy_board() -> Vec<u8> {
    let mut board = vec![0; CELLS];
    let centres = [
        (2, 2, 2),
        (7, 2, 2),
        (2, 7, 2),
        (7, 7, 2),
        (2, 4, 6),
        (7, 5, 6),
    ];
    for (i, j, k) in centres {
        set(&mut board, i, j, k, EXPLOSIVE);
        for (a, b, c) in [
            (i + 1, j, k),
            (i - 1, j, k),
            (i, j + 1, k),
            (i, j - 1, k),
            (i, j, k + 1),
            (i, j, k - 1),
        ] {
            set(&mut board, a, b, c, 1);
        }
    }
    set(&mut board, 5, 2, 8, INDESTRUCTIBLE);
    set(&mut board, 4, 7, 8, INDESTRUCTIBLE);
    board
}

fn easy() -> Scene {
    let data = ArkaScene {
        board: easy_board(),
        balls: vec![BallDesc {
            position: [5.0, 5.0, 13.0],
            velocity: [1.1, 0.7, -2.6],
            radius: 0.4,
        }],
        height: HEIGHT,
        switches: Switches::default(),
        paddle: Some(paddle([5.0, 5.0])),
    };
    arka_scene("arka-1-easy", description("arka-1-easy"), data)
}

/// Three 8×6 single-layer slabs at z = 1, 4 and 7, blue (1 hit), white (2) and red (3):
/// 144 cubes, 372 facets, as the thesis counts.
pub fn intermediate_board() -> Vec<u8> {
    let mut board = vec![0; CELLS];
    for (k, hits) in [(1, 1), (4, 2), (7, 3)] {
        for j in 2..8 {
            for i in 1..9 {
                set(&mut board, i, j, k, hits);
            }
        }
    }
    board
}

fn intermediate() -> Scene {
    let data = ArkaScene {
        board: intermediate_board(),
        balls: vec![BallDesc {
            position: [4.3, 5.6, 12.0],
            velocity: [1.3, -0.9, -4.2],
            radius: 0.3,
        }],
        height: HEIGHT,
        switches: Switches::default(),
        paddle: Some(paddle([4.3, 5.6])),
    };
    arka_scene(
        "arka-2-intermediate",
        description("arka-2-intermediate"),
        data,
    )
}

/// A full board of random types (seeded): half normal, then 2-hit, 3-hit, indestructible and
/// explosive cubes.
pub fn hard_board(seed: u64) -> Vec<u8> {
    let mut rng = Lcg(seed);
    (0..CELLS)
        .map(|_| match rng.unit() {
            u if u < 0.50 => 1,
            u if u < 0.70 => 2,
            u if u < 0.82 => 3,
            u if u < 0.95 => INDESTRUCTIBLE,
            _ => EXPLOSIVE,
        })
        .collect()
}

/// Four small fast balls above the board, heading down at seeded random angles.
pub fn hard_balls(seed: u64) -> Vec<BallDesc> {
    let mut rng = Lcg(seed);
    (0..4)
        .map(|b| {
            let (x, y) = (2.0 + 2.0 * b as f64, rng.range(2.0, 8.0));
            let v = [
                rng.range(-4.0, 4.0),
                rng.range(-4.0, 4.0),
                rng.range(-7.0, -4.0),
            ];
            BallDesc {
                position: [x, y, rng.range(11.0, 15.0)],
                velocity: v,
                radius: 0.2,
            }
        })
        .collect()
}

fn hard_with(name: &str, switches: Switches) -> Scene {
    let data = ArkaScene {
        board: hard_board(3),
        balls: hard_balls(30),
        height: HEIGHT,
        switches,
        paddle: None,
    };
    debug_assert_eq!(data.board.len(), SIDE * SIDE * SIDE);
    arka_scene(name, description(name), data)
}

fn hard() -> Scene {
    hard_with("arka-3-hard", Switches::default())
}

fn no_space_division() -> Scene {
    hard_with("arka-4-no-space-division", scenario_switches(4))
}

fn no_culling() -> Scene {
    hard_with("arka-5-no-culling", scenario_switches(5))
}

fn no_early_exit() -> Scene {
    hard_with("arka-6-no-early-exit", scenario_switches(6))
}
