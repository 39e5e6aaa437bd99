//! Quickhull in 3D, for fitting OBBs: only the hull's triangles are needed, and only to
//! orient a box whose extents come from every point anyway. So this hull may give up: on flat
//! or collinear input, or when rounding makes the visible region inconsistent, it returns
//! `None` and the caller falls back to another covariance. It never loops or panics.

use crate::geom::{Point3, Real, Vec3};

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
        let n = (points[v[1]] - points[v[0]]).cross(&(points[v[2]] - points[v[0]]));
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

/// The hull's triangles (indices into `points`, counter-clockwise seen from outside), or
/// `None` when the points span no volume or the construction lost consistency.
pub fn hull_triangles(points: &[Point3]) -> Option<Vec<[usize; 3]>> {
    if points.len() < 4 || points.iter().any(|p| !crate::geom::is_finite_point(p)) {
        return None;
    }
    let lo = points
        .iter()
        .fold(Vec3::repeat(Real::INFINITY), |m, p| m.inf(&p.coords));
    let hi = points
        .iter()
        .fold(Vec3::repeat(Real::NEG_INFINITY), |m, p| m.sup(&p.coords));
    let scale = (hi - lo).norm() + lo.abs().max() + hi.abs().max();
    let eps = 1e-11 * scale;

    let simplex = initial_simplex(points, eps)?;
    let mut faces: Vec<Face> = Vec::new();
    let inside = Point3::from(simplex.iter().map(|&i| points[i].coords).sum::<Vec3>() / 4.0);
    let [a, b, c, d] = simplex;
    for mut tri in [[a, b, c], [a, c, d], [a, d, b], [b, d, c]] {
        let f = Face::new(points, tri)?;
        if f.distance(&inside) > 0.0 {
            tri.swap(1, 2);
        }
        faces.push(Face::new(points, tri)?);
    }
    link_all(&mut faces)?;

    for (i, p) in points.iter().enumerate() {
        if simplex.contains(&i) {
            continue;
        }
        if let Some(f) = faces.iter_mut().find(|f| f.distance(p) > eps) {
            f.outside.push(i);
        }
    }

    let mut pending: Vec<usize> = (0..faces.len())
        .filter(|&f| !faces[f].outside.is_empty())
        .collect();
    let mut stamp = 0u32;
    // Each round puts one point on the hull for good: the point count bounds the rounds.
    let mut rounds_left = points.len() + 8;
    while let Some(fi) = pending.pop() {
        if !faces[fi].alive || faces[fi].outside.is_empty() {
            continue;
        }
        rounds_left = rounds_left.checked_sub(1)?;
        let apex = *faces[fi].outside.iter().max_by(|&&x, &&y| {
            faces[fi]
                .distance(&points[x])
                .total_cmp(&faces[fi].distance(&points[y]))
        })?;
        let ap = points[apex];

        // The faces the apex sees: a connected region around `fi`.
        stamp += 1;
        let mut visible = vec![fi];
        faces[fi].stamp = stamp;
        let mut k = 0;
        while k < visible.len() {
            let f = visible[k];
            k += 1;
            for n in faces[f].adj {
                let g = faces.get_mut(n)?;
                if g.stamp != stamp && g.alive && g.distance(&ap) > eps {
                    g.stamp = stamp;
                    visible.push(n);
                }
            }
        }

        // Horizon: edges of visible faces whose neighbour is not visible.
        let mut horizon: Vec<(usize, usize, usize)> = Vec::new(); // (from, to, neighbour)
        for &f in &visible {
            for e in 0..3 {
                let n = faces[f].adj[e];
                if faces[n].stamp != stamp {
                    horizon.push((faces[f].v[e], faces[f].v[(e + 1) % 3], n));
                }
            }
        }
        let cycle = order_cycle(&horizon)?;

        let first_new = faces.len();
        let m = cycle.len();
        for (idx, &(u, v, n)) in cycle.iter().enumerate() {
            let mut f = Face::new(points, [u, v, apex])?;
            f.adj = [n, first_new + (idx + 1) % m, first_new + (idx + m - 1) % m];
            let back = faces[n]
                .v
                .iter()
                .enumerate()
                .position(|(e, &x)| x == v && faces[n].v[(e + 1) % 3] == u)?;
            faces[n].adj[back] = first_new + idx;
            faces.push(f);
        }

        let mut orphans = Vec::new();
        for &f in &visible {
            faces[f].alive = false;
            orphans.append(&mut faces[f].outside);
        }
        for q in orphans {
            if q == apex {
                continue;
            }
            if let Some(f) = faces[first_new..]
                .iter_mut()
                .find(|f| f.distance(&points[q]) > eps)
            {
                f.outside.push(q);
            }
        }
        pending.extend((first_new..faces.len()).filter(|&f| !faces[f].outside.is_empty()));
    }
    Some(faces.iter().filter(|f| f.alive).map(|f| f.v).collect())
}

