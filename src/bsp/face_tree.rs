//! The BSP tree as the article builds it (spec 001 §2.3, its "bsp" figure of faces A–G): the
//! faces of a level inserted one by one, in order. A face that reaches an empty slot makes a
//! node of its plane; a face on a node's plane joins that node's list (facing the other way,
//! it goes on in front); a face across the plane is split in two, one part each side. At the
//! end an empty rear slot is a solid leaf and an empty front slot an empty leaf.
//!
//! Like the article's figures it works on a 2D cross-section: the level cut by a horizontal
//! plane, each brush a convex polygon whose edges are its faces there. The tree depends on
//! the insertion order (the brushes', then each brush's faces', as the level lists them).

use super::BspTree;
use super::mesh_bsp::Side;
use crate::geom::Real;

/// A point of the cross-section: (x, z).
pub type P2 = [Real; 2];

/// One face of the cross-section: an edge of a brush's polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct Face2 {
    /// The brush and its face (the engine's indices).
    pub brush: u32,
    pub plane: u16,
    pub a: P2,
    pub b: P2,
    /// The face's line: `n · p = d`, `n` unit and pointing out of the brush.
    pub n: P2,
    pub d: Real,
}

/// A child slot of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Node(u32),
    /// Behind the last plane on the way: inside matter.
    Solid,
    /// In front of it: outside.
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FaceNode {
    /// The face whose plane this node is (an index into [`FaceTree::faces`]).
    pub face: u32,
    /// Every face (or part of one) lying on the plane, facing the same way, the first included.
    pub on: Vec<u32>,
    pub front: Slot,
    pub rear: Slot,
}

/// The tree of a cross-section, and what building it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceTree {
    /// The faces in insertion order: face `k` is labelled [`label`]`(k)`.
    pub faces: Vec<Face2>,
    pub nodes: Vec<FaceNode>,
    pub root: Slot,
    /// Faces cut in two by a node's plane.
    pub splits: usize,
    /// The height of the cut.
    pub height: Real,
}

/// The label of face `k`: A, B, …, Z, AA, AB, …
pub fn label(k: usize) -> String {
    let mut k = k;
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (k % 26) as u8);
        if k < 26 {
            break;
        }
        k = k / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Relative tolerance of "on the line".
const ON: Real = 1e-9;
/// Far bounds of the half-plane clipping (the cross-sections are of closed brushes).
const FAR: Real = 1e7;

fn dot(a: P2, b: P2) -> Real {
    a[0] * b[0] + a[1] * b[1]
}

fn lerp(a: P2, b: P2, t: Real) -> P2 {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// The convex polygon `n · p <= d` over every line, by clipping a far square; each edge is
/// tagged with the line that made it (`None`: the square's).
fn polygon(lines: &[(P2, Real, u16)]) -> Vec<(P2, Option<u16>)> {
    let mut poly: Vec<(P2, Option<u16>)> = vec![
        ([-FAR, -FAR], None),
        ([FAR, -FAR], None),
        ([FAR, FAR], None),
        ([-FAR, FAR], None),
    ];
    for &(n, d, tag) in lines {
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            // Edge i runs from poly[i] to poly[i + 1] and carries poly[i]'s tag.
            let (a, ta) = poly[i];
            let (b, _) = poly[(i + 1) % poly.len()];
            let (da, db) = (dot(n, a) - d, dot(n, b) - d);
            if da <= 0.0 {
                // A corner on the line whose edge leaves the half-plane: the edge kept from
                // it runs along the line.
                out.push((a, if da == 0.0 && db > 0.0 { Some(tag) } else { ta }));
            }
            if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                let x = lerp(a, b, da / (da - db));
                // Leaving the half-plane, the edge that follows lies on the clipping line.
                out.push((x, if da < 0.0 { Some(tag) } else { ta }));
            }
        }
        poly = out;
        if poly.len() < 3 {
            return Vec::new();
        }
    }
    poly
}

/// The faces of the level's brushes cut at height `y`, brush by brush, each polygon's edges
/// in order; brushes the cut misses have none.
pub fn cross_section(tree: &BspTree, y: Real) -> Vec<Face2> {
    let mut out = Vec::new();
    for (bi, brush) in tree.brushes.iter().enumerate() {
        if !(brush.bounds.min.y < y && y < brush.bounds.max.y) {
            continue;
        }
        let lines: Vec<(P2, Real, u16)> = brush
            .faces()
            .iter()
            .enumerate()
            .filter_map(|(k, p)| {
                let len = (p.normal.x * p.normal.x + p.normal.z * p.normal.z).sqrt();
                (len > 1e-9).then(|| {
                    (
                        [p.normal.x / len, p.normal.z / len],
                        (p.d - p.normal.y * y) / len,
                        k as u16,
                    )
                })
            })
            .collect();
        let poly = polygon(&lines);
        for i in 0..poly.len() {
            let ((a, tag), (b, _)) = (poly[i], poly[(i + 1) % poly.len()]);
            let Some(tag) = tag else { continue };
            let Some(&(n, d, _)) = lines.iter().find(|l| l.2 == tag) else {
                continue;
            };
            if (b[0] - a[0]).hypot(b[1] - a[1]) > ON {
                out.push(Face2 {
                    brush: bi as u32,
                    plane: tag,
                    a,
                    b,
                    n,
                    d,
                });
            }
        }
    }
    out
}

