//! Small steps: one narrow phase a frame, then `n` substeps of velocity, contact and position
//! updates (temporal Gauss–Seidel with soft contacts, the scheme of Box2D v3's and rapier's
//! solvers). Each substep adds gravity, re-applies the impulses that held the last substep,
//! runs one pass that also pushes penetration out through a soft spring, moves the bodies, and
//! runs one rigid pass that takes the push's extra speed back. A contact's depth follows its
//! two points' motion between substeps, so a stack feels its own settling without a second
//! narrow phase, and a gap closes exactly at a speculative contact.
//!
//! The contacts come from the frame's start poses, which are what the recording shows, so the
//! depth a frame reports is one its bodies really had.

use super::RigidBody;
use super::solver::{
    ContactConstraint, ContactImpulse, sweep_order, tangent_basis, trace_impulses,
};
use super::sweep_order::SweepOrder;
use super::velocity_rows::{Direction, Pair, SolverBody, arms, hold_friction};
use crate::geom::{Quat, Real, Vec3};
use crate::trace::Probe;

#[derive(Clone, Copy, Debug)]
pub struct TgsParams {
    pub substeps: u32,
    pub slop_m: Real,
    /// Closing speeds below this bounce with no restitution, so resting bodies settle.
    pub restitution_threshold_mps: Real,
    pub dt_s: Real,
    pub gravity: Vec3,
}

/// The stiffness of the push out of penetration: a spring of this frequency, capped at a
/// quarter of the substep rate (stiffer than that the substep cannot follow it). On
/// `convex-pile` (four substeps), Box2D's 30 Hz over-damped tenfold let a pile of heavy hulls
/// sink 0.13 m into the ones below; 60 Hz critically damped holds them within 0.07 m.
const CONTACT_HERTZ: Real = 60.0;
/// Critical damping: the push dies out without overshooting into a bounce.
const CONTACT_DAMPING_RATIO: Real = 1.0;
/// The push out of a deep overlap never exceeds this speed.
const MAX_PUSH_MPS: Real = 3.0;

/// The soft constraint's constants for a substep of `h` seconds (Catto, "Solver2D", 2024).
#[derive(Clone, Copy, Debug)]
struct Softness {
    bias_rate: Real,
    mass_scale: Real,
    impulse_scale: Real,
}

impl Softness {
    fn new(h: Real) -> Self {
        let hertz = CONTACT_HERTZ.min(0.25 / h);
        let omega = 2.0 * std::f64::consts::PI * hertz;
        let a1 = 2.0 * CONTACT_DAMPING_RATIO + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }

    /// Rigid: what the relaxing pass and speculative gaps use.
    const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };
}

struct Row {
    normal: Direction,
    tangents: [Direction; 2],
    /// The narrow phase's depth, followed through the substeps' motion (negative: a gap).
    depth: Real,
    /// Normal speed at the frame's start, for restitution.
    approach: Real,
    lambda_n: Real,
    lambda_t: [Real; 2],
    /// Whether any substep pushed: only contacts that did bounce.
    pushed: bool,
    /// The contact's friction coefficient, kept beside the rows the substeps stream through.
    friction: Real,
}

impl Row {
    fn new(solved: &[SolverBody], bodies: &[RigidBody], c: &ContactConstraint) -> Self {
        let (a, b) = (&solved[c.a], &solved[c.b]);
        let (ra, rb) = arms(bodies, c.a, c.b, &c.point);
        let [t0, t1] = tangent_basis(&c.normal);
        let normal = Direction::new(a, b, &ra, &rb, c.normal);
        let (lambda_n, friction) = c.warm_start.unwrap_or((0.0, Vec3::zeros()));
        let lambda_n = lambda_n.max(0.0);
        let tangents = [
            Direction::new(a, b, &ra, &rb, t0),
            Direction::new(a, b, &ra, &rb, t1),
        ];
        let limit = c.friction * lambda_n;
        Self {
            approach: normal.speed(&Pair::take(solved, c.a, c.b)),
            lambda_t: tangents.map(|t| friction.dot(&t.d).clamp(-limit, limit)),
            tangents,
            normal,
            depth: c.depth,
            lambda_n,
            pushed: false,
            friction: c.friction,
        }
    }

