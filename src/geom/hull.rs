//! The crate's one 3D convex hull: quickhull over triangles with adjacency, then coplanar
//! triangles merged into polygons.
//!
//! Robustness comes from three rules rather than exact arithmetic:
//! - a point counts as outside a face only beyond a tolerance scaled to the input, so nearly
//!   coplanar points give flat polygons, not slivers;
//! - the faces an apex sees are grown as one connected region, and any hole left in it by
//!   rounding (a face enclosed by visible ones) joins it, so the horizon is one loop;
//! - if the horizon still is not one simple loop, or a new face would be degenerate, the apex
//!   is left out: the hull stays convex and consistent, and the point is within rounding of it.

use super::triangle::scaled_normal;
use super::{ConvexPolyhedron, HullError, Point3, Real, Vec3, is_finite_point};
use std::collections::HashMap;

/// The hull as triangles (indices into `points`, counter-clockwise seen from outside).
pub fn hull_triangles(points: &[Point3]) -> Result<Vec<[usize; 3]>, HullError> {
    Ok(Quickhull::run(points)?.triangles)
}

pub(super) fn convex_hull(points: &[Point3]) -> Result<ConvexPolyhedron, HullError> {
    let hull = Quickhull::run(points)?;
    Ok(merge_coplanar(points, &hull.triangles, hull.eps))
}

struct Face {
    v: [usize; 3],
    normal: Vec3,
    offset: Real,
    /// The face across edge k, from `v[k]` to `v[(k + 1) % 3]`.
    adj: [usize; 3],
    outside: Vec<usize>,
    alive: bool,
    stamp: u32,
}

impl Face {
    fn new(points: &[Point3], v: [usize; 3]) -> Option<Face> {
        let n = scaled_normal(points[v[0]], points[v[1]], points[v[2]]);
        let normal = n.try_normalize(1e-300)?;
        Some(Face {
            v,
            normal,
            offset: normal.dot(&points[v[0]].coords),
            adj: [usize::MAX; 3],
            outside: Vec::new(),
            alive: true,
            stamp: 0,
        })
    }

    #[inline]
    fn distance(&self, p: &Point3) -> Real {
        self.normal.dot(&p.coords) - self.offset
    }
}

struct Quickhull {
    triangles: Vec<[usize; 3]>,
    eps: Real,
}

/// A horizon edge: from, to, and the face beyond it that stays.
type HorizonEdge = (usize, usize, usize);

