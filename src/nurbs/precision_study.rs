//! The thesis' precision study (§3.4, Figs 3.6–3.8 of spec 000): the distance from the
//! contact point the query returns to the theoretical one, against the recursion level, in
//! six cases, with the bodies placed touching (static) or one falling onto the other
//! (moving: explicit Euler at a time step of 1e-4 s, then a binary search of the contact time
//! inside the step that first touched, as the Annex I simulator does).
//!
//! Geometry (the thesis gives no radii): unit spheres of eight degree-2 octants (poles on z),
//! and the thesis' plane, a degree-3 4 × 4 net, here the square of side 4 in z = 0. The thesis'
//! plane is xz with y up; ours is xy with z up, so its rotations "30° about z" (a horizontal
//! axis there) and "then 30° about y" (the vertical) are here 30° about x, and a turn of 30°
//! about z (vertical) before it. Cases, each with where the contact lands on the surfaces:
//! 1. two spheres, one above the other: at the poles, where four octants meet;
//! 2. spheres on a diagonal of the xy plane: on the equator seam between two octants;
//! 3. spheres on the diagonal (1, 1, 1): inside an octant;
//! 4. a sphere on the plane: at its pole;
//! 5. the same sphere turned 30° about x: on the seam x = 0 between two octants;
//! 6. turned 30° about z, then 30° about x: inside an octant.
//!
//! The query stops at a depth (`Stop::Depth(level)`), first hit per surface pair, as the
//! thesis'. Bodies made of several patches give one hit per touching patch pair: the study
//! reports the worst of their distances and the distance of their mean (the point the
//! simulator uses for its impulse).

use super::query::{HitMode, QueryOptions, intersect};
use super::rigid::{MassProps, RigidState, euler_step};
use super::shapes::{plane, sphere};
use super::surface::NurbsSurface;
use crate::geom::{Mat3, Point3, Pose, Quat, Vec3};

/// The moving runs' time step (the thesis' 0.0001).
pub const TIME_STEP: f64 = 1e-4;
/// How far apart the moving body starts, along its fall (world units).
pub const START_GAP: f64 = 0.01;
/// Gravity along the fall (m/s²).
pub const GRAVITY: f64 = 9.81;
/// Halvings of the step in the contact-time search (the simulator's default).
pub const BISECTIONS: u32 = 8;
/// A moving run gives up after this many steps without a contact.
const MAX_STEPS: u32 = 20_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrecisionCase {
    SpheresPole,
    SpheresSeam,
    SpheresInside,
    PlanePole,
    PlaneSeam,
    PlaneInside,
}

impl PrecisionCase {
    pub const ALL: [PrecisionCase; 6] = [
        PrecisionCase::SpheresPole,
        PrecisionCase::SpheresSeam,
        PrecisionCase::SpheresInside,
        PrecisionCase::PlanePole,
        PrecisionCase::PlaneSeam,
        PrecisionCase::PlaneInside,
    ];

    /// The thesis' number (1..=6).
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    pub fn from_number(n: u8) -> Option<Self> {
        Self::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    pub fn describe(self) -> &'static str {
        match self {
            PrecisionCase::SpheresPole => "two spheres, at the poles",
            PrecisionCase::SpheresSeam => "two spheres, on a seam",
            PrecisionCase::SpheresInside => "two spheres, inside a patch",
            PrecisionCase::PlanePole => "sphere on the plane, at the pole",
            PrecisionCase::PlaneSeam => "sphere on the plane, on a seam",
            PrecisionCase::PlaneInside => "sphere on the plane, inside a patch",
        }
    }
}

/// A case's bodies: the fixed one in world space, the moving one (a unit sphere) in its own
/// frame, and where it stands when the two touch.
pub struct Setup {
    pub fixed: Vec<NurbsSurface>,
    pub moving: Vec<NurbsSurface>,
    pub rotation: Quat,
    /// The moving sphere's centre when touching.
    pub touching_centre: Point3,
    /// The unit direction in which the moving body falls (toward the fixed one).
    pub fall: Vec3,
}

