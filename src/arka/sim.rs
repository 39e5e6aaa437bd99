//! The Arka3D simulation: every step, each ball runs the board routine, then the walls, the
//! ball pairs and the inside-cube check; the frame records the balls, the board's changes and
//! the counters.

use super::balls::{ball_pairs, walls};
use super::board::{Board, SIDE};
use super::clock;
use super::event::{ArkaEvent, RecoveryKind, report};
use super::level::{ArkaCounters, ArkaFrame, ArkaScene, BallState};
use super::motion::{BOUNCE, BallMove, move_ball};
use super::paddle;
use super::recovery::{contain, out_of_cube};
use super::routine::{fl, fl3};
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilySim, StepContext};
use crate::frame::{Frame, Marker, MarkerKind};
use crate::geom::{Point3, Real, Vec3, is_finite_point};
use crate::trace::Verdict;
use std::sync::Arc;

/// The marker a recovery puts on the timeline.
pub const RECOVERY_MARKER: &str = "arka recovery";

#[derive(Clone)]
pub struct ArkaSim {
    pub scene: Arc<ArkaScene>,
    pub board: Board,
    pub balls: Vec<BallState>,
    pub hit_now: Vec<u16>,
    pub counters: ArkaCounters,
    /// The paddle's centre `(x, y)`, when the scene has one.
    pub paddle: Option<[Real; 2]>,
    /// The length of the last step.
    pub step_s: Real,
    /// The next step's length under the frame-rate switch (from the last step's work).
    pub next_step_s: Real,
}

impl ArkaSim {
    pub fn new(scene: &ArkaScene) -> Result<Self, String> {
        scene.validate()?;
        Ok(ArkaSim {
            board: Board::new(scene.board.clone()),
            balls: scene
                .balls
                .iter()
                .map(|b| BallState {
                    position: Point3::from(b.position),
                    velocity: Vec3::from(b.velocity),
                })
                .collect(),
            scene: Arc::new(scene.clone()),
            hit_now: Vec::new(),
            counters: ArkaCounters::default(),
            paddle: scene.paddle.as_ref().map(|p| p.start),
            step_s: 0.0,
            next_step_s: clock::BASE_STEP_S,
        })
    }

    fn box_extent(&self) -> [Real; 3] {
        [SIDE as Real, SIDE as Real, self.scene.height]
    }

    /// Moves every ball through the board for `dt_s`; the recoveries of the same-facet rule.
    fn move_balls(
        &mut self,
        ctx: &mut StepContext<'_>,
        dt_s: Real,
        probe: &mut dyn DynProbe,
    ) -> Vec<(u8, RecoveryKind)> {
        let mut recovered = Vec::new();
        let mut changed = Vec::new();
        for i in 0..self.balls.len() {
            let mut mv = BallMove {
                ball: i as u8,
                radius: self.scene.balls[i].radius,
                switches: self.scene.switches,
                counters: &mut self.counters,
                changed: &mut changed,
                stages: &mut ctx.stages,
                recovered: &mut recovered,
            };
            let s = self.balls[i];
            let (p, v) = move_ball(
                &mut self.board,
                s.position,
                s.velocity,
                dt_s,
                &mut mv,
                probe,
            );
            self.balls[i] = BallState {
                position: p,
                velocity: v,
            };
        }
        self.hit_now = changed.iter().map(|&c| c as u16).collect();
        recovered
    }

    /// The inside-cube check: a centre inside a cube is moved out without advancing time.
    fn inside_cube_check(&mut self, probe: &mut dyn DynProbe) -> Vec<(u8, RecoveryKind)> {
        let mut out = Vec::new();
        for i in 0..self.balls.len() {
            let s = self.balls[i];
            let Some(cell) = self.board.solid_cell_at(&s.position) else {
                continue;
            };
            let r = self.scene.balls[i].radius;
            let (to, v) = out_of_cube(
                &self.board,
                cell,
                &s.position,
                &s.velocity,
                r,
                self.scene.height,
            );
            self.balls[i] = BallState {
                position: to,
                velocity: v,
            };
            self.counters.inside_cube_recoveries += 1;
            let kind = RecoveryKind::InsideCube { cell: cell as u16 };
            out.push((i as u8, kind));
            report(
                probe,
                Verdict::Warning,
                ArkaEvent::Recovery {
                    ball: i as u8,
                    kind,
                    from: s.position,
                    to,
                },
            );
        }
        out
    }

