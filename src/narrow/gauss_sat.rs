//! The separating-axis test between two convex polyhedra with the edge pairs pruned on the
//! Gauss map. The candidate axes that can give the least penetration are the face normals
//! and the cross products of edge pairs that build a face of the Minkowski difference; an
//! edge pair does exactly when the arcs the two edges draw on the unit sphere (between their
//! faces' normals, B's negated) cross. That takes four dot products per pair; only pairs that
//! pass are measured, and then from the edges themselves, which are the supporting features
//! along their own axis. Same verdicts and depths as [`super::sat_query`], which measures
//! every edge pair against every vertex.

use super::hull_features::SatSide;
use super::polyhedra::{SatAxis, SatResult, edge_axis_bar};
use crate::geom::{Point3, Real, Vec3};

/// The axis of least penetration, or the first axis separating the hulls by more than
/// `margin` (negative depth). Both sides in one frame; the normal points from A to B.
pub fn sat_pruned(a: &SatSide, b: &SatSide, margin: Real) -> Option<SatResult> {
    sat(a, b, margin, true)
}

/// The test, skipping the faces and edges whose axes cannot be shallow enough to matter
/// when `skip_far_axes` (which changes nothing but the time).
fn sat(a: &SatSide, b: &SatSide, margin: Real, skip_far_axes: bool) -> Option<SatResult> {
    let mut best: Option<SatResult> = None;
    let (mut on_stack, mut on_heap) = ([0.0; 64], Vec::new());
    let near_a = scratch(&mut on_stack, &mut on_heap, a.view.normals.len());
    let (mut on_stack, mut on_heap) = ([0.0; 64], Vec::new());
    let near_b = scratch(&mut on_stack, &mut on_heap, b.view.normals.len());
    let faces = ShallowestFaceAxis::new(a, b, margin, skip_far_axes, (near_a, near_b));
    for (f, n) in a.view.normals.iter().enumerate() {
        if !faces.may_matter(near_a[f] + b.balls.inner, &best) {
            continue;
        }
        let depth = a.reach[f] - lowest(b.view.vertices, n);
        if take(&mut best, SatAxis::FaceA(f), *n, depth, margin) {
            return best;
        }
    }
    for (g, m) in b.view.normals.iter().enumerate() {
        if !faces.may_matter(near_b[g] + a.balls.inner, &best) {
            continue;
        }
        let depth = b.reach[g] - lowest(a.view.vertices, m);
        if take(&mut best, SatAxis::FaceB(g), -m, depth, margin) {
            return best;
        }
    }
    let face_best = best.map(|b| b.depth).unwrap_or(Real::INFINITY);
    let mut edge_best: Option<SatResult> = None;
    // Where each of B's face normals lies against the plane of A's arc, once per arc
    // rather than twice per edge pair: B's edges share their faces.
    let (mut on_stack, mut on_heap) = ([0.0; 64], Vec::new());
    let sides_of_b = scratch(&mut on_stack, &mut on_heap, b.view.normals.len());
    let floor = ShallowestEdgeAxis::new(margin, face_best, skip_far_axes);
    let (mut on_stack, mut on_heap) = ([0u64; 4], Vec::new());
    let b_edges_that_may_matter =
        scratch(&mut on_stack, &mut on_heap, b.edge_faces.len().div_ceil(64));
    floor.edges_that_may_matter(b, near_b, a.balls.inner, b_edges_that_may_matter);
    for (i, ea) in a.view.edges.iter().enumerate() {
        let [la, ra] = a.edge_faces[i];
        let edge_near = (near_a[la as usize], near_a[ra as usize]);
        if !floor.may_matter(edge_near, a.half_cos[i], b.balls.inner) {
            continue;
        }
        let (na, nb) = (a.view.normals[la as usize], a.view.normals[ra as usize]);
        let arc_a = a.arcs[i];
        for (side, n) in sides_of_b.iter_mut().zip(b.view.normals) {
            *side = n.dot(&arc_a);
        }
        for (j, c_side) in crossing_edges(sides_of_b, b.edge_faces, b_edges_that_may_matter) {
            let eb = b.view.edges[j];
            let Some(normal) = minkowski_face(&na, &nb, c_side, &b.arcs[j]) else {
                continue;
            };
            let pa = a.view.vertex(ea[0]);
            let pb = b.view.vertex(eb[0]);
            let da = a.view.vertex(ea[1]) - pa;
            let db = b.view.vertex(eb[1]) - pb;
            let Some(u) = da.cross(&db).try_normalize(1e-9 * da.norm() * db.norm()) else {
                continue;
            };
            // The axis lies on A's arc: between the normals of the edge's two faces.
            let u = if u.dot(&normal) < 0.0 { -u } else { u };
            let depth = u.dot(&(pa - pb));
            if depth < -margin {
                return Some(SatResult {
                    axis: SatAxis::Edges(i, j),
                    normal: u,
                    depth,
                });
            }
            if edge_best.is_none_or(|e| depth < e.depth) {
                edge_best = Some(SatResult {
                    axis: SatAxis::Edges(i, j),
                    normal: u,
                    depth,
                });
            }
        }
    }
    // The same preference as the reference test: face contacts unless an edge axis is
    // clearly shallower.
    match edge_best {
        Some(e) if e.depth < edge_axis_bar(face_best) => Some(e),
        _ => best,
    }
}

