//! Brushes from a closed, possibly non-convex triangle mesh, through a classic solid-leaf
//! polygon BSP: each node splits space by a face's plane, faces straddling it are cut in two
//! (face splitting), and a side left with no faces is solid behind its last plane and empty
//! in front. Each solid cell, the intersection of the half-spaces down its path, is convex:
//! it becomes a brush, so meshes and brush levels share the sweep and the slide.

use super::Brush;
use crate::geom::closed_mesh::check_closed_mesh;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Plane, Point3, Real, Vec3};

/// How much one face split costs against one unit of imbalance when choosing a plane.
const SPLIT_COST: usize = 3;
/// Candidate planes tried per node (spread over the faces): bounded for large meshes.
const CANDIDATES: usize = 32;
/// Deeper than this the mesh is not a closed solid (or is pathological): stop.
const MAX_DEPTH: usize = 256;

#[derive(Clone, Debug)]
struct Face {
    points: Vec<Point3>,
    plane: Plane,
}

/// The brushes of a mesh and what building them cost.
#[derive(Clone, Debug)]
pub struct MeshBrushes {
    pub brushes: Vec<Brush>,
    /// Faces cut in two by a splitting plane.
    pub splits: usize,
    pub max_depth: usize,
}

/// Where a face lies against a splitting plane (also the face-insertion tree's).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Side {
    Front,
    Back,
    On,
    Both,
}

fn classify(face: &Face, plane: &Plane, eps: Real) -> Side {
    let (mut front, mut back) = (false, false);
    for p in &face.points {
        let d = plane.signed_distance(p);
        front |= d > eps;
        back |= d < -eps;
    }
    match (front, back) {
        (true, true) => Side::Both,
        (true, false) => Side::Front,
        (false, true) => Side::Back,
        (false, false) => Side::On,
    }
}

/// Cuts a convex face by a plane into its front and back parts.
fn split(face: &Face, plane: &Plane, eps: Real) -> (Face, Face) {
    let (mut front, mut back) = (Vec::new(), Vec::new());
    let n = face.points.len();
    for i in 0..n {
        let (a, b) = (face.points[i], face.points[(i + 1) % n]);
        let (da, db) = (plane.signed_distance(&a), plane.signed_distance(&b));
        if da >= -eps {
            front.push(a);
        }
        if da <= eps {
            back.push(a);
        }
        if (da > eps && db < -eps) || (da < -eps && db > eps) {
            let t = da / (da - db);
            let x = a + (b - a) * t;
            front.push(x);
            back.push(x);
        }
    }
    let part = |points| Face {
        points,
        plane: face.plane,
    };
    (part(front), part(back))
}

struct Builder {
    eps: Real,
    bounds: Vec<Plane>,
    out: MeshBrushes,
}

impl Builder {
    /// The splitter with the lowest `imbalance + SPLIT_COST × splits`.
    fn choose(&self, faces: &[Face]) -> usize {
        let stride = faces.len().div_ceil(CANDIDATES).max(1);
        let mut best = (usize::MAX, 0);
        for i in (0..faces.len()).step_by(stride) {
            let (mut nf, mut nb, mut ns) = (0usize, 0usize, 0usize);
            for f in faces {
                match classify(f, &faces[i].plane, self.eps) {
                    Side::Front => nf += 1,
                    Side::Back => nb += 1,
                    Side::Both => ns += 1,
                    Side::On => {}
                }
            }
            let score = nf.abs_diff(nb) + SPLIT_COST * ns;
            if score < best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    fn build(&mut self, faces: Vec<Face>, cell: &mut Vec<Plane>, behind: bool, depth: usize) {
        self.out.max_depth = self.out.max_depth.max(depth);
        if faces.is_empty() || depth >= MAX_DEPTH {
            if behind {
                let mut planes = cell.clone();
                planes.extend_from_slice(&self.bounds);
                // A sliver cell closes no volume: nothing to collide with.
                if let Ok(b) = Brush::from_planes(&planes) {
                    self.out.brushes.push(b);
                }
            }
            return;
        }
        let plane = faces[self.choose(&faces)].plane;
        let (mut front, mut back) = (Vec::new(), Vec::new());
        for f in faces {
            match classify(&f, &plane, self.eps) {
                Side::Front => front.push(f),
                Side::Back => back.push(f),
                // Faces on the plane are accounted for by it; facing away, they bound the
                // front side's solid.
                Side::On => {
                    if f.plane.normal.dot(&plane.normal) < 0.0 {
                        front.push(f);
                    }
                }
                Side::Both => {
                    self.out.splits += 1;
                    let (a, b) = split(&f, &plane, self.eps);
                    if a.points.len() >= 3 {
                        front.push(a);
                    }
                    if b.points.len() >= 3 {
                        back.push(b);
                    }
                }
            }
        }
        cell.push(Plane {
            normal: -plane.normal,
            d: -plane.d,
        });
        self.build(front, cell, false, depth + 1);
        cell.pop();
        cell.push(plane);
        self.build(back, cell, true, depth + 1);
        cell.pop();
    }
}

/// The convex brushes whose union is the solid a closed mesh encloses (triangles
/// counter-clockwise seen from outside). A mesh that is open, inconsistently oriented, flat
/// or inside out is refused ([`check_closed_mesh`]). Errors name the triangle or edge at
/// fault.
pub fn brushes_from_mesh(
    vertices: &[Point3],
    triangles: &[[u32; 3]],
) -> Result<MeshBrushes, String> {
    if let Some(i) = vertices
        .iter()
        .position(|v| !crate::geom::is_finite_point(v))
    {
        return Err(format!("vertex {i} is not finite"));
    }
    // Only a closed, consistently oriented mesh has an inside for the solid leaves to be.
    check_closed_mesh(vertices, triangles).map_err(|e| e.to_string())?;
    let mut faces = Vec::with_capacity(triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        let get = |k: u32| {
            vertices
                .get(k as usize)
                .copied()
                .ok_or(format!("triangle {t}: vertex {k} out of range"))
        };
        let (a, b, c) = (get(tri[0])?, get(tri[1])?, get(tri[2])?);
        // Degenerate triangles bound nothing.
        if let Some(plane) = Plane::from_point_normal(&a, &scaled_normal(a, b, c)) {
            faces.push(Face {
                points: vec![a, b, c],
                plane,
            });
        }
    }
    if faces.is_empty() {
        return Err("the mesh has no triangle with an area".into());
    }
    let (lo, hi) = vertices.iter().fold(
        (
            Vec3::repeat(Real::INFINITY),
            Vec3::repeat(Real::NEG_INFINITY),
        ),
        |(lo, hi), v| (lo.inf(&v.coords), hi.sup(&v.coords)),
    );
    let size = (hi - lo).amax().max(1e-9);
    let pad = size * 1e-3;
    let mut bounds = Vec::new();
    for (i, axis) in [Vec3::x(), Vec3::y(), Vec3::z()].into_iter().enumerate() {
        bounds.push(Plane {
            normal: axis,
            d: hi[i] + pad,
        });
        bounds.push(Plane {
            normal: -axis,
            d: -(lo[i] - pad),
        });
    }
    let mut b = Builder {
        eps: size * 1e-9,
        bounds,
        out: MeshBrushes {
            brushes: Vec::new(),
            splits: 0,
            max_depth: 0,
        },
    };
    b.build(faces, &mut Vec::new(), false, 0);
    Ok(b.out)
}
