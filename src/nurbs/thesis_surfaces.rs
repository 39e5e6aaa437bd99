//! The four bicubic test surfaces of the thesis' Table 3.1 (spec 000 §5), rebuilt from their
//! description: degree 3 both ways, clamped uniform knots, and the control-net sizes of the
//! table. The thesis shows their shapes only in a figure (Fig. 3.1), so the shapes here are a
//! reconstruction: deterministic, non-planar sheets, each a sum of two waves plus a small
//! seeded noise on every control point's height, over a rectangle whose sides follow the
//! net's proportions (the longer side is [`LONG_SIDE`]).
//!
//! Surface 1's size is garbled in the OCR ("O X b"). It is read as **8 × 6**: "b" is the
//! usual OCR confusion for "6", and "O" is a round glyph (6, 8 or 9; a single 0 is no net);
//! the two glyphs differ, so the digits likely do too, and 8 × 6 makes surface 1 the small
//! one of the set (48 points next to 210, 750 and 1470), which the other three's spread
//! suggests the table had.

use super::shapes::clamped_uniform_knots;
use super::surface::NurbsSurface;
use crate::geom::Pose;
use crate::world::scene_kit::Lcg;

/// Control points (u × v) of Table 3.1's surfaces, surface 1 as read above.
pub const TABLE_3_1: [(usize, usize); 4] = [(8, 6), (30, 25), (70, 21), (15, 14)];
/// The longer side of every surface's rectangle (world units).
pub const LONG_SIDE: f64 = 2.0;
const DEGREE: usize = 3;

/// One wave of a sheet's height: `amplitude · sin(kx·x + ky·y + phase)`.
#[derive(Clone, Copy)]
struct Wave {
    amplitude: f64,
    kx: f64,
    ky: f64,
    phase: f64,
}

impl Wave {
    fn at(&self, x: f64, y: f64) -> f64 {
        self.amplitude * (self.kx * x + self.ky * y + self.phase).sin()
    }
}

/// Each surface's two waves and noise seed: a saddle-like fold, a ripple, and so on, chosen so
/// that no two surfaces look alike and none is flat.
const SHAPES: [([Wave; 2], u64); 4] = [
    (
        [
            Wave {
                amplitude: 0.25,
                kx: 2.0,
                ky: 0.0,
                phase: 0.3,
            },
            Wave {
                amplitude: 0.15,
                kx: 0.0,
                ky: 3.0,
                phase: 1.1,
            },
        ],
        101,
    ),
    (
        [
            Wave {
                amplitude: 0.20,
                kx: 3.0,
                ky: 2.0,
                phase: 0.0,
            },
            Wave {
                amplitude: 0.10,
                kx: -5.0,
                ky: 4.0,
                phase: 0.7,
            },
        ],
        202,
    ),
    (
        [
            Wave {
                amplitude: 0.18,
                kx: 6.0,
                ky: 0.5,
                phase: 0.4,
            },
            Wave {
                amplitude: 0.06,
                kx: 1.0,
                ky: 9.0,
                phase: 2.0,
            },
        ],
        303,
    ),
    (
        [
            Wave {
                amplitude: 0.30,
                kx: 1.5,
                ky: 1.5,
                phase: 1.6,
            },
            Wave {
                amplitude: 0.12,
                kx: 4.0,
                ky: -3.0,
                phase: 0.2,
            },
        ],
        404,
    ),
];
/// Heights of the seeded noise on each control point: ± this.
const NOISE: f64 = 0.03;

/// Surface `k` (0..4) of Table 3.1, moved so that its parameter centre is at the origin (two
/// surfaces placed at the same point then touch). `None` for another index.
pub fn thesis_surface(k: usize) -> Option<NurbsSurface> {
    let (nu, nv) = *TABLE_3_1.get(k)?;
    let (waves, seed) = SHAPES[k];
    Some(centred(&sheet(nu, nv, &waves, seed)))
}

/// The four surfaces of Table 3.1.
pub fn thesis_surfaces() -> Vec<NurbsSurface> {
    (0..TABLE_3_1.len()).filter_map(thesis_surface).collect()
}

fn sheet(nu: usize, nv: usize, waves: &[Wave; 2], seed: u64) -> NurbsSurface {
    let long = nu.max(nv) as f64 - 1.0;
    let (sx, sy) = (
        LONG_SIDE * (nu as f64 - 1.0) / long,
        LONG_SIDE * (nv as f64 - 1.0) / long,
    );
    let mut rng = Lcg(seed);
    let mut points = Vec::with_capacity(nu * nv);
    for i in 0..nu {
        for j in 0..nv {
            let x = sx * (i as f64 / (nu - 1) as f64 - 0.5);
            let y = sy * (j as f64 / (nv - 1) as f64 - 0.5);
            let z = waves.iter().map(|w| w.at(x, y)).sum::<f64>() + rng.range(-NOISE, NOISE);
            points.push([x, y, z]);
        }
    }
    NurbsSurface::new(
        (DEGREE, DEGREE),
        (
            clamped_uniform_knots(nu, DEGREE),
            clamped_uniform_knots(nv, DEGREE),
        ),
        (nu, nv),
        &points,
        &vec![1.0; nu * nv],
    )
    .expect("a rectangular bicubic net of at least 4 × 4 points is well formed")
}

/// The surface translated so that its parameter centre is at the origin.
pub fn centred(s: &NurbsSurface) -> NurbsSurface {
    let [u0, u1, v0, v1] = s.domain();
    let c = s.point((u0 + u1) * 0.5, (v0 + v1) * 0.5);
    s.transformed(&Pose::translation(-c.x, -c.y, -c.z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_surfaces_have_the_table_sizes_and_are_not_flat() {
        let all = thesis_surfaces();
        assert_eq!(all.len(), 4);
        for (s, &(nu, nv)) in all.iter().zip(&TABLE_3_1) {
            assert_eq!((s.count_u, s.count_v), (nu, nv));
            assert_eq!((s.degree_u, s.degree_v), (3, 3));
            // Sampled heights spread: a flat sheet would have none.
            let z: Vec<f64> = (0..=10)
                .flat_map(|a| (0..=10).map(move |b| (a as f64 / 10.0, b as f64 / 10.0)))
                .map(|(u, v)| s.point(u, v).z)
                .collect();
            let spread = z.iter().cloned().fold(f64::MIN, f64::max)
                - z.iter().cloned().fold(f64::MAX, f64::min);
            assert!(spread > 0.1, "surface {nu}×{nv} spread {spread}");
            assert!(s.point(0.5, 0.5).coords.norm() < 1e-12);
        }
        assert!(thesis_surface(4).is_none());
        // Deterministic: built twice, the same.
        assert_eq!(thesis_surfaces(), all);
    }
}
