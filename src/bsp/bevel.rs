//! Bevel planes of a brush: the extra face normals of the Minkowski sum of the brush and a
//! box, so that a shape pushed out by plane offsets does not snag on sharp corners.
//!
//! The edges are found from the corners: each corner lists the planes through it, and two
//! planes sharing two corners share an edge. That is O(corners × planes) instead of the
//! O(planes² × corners) of testing every pair of planes against every corner, and it gives
//! the same edges in the same order (so the same bevels, bit for bit).

use crate::geom::{Aabb, Plane, Point3, Real, Vec3};
use std::collections::BTreeMap;

/// Plane indices are `u16` in the sweep's hits: bevels stop before the brush outgrows them.
const MAX_PLANES: usize = u16::MAX as usize;

fn has_plane(planes: &[Plane], n: &Vec3) -> bool {
    planes.iter().any(|q| q.normal.dot(n) > 1.0 - 1e-9)
}

/// For each pair of planes `(a, b)`, `a < b`, through two corners or more: the first two
/// corners through both, in corner order.
fn edges(planes: &[Plane], vertices: &[Point3], tol: Real) -> BTreeMap<(u32, u32), Vec<u32>> {
    let mut out: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for (vi, v) in vertices.iter().enumerate() {
        let on: Vec<u32> = (0..planes.len() as u32)
            .filter(|&k| planes[k as usize].signed_distance(v).abs() <= tol)
            .collect();
        for (x, &a) in on.iter().enumerate() {
            for &b in &on[x + 1..] {
                let corners = out.entry((a, b)).or_default();
                if corners.len() < 2 {
                    corners.push(vi as u32);
                }
            }
        }
    }
    out.retain(|_, c| c.len() == 2);
    out
}

/// Axial bevels (the bounding box's faces) and edge bevels (through each edge, along each
/// axis), kept when every vertex is behind them.
pub(super) fn add_bevels(planes: &mut Vec<Plane>, vertices: &[Point3], bounds: &Aabb, tol: Real) {
    for (i, axis) in [Vec3::x(), Vec3::y(), Vec3::z()].into_iter().enumerate() {
        for (n, d) in [(axis, bounds.max[i]), (-axis, -bounds.min[i])] {
            if !has_plane(planes, &n) {
                planes.push(Plane { normal: n, d });
            }
        }
    }
    for corners in edges(planes, vertices, tol).into_values() {
        let (p0, p1) = (vertices[corners[0] as usize], vertices[corners[1] as usize]);
        let edge = p1 - p0;
        for axis in [Vec3::x(), Vec3::y(), Vec3::z()] {
            let Some(n) = edge.cross(&axis).try_normalize(1e-9) else {
                continue;
            };
            for n in [n, -n] {
                if planes.len() >= MAX_PLANES {
                    return;
                }
                let d = n.dot(&p0.coords);
                if vertices.iter().all(|v| n.dot(&v.coords) - d <= tol) && !has_plane(planes, &n) {
                    planes.push(Plane { normal: n, d });
                }
            }
        }
    }
}
