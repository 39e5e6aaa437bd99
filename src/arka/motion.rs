//! One ball's motion over a step against the board: the routine is rerun after every bounce
//! until it finds nothing (thesis step 4), with the same-facet rule breaking cycles.

use super::board::{Board, Facet};
use super::event::{ArkaEvent, RecoveryKind, Region, report};
use super::level::ArkaCounters;
use super::recovery::off_facet;
use super::routine::{Hit, PassCounts, Switches, fl, fl3, preselect, test_preselected};
use crate::family::{DynProbe, StageClock};
use crate::geom::{Point3, Real, Vec3};
use crate::trace::Verdict;
use std::time::Instant;

/// Passes per ball and step before the ball stops where it is for this step. The thesis
/// expects at most 3; a cycle is broken earlier by the same-facet rule.
pub const MAX_PASSES: usize = 8;

/// The stages of [`super::ArkaFamily`]'s step, as indices into `STAGES`.
pub const PRESELECTION: usize = 0;
pub const FACET_TESTS: usize = 1;
pub const BOUNCE: usize = 2;

pub struct BallMove<'a> {
    pub ball: u8,
    pub radius: Real,
    pub switches: Switches,
    pub counters: &'a mut ArkaCounters,
    pub changed: &'a mut Vec<usize>,
    pub stages: &'a mut StageClock,
    pub recovered: &'a mut Vec<(u8, RecoveryKind)>,
}

/// The bounce normal: the facet's for a face hit; for a corner hit, from the nearest point
/// of the square to the centre at the crossing (the thesis' "impact point minus centre").
pub fn bounce_normal(hit: &Hit, dir: &Vec3, r: Real) -> Vec3 {
    if hit.region == Region::Face {
        return hit.facet.normal();
    }
    let centre = hit.point - dir * r;
    let n = centre - hit.facet.closest_point(&hit.point);
    if n.norm() > 1e-12 {
        n.normalize()
    } else {
        hit.facet.normal()
    }
}

/// Moves a ball from `p` with velocity `v` for `dt_s` through the board; returns its new
/// position and velocity.
pub fn move_ball(
    board: &mut Board,
    p: Point3,
    v: Vec3,
    dt_s: Real,
    mv: &mut BallMove<'_>,
    probe: &mut dyn DynProbe,
) -> (Point3, Vec3) {
    let speed = v.norm();
    if speed == 0.0 || dt_s <= 0.0 {
        return (p, v);
    }
    let single = mv.switches.single_precision;
    let (mut at, mut dir, mut remaining) = (p, v / speed, fl(speed * dt_s, single));
    let mut hit_facets: Vec<Facet> = Vec::new();
    let mut scratch = Vec::new();
    for _ in 0..MAX_PASSES {
        let new = fl3(at + dir * remaining, single);
        let mut counts = PassCounts::default();
        let t0 = Instant::now();
        preselect(board, &at, &new, mv.switches, &mut scratch, &mut counts);
        let t1 = Instant::now();
        let hit = test_preselected(&scratch, &at, &new, mv.radius, mv.switches, &mut counts);
        mv.stages.add(PRESELECTION, (t1 - t0).as_secs_f64());
        mv.stages.add(FACET_TESTS, t1.elapsed().as_secs_f64());
        mv.counters.preselected += counts.preselected;
        mv.counters.treated += counts.treated;
        report(
            probe,
            Verdict::Info,
            ArkaEvent::Pass {
                ball: mv.ball,
                preselected: counts.preselected.min(u16::MAX as u32) as u16,
                treated: counts.treated.min(u16::MAX as u32) as u16,
            },
        );
        let Some(hit) = hit else {
            return (new, dir * speed);
        };
        let t2 = Instant::now();
        if hit_facets.contains(&hit.facet) {
            let (to, v2) = off_facet(&hit.facet, &at, &(dir * speed), mv.radius);
            mv.counters.same_facet_recoveries += 1;
            let kind = RecoveryKind::SameFacet {
                cell: hit.facet.cell,
                face: hit.facet.face,
            };
            mv.recovered.push((mv.ball, kind));
            report(
                probe,
                Verdict::Warning,
                ArkaEvent::Recovery {
                    ball: mv.ball,
                    kind,
                    from: at,
                    to,
                },
            );
            mv.stages.add(BOUNCE, t2.elapsed().as_secs_f64());
            return (to, v2);
        }
        hit_facets.push(hit.facet);
        let (contact, next_dir, travel) = bounce(&hit, &at, &dir, remaining, mv.radius);
        report(
            probe,
            Verdict::Hit,
            ArkaEvent::Bounce {
                ball: mv.ball,
                cell: hit.facet.cell,
                face: hit.facet.face,
                region: hit.region,
                from: at,
                to: new + dir * mv.radius,
                point: hit.point,
                normal: bounce_normal(&hit, &dir, mv.radius),
            },
        );
        if hit.region == Region::Face {
            mv.counters.face_bounces += 1;
        } else {
            mv.counters.corner_bounces += 1;
        }
        hit_cube(board, hit.facet.cell as usize, mv, probe);
        at = fl3(contact, single);
        dir = if single {
            next_dir.map(|c| fl(c, true))
        } else {
            next_dir
        };
        remaining = fl((remaining - travel).max(0.0), single);
        mv.stages.add(BOUNCE, t2.elapsed().as_secs_f64());
    }
    (at, dir * speed)
}

/// Where the ball is when it touches (the crossing less `r` along the motion, never behind
/// the start), its direction reflected about the bounce normal, and the distance travelled.
fn bounce(hit: &Hit, at: &Point3, dir: &Vec3, remaining: Real, r: Real) -> (Point3, Vec3, Real) {
    let n = bounce_normal(hit, dir, r);
    let travel = (hit.fraction * (remaining + r) - r).clamp(0.0, remaining);
    let reflected = dir - n * (2.0 * dir.dot(&n));
    let next = if reflected.norm() > 0.0 {
        reflected.normalize()
    } else {
        -dir
    };
    (at + dir * travel, next, travel)
}

fn hit_cube(board: &mut Board, cell: usize, mv: &mut BallMove<'_>, probe: &mut dyn DynProbe) {
    let changed = board.hit(cell);
    if !changed.is_empty() {
        mv.counters.cubes_hit += 1;
    }
    for c in changed {
        let state = board.cells[c];
        if state == super::board::EMPTY {
            mv.counters.cubes_destroyed += 1;
        }
        report(
            probe,
            Verdict::Info,
            ArkaEvent::Cube {
                cell: c as u16,
                state,
            },
        );
        mv.changed.push(c);
    }
}
