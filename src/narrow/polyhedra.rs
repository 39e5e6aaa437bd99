//! Convex polyhedron against convex polyhedron: separating-axis test over face normals and
//! edge-pair cross products, then a contact manifold by clipping the incident face against
//! the reference face's side planes (the box–box method, generalised to any polygon).

use super::ContactPoint;
use super::manifold::dedup;
use super::view::HullView;
use crate::geom::{ConvexPolyhedron, Point3, Real, Segment, Vec3, closest};

/// An edge axis is taken over the best face axis, `face_best` deep, only when shallower
/// than this by 5 % of the depth and 0.1 mm: face contacts give steadier multi-point
/// manifolds. The 5 % are of the depth's size, so that a gap (negative depth) must also
/// be 5 % wider along the edges: a box hovering over another, a hair turned, measures the
/// same gap along the cross product of two top edges as along the faces, and took that
/// edge axis and its single contact.
pub(super) fn edge_axis_bar(face_best: Real) -> Real {
    face_best - 0.05 * face_best.abs() - 1e-4
}

/// How much deeper than the clipped points a vertex beside the reference face may reach
/// without a contact of its own.
const HANGING_CORNER_M: Real = 1e-6;

/// Where the axis of least penetration came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SatAxis {
    FaceA(usize),
    FaceB(usize),
    Edges(usize, usize),
}

/// The result of the separating-axis test: `normal` points from A to B; `depth` is negative
/// (the gap) when an axis separates them.
#[derive(Clone, Copy, Debug)]
pub struct SatResult {
    pub axis: SatAxis,
    pub normal: Vec3,
    pub depth: Real,
}

fn interval(poly: &ConvexPolyhedron, u: &Vec3) -> (Real, Real) {
    poly.vertices
        .iter()
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), v| {
            let d = v.coords.dot(u);
            (lo.min(d), hi.max(d))
        })
}

/// How far B reaches behind A's extent along `u` (B taken to lie on the positive side).
fn one_sided(a: &ConvexPolyhedron, b: &ConvexPolyhedron, u: &Vec3) -> Real {
    interval(a, u).1 - interval(b, u).0
}

/// Penetration along `u` with its sign chosen so that B lies on the positive side.
fn penetration(a: &ConvexPolyhedron, b: &ConvexPolyhedron, u: &Vec3) -> (Real, Vec3) {
    // Along −u each extent is the negated one: how far A reaches behind B that way.
    let ((lo_a, hi_a), (lo_b, hi_b)) = (interval(a, u), interval(b, u));
    let forward = hi_a - lo_b;
    let backward = hi_b - lo_a;
    if forward <= backward {
        (forward, *u)
    } else {
        (backward, -u)
    }
}

/// The axis of least penetration, or the first axis separating them by more than `margin`
/// (negative depth).
pub fn sat_query(a: &ConvexPolyhedron, b: &ConvexPolyhedron, margin: Real) -> Option<SatResult> {
    sat_query_over(a, None, b, margin)
}

/// What a separating-axis test measures of hull A alone, taken once for many tests against
/// small shapes (a mesh's triangles).
pub struct HullAxes {
    /// How far A reaches along each of its face normals: the test's own sums, in its order.
    pub reach: Vec<Real>,
    /// One edge of each direction, the first: parallel edges give the same axis (to
    /// rounding). A box has twelve edges and three directions.
    pub edges: Vec<u32>,
}

impl HullAxes {
    pub fn of(poly: &ConvexPolyhedron) -> Self {
        let reach = poly.normals.iter().map(|n| interval(poly, n).1).collect();
        let dir = |e: &[u32; 2]| poly.vertices[e[1] as usize] - poly.vertices[e[0] as usize];
        let mut edges: Vec<u32> = Vec::new();
        for (i, e) in poly.edges.iter().enumerate() {
            let d = dir(e);
            let parallel = |f: &u32| {
                let g = dir(&poly.edges[*f as usize]);
                d.cross(&g).norm() <= 1e-9 * d.norm() * g.norm()
            };
            if !edges.iter().any(parallel) {
                edges.push(i as u32);
            }
        }
        HullAxes { reach, edges }
    }
}

