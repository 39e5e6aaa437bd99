//! The rigid body of the thesis' validation simulator (Annex I, after Witkin & Baraff 1997):
//! state x, q, v, ω; constants mass and body inertia; explicit Euler steps and the impulse of
//! a contact. Pure arithmetic, shared by the NURBS family's simulation and the Table I.8
//! mass–spring systems.

use crate::geom::{Mat3, Point3, Quat, Vec3};
use nalgebra::Quaternion;

/// Where a body is and how it moves: `x` is its centre of mass in world space, `q` turns body
/// coordinates (origin at the centre of mass) into world directions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidState {
    pub x: Point3,
    pub q: Quat,
    pub v: Vec3,
    pub w: Vec3,
}

impl RigidState {
    pub fn at_rest(x: Point3) -> Self {
        Self {
            x,
            q: Quat::identity(),
            v: Vec3::zeros(),
            w: Vec3::zeros(),
        }
    }

    /// A body-frame point in world space (`p_w = q p_c + x`).
    pub fn world_point(&self, body_point: &Point3) -> Point3 {
        self.x + self.q * body_point.coords
    }

    /// The velocity of the world point `p` moving with the body (eq. I.4).
    pub fn point_velocity(&self, p: &Point3) -> Vec3 {
        self.w.cross(&(p - self.x)) + self.v
    }
}

/// A body's constants. A static body (or one moved by a script) has zero inverses: it takes
/// no force and no impulse, as the thesis' NULL second body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProps {
    pub inv_mass: f64,
    /// Inverse inertia tensor in the body frame.
    pub inv_inertia: Mat3,
    /// Inertia tensor in the body frame (for the gyroscopic term and angular momentum).
    pub inertia: Mat3,
}

impl MassProps {
    pub const STATIC: MassProps = MassProps {
        inv_mass: 0.0,
        inv_inertia: Mat3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        inertia: Mat3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    };

    /// `None` when the mass is not positive or the tensor cannot be inverted.
    pub fn new(mass: f64, inertia: Mat3) -> Option<Self> {
        if !(mass.is_finite() && mass > 0.0) {
            return None;
        }
        let inv = inertia.try_inverse()?;
        inv.iter().all(|c| c.is_finite()).then_some(Self {
            inv_mass: 1.0 / mass,
            inv_inertia: inv,
            inertia,
        })
    }

    pub fn is_static(&self) -> bool {
        self.inv_mass == 0.0
    }

    /// `I(t)⁻¹ = R I_b⁻¹ Rᵀ`.
    pub fn world_inv_inertia(&self, q: &Quat) -> Mat3 {
        let r = q.to_rotation_matrix();
        r.matrix() * self.inv_inertia * r.matrix().transpose()
    }

    pub fn world_inertia(&self, q: &Quat) -> Mat3 {
        let r = q.to_rotation_matrix();
        r.matrix() * self.inertia * r.matrix().transpose()
    }
}

/// One Euler step of length `h` under the total force and torque (eqs I.10–I.16). The
/// velocities are updated first and the position and orientation move with the new ones
/// (semi-implicit Euler): with the old ones, an undamped spring (Table I.8 rows 1, 2 and 4)
/// gains energy every step, and the thesis' sheet would shake itself apart. The angular
/// acceleration keeps the gyroscopic term, `I⁻¹ (τ − ω × I ω)`: the thesis' `I⁻¹ τ` is only
/// right for a body whose inertia is a multiple of the identity (its Table I.8 cubes).
pub fn euler_step(s: &mut RigidState, m: &MassProps, force: Vec3, torque: Vec3, h: f64) {
    if m.is_static() {
        return;
    }
    s.v += force * (m.inv_mass * h);
    let spin_momentum = m.world_inertia(&s.q) * s.w;
    s.w += m.world_inv_inertia(&s.q) * (torque - s.w.cross(&spin_momentum)) * h;
    s.x += s.v * h;
    // dq/dt = ½ ω q, then back onto the unit sphere.
    let wq = Quaternion::from_parts(0.0, s.w) * s.q.into_inner();
    let q = s.q.into_inner() + wq * (0.5 * h);
    s.q = Quat::new_normalize(q);
}

/// The bodies of one contact and what the impulse did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impulse {
    /// Magnitude along the normal (0 when the bodies already separate).
    pub j: f64,
    /// Relative normal velocity before, `n · (v_pA − v_pB)`.
    pub approach: f64,
}

/// The collision impulse of Witkin & Baraff ([SUPPLEMENT] of the digest): `n` is the unit
/// normal pointing toward body A, `p` the contact point, `e` the restitution. Only applied
/// when the bodies approach (`v_rel < 0`).
pub fn apply_impulse(
    a: (&mut RigidState, &MassProps),
    b: (&mut RigidState, &MassProps),
    p: &Point3,
    n: &Vec3,
    e: f64,
) -> Impulse {
    let (sa, ma) = a;
    let (sb, mb) = b;
    let (ra, rb) = (p - sa.x, p - sb.x);
    let approach = n.dot(&(sa.point_velocity(p) - sb.point_velocity(p)));
    if approach >= 0.0 || (ma.is_static() && mb.is_static()) {
        return Impulse { j: 0.0, approach };
    }
    let (ia, ib) = (ma.world_inv_inertia(&sa.q), mb.world_inv_inertia(&sb.q));
    let turn_a = n.dot(&(ia * ra.cross(n)).cross(&ra));
    let turn_b = n.dot(&(ib * rb.cross(n)).cross(&rb));
    let j = -(1.0 + e) * approach / (ma.inv_mass + mb.inv_mass + turn_a + turn_b);
    let jn = n * j;
    sa.v += jn * ma.inv_mass;
    sa.w += ia * ra.cross(&jn);
    sb.v -= jn * mb.inv_mass;
    sb.w -= ib * rb.cross(&jn);
    Impulse { j, approach }
}

