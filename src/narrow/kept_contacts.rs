//! A pair's contact points kept from its last full test and carried by the bodies' motion,
//! while B has barely moved against A: resting and slowly sliding pairs, most of a pile's,
//! skip the separating-axis test and the clipping.
//!
//! Each point keeps its two ends, one fixed on each body, and its normal, fixed on the body
//! whose face it is. Carried along, a point's depth is measured again along its normal, which
//! is exact for a vertex against a face. What the kept points can miss is bounded by the
//! drift: they were sought within the margin plus the drift allowed, so a feature that comes
//! within the margin while B drifts that little was already among them.

use super::ContactPoint;
use super::polyhedra::{SatAxis, SatResult};
use crate::geom::{Point3, Pose, Real, Vec3};

/// How far any point of B may drift against A before the pair is tested again: this much, or
/// this share of the smaller body's radius for small bodies.
const DRIFT_M: Real = 0.005;
const DRIFT_OF_RADIUS: Real = 0.05;

/// Pairs sunk deeper than this are tested in full every time: deep in, the axis of least
/// penetration can jump to another face as the bodies move, and the solver needs the right
/// one to push them apart.
const DEEPEST_M: Real = 0.02;

/// The contact points of one pair, in A's frame, as its last full test found them.
#[derive(Clone, Debug)]
pub(super) struct KeptContacts {
    /// B's pose in A's frame at the test.
    sought_at: Pose,
    /// The margin the points were sought within; none when nothing is kept.
    sought_within: Option<Real>,
    /// Whether the normal is a face normal of B's (else A's, or an edge pair's).
    normal_on_b: bool,
    /// The middle of the points, in A's frame.
    centre: Point3,
    points: Vec<KeptPoint>,
}

#[derive(Clone, Copy, Debug)]
struct KeptPoint {
    /// The end on A, in A's frame.
    on_a: Point3,
    /// The end on B, in B's frame.
    on_b: Point3,
    /// From A to B: in B's frame when the normal is B's, else in A's.
    normal: Vec3,
}

impl Default for KeptContacts {
    fn default() -> Self {
        KeptContacts {
            sought_at: Pose::identity(),
            sought_within: None,
            normal_on_b: false,
            centre: Point3::origin(),
            points: Vec::new(),
        }
    }
}

impl KeptContacts {
    /// How far the pair may drift with these points kept: bodies reaching `radius_a` and
    /// `radius_b` from their origins.
    pub fn drift_allowed((radius_a, radius_b): (Real, Real)) -> Real {
        DRIFT_M.min(DRIFT_OF_RADIUS * radius_a.min(radius_b))
    }

    /// Nothing kept: the next call tests the pair in full.
    pub fn forget(&mut self) {
        self.sought_within = None;
        self.points.clear();
    }

    /// Takes the points a full test found with B at `rel` in A's frame, within `margin`, on
    /// the axis `sat`; the points are in A's frame. They are kept for the next calls unless
    /// the pair is deeper than [`DEEPEST_M`].
    pub fn keep(&mut self, rel: &Pose, margin: Real, sat: &SatResult, points: &[ContactPoint]) {
        self.sought_at = *rel;
        self.sought_within = (sat.depth <= DEEPEST_M).then_some(margin);
        self.normal_on_b = matches!(sat.axis, SatAxis::FaceB(_));
        let sum = points.iter().fold(Vec3::zeros(), |s, c| s + c.point.coords);
        self.centre = Point3::from(sum / points.len().max(1) as Real);
        self.points.clear();
        self.points.extend(points.iter().map(|c| {
            let half = c.normal * (0.5 * c.depth);
            KeptPoint {
                on_a: c.point + half,
                on_b: rel.inverse_transform_point(&(c.point - half)),
                normal: if self.normal_on_b {
                    rel.rotation.inverse_transform_vector(&c.normal)
                } else {
                    c.normal
                },
            }
        }));
    }

    /// Whether the kept points still stand for the pair with B at `rel`, sought within
    /// `margin`: no point near the contact (the bodies reach `radii` from their origins) has
    /// drifted more than `allowed` in either body's frame, and the margin the points were
    /// sought within covers today's plus the drift.
    pub fn still_hold(&self, rel: &Pose, margin: Real, radii: (Real, Real), allowed: Real) -> bool {
        let Some(sought_within) = self.sought_within else {
            return false;
        };
        let drift = self.drift(rel, radii, sought_within);
        drift <= allowed && margin + drift <= sought_within
    }

    /// How far a point that can touch has moved against the other body since the test: the
    /// motion of the point at the kept points' centre, both ways, plus the chord the turn
    /// sweeps across the contact, which spans at most the smaller body and the margin.
    fn drift(&self, rel: &Pose, (radius_a, radius_b): (Real, Real), sought_within: Real) -> Real {
        let motion = rel * self.sought_at.inverse();
        let c = self.centre;
        let moved = (motion * c - c)
            .norm()
            .max((motion.inverse() * c - c).norm());
        let chord = 2.0 * (0.5 * motion.rotation.angle()).sin();
        moved + chord * (2.0 * radius_a.min(radius_b) + sought_within)
    }

