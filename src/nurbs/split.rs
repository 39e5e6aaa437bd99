//! Knot insertion (Boehm) and splitting a surface in two at a parameter value.

use super::basis::find_span;
use super::surface::{HPoint, NurbsSurface};

/// One insertion of `u` into a curve's knots; the curve is unchanged.
pub fn insert_knot(
    points: &[HPoint],
    knots: &[f64],
    degree: usize,
    u: f64,
) -> (Vec<HPoint>, Vec<f64>) {
    let k = find_span(points.len(), degree, u, knots);
    let mut out = Vec::with_capacity(points.len() + 1);
    for i in 0..=points.len() {
        if i + degree <= k {
            out.push(points[i]);
        } else if i > k {
            out.push(points[i - 1]);
        } else {
            let alpha = (u - knots[i]) / (knots[i + degree] - knots[i]);
            out.push(points[i] * alpha + points[i - 1] * (1.0 - alpha));
        }
    }
    let mut new_knots = knots.to_vec();
    new_knots.insert(k + 1, u);
    (out, new_knots)
}

/// A curve as control points and knots.
pub type Curve = (Vec<HPoint>, Vec<f64>);

/// Splits a curve at `u` strictly inside its domain: insert `u` until its multiplicity is the
/// degree, then the curve passes through one control point, shared by both halves.
pub fn split_curve(points: &[HPoint], knots: &[f64], degree: usize, u: f64) -> (Curve, Curve) {
    let multiplicity = knots.iter().filter(|&&k| k == u).count().min(degree);
    let k = find_span(points.len(), degree, u, knots);
    let (mut pts, mut ks) = (points.to_vec(), knots.to_vec());
    for _ in multiplicity..degree {
        (pts, ks) = insert_knot(&pts, &ks, degree, u);
    }
    let shared = k - multiplicity;
    let left_knots: Vec<f64> = knots
        .iter()
        .copied()
        .filter(|&x| x < u)
        .chain(std::iter::repeat_n(u, degree + 1))
        .collect();
    let right_knots: Vec<f64> = std::iter::repeat_n(u, degree + 1)
        .chain(knots.iter().copied().filter(|&x| x > u))
        .collect();
    let right_points = pts[shared..].to_vec();
    pts.truncate(shared + 1);
    ((pts, left_knots), (right_points, right_knots))
}

/// The parameter direction of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Direction {
    U,
    V,
}

impl NurbsSurface {
    /// The two halves at the middle of the domain in `dir`; each keeps its exact part of the
    /// parent's parameter rectangle.
    pub fn split_half(&self, dir: Direction) -> (NurbsSurface, NurbsSurface) {
        let [u0, u1, v0, v1] = self.domain();
        match dir {
            Direction::U => self.split_at(dir, (u0 + u1) * 0.5),
            Direction::V => self.split_at(dir, (v0 + v1) * 0.5),
        }
    }

    /// The two pieces on either side of `t` in `dir`; `t` must lie strictly inside the domain.
    pub fn split_at(&self, dir: Direction, t: f64) -> (NurbsSurface, NurbsSurface) {
        let t = self.snap_to_knot(dir, t);
        let (lines, along) = match dir {
            Direction::U => (self.count_v, self.count_u),
            Direction::V => (self.count_u, self.count_v),
        };
        let (degree, knots) = match dir {
            Direction::U => (self.degree_u, &self.knots_u),
            Direction::V => (self.degree_v, &self.knots_v),
        };
        let mut left_lines = Vec::with_capacity(lines);
        let mut right_lines = Vec::with_capacity(lines);
        let (mut left_knots, mut right_knots) = (Vec::new(), Vec::new());
        let mut line = Vec::with_capacity(along);
        for l in 0..lines {
            line.clear();
            line.extend((0..along).map(|a| match dir {
                Direction::U => self.points[self.point_index(a, l)],
                Direction::V => self.points[self.point_index(l, a)],
            }));
            let ((lp, lk), (rp, rk)) = split_curve(&line, knots, degree, t);
            left_lines.push(lp);
            right_lines.push(rp);
            left_knots = lk;
            right_knots = rk;
        }
        let assemble = |lines_pts: Vec<Vec<HPoint>>, new_knots: Vec<f64>| {
            let along = lines_pts[0].len();
            let mut out = self.clone();
            out.points.clear();
            match dir {
                Direction::U => {
                    out.count_u = along;
                    out.knots_u = new_knots;
                    for i in 0..along {
                        for lp in &lines_pts {
                            out.points.push(lp[i]);
                        }
                    }
                }
                Direction::V => {
                    out.count_v = along;
                    out.knots_v = new_knots;
                    for lp in &lines_pts {
                        out.points.extend_from_slice(lp);
                    }
                }
            }
            out
        };
        (
            assemble(left_lines, left_knots),
            assemble(right_lines, right_knots),
        )
    }

    /// `t`, or the interior knot it is within rounding of. A midpoint computed one ulp off an
    /// existing knot would otherwise leave a span one ulp wide, which the direction rule then
    /// splits forever while the other direction never shrinks.
    fn snap_to_knot(&self, dir: Direction, t: f64) -> f64 {
        let [u0, u1, v0, v1] = self.domain();
        let (knots, lo, hi) = match dir {
            Direction::U => (&self.knots_u, u0, u1),
            Direction::V => (&self.knots_v, v0, v1),
        };
        let close = 1e-9 * (hi - lo);
        knots
            .iter()
            .copied()
            .find(|&k| (k - t).abs() <= close && k > lo && k < hi)
            .unwrap_or(t)
    }

    /// The same surface with `u` (or `v`) inserted once: used to refine a net without
    /// changing its shape.
    pub fn with_knot(&self, dir: Direction, t: f64) -> NurbsSurface {
        let mut out = self.clone();
        out.points.clear();
        match dir {
            Direction::U => {
                let mut cols = Vec::new();
                let mut knots = Vec::new();
                for j in 0..self.count_v {
                    let col: Vec<HPoint> = (0..self.count_u)
                        .map(|i| self.points[self.point_index(i, j)])
                        .collect();
                    let (p, k) = insert_knot(&col, &self.knots_u, self.degree_u, t);
                    cols.push(p);
                    knots = k;
                }
                out.count_u += 1;
                out.knots_u = knots;
                for i in 0..out.count_u {
                    for c in &cols {
                        out.points.push(c[i]);
                    }
                }
            }
            Direction::V => {
                let mut knots = Vec::new();
                for i in 0..self.count_u {
                    let row = &self.points[i * self.count_v..(i + 1) * self.count_v];
                    let (p, k) = insert_knot(row, &self.knots_v, self.degree_v, t);
                    out.points.extend(p);
                    knots = k;
                }
                out.count_v += 1;
                out.knots_v = knots;
            }
        }
        out
    }
}