struct Builder {
    faces: Vec<Face2>,
    nodes: Vec<FaceNode>,
    splits: usize,
    eps: Real,
}

impl Builder {
    fn side(&self, node: &FaceNode, f: &Face2) -> (Side, Real, Real) {
        let line = &self.faces[node.face as usize];
        let (da, db) = (dot(line.n, f.a) - line.d, dot(line.n, f.b) - line.d);
        let (front, back) = (
            da > self.eps || db > self.eps,
            da < -self.eps || db < -self.eps,
        );
        let side = match (front, back) {
            (true, true) => Side::Both,
            (true, false) => Side::Front,
            (false, true) => Side::Back,
            (false, false) => Side::On,
        };
        (side, da, db)
    }

    /// Inserts face `k` (its geometry in `f`: the whole face or a part) into the slot.
    fn insert(&mut self, slot: Option<u32>, k: u32, f: Face2) -> u32 {
        let Some(at) = slot else {
            self.nodes.push(FaceNode {
                face: k,
                on: vec![k],
                front: Slot::Empty,
                rear: Slot::Solid,
            });
            return self.nodes.len() as u32 - 1;
        };
        let node = self.nodes[at as usize].clone();
        let (side, da, db) = self.side(&node, &f);
        let line_n = self.faces[node.face as usize].n;
        match side {
            Side::On if dot(line_n, f.n) > 0.0 => self.nodes[at as usize].on.push(k),
            Side::Front | Side::On => self.descend(at, true, k, f),
            Side::Back => self.descend(at, false, k, f),
            Side::Both => {
                self.splits += 1;
                let x = lerp(f.a, f.b, da / (da - db));
                let (pa, pb) = (Face2 { b: x, ..f.clone() }, Face2 { a: x, ..f.clone() });
                let (front, back) = if da > 0.0 { (pa, pb) } else { (pb, pa) };
                self.descend(at, true, k, front);
                self.descend(at, false, k, back);
            }
        }
        at
    }

    fn descend(&mut self, at: u32, front: bool, k: u32, f: Face2) {
        let slot = {
            let n = &self.nodes[at as usize];
            match if front { n.front } else { n.rear } {
                Slot::Node(c) => Some(c),
                _ => None,
            }
        };
        let child = Slot::Node(self.insert(slot, k, f));
        let n = &mut self.nodes[at as usize];
        if front {
            n.front = child;
        } else {
            n.rear = child;
        }
    }
}

impl FaceTree {
    /// The tree of the level's cross-section at height `y`, faces inserted in order.
    pub fn build(tree: &BspTree, y: Real) -> FaceTree {
        Self::from_faces(cross_section(tree, y), y)
    }

    pub fn from_faces(faces: Vec<Face2>, height: Real) -> FaceTree {
        let scale = faces
            .iter()
            .flat_map(|f| [f.a, f.b])
            .fold(1.0, |m: Real, p| m.max(p[0].abs()).max(p[1].abs()));
        let mut b = Builder {
            faces,
            nodes: Vec::new(),
            splits: 0,
            eps: ON * scale,
        };
        let mut root = None;
        for k in 0..b.faces.len() {
            let f = b.faces[k].clone();
            root = Some(b.insert(root, k as u32, f));
        }
        FaceTree {
            faces: b.faces,
            nodes: b.nodes,
            root: root.map_or(Slot::Empty, Slot::Node),
            splits: b.splits,
            height,
        }
    }

    /// The leaf a point of the cross-section falls in (a point on a plane goes in front).
    pub fn classify(&self, p: P2) -> Slot {
        let mut at = self.root;
        while let Slot::Node(n) = at {
            let node = &self.nodes[n as usize];
            let f = &self.faces[node.face as usize];
            at = if dot(f.n, p) - f.d >= 0.0 {
                node.front
            } else {
                node.rear
            };
        }
        at
    }

    /// Solid and empty leaves.
    pub fn leaves(&self) -> (usize, usize) {
        let mut solid = 0;
        let mut empty = 0;
        for n in &self.nodes {
            for s in [n.front, n.rear] {
                match s {
                    Slot::Solid => solid += 1,
                    Slot::Empty => empty += 1,
                    Slot::Node(_) => {}
                }
            }
        }
        (solid, empty)
    }
}