/// `L = I(t) ω + (x × M v)`: a body's angular momentum about the world origin.
pub fn angular_momentum(s: &RigidState, m: &MassProps) -> Vec3 {
    if m.is_static() {
        return Vec3::zeros();
    }
    m.world_inertia(&s.q) * s.w + s.x.coords.cross(&(s.v / m.inv_mass))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_cube() -> MassProps {
        MassProps::new(1.0, Mat3::identity()).unwrap()
    }

    #[test]
    fn spinning_about_a_principal_axis_keeps_its_rate_and_a_unit_quaternion() {
        let m = MassProps::new(2.0, Mat3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0))).unwrap();
        let mut s = RigidState::at_rest(Point3::origin());
        s.w = Vec3::new(0.0, 5.0, 0.0);
        let h = 1e-3;
        for _ in 0..10_000 {
            euler_step(&mut s, &m, Vec3::zeros(), Vec3::zeros(), h);
        }
        assert!((s.w.norm() - 5.0).abs() < 1e-12, "|ω| = {}", s.w.norm());
        assert!((s.q.into_inner().norm() - 1.0).abs() < 1e-12);
        // 10 s at 5 rad/s about y: the angle the quaternion turned by, modulo a turn.
        let (axis, angle) = s.q.axis_angle().unwrap();
        let expected = (50.0f64).rem_euclid(std::f64::consts::TAU);
        let turned = if axis.y > 0.0 {
            angle
        } else {
            std::f64::consts::TAU - angle
        };
        assert!(
            (turned - expected).abs() < 1e-2,
            "{turned} against {expected}"
        );
    }

    #[test]
    fn a_torque_free_tumble_keeps_its_angular_momentum() {
        // Off a principal axis the rate changes; the world angular momentum must not.
        let m = MassProps::new(1.0, Mat3::from_diagonal(&Vec3::new(1.0, 2.0, 3.0))).unwrap();
        let mut s = RigidState::at_rest(Point3::origin());
        s.w = Vec3::new(0.3, 2.0, 0.1);
        let before = angular_momentum(&s, &m);
        for _ in 0..2000 {
            euler_step(&mut s, &m, Vec3::zeros(), Vec3::zeros(), 1e-4);
        }
        let after = angular_momentum(&s, &m);
        assert!(
            (after - before).norm() < 1e-3 * before.norm(),
            "{before} -> {after}"
        );
    }

    #[test]
    fn the_impulse_matches_the_formula_and_conserves_momentum() {
        let ma = MassProps::new(2.0, Mat3::from_diagonal(&Vec3::new(0.5, 0.7, 0.9))).unwrap();
        let mb = MassProps::new(3.0, Mat3::identity() * 1.3).unwrap();
        let mut a = RigidState::at_rest(Point3::new(0.2, 1.0, 0.0));
        a.v = Vec3::new(0.1, -2.0, 0.3);
        a.w = Vec3::new(0.4, 0.0, -1.0);
        a.q = Quat::from_euler_angles(0.3, -0.2, 0.7);
        let mut b = RigidState::at_rest(Point3::new(0.0, -1.0, 0.1));
        b.v = Vec3::new(0.0, 1.0, 0.0);
        b.w = Vec3::new(0.0, 0.5, 0.2);
        let p = Point3::new(0.1, 0.05, 0.0);
        let n = Vec3::y();
        let e = 0.6;
        let (a0, b0) = (a, b);
        let total = |a: &RigidState, b: &RigidState| {
            (
                a.v * 2.0 + b.v * 3.0,
                angular_momentum(a, &ma) + angular_momentum(b, &mb),
            )
        };
        let (p0, l0) = total(&a, &b);
        let imp = apply_impulse((&mut a, &ma), (&mut b, &mb), &p, &n, e);
        // The relative normal velocity flips and shrinks by e.
        let after = n.dot(&(a.point_velocity(&p) - b.point_velocity(&p)));
        assert!(imp.approach < 0.0);
        assert!(
            (after + e * imp.approach).abs() < 1e-12,
            "{after} vs {}",
            imp.approach
        );
        let (p1, l1) = total(&a, &b);
        assert!((p1 - p0).norm() < 1e-12 && (l1 - l0).norm() < 1e-12);
        // The same j from the velocities change of A alone (independent of the formula).
        assert!(((a.v - a0.v).dot(&n) * 2.0 - imp.j).abs() < 1e-12);
        assert!(((b0.v - b.v).dot(&n) * 3.0 - imp.j).abs() < 1e-12);
    }

    #[test]
    fn a_static_body_takes_no_impulse_and_separating_bodies_none_at_all() {
        let m = unit_cube();
        let mut a = RigidState::at_rest(Point3::new(0.0, 1.0, 0.0));
        a.v = Vec3::new(0.0, -1.0, 0.0);
        let mut ground = RigidState::at_rest(Point3::origin());
        let p = Point3::new(0.0, 0.5, 0.0);
        let imp = apply_impulse(
            (&mut a, &m),
            (&mut ground, &MassProps::STATIC),
            &p,
            &Vec3::y(),
            1.0,
        );
        assert!((a.v.y - 1.0).abs() < 1e-12 && ground.v == Vec3::zeros());
        assert!((imp.j - 2.0).abs() < 1e-12);
        let again = apply_impulse(
            (&mut a, &m),
            (&mut ground, &MassProps::STATIC),
            &p,
            &Vec3::y(),
            1.0,
        );
        assert_eq!(again.j, 0.0);
    }
}
