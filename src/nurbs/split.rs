//! Knot insertion (Boehm) and splitting a surface in two at a parameter value.

use super::basis::find_span;
use super::surface::{HPoint, MAX_DEGREE, NurbsSurface};

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
        let (mut lo, mut hi) = (self.clone(), self.clone());
        self.split_into(dir, t, &mut lo, &mut hi);
        (lo, hi)
    }

    /// [`Self::split_at`] into two given surfaces, reusing their storage: the query splits
    /// at every level and must not allocate there.
    pub fn split_into(&self, dir: Direction, t: f64, lo: &mut NurbsSurface, hi: &mut NurbsSurface) {
        let t = self.snap_to_knot(dir, t);
        let (degree, knots, along, lines) = match dir {
            Direction::U => (self.degree_u, &self.knots_u, self.count_u, self.count_v),
            Direction::V => (self.degree_v, &self.knots_v, self.count_v, self.count_u),
        };
        let multiplicity = knots.iter().filter(|&&k| k == t).count();
        if multiplicity > degree {
            // A discontinuity already sits at t: the general insertion path handles it.
            let (a, b) = self.split_by_insertion(dir, t);
            *lo = a;
            *hi = b;
            return;
        }
        let clamped_span = along == degree + 1
            && knots[..=degree].iter().all(|&k| k == knots[0])
            && knots[degree + 1..].iter().all(|&k| k == knots[degree + 1]);
        if clamped_span && multiplicity == 0 {
            // One clamped span in this direction: a Bézier line, halved by de Casteljau.
            self.split_bezier_into(dir, t, lo, hi);
            return;
        }
        let plan = SplitPlan::new(knots, degree, along, t, multiplicity);
        for out in [&mut *lo, &mut *hi] {
            out.degree_u = self.degree_u;
            out.degree_v = self.degree_v;
            out.knots_u.clone_from(&self.knots_u);
            out.knots_v.clone_from(&self.knots_v);
            out.count_u = self.count_u;
            out.count_v = self.count_v;
        }
        let (lo_knots, hi_knots) = match dir {
            Direction::U => (&mut lo.knots_u, &mut hi.knots_u),
            Direction::V => (&mut lo.knots_v, &mut hi.knots_v),
        };
        plan.knots(knots, lo_knots, hi_knots);
        match dir {
            Direction::U => {
                lo.count_u = plan.left_count;
                hi.count_u = plan.right_count;
            }
            Direction::V => {
                lo.count_v = plan.left_count;
                hi.count_v = plan.right_count;
            }
        }
        lo.points.clear();
        hi.points.clear();
        lo.points.resize(plan.left_count * lines, HPoint::zeros());
        hi.points.resize(plan.right_count * lines, HPoint::zeros());
        // Line `l` of the net along the split direction: element `m` sits at
        // `start + m * stride`, in the parent and in each piece with its own count. Points
        // before the window of new points stay in the lower piece and points after it in the
        // upper one: copied as blocks; the window is recomputed line by line.
        let (first, last, r) = (plan.k - plan.degree, plan.k - plan.s, plan.r);
        let (lc, rc) = (plan.left_count, plan.right_count);
        let stride = match dir {
            Direction::U => {
                let nv = self.count_v;
                lo.points[..first * nv].copy_from_slice(&self.points[..first * nv]);
                hi.points[(r + 1) * nv..].copy_from_slice(&self.points[(last + 1) * nv..]);
                nv
            }
            Direction::V => {
                for l in 0..lines {
                    let row = &self.points[l * along..(l + 1) * along];
                    lo.points[l * lc..l * lc + first].copy_from_slice(&row[..first]);
                    hi.points[l * rc + r + 1..(l + 1) * rc].copy_from_slice(&row[last + 1..]);
                }
                1
            }
        };
        let mut scratch = Scratch::default();
        for l in 0..lines {
            let (src, lo_start, hi_start) = match dir {
                Direction::U => (l, l, l),
                Direction::V => (l * along, l * lc, l * rc),
            };
            plan.split_window(
                &mut scratch,
                |m| self.points[src + m * stride],
                |m, p| lo.points[lo_start + m * stride] = p,
                |m, p| hi.points[hi_start + m * stride] = p,
            );
        }
    }

    /// [`Self::split_into`] when the net is one clamped span in `dir` (degree + 1 points per
    /// line along it, end knots repeated) and `t` is not a knot: Boehm's insertions then reduce to de Casteljau's
    /// triangle with one coefficient, computed as the general plan computes it.
    fn split_bezier_into(
        &self,
        dir: Direction,
        t: f64,
        lo: &mut NurbsSurface,
        hi: &mut NurbsSurface,
    ) {
        let (p, knots) = match dir {
            Direction::U => (self.degree_u, &self.knots_u),
            Direction::V => (self.degree_v, &self.knots_v),
        };
        let (a, b) = (knots[p], knots[p + 1]);
        let alpha = (t - a) / (b - a);
        for out in [&mut *lo, &mut *hi] {
            out.degree_u = self.degree_u;
            out.degree_v = self.degree_v;
            out.count_u = self.count_u;
            out.count_v = self.count_v;
            out.points.clear();
            out.points.resize(self.points.len(), HPoint::zeros());
        }
        let halves = |from: f64, to: f64, out: &mut Vec<f64>| {
            out.clear();
            out.extend(std::iter::repeat_n(from, p + 1));
            out.extend(std::iter::repeat_n(to, p + 1));
        };
        match dir {
            Direction::U => {
                lo.knots_v.clone_from(&self.knots_v);
                hi.knots_v.clone_from(&self.knots_v);
                halves(a, t, &mut lo.knots_u);
                halves(t, b, &mut hi.knots_u);
            }
            Direction::V => {
                lo.knots_u.clone_from(&self.knots_u);
                hi.knots_u.clone_from(&self.knots_u);
                halves(a, t, &mut lo.knots_v);
                halves(t, b, &mut hi.knots_v);
            }
        }
        let (lines, stride, line_step) = match dir {
            Direction::U => (self.count_v, self.count_v, 1),
            Direction::V => (self.count_u, 1, self.count_v),
        };
        let mut rw = [HPoint::zeros(); MAX_DEGREE + 1];
        for l in 0..lines {
            let start = l * line_step;
            for (m, w) in rw.iter_mut().enumerate().take(p + 1) {
                *w = self.points[start + m * stride];
            }
            lo.points[start] = rw[0];
            hi.points[start + p * stride] = rw[p];
            for j in 1..=p {
                for i in 0..=p - j {
                    rw[i] = rw[i + 1] * alpha + rw[i] * (1.0 - alpha);
                }
                lo.points[start + j * stride] = rw[0];
                hi.points[start + (p - j) * stride] = rw[p - j];
            }
        }
    }

    /// Splitting by repeated single insertions (kept for knots already of full multiplicity).
    fn split_by_insertion(&self, dir: Direction, t: f64) -> (NurbsSurface, NurbsSurface) {
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

/// Most points one split recomputes per line: the window `Q_{k-p} ..= Q_{k-s+r}`.
const WINDOW: usize = 2 * MAX_DEGREE + 2;

/// One split of every line of a net at the same parameter (Boehm's insertion of `t` until
/// its multiplicity is the degree, The NURBS Book A5.1 with A5.3's shared coefficients):
/// the coefficients depend on the knots only, so they are computed once for all lines.
struct SplitPlan {
    degree: usize,
    /// Span of `t` (`knots[k] <= t < knots[k + 1]`) and its multiplicity before the split.
    k: usize,
    s: usize,
    /// Insertions needed: `degree - s`.
    r: usize,
    alpha: [[f64; MAX_DEGREE + 1]; MAX_DEGREE + 1],
    t: f64,
    left_count: usize,
    right_count: usize,
}

impl SplitPlan {
    fn new(knots: &[f64], degree: usize, along: usize, t: f64, s: usize) -> Self {
        let p = degree;
        let k = find_span(along, p, t, knots);
        let r = p - s;
        let mut alpha = [[0.0; MAX_DEGREE + 1]; MAX_DEGREE + 1];
        for (j, row) in alpha.iter_mut().enumerate().take(r + 1).skip(1) {
            let l = k - p + j;
            for (i, a) in row.iter_mut().enumerate().take(p - j - s + 1) {
                *a = (t - knots[l + i]) / (knots[i + k + 1] - knots[l + i]);
            }
        }
        Self {
            degree,
            k,
            s,
            r,
            alpha,
            t,
            left_count: k - s + 1,
            right_count: along - k + p,
        }
    }

    /// Left knots: those below `t`, then `t` degree + 1 times; right: the mirror.
    fn knots(&self, knots: &[f64], left: &mut Vec<f64>, right: &mut Vec<f64>) {
        let p1 = self.degree + 1;
        left.clear();
        left.extend_from_slice(&knots[..=self.k - self.s]);
        left.extend(std::iter::repeat_n(self.t, p1));
        right.clear();
        right.extend(std::iter::repeat_n(self.t, p1));
        right.extend_from_slice(&knots[self.k + 1..]);
    }

    /// Splits one line's window: `get(m)` reads the parent's point `m`, `left(m, p)` and
    /// `right(m, p)` write the pieces' points `first..=k - s` and `0..=r`, which the
    /// insertions change (the pieces share the point at the split); the caller copies the
    /// rest.
    fn split_window(
        &self,
        scratch: &mut Scratch,
        get: impl Fn(usize) -> HPoint,
        mut left: impl FnMut(usize, HPoint),
        mut right: impl FnMut(usize, HPoint),
    ) {
        let (p, k, s, r) = (self.degree, self.k, self.s, self.r);
        let first = k - p;
        // q[m] is Q_{first + m}; rw is the working row of A5.1.
        let Scratch { q, rw } = scratch;
        for (i, w) in rw.iter_mut().enumerate().take(p - s + 1) {
            *w = get(first + i);
        }
        q[0] = get(first);
        q[p - s + r] = get(k - s);
        let mut l = first;
        for j in 1..=r {
            l = first + j;
            for i in 0..=p - j - s {
                let a = self.alpha[j][i];
                rw[i] = rw[i + 1] * a + rw[i] * (1.0 - a);
            }
            q[l - first] = rw[0];
            q[k + r - j - s - first] = rw[p - j - s];
        }
        if l + 1 < k - s {
            q[l + 1 - first..k - s - first].copy_from_slice(&rw[1..k - s - l]);
        }
        for m in first..=k - s {
            left(m, q[m - first]);
        }
        for m in 0..=r {
            right(m, q[k - s - first + m]);
        }
    }
}

/// Working rows of one split, zeroed once per split rather than once per line.
struct Scratch {
    q: [HPoint; WINDOW],
    rw: [HPoint; MAX_DEGREE + 1],
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            q: [HPoint::zeros(); WINDOW],
            rw: [HPoint::zeros(); MAX_DEGREE + 1],
        }
    }
}