/// [`sat_query`], with what it measures of A alone taken from `prepared` when given.
pub fn sat_query_over(
    a: &ConvexPolyhedron,
    prepared: Option<&HullAxes>,
    b: &ConvexPolyhedron,
    margin: Real,
) -> Option<SatResult> {
    // A face normal is tested one way only (B in front of that face): when B lies beyond the
    // opposite side, the opposite face (or the edge axes) says so, and the reference face
    // then really is the face whose normal we report.
    let mut best: Option<SatResult> = None;
    let mut consider = |axis: SatAxis, normal: Vec3| -> bool {
        let depth = match (axis, prepared) {
            (SatAxis::FaceA(f), Some(p)) => p.reach[f] - interval(b, &normal).0,
            _ => one_sided(a, b, &normal),
        };
        if best.is_none_or(|b| depth < b.depth) {
            best = Some(SatResult {
                axis,
                normal,
                depth,
            });
        }
        depth < -margin
    };
    for (f, n) in a.normals.iter().enumerate() {
        if consider(SatAxis::FaceA(f), *n) {
            return best;
        }
    }
    for (f, n) in b.normals.iter().enumerate() {
        if consider(SatAxis::FaceB(f), -n) {
            return best;
        }
    }
    let face_best = best.map(|b| b.depth).unwrap_or(Real::INFINITY);
    let mut edge_best: Option<SatResult> = None;
    let (listed, all) = match prepared {
        Some(p) => (&p.edges[..], 0),
        None => (&[][..], a.edges.len()),
    };
    for i in listed.iter().map(|&i| i as usize).chain(0..all) {
        let ea = a.edges[i];
        let da = a.vertices[ea[1] as usize] - a.vertices[ea[0] as usize];
        for (j, eb) in b.edges.iter().enumerate() {
            let db = b.vertices[eb[1] as usize] - b.vertices[eb[0] as usize];
            let Some(u) = da.cross(&db).try_normalize(1e-9 * da.norm() * db.norm()) else {
                continue;
            };
            let (depth, normal) = penetration(a, b, &u);
            if depth < -margin {
                return Some(SatResult {
                    axis: SatAxis::Edges(i, j),
                    normal,
                    depth,
                });
            }
            if edge_best.is_none_or(|e| depth < e.depth) {
                edge_best = Some(SatResult {
                    axis: SatAxis::Edges(i, j),
                    normal,
                    depth,
                });
            }
        }
    }
    match edge_best {
        Some(e) if e.depth < edge_axis_bar(face_best) => Some(e),
        _ => best,
    }
}

/// Contacts between two convex polyhedra in world space; normal from A to B. Points within
/// `margin` of touching come back as speculative contacts (negative depth).
pub fn polyhedron_contacts(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    margin: Real,
) -> Vec<ContactPoint> {
    polyhedron_contacts_over(a, None, b, margin)
}

/// [`polyhedron_contacts`], with what it measures of A alone taken from `prepared`.
pub fn polyhedron_contacts_over(
    a: &ConvexPolyhedron,
    prepared: Option<&HullAxes>,
    b: &ConvexPolyhedron,
    margin: Real,
) -> Vec<ContactPoint> {
    let Some(sat) = sat_query_over(a, prepared, b, margin) else {
        return Vec::new();
    };
    contacts_on_axis(a.into(), b.into(), &sat, margin)
}