impl Quickhull {
    fn run(points: &[Point3]) -> Result<Quickhull, HullError> {
        if points.len() < 4 {
            return Err(HullError::TooFewPoints(points.len()));
        }
        if let Some(i) = points.iter().position(|p| !is_finite_point(p)) {
            return Err(HullError::NonFinite(i));
        }
        let lo = points
            .iter()
            .fold(Vec3::repeat(Real::INFINITY), |m, p| m.inf(&p.coords));
        let hi = points
            .iter()
            .fold(Vec3::repeat(Real::NEG_INFINITY), |m, p| m.sup(&p.coords));
        // Rounding in a plane distance grows with the coordinates' magnitude, not only the
        // cloud's size: a small cloud far from the origin needs the larger tolerance.
        let magnitude = lo.abs().max().max(hi.abs().max());
        let scale = (hi - lo).norm() + 1e-4 * magnitude;
        // And a thinner tolerance buys nothing: a face's normal is only as exact as machine
        // precision times its size over its height, so hulls flatter than this are flat.
        let eps = 1e-8 * scale.max(1e-300);

        // Thinner than this, rounding in the normals of the rim's slivers exceeds `eps`.
        let simplex = initial_simplex(points, eps, 100.0 * eps)?;
        let mut faces: Vec<Face> = Vec::new();
        let inside = Point3::from(simplex.iter().map(|&i| points[i].coords).sum::<Vec3>() / 4.0);
        let [a, b, c, d] = simplex;
        for mut tri in [[a, b, c], [a, c, d], [a, d, b], [b, d, c]] {
            let f = Face::new(points, tri).ok_or(HullError::Degenerate("coplanar"))?;
            if f.distance(&inside) > 0.0 {
                tri.swap(1, 2);
            }
            faces.push(Face::new(points, tri).ok_or(HullError::Degenerate("coplanar"))?);
        }
        link_simplex(&mut faces);

        for (i, p) in points.iter().enumerate() {
            if !simplex.contains(&i)
                && let Some(f) = farthest_above(&faces, &[0, 1, 2, 3], p, eps)
            {
                faces[f].outside.push(i);
            }
        }

        let mut pending: Vec<usize> = (0..4).filter(|&f| !faces[f].outside.is_empty()).collect();
        let mut stamp = 0u32;
        while let Some(fi) = pending.pop() {
            if !faces[fi].alive || faces[fi].outside.is_empty() {
                continue;
            }
            let Some(slot) = farthest(&faces[fi], points) else {
                continue;
            };
            let apex = faces[fi].outside.swap_remove(slot);
            let ap = points[apex];
            stamp += 1;
            let visible = visible_region(&mut faces, fi, &ap, eps, stamp);
            let Some(cycle) = horizon(&faces, &visible, stamp) else {
                // Left out: see the module comment. The face keeps its other points.
                pending.push(fi);
                continue;
            };
            let Some(new_faces) = cycle
                .iter()
                .map(|&(u, v, _)| Face::new(points, [u, v, apex]))
                .collect::<Option<Vec<Face>>>()
            else {
                pending.push(fi);
                continue;
            };

            let first_new = faces.len();
            let m = cycle.len();
            for (idx, (mut f, &(u, v, n))) in new_faces.into_iter().zip(&cycle).enumerate() {
                f.adj = [n, first_new + (idx + 1) % m, first_new + (idx + m - 1) % m];
                if let Some(back) =
                    (0..3).find(|&e| faces[n].v[e] == v && faces[n].v[(e + 1) % 3] == u)
                {
                    faces[n].adj[back] = first_new + idx;
                }
                faces.push(f);
            }
            let mut orphans = Vec::new();
            for &f in &visible {
                faces[f].alive = false;
                orphans.append(&mut faces[f].outside);
            }
            // The faces beyond the horizon are candidates too: near grazing angles a point
            // within the tolerance of every new face can still be beyond an old one.
            let mut beyond: Vec<usize> = cycle.iter().map(|&(_, _, n)| n).collect();
            beyond.sort_unstable();
            beyond.dedup();
            beyond.extend(first_new..faces.len());
            for q in orphans {
                if let Some(f) = farthest_above(&faces, &beyond, &points[q], eps) {
                    faces[f].outside.push(q);
                }
            }
            pending.extend(
                beyond
                    .iter()
                    .copied()
                    .filter(|&f| !faces[f].outside.is_empty()),
            );
        }
        let triangles = faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
        Ok(Quickhull { triangles, eps })
    }
}

/// The face among `candidates` the point is farthest above, beyond `eps`.
fn farthest_above(faces: &[Face], candidates: &[usize], p: &Point3, eps: Real) -> Option<usize> {
    let mut best = (eps, None);
    for &f in candidates {
        let d = faces[f].distance(p);
        if d > best.0 {
            best = (d, Some(f));
        }
    }
    best.1
}

fn farthest(face: &Face, points: &[Point3]) -> Option<usize> {
    (0..face.outside.len()).max_by(|&x, &y| {
        face.distance(&points[face.outside[x]])
            .total_cmp(&face.distance(&points[face.outside[y]]))
    })
}

/// The faces the apex sees: a connected region grown from `seed`, with its holes filled.
fn visible_region(
    faces: &mut [Face],
    seed: usize,
    apex: &Point3,
    eps: Real,
    stamp: u32,
) -> Vec<usize> {
    let mut visible = vec![seed];
    faces[seed].stamp = stamp;
    let mut k = 0;
    while k < visible.len() {
        let f = visible[k];
        k += 1;
        for n in faces[f].adj {
            let g = &mut faces[n];
            if g.stamp != stamp && g.alive && g.distance(apex) > eps {
                g.stamp = stamp;
                visible.push(n);
            }
        }
    }
    if horizon(faces, &visible, stamp).is_none() {
        fill_holes(faces, &mut visible, apex, stamp);
    }
    visible
}

