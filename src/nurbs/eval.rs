//! Rational evaluation of points, first derivatives and normals.

use super::basis::{basis_with_derivatives, find_span};
use super::surface::{HPoint, NurbsSurface};
use crate::geom::{Point3, Vec3};

/// Point and first partial derivatives at one parameter.
#[derive(Clone, Copy, Debug)]
pub struct SurfaceSample {
    pub point: Point3,
    pub du: Vec3,
    pub dv: Vec3,
}

impl SurfaceSample {
    /// Unit normal `du × dv`; `None` where the surface is degenerate (a sphere's pole).
    pub fn normal(&self) -> Option<Vec3> {
        self.du.cross(&self.dv).try_normalize(1e-12)
    }
}

impl NurbsSurface {
    /// The point S(u, v); parameters outside the domain are clamped to it.
    pub fn point(&self, u: f64, v: f64) -> Point3 {
        self.sample(u, v).point
    }

    /// Point and derivatives at (u, v), by the quotient rule on the homogeneous sums.
    pub fn sample(&self, u: f64, v: f64) -> SurfaceSample {
        let [u0, u1, v0, v1] = self.domain();
        let (u, v) = (u.clamp(u0, u1), v.clamp(v0, v1));
        let (p, q) = (self.degree_u, self.degree_v);
        let su = find_span(self.count_u, p, u, &self.knots_u);
        let sv = find_span(self.count_v, q, v, &self.knots_v);
        let (nu, dnu) = basis_with_derivatives(su, u, p, &self.knots_u);
        let (nv, dnv) = basis_with_derivatives(sv, v, q, &self.knots_v);
        let (mut s, mut s_u, mut s_v) = (HPoint::zeros(), HPoint::zeros(), HPoint::zeros());
        for a in 0..=p {
            let i = su - p + a;
            for b in 0..=q {
                let j = sv - q + b;
                let pw = self.points[self.point_index(i, j)];
                s += pw * (nu[a] * nv[b]);
                s_u += pw * (dnu[a] * nv[b]);
                s_v += pw * (nu[a] * dnv[b]);
            }
        }
        let point = s.xyz() / s.w;
        SurfaceSample {
            point: Point3::from(point),
            du: (s_u.xyz() - point * s_u.w) / s.w,
            dv: (s_v.xyz() - point * s_v.w) / s.w,
        }
    }

    /// Unit normal at (u, v); at a degenerate point, the normal of a nearby parameter inside
    /// the domain (poles of a sphere collapse a whole row of control points).
    pub fn normal(&self, u: f64, v: f64) -> Option<Vec3> {
        if let Some(n) = self.sample(u, v).normal() {
            return Some(n);
        }
        let [u0, u1, v0, v1] = self.domain();
        let (cu, cv) = ((u0 + u1) * 0.5, (v0 + v1) * 0.5);
        let t = 1e-6;
        self.sample(u + (cu - u) * t * 2.0, v + (cv - v) * t * 2.0)
            .normal()
    }
}
