//! A rigid body as the ray-traced narrow phase sees it, in its local frame: a rigid mesh
//! never changes there, so its hierarchy, adjacency, vertex normals and exit distances are
//! computed once.

use crate::bvh::{BuildOptions, Bvh};
use crate::geom::closed_mesh::check_closed_mesh;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Point3, Ray, Real, Shape, TriMesh, Vec3};
use crate::raycast::TriangleAdjacency;
use crate::trace::NoProbe;

#[derive(Clone, Debug)]
pub struct RayMesh {
    pub mesh: TriMesh,
    pub bvh: Bvh<Aabb>,
    pub adjacency: TriangleAdjacency,
    /// Area-weighted unit vertex normals (the thesis leaves the weighting open); `None` where
    /// the incident triangles cancel out: such a vertex casts no ray. At a vertex so sharp
    /// that the opposite of that normal leaves the body at once, the angle-weighted normal or
    /// the direction from the body's centre replaces it (see `new`).
    pub normals: Vec<Option<Vec3>>,
    /// Unit outward normal of each triangle (`None` for a degenerate one).
    pub triangle_normals: Vec<Option<Vec3>>,
    /// How far each vertex's inner ray runs inside its own body before leaving it (Hermann's
    /// first condition); 0 when it starts outside (a sharp vertex, where the opposite of the
    /// mean normal leaves the body), infinite when it never leaves (an open mesh).
    pub exit_m: Vec<Real>,
    pub local_box: Aabb,
    /// Distance from the body's origin to its farthest vertex: Eq. 4.2's radius.
    pub radius_m: Real,
    pub mean_triangle_m: Real,
    /// Closed, consistently oriented, positive volume: Hermann's test needs an inside.
    pub closed: bool,
}

impl RayMesh {
    /// The ray mesh of a triangle mesh, box or convex hull; `None` for round shapes, which
    /// keep their analytic tests.
    pub fn of_shape(shape: &Shape) -> Option<RayMesh> {
        match shape {
            Shape::Mesh(mesh) => Some(Self::new((**mesh).clone())),
            Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => Some(Self::new(TriMesh {
                vertices: polyhedron.vertices.clone(),
                triangles: polyhedron.triangles(),
            })),
            Shape::Sphere { .. } | Shape::Capsule { .. } => None,
        }
    }

    pub fn new(mesh: TriMesh) -> RayMesh {
        let bvh = Bvh::build(&mesh, &BuildOptions::default());
        let adjacency = TriangleAdjacency::build(&mesh.triangles);
        let closed = check_closed_mesh(&mesh.vertices, &mesh.triangles).is_ok();
        let mut sums = vec![Vec3::zeros(); mesh.vertices.len()];
        let mut triangle_normals = Vec::with_capacity(mesh.triangles.len());
        let mut perimeter = 0.0;
        for tri in &mesh.triangles {
            let [a, b, c] = tri.map(|i| mesh.vertices[i as usize]);
            // Twice the area along the normal: summing these weighs faces by area.
            let n = scaled_normal(a, b, c);
            for &i in tri {
                sums[i as usize] += n;
            }
            triangle_normals.push(n.try_normalize(1e-300));
            perimeter += (b - a).norm() + (c - b).norm() + (a - c).norm();
        }
        let normals: Vec<Option<Vec3>> = sums.iter().map(|n| n.try_normalize(1e-300)).collect();
        let radius_m = mesh
            .vertices
            .iter()
            .map(|p| p.coords.norm())
            .fold(0.0, Real::max);
        let mut out = RayMesh {
            local_box: mesh.aabb(),
            mean_triangle_m: perimeter / (3 * mesh.triangles.len()).max(1) as Real,
            exit_m: Vec::new(),
            mesh,
            bvh,
            adjacency,
            normals,
            triangle_normals,
            radius_m,
            closed,
        };
        let angle_weighted = angle_weighted_normals(&out.mesh);
        out.exit_m = vec![0.0; out.mesh.vertices.len()];
        for (v, angle_weighted) in angle_weighted.into_iter().enumerate() {
            out.exit_m[v] = out.exit_distance(v);
            if out.exit_m[v] > 0.0 || !out.closed {
                continue;
            }
            // At a sharp vertex (a needle of a hull) the opposite of the area-weighted normal
            // can leave the body at once: its inner ray could never collide, and the vertex
            // would sink unseen. Try the angle-weighted normal, then the way from the body's
            // centre, and keep the first whose ray runs inside.
            let from_centre = out.mesh.vertices[v].coords.try_normalize(1e-12);
            for candidate in [angle_weighted, from_centre].into_iter().flatten() {
                let kept = out.normals[v];
                out.normals[v] = Some(candidate);
                out.exit_m[v] = out.exit_distance(v);
                if out.exit_m[v] > 0.0 {
                    break;
                }
                out.normals[v] = kept;
            }
        }
        out
    }

