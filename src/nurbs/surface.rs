//! A tensor-product NURBS surface with homogeneous control points.

use nalgebra::Vector4;

/// Highest degree accepted: basis functions live in fixed arrays of this size plus one.
pub const MAX_DEGREE: usize = 7;

/// Homogeneous control point (w·x, w·y, w·z, w).
pub type HPoint = Vector4<f64>;

/// Control points are stored row by row: index `i * count_v + j`, `i` along u.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NurbsSurface {
    pub degree_u: usize,
    pub degree_v: usize,
    pub knots_u: Vec<f64>,
    pub knots_v: Vec<f64>,
    pub count_u: usize,
    pub count_v: usize,
    pub points: Vec<HPoint>,
}

/// Why a surface description was refused; the loader adds the file and the place.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SurfaceError {
    #[error("degree {0} is out of range 1..={MAX_DEGREE}")]
    Degree(usize),
    #[error("{dir} knot vector has {got} knots, expected {expected} (points + degree + 1)")]
    KnotCount {
        dir: char,
        got: usize,
        expected: usize,
    },
    #[error("{dir} needs at least {} control points for degree {degree}, got {count}", degree + 1)]
    TooFewPoints {
        dir: char,
        count: usize,
        degree: usize,
    },
    #[error("{dir} knot {index} is {value}, smaller than the one before or not finite")]
    KnotOrder { dir: char, index: usize, value: f64 },
    #[error("{dir} knot {index} is {value}, repeated more than degree + 1 times")]
    Multiplicity { dir: char, index: usize, value: f64 },
    #[error("{dir} parameter domain is empty")]
    EmptyDomain { dir: char },
    #[error("control net has {got} points, expected {expected}")]
    PointCount { got: usize, expected: usize },
    #[error("control point {index} has weight {weight}: weights must be finite and positive")]
    Weight { index: usize, weight: f64 },
    #[error("control point {index} is not finite")]
    NotFinite { index: usize },
}

impl NurbsSurface {
    /// Builds a surface from Cartesian points and weights, checking everything a file could
    /// get wrong (positive weights are what makes the control-point boxes conservative).
    pub fn new(
        (degree_u, degree_v): (usize, usize),
        (knots_u, knots_v): (Vec<f64>, Vec<f64>),
        (count_u, count_v): (usize, usize),
        cartesian: &[[f64; 3]],
        weights: &[f64],
    ) -> Result<Self, SurfaceError> {
        let expected = count_u.saturating_mul(count_v);
        if cartesian.len() != expected || weights.len() != expected {
            return Err(SurfaceError::PointCount {
                got: cartesian.len().min(weights.len()),
                expected,
            });
        }
        let mut points = Vec::with_capacity(expected);
        for (index, (p, &w)) in cartesian.iter().zip(weights).enumerate() {
            if !(w.is_finite() && w > 0.0) {
                return Err(SurfaceError::Weight { index, weight: w });
            }
            if !p.iter().all(|c| c.is_finite()) {
                return Err(SurfaceError::NotFinite { index });
            }
            points.push(HPoint::new(p[0] * w, p[1] * w, p[2] * w, w));
        }
        let s = Self {
            degree_u,
            degree_v,
            knots_u,
            knots_v,
            count_u,
            count_v,
            points,
        };
        s.validate()?;
        Ok(s)
    }

    /// Checks degrees, knot counts and order, and weights.
    pub fn validate(&self) -> Result<(), SurfaceError> {
        for (dir, p, n, knots) in [
            ('u', self.degree_u, self.count_u, &self.knots_u),
            ('v', self.degree_v, self.count_v, &self.knots_v),
        ] {
            if p == 0 || p > MAX_DEGREE {
                return Err(SurfaceError::Degree(p));
            }
            if n <= p {
                return Err(SurfaceError::TooFewPoints {
                    dir,
                    count: n,
                    degree: p,
                });
            }
            if knots.len() != n + p + 1 {
                return Err(SurfaceError::KnotCount {
                    dir,
                    got: knots.len(),
                    expected: n + p + 1,
                });
            }
            for (index, pair) in knots.windows(2).enumerate() {
                if !(pair[0].is_finite() && pair[1].is_finite() && pair[1] >= pair[0]) {
                    return Err(SurfaceError::KnotOrder {
                        dir,
                        index: index + 1,
                        value: pair[1],
                    });
                }
            }
            // More than p + 1 equal knots leave a basis function with no support, and the
            // span search and basis arrays index past it.
            if let Some(index) = (p + 1..knots.len()).find(|&i| knots[i] == knots[i - p - 1]) {
                return Err(SurfaceError::Multiplicity {
                    dir,
                    index,
                    value: knots[index],
                });
            }
            if knots[n] <= knots[p] {
                return Err(SurfaceError::EmptyDomain { dir });
            }
        }
        let expected = self.count_u.saturating_mul(self.count_v);
        if self.points.len() != expected {
            return Err(SurfaceError::PointCount {
                got: self.points.len(),
                expected,
            });
        }
        for (index, p) in self.points.iter().enumerate() {
            if !(p.w.is_finite() && p.w > 0.0) {
                return Err(SurfaceError::Weight { index, weight: p.w });
            }
            if !p.iter().all(|c| c.is_finite()) {
                return Err(SurfaceError::NotFinite { index });
            }
        }
        Ok(())
    }

    pub fn point_index(&self, i: usize, j: usize) -> usize {
        i * self.count_v + j
    }

    /// The parameter rectangle `[u0, u1] × [v0, v1]`, read from the knots: a sub-patch made
    /// by splitting keeps its exact part of the parent's domain.
    pub fn domain(&self) -> [f64; 4] {
        [
            self.knots_u[self.degree_u],
            self.knots_u[self.count_u],
            self.knots_v[self.degree_v],
            self.knots_v[self.count_v],
        ]
    }

    /// Cartesian control point (i, j).
    pub fn cartesian(&self, i: usize, j: usize) -> crate::geom::Point3 {
        let h = self.points[self.point_index(i, j)];
        crate::geom::Point3::new(h.x / h.w, h.y / h.w, h.z / h.w)
    }

    /// All control points in Cartesian form.
    pub fn cartesian_points(&self) -> Vec<crate::geom::Point3> {
        self.points
            .iter()
            .map(|h| crate::geom::Point3::new(h.x / h.w, h.y / h.w, h.z / h.w))
            .collect()
    }

    /// Number of non-empty knot spans inside the domain in u and v.
    pub fn span_counts(&self) -> (usize, usize) {
        let count = |knots: &[f64], p: usize, n: usize| {
            knots[p..=n].windows(2).filter(|w| w[1] > w[0]).count()
        };
        (
            count(&self.knots_u, self.degree_u, self.count_u),
            count(&self.knots_v, self.degree_v, self.count_v),
        )
    }

    /// The same surface moved rigidly (homogeneous points: the weight is unchanged).
    pub fn transformed(&self, pose: &crate::geom::Pose) -> Self {
        let mut out = self.clone();
        for h in &mut out.points {
            let p = pose * crate::geom::Point3::new(h.x / h.w, h.y / h.w, h.z / h.w);
            *h = HPoint::new(p.x * h.w, p.y * h.w, p.z * h.w, h.w);
        }
        out
    }

    /// A characteristic size: the diagonal of the control points' bounding box.
    pub fn size(&self) -> f64 {
        let pts = self.cartesian_points();
        let mut lo = pts[0].coords;
        let mut hi = lo;
        for p in &pts {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
        (hi - lo).norm()
    }
}
