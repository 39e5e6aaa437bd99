//! Meshes the engine generates for built-in scenes and for drawing round shapes.

use crate::geom::{Point3, Real, TriMesh, Vec3};
use std::collections::HashMap;

fn mesh(vertices: Vec<Point3>, triangles: Vec<[u32; 3]>) -> TriMesh {
    TriMesh {
        vertices,
        triangles,
    }
}

/// A torus around the y axis.
pub fn torus(major: Real, minor: Real, major_segments: u32, minor_segments: u32) -> TriMesh {
    let (n, m) = (major_segments.max(3), minor_segments.max(3));
    let mut v = Vec::with_capacity((n * m) as usize);
    for i in 0..n {
        let a = i as Real / n as Real * std::f64::consts::TAU;
        for j in 0..m {
            let b = j as Real / m as Real * std::f64::consts::TAU;
            let r = major + minor * b.cos();
            v.push(Point3::new(r * a.cos(), minor * b.sin(), r * a.sin()));
        }
    }
    let idx = |i: u32, j: u32| (i % n) * m + (j % m);
    let mut t = Vec::with_capacity((2 * n * m) as usize);
    for i in 0..n {
        for j in 0..m {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            t.push([a, c, b]);
            t.push([a, d, c]);
        }
    }
    mesh(v, t)
}

/// Deterministic value noise in [-1, 1] from a seed and a lattice point.
fn lattice(seed: u64, x: i64, z: i64) -> Real {
    let mut h = seed
        ^ (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (z as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    (h as Real / u64::MAX as Real) * 2.0 - 1.0
}

fn smooth_noise(seed: u64, x: Real, z: Real) -> Real {
    let (x0, z0) = (x.floor(), z.floor());
    let (fx, fz) = (x - x0, z - z0);
    let s = |t: Real| t * t * (3.0 - 2.0 * t);
    let (sx, sz) = (s(fx), s(fz));
    let (xi, zi) = (x0 as i64, z0 as i64);
    let a = lattice(seed, xi, zi) * (1.0 - sx) + lattice(seed, xi + 1, zi) * sx;
    let b = lattice(seed, xi, zi + 1) * (1.0 - sx) + lattice(seed, xi + 1, zi + 1) * sx;
    a * (1.0 - sz) + b * sz
}

/// A height field centred on the origin, counter-clockwise seen from above.
pub fn terrain(size: Real, cells: u32, amplitude: Real, seed: u64) -> TriMesh {
    let n = cells.max(1);
    let mut v = Vec::with_capacity(((n + 1) * (n + 1)) as usize);
    for i in 0..=n {
        for j in 0..=n {
            let x = (i as Real / n as Real - 0.5) * size;
            let z = (j as Real / n as Real - 0.5) * size;
            let h = amplitude
                * (smooth_noise(seed, x * 0.15, z * 0.15)
                    + 0.5 * smooth_noise(seed ^ 1, x * 0.4, z * 0.4));
            v.push(Point3::new(x, h, z));
        }
    }
    let idx = |i: u32, j: u32| i * (n + 1) + j;
    let mut t = Vec::with_capacity((2 * n * n) as usize);
    for i in 0..n {
        for j in 0..n {
            t.push([idx(i, j), idx(i, j + 1), idx(i + 1, j + 1)]);
            t.push([idx(i, j), idx(i + 1, j + 1), idx(i + 1, j)]);
        }
    }
    mesh(v, t)
}

/// A subdivided icosahedron: 20 × 4^level triangles on a sphere.
pub fn icosphere(radius: Real, level: u32) -> TriMesh {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Vec3> = [
        (-1.0, g, 0.0),
        (1.0, g, 0.0),
        (-1.0, -g, 0.0),
        (1.0, -g, 0.0),
        (0.0, -1.0, g),
        (0.0, 1.0, g),
        (0.0, -1.0, -g),
        (0.0, 1.0, -g),
        (g, 0.0, -1.0),
        (g, 0.0, 1.0),
        (-g, 0.0, -1.0),
        (-g, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut t: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..level.min(8) {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut next = Vec::with_capacity(t.len() * 4);
        let mut midpoint = |a: u32, b: u32, v: &mut Vec<Vec3>| {
            *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                (v.len() - 1) as u32
            })
        };
        for [a, b, c] in t {
            let ab = midpoint(a, b, &mut v);
            let bc = midpoint(b, c, &mut v);
            let ca = midpoint(c, a, &mut v);
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        t = next;
    }
    mesh(v.into_iter().map(|p| Point3::from(p * radius)).collect(), t)
}

/// A capsule around the y axis, for drawing.
pub fn capsule(radius: Real, half_height: Real, segments: u32) -> TriMesh {
    let n = segments.max(4);
    let rings = n / 2;
    let mut v = Vec::new();
    // Hemisphere rings from the top pole down to the bottom pole; the cylinder is the band
    // between the two equator rings.
    for r in 0..=rings * 2 + 1 {
        let (phi, y_off) = if r <= rings {
            (
                r as Real / rings as Real * std::f64::consts::FRAC_PI_2,
                half_height,
            )
        } else {
            (
                (r - 1) as Real / rings as Real * std::f64::consts::FRAC_PI_2,
                -half_height,
            )
        };
        for s in 0..n {
            let th = s as Real / n as Real * std::f64::consts::TAU;
            let ring = radius * phi.sin();
            v.push(Point3::new(
                ring * th.cos(),
                radius * phi.cos() + y_off,
                ring * th.sin(),
            ));
        }
    }
    let rows = rings * 2 + 2;
    let mut t = Vec::new();
    for r in 0..rows - 1 {
        for s in 0..n {
            let a = r * n + s;
            let b = r * n + (s + 1) % n;
            let c = (r + 1) * n + (s + 1) % n;
            let d = (r + 1) * n + s;
            t.push([a, b, c]);
            t.push([a, c, d]);
        }
    }
    mesh(v, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_meshes_are_closed_and_outward() {
        for (m, expect) in [
            (
                torus(2.0, 0.5, 64, 32),
                2.0 * std::f64::consts::PI.powi(2) * 2.0 * 0.25,
            ),
            (icosphere(1.0, 3), 4.0 / 3.0 * std::f64::consts::PI),
        ] {
            let (vol, _, _) = m.mass_properties();
            assert!(
                vol > 0.0 && (vol - expect).abs() / expect < 0.05,
                "{vol} vs {expect}"
            );
        }
        assert_eq!(icosphere(1.0, 2).triangles.len(), 20 * 16);
        assert_eq!(terrain(10.0, 8, 1.0, 7).triangles.len(), 2 * 64);
    }
}
