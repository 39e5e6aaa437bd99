//! What the NURBS family adds to a scene (bodies made of surfaces and their motions, the
//! springs between them, the simulator's settings) and what it records per frame (where the
//! bodies are and how they turn, how fast they move, the contact-time searches and impulses).

use super::query::HitMode;
use super::rules::NurbsRules;
use super::spring::NurbsSpring;
use super::surface::NurbsSurface;
use crate::geom::{Point3, Pose, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// How a body moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Motion {
    /// Never moves; pushes back with infinite mass.
    Fixed,
    /// A rigid body of Annex I: falls under gravity, turns, is pulled by springs, and bounces
    /// off what it hits with the impulse of its mass and inertia.
    Falling,
    /// Held at its start by one spring along its translation only (before the four-spring
    /// sheet of Annex I; kept for scene files that use it).
    Sprung { stiffness: f64, damping: f64 },
    /// Sways around its start (`amplitude · sin(2πt / period)`) and passes through others:
    /// the random placements of the timing tests, contacts reported, no response.
    Sway { amplitude: Vec3, period_s: f64 },
    /// Fixed in place while its control points wave along the up axis: a deforming surface.
    Waving { amplitude: f64, period_s: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsBody {
    pub name: String,
    /// Control points relative to the body's position.
    pub surfaces: Vec<NurbsSurface>,
    pub start: Point3,
    pub velocity: Vec3,
    pub motion: Motion,
    /// Mass of a moving body (kg).
    #[serde(default = "one")]
    pub mass: f64,
    /// Principal moments of inertia about the centre of mass, in the body's axes; `None`:
    /// the surfaces taken as a thin shell of uniform density (`shell_mass`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<[f64; 3]>,
    /// Initial angular velocity (rad/s, world axes).
    #[serde(default = "zero", skip_serializing_if = "is_zero")]
    pub spin: Vec3,
}

impl NurbsBody {
    /// A body of unit mass at `start`, at rest and unturned, its inertia from its surfaces.
    pub fn at_rest(
        name: &str,
        surfaces: Vec<NurbsSurface>,
        start: [f64; 3],
        motion: Motion,
    ) -> Self {
        Self {
            name: name.into(),
            surfaces,
            start: Point3::new(start[0], start[1], start[2]),
            velocity: Vec3::zeros(),
            motion,
            mass: 1.0,
            inertia: None,
            spin: Vec3::zeros(),
        }
    }
}

fn one() -> f64 {
    1.0
}

fn zero() -> Vec3 {
    Vec3::zeros()
}

fn is_zero(v: &Vec3) -> bool {
    *v == Vec3::zeros()
}

fn default_bisections() -> u8 {
    8
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsScene {
    pub bodies: Vec<NurbsBody>,
    /// The query's stop: leaf boxes at most this long (world units).
    pub precision: f64,
    pub mode: HitMode,
    /// Share of the approach speed kept after a bounce.
    pub restitution: f64,
    /// Damped springs between bodies, or from a body to a fixed world point.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub springs: Vec<NurbsSpring>,
    /// Algorithm I.1's MaxTimeStep (s): a frame longer than this is cut into equal sub-steps.
    /// `None`: one sub-step per frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time_step: Option<f64>,
    /// Halvings of a sub-step in the binary search of the contact time.
    #[serde(default = "default_bisections")]
    pub bisections: u8,
    /// The manager's damping: force `−c v` and torque `−c ω` on every moving body.
    #[serde(default)]
    pub linear_damping: f64,
    #[serde(default)]
    pub angular_damping: f64,
    /// The query's box, split, recursion and normal rules (absent: the thesis').
    #[serde(default, skip_serializing_if = "NurbsRules::is_thesis")]
    pub rules: NurbsRules,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsFrame {
    /// Each body's centre of mass: the origin of its frame (where its control points are
    /// given) for a body that does not turn; a turning body's frame is found from its
    /// orientation and the centre of its shell (`NurbsSim::recorded_poses`).
    pub positions: Vec<Point3>,
    /// Velocities of the centres of mass.
    pub velocities: Vec<Vec3>,
    /// Surface pairs reported in contact this frame.
    pub contacts: u32,
    /// How each body's frame is turned (format v9).
    pub orientations: Vec<Quat>,
    /// Angular velocities (rad/s, world axes).
    pub spins: Vec<Vec3>,
    /// The binary searches of a contact time run this frame.
    pub bisections: Vec<NurbsBisection>,
    /// The impulses applied this frame.
    pub impulses: Vec<NurbsImpulse>,
}

/// One binary search of the contact time inside a sub-step: the step `[0, 1]` is halved
/// `iterations` times; bit `k` of `touching` says whether the bodies touched when integrated
/// to the middle of the interval kept after `k` halvings (then the upper half is dropped,
/// else the lower). The intervals follow from the bits alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsBisection {
    pub substep: u32,
    /// The body pairs found touching at the end of the sub-step (lower index first).
    pub pairs: Vec<[u32; 2]>,
    pub iterations: u8,
    pub touching: u64,
}

impl NurbsBisection {
    /// The interval `[lo, hi]` of the step fraction after `k` halvings (`k ≤ iterations`).
    pub fn interval(&self, k: u8) -> (f64, f64) {
        let (mut lo, mut hi) = (0.0, 1.0);
        for i in 0..k.min(self.iterations).min(64) {
            let mid = 0.5 * (lo + hi);
            if self.touching >> i & 1 == 1 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        (lo, hi)
    }
}

/// An impulse at a contact found by the search: at the query's hit point, along its normal
/// (toward `body_a`). Point and normal come from the query at the searched time, which the
/// frame's poses do not give back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsImpulse {
    pub body_a: u32,
    pub body_b: u32,
    pub point: Point3,
    pub normal: Vec3,
    /// Magnitude `j` (N·s).
    pub j: f64,
}

impl NurbsScene {
    /// A scene with no springs, one sub-step per frame, 8 halvings in the contact-time search
    /// and no damping.
    pub fn new(bodies: Vec<NurbsBody>, precision: f64, mode: HitMode, restitution: f64) -> Self {
        Self {
            bodies,
            precision,
            mode,
            restitution,
            springs: Vec::new(),
            max_time_step: None,
            bisections: default_bisections(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            rules: NurbsRules::default(),
        }
    }

    /// Checks what a scene file could get wrong; the message names the body and surface.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.precision.is_finite() && self.precision > 0.0) {
            return Err(format!("precision {} must be positive", self.precision));
        }
        if !(0.0..=1.0).contains(&self.restitution) {
            return Err(format!(
                "restitution {} is outside [0, 1]",
                self.restitution
            ));
        }
        let mut size: f64 = 0.0;
        for (b, body) in self.bodies.iter().enumerate() {
            for (s, surface) in body.surfaces.iter().enumerate() {
                let at = format!("bodies[{b}] ({}) surfaces[{s}]", body.name);
                surface.validate().map_err(|e| format!("{at}: {e}"))?;
                super::input_limits::check_surface(surface, &at)
                    .map_err(|e| format!("{}: {}", e.field, e.cause))?;
                size = size.max(surface.size());
            }
            let finite = body
                .start
                .iter()
                .chain(body.velocity.iter())
                .all(|c| c.is_finite());
            if !finite {
                return Err(format!(
                    "bodies[{b}] ({}): start or velocity not finite",
                    body.name
                ));
            }
        }
        super::input_limits::check_precision(self.precision, size)
            .map_err(|e| format!("precision {e}"))?;
        self.validate_dynamics()
    }

    /// Masses, springs and the simulator's settings.
    fn validate_dynamics(&self) -> Result<(), String> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        for (b, body) in self.bodies.iter().enumerate() {
            if !positive(body.mass) {
                return Err(format!(
                    "bodies[{b}] ({}): mass {} must be positive",
                    body.name, body.mass
                ));
            }
            if body
                .inertia
                .is_some_and(|i| !i.iter().all(|&x| positive(x)))
            {
                return Err(format!(
                    "bodies[{b}] ({}): inertia must be positive",
                    body.name
                ));
            }
            if !body.spin.iter().all(|c| c.is_finite()) {
                return Err(format!("bodies[{b}] ({}): spin not finite", body.name));
            }
        }
        let n = self.bodies.len();
        for (k, s) in self.springs.iter().enumerate() {
            let ends_ok = s.a < n && s.b.is_none_or(|b| b < n && b != s.a);
            if !ends_ok {
                return Err(format!(
                    "springs[{k}]: bodies {} and {:?} (there are {n})",
                    s.a, s.b
                ));
            }
            let finite = s
                .attach_a
                .iter()
                .chain(s.attach_b.iter())
                .all(|c| c.is_finite());
            if !(finite
                && non_negative(s.rest)
                && non_negative(s.stiffness)
                && non_negative(s.damping))
            {
                return Err(format!(
                    "springs[{k}]: attach points must be finite, rest, stiffness and damping \
                     non-negative"
                ));
            }
        }
        if self
            .max_time_step
            .is_some_and(|h| !(positive(h) && h >= 1e-6))
        {
            return Err(format!(
                "max_time_step {:?} must be at least 1e-6 s",
                self.max_time_step
            ));
        }
        if self.bisections > 40 {
            return Err(format!("bisections {} must be at most 40", self.bisections));
        }
        if !(non_negative(self.linear_damping) && non_negative(self.angular_damping)) {
            return Err("damping must be non-negative".into());
        }
        Ok(())
    }

    /// The id of surface `s` of body `b` in events: bodies' surfaces counted in order.
    pub fn surface_id(&self, b: usize, s: usize) -> u32 {
        let before: usize = self.bodies[..b].iter().map(|x| x.surfaces.len()).sum();
        (before + s) as u32
    }

    /// Body and surface index of an event's surface id.
    pub fn locate(&self, id: u32) -> Option<(usize, usize)> {
        let mut rest = id as usize;
        for (b, body) in self.bodies.iter().enumerate() {
            if rest < body.surfaces.len() {
                return Some((b, rest));
            }
            rest -= body.surfaces.len();
        }
        None
    }

    /// Surface `s` of body `b` in world space at `time_s`, the body at `position`: what the
    /// query saw that frame (the viewer rebuilds recorded boxes from it).
    pub fn world_surface(
        &self,
        b: usize,
        s: usize,
        position: &Point3,
        time_s: f64,
    ) -> NurbsSurface {
        self.world_surface_posed(
            b,
            s,
            &Pose::from_parts(position.coords.into(), Quat::identity()),
            time_s,
        )
    }

    /// Surface `s` of body `b` with the body's frame at `pose`: the control points turned and
    /// moved (a NURBS is affine invariant, so the surface follows).
    pub fn world_surface_posed(
        &self,
        b: usize,
        s: usize,
        pose: &Pose,
        time_s: f64,
    ) -> NurbsSurface {
        let body = &self.bodies[b];
        let turn = pose.rotation;
        let position = Point3::from(pose.translation.vector);
        let mut out = body.surfaces[s].clone();
        let wave = match body.motion {
            Motion::Waving {
                amplitude,
                period_s,
            } => Some((amplitude, period_s.max(1e-6))),
            _ => None,
        };
        for (k, h) in out.points.iter_mut().enumerate() {
            let (i, j) = (k / body.surfaces[s].count_v, k % body.surfaces[s].count_v);
            let lift = wave.map_or(0.0, |(a, period)| {
                let phase =
                    std::f64::consts::TAU * time_s / period + 0.9 * i as f64 + 0.6 * j as f64;
                a * phase.sin()
            });
            // Homogeneous points: a rotation is linear in (wx, wy, wz); the translation of
            // the Cartesian point adds w times the shift; the weight stays.
            if turn != Quat::identity() {
                let r = turn * Vec3::new(h.x, h.y, h.z);
                (h.x, h.y, h.z) = (r.x, r.y, r.z);
            }
            let shift = position.coords + Vec3::new(0.0, lift, 0.0);
            h.x += shift.x * h.w;
            h.y += shift.y * h.w;
            h.z += shift.z * h.w;
        }
        out
    }
}