/// Makes every hidden face visible except the connected hidden region holding the face the
/// apex is farthest below: what rounding enclosed in the visible region is nearly coplanar
/// with the apex anyway.
fn fill_holes(faces: &mut [Face], visible: &mut Vec<usize>, apex: &Point3, stamp: u32) {
    let Some(deepest) = (0..faces.len())
        .filter(|&f| faces[f].alive && faces[f].stamp != stamp)
        .min_by(|&x, &y| faces[x].distance(apex).total_cmp(&faces[y].distance(apex)))
    else {
        return;
    };
    let mut kept = vec![false; faces.len()];
    kept[deepest] = true;
    let mut stack = vec![deepest];
    while let Some(f) = stack.pop() {
        for n in faces[f].adj {
            if !kept[n] && faces[n].alive && faces[n].stamp != stamp {
                kept[n] = true;
                stack.push(n);
            }
        }
    }
    for (f, face) in faces.iter_mut().enumerate() {
        if face.alive && face.stamp != stamp && !kept[f] {
            face.stamp = stamp;
            visible.push(f);
        }
    }
}

/// The horizon as one simple loop, head to tail; `None` if it is not one.
fn horizon(faces: &[Face], visible: &[usize], stamp: u32) -> Option<Vec<HorizonEdge>> {
    let mut edges: Vec<HorizonEdge> = Vec::new();
    for &f in visible {
        for e in 0..3 {
            let n = faces[f].adj[e];
            if faces[n].stamp != stamp {
                edges.push((faces[f].v[e], faces[f].v[(e + 1) % 3], n));
            }
        }
    }
    let first = *edges.first()?;
    let mut by_start = HashMap::with_capacity(edges.len());
    for &e in &edges {
        if by_start.insert(e.0, e).is_some() {
            return None;
        }
    }
    let mut cycle = Vec::with_capacity(edges.len());
    let mut cur = first;
    loop {
        cycle.push(cur);
        if cycle.len() > edges.len() {
            return None;
        }
        cur = *by_start.get(&cur.1)?;
        if cur.0 == first.0 {
            break;
        }
    }
    (cycle.len() == edges.len()).then_some(cycle)
}

/// Four points spanning a tetrahedron: a triangle wider than `eps` from the axis extremes and
/// the point farthest off its plane, which must be farther than `thinnest`.
fn initial_simplex(points: &[Point3], eps: Real, thinnest: Real) -> Result<[usize; 4], HullError> {
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let by = |i: &usize, j: &usize| points[*i][axis].total_cmp(&points[*j][axis]);
        extremes.extend((0..points.len()).min_by(by));
        extremes.extend((0..points.len()).max_by(by));
    }
    let mut best = (0.0, 0, 0);
    for &i in &extremes {
        for &j in &extremes {
            let d = (points[i] - points[j]).norm_squared();
            if d > best.0 {
                best = (d, i, j);
            }
        }
    }
    let (i0, i1) = (best.1, best.2);
    if best.0.sqrt() <= eps {
        return Err(HullError::Degenerate("all coincident"));
    }
    let dir = (points[i1] - points[i0]).normalize();
    let off_line = |p: &Point3| {
        let r = p - points[i0];
        (r - dir * r.dot(&dir)).norm()
    };
    let i2 = (0..points.len())
        .max_by(|&a, &b| off_line(&points[a]).total_cmp(&off_line(&points[b])))
        .unwrap_or(i0);
    if off_line(&points[i2]) <= eps {
        return Err(HullError::Degenerate("collinear"));
    }
    let n = dir.cross(&(points[i2] - points[i0])).normalize();
    let off_plane = |p: &Point3| n.dot(&(p - points[i0])).abs();
    let i3 = (0..points.len())
        .max_by(|&a, &b| off_plane(&points[a]).total_cmp(&off_plane(&points[b])))
        .unwrap_or(i0);
    if off_plane(&points[i3]) <= thinnest {
        return Err(HullError::Degenerate("coplanar"));
    }
    Ok([i0, i1, i2, i3])
}