    /// The paddle follows its script, then bounces the balls it touches forward; a ball that
    /// went behind it this step is counted as missed.
    fn paddle_step(&mut self, dt_s: Real, before: &[BallState], probe: &mut dyn DynProbe) {
        let scene = Arc::clone(&self.scene);
        let (Some(desc), Some(mut at)) = (scene.paddle.as_ref(), self.paddle) else {
            return;
        };
        let by_height = |a: &&BallState, b: &&BallState| a.position.z.total_cmp(&b.position.z);
        let target = self
            .balls
            .iter()
            .filter(|b| b.velocity.z > 0.0)
            .max_by(by_height)
            .or_else(|| self.balls.iter().max_by(by_height));
        if let Some(t) = target {
            at = desc.follow(at, [t.position.x, t.position.y], dt_s);
        }
        self.paddle = Some(at);
        for (i, s) in self.balls.iter_mut().enumerate() {
            let r = scene.balls[i].radius;
            if let Some(hit) = paddle::collide(desc, at, &s.position, &s.velocity, r) {
                s.velocity = hit.velocity;
                self.counters.paddle_bounces += 1;
                report(
                    probe,
                    Verdict::Hit,
                    ArkaEvent::Paddle {
                        ball: i as u8,
                        point: hit.point,
                        normal: hit.normal,
                    },
                );
            }
            let behind = desc.plane_z + r;
            if before[i].position.z <= behind && s.position.z > behind {
                self.counters.paddle_misses += 1;
            }
        }
    }
}

fn marker(ball: u8, kind: RecoveryKind) -> Marker {
    let text = match kind {
        RecoveryKind::InsideCube { cell } => {
            format!("ball {ball} recovered: centre inside cube {cell}")
        }
        RecoveryKind::SameFacet { cell, face } => {
            format!("ball {ball} recovered: cube {cell} facet {face} hit twice in one instant")
        }
    };
    Marker {
        kind: MarkerKind::Other(RECOVERY_MARKER.into()),
        text,
        bodies: Vec::new(),
    }
}

impl FamilySim for ArkaSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        self.counters = ArkaCounters::default();
        let switches = self.scene.switches;
        let dt_s = if switches.frame_rate_step {
            self.next_step_s
        } else {
            ctx.dt_s
        };
        self.step_s = dt_s;
        let before = self.balls.clone();
        let mut recovered = self.move_balls(ctx, dt_s, probe);
        let t = std::time::Instant::now();
        self.paddle_step(dt_s, &before, probe);
        let hi = self.box_extent();
        let radii: Vec<Real> = self.scene.balls.iter().map(|b| b.radius).collect();
        for (i, s) in self.balls.iter_mut().enumerate() {
            walls(i as u8, s, radii[i], hi, probe);
        }
        ball_pairs(&mut self.balls, &before, &radii, &mut self.counters, probe);
        // A same-facet recovery or a pair's separation may have crossed a wall.
        for (i, s) in self.balls.iter_mut().enumerate() {
            contain(&mut s.position, radii[i], hi);
        }
        recovered.extend(self.inside_cube_check(probe));
        if switches.single_precision {
            for s in &mut self.balls {
                s.position = fl3(s.position, true);
                s.velocity = s.velocity.map(|c| fl(c, true));
            }
        }
        ctx.stages.add(BOUNCE, t.elapsed().as_secs_f64());
        ctx.markers
            .extend(recovered.into_iter().map(|(b, k)| marker(b, k)));
        self.next_step_s = clock::next_step(self.counters.preselected);
    }

    fn frame_data(&self) -> FamilyFrameData {
        let board_changes = self
            .board
            .cells
            .iter()
            .zip(&self.scene.board)
            .enumerate()
            .filter(|(_, (now, first))| now != first)
            .map(|(cell, (&now, _))| (cell as u16, now))
            .collect();
        FamilyFrameData::Arka(ArkaFrame {
            balls: self.balls.clone(),
            board_changes,
            hit_now: self.hit_now.clone(),
            counters: self.counters,
            paddle: self.paddle,
            step_s: self.step_s,
        })
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Arka(f) = data
            && f.balls.len() == self.balls.len()
        {
            self.balls = f.balls.clone();
            self.board = Board::new(f.board_cells(&self.scene));
            self.hit_now = f.hit_now.clone();
            self.counters = f.counters;
            self.paddle = f.paddle;
            self.step_s = f.step_s;
            self.next_step_s = clock::next_step(f.counters.preselected);
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }

    fn violations(&self, frame: &Frame) -> Vec<String> {
        let mut out = Vec::new();
        for data in &frame.families {
            let FamilyFrameData::Arka(f) = data else {
                continue;
            };
            let board = Board::new(f.board_cells(&self.scene));
            for (i, b) in f.balls.iter().enumerate() {
                if !is_finite_point(&b.position) || !b.velocity.iter().all(|c| c.is_finite()) {
                    out.push(format!("ball {i}: non-finite position or velocity"));
                } else if let Some(cell) = board.solid_cell_at(&b.position) {
                    out.push(format!("ball {i}: centre inside cube {cell}, unrecovered"));
                }
            }
        }
        out
    }
}