    fn friction_impulse(&self) -> Vec3 {
        self.tangents[0].d * self.lambda_t[0] + self.tangents[1].d * self.lambda_t[1]
    }

    /// The impulses that held the last substep, applied again at the start of this one.
    #[inline(always)]
    fn warm_start(&self, p: &mut Pair) {
        self.normal.apply(p, self.lambda_n);
        for (t, l) in self.tangents.iter().zip(self.lambda_t) {
            t.apply(p, l);
        }
    }

    /// One pass at this contact: the normal impulse toward closing a gap exactly, or (when
    /// `push`) out of a penetration through the soft spring, never pulling; and friction in
    /// the Coulomb box of the normal impulse. The push pass takes friction first, so the
    /// spring has the last word on depth; the relaxing pass, the substep's last, takes it
    /// second, so that friction is bounded by the rigid normal impulse and not by the
    /// softened one the push pass leaves (which held sliding blocks too weakly).
    #[inline(always)]
    fn solve(&mut self, p: &mut Pair, push: Option<Softness>, h: Real, slop: Real) {
        if push.is_some() {
            self.solve_friction(p);
        }
        let (goal, soft) = if self.depth < 0.0 {
            (self.depth / h, Softness::RIGID)
        } else {
            match push {
                Some(s) => (
                    (s.bias_rate * (self.depth - slop).max(0.0)).min(MAX_PUSH_MPS),
                    s,
                ),
                None => (0.0, Softness::RIGID),
            }
        };
        let vn = self.normal.speed(p);
        let delta =
            self.normal.mass * soft.mass_scale * (goal - vn) - soft.impulse_scale * self.lambda_n;
        let new = (self.lambda_n + delta).max(0.0);
        self.normal.apply(p, new - self.lambda_n);
        self.lambda_n = new;
        self.pushed |= new > 0.0;
        if push.is_none() {
            self.solve_friction(p);
        }
    }

    #[inline(always)]
    fn solve_friction(&mut self, p: &mut Pair) {
        hold_friction(
            &self.tangents,
            &mut self.lambda_t,
            p,
            self.friction * self.lambda_n,
        );
    }

    /// A contact that pushed after a fast approach sends the bodies apart at the
    /// restitution's share of that speed.
    fn bounce(&mut self, solved: &mut [SolverBody], c: &ContactConstraint, threshold: Real) {
        if !self.pushed || self.approach >= -threshold || c.restitution <= 0.0 {
            return;
        }
        let mut p = Pair::take(solved, c.a, c.b);
        let vn = self.normal.speed(&p);
        let new =
            (self.lambda_n + (-c.restitution * self.approach - vn) * self.normal.mass).max(0.0);
        self.normal.apply(&mut p, new - self.lambda_n);
        p.put(solved, c.a, c.b);
        self.lambda_n = new;
    }
}

/// A frame in progress: the contacts, their rows and the bodies' velocities between
/// substeps. The world drives it substep by substep so that it can
/// [`refresh`](Self::refresh) the contacts of fast-turning pairs on the way.
pub struct TgsStep {
    params: TgsParams,
    h: Real,
    soft: Softness,
    solved: Vec<SolverBody>,
    contacts: Vec<ContactConstraint>,
    rows: Vec<Row>,
    /// The contacts' manifolds, found again when a refresh changes the contacts.
    order: SweepOrder,
}

impl TgsStep {
    pub fn new(bodies: &[RigidBody], contacts: Vec<ContactConstraint>, params: &TgsParams) -> Self {
        let h = params.dt_s / Real::from(params.substeps.max(1));
        let solved: Vec<SolverBody> = bodies.iter().map(SolverBody::of).collect();
        let rows = contacts
            .iter()
            .map(|c| Row::new(&solved, bodies, c))
            .collect();
        Self {
            params: *params,
            h,
            soft: Softness::new(h),
            solved,
            order: sweep_order(&contacts),
            contacts,
            rows,
        }
    }