fn link_simplex(faces: &mut [Face]) {
    for f in 0..faces.len() {
        for e in 0..3 {
            let (u, v) = (faces[f].v[e], faces[f].v[(e + 1) % 3]);
            if let Some(g) = (0..faces.len())
                .find(|&g| (0..3).any(|k| faces[g].v[k] == v && faces[g].v[(k + 1) % 3] == u))
            {
                faces[f].adj[e] = g;
            }
        }
    }
}

/// Joins adjacent triangles lying within `eps` of a seed triangle's plane into one polygon,
/// drops vertices left in the middle of a straight edge, and drops unused points.
fn merge_coplanar(points: &[Point3], tris: &[[usize; 3]], eps: Real) -> ConvexPolyhedron {
    let mut owner: HashMap<(usize, usize), usize> = HashMap::with_capacity(tris.len() * 3);
    for (t, f) in tris.iter().enumerate() {
        for k in 0..3 {
            owner.insert((f[k], f[(k + 1) % 3]), t);
        }
    }
    let area = |t: &[usize; 3]| scaled_normal(points[t[0]], points[t[1]], points[t[2]]).norm();
    // Large triangles first: their planes are the best conditioned seeds.
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&a, &b| area(&tris[b]).total_cmp(&area(&tris[a])));
    let mut group = vec![usize::MAX; tris.len()];
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    // A merged face keeps its seed's normal: the largest triangle's normal is the best
    // conditioned, and every point is within the tolerance below it, which a polygon's
    // Newell normal does not promise for a sliver of a face.
    let mut plane_normals: Vec<Vec3> = Vec::new();
    for &seed in &order {
        if group[seed] != usize::MAX {
            continue;
        }
        let s = tris[seed];
        let normal = triangle_normal(points, &s);
        let on_plane = |i: usize| normal.dot(&(points[i] - points[s[0]])).abs() <= 2.0 * eps;
        // The normal too: on a hull thinner than a few tolerances, a rim triangle may have all
        // its corners near the top plane while facing sideways.
        let parallel = |t: &[usize; 3]| {
            scaled_normal(points[t[0]], points[t[1]], points[t[2]])
                .try_normalize(1e-300)
                .is_some_and(|n| n.dot(&normal) > 1.0 - 1e-6)
        };
        let id = polygons.len();
        group[seed] = id;
        let mut members = vec![seed];
        let mut k = 0;
        while k < members.len() {
            let f = tris[members[k]];
            k += 1;
            for e in 0..3 {
                if let Some(&n) = owner.get(&(f[(e + 1) % 3], f[e]))
                    && group[n] == usize::MAX
                    && tris[n].iter().all(|&i| on_plane(i))
                    && parallel(&tris[n])
                {
                    group[n] = id;
                    members.push(n);
                }
            }
        }
        match boundary_loop(tris, &members) {
            Some(polygon) => {
                polygons.push(polygon);
                plane_normals.push(normal);
            }
            None => {
                // Not a disc (rounding at its worst): keep its triangles as faces.
                for (j, &m) in members.iter().enumerate() {
                    group[m] = id + j;
                    polygons.push(tris[m].to_vec());
                    plane_normals.push(triangle_normal(points, &tris[m]));
                }
            }
        }
    }

    // A vertex on only two faces sits in the middle of a straight edge: not a feature.
    let mut face_count: HashMap<usize, usize> = HashMap::new();
    for p in &polygons {
        for &v in p {
            *face_count.entry(v).or_default() += 1;
        }
    }
    let mut remap: HashMap<usize, u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut faces = Vec::with_capacity(polygons.len());
    let mut normals = Vec::with_capacity(polygons.len());
    for (p, normal) in polygons.into_iter().zip(plane_normals) {
        let face: Vec<u32> = p
            .into_iter()
            .filter(|v| face_count.get(v).copied().unwrap_or(0) > 2)
            .map(|v| {
                *remap.entry(v).or_insert_with(|| {
                    vertices.push(points[v]);
                    (vertices.len() - 1) as u32
                })
            })
            .collect();
        if face.len() >= 3 {
            faces.push(face);
            normals.push(normal);
        }
    }
    let mut merged = ConvexPolyhedron::from_faces(vertices, faces);
    merged.normals = normals;
    if is_closed_polyhedron(&merged) {
        merged
    } else {
        // Merging broke the topology (only seen on hulls a few tolerances thick): the
        // triangles themselves always form a closed polyhedron.
        triangles_as_faces(points, tris)
    }
}

