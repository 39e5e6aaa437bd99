//! What the Arka3D family adds to a scene (the board, the balls, the box, the ablation
//! switches) and records every frame (the balls, the cubes changed so far, the counters).
//! Scene files are untrusted: [`ArkaScene::validate`] names the field and the cause.

use super::board::{Board, CELLS, SIDE, is_valid_state};
use super::paddle::PaddleDesc;
use super::routine::Switches;
use crate::geom::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// A ball as a scene gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallDesc {
    pub position: [Real; 3],
    pub velocity: [Real; 3],
    pub radius: Real,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArkaScene {
    /// `SIDE³` cell bytes, x fastest then y then z: 0 empty, 1–3 hits left, 254 explosive,
    /// 255 indestructible.
    pub board: Vec<u8>,
    pub balls: Vec<BallDesc>,
    /// The box's extent along z: walls at x = 0 and 10, y = 0 and 10, z = 0 and `height` (the
    /// board fills z 0–10; the open side of the game, at `height`, is made to bounce).
    pub height: Real,
    #[serde(default)]
    pub switches: Switches,
    /// The paddle that closes the open side (scenarios 1 and 2); without one, the wall at
    /// `height` bounces (scenario 3 and its ablations, as the thesis ran them).
    #[serde(default)]
    pub paddle: Option<PaddleDesc>,
}

/// A ball's state in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallState {
    pub position: Point3,
    pub velocity: Vec3,
}

/// The frame's counters (spec 003 §4.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArkaCounters {
    pub preselected: u32,
    pub treated: u32,
    pub face_bounces: u32,
    pub corner_bounces: u32,
    pub inside_cube_recoveries: u32,
    pub same_facet_recoveries: u32,
    pub cubes_hit: u32,
    pub cubes_destroyed: u32,
    pub ball_ball: u32,
    pub separations: u32,
    pub paddle_bounces: u32,
    /// Balls that passed behind the paddle (the game would lose them; the wall behind
    /// sends them back).
    pub paddle_misses: u32,
}

impl ArkaCounters {
    pub fn recoveries(&self) -> u32 {
        self.inside_cube_recoveries + self.same_facet_recoveries
    }

    /// Name and value of every counter, in the order panels and reports show them.
    pub fn named(&self) -> [(&'static str, u32); 12] {
        [
            ("facets preselected", self.preselected),
            ("facets tested", self.treated),
            ("face bounces", self.face_bounces),
            ("corner bounces", self.corner_bounces),
            ("inside-cube recoveries", self.inside_cube_recoveries),
            ("same-facet recoveries", self.same_facet_recoveries),
            ("cubes hit", self.cubes_hit),
            ("cubes destroyed", self.cubes_destroyed),
            ("ball-ball bounces", self.ball_ball),
            ("ball-ball separations", self.separations),
            ("paddle bounces", self.paddle_bounces),
            ("paddle misses", self.paddle_misses),
        ]
    }

    pub fn add(&mut self, o: &ArkaCounters) {
        self.preselected += o.preselected;
        self.treated += o.treated;
        self.face_bounces += o.face_bounces;
        self.corner_bounces += o.corner_bounces;
        self.inside_cube_recoveries += o.inside_cube_recoveries;
        self.same_facet_recoveries += o.same_facet_recoveries;
        self.cubes_hit += o.cubes_hit;
        self.cubes_destroyed += o.cubes_destroyed;
        self.ball_ball += o.ball_ball;
        self.separations += o.separations;
        self.paddle_bounces += o.paddle_bounces;
        self.paddle_misses += o.paddle_misses;
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArkaFrame {
    pub balls: Vec<BallState>,
    /// Every cell whose state differs from the scene's board, as `(cell, state)` sorted by
    /// cell: the board is the scene's plus these, so a frame never copies the whole board.
    pub board_changes: Vec<(u16, u8)>,
    /// The cells hit during this frame's step.
    pub hit_now: Vec<u16>,
    pub counters: ArkaCounters,
    /// The paddle's centre `(x, y)`, when the scene has one.
    pub paddle: Option<[Real; 2]>,
    /// How long this step was: the scene's fixed step, or with the frame-rate switch the
    /// cost model's (`super::clock`).
    pub step_s: Real,
}

impl ArkaFrame {
    /// The board of this frame: the scene's with the recorded changes.
    pub fn board_cells(&self, scene: &ArkaScene) -> Vec<u8> {
        let mut cells = scene.board.clone();
        for &(cell, state) in &self.board_changes {
            if let Some(c) = cells.get_mut(cell as usize) {
                *c = state;
            }
        }
        cells
    }
}

const MAX_BALLS: usize = 64;
const MAX_HEIGHT: Real = 100.0;
const MAX_SPEED: Real = 1.0e3;

fn finite3(v: &[Real; 3]) -> bool {
    v.iter().all(|c| c.is_finite())
}

impl ArkaScene {
    /// Checks untrusted data; the error names the field and the cause.
    pub fn validate(&self) -> Result<(), String> {
        if self.board.len() != CELLS {
            return Err(format!(
                "board: {} cells, a board holds exactly {SIDE}×{SIDE}×{SIDE} = {CELLS}",
                self.board.len()
            ));
        }
        if let Some(i) = self.board.iter().position(|&s| !is_valid_state(s)) {
            return Err(format!(
                "board[{i}]: state {} is not 0–3, 254 (explosive) or 255 (indestructible)",
                self.board[i]
            ));
        }
        if !(self.height.is_finite() && (SIDE as Real..=MAX_HEIGHT).contains(&self.height)) {
            return Err(format!(
                "height: {} is not a finite number in [{SIDE}, {MAX_HEIGHT}]",
                self.height
            ));
        }
        if self.balls.len() > MAX_BALLS {
            return Err(format!(
                "balls: {} balls, at most {MAX_BALLS}",
                self.balls.len()
            ));
        }
        if let Some(p) = &self.paddle {
            p.validate(self.height)?;
        }
        let board = Board::new(self.board.clone());
        for (i, b) in self.balls.iter().enumerate() {
            self.validate_ball(i, b, &board)?;
        }
        Ok(())
    }

    fn validate_ball(&self, i: usize, b: &BallDesc, board: &Board) -> Result<(), String> {
        // The 3×3×3 neighbourhood is only enough when a ball is smaller than a cube.
        if !(b.radius.is_finite() && b.radius > 0.0 && b.radius < 0.5) {
            return Err(format!(
                "balls[{i}].radius: {} must be in (0, 0.5): the diameter must be smaller than a cube",
                b.radius
            ));
        }
        if !finite3(&b.position) {
            return Err(format!("balls[{i}].position: not finite"));
        }
        if !finite3(&b.velocity) {
            return Err(format!("balls[{i}].velocity: not finite"));
        }
        let speed = Vec3::from(b.velocity).norm();
        if speed > MAX_SPEED {
            return Err(format!(
                "balls[{i}].velocity: speed {speed} above {MAX_SPEED}"
            ));
        }
        let hi = [SIDE as Real, SIDE as Real, self.height];
        for a in 0..3 {
            if !(b.position[a] >= 0.0 && b.position[a] <= hi[a]) {
                return Err(format!(
                    "balls[{i}].position: {:?} is outside the box [0, {}]×[0, {}]×[0, {}]",
                    b.position, hi[0], hi[1], hi[2]
                ));
            }
        }
        if let Some(cell) = board.solid_cell_at(&Point3::from(b.position)) {
            return Err(format!(
                "balls[{i}].position: {:?} is inside the cube of cell {cell}",
                b.position
            ));
        }
        Ok(())
    }
}