    /// The first hit of vertex `v`'s inner ray on its own mesh, past the triangles around
    /// `v` (which the ray leaves at `t = 0`): cast from a hair inside, then measured from `v`.
    /// At a sharp vertex the opposite of the mean normal may point out of the body: the
    /// first hit is then the outer side of a face (or nothing), and the ray leaves at once.
    fn exit_distance(&self, v: usize) -> Real {
        let Some(n) = self.normals[v] else {
            return 0.0;
        };
        // A ray through a vertex or along an edge can slip between the triangles there (a
        // torus' rays run in the planes of its rings of edges) and miss the face it leaves
        // by, to meet a farther one. A slip only ever loses the nearest face, so the ray is
        // cast a hair aside as well, across both directions normal to it (a shift along an
        // edge's line stays on it), and the nearest first hit of all of them decides.
        let side = n
            .cross(&Vec3::x())
            .try_normalize(1e-6)
            .unwrap_or_else(|| n.cross(&Vec3::y()).normalize());
        let across = n.cross(&side);
        let hair = 1e-9 * (1.0 + self.radius_m);
        let asides = [
            Vec3::zeros(),
            side * 1e-7,
            -side * 1e-7,
            across * 1e-7,
            (side * 2.0 - across) * 1.5e-7,
        ];
        let nearest = asides
            .iter()
            .filter_map(|aside| {
                let p = self.mesh.vertices[v] + aside * (1.0 + self.radius_m);
                self.first_hit(v, p, n, hair)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        match nearest {
            Some((t, true)) => t,
            Some((_, false)) => 0.0,
            None if self.closed => 0.0,
            None => Real::INFINITY,
        }
    }

    /// The first face the ray from `p` (at vertex `v`) along `-n` meets past the triangles
    /// around `v`: its distance, and whether the ray ran inside to it (it leaves by the
    /// face's inner side). `None` when nothing is hit.
    fn first_hit(&self, v: usize, p: Point3, n: Vec3, hair: Real) -> Option<(Real, bool)> {
        let mut from = hair;
        // Rounding may still report a triangle around `v` a hair ahead: step past it.
        for _ in 0..4 {
            let ray = Ray::new(p - n * from, -n);
            let h = self
                .bvh
                .cast_ray(&self.mesh, &ray, Real::MAX, 0, &mut NoProbe)?;
            if self.mesh.triangles[h.triangle].contains(&(v as u32)) {
                from += h.t + hair;
                continue;
            }
            return Some((h.t + from, h.normal.dot(&ray.dir) > 0.0));
        }
        Some((0.0, false))
    }
}

/// Each vertex's normal weighted by the angle of each incident triangle at it: symmetric
/// where the area weighting depends on how faces were split into triangles.
fn angle_weighted_normals(mesh: &TriMesh) -> Vec<Option<Vec3>> {
    let mut sums = vec![Vec3::zeros(); mesh.vertices.len()];
    for tri in &mesh.triangles {
        let p = tri.map(|i| mesh.vertices[i as usize]);
        let Some(n) = scaled_normal(p[0], p[1], p[2]).try_normalize(1e-300) else {
            continue;
        };
        for k in 0..3 {
            let (a, b) = (p[(k + 1) % 3] - p[k], p[(k + 2) % 3] - p[k]);
            sums[tri[k] as usize] += n * a.angle(&b);
        }
    }
    sums.iter().map(|n| n.try_normalize(1e-300)).collect()
}
