//! The orbit camera: a target, a distance and two angles. Pure math, shared by drawing and
//! by the pick ray so that what you click is what you see.

use nalgebra::{Matrix4, Point3, Vector3};

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OrbitCamera {
    pub target: [f64; 3],
    /// Radians around the vertical (y) axis.
    pub yaw: f64,
    /// Radians above the horizontal plane.
    pub pitch: f64,
    pub distance: f64,
    /// Vertical field of view, radians.
    pub fov_y: f64,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: [0.0, 1.0, 0.0],
            yaw: 0.7,
            pitch: 0.45,
            distance: 14.0,
            fov_y: 45f64.to_radians(),
        }
    }
}

const PITCH_LIMIT: f64 = 1.55;

impl OrbitCamera {
    pub fn target(&self) -> Point3<f64> {
        Point3::from(self.target)
    }

    /// Unit vector from the target towards the eye.
    pub fn back(&self) -> Vector3<f64> {
        Vector3::new(
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
            self.pitch.cos() * self.yaw.cos(),
        )
    }

    pub fn eye(&self) -> Point3<f64> {
        self.target() + self.back() * self.distance
    }

    fn right(&self) -> Vector3<f64> {
        Vector3::new(self.yaw.cos(), 0.0, -self.yaw.sin())
    }

    fn up(&self) -> Vector3<f64> {
        self.back().cross(&self.right())
    }

    pub fn orbit(&mut self, d_yaw: f64, d_pitch: f64) {
        self.yaw = (self.yaw + d_yaw) % std::f64::consts::TAU;
        self.pitch = (self.pitch + d_pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves the target in the view plane; `dx`, `dy` are fractions of the view height.
    pub fn pan(&mut self, dx: f64, dy: f64) {
        let scale = 2.0 * self.distance * (self.fov_y / 2.0).tan();
        let d = self.right() * (-dx * scale) + self.up() * (dy * scale);
        for i in 0..3 {
            self.target[i] += d[i];
        }
    }

    /// Multiplies the distance (below 1 zooms in).
    pub fn zoom(&mut self, factor: f64) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(1e-3, 1e6);
        }
    }

    /// Looks at a sphere so that it fills about 80% of the view.
    pub fn frame_sphere(&mut self, center: [f64; 3], radius: f64) {
        if !center.iter().all(|c| c.is_finite()) || !radius.is_finite() {
            return;
        }
        self.target = center;
        let r = radius.max(0.05);
        self.distance = (r / (self.fov_y / 2.0).sin() * 1.25).clamp(1e-3, 1e6);
    }

    pub fn view(&self) -> Matrix4<f64> {
        Matrix4::look_at_rh(&self.eye(), &self.target(), &Vector3::y())
    }

    /// Near and far planes that keep depth precision around the target.
    pub fn clip_planes(&self, scene_radius: f64) -> (f64, f64) {
        let near = (self.distance * 0.01).max(1e-3);
        let far = (self.distance + scene_radius.max(1.0)) * 4.0 + 100.0;
        (near, far)
    }

    pub fn projection(&self, aspect: f64, scene_radius: f64) -> Matrix4<f64> {
        let (near, far) = self.clip_planes(scene_radius);
        Matrix4::new_perspective(aspect.max(1e-6), self.fov_y, near, far)
    }

    pub fn view_projection(&self, aspect: f64, scene_radius: f64) -> Matrix4<f64> {
        self.projection(aspect, scene_radius) * self.view()
    }

    /// The ray through a point of the view, given in normalised device coordinates
    /// (x right, y up, both in -1..1): origin at the eye, unit direction.
    pub fn ray(&self, ndc_x: f64, ndc_y: f64, aspect: f64) -> (Point3<f64>, Vector3<f64>) {
        let t = (self.fov_y / 2.0).tan();
        let dir = -self.back() + self.right() * (ndc_x * t * aspect) + self.up() * (ndc_y * t);
        (self.eye(), dir.normalize())
    }

    /// Where a world point lands in normalised device coordinates, if in front of the eye.
    pub fn project(&self, p: &Point3<f64>, aspect: f64, scene_radius: f64) -> Option<[f64; 2]> {
        let clip = self.view_projection(aspect, scene_radius) * p.to_homogeneous();
        (clip.w > 1e-9).then(|| [clip.x / clip.w, clip.y / clip.w])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pick_ray_goes_through_the_projected_point() {
        let mut cam = OrbitCamera::default();
        cam.orbit(0.3, -0.2);
        cam.pan(0.1, -0.05);
        let aspect = 1.6;
        for p in [
            Point3::new(0.5, 1.0, -2.0),
            Point3::new(-3.0, 0.2, 1.0),
            Point3::new(0.0, 0.0, 0.0),
        ] {
            let [x, y] = cam.project(&p, aspect, 10.0).expect("in front");
            let (o, d) = cam.ray(x, y, aspect);
            // Distance from p to the ray.
            let v = p - o;
            let off = (v - d * v.dot(&d)).norm();
            assert!(off < 1e-9 * v.norm().max(1.0), "{off}");
        }
    }

    #[test]
    fn target_projects_to_the_centre_and_framing_fits() {
        let mut cam = OrbitCamera::default();
        cam.frame_sphere([1.0, 2.0, 3.0], 2.0);
        let [x, y] = cam.project(&cam.target(), 1.0, 5.0).expect("in front");
        assert!(x.abs() < 1e-9 && y.abs() < 1e-9);
        // The sphere's silhouette stays within the view.
        let edge = cam.target() + cam.right() * 2.0;
        let [x, _] = cam.project(&edge, 1.0, 5.0).expect("in front");
        assert!(x.abs() < 1.0, "{x}");
        cam.orbit(0.0, 10.0);
        assert!(cam.pitch <= PITCH_LIMIT);
        cam.zoom(-1.0);
        assert!(cam.distance > 0.0);
    }
}
