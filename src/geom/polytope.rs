//! Small convex polytopes as face polygons, cut by half-spaces: the exact volume and area of
//! k-DOPs (the intersection of slabs) and of box–box intersections, for the quality metrics,
//! and the faces to draw a k-DOP with.

use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Obb, Point3, Real, Vec3};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Polytope {
    /// Each face is a convex polygon, its vertices in order around it.
    pub faces: Vec<Vec<Point3>>,
}

/// Corner indices (bit 0: x, bit 1: y, bit 2: z) of the six faces, in order around each.
const BOX_FACES: [[usize; 4]; 6] = [
    [0, 2, 6, 4],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 1, 3, 2],
    [4, 5, 7, 6],
];

impl Polytope {
    /// The box's polytope; empty when the box is.
    pub fn from_aabb(b: &Aabb) -> Polytope {
        if b.is_empty() {
            return Polytope::default();
        }
        Self::from_corners(b.corners())
    }

    pub fn from_obb(o: &Obb) -> Polytope {
        if o.half_extents.iter().any(|h| !(*h >= 0.0)) {
            return Polytope::default();
        }
        Self::from_corners(o.corners())
    }

    fn from_corners(c: [Point3; 8]) -> Polytope {
        Polytope {
            faces: BOX_FACES
                .iter()
                .map(|f| f.iter().map(|&i| c[i]).collect())
                .collect(),
        }
    }

    /// The polytope `min[i] ≤ axes[i] · x ≤ max[i]` of any slab list whose first three
    /// directions are independent (a `trace::Volume::Kdop`, rotated or not): the
    /// parallelepiped of the first three slabs, cut by the others. `None` when the first three
    /// directions are dependent or the lists disagree in length.
    pub fn from_slabs(axes: &[Vec3], min: &[Real], max: &[Real]) -> Option<Polytope> {
        if axes.len() < 3 || min.len() != axes.len() || max.len() != axes.len() {
            return None;
        }
        let m = crate::geom::Mat3::from_rows(&[
            axes[0].transpose(),
            axes[1].transpose(),
            axes[2].transpose(),
        ]);
        let inv = m.try_inverse()?;
        if (0..3).any(|i| !(min[i] <= max[i])) {
            return Some(Polytope::default());
        }
        let corners: [Point3; 8] = std::array::from_fn(|k| {
            let pick = |i: usize| if k & (1 << i) == 0 { min[i] } else { max[i] };
            Point3::from(inv * Vec3::new(pick(0), pick(1), pick(2)))
        });
        let mut p = Self::from_corners(corners);
        for i in 3..axes.len() {
            p.clip(&axes[i], max[i]);
            p.clip(&-axes[i], -min[i]);
        }
        Some(p)
    }

    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// Every face's boundary as segments (shared edges come once per face), for drawing.
    pub fn edges(&self) -> impl Iterator<Item = (Point3, Point3)> + '_ {
        self.faces
            .iter()
            .flat_map(|f| (0..f.len()).map(move |i| (f[i], f[(i + 1) % f.len()])))
    }

    fn scale(&self) -> Real {
        self.faces
            .iter()
            .flatten()
            .map(|p| p.coords.abs().max())
            .fold(0.0, Real::max)
    }

    /// Keeps the part where `n · x ≤ d`.
    pub fn clip(&mut self, n: &Vec3, d: Real) {
        if self.faces.is_empty() {
            return;
        }
        let tol = 1e-12 * (self.scale() * n.norm() + d.abs());
        let mut cap: Vec<Point3> = Vec::new();
        let mut faces = Vec::with_capacity(self.faces.len() + 1);
        for face in &self.faces {
            let mut out = Vec::with_capacity(face.len() + 1);
            for (k, p) in face.iter().enumerate() {
                let q = &face[(k + 1) % face.len()];
                let (dp, dq) = (n.dot(&p.coords) - d, n.dot(&q.coords) - d);
                if dp <= tol {
                    out.push(*p);
                    if dp >= -tol {
                        cap.push(*p);
                    }
                }
                if (dp < -tol && dq > tol) || (dp > tol && dq < -tol) {
                    let x = p + (q - p) * (dp / (dp - dq));
                    out.push(x);
                    cap.push(x);
                }
            }
            if out.len() >= 3 {
                faces.push(out);
            }
        }
        if let Some(cap_face) = ordered_polygon(cap, n, tol) {
            faces.push(cap_face);
        }
        // A polytope needs at least four faces: anything less is a sliver or nothing.
        if faces.len() < 4 {
            faces.clear();
        }
        self.faces = faces;
    }

    fn centre(&self) -> Point3 {
        let (sum, count) = self
            .faces
            .iter()
            .flatten()
            .fold((Vec3::zeros(), 0usize), |(s, c), p| (s + p.coords, c + 1));
        Point3::from(sum / count.max(1) as Real)
    }

    pub fn volume(&self) -> Real {
        let r = self.centre();
        let mut v = 0.0;
        for f in &self.faces {
            for k in 1..f.len().saturating_sub(1) {
                v += (f[0] - r).dot(&scaled_normal(r, f[k], f[k + 1])).abs();
            }
        }
        v / 6.0
    }

    pub fn area(&self) -> Real {
        let mut a = 0.0;
        for f in &self.faces {
            for k in 1..f.len().saturating_sub(1) {
                a += scaled_normal(f[0], f[k], f[k + 1]).norm();
            }
        }
        a / 2.0
    }
}

