//! Closest ray hit through the hierarchy: the same answer as `TriMesh::cast_ray_brute_force`,
//! ties included (the smallest `t`, then the smallest triangle index), because every
//! triangle the brute force could return is reached: nodes are skipped only when the ray
//! enters their (slightly loosened) volume strictly after the best hit so far.

use super::BvhEvent;
use super::tree::Bvh;
use super::volumes::{BoundingVolume, slack_for};
use crate::geom::{Ray, RayHit, Real, TriMesh, Vec3};
use crate::trace::{BodyId, Probe, TraceEvent, Verdict};

impl<V: BoundingVolume> Bvh<V> {
    /// Closest hit with `t` in `[0, max_t]`; the ray is in the mesh's frame.
    pub fn cast_ray<P: Probe>(
        &self,
        mesh: &TriMesh,
        ray: &Ray,
        max_t: Real,
        body: BodyId,
        probe: &mut P,
    ) -> Option<RayHit> {
        assert!(self.fits_mesh(mesh), "tree used with another mesh");
        let slack = slack_for(
            self.root().volume.reach(),
            ray.origin.coords.abs().max(),
            &Vec3::zeros(),
        );
        let mut best: Option<RayHit> = None;
        let mut stack: Vec<(u32, Real)> = Vec::with_capacity(64);
        let step = |node: Option<u32>, triangle: Option<u32>, t: Option<Real>| {
            TraceEvent::new(
                if t.is_some() {
                    Verdict::Hit
                } else {
                    Verdict::Miss
                },
                BvhEvent::RayStep {
                    body,
                    origin: ray.origin,
                    dir: ray.dir,
                    node,
                    triangle,
                    t,
                },
            )
        };
        let root_entry = self.root().volume.ray_entry(ray, max_t, slack);
        crate::trace_event!(probe, step(Some(0), None, root_entry));
        if let Some(t) = root_entry {
            stack.push((0, t));
        }
        while let Some((id, entry)) = stack.pop() {
            if best.is_some_and(|b| entry > b.t) {
                continue;
            }
            let node = &self.nodes[id as usize];
            if node.is_leaf() {
                for &tri in self.leaf_triangles(id) {
                    let hit = hit_triangle(mesh, ray, max_t, tri);
                    crate::trace_event!(probe, step(None, Some(tri), hit.map(|h| h.t)));
                    if let Some(h) = hit
                        && best.is_none_or(|b| h.t < b.t || (h.t == b.t && h.triangle < b.triangle))
                    {
                        best = Some(h);
                    }
                }
                continue;
            }
            let limit = best.map_or(max_t, |b| b.t);
            let (l, r) = (id + 1, node.index);
            let tl = self.nodes[l as usize].volume.ray_entry(ray, limit, slack);
            let tr = self.nodes[r as usize].volume.ray_entry(ray, limit, slack);
            crate::trace_event!(probe, step(Some(l), None, tl));
            crate::trace_event!(probe, step(Some(r), None, tr));
            // Push the farther child first so the nearer one is searched first.
            match (tl, tr) {
                (Some(a), Some(b)) if a <= b => {
                    stack.push((r, b));
                    stack.push((l, a));
                }
                (Some(a), Some(b)) => {
                    stack.push((l, a));
                    stack.push((r, b));
                }
                (Some(a), None) => stack.push((l, a)),
                (None, Some(b)) => stack.push((r, b)),
                (None, None) => {}
            }
        }
        best
    }
}

/// The brute force's own per-triangle rule, for bit-identical hits.
fn hit_triangle(mesh: &TriMesh, ray: &Ray, max_t: Real, index: u32) -> Option<RayHit> {
    let tri = mesh.triangle(index as usize);
    let (t, _, _) = ray.intersect_triangle(&tri)?;
    if !(t >= 0.0 && t <= max_t) {
        return None;
    }
    Some(RayHit {
        t,
        triangle: index as usize,
        point: ray.at(t),
        normal: tri.normal().unwrap_or_default(),
    })
}