pub fn setup(case: PrecisionCase) -> Setup {
    let deg = std::f64::consts::PI / 6.0;
    let (fixed, touching_centre, rotation) = match case {
        PrecisionCase::SpheresPole => (
            sphere([0.0, 0.0, -1.0], 1.0),
            Point3::new(0.0, 0.0, 1.0),
            Quat::identity(),
        ),
        PrecisionCase::SpheresSeam => {
            let d = 2f64.sqrt();
            (
                sphere([0.0; 3], 1.0),
                Point3::new(d, d, 0.0),
                Quat::identity(),
            )
        }
        PrecisionCase::SpheresInside => {
            let d = 2.0 / 3f64.sqrt();
            (
                sphere([0.0; 3], 1.0),
                Point3::new(d, d, d),
                Quat::identity(),
            )
        }
        PrecisionCase::PlanePole | PrecisionCase::PlaneSeam | PrecisionCase::PlaneInside => {
            let rotation = match case {
                PrecisionCase::PlanePole => Quat::identity(),
                PrecisionCase::PlaneSeam => Quat::from_axis_angle(&Vec3::x_axis(), deg),
                _ => {
                    Quat::from_axis_angle(&Vec3::x_axis(), deg)
                        * Quat::from_axis_angle(&Vec3::z_axis(), deg)
                }
            };
            (vec![plane(4.0, 0.0)], Point3::new(0.0, 0.0, 1.0), rotation)
        }
    };
    let towards_fixed = match case {
        PrecisionCase::SpheresSeam | PrecisionCase::SpheresInside => -touching_centre.coords,
        _ => -Vec3::z(),
    };
    Setup {
        fixed,
        moving: sphere([0.0; 3], 1.0),
        rotation,
        touching_centre,
        fall: towards_fixed.normalize(),
    }
}

/// The theoretical contact: the point of the unit sphere nearest the fixed body, one radius
/// from its touching centre along its fall.
pub fn theoretical_contact(case: PrecisionCase) -> Point3 {
    let s = setup(case);
    s.touching_centre + s.fall
}

/// The first hit of every touching patch pair, the moving sphere centred at `centre`.
pub fn hits_at(s: &Setup, centre: &Point3, level: u32) -> Vec<Point3> {
    let pose = Pose::from_parts(centre.coords.into(), s.rotation);
    let options = QueryOptions::depth(level, HitMode::First);
    let mut out = Vec::new();
    for m in &s.moving {
        let m = m.transformed(&pose);
        for f in &s.fixed {
            if let Some(h) = intersect(&m, f, options).0.first() {
                out.push(h.point);
            }
        }
    }
    out
}

/// The static case: placed touching.
pub fn static_hits(case: PrecisionCase, level: u32) -> Vec<Point3> {
    let s = setup(case);
    hits_at(&s, &s.touching_centre, level)
}

/// What a moving run found: the hits at the contact time found by the search, the step that
/// first touched, and that time (s).
#[derive(Clone, Debug)]
pub struct MovingRun {
    pub hits: Vec<Point3>,
    pub step: u32,
    pub contact_time: f64,
}

/// The moving case: the sphere starts [`START_GAP`] away at rest and falls; the first step
/// ending in contact is searched for the contact time. `None` if it never touches.
pub fn moving_hits(case: PrecisionCase, level: u32) -> Option<MovingRun> {
    let s = setup(case);
    let mass = MassProps::new(1.0, Mat3::identity())?;
    let force = s.fall * GRAVITY;
    let mut state = RigidState::at_rest(s.touching_centre - s.fall * START_GAP);
    for step in 0..MAX_STEPS {
        let start = state;
        euler_step(&mut state, &mass, force, Vec3::zeros(), TIME_STEP);
        let hits = hits_at(&s, &state.x, level);
        if hits.is_empty() {
            continue;
        }
        let (mut lo, mut hi, mut found) = (0.0, 1.0, hits);
        for _ in 0..BISECTIONS {
            let mid = 0.5 * (lo + hi);
            let mut trial = start;
            euler_step(&mut trial, &mass, force, Vec3::zeros(), TIME_STEP * mid);
            let t = hits_at(&s, &trial.x, level);
            if t.is_empty() {
                lo = mid;
            } else {
                hi = mid;
                found = t;
            }
        }
        return Some(MovingRun {
            hits: found,
            step,
            contact_time: (f64::from(step) + hi) * TIME_STEP,
        });
    }
    None
}

/// The errors of a set of hits against a contact point: the worst hit's distance and the
/// distance of their mean. `None` without hits.
pub fn errors(hits: &[Point3], contact: &Point3) -> Option<(f64, f64)> {
    if hits.is_empty() {
        return None;
    }
    let worst = hits
        .iter()
        .map(|h| (h - contact).norm())
        .fold(0.0, f64::max);
    let mean = hits.iter().map(|h| h.coords).sum::<Vec3>() / hits.len() as f64;
    Some((worst, (mean - contact.coords).norm()))
}
