//! Incremental 3D convex hull. Points within a small tolerance of a face count as inside, so
//! nearly coplanar input gives flat polygons rather than slivers.

use super::{ConvexPolyhedron, HullError, Point3, Real, Vec3, is_finite_point};
use std::collections::HashMap;

pub(super) fn convex_hull(points: &[Point3]) -> Result<ConvexPolyhedron, HullError> {
    if points.len() < 4 {
        return Err(HullError::TooFewPoints(points.len()));
    }
    if let Some(i) = points.iter().position(|p| !is_finite_point(p)) {
        return Err(HullError::NonFinite(i));
    }
    let scale = super::Aabb::from_points(points)
        .extents()
        .norm()
        .max(1e-300);
    let eps = 1e-9 * scale;

    let [i0, i1, i2, i3] = initial_simplex(points, eps)?;
    let mut faces: Vec<[usize; 3]> = Vec::new();
    let centroid = Point3::from(
        (points[i0].coords + points[i1].coords + points[i2].coords + points[i3].coords) / 4.0,
    );
    for f in [[i0, i1, i2], [i0, i1, i3], [i0, i2, i3], [i1, i2, i3]] {
        faces.push(orient_outward(points, f, &centroid));
    }

    for (p, point) in points.iter().enumerate() {
        if [i0, i1, i2, i3].contains(&p) {
            continue;
        }
        let visible: Vec<bool> = faces
            .iter()
            .map(|f| signed_distance(points, f, point) > eps)
            .collect();
        if !visible.iter().any(|&v| v) {
            continue;
        }
        let mut directed: HashMap<(usize, usize), ()> = HashMap::new();
        for (f, _) in faces.iter().zip(&visible).filter(|(_, v)| **v) {
            for k in 0..3 {
                directed.insert((f[k], f[(k + 1) % 3]), ());
            }
        }
        let mut horizon: Vec<(usize, usize)> = directed
            .keys()
            .filter(|(a, b)| !directed.contains_key(&(*b, *a)))
            .copied()
            .collect();
        // HashMap order is not deterministic; the hull must be, for reproducible recordings.
        horizon.sort_unstable();
        let mut kept: Vec<[usize; 3]> = faces
            .iter()
            .zip(&visible)
            .filter(|(_, v)| !**v)
            .map(|(f, _)| *f)
            .collect();
        kept.extend(horizon.into_iter().map(|(a, b)| [a, b, p]));
        faces = kept;
    }

    Ok(merge_coplanar(points, &faces))
}

fn signed_distance(points: &[Point3], f: &[usize; 3], p: &Point3) -> Real {
    let n = triangle_normal(points, f);
    n.dot(&(p - points[f[0]]))
}

fn triangle_normal(points: &[Point3], f: &[usize; 3]) -> Vec3 {
    let (a, b, c) = (points[f[0]], points[f[1]], points[f[2]]);
    (b - a)
        .cross(&(c - a))
        .try_normalize(1e-300)
        .unwrap_or_default()
}

fn orient_outward(points: &[Point3], f: [usize; 3], inside: &Point3) -> [usize; 3] {
    if signed_distance(points, &f, inside) > 0.0 {
        [f[0], f[2], f[1]]
    } else {
        f
    }
}

fn initial_simplex(points: &[Point3], eps: Real) -> Result<[usize; 4], HullError> {
    let i0 = (0..points.len())
        .min_by(|&a, &b| points[a].x.total_cmp(&points[b].x))
        .unwrap_or(0);
    let farthest = |score: &dyn Fn(&Point3) -> Real| {
        (0..points.len())
            .max_by(|&a, &b| score(&points[a]).total_cmp(&score(&points[b])))
            .unwrap_or(0)
    };
    let i1 = farthest(&|p| (p - points[i0]).norm());
    if (points[i1] - points[i0]).norm() <= eps {
        return Err(HullError::Degenerate("all coincident"));
    }
    let d01 = (points[i1] - points[i0]).normalize();
    let i2 = farthest(&|p| (p - points[i0]).cross(&d01).norm());
    if (points[i2] - points[i0]).cross(&d01).norm() <= eps {
        return Err(HullError::Degenerate("collinear"));
    }
    let n = d01.cross(&(points[i2] - points[i0])).normalize();
    let i3 = farthest(&|p| n.dot(&(p - points[i0])).abs());
    if n.dot(&(points[i3] - points[i0])).abs() <= eps {
        return Err(HullError::Degenerate("coplanar"));
    }
    Ok([i0, i1, i2, i3])
}

