//! The Arka3D simulation: every step, each ball runs the board routine, then the walls, the
//! ball pairs and the inside-cube check; the frame records the balls, the board's changes and
//! the counters.

use super::balls::{ball_pairs, walls};
use super::board::{Board, SIDE};
use super::event::{ArkaEvent, RecoveryKind, report};
use super::level::{ArkaCounters, ArkaFrame, ArkaScene, BallState};
use super::motion::{BOUNCE, BallMove, move_ball};
use super::recovery::out_of_cube;
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
        })
    }

    fn box_extent(&self) -> [Real; 3] {
        [SIDE as Real, SIDE as Real, self.scene.height]
    }

    /// Moves every ball through the board; the recoveries of the same-facet rule.
    fn move_balls(
        &mut self,
        ctx: &mut StepContext<'_>,
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
                ctx.dt_s,
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
            let (to, v) = out_of_cube(&self.board, cell, &s.position, &s.velocity, r);
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
        let before = self.balls.clone();
        let mut recovered = self.move_balls(ctx, probe);
        let t = std::time::Instant::now();
        let hi = self.box_extent();
        for (i, s) in self.balls.iter_mut().enumerate() {
            walls(i as u8, s, self.scene.balls[i].radius, hi, probe);
        }
        let radii: Vec<Real> = self.scene.balls.iter().map(|b| b.radius).collect();
        ball_pairs(&mut self.balls, &before, &radii, &mut self.counters, probe);
        recovered.extend(self.inside_cube_check(probe));
        ctx.stages.add(BOUNCE, t.elapsed().as_secs_f64());
        ctx.markers
            .extend(recovered.into_iter().map(|(b, k)| marker(b, k)));
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
