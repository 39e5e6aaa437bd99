//! What the convex family adds to a scene: which pairs of hull bodies to walk, and scripted
//! motions that move them (coherent motion is what the warm-started walk is for).

use super::{Feature, Outcome};
use crate::geom::{Pose, Quat, Real, Vec3};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConvexScene {
    /// Pairs of body indices whose closest features are tracked every frame.
    pub pairs: Vec<[u32; 2]>,
    #[serde(default)]
    pub motions: Vec<ScriptedMotion>,
    /// Also run GJK on each pair, as the independent cross-check.
    #[serde(default)]
    pub cross_check: bool,
}

/// A body moved by a script rather than by the solver: at time t its pose is its scene pose
/// moved along `path` and turned by `spin`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptedMotion {
    pub body: u32,
    #[serde(default)]
    pub path: Path,
    /// Angular velocity (rad/s, world axes).
    #[serde(default)]
    pub spin: [Real; 3],
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Path {
    #[default]
    Still,
    /// A circle about the scene position: in the plane normal to `axis`.
    Orbit {
        radius: Real,
        axis: [Real; 3],
        period_s: Real,
    },
    /// Back and forth between the scene position and the scene position plus `offset`.
    Swing { offset: [Real; 3], period_s: Real },
}

impl ScriptedMotion {
    pub fn validate(&self) -> Result<(), String> {
        let finite = |v: &[Real]| v.iter().all(|c| c.is_finite());
        let period_ok = |p: Real| p.is_finite() && p > 0.0;
        if !finite(&self.spin) {
            return Err(format!("body {}: spin is not finite", self.body));
        }
        match &self.path {
            Path::Still => Ok(()),
            Path::Orbit {
                radius,
                axis,
                period_s,
            } => {
                if !radius.is_finite() || !finite(axis) || Vec3::from(*axis).norm() == 0.0 {
                    Err(format!(
                        "body {}: orbit needs a finite radius and an axis",
                        self.body
                    ))
                } else if !period_ok(*period_s) {
                    Err(format!("body {}: period_s must be positive", self.body))
                } else {
                    Ok(())
                }
            }
            Path::Swing { offset, period_s } => {
                if !finite(offset) {
                    Err(format!("body {}: swing offset is not finite", self.body))
                } else if !period_ok(*period_s) {
                    Err(format!("body {}: period_s must be positive", self.body))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The pose at time `t` of a body whose scene pose is `base`.
    pub fn pose_at(&self, base: &Pose, t: Real) -> Pose {
        let tau = std::f64::consts::TAU;
        let offset = match &self.path {
            Path::Still => Vec3::zeros(),
            Path::Orbit {
                radius,
                axis,
                period_s,
            } => {
                let axis = Vec3::from(*axis).normalize();
                let helper = if axis.x.abs() < 0.9 {
                    Vec3::x()
                } else {
                    Vec3::y()
                };
                let u = axis.cross(&helper).normalize();
                let v = axis.cross(&u);
                let a = tau * t / period_s;
                (u * a.cos() + v * a.sin() - u) * *radius
            }
            Path::Swing { offset, period_s } => {
                Vec3::from(*offset) * (0.5 - 0.5 * (tau * t / period_s).cos())
            }
        };
        let spin = Quat::from_scaled_axis(Vec3::from(self.spin) * t);
        Pose::from_parts(
            (base.translation.vector + offset).into(),
            spin * base.rotation,
        )
    }
}

/// What a frame records: each pair's walk result, which also warm-starts the next frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConvexFrame {
    pub walks: Vec<WalkRecord>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WalkRecord {
    pub features: [Feature; 2],
    pub outcome: Outcome,
    pub distance: Real,
    pub iterations: u32,
    /// GJK's distance on the same pair, when the scene cross-checks.
    pub gjk_distance: Option<Real>,
}