/// The contact manifold along the axis a separating-axis test chose (empty when that axis
/// separates the hulls by more than `margin`); both hulls in one frame, normal from A to B.
pub fn contacts_on_axis(
    a: HullView,
    b: HullView,
    sat: &SatResult,
    margin: Real,
) -> Vec<ContactPoint> {
    if sat.depth < -margin {
        return Vec::new();
    }
    let mut points = match sat.axis {
        SatAxis::FaceA(f) => clip_face(a, f, b, sat.normal, false, margin),
        SatAxis::FaceB(f) => clip_face(b, f, a, -sat.normal, true, margin),
        SatAxis::Edges(..) => edge_contact(a, b, sat),
    };
    // Clipping only sees the incident face: on irregular hulls the deepest vertex can lie
    // off it, or the faces may not overlap at all. The separating axis still knows the
    // depth, so the deepest vertex is added (this keeps a real overlap from going unseen).
    // Into a face, a vertex less than a micrometre deeper than the clipped points adds
    // nothing they do not hold: that is a corner hanging just beside the face, as under a
    // box turned a hair on an equal box, and a fifth point there came and went from step to
    // step and shook stacks apart. Across a gap the bar stays at rounding: a speculative
    // contact must not report more gap than the axis measured.
    let deepest = points
        .iter()
        .map(|c| c.depth)
        .fold(Real::NEG_INFINITY, Real::max);
    let bar = if sat.depth > 0.0 {
        HANGING_CORNER_M
    } else {
        1e-9 * (1.0 + sat.depth.abs())
    };
    if deepest < sat.depth - bar {
        points.push(deepest_vertex(a, b, sat));
    }
    points
}

/// The contact at the vertex the separating axis measured its depth at, when clipping missed
/// it. Against a face, it sits at that vertex, halfway to the face's plane as the clipped
/// points do, and not between the two hulls' support vertices: the face's own support vertex
/// is any of its corners (they tie), so that point could land in the face's middle, where
/// nothing touches, and push a stacked box off-centre.
fn deepest_vertex(a: HullView, b: HullView, sat: &SatResult) -> ContactPoint {
    let n = sat.normal;
    let below_a = || b.vertex(b.support(&-n) as u32);
    let above_b = || a.vertex(a.support(&n) as u32);
    let point = match sat.axis {
        SatAxis::FaceA(_) => below_a() + n * (0.5 * sat.depth),
        SatAxis::FaceB(_) => above_b() - n * (0.5 * sat.depth),
        // B's deepest point against A, and A's against B: the contact sits between them.
        SatAxis::Edges(..) => nalgebra::center(&below_a(), &above_b()),
    };
    ContactPoint {
        point,
        normal: n,
        depth: sat.depth,
    }
}

/// Clips the face of `inc` most opposed to `reference`'s face `rf` against that face's side
/// planes and keeps the points below it. `n` is the reference face's outward normal.
fn clip_face(
    reference: HullView,
    rf: usize,
    inc: HullView,
    n: Vec3,
    flip: bool,
    margin: Real,
) -> Vec<ContactPoint> {
    let ref_face = &reference.faces[rf];
    let Some(incident) = (0..inc.faces.len())
        .min_by(|&x, &y| inc.normals[x].dot(&n).total_cmp(&inc.normals[y].dot(&n)))
    else {
        return Vec::new();
    };
    // Each clip adds at most one corner: two buffers of that size serve every pass.
    let room = inc.faces[incident].len() + ref_face.len();
    let mut poly: Vec<Point3> = Vec::with_capacity(room);
    poly.extend(
        inc.faces[incident]
            .iter()
            .map(|&i| inc.vertices[i as usize]),
    );
    let mut clipped: Vec<Point3> = Vec::with_capacity(room);
    for k in 0..ref_face.len() {
        let v0 = reference.vertices[ref_face[k] as usize];
        let v1 = reference.vertices[ref_face[(k + 1) % ref_face.len()] as usize];
        let side = (v1 - v0).cross(&n);
        clip_polygon(&poly, &v0, &side, &mut clipped);
        std::mem::swap(&mut poly, &mut clipped);
        if poly.is_empty() {
            break;
        }
    }
    let origin = reference.vertices[ref_face[0] as usize];
    let points = poly
        .into_iter()
        .filter_map(|p| {
            let s = n.dot(&(p - origin));
            (s <= margin).then(|| ContactPoint {
                point: p - n * (0.5 * s),
                normal: if flip { -n } else { n },
                depth: -s,
            })
        })
        .collect();
    dedup(points, 1e-9)
}