    /// The kept points with B at `rel`, in A's frame: each depth measured again along its
    /// normal, the point halfway across as the full test places it; those further apart
    /// than `margin` are left out.
    pub fn at(&self, rel: &Pose, margin: Real) -> Vec<ContactPoint> {
        self.points
            .iter()
            .filter_map(|k| {
                let on_b = rel * k.on_b;
                let normal = if self.normal_on_b {
                    rel.rotation * k.normal
                } else {
                    k.normal
                };
                let depth = normal.dot(&(k.on_a - on_b));
                (depth >= -margin).then(|| ContactPoint {
                    point: on_b + normal * (0.5 * depth),
                    normal,
                    depth,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shallow test's result on `axis`.
    fn on(axis: SatAxis) -> SatResult {
        SatResult {
            axis,
            normal: Vec3::y(),
            depth: 0.02,
        }
    }

    fn point(x: Real, depth: Real) -> ContactPoint {
        ContactPoint {
            point: Point3::new(x, 0.5, 0.0),
            normal: Vec3::y(),
            depth,
        }
    }

    #[test]
    fn kept_points_read_back_as_found_where_found() {
        let rel = Pose::new(Vec3::new(0.1, 0.98, -0.2), Vec3::new(0.0, 0.3, 0.0));
        let found = [point(0.2, 0.02), point(-0.3, -0.004)];
        for axis in [SatAxis::FaceA(2), SatAxis::FaceB(1)] {
            let mut kept = KeptContacts::default();
            kept.keep(&rel, 0.015, &on(axis), &found);
            let again = kept.at(&rel, 0.01);
            assert_eq!(again.len(), 2);
            for (a, f) in again.iter().zip(&found) {
                assert!((a.point - f.point).norm() < 1e-12, "{a:?} {f:?}");
                assert!((a.normal - f.normal).norm() < 1e-12);
                assert!((a.depth - f.depth).abs() < 1e-12);
            }
            assert!(kept.still_hold(&rel, 0.01, (0.5, 0.5), 0.005));
        }
    }

    #[test]
    fn a_point_rides_its_body_and_its_depth_follows_the_motion() {
        let rel = Pose::translation(0.0, 1.0, 0.0);
        let mut kept = KeptContacts::default();
        kept.keep(&rel, 0.015, &on(SatAxis::FaceA(0)), &[point(0.2, 0.02)]);
        // B sinks 3 mm and slides 1 mm: the same end on B, 3 mm deeper along A's normal, the
        // point halfway across moved 1.5 mm down.
        let moved = Pose::translation(0.001, 0.997, 0.0);
        let p = kept.at(&moved, 0.01)[0];
        assert!((p.depth - 0.023).abs() < 1e-12, "{p:?}");
        assert!(
            (p.point - Point3::new(0.201, 0.5 - 0.0015, 0.0)).norm() < 1e-12,
            "{p:?}"
        );
        assert!(kept.still_hold(&moved, 0.01, (0.5, 0.5), 0.005));
        // Lifted 3 cm: beyond the margin, left out; and too far to trust.
        let lifted = Pose::translation(0.0, 1.03, 0.0);
        assert!(kept.at(&lifted, 0.01).is_empty());
        assert!(!kept.still_hold(&lifted, 0.01, (0.5, 0.5), 0.005));
    }

    #[test]
    fn a_turn_drifts_the_rim_and_a_wider_margin_asks_for_a_new_test() {
        let rel = Pose::translation(0.0, 1.0, 0.0);
        let mut kept = KeptContacts::default();
        kept.keep(&rel, 0.015, &on(SatAxis::FaceB(0)), &[point(0.0, 0.0)]);
        // B turns about its origin, 0.5 m from the contact: by 0.2° the contact moves 1.7 mm
        // and the turn sweeps 2.1 mm across a contact of 2 × 0.3 m and the 15 mm margin,
        // within 5 mm; by 1° five times as far, beyond.
        let turned = |deg: Real| Pose::new(Vec3::new(0.0, 1.0, 0.0), Vec3::z() * deg.to_radians());
        assert!(kept.still_hold(&turned(0.2), 0.01, (0.5, 0.3), 0.005));
        assert!(!kept.still_hold(&turned(1.0), 0.01, (0.5, 0.3), 0.005));
        // B's face normal turns with B.
        let n = kept.at(&turned(0.2), 0.01)[0].normal;
        assert!(
            (n.angle(&Vec3::y()) - 0.2f64.to_radians()).abs() < 1e-9,
            "{n:?}"
        );
        // A margin that grew past what the points were sought within.
        assert!(!kept.still_hold(&rel, 0.02, (0.5, 0.5), 0.005));
        kept.forget();
        assert!(!kept.still_hold(&rel, 0.0, (0.5, 0.5), 0.005));
    }
}
