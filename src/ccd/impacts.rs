//! The `Toi` mode's pass over the bodies, between integration and the narrow phase: each fast
//! body advances to its first impact, bounces there (restitution of the pair, as the solver
//! would), and moves with its new velocity for the rest of the step, so the time the impact
//! took is not lost and no energy goes that the materials did not take.

use super::extent::inner_radius;
use super::motion::{Motion, centre};
use super::pair::{Mover, Toi, time_of_impact, time_of_sinking};
use crate::bvh::AnyBvh;
use crate::ccd::CcdEvent;
use crate::dynamics::RigidBody;
use crate::geom::{Aabb, Pose, Real, Vec3};
use crate::narrow;
use crate::trace::{Probe, Verdict};

/// Impacts one body may have in one step before the rest of its step is dropped.
pub const MAX_IMPACTS: u32 = 4;

/// What the pass needs besides the bodies.
pub struct ImpactSettings {
    pub dt_s: Real,
    /// How close an impact stops short of touching (the narrow phase's resting margin).
    pub target_m: Real,
    /// Approach speeds below this bounce without restitution, as in the solver.
    pub restitution_threshold_mps: Real,
    /// A body whose motion reaches further than this (or than half its inner radius) is
    /// checked; `INFINITY` leaves only the bodies that could skip over something.
    pub fast_reach_m: Real,
    /// A pair touching at the start that sinks deeper than this is an impact too (it stops
    /// there, without a bounce); `INFINITY` leaves touching pairs to the discrete contacts.
    pub sink_limit_m: Real,
}

/// A body is fast when its motion over the step, reaching `reach`, goes beyond half its
/// inner radius (or beyond `reach_m`): slower ones cannot sink deeper than that before
/// contacts stop them.
pub fn is_fast(body: &RigidBody, reach: Real, reach_m: Real) -> bool {
    match inner_radius(&body.shape) {
        Some(inner) => !body.fixed && reach > reach_m.min(0.5 * inner),
        None => false,
    }
}

/// A body that could sink deeper than `limit` into a partner it touches: one whose motion
/// reaches further than half of it.
fn may_sink(body: &RigidBody, reach: Real, limit: Real) -> bool {
    !body.fixed && inner_radius(&body.shape).is_some() && reach > 0.5 * limit
}

