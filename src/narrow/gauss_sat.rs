//! The separating-axis test between two convex polyhedra with the edge pairs pruned on the
//! Gauss map. The candidate axes that can give the least penetration are the face normals
//! and the cross products of edge pairs that build a face of the Minkowski difference; an
//! edge pair does exactly when the arcs the two edges draw on the unit sphere (between their
//! faces' normals, B's negated) cross. That takes four dot products per pair; only pairs that
//! pass are measured, and then from the edges themselves, which are the supporting features
//! along their own axis. Same verdicts and depths as [`super::sat_query`], which measures
//! every edge pair against every vertex.

use super::hull_features::SatSide;
use super::polyhedra::{SatAxis, SatResult};
use crate::geom::{Point3, Real, Vec3};

/// The axis of least penetration, or the first axis separating the hulls by more than
/// `margin` (negative depth). Both sides in one frame; the normal points from A to B.
pub fn sat_pruned(a: &SatSide, b: &SatSide, margin: Real) -> Option<SatResult> {
    let mut best: Option<SatResult> = None;
    let mut consider = |axis: SatAxis, normal: Vec3, depth: Real| -> bool {
        if best.is_none_or(|b| depth < b.depth) {
            best = Some(SatResult {
                axis,
                normal,
                depth,
            });
        }
        depth < -margin
    };
    for (f, n) in a.view.normals.iter().enumerate() {
        if consider(
            SatAxis::FaceA(f),
            *n,
            a.reach[f] - lowest(b.view.vertices, n),
        ) {
            return best;
        }
    }
    for (g, m) in b.view.normals.iter().enumerate() {
        if consider(
            SatAxis::FaceB(g),
            -m,
            b.reach[g] - lowest(a.view.vertices, m),
        ) {
            return best;
        }
    }
    let face_best = best.map(|b| b.depth).unwrap_or(Real::INFINITY);
    let mut edge_best: Option<SatResult> = None;
    // Where each of B's face normals lies against the plane of A's arc, once per arc
    // rather than twice per edge pair: B's edges share their faces.
    let mut sides_of_b = vec![0.0; b.view.normals.len()];
    for (i, ea) in a.view.edges.iter().enumerate() {
        let [la, ra] = a.edge_faces[i];
        let (na, nb) = (a.view.normals[la as usize], a.view.normals[ra as usize]);
        let arc_a = a.arcs[i];
        for (side, n) in sides_of_b.iter_mut().zip(b.view.normals) {
            *side = n.dot(&arc_a);
        }
        for (j, eb) in b.view.edges.iter().enumerate() {
            let [lb, rb] = b.edge_faces[j];
            // B enters the Minkowski difference A − B with its Gauss map negated, which
            // negates its sides too (exactly: rounding is symmetric).
            let sides = (-sides_of_b[lb as usize], -sides_of_b[rb as usize]);
            let Some(normal) = minkowski_face(&na, &nb, sides, &b.arcs[j]) else {
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
        Some(e) if e.depth < 0.95 * face_best - 1e-4 => Some(e),
        _ => best,
    }
}

fn lowest(vertices: &[Point3], n: &Vec3) -> Real {
    vertices
        .iter()
        .map(|v| n.dot(&v.coords))
        .fold(Real::INFINITY, Real::min)
}

/// Whether the Gauss-map arcs a→b (plane normal `arc_ab` = b × a) and c→d (`arc_cd` = d × c)
/// cross, given `(c · arc_ab, d · arc_ab)`; if so, a direction on the a→b side to orient
/// the edge pair's axis with.
#[inline]
fn minkowski_face(a: &Vec3, b: &Vec3, (cba, dba): (Real, Real), arc_cd: &Vec3) -> Option<Vec3> {
    // c and d on opposite sides of a→b's great circle...
    if cba * dba >= 0.0 {
        return None;
    }
    // ...a and b on opposite sides of c→d's...
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