/// Keeps the axis if it is the shallowest so far; whether it separates the hulls by more
/// than `margin`, which ends the test.
fn take(
    best: &mut Option<SatResult>,
    axis: SatAxis,
    normal: Vec3,
    depth: Real,
    margin: Real,
) -> bool {
    if best.is_none_or(|b| depth < b.depth) {
        *best = Some(SatResult {
            axis,
            normal,
            depth,
        });
    }
    depth < -margin
}

/// Which face axes can change the test's answer. Along a face's normal `n` the other hull
/// reaches no lower than `n · c − outer` and at least as low as `n · c − inner` (its
/// [`Balls`]), so the depth along the face lies between `near + inner` and `near + outer`,
/// with `near` the face's reach less `n · c`. The least of the upper ends is a ceiling on the
/// shallowest face's depth. A face whose depth is certainly above the ceiling, or above the
/// shallowest found so far, is not the answer; unless it also separates the hulls by more
/// than the margin it cannot end the test either, and it is skipped. The verdict, axis and
/// depth are those of the test without the skip, exactly.
///
/// [`Balls`]: super::hull_features::Balls
struct ShallowestFaceAxis {
    ceiling: Real,
    margin: Real,
    /// Off, every face is measured: the oracle the skip is tested against.
    skip: bool,
}

impl ShallowestFaceAxis {
    /// Fills each side's `near` for its faces against the other hull's centre.
    fn new(
        a: &SatSide,
        b: &SatSide,
        margin: Real,
        skip: bool,
        near: (&mut [Real], &mut [Real]),
    ) -> Self {
        let lowest_near = |own: &SatSide, other: &SatSide, near: &mut [Real]| {
            let c = other.balls.centre.coords;
            let mut least = Real::INFINITY;
            for ((slot, n), reach) in near.iter_mut().zip(own.view.normals).zip(own.reach) {
                *slot = reach - n.dot(&c);
                least = least.min(*slot);
            }
            least
        };
        let ceiling = (lowest_near(a, b, near.0) + b.balls.outer)
            .min(lowest_near(b, a, near.1) + a.balls.outer);
        ShallowestFaceAxis {
            ceiling,
            margin,
            skip,
        }
    }

    /// Whether a face whose depth is at least `floor` may be the answer or end the test.
    fn may_matter(&self, floor: Real, best: &Option<SatResult>) -> bool {
        if !self.skip {
            return true;
        }
        let shallowest = best.map_or(self.ceiling, |b| b.depth.min(self.ceiling));
        !(floor - SLACK > shallowest.max(-self.margin))
    }
}

/// Rounding of the dots against the bounds the balls give, which hold exactly.
const SLACK: Real = 1e-9;

/// `len` working values: in `stack` when they fit, which hulls of up to 64 faces do, so the
/// test allocates nothing.
fn scratch<'s, T: Copy + Default, const N: usize>(
    stack: &'s mut [T; N],
    heap: &'s mut Vec<T>,
    len: usize,
) -> &'s mut [T] {
    if len <= N {
        &mut stack[..len]
    } else {
        heap.resize(len, T::default());
        heap
    }
}

fn lowest(vertices: &[Point3], n: &Vec3) -> Real {
    vertices
        .iter()
        .map(|v| n.dot(&v.coords))
        .fold(Real::INFINITY, Real::min)
}

/// B's edges, among those that may matter, whose two faces' normals lie strictly on
/// opposite sides of A's arc plane (`sides_of_b`: each normal's dot with that plane's
/// normal), with the side of the edge's first face as the Minkowski difference sees it
/// (negated: B enters A − B with its Gauss map negated, which is exact, rounding being
/// symmetric).
fn crossing_edges<'s>(
    sides_of_b: &'s [Real],
    edge_faces: &'s [[u32; 2]],
    may_matter: &'s [u64],
) -> impl Iterator<Item = (usize, Real)> + 's {
    may_matter
        .iter()
        .enumerate()
        .flat_map(|(word, &bits)| SetBits(bits).map(move |k| word * 64 + k))
        .filter_map(move |j| {
            let [l, r] = edge_faces[j];
            let (left, right) = (sides_of_b[l as usize], sides_of_b[r as usize]);
            (!(left * right >= 0.0)).then_some((j, -left))
        })
}