    /// One substep; the bodies leave it with their new poses and velocities. Each loop goes
    /// manifold by manifold (see [`SweepOrder`]), its points in order.
    pub fn substep(&mut self, bodies: &mut [RigidBody]) {
        let (h, slop, soft) = (self.h, self.params.slop_m, self.soft);
        for (s, b) in self.solved.iter_mut().zip(bodies.iter()) {
            if !b.fixed {
                s.linear += self.params.gravity * h;
            }
        }
        let Self {
            solved,
            rows,
            order,
            ..
        } = self;
        order.each_manifold(solved, |p, m| {
            for row in &rows[m.contacts.clone()] {
                row.warm_start(p);
            }
        });
        order.each_manifold(solved, |p, m| {
            for row in &mut rows[m.contacts.clone()] {
                row.solve(p, Some(soft), h, slop);
            }
        });
        move_bodies(bodies, solved, h);
        order.each_manifold(solved, |p, m| {
            for row in &mut rows[m.contacts.clone()] {
                row.depth -= row.normal.speed(p) * h;
            }
        });
        order.each_manifold(solved, |p, m| {
            for row in &mut rows[m.contacts.clone()] {
                row.solve(p, None, h, slop);
            }
        });
        SolverBody::write_back(solved, bodies);
    }

    /// Replaces the contacts of each pair in `fresh` (sought again at the bodies' poses now)
    /// by the new ones; a pair's old contacts no longer act.
    pub fn refresh(
        &mut self,
        bodies: &[RigidBody],
        mut fresh: Vec<((usize, usize), Vec<ContactConstraint>)>,
    ) {
        fresh.sort_by_key(|(pair, _)| *pair);
        let renewed = |c: &ContactConstraint| {
            fresh
                .binary_search_by_key(&(c.a, c.b), |(pair, _)| *pair)
                .is_ok()
        };
        let keep: Vec<bool> = self.contacts.iter().map(renewed).map(|r| !r).collect();
        let mut k = keep.iter();
        self.rows.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        self.contacts.retain(|_| *k.next().unwrap_or(&true));
        let added: usize = fresh.iter().map(|(_, cs)| cs.len()).sum();
        self.rows.reserve(added);
        self.contacts.reserve(added);
        for c in fresh.into_iter().flat_map(|(_, cs)| cs) {
            self.rows.push(Row::new(&self.solved, bodies, &c));
            self.contacts.push(c);
        }
        self.order = sweep_order(&self.contacts);
    }

    /// The bounces, and each contact with its impulse over the last substep: the next frame's
    /// warm start.
    pub fn finish<P: Probe>(
        mut self,
        bodies: &mut [RigidBody],
        probe: &mut P,
    ) -> (Vec<ContactConstraint>, Vec<ContactImpulse>) {
        let threshold = self.params.restitution_threshold_mps;
        for (c, row) in self.contacts.iter().zip(self.rows.iter_mut()) {
            row.bounce(&mut self.solved, c, threshold);
        }
        SolverBody::write_back(&self.solved, bodies);
        let impulses: Vec<ContactImpulse> = self
            .rows
            .iter()
            .map(|r| ContactImpulse {
                normal: r.lambda_n,
                friction: r.friction_impulse(),
            })
            .collect();
        trace_impulses(bodies, &self.contacts, &impulses, probe);
        (self.contacts, impulses)
    }
}

/// Positions by the substep's velocities; the orientation follows q' = q + ½ h ω q.
fn move_bodies(bodies: &mut [RigidBody], solved: &[SolverBody], h: Real) {
    for (b, s) in bodies.iter_mut().zip(solved).filter(|(b, _)| !b.fixed) {
        b.pose.translation.vector += s.linear * h;
        let q = b.pose.rotation.into_inner();
        let w = s.angular;
        let dq = nalgebra::Quaternion::new(0.0, w.x, w.y, w.z) * q * (0.5 * h);
        b.pose.rotation = Quat::new_normalize(q + dq);
    }
}