/// Four points spanning a tetrahedron thicker than `eps`, from the axis extremes.
fn initial_simplex(points: &[Point3], eps: Real) -> Option<[usize; 4]> {
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let by = |i: &usize, j: &usize| points[*i][axis].total_cmp(&points[*j][axis]);
        extremes.push((0..points.len()).min_by(by)?);
        extremes.push((0..points.len()).max_by(by)?);
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
    let dir = (points[i1] - points[i0]).try_normalize(1e-300)?;
    let off_line = |p: &Point3| {
        let r = p - points[i0];
        (r - dir * r.dot(&dir)).norm()
    };
    let i2 =
        (0..points.len()).max_by(|&a, &b| off_line(&points[a]).total_cmp(&off_line(&points[b])))?;
    if off_line(&points[i2]) <= eps {
        return None;
    }
    let n = (points[i1] - points[i0])
        .cross(&(points[i2] - points[i0]))
        .try_normalize(1e-300)?;
    let off_plane = |p: &Point3| n.dot(&(p - points[i0])).abs();
    let i3 = (0..points.len())
        .max_by(|&a, &b| off_plane(&points[a]).total_cmp(&off_plane(&points[b])))?;
    if off_plane(&points[i3]) <= eps {
        return None;
    }
    Some([i0, i1, i2, i3])
}

fn link_all(faces: &mut [Face]) -> Option<()> {
    for f in 0..faces.len() {
        for e in 0..3 {
            let (u, v) = (faces[f].v[e], faces[f].v[(e + 1) % 3]);
            let g = (0..faces.len())
                .find(|&g| (0..3).any(|k| faces[g].v[k] == v && faces[g].v[(k + 1) % 3] == u))?;
            faces[f].adj[e] = g;
        }
    }
    Some(())
}

/// Chains horizon edges head to tail; `None` unless they form one simple cycle.
fn order_cycle(edges: &[(usize, usize, usize)]) -> Option<Vec<(usize, usize, usize)>> {
    let first = *edges.first()?;
    let mut by_start = std::collections::HashMap::with_capacity(edges.len());
    for &e in edges {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn cube_with_interior_points() {
        let mut pts: Vec<Point3> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let mut s = 12345u64;
        for _ in 0..200 {
            let mut r = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            };
            pts.push(Point3::new(r(), r(), r()));
        }
        let tris = hull_triangles(&pts).unwrap();
        assert!((volume(&pts, &tris) - 1.0).abs() < 1e-12);
        // Every hull vertex is a cube corner.
        assert!(tris.iter().flatten().all(|&i| i < 8));
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
    fn flat_input_gives_none() {
        let pts: Vec<Point3> = (0..20)
            .map(|i| Point3::new(i as f64, (i * i % 7) as f64, 0.0))
            .collect();
        assert!(hull_triangles(&pts).is_none());
    }
}
