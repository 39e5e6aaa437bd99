//! What the sequential-impulse passes touch, laid out for them: each body's velocities with
//! its inverse mass and world inverse inertia taken once per solve, and each constraint
//! direction with its lever arms and angular responses taken once per contact. A pass then
//! costs a few dot products and axpys per row, with no rotation rebuilt per impulse.

use super::RigidBody;
use crate::geom::{Mat3, Point3, Real, Vec3};

/// A body's velocities during the solve.
#[derive(Clone, Copy, Debug)]
pub struct SolverBody {
    pub linear: Vec3,
    pub angular: Vec3,
    inv_mass: Real,
    inv_inertia: Mat3,
}

impl SolverBody {
    /// Fixed bodies take no impulse: zero inverse mass and inertia.
    pub fn of(body: &RigidBody) -> Self {
        let (inv_mass, inv_inertia) = if body.fixed {
            (0.0, Mat3::zeros())
        } else {
            (body.inv_mass, body.inv_inertia_world())
        };
        Self {
            linear: body.linear_velocity,
            angular: body.angular_velocity,
            inv_mass,
            inv_inertia,
        }
    }

    /// The solve's velocities back into the bodies (fixed ones keep theirs).
    pub fn write_back(solved: &[SolverBody], bodies: &mut [RigidBody]) {
        for (s, b) in solved.iter().zip(bodies) {
            if !b.fixed {
                b.linear_velocity = s.linear;
                b.angular_velocity = s.angular;
            }
        }
    }
}

/// One of the two bodies of a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// One direction `d` of a contact between bodies `a` and `b` at a point: an impulse `λ d`
/// pushes `b` and pulls `a`.
#[derive(Clone, Copy, Debug)]
pub struct Direction {
    pub d: Vec3,
    arm_a: Vec3,
    arm_b: Vec3,
    turn_a: Vec3,
    turn_b: Vec3,
    /// 1 / (effective mass along `d`), 0 when nothing can move.
    pub mass: Real,
}

impl Direction {
    pub fn new(a: &SolverBody, b: &SolverBody, ra: &Vec3, rb: &Vec3, d: Vec3) -> Self {
        let (arm_a, arm_b) = (ra.cross(&d), rb.cross(&d));
        let (turn_a, turn_b) = (a.inv_inertia * arm_a, b.inv_inertia * arm_b);
        let k = a.inv_mass + b.inv_mass + arm_a.dot(&turn_a) + arm_b.dot(&turn_b);
        Self {
            d,
            arm_a,
            arm_b,
            turn_a,
            turn_b,
            mass: if k > 1e-300 { 1.0 / k } else { 0.0 },
        }
    }

    /// The velocity of `b`'s point relative to `a`'s, along `d`.
    #[inline]
    pub fn speed(&self, p: &Pair) -> Real {
        (p.b.linear - p.a.linear).dot(&self.d) + p.b.angular.dot(&self.arm_b)
            - p.a.angular.dot(&self.arm_a)
    }

    #[inline]
    pub fn apply(&self, p: &mut Pair, lambda: Real) {
        self.apply_to(p, Side::A, lambda);
        self.apply_to(p, Side::B, lambda);
    }

    /// 1 / (effective mass along `d`) of body `side` alone, the other held still.
    #[inline]
    pub fn mass_alone(&self, p: &Pair, side: Side) -> Real {
        let k = match side {
            Side::A => p.a.inv_mass + self.arm_a.dot(&self.turn_a),
            Side::B => p.b.inv_mass + self.arm_b.dot(&self.turn_b),
        };
        if k > 1e-300 { 1.0 / k } else { 0.0 }
    }

    /// [`apply`](Self::apply) to body `side` alone, as though the other could not move.
    #[inline]
    pub fn apply_to(&self, p: &mut Pair, side: Side, lambda: Real) {
        match side {
            Side::A => {
                p.a.linear -= self.d * (lambda * p.a.inv_mass);
                p.a.angular -= self.turn_a * lambda;
            }
            Side::B => {
                p.b.linear += self.d * (lambda * p.b.inv_mass);
                p.b.angular += self.turn_b * lambda;
            }
        }
    }
}

/// Friction toward zero sliding along a contact's two tangents, inside the Coulomb box
/// `±limit`: both sliding speeds are measured before either impulse is applied, so the result
/// does not depend on which tangent comes first. Written out per tangent rather than mapped
/// over the pair: a map copies both directions by value on every call.
#[inline(always)]
pub fn hold_friction(tangents: &[Direction; 2], lambda: &mut [Real; 2], p: &mut Pair, limit: Real) {
    let (v0, v1) = (tangents[0].speed(p), tangents[1].speed(p));
    let new0 = (lambda[0] - v0 * tangents[0].mass).clamp(-limit, limit);
    let new1 = (lambda[1] - v1 * tangents[1].mass).clamp(-limit, limit);
    tangents[0].apply(p, new0 - lambda[0]);
    tangents[1].apply(p, new1 - lambda[1]);
    *lambda = [new0, new1];
}

/// The velocities a contact's directions change, and the inverse mass they scale by.
#[derive(Clone, Copy, Debug)]
pub struct Velocity {
    linear: Vec3,
    angular: Vec3,
    inv_mass: Real,
}

/// The two bodies of one contact, copied out of the solve while the contact's directions act
/// on them and put back after. A contact's rows then work on locals the compiler keeps in
/// registers, where through the shared array every impulse was a load and a store (the array
/// might alias). The arithmetic is the same, in the same order: a contact's two bodies are
/// never one.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    a: Velocity,
    b: Velocity,
}

impl Pair {
    #[inline]
    pub fn take(solved: &[SolverBody], a: usize, b: usize) -> Self {
        let of = |s: &SolverBody| Velocity {
            linear: s.linear,
            angular: s.angular,
            inv_mass: s.inv_mass,
        };
        Pair {
            a: of(&solved[a]),
            b: of(&solved[b]),
        }
    }

    #[inline]
    pub fn put(&self, solved: &mut [SolverBody], a: usize, b: usize) {
        for (i, v) in [(a, &self.a), (b, &self.b)] {
            solved[i].linear = v.linear;
            solved[i].angular = v.angular;
        }
    }
}

/// The lever arms of a contact point on its two bodies.
pub fn arms(bodies: &[RigidBody], a: usize, b: usize, point: &Point3) -> (Vec3, Vec3) {
    (point - bodies[a].position(), point - bodies[b].position())
}