/// `starts[i]` is body `i`'s pose before integration; the bodies hold the integrated poses.
/// `rims[i]` is body `i`'s [`rim_radius`](super::rim_radius). Returns how many impacts were
/// resolved.
pub fn advance_to_impacts<'a, P: Probe>(
    bodies: &mut [RigidBody],
    (starts, rims): (&[Pose], &[Real]),
    tree: impl Fn(usize) -> Option<&'a AnyBvh>,
    settings: &ImpactSettings,
    probe: &mut P,
) -> u32 {
    let motions: Vec<Motion> = bodies
        .iter()
        .zip(starts)
        .map(|(b, s)| Motion::new(*s, b.pose))
        .collect();
    let swept: Vec<Aabb> = bodies
        .iter()
        .zip(&motions)
        .map(|(b, m)| b.shape.aabb(&m.start).merged(&b.shape.aabb(&m.end)))
        .collect();
    let mut impacts = 0;
    for i in 0..bodies.len() {
        let reach = motions[i].reach(rims[i]);
        let fast = is_fast(&bodies[i], reach, settings.fast_reach_m);
        if !fast && !may_sink(&bodies[i], reach, settings.sink_limit_m) {
            continue;
        }
        let mut motion = motions[i];
        // Fraction of the step already lived by `motion.start`.
        let mut lived = 0.0;
        for _ in 0..MAX_IMPACTS {
            let me = Mover {
                id: bodies[i].id,
                shape: &bodies[i].shape,
                motion,
                rim: rims[i],
                tree: tree(i),
            };
            let mine = bodies[i]
                .shape
                .aabb(&motion.start)
                .merged(&bodies[i].shape.aabb(&motion.end))
                .loosened(motion.angle() * rims[i] + settings.target_m);
            // The first impact: its time, the partner, and whether the pair was sinking.
            let mut first: Option<(Real, usize, bool)> = None;
            for j in (0..bodies.len()).filter(|&j| j != i && swept[j].intersects(&mine)) {
                // The partner over the part of the step that is left.
                let other = Mover {
                    id: bodies[j].id,
                    shape: &bodies[j].shape,
                    motion: motions[j].rest_from(lived),
                    rim: rims[j],
                    tree: tree(j),
                };
                let (limit, margin) = (settings.sink_limit_m, settings.target_m);
                let sink = |probe: &mut P| time_of_sinking(&me, &other, limit, margin, probe);
                // A body too slow to skip over anything is only checked for sinking.
                let (toi, sinking) = match fast.then(|| time_of_impact(&me, &other, margin, probe))
                {
                    Some(Toi::Touching) | None => (sink(probe), true),
                    Some(toi) => (toi, false),
                };
                if let Toi::Impact(t) | Toi::GaveUp(t) = toi
                    && first.is_none_or(|(best, _, _)| t < best)
                {
                    first = Some((t, j, sinking));
                }
            }
            let Some((t, j, sinking)) = first else {
                break;
            };
            impacts += 1;
            let at = motion.at(t);
            let partner_pose = motions[j].rest_from(lived).at(t);
            // A sinking pair was already in contact: the solver has had its say on the bounce.
            let elastic = !sinking;
            let approach = bounce(bodies, (i, j), (&at, &partner_pose), elastic, settings);
            super::event::report(
                probe,
                Verdict::Hit,
                CcdEvent::Impact {
                    body: bodies[i].id,
                    other: bodies[j].id,
                    t: lived + t * (1.0 - lived),
                    approach_mps: approach,
                },
            );
            lived += t * (1.0 - lived);
            let rest = settings.dt_s * (1.0 - lived);
            motion = Motion::new(
                at,
                super::ahead(
                    &at,
                    &bodies[i].linear_velocity,
                    &bodies[i].angular_velocity,
                    rest,
                ),
            );
            bodies[i].pose = motion.end;
            if rest <= 0.0 {
                break;
            }
        }
    }
    impacts
}

/// Applies the impact impulse between body `i` at `at` and body `j` at `other`; returns the
/// approach speed (0 when the pair was not closing).
fn bounce(
    bodies: &mut [RigidBody],
    (i, j): (usize, usize),
    (at, other): (&Pose, &Pose),
    elastic: bool,
    settings: &ImpactSettings,
) -> Real {
    let contact = narrow::collide(
        &bodies[i].shape,
        at,
        &bodies[j].shape,
        other,
        4.0 * settings.target_m,
    )
    .into_iter()
    .max_by(|x, y| x.depth.total_cmp(&y.depth));
    let Some(c) = contact else {
        return 0.0;
    };
    let (a, b) = (&bodies[i], &bodies[j]);
    let (ra, rb) = (c.point - centre(at), c.point - centre(other));
    let va = a.linear_velocity + a.angular_velocity.cross(&ra);
    let vb = b.linear_velocity + b.angular_velocity.cross(&rb);
    let vn = (vb - va).dot(&c.normal);
    if vn >= 0.0 {
        return 0.0;
    }
    let restitution = 0.5 * (a.material.restitution + b.material.restitution);
    let e = if !elastic || -vn < settings.restitution_threshold_mps {
        0.0
    } else {
        restitution
    };
    let n = c.normal;
    let k = |body: &RigidBody, r: &Vec3| {
        body.inv_mass + n.dot(&(body.inv_inertia_world() * r.cross(&n)).cross(r))
    };
    let mass = k(a, &ra) + k(b, &rb);
    if mass <= 1e-300 {
        return 0.0;
    }
    let impulse = n * (-(1.0 + e) * vn / mass);
    // Impulses act about each body's centre at the impact, not at its end-of-step pose.
    let (pa, pb) = (c.point, centre(other) + rb);
    let keep = bodies[i].pose;
    bodies[i].pose = *at;
    bodies[i].apply_impulse(&-impulse, &pa);
    bodies[i].pose = keep;
    bodies[j].apply_impulse(&impulse, &(centre(&bodies[j].pose) + (pb - centre(other))));
    -vn
}