/// The distinct points, ordered around their centre in the plane of normal `n`.
fn ordered_polygon(points: Vec<Point3>, n: &Vec3, tol: Real) -> Option<Vec<Point3>> {
    let mut distinct: Vec<Point3> = Vec::with_capacity(points.len());
    for p in points {
        if !distinct.iter().any(|q| (q - p).norm() <= tol.max(1e-300)) {
            distinct.push(p);
        }
    }
    if distinct.len() < 3 {
        return None;
    }
    let c = distinct.iter().map(|p| p.coords).sum::<Vec3>() / distinct.len() as Real;
    let u = n
        .cross(&if n.x.abs() < 0.9 {
            Vec3::x()
        } else {
            Vec3::y()
        })
        .try_normalize(1e-300)?;
    let v = n.cross(&u).try_normalize(1e-300)?;
    distinct.sort_by(|a, b| {
        let (da, db) = (a.coords - c, b.coords - c);
        da.dot(&v)
            .atan2(da.dot(&u))
            .total_cmp(&db.dot(&v).atan2(db.dot(&u)))
    });
    Some(distinct)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_cut_by_a_diagonal_plane() {
        let mut p = Polytope::from_aabb(&Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)));
        assert!((p.volume() - 1.0).abs() < 1e-12 && (p.area() - 6.0).abs() < 1e-12);
        // x + y + z ≤ 1: the corner tetrahedron, volume 1/6.
        p.clip(&Vec3::new(1.0, 1.0, 1.0), 1.0);
        assert!((p.volume() - 1.0 / 6.0).abs() < 1e-12, "{}", p.volume());
        let area = 1.5 + 3f64.sqrt() / 2.0;
        assert!((p.area() - area).abs() < 1e-12, "{}", p.area());
        p.clip(&Vec3::new(-1.0, -1.0, -1.0), -2.0);
        assert!(p.is_empty());
    }

    #[test]
    fn rotated_slabs_keep_their_volume() {
        use crate::bvh::volumes::{BoundingVolume, Kdop14};
        use crate::trace::Volume;
        let mut k = Kdop14::empty();
        for p in [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ] {
            k.grow(&Point3::from(p));
        }
        let pose = crate::geom::Pose::new(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.9, -0.4));
        let Volume::Kdop { axes, min, max } = k.to_world_volume(&pose) else {
            unreachable!()
        };
        let p = Polytope::from_slabs(&axes, &min, &max).unwrap();
        assert!((p.volume() - 1.0 / 6.0).abs() < 1e-12, "{}", p.volume());
        // every corner of the moved tetrahedron is inside
        for c in [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ] {
            let w = pose * Point3::from(c);
            assert!(
                axes.iter()
                    .zip(min.iter().zip(&max))
                    .all(|(a, (lo, hi))| a.dot(&w.coords) >= lo - 1e-9
                        && a.dot(&w.coords) <= hi + 1e-9)
            );
        }
    }
}
