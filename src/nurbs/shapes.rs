//! Exact rational shapes (sphere octants, torus) and polynomial ones (plane, free-form
//! bicubic nets) built as tensor products.

use super::surface::NurbsSurface;
use crate::world::scene_kit::Lcg;

const HALF_SQRT2: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// A quarter circle from (1, 0) to (0, 1): points and weights of the degree-2 arc.
const QUARTER: [([f64; 2], f64); 3] = [
    ([1.0, 0.0], 1.0),
    ([1.0, 1.0], HALF_SQRT2),
    ([0.0, 1.0], 1.0),
];

/// The whole unit circle as nine degree-2 points with knots at the quarters.
const CIRCLE: [([f64; 2], f64); 9] = [
    ([1.0, 0.0], 1.0),
    ([1.0, 1.0], HALF_SQRT2),
    ([0.0, 1.0], 1.0),
    ([-1.0, 1.0], HALF_SQRT2),
    ([-1.0, 0.0], 1.0),
    ([-1.0, -1.0], HALF_SQRT2),
    ([0.0, -1.0], 1.0),
    ([1.0, -1.0], HALF_SQRT2),
    ([1.0, 0.0], 1.0),
];
const CIRCLE_KNOTS: [f64; 12] = [
    0.0, 0.0, 0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1.0, 1.0, 1.0,
];

fn bezier_knots(degree: usize) -> Vec<f64> {
    let mut k = vec![0.0; degree + 1];
    k.extend(std::iter::repeat_n(1.0, degree + 1));
    k
}

/// Clamped uniform knots on [0, 1] for `count` points of `degree`.
pub fn clamped_uniform_knots(count: usize, degree: usize) -> Vec<f64> {
    let spans = count - degree;
    let mut k = vec![0.0; degree + 1];
    k.extend((1..spans).map(|s| s as f64 / spans as f64));
    k.extend(std::iter::repeat_n(1.0, degree + 1));
    k
}

/// One octant of a sphere, exact: the tensor product of two rational quarter circles
/// (longitude × latitude from the equator to the pole). `signs` picks the octant.
pub fn sphere_octant(centre: [f64; 3], radius: f64, signs: [f64; 3]) -> NurbsSurface {
    let mut points = Vec::with_capacity(9);
    let mut weights = Vec::with_capacity(9);
    for ([x, y], wl) in QUARTER {
        for ([rho, z], wp) in QUARTER {
            points.push([
                centre[0] + signs[0] * radius * rho * x,
                centre[1] + signs[1] * radius * rho * y,
                centre[2] + signs[2] * radius * z,
            ]);
            weights.push(wl * wp);
        }
    }
    NurbsSurface::new(
        (2, 2),
        (bezier_knots(2), bezier_knots(2)),
        (3, 3),
        &points,
        &weights,
    )
    .expect("sphere octant net is well formed by construction")
}

/// The eight octants of a sphere.
pub fn sphere(centre: [f64; 3], radius: f64) -> Vec<NurbsSurface> {
    let mut out = Vec::with_capacity(8);
    for sx in [1.0, -1.0] {
        for sy in [1.0, -1.0] {
            for sz in [1.0, -1.0] {
                out.push(sphere_octant(centre, radius, [sx, sy, sz]));
            }
        }
    }
    out
}

/// A torus around z: the whole longitude circle times the whole tube circle (9 × 9 net).
pub fn torus(centre: [f64; 3], major: f64, minor: f64) -> NurbsSurface {
    let mut points = Vec::with_capacity(81);
    let mut weights = Vec::with_capacity(81);
    for ([x, y], wl) in CIRCLE {
        for ([c, s], wt) in CIRCLE {
            let rho = major + minor * c;
            points.push([
                centre[0] + rho * x,
                centre[1] + rho * y,
                centre[2] + minor * s,
            ]);
            weights.push(wl * wt);
        }
    }
    NurbsSurface::new(
        (2, 2),
        (CIRCLE_KNOTS.to_vec(), CIRCLE_KNOTS.to_vec()),
        (9, 9),
        &points,
        &weights,
    )
    .expect("torus net is well formed by construction")
}

/// A square plane of side `size` in z = `height`, as the thesis' bicubic 4 × 4 net.
pub fn plane(size: f64, height: f64) -> NurbsSurface {
    grid_surface(4, 3, size, |_, _| height)
}

/// An `n × n` cubic B-spline net over a square of side `size`, heights from `height(i, j)`.
pub fn grid_surface(
    n: usize,
    degree: usize,
    size: f64,
    mut height: impl FnMut(usize, usize) -> f64,
) -> NurbsSurface {
    let n = n.max(degree + 1);
    let mut points = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let x = size * (i as f64 / (n - 1) as f64 - 0.5);
            let y = size * (j as f64 / (n - 1) as f64 - 0.5);
            points.push([x, y, height(i, j)]);
        }
    }
    let knots = clamped_uniform_knots(n, degree);
    NurbsSurface::new(
        (degree, degree),
        (knots.clone(), knots),
        (n, n),
        &points,
        &vec![1.0; n * n],
    )
    .expect("grid net is well formed by construction")
}

/// A free-form bicubic patch: a noisy `n × n` net of side `size`, heights in ±`amplitude`.
pub fn random_bicubic(n: usize, size: f64, amplitude: f64, rng: &mut Lcg) -> NurbsSurface {
    grid_surface(n, 3, size, |_, _| rng.range(-amplitude, amplitude))
}

/// A surface of revolution around z: a cubic profile of (radius, height) points (u) turned
/// by the exact rational circle (v).
pub fn revolve(profile: &[[f64; 2]]) -> NurbsSurface {
    let degree = 3.min(profile.len().saturating_sub(1)).max(1);
    let mut points = Vec::with_capacity(profile.len() * 9);
    let mut weights = Vec::with_capacity(profile.len() * 9);
    for [r, h] in profile {
        for ([x, y], w) in CIRCLE {
            points.push([r * x, r * y, *h]);
            weights.push(w);
        }
    }
    NurbsSurface::new(
        (degree, 2),
        (
            clamped_uniform_knots(profile.len(), degree),
            CIRCLE_KNOTS.to_vec(),
        ),
        (profile.len(), 9),
        &points,
        &weights,
    )
    .expect("a profile of at least two points makes a valid surface of revolution")
}