fn triangle_normal(points: &[Point3], t: &[usize; 3]) -> Vec3 {
    scaled_normal(points[t[0]], points[t[1]], points[t[2]])
        .try_normalize(1e-300)
        .unwrap_or_else(Vec3::z)
}

/// Every edge borders exactly two faces, every vertex at least three, and V - E + F = 2.
pub(super) fn is_closed_polyhedron(h: &ConvexPolyhedron) -> bool {
    let mut uses: HashMap<(u32, u32), usize> = HashMap::new();
    let mut degree = vec![0usize; h.vertices.len()];
    for f in &h.faces {
        for i in 0..f.len() {
            let (a, b) = (f[i], f[(i + 1) % f.len()]);
            *uses.entry((a.min(b), a.max(b))).or_default() += 1;
            degree[a as usize] += 1;
        }
    }
    uses.values().all(|&n| n == 2)
        && degree.iter().all(|&d| d >= 3)
        && h.vertices.len() + h.faces.len() == h.edges.len() + 2
}

fn triangles_as_faces(points: &[Point3], tris: &[[usize; 3]]) -> ConvexPolyhedron {
    let mut remap: HashMap<usize, u32> = HashMap::new();
    let mut vertices = Vec::new();
    let faces = tris
        .iter()
        .map(|t| {
            t.iter()
                .map(|&v| {
                    *remap.entry(v).or_insert_with(|| {
                        vertices.push(points[v]);
                        (vertices.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    ConvexPolyhedron::from_faces(vertices, faces)
}

/// The boundary of a connected set of triangles as one loop, or `None` if it has several.
fn boundary_loop(tris: &[[usize; 3]], members: &[usize]) -> Option<Vec<usize>> {
    let mut directed: HashMap<(usize, usize), ()> = HashMap::new();
    for &t in members {
        let f = tris[t];
        for k in 0..3 {
            directed.insert((f[k], f[(k + 1) % 3]), ());
        }
    }
    let mut next: HashMap<usize, usize> = HashMap::new();
    for &(a, b) in directed.keys() {
        if !directed.contains_key(&(b, a)) && next.insert(a, b).is_some() {
            return None;
        }
    }
    // The smallest index starts the loop, so the result does not depend on hash order.
    let start = *next.keys().min()?;
    let mut polygon = vec![start];
    let mut cur = next[&start];
    while cur != start {
        if polygon.len() >= next.len() {
            return None;
        }
        polygon.push(cur);
        cur = *next.get(&cur)?;
    }
    (polygon.len() == next.len()).then_some(polygon)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn volume(points: &[Point3], tris: &[[usize; 3]]) -> Real {
        tris.iter()
            .map(|t| {
                points[t[0]]
                    .coords
                    .dot(&points[t[1]].coords.cross(&points[t[2]].coords))
                    / 6.0
            })
            .sum()
    }

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn cube_points_give_six_quads() {
        let pts: Vec<Point3> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .chain([Point3::new(0.5, 0.5, 0.5)])
            .collect();
        let h = convex_hull(&pts).unwrap();
        assert_eq!(h.vertices.len(), 8);
        assert_eq!(h.faces.len(), 6);
        assert!(h.faces.iter().all(|f| f.len() == 4));
        assert_eq!(h.edges.len(), 12);
    }

    #[test]
    fn cube_with_interior_and_face_points() {
        let mut pts: Vec<Point3> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let mut s = 12345u64;
        for k in 0..300 {
            let (x, y, z) = (lcg(&mut s), lcg(&mut s), lcg(&mut s));
            // A third of them exactly on a face or an edge: the coplanar worst case.
            pts.push(match k % 3 {
                0 => Point3::new(x, y, z),
                1 => Point3::new(x, y, 1.0),
                _ => Point3::new(x, 0.0, 1.0),
            });
        }
        let tris = hull_triangles(&pts).unwrap();
        assert!((volume(&pts, &tris) - 1.0).abs() < 1e-12);
        let h = convex_hull(&pts).unwrap();
        assert_eq!((h.vertices.len(), h.edges.len(), h.faces.len()), (8, 12, 6));
    }

    #[test]
    fn sphere_points_all_on_hull() {
        let n = 500;
        let pts: Vec<Point3> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * 2.399963229728653;
                Point3::new(r * phi.cos(), r * phi.sin(), z)
            })
            .collect();
        let tris = hull_triangles(&pts).unwrap();
        assert_eq!(tris.len(), 2 * n - 4);
        let v = volume(&pts, &tris);
        assert!(v > 4.0 && v < 4.0 * std::f64::consts::PI / 3.0, "{v}");
    }

    #[test]
    fn degenerate_inputs_are_errors() {
        let flat: Vec<Point3> = (0..6)
            .map(|i| Point3::new(i as f64, (i * i) as f64, 0.0))
            .collect();
        assert_eq!(convex_hull(&flat), Err(HullError::Degenerate("coplanar")));
        let line: Vec<Point3> = (0..6).map(|i| Point3::new(i as f64, 0.0, 0.0)).collect();
        assert_eq!(convex_hull(&line), Err(HullError::Degenerate("collinear")));
        assert_eq!(convex_hull(&line[..3]), Err(HullError::TooFewPoints(3)));
        let same = vec![Point3::new(1.0, 2.0, 3.0); 5];
        assert_eq!(
            convex_hull(&same),
            Err(HullError::Degenerate("all coincident"))
        );
        let mut nan = same.clone();
        nan[2].y = f64::NAN;
        assert_eq!(convex_hull(&nan), Err(HullError::NonFinite(2)));
    }

    /// Oracle for any hull: every input point inside (or on) it, every face plane has every
    /// point below it, hull vertices are input points, Euler's formula holds, every edge
    /// borders two faces and every vertex at least three.
    fn check(pts: &[Point3], h: &ConvexPolyhedron) -> Result<(), TestCaseError> {
        let scale = pts.iter().map(|p| p.coords.amax()).fold(1.0, Real::max);
        let tol = 1e-7 * scale;
        for p in pts {
            prop_assert!(h.contains_point(p, tol), "{p} outside");
        }
        for v in &h.vertices {
            prop_assert!(pts.contains(v));
        }
        prop_assert!(is_closed_polyhedron(h));
        // Faces are convex seen along their normal, and no input point is above one.
        for (f, face) in h.faces.iter().enumerate() {
            for p in pts {
                prop_assert!(h.face_plane_distance(f, p) <= tol);
            }
            prop_assert!(face.len() >= 3);
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn lattice_points(pts in prop::collection::vec(
            prop::array::uniform3(-2i32..=2).prop_map(|c| Point3::new(c[0] as f64, c[1] as f64, c[2] as f64 * 0.5)),
            4..60)) {
            match convex_hull(&pts) {
                Ok(h) => check(&pts, &h)?,
                Err(HullError::Degenerate(_)) => {}
                Err(e) => prop_assert!(false, "{e}"),
            }
        }

        #[test]
        fn nearly_coplanar_and_duplicated(
            seed in any::<u64>(),
            n in 4usize..80,
            flatness in prop::sample::select(vec![0.0, 1e-14, 1e-9, 1e-6, 1e-3, 1.0]),
            offset in prop::sample::select(vec![0.0, 1e3, 1e6]),
        ) {
            let mut s = seed;
            let mut pts: Vec<Point3> = (0..n)
                .map(|_| Point3::new(
                    offset + lcg(&mut s) * 2.0 - 1.0,
                    offset + lcg(&mut s) * 2.0 - 1.0,
                    offset + (lcg(&mut s) * 2.0 - 1.0) * flatness,
                ))
                .collect();
            let copies: Vec<Point3> = pts.iter().step_by(3).copied().collect();
            pts.extend(copies);
            match convex_hull(&pts) {
                Ok(h) => check(&pts, &h)?,
                // Flat within the tolerance, which grows with the coordinates' magnitude.
                Err(HullError::Degenerate(_)) => prop_assert!(flatness <= 1e-5 * (1.0 + 1e-4 * offset)),
                Err(e) => prop_assert!(false, "{e}"),
            }
        }
    }
}
