//! A hierarchy of any volume kind, chosen at run time (by a query's `bv`, a scene, the
//! viewer's selector): one enum, each method dispatching to the generic tree.

use super::build_options::BuildOptions;
use super::metrics::{TreeStats, TreeSummary};
use super::traverse::{Posed, TraversalResult, TraverseOptions, traverse};
use super::tree::Bvh;
use super::volumes::{BvKind, Kdop14, Kdop18, Kdop26};
use crate::geom::{Aabb, Obb, Pose, Ray, RayHit, Real, Sphere, TriMesh};
use crate::trace::{BodyId, Probe, Volume};

#[derive(Clone, Debug)]
pub enum AnyBvh {
    Aabb(Bvh<Aabb>),
    Obb(Bvh<Obb>),
    Sphere(Bvh<Sphere>),
    Kdop14(Bvh<Kdop14>),
    Kdop18(Bvh<Kdop18>),
    Kdop26(Bvh<Kdop26>),
}

macro_rules! each {
    ($self:expr, $t:ident => $body:expr) => {
        match $self {
            AnyBvh::Aabb($t) => $body,
            AnyBvh::Obb($t) => $body,
            AnyBvh::Sphere($t) => $body,
            AnyBvh::Kdop14($t) => $body,
            AnyBvh::Kdop18($t) => $body,
            AnyBvh::Kdop26($t) => $body,
        }
    };
}
pub(crate) use each;

impl AnyBvh {
    pub fn build(mesh: &TriMesh, kind: BvKind, options: &BuildOptions) -> AnyBvh {
        match kind {
            BvKind::Aabb => AnyBvh::Aabb(Bvh::build(mesh, options)),
            BvKind::Obb => AnyBvh::Obb(Bvh::build(mesh, options)),
            BvKind::Sphere => AnyBvh::Sphere(Bvh::build(mesh, options)),
            BvKind::Kdop14 => AnyBvh::Kdop14(Bvh::build(mesh, options)),
            BvKind::Kdop18 => AnyBvh::Kdop18(Bvh::build(mesh, options)),
            BvKind::Kdop26 => AnyBvh::Kdop26(Bvh::build(mesh, options)),
        }
    }

    pub fn kind(&self) -> BvKind {
        match self {
            AnyBvh::Aabb(_) => BvKind::Aabb,
            AnyBvh::Obb(_) => BvKind::Obb,
            AnyBvh::Sphere(_) => BvKind::Sphere,
            AnyBvh::Kdop14(_) => BvKind::Kdop14,
            AnyBvh::Kdop18(_) => BvKind::Kdop18,
            AnyBvh::Kdop26(_) => BvKind::Kdop26,
        }
    }

    pub fn node_count(&self) -> usize {
        each!(self, t => t.nodes().len())
    }

    pub fn children(&self, id: u32) -> Option<(u32, u32)> {
        each!(self, t => t.children(id))
    }

    pub fn leaf_triangles(&self, id: u32) -> &[u32] {
        each!(self, t => t.leaf_triangles(id))
    }

    pub fn node_volume(&self, id: u32) -> Option<Volume> {
        each!(self, t => t.node_volume(id))
    }

    pub fn node_world_volume(&self, id: u32, pose: &Pose) -> Option<Volume> {
        each!(self, t => t.node_world_volume(id, pose))
    }

    pub fn summary(&self) -> TreeSummary {
        each!(self, t => t.summary())
    }

    pub fn stats_with_tests(&self, tested: &[u32]) -> TreeStats {
        each!(self, t => t.stats_with_tests(tested))
    }

    pub fn refit<P: Probe>(&mut self, mesh: &TriMesh, pose: &Pose, body: BodyId, probe: &mut P) {
        each!(self, t => t.refit(mesh, pose, body, probe))
    }

    pub fn cast_ray<P: Probe>(
        &self,
        mesh: &TriMesh,
        ray: &Ray,
        max_t: Real,
        body: BodyId,
        probe: &mut P,
    ) -> Option<RayHit> {
        each!(self, t => t.cast_ray(mesh, ray, max_t, body, probe))
    }

    pub fn memory_bytes(&self) -> usize {
        each!(self, t => t.memory_bytes())
    }
}

/// One side of a mesh–mesh query with run-time volume kinds.
#[derive(Clone, Copy, Debug)]
pub struct AnyPosed<'a> {
    pub mesh: &'a TriMesh,
    pub tree: &'a AnyBvh,
    pub pose: &'a Pose,
    pub body: BodyId,
}

/// Traverses two trees of the same kind; `None` when their kinds differ.
pub fn traverse_any<P: Probe>(
    a: &AnyPosed<'_>,
    b: &AnyPosed<'_>,
    options: TraverseOptions,
    probe: &mut P,
) -> Option<TraversalResult> {
    macro_rules! go {
        ($ta:expr, $tb:expr) => {
            Some(traverse(
                &Posed {
                    mesh: a.mesh,
                    tree: $ta,
                    pose: a.pose,
                    body: a.body,
                },
                &Posed {
                    mesh: b.mesh,
                    tree: $tb,
                    pose: b.pose,
                    body: b.body,
                },
                options,
                probe,
            ))
        };
    }
    match (a.tree, b.tree) {
        (AnyBvh::Aabb(x), AnyBvh::Aabb(y)) => go!(x, y),
        (AnyBvh::Obb(x), AnyBvh::Obb(y)) => go!(x, y),
        (AnyBvh::Sphere(x), AnyBvh::Sphere(y)) => go!(x, y),
        (AnyBvh::Kdop14(x), AnyBvh::Kdop14(y)) => go!(x, y),
        (AnyBvh::Kdop18(x), AnyBvh::Kdop18(y)) => go!(x, y),
        (AnyBvh::Kdop26(x), AnyBvh::Kdop26(y)) => go!(x, y),
        _ => None,
    }
}
