//! Balls against the walls and against each other (thesis §2.4.2, §2.4.3, §2.5).

use super::event::{ArkaEvent, report};
use super::level::{ArkaCounters, BallState};
use super::recovery::CLEARANCE;
use crate::family::DynProbe;
use crate::geom::{Real, Vec3};
use crate::trace::Verdict;

/// The six axis-aligned walls: a ball whose surface crosses one bounces only if it moves
/// outward, so a ball (even far) outside comes back in rather than being trapped. The
/// bounce also mirrors the centre about the plane where the surface touches the wall (the
/// thesis only flips the velocity, leaving the ball past the wall until the next step: with
/// long steps that is a whole step outside the box).
pub fn walls(ball: u8, s: &mut BallState, r: Real, hi: [Real; 3], probe: &mut dyn DynProbe) {
    for (axis, top) in hi.into_iter().enumerate() {
        let low = s.position[axis] - r < 0.0 && s.velocity[axis] < 0.0;
        let high = s.position[axis] + r > top && s.velocity[axis] > 0.0;
        if low || high {
            s.velocity[axis] = -s.velocity[axis];
            let contact = if high { top - r } else { r };
            let mirrored = 2.0 * contact - s.position[axis];
            s.position[axis] = mirrored.clamp(r.min(top / 2.0), (top - r).max(top / 2.0));
            report(
                probe,
                Verdict::Hit,
                ArkaEvent::Wall {
                    ball,
                    axis: axis as u8,
                    high,
                },
            );
        }
    }
}

/// Every pair of balls that overlap and are not moving apart (the distance did not grow
/// since the previous step) bounces; a pair still approaching after its bounce is moved
/// apart without advancing time.
pub fn ball_pairs(
    balls: &mut [BallState],
    before: &[BallState],
    radii: &[Real],
    counters: &mut ArkaCounters,
    probe: &mut dyn DynProbe,
) {
    for a in 0..balls.len() {
        for b in a + 1..balls.len() {
            let d_now = (balls[b].position - balls[a].position).norm();
            let d_prev = (before[b].position - before[a].position).norm();
            if d_now >= radii[a] + radii[b] || d_now > d_prev || d_now == 0.0 {
                continue;
            }
            let (pursuit, separated) = respond(balls, radii, a, b);
            counters.ball_ball += 1;
            counters.separations += separated as u32;
            report(
                probe,
                Verdict::Hit,
                ArkaEvent::BallBall {
                    a: a as u8,
                    b: b as u8,
                    pursuit,
                    separated,
                },
            );
        }
    }
}

/// Reflects `v` about the plane of normal `n` when it moves along `n` (toward the other ball).
fn reflect_towards(v: Vec3, n: Vec3) -> Vec3 {
    let along = v.dot(&n);
    if along > 0.0 {
        v - n * (2.0 * along)
    } else {
        v
    }
}

/// The response of one pair: head-on (directions opposed), both bounce; in pursuit, the faster
/// bounces and the slower is deflected by Eq. (4) with `M` the other's mass over its own
/// (masses from volumes), then brought back to its speed (balls keep a constant speed).
fn respond(balls: &mut [BallState], radii: &[Real], a: usize, b: usize) -> (bool, bool) {
    let n = (balls[b].position - balls[a].position).normalize();
    let (va, vb) = (balls[a].velocity, balls[b].velocity);
    let pursuit = va.dot(&vb) > 0.0;
    if !pursuit {
        balls[a].velocity = reflect_towards(va, n);
        balls[b].velocity = reflect_towards(vb, -n);
    } else {
        let (fast, slow, n_fast) = if va.norm() >= vb.norm() {
            (a, b, n)
        } else {
            (b, a, -n)
        };
        let (vf, vs) = (balls[fast].velocity, balls[slow].velocity);
        balls[fast].velocity = reflect_towards(vf, n_fast);
        let m = (radii[fast] / radii[slow]).powi(3);
        let deflected = vs + vf * m + n_fast * m;
        balls[slow].velocity = if deflected.norm() > 0.0 {
            deflected.normalize() * vs.norm()
        } else {
            vs
        };
    }
    let still_approaching =
        (balls[b].velocity - balls[a].velocity).dot(&(balls[b].position - balls[a].position)) < 0.0;
    if still_approaching {
        let d = (balls[b].position - balls[a].position).norm();
        let half = 0.5 * (radii[a] + radii[b] - d + CLEARANCE);
        balls[a].position -= n * half;
        balls[b].position += n * half;
    }
    (pursuit, still_approaching)
}
