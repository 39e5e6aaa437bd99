//! Closest ray hit through the hierarchy: the same answer as `TriMesh::cast_ray_brute_force`,
//! ties included (the smallest `t`, then the smallest triangle index), because every
//! triangle the brute force could return is reached: nodes are skipped only when the ray
//! enters their (slightly loosened) volume strictly after the best hit so far.

use super::BvhEvent;
use super::ray_nodes::{LeafTriangle, NodeBox, RayF32, RayNodes, walk, within};
use super::tree::Bvh;
use super::volumes::{BoundingVolume, slack_for};
use crate::geom::inline_stack::InlineStack;
use crate::geom::{Ray, RayHit, Real, TriMesh, Vec3};
use crate::trace::{BodyId, Probe, TraceEvent, Verdict, Volume};

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
        if !probe.enabled()
            && let Some(nodes) = self.ray_nodes.get_or_init(|| self.compact_copy(mesh))
            && let Some(fast) = RayF32::new(ray, nodes)
        {
            return self.cast_ray_compact(ray, max_t, slack, nodes, &fast);
        }
        let inv = ray.inverse_dir();
        // The best hit as (t, triangle): its point and normal are made once, at the end.
        let mut best: Option<(Real, u32)> = None;
        // Nodes waiting, with their entry parameter.
        let mut stack = InlineStack::<(u32, Real), 64>::new((0, 0.0));
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
        let root_entry = self.root().volume.ray_entry_inv(ray, &inv, max_t, slack);
        crate::trace_event!(probe, step(Some(0), None, root_entry));
        if let Some(t) = root_entry {
            stack.push((0, t));
        }
        while let Some((id, entry)) = stack.pop() {
            if best.is_some_and(|(t, _)| entry > t) {
                continue;
            }
            let node = &self.nodes[id as usize];
            if node.is_leaf() {
                for &tri in self.leaf_triangles(id) {
                    let hit = hit_t(mesh, ray, max_t, tri);
                    crate::trace_event!(probe, step(None, Some(tri), hit));
                    if let Some(t) = hit
                        && best.is_none_or(|(bt, btri)| t < bt || (t == bt && tri < btri))
                    {
                        best = Some((t, tri));
                    }
                }
                continue;
            }
            let limit = best.map_or(max_t, |(t, _)| t);
            let (l, r) = (id + 1, node.index);
            let tl = self.nodes[l as usize]
                .volume
                .ray_entry_inv(ray, &inv, limit, slack);
            let tr = self.nodes[r as usize]
                .volume
                .ray_entry_inv(ray, &inv, limit, slack);
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
        best.map(|(t, tri)| ray_hit(mesh, ray, t, tri))
    }

    /// The untraced cast over the compact copy: the same hit, with the same tie rule.
    fn cast_ray_compact(
        &self,
        ray: &Ray,
        max_t: Real,
        slack: Real,
        nodes: &RayNodes,
        fast: &RayF32,
    ) -> Option<RayHit> {
        self.root().volume.ray_entry(ray, max_t, slack)?;
        // The copy's triangle makes the hit's normal: the mesh's corners are not read again.
        let mut best: Option<(Real, &LeafTriangle)> = None;
        walk(nodes, fast, max_t, |leaf| {
            for t in leaf {
                if let Some(hit) = t.hit_t(ray, max_t)
                    && best.is_none_or(|(bt, b)| hit < bt || (hit == bt && t.index() < b.index()))
                {
                    best = Some((hit, t));
                }
            }
            best.map_or(max_t, |(t, _)| t)
        });
        best.map(|(t, tri)| hit_of(ray, t, tri.index(), tri.normal()))
    }
}

impl<V: BoundingVolume> Bvh<V> {
    /// The compact copy for ray casts, for a hierarchy of boxes with triangles.
    fn compact_copy(&self, mesh: &TriMesh) -> Option<RayNodes> {
        if self.primitives.is_empty() {
            return None;
        }
        let tree = self
            .nodes
            .iter()
            .map(|n| match n.volume.to_volume() {
                Volume::Aabb(aabb) => Some(NodeBox {
                    aabb,
                    count: n.count,
                    index: n.index,
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        RayNodes::of(&tree, &self.primitives, mesh, self.root().volume.reach())
    }
}

fn ray_hit(mesh: &TriMesh, ray: &Ray, t: Real, tri: u32) -> RayHit {
    hit_of(ray, t, tri, mesh.triangle(tri as usize).normal())
}

fn hit_of(ray: &Ray, t: Real, index: u32, normal: Option<Vec3>) -> RayHit {
    RayHit {
        t,
        triangle: index as usize,
        point: ray.at(t),
        normal: normal.unwrap_or_default(),
    }
}

/// The brute force's own per-triangle rule, for bit-identical hits: `t` in `[0, max_t]`.
#[inline]
fn hit_t(mesh: &TriMesh, ray: &Ray, max_t: Real, index: u32) -> Option<Real> {
    let (t, _, _) = ray.intersect_triangle(&mesh.triangle(index as usize))?;
    within(t, max_t)
}