/// Sutherland–Hodgman: the part of a convex polygon with `side · (p - v0) ≤ 0`, into `out`.
fn clip_polygon(poly: &[Point3], v0: &Point3, side: &Vec3, out: &mut Vec<Point3>) {
    out.clear();
    for i in 0..poly.len() {
        let p = poly[i];
        let q = poly[(i + 1) % poly.len()];
        let dp = side.dot(&(p - v0));
        let dq = side.dot(&(q - v0));
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
}

fn edge_contact(a: HullView, b: HullView, sat: &SatResult) -> Vec<ContactPoint> {
    let SatAxis::Edges(i, j) = sat.axis else {
        return Vec::new();
    };
    let n = sat.normal;
    let seg = |p: &HullView, e: [u32; 2]| Segment::new(p.vertex(e[0]), p.vertex(e[1]));
    let dir = |p: &HullView, e: [u32; 2]| (p.vertex(e[1]) - p.vertex(e[0])).normalize();
    let (da, db) = (dir(&a, a.edges[i]), dir(&b, b.edges[j]));
    // Parallel within 1e-6 of the unit directions. An edge turned more than ~8° away
    // (|cos| < 0.99) is told from its raw direction first, without the roots.
    let parallel = |p: &HullView, e: [u32; 2], d: &Vec3| {
        let raw = p.vertex(e[1]) - p.vertex(e[0]);
        let along = raw.dot(d);
        along * along >= 0.98 * raw.norm_squared() && raw.normalize().cross(d).norm() < 1e-6
    };
    // Among the edges parallel to the axis' edges, the ones that support the contact: A's
    // furthest along n, B's furthest against it.
    let pick = |p: &HullView, d: &Vec3, sign: Real| {
        p.edges
            .iter()
            .filter(|e| parallel(p, **e, d))
            .max_by(|x, y| {
                let mx = seg(p, **x).at(0.5).coords.dot(&n) * sign;
                let my = seg(p, **y).at(0.5).coords.dot(&n) * sign;
                mx.total_cmp(&my)
            })
            .copied()
    };
    let (Some(ea), Some(eb)) = (pick(&a, &da, 1.0), pick(&b, &db, -1.0)) else {
        return Vec::new();
    };
    let (p, q) = closest::segment_segment(&seg(&a, ea), &seg(&b, eb));
    vec![ContactPoint {
        point: nalgebra::center(&p.point, &q.point),
        normal: n,
        depth: sat.depth,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Pose, Triangle};
    use proptest::prelude::*;

    proptest! {
        // Oracle: the plain test, over every edge pair. The prepared reach and one edge per
        // direction find the same axis kind, depth and contacts, to rounding.
        #[test]
        fn a_prepared_hull_finds_what_the_plain_test_finds(
            half in prop::array::uniform3(0.01f64..3.0),
            angles in prop::array::uniform3(-3.2f64..3.2),
            c in prop::array::uniform9(-3.0f64..3.0),
            margin in prop_oneof![Just(0.0), 0.0f64..0.5],
        ) {
            let pose = Pose::new(Vec3::zeros(), Vec3::new(angles[0], angles[1], angles[2]));
            let boxed = ConvexPolyhedron::cuboid(Vec3::new(half[0], half[1], half[2]))
                .transformed(&pose);
            let prepared = HullAxes::of(&boxed);
            prop_assert_eq!(prepared.edges.len(), 3);
            let [p, q, r] = [0, 3, 6].map(|i| Point3::new(c[i], c[i + 1], c[i + 2]));
            let tri = Triangle::new(p, q, r);
            prop_assume!(tri.normal().is_some());
            let flat = ConvexPolyhedron::two_faced_triangle(&tri);
            let every = sat_query(&boxed, &flat, margin);
            let some = sat_query_over(&boxed, Some(&prepared), &flat, margin);
            let tol = 1e-9;
            match (every, some) {
                (Some(e), Some(s)) => {
                    prop_assert!((e.depth - s.depth).abs() < tol, "{e:?} {s:?}");
                    prop_assert_eq!(
                        std::mem::discriminant(&e.axis),
                        std::mem::discriminant(&s.axis)
                    );
                }
                (e, s) => prop_assert!(e.is_none() && s.is_none(), "{e:?} {s:?}"),
            }
            let all = polyhedron_contacts(&boxed, &flat, margin);
            let fewer = polyhedron_contacts_over(&boxed, Some(&prepared), &flat, margin);
            prop_assert_eq!(all.len(), fewer.len());
            for (x, y) in all.iter().zip(&fewer) {
                prop_assert!((x.point - y.point).norm() < tol && (x.depth - y.depth).abs() < tol);
            }
        }
    }

    #[test]
    fn box_resting_on_box_gives_four_contacts() {
        let floor = ConvexPolyhedron::cuboid(Vec3::new(5.0, 0.5, 5.0));
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5))
            .transformed(&Pose::translation(0.0, 0.98, 0.0));
        let c = polyhedron_contacts(&floor, &cube, 0.0);
        assert_eq!(c.len(), 4, "{c:?}");
        for p in &c {
            assert!((p.depth - 0.02).abs() < 1e-12);
            assert!((p.normal - Vec3::y()).norm() < 1e-12);
        }
    }

    /// Two equal boxes stacked, the upper one turned a hair about the vertical: its corners
    /// hang just beside the lower one's top face.
    fn turned_on_equal_box(yaw: Real, lift: Real) -> Vec<ContactPoint> {
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.25, 0.25, 0.25));
        let upper = cube.transformed(&Pose::new(
            Vec3::new(0.0, 0.5 + lift, 0.0),
            Vec3::new(0.0, yaw, 0.0),
        ));
        polyhedron_contacts(&cube, &upper, 0.01)
    }

    #[test]
    fn a_box_hovering_over_a_box_keeps_its_face_manifold() {
        // Along the cross product of two top edges the gap is the faces' gap: the edge
        // axis must not win a tie and leave a single point.
        for lift in [0.0005, 0.002, 0.006] {
            let c = turned_on_equal_box(0.001, lift);
            assert_eq!(c.len(), 8, "lift {lift}: {c:?}");
            assert!(c.iter().all(|p| (p.depth + lift).abs() < 1e-6), "{c:?}");
        }
    }

    #[test]
    fn a_corner_hanging_beside_the_face_is_met_at_that_corner() {
        // Shifted and tilted a few milliradians, so that the deepest vertex is a corner
        // hanging beside the lower box, a few micrometres deeper than any clipped point:
        // every contact of a box so placed on an equal box lies along the faces' rim.
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.25, 0.25, 0.25));
        let upper = cube.transformed(&Pose::new(
            Vec3::new(0.002998, 0.497353, -0.001356),
            Vec3::new(0.001099, -0.001128, -0.000399),
        ));
        let c = polyhedron_contacts(&cube, &upper, 0.01);
        assert_eq!(c.len(), 5, "{c:?}");
        let rim = |p: &ContactPoint| p.point.x.abs().max(p.point.z.abs()) > 0.245;
        assert!(c.iter().all(rim), "{c:?}");
    }

    #[test]
    fn a_corner_hanging_less_than_a_micrometre_deeper_adds_no_point() {
        // Tilted less than a milliradian: the hanging corner reaches under a micrometre
        // deeper than the clipped points, which hold the box as well without it.
        let cube = ConvexPolyhedron::cuboid(Vec3::new(0.25, 0.25, 0.25));
        let upper = cube.transformed(&Pose::new(
            Vec3::new(-0.000946, 0.498611, 0.000398),
            Vec3::new(0.000935, 0.000158, -0.000941),
        ));
        let c = polyhedron_contacts(&cube, &upper, 0.01);
        assert_eq!(c.len(), 4, "{c:?}");
    }

    #[test]
    fn separated_boxes_have_no_contact() {
        let a = ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5));
        let b = a.transformed(&Pose::new(
            Vec3::new(1.3, 0.2, 0.1),
            Vec3::new(0.3, 0.2, 0.7),
        ));
        let far = a.transformed(&Pose::translation(3.0, 0.0, 0.0));
        assert!(polyhedron_contacts(&a, &far, 0.0).is_empty());
        assert!(polyhedron_contacts(&a, &far, 1.0).is_empty());
        assert!(!polyhedron_contacts(&a, &far, 2.1).is_empty());
        assert!(
            polyhedron_contacts(&a, &b, 0.0)
                .iter()
                .all(|c| c.depth >= 0.0)
        );
    }
}