/// Which edges can give an axis that changes the test's answer. An edge pair's axis `u` lies
/// on A's arc between the normals of A's edge's two faces, and along it A reaches exactly as
/// far as the edge; the other hull, B, reaches at least as low as `u · c − inner` (its
/// [`Balls`]). So the depth is at least `u · (p − c) + inner` for `p` on the edge, and over the
/// arc `u · (p − c)` is at least the smaller of its values at the arc's two ends, the faces'
/// `near` (see [`ShallowestFaceAxis`]), divided by the cosine of half the arc's angle when that
/// smaller value is negative (the arc's chord is shorter than the arc). The same holds for B's
/// edges, whose arcs the axis meets negated. An edge whose bound is deeper than any axis that
/// could separate the hulls or beat the face axes is skipped. The verdict, axis and depth are
/// those of the test without the skip, exactly.
///
/// [`Balls`]: super::hull_features::Balls
struct ShallowestEdgeAxis {
    /// An edge axis matters only when shallower than this: past the margin, or preferred
    /// over the best face axis.
    cutoff: Real,
}

impl ShallowestEdgeAxis {
    fn new(margin: Real, face_best: Real, skip: bool) -> Self {
        let cutoff = (-margin).max(edge_axis_bar(face_best));
        ShallowestEdgeAxis {
            cutoff: if skip { cutoff } else { Real::INFINITY },
        }
    }

    /// Whether an axis of an edge may be shallow enough: `near` of the edge's two faces, the
    /// cosine of half its arc, and the other hull's inner radius.
    fn may_matter(&self, (left, right): (Real, Real), half_cos: Real, inner: Real) -> bool {
        let least = left.min(right);
        let least = if least >= 0.0 {
            least
        } else if half_cos >= MIN_HALF_COS {
            least / half_cos
        } else {
            return true;
        };
        // SLACK also covers the axis, which is found from the edges, not the arc, and the
        // reach, which is the edge's up to the face's flatness.
        !(least + inner - SLACK > self.cutoff)
    }

    /// Sets a mask of the hull's edges that may matter, 64 to a word.
    fn edges_that_may_matter(&self, side: &SatSide, near: &[Real], inner: Real, words: &mut [u64]) {
        words.fill(0);
        for (j, (&[l, r], &half_cos)) in side.edge_faces.iter().zip(side.half_cos).enumerate() {
            let edge_near = (near[l as usize], near[r as usize]);
            words[j / 64] |= u64::from(self.may_matter(edge_near, half_cos, inner)) << (j % 64);
        }
    }
}

/// Arcs wider than this (about 168°, knife edges) get no bound when they point toward the
/// other hull: the division would magnify the rounding.
const MIN_HALF_COS: Real = 0.1;

/// The indices of a mask's set bits, lowest first.
struct SetBits(u64);

impl Iterator for SetBits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(k)
    }
}

