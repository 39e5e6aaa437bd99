//! A regular grid of samples over the parameter domain, as triangles (for drawing and for
//! the tessellation oracle).

use super::surface::NurbsSurface;
use crate::geom::{Point3, Triangle};

/// `(n + 1) × (n + 1)` samples over the domain, row by row (u outer).
pub fn sample_grid(surface: &NurbsSurface, n: usize) -> Vec<Point3> {
    let n = n.max(1);
    let [u0, u1, v0, v1] = surface.domain();
    let mut out = Vec::with_capacity((n + 1) * (n + 1));
    for a in 0..=n {
        let u = u0 + (u1 - u0) * a as f64 / n as f64;
        for b in 0..=n {
            let v = v0 + (v1 - v0) * b as f64 / n as f64;
            out.push(surface.point(u, v));
        }
    }
    out
}

/// Two triangles per grid cell.
pub fn tessellate(surface: &NurbsSurface, n: usize) -> Vec<Triangle> {
    let n = n.max(1);
    let grid = sample_grid(surface, n);
    let at = |a: usize, b: usize| grid[a * (n + 1) + b];
    let mut out = Vec::with_capacity(2 * n * n);
    for a in 0..n {
        for b in 0..n {
            out.push(Triangle::new(at(a, b), at(a + 1, b), at(a + 1, b + 1)));
            out.push(Triangle::new(at(a, b), at(a + 1, b + 1), at(a, b + 1)));
        }
    }
    out
}
