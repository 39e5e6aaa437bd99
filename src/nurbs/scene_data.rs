//! What the NURBS family adds to a scene (bodies made of surfaces and their motions) and what
//! it records per frame (where the bodies are, how fast they move).

use super::query::HitMode;
use super::surface::NurbsSurface;
use crate::geom::{Point3, Vec3};
use serde::{Deserialize, Serialize};

/// How a body moves. Bodies translate only: the query itself is what the family shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Motion {
    /// Never moves; pushes back with infinite mass.
    Fixed,
    /// Falls under gravity and bounces off what it hits.
    Falling,
    /// Held at its start by springs (the thesis' suspended sheet); gravity and hits move it.
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
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsScene {
    pub bodies: Vec<NurbsBody>,
    /// The query's stop: leaf boxes at most this long (world units).
    pub precision: f64,
    pub mode: HitMode,
    /// Share of the approach speed kept after a bounce.
    pub restitution: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsFrame {
    pub positions: Vec<Point3>,
    pub velocities: Vec<Vec3>,
    /// Surface pairs reported in contact this frame.
    pub contacts: u32,
}

impl NurbsScene {
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
            .map_err(|e| format!("precision {e}"))
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
        let body = &self.bodies[b];
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
            // Homogeneous points: translate the Cartesian point, keep the weight.
            let shift = position.coords + Vec3::new(0.0, lift, 0.0);
            h.x += shift.x * h.w;
            h.y += shift.y * h.w;
            h.z += shift.z * h.w;
        }
        out
    }
}
