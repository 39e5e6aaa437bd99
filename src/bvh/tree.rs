//! The hierarchy: a flat array of nodes in depth-first (pre-)order.
//!
//! **Node ids** are indices into that array: the root is 0, an internal node's left child is
//! the next node and its right child is named by the node. Ids stay the same through refits
//! (the viewer's selection survives a deforming mesh); a rebuild numbers the nodes afresh.

use super::build_options::BuildOptions;
use super::volumes::BoundingVolume;
use crate::geom::{Pose, TriMesh};
use crate::trace::Volume;

#[derive(Clone, Debug, PartialEq)]
pub struct Node<V> {
    pub volume: V,
    /// Internal node: the id of the right child (the left child is `id + 1`).
    /// Leaf: the position of its first triangle in [`Bvh::primitives`].
    pub index: u32,
    /// Leaf: its number of triangles (at least one, unless the mesh is empty).
    /// Internal node: 0.
    pub count: u32,
}

impl<V> Node<V> {
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

#[derive(Clone, Debug)]
pub struct Bvh<V> {
    pub(crate) nodes: Vec<Node<V>>,
    /// Triangle indices, grouped by leaf: a subtree's triangles are one contiguous run.
    pub(crate) primitives: Vec<u32>,
    pub(crate) options: BuildOptions,
    /// The mesh's triangle count at build time, to catch a tree used with another mesh.
    pub(crate) triangle_count: usize,
    /// The compact copy ray casts walk, made at the first cast; reset by a refit.
    pub(crate) ray_nodes: std::sync::OnceLock<Option<super::ray_nodes::RayNodes>>,
}

impl<V: BoundingVolume> Bvh<V> {
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    pub fn nodes(&self) -> &[Node<V>] {
        &self.nodes
    }

    pub fn node(&self, id: u32) -> Option<&Node<V>> {
        self.nodes.get(id as usize)
    }

    pub fn root(&self) -> &Node<V> {
        &self.nodes[0]
    }

    pub fn primitives(&self) -> &[u32] {
        &self.primitives
    }

    /// True when the tree was built for a mesh with as many triangles as `mesh`.
    pub fn fits_mesh(&self, mesh: &TriMesh) -> bool {
        self.triangle_count == mesh.triangles.len()
    }

    /// The two children of an internal node.
    pub fn children(&self, id: u32) -> Option<(u32, u32)> {
        let n = self.node(id)?;
        (!n.is_leaf()).then_some((id + 1, n.index))
    }

    /// The triangles of a leaf (empty for an internal node).
    #[inline]
    pub fn leaf_triangles(&self, id: u32) -> &[u32] {
        match self.node(id) {
            Some(n) if n.is_leaf() => {
                let start = n.index as usize;
                &self.primitives[start..start + n.count as usize]
            }
            _ => &[],
        }
    }

    /// Every node's parent (`None` for the root).
    pub fn parents(&self) -> Vec<Option<u32>> {
        let mut parents = vec![None; self.nodes.len()];
        for (id, n) in self.nodes.iter().enumerate() {
            if !n.is_leaf() {
                parents[id + 1] = Some(id as u32);
                parents[n.index as usize] = Some(id as u32);
            }
        }
        parents
    }

    /// Every node's depth (the root's is 0). Parents come before children in the array.
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.nodes.len()];
        for (id, n) in self.nodes.iter().enumerate() {
            if !n.is_leaf() {
                depth[id + 1] = depth[id] + 1;
                depth[n.index as usize] = depth[id] + 1;
            }
        }
        depth
    }

    /// The volume of a node for drawing, in the mesh's frame.
    pub fn node_volume(&self, id: u32) -> Option<Volume> {
        self.node(id).map(|n| n.volume.to_volume())
    }

    /// The volume of a node for drawing, in the world.
    pub fn node_world_volume(&self, id: u32, pose: &Pose) -> Option<Volume> {
        self.node(id).map(|n| n.volume.to_world_volume(pose))
    }

    /// Bytes held by the tree (nodes and triangle list).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.nodes.capacity() * std::mem::size_of::<Node<V>>()
            + self.primitives.capacity() * std::mem::size_of::<u32>()
    }
}