/// Whether the Gauss-map arcs a→b (plane normal `arc_ab` = b × a) and c→d (`arc_cd` = d × c)
/// cross, given `cba` = c · arc_ab with c and d on opposite sides of a→b's great circle (see
/// [`crossing_edges`]); if so, a direction on the a→b side to orient the edge pair's axis with.
#[inline]
fn minkowski_face(a: &Vec3, b: &Vec3, cba: Real, arc_cd: &Vec3) -> Option<Vec3> {
    // a and b on opposite sides of c→d's great circle...
    let adc = a.dot(arc_cd);
    let bdc = b.dot(arc_cd);
    if adc * bdc >= 0.0 {
        return None;
    }
    // ...and the two crossings the same point, not antipodes.
    (cba * bdc > 0.0).then(|| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convex::gjk::gjk_distance;
    use crate::convex::support::Posed;
    use crate::geom::{ConvexPolyhedron, Pose};
    use crate::narrow::hull_features::{HullFeatures, PlacedHull};
    use crate::narrow::polyhedra::sat_query;
    use crate::trace::NoProbe;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn scale() -> u32 {
        std::env::var("COLLIDOSCOPE_TEST_SCALE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1)
            .max(1)
    }

    /// A hull of random points, or a box (parallel faces and edges by the dozen).
    fn hull() -> impl Strategy<Value = ConvexPolyhedron> {
        prop_oneof![
            prop::collection::vec(prop::array::uniform3(-0.6f64..0.6), 4..14).prop_filter_map(
                "flat hull",
                |p| {
                    let pts: Vec<Point3> = p.iter().map(|c| Point3::from(*c)).collect();
                    ConvexPolyhedron::hull(&pts).ok()
                }
            ),
            prop::array::uniform3(0.05f64..0.7)
                .prop_map(|h| ConvexPolyhedron::cuboid(Vec3::from(h))),
        ]
    }

    /// Random poses, and the degenerate ones: the same pose, a pure shift along an axis
    /// (faces parallel), a quarter turn (edges parallel), a shift to exactly touching boxes.
    fn pose() -> impl Strategy<Value = Pose> {
        prop_oneof![
            3 => (
                prop::array::uniform3(-1.0f64..1.0),
                prop::array::uniform3(-3.2f64..3.2)
            )
                .prop_map(|(t, r)| Pose::new(Vec3::from(t), Vec3::from(r))),
            1 => Just(Pose::identity()),
            1 => (0usize..3, -1.4f64..1.4).prop_map(|(k, d)| {
                let mut t = Vec3::zeros();
                t[k] = d;
                Pose::new(t, Vec3::zeros())
            }),
            1 => (0usize..3, -1.4f64..1.4, 0usize..3).prop_map(|(k, d, r)| {
                let mut t = Vec3::zeros();
                t[k] = d;
                let mut rot = Vec3::zeros();
                rot[r] = std::f64::consts::FRAC_PI_4;
                Pose::new(t, rot)
            }),
        ]
    }

    /// Any turn, and a shift along any direction by about the hulls' sizes: the poses where
    /// the hulls nearly touch, and edge axes and far edges both come up.
    fn near_touching() -> impl Strategy<Value = Pose> {
        (
            prop::array::uniform3(-1.0f64..1.0),
            0.3f64..1.4,
            prop::array::uniform3(-3.2f64..3.2),
        )
            .prop_filter_map("no direction", |(d, s, r)| {
                let d = Vec3::from(d).try_normalize(1e-3)?;
                Some(Pose::new(d * s, Vec3::from(r)))
            })
    }

    fn placed(h: &ConvexPolyhedron, pose: &Pose) -> (Arc<HullFeatures>, PlacedHull) {
        let f = Arc::new(HullFeatures::new(Arc::new(h.clone())).expect("a hull closes up"));
        let mut p = PlacedHull::default();
        p.place(&f, pose);
        (f, p)
    }

    /// The pruned test against the one that measures every edge pair: never a verdict of
    /// apart the brute force does not share, the same least depth whenever the hulls overlap,
    /// and never more separation than the distance GJK measures.
    fn check(a: &ConvexPolyhedron, pa: &Pose, b: &ConvexPolyhedron, pb: &Pose, margin: Real) {
        let (fa, sa) = placed(a, pa);
        let (fb, sb) = placed(b, pb);
        let ours = sat_pruned(&sa.side(&fa), &sb.side(&fb), margin).expect("faces to test");
        let brute = sat_query(&a.transformed(pa), &b.transformed(pb), margin).expect("faces");
        let eps = 1e-9;
        assert!((ours.normal.norm() - 1.0).abs() < 1e-9);
        if ours.depth < -margin {
            assert!(
                brute.depth < -margin,
                "ours apart {ours:?}, brute {brute:?}"
            );
        }
        // Separated along some axis or not: the face normals and the Minkowski edge pairs
        // decide it as surely as every edge pair does.
        assert!(
            (ours.depth < -eps) == (brute.depth < -eps)
                || ours.depth.abs().min(brute.depth.abs()) < eps,
            "ours {ours:?} brute {brute:?}"
        );
        if brute.depth >= 0.0 {
            assert!(
                (ours.depth - brute.depth).abs() < eps,
                "overlap: ours {ours:?} brute {brute:?}"
            );
        }
        let d = gjk_distance(
            &Posed { shape: a, pose: pa },
            &Posed { shape: b, pose: pb },
            &mut NoProbe,
        );
        assert!(
            -ours.depth <= d.distance + eps,
            "gap {} beyond the distance {}",
            -ours.depth,
            d.distance
        );
        // Along the reported axis B really is that far past A.
        let (top_a, low_b) = (
            sa.side(&fa)
                .view
                .vertices
                .iter()
                .map(|v| ours.normal.dot(&v.coords))
                .fold(Real::NEG_INFINITY, Real::max),
            lowest(sb.side(&fb).view.vertices, &ours.normal),
        );
        assert!((top_a - low_b - ours.depth).abs() < eps, "{ours:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300 * scale()))]
        #[test]
        fn pruned_agrees_with_every_edge_pair(
            a in hull(), b in hull(), pa in pose(), pb in pose(),
            margin in prop_oneof![Just(0.0), 0.0f64..0.2],
        ) {
            check(&a, &pa, &b, &pb, margin);
        }

        #[test]
        fn nested_hull_is_an_overlap(a in hull(), s in 0.05f64..0.5, pa in pose()) {
            // B is A shrunk toward its centroid: inside A, at A's pose and orientation.
            let c = a.vertices.iter().fold(Vec3::zeros(), |m, v| m + v.coords)
                / a.vertices.len() as Real;
            let pts: Vec<Point3> =
                a.vertices.iter().map(|v| Point3::from(c + (v.coords - c) * s)).collect();
            let b = ConvexPolyhedron::hull(&pts).expect("a scaled hull");
            check(&a, &pa, &b, &pa, 0.0);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500 * scale()))]
        /// Skipping the faces and the edges whose bounds are too deep to matter changes
        /// nothing: the same axis, normal and depth, bit for bit, as
        /// visiting every face and edge.
        #[test]
        fn skipping_far_axes_changes_nothing(
            a in hull(), b in hull(), pa in pose(),
            pb in prop_oneof![pose(), near_touching()],
            margin in prop_oneof![Just(0.0), 0.0f64..0.2],
        ) {
            let (fa, sa) = placed(&a, &pa);
            let (fb, sb) = placed(&b, &pb);
            let (sa, sb) = (sa.side(&fa), sb.side(&fb));
            let skipping = sat(&sa, &sb, margin, true).expect("faces to test");
            let visiting = sat(&sa, &sb, margin, false).expect("faces to test");
            prop_assert_eq!(skipping.axis, visiting.axis);
            prop_assert_eq!(skipping.normal, visiting.normal);
            prop_assert_eq!(skipping.depth.to_bits(), visiting.depth.to_bits());
        }
    }

    #[test]
    fn a_box_lies_between_its_balls() {
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.2, 0.3));
        let (f, _) = placed(&cube, &Pose::identity());
        assert!(f.balls.centre.coords.norm() < 1e-12);
        assert!((f.balls.inner - 0.2).abs() < 1e-12, "{:?}", f.balls);
        let corner = Vec3::new(0.5, 0.2, 0.3).norm();
        assert!((f.balls.outer - corner).abs() < 1e-12, "{:?}", f.balls);
    }

    #[test]
    fn a_box_edge_arc_spans_a_right_angle() {
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.2, 0.3));
        let (f, _) = placed(&cube, &Pose::identity());
        assert_eq!(f.half_cos.len(), 12);
        for c in &f.half_cos {
            assert!((c - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12, "{c}");
        }
    }

    #[test]
    fn boxes_face_to_face_touching_and_apart() {
        let a = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5));
        let b = ConvexPolyhedron::cuboid(Vec3::new(0.3, 0.2, 0.4));
        for (gap, margin) in [
            (-0.05, 0.0),
            (0.0, 0.0),
            (0.0, 0.01),
            (0.005, 0.01),
            (0.1, 0.01),
        ] {
            let pb = Pose::translation(0.1, 0.7 + gap, -0.05);
            check(&a, &Pose::identity(), &b, &pb, margin);
            let (fa, sa) = placed(&a, &Pose::identity());
            let (fb, sb) = placed(&b, &pb);
            let r = sat_pruned(&sa.side(&fa), &sb.side(&fb), margin).unwrap();
            assert!((r.depth + gap).abs() < 1e-12, "{gap}: {r:?}");
            assert!((r.normal - Vec3::y()).norm() < 1e-12);
        }
    }

    #[test]
    fn crossed_edges_take_the_edge_axis() {
        // Two boxes turned 45° about different axes meet edge to edge.
        let a = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5));
        let pa = Pose::new(
            Vec3::zeros(),
            Vec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_4),
        );
        let pb = Pose::new(
            Vec3::new(0.0, 2.0f64.sqrt() - 0.02, 0.0),
            Vec3::new(std::f64::consts::FRAC_PI_4, 0.0, 0.0),
        );
        let (fa, sa) = placed(&a, &pa);
        let (fb, sb) = placed(&a, &pb);
        let r = sat_pruned(&sa.side(&fa), &sb.side(&fb), 0.0).unwrap();
        assert!(matches!(r.axis, SatAxis::Edges(..)), "{r:?}");
        assert!((r.depth - 0.02).abs() < 1e-12, "{r:?}");
        check(&a, &pa, &a, &pb, 0.0);
    }
}
