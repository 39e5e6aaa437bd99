//! The level as the engine builds it from the recorded scene: the tree (nodes, leaves,
//! brushes with bevels) and each brush's face polygons for drawing. Rebuilt once per session,
//! so every id an event carries resolves against the very structure the sweep walked.

use crate::bsp::face_tree::FaceTree;
use crate::bsp::{BspScene, BspTree, Child, Shape};
use crate::families::FamilySceneData;
use crate::geom::{Plane, Point3, Vec3};
use std::sync::Arc;

use super::FamilyContext;

/// The scene's level, resolved once.
pub struct Level {
    pub tree: Arc<BspTree>,
    pub shape: Shape,
    /// Per brush, per face (not bevels): the face's corners in order around it.
    pub faces: Vec<Vec<Vec<Point3>>>,
    /// Per node: its depth and the brushes referenced below it.
    pub node_info: Vec<NodeInfo>,
    /// Size of the level's bounds, to scale planes and arrows.
    pub extent: f64,
    /// The article's BSP by face insertion, of the level cut at the walker's start height.
    pub face_tree: FaceTree,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct NodeInfo {
    pub depth: u32,
    pub brushes_below: u32,
    pub leaves_below: u32,
    pub parent: Option<u32>,
}

/// What the view keeps between frames: the level of the session it was built for.
#[derive(Default)]
pub struct LevelCache {
    generation: Option<u64>,
    pub level: Option<Arc<Level>>,
    pub problem: Option<String>,
}

impl LevelCache {
    pub fn get(&mut self, cx: &FamilyContext) -> Option<Arc<Level>> {
        if self.generation != Some(cx.generation()) {
            self.generation = Some(cx.generation());
            self.level = None;
            self.problem = None;
            match bsp_scene(cx) {
                None => self.problem = Some("this scene has no BSP level".into()),
                Some(data) => match data.tree() {
                    Ok(tree) => {
                        self.level = Some(Arc::new(Level::new(tree, data.shape, data.start.y)));
                    }
                    Err(e) => self.problem = Some(format!("the level cannot be built: {e}")),
                },
            }
        }
        self.level.clone()
    }
}

/// The scene's BSP data, if the scene brings a level.
pub fn bsp_scene<'a>(cx: &FamilyContext<'a>) -> Option<&'a BspScene> {
    cx.scene_data().iter().find_map(|d| match d {
        FamilySceneData::Bsp(b) => Some(b),
        _ => None,
    })
}

impl Level {
    pub fn new(tree: BspTree, shape: Shape, cut: f64) -> Level {
        let face_tree = FaceTree::build(&tree, cut);
        let faces = tree
            .brushes
            .iter()
            .map(|b| {
                b.faces()
                    .iter()
                    .map(|p| face_polygon(p, &b.vertices))
                    .collect()
            })
            .collect();
        let (lo, hi) = tree.brushes.iter().fold(
            (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
            |(lo, hi), b| (lo.inf(&b.bounds.min.coords), hi.sup(&b.bounds.max.coords)),
        );
        let extent = if lo.x.is_finite() {
            (hi - lo).norm()
        } else {
            1.0
        };
        let mut level = Level {
            tree: Arc::new(tree),
            shape,
            faces,
            node_info: Vec::new(),
            extent: extent.max(1e-3),
            face_tree,
        };
        level.node_info = node_info(&level.tree);
        level
    }

    /// A brush's plane (faces first, then bevels), if the id is in range.
    pub fn plane(&self, brush: u32, plane: u16) -> Option<Plane> {
        self.tree
            .brushes
            .get(brush as usize)?
            .planes
            .get(plane as usize)
            .copied()
    }

    /// The nodes from the root down to `node`.
    pub fn path_to(&self, node: u32) -> Vec<u32> {
        let mut out = vec![node];
        let mut at = node;
        while let Some(p) = self.node_info.get(at as usize).and_then(|i| i.parent) {
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }
}

fn node_info(tree: &BspTree) -> Vec<NodeInfo> {
    let mut info = vec![NodeInfo::default(); tree.nodes.len()];
    // Children come after their parent in `nodes`: a reverse pass sums the subtrees.
    for (i, n) in tree.nodes.iter().enumerate() {
        for c in [n.front, n.back] {
            if let Child::Node(k) = c
                && let Some(ci) = info.get_mut(k as usize)
            {
                ci.parent = Some(i as u32);
            }
        }
    }
    for i in 0..info.len() {
        info[i].depth = info[i].parent.map_or(0, |p| info[p as usize].depth + 1);
    }
    for i in (0..tree.nodes.len()).rev() {
        let n = tree.nodes[i];
        let (mut brushes, mut leaves) = (0, 0);
        for c in [n.front, n.back] {
            match c {
                Child::Node(k) => {
                    brushes += info[k as usize].brushes_below;
                    leaves += info[k as usize].leaves_below;
                }
                Child::Leaf(l) => {
                    brushes += tree.leaves.get(l as usize).map_or(0, |l| l.count);
                    leaves += 1;
                }
            }
        }
        info[i].brushes_below = brushes;
        info[i].leaves_below = leaves;
    }
    info
}

/// The corners of a brush lying on `plane`, ordered around their centroid.
fn face_polygon(plane: &Plane, vertices: &[Point3]) -> Vec<Point3> {
    let scale = vertices.iter().map(|v| v.coords.amax()).fold(1.0, f64::max);
    let on: Vec<Point3> = vertices
        .iter()
        .filter(|v| plane.signed_distance(v).abs() <= 1e-7 * scale)
        .copied()
        .collect();
    if on.len() < 3 {
        return on;
    }
    let c = on.iter().fold(Vec3::zeros(), |s, p| s + p.coords) / on.len() as f64;
    let (u, v) = basis(&plane.normal);
    let mut with_angle: Vec<(f64, Point3)> = on
        .into_iter()
        .map(|p| {
            let d = p.coords - c;
            (d.dot(&v).atan2(d.dot(&u)), p)
        })
        .collect();
    with_angle.sort_by(|a, b| a.0.total_cmp(&b.0));
    with_angle.into_iter().map(|(_, p)| p).collect()
}

/// Two unit vectors spanning the plane orthogonal to `n`.
pub fn basis(n: &Vec3) -> (Vec3, Vec3) {
    let helper = if n.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = n.cross(&helper).normalize();
    (u, n.cross(&u))
}
