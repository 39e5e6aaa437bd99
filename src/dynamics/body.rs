use super::Shape;
use crate::frame::BodyState;
use crate::geom::{Mat3, Point3, Pose, Real, Vec3};
use crate::scene::Material;
use crate::trace::BodyId;

#[derive(Clone, Debug)]
pub struct RigidBody {
    pub id: BodyId,
    pub name: String,
    pub shape: Shape,
    pub pose: Pose,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    /// Zero for fixed bodies.
    pub inv_mass: Real,
    /// Local-space inverse inertia; zero for fixed bodies.
    pub inv_inertia_local: Mat3,
    pub material: Material,
    pub fixed: bool,
}

impl RigidBody {
    pub fn position(&self) -> Point3 {
        self.pose.translation.vector.into()
    }

    /// World-space inverse inertia: R I⁻¹ Rᵀ.
    pub fn inv_inertia_world(&self) -> Mat3 {
        let r = self.pose.rotation.to_rotation_matrix();
        r.matrix() * self.inv_inertia_local * r.matrix().transpose()
    }

    pub fn velocity_at(&self, p: &Point3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(&(p - self.position()))
    }

    pub fn apply_impulse(&mut self, impulse: &Vec3, at: &Point3) {
        if self.fixed {
            return;
        }
        self.linear_velocity += impulse * self.inv_mass;
        let r = at - self.position();
        self.angular_velocity += self.inv_inertia_world() * r.cross(impulse);
    }

    pub fn kinetic_energy(&self) -> Real {
        if self.fixed || self.inv_mass == 0.0 {
            return 0.0;
        }
        let m = 1.0 / self.inv_mass;
        let r = self.pose.rotation.to_rotation_matrix();
        let w_local = r.matrix().transpose() * self.angular_velocity;
        let inertia = self
            .inv_inertia_local
            .try_inverse()
            .unwrap_or_else(Mat3::zeros);
        0.5 * m * self.linear_velocity.norm_squared() + 0.5 * w_local.dot(&(inertia * w_local))
    }

    pub fn state(&self) -> BodyState {
        BodyState {
            id: self.id,
            position: self.position(),
            rotation: self.pose.rotation,
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
        }
    }

    pub fn set_state(&mut self, s: &BodyState) {
        self.pose = Pose::from_parts(s.position.coords.into(), s.rotation);
        self.linear_velocity = s.linear_velocity;
        self.angular_velocity = s.angular_velocity;
    }
}