/// Joins adjacent triangles of one plane into a polygon and drops unused points.
fn merge_coplanar(points: &[Point3], tris: &[[usize; 3]]) -> ConvexPolyhedron {
    let normals: Vec<Vec3> = tris.iter().map(|f| triangle_normal(points, f)).collect();
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut edge_owner: HashMap<(usize, usize), usize> = HashMap::new();
    for (t, f) in tris.iter().enumerate() {
        for k in 0..3 {
            edge_owner.insert((f[k], f[(k + 1) % 3]), t);
        }
    }
    for (t, f) in tris.iter().enumerate() {
        for k in 0..3 {
            if let Some(&u) = edge_owner.get(&(f[(k + 1) % 3], f[k]))
                && normals[t].dot(&normals[u]) > 1.0 - 1e-10
            {
                let (a, b) = (find(&mut parent, t), find(&mut parent, u));
                parent[a] = b;
            }
        }
    }
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut group_of: HashMap<usize, usize> = HashMap::new();
    for t in 0..tris.len() {
        let root = find(&mut parent, t);
        let g = *group_of.entry(root).or_insert_with(|| {
            groups.push((root, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(t);
    }

    let mut remap: HashMap<usize, u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut faces = Vec::new();
    for (_, members) in &groups {
        // The boundary of a group: its directed edges whose reverse is not in the group.
        let mut inner: HashMap<(usize, usize), ()> = HashMap::new();
        for &t in members {
            let f = tris[t];
            for k in 0..3 {
                inner.insert((f[k], f[(k + 1) % 3]), ());
            }
        }
        let mut next: HashMap<usize, usize> = HashMap::new();
        for &(a, b) in inner.keys() {
            if !inner.contains_key(&(b, a)) {
                next.insert(a, b);
            }
        }
        let Some(&start) = next.keys().min() else {
            continue;
        };
        let mut loop_ = vec![start];
        let mut cur = start;
        while let Some(&n) = next.get(&cur) {
            if n == start || loop_.len() > next.len() {
                break;
            }
            loop_.push(n);
            cur = n;
        }
        let face: Vec<u32> = loop_
            .into_iter()
            .map(|v| {
                *remap.entry(v).or_insert_with(|| {
                    vertices.push(points[v]);
                    (vertices.len() - 1) as u32
                })
            })
            .collect();
        faces.push(face);
    }
    ConvexPolyhedron::from_faces(vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    fn degenerate_inputs_are_errors() {
        let flat: Vec<Point3> = (0..6)
            .map(|i| Point3::new(i as f64, (i * i) as f64, 0.0))
            .collect();
        assert_eq!(convex_hull(&flat), Err(HullError::Degenerate("coplanar")));
        let line: Vec<Point3> = (0..6).map(|i| Point3::new(i as f64, 0.0, 0.0)).collect();
        assert_eq!(convex_hull(&line), Err(HullError::Degenerate("collinear")));
        assert_eq!(convex_hull(&line[..3]), Err(HullError::TooFewPoints(3)));
    }

    proptest! {
        // Oracle: every input point lies inside (or on) the hull, every hull vertex is an input
        // point, and Euler's formula V - E + F = 2 holds.
        #[test]
        fn hull_contains_all_points(pts in prop::collection::vec(
            prop::array::uniform3(-2i32..=2).prop_map(|c| Point3::new(c[0] as f64, c[1] as f64, c[2] as f64 * 0.5)),
            4..40)) {
            match convex_hull(&pts) {
                Ok(h) => {
                    for p in &pts { prop_assert!(h.contains_point(p, 1e-9)); }
                    for v in &h.vertices { prop_assert!(pts.contains(v)); }
                    prop_assert_eq!(h.vertices.len() as i64 - h.edges.len() as i64 + h.faces.len() as i64, 2);
                }
                Err(HullError::Degenerate(_)) => {}
                Err(e) => prop_assert!(false, "{e}"),
            }
        }
    }
}
