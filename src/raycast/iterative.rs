//! The iterative ray cast (spec 002 §3.4, Algorithms 1 and 2): start from last step's hit
//! triangle and walk across the edge the ray's supporting line passes beyond, until the line
//! meets a triangle. Only the inner ray is walked; the outer ray shares `u, v` and only the
//! sign of `t` differs (§3.4.4, with the source's "v_i = u_e" corrected to `v_i = v_e`).

use super::adjacency::TriangleAdjacency;
use crate::geom::{Ray, Real, TriMesh};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterativeHit {
    pub triangle: u32,
    /// Signed parameter along the walked ray: `t >= 0` is a hit of the ray itself, `t < 0` a
    /// hit of the opposite ray (the outer ray when the inner one is walked).
    pub t: Real,
    pub u: Real,
    pub v: Real,
    /// Triangles tested on the way, this one included (the work the walk did).
    pub tested: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IterativeOutcome {
    /// The line meets `triangle` in front of the ray (`t >= 0`).
    Collision(IterativeHit),
    /// The line meets `triangle` behind the ray: a hit of the opposite ray.
    Prediction(IterativeHit),
    /// The walk used its iteration cap, reached a border, or the ray ran parallel to a
    /// triangle: the caller falls back to a complete cast.
    NotFound { iterations: u32, reason: WalkStop },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WalkStop {
    IterationCap,
    Border,
    Parallel,
    BadStart,
}

enum Located {
    Cross(usize),
    Inside { t: Real, u: Real, v: Real },
}

/// Möller–Trumbore without the final range rejection: the barycentrics choose the edge to
/// cross (Algorithm 2). None when the line is parallel to the triangle's plane.
fn locate(ray: &Ray, mesh: &TriMesh, triangle: u32) -> Option<Located> {
    let [i0, i1, i2] = mesh.triangles[triangle as usize];
    let (v0, v1, v2) = (
        mesh.vertices[i0 as usize],
        mesh.vertices[i1 as usize],
        mesh.vertices[i2 as usize],
    );
    let e1 = v1 - v0;
    let e2 = v2 - v0;
    let p = ray.dir.cross(&e2);
    let det = e1.dot(&p);
    // |det| ≤ 1e-14 |e1| |e2| |dir|, squared: the walk runs this once per triangle crossed,
    // and three square roots were a fifth of its time.
    let scale2 = e1.norm_squared() * e2.norm_squared() * ray.dir.norm_squared();
    if scale2 == 0.0 || det * det <= 1e-28 * scale2 {
        return None;
    }
    let inv = 1.0 / det;
    let s = ray.origin - v0;
    let u = s.dot(&p) * inv;
    let q = s.cross(&e1);
    let v = ray.dir.dot(&q) * inv;
    Some(if u < 0.0 {
        Located::Cross(0)
    } else if v < 0.0 {
        Located::Cross(1)
    } else if u + v > 1.0 {
        Located::Cross(2)
    } else {
        Located::Inside {
            t: e2.dot(&q) * inv,
            u,
            v,
        }
    })
}

/// Walks from `start`, crossing at most `max_iterations` edges.
pub fn iterative_cast(
    mesh: &TriMesh,
    adjacency: &TriangleAdjacency,
    ray: &Ray,
    start: u32,
    max_iterations: u32,
) -> IterativeOutcome {
    walk(mesh, adjacency, ray, start, max_iterations, |_| {})
}

/// The triangles the walk of [`iterative_cast`] tests, in order, and how it ended: the
/// walk is deterministic, so a debugger retraces a recorded walk from its start.
pub fn walk_path(
    mesh: &TriMesh,
    adjacency: &TriangleAdjacency,
    ray: &Ray,
    start: u32,
    max_iterations: u32,
) -> (Vec<u32>, IterativeOutcome) {
    let mut path = Vec::new();
    let outcome = walk(mesh, adjacency, ray, start, max_iterations, |t| {
        path.push(t)
    });
    (path, outcome)
}

fn walk(
    mesh: &TriMesh,
    adjacency: &TriangleAdjacency,
    ray: &Ray,
    start: u32,
    max_iterations: u32,
    mut visit: impl FnMut(u32),
) -> IterativeOutcome {
    if start as usize >= mesh.triangles.len() || adjacency.triangle_count() != mesh.triangles.len()
    {
        return IterativeOutcome::NotFound {
            iterations: 0,
            reason: WalkStop::BadStart,
        };
    }
    // The cap counts indirections (Algorithm 1): the start triangle is always tested, then at
    // most `max_iterations` edges are crossed, each followed by one more test.
    let mut triangle = start;
    for iteration in 0..=max_iterations {
        let tested = iteration + 1;
        visit(triangle);
        match locate(ray, mesh, triangle) {
            None => {
                return IterativeOutcome::NotFound {
                    iterations: tested,
                    reason: WalkStop::Parallel,
                };
            }
            Some(Located::Inside { t, u, v }) => {
                let hit = IterativeHit {
                    triangle,
                    t,
                    u,
                    v,
                    tested,
                };
                return if t >= 0.0 {
                    IterativeOutcome::Collision(hit)
                } else {
                    IterativeOutcome::Prediction(hit)
                };
            }
            Some(Located::Cross(edge)) => match adjacency.across(triangle, edge) {
                Some(next) => triangle = next,
                None => {
                    return IterativeOutcome::NotFound {
                        iterations: tested,
                        reason: WalkStop::Border,
                    };
                }
            },
        }
    }
    IterativeOutcome::NotFound {
        iterations: max_iterations.saturating_add(1),
        reason: WalkStop::IterationCap,
    }
}
