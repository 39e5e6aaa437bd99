//! The article's collision search and slide as written (spec 001 §7.3 and §8.7), kept beside
//! the corrected ones so that the viewer can run a scene with either and show each defect
//! next to its correction: the minimum entering fraction over a brush's planes (an early hit
//! on a plane's extension, a phantom hit past a convex corner), a start inside solid that
//! reaches the solid leaf with nothing stored (no impact), unclamped fractions (a start
//! inside the skin moves back), the position not written when `MAX_IMPACT` runs out, and the
//! crease of one wall met twice (a normalised zero vector: NaN).
//!
//! Each brush is stored as the article describes one (§2.2): its face planes one behind the
//! other down to a solid leaf, every front child an empty leaf. The planes are the level's as
//! written (the engine makes their normals unit; the article does not) and there are no
//! bevels (the article has none). The article's tree of a whole level
//! cannot be rebuilt (its figure is lost), so the level's brushes are searched in turn, each
//! with a fresh `iBrush`, into one shared `impact`; within a brush the search is the
//! article's, line for line: the two fractions, `iBrush` saved after a straddled node and
//! restored after its rear traversal, the strict front and back tests.

use super::clip::MIN_DISTANCE;
use super::event::{BspEvent, SlideBranch, SlideEnd, report};
use super::slide::{MAX_IMPACT, MIN_MOVE};
use super::{BspTree, Shape};
use crate::geom::{Plane, Point3, Real, Vec3};
use crate::trace::{Probe, Verdict};

/// A node of the article's tree, by index into [`ArticleTree::nodes`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArticleNode {
    /// The face `plane` of brush `brush` (the engine's index), as the level wrote it, and the
    /// node's front and rear children.
    Node {
        brush: u32,
        plane: u16,
        raw: Plane,
        front: u32,
        rear: u32,
    },
    /// Inside `brush`.
    Solid {
        brush: u32,
    },
    Empty,
}

/// Every brush of a level as the article stores one: a chain of its planes.
#[derive(Clone, Debug, PartialEq)]
pub struct ArticleTree {
    pub nodes: Vec<ArticleNode>,
    /// Per brush, the node of its first plane.
    pub roots: Vec<u32>,
}

/// The empty leaf every front child points to.
const EMPTY: u32 = 0;

impl ArticleTree {
    /// The chains of the tree's brushes' faces; `written` is the level as the scene gives it
    /// (per brush, its planes), whose unnormalised planes the article uses as they are.
    pub fn chains(tree: &BspTree, written: &[Vec<Plane>]) -> ArticleTree {
        let mut nodes = vec![ArticleNode::Empty];
        let mut roots = Vec::with_capacity(tree.brushes.len());
        for (b, brush) in tree.brushes.iter().enumerate() {
            let raw = written.get(b).map_or(&[][..], |w| &w[..]);
            let b = b as u32;
            nodes.push(ArticleNode::Solid { brush: b });
            let mut rear = nodes.len() as u32 - 1;
            for (p, face) in brush.faces().iter().enumerate().rev() {
                nodes.push(ArticleNode::Node {
                    brush: b,
                    plane: p as u16,
                    raw: as_written(face, raw),
                    front: EMPTY,
                    rear,
                });
                rear = nodes.len() as u32 - 1;
            }
            roots.push(rear);
        }
        ArticleTree { nodes, roots }
    }
}

/// The plane of `written` that the engine's unit `face` came from (same direction, same
/// place once scaled), or the face itself.
fn as_written(face: &Plane, written: &[Plane]) -> Plane {
    written
        .iter()
        .filter_map(|q| {
            let len = q.normal.norm();
            (len > 0.0 && (q.normal / len).dot(&face.normal) > 1.0 - 1e-9)
                .then(|| ((q.d / len - face.d).abs(), *q))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(gap, _)| *gap <= 1e-9 * (1.0 + face.d.abs()))
        .map_or(*face, |(_, q)| q)
}

/// The article's `Impact`: the two fractions and the plane that gave them (the article keeps
/// a pointer to its normal; `None` until one is stored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArticleImpact {
    pub plane: Option<(u32, u16)>,
    pub normal: Option<Vec3>,
    pub frac_impact: Real,
    pub frac_real: Real,
}

impl ArticleImpact {
    /// `clearImpact`: both fractions 1 (the article leaves the normal as it was).
    pub fn cleared(self) -> ArticleImpact {
        ArticleImpact {
            frac_impact: 1.0,
            frac_real: 1.0,
            ..self
        }
    }

    pub fn none() -> ArticleImpact {
        ArticleImpact {
            plane: None,
            normal: None,
            frac_impact: 1.0,
            frac_real: 1.0,
        }
    }

    /// `isImpact`: a real fraction below 1.
    pub fn is_impact(&self) -> bool {
        self.frac_real < 1.0
    }
}

/// The recursion of `getCollision` as a work list (a brush may have thousands of planes):
/// visit a node, or put back the `iBrush` saved at a straddled node.
enum Work {
    Visit(u32),
    Restore(ArticleImpact),
}

/// `getCollision(shape, node, impact, iBrush)` from `root`, as written.
#[allow(clippy::too_many_arguments)]
pub fn get_collision<P: Probe + ?Sized>(
    tree: &ArticleTree,
    root: u32,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
    impact: &mut ArticleImpact,
    ibrush: &mut ArticleImpact,
    probe: &mut P,
) {
    let mut work = vec![Work::Visit(root)];
    while let Some(w) = work.pop() {
        let node = match w {
            Work::Restore(saved) => {
                *ibrush = saved;
                continue;
            }
            Work::Visit(n) => tree.nodes[n as usize],
        };
        match node {
            ArticleNode::Empty => *ibrush = ibrush.cleared(),
            ArticleNode::Solid { brush } => {
                let nearer = ibrush.frac_real < impact.frac_real;
                if nearer {
                    *impact = *ibrush;
                }
                report(
                    probe,
                    if nearer { Verdict::Hit } else { Verdict::Info },
                    BspEvent::ArticleLeaf {
                        brush,
                        plane: ibrush.plane.map(|(_, p)| p),
                        frac_impact: ibrush.frac_impact,
                        frac_real: ibrush.frac_real,
                        nearer,
                    },
                );
                *ibrush = ibrush.cleared();
            }
            ArticleNode::Node {
                brush,
                plane,
                raw: pl,
                front,
                rear,
            } => {
                let d1 = pl.signed_distance(start);
                let d2 = pl.signed_distance(end);
                let offset = shape.offset(&pl.normal);
                let offset2 = shape.offset(&-pl.normal);
                if d1 > offset && d2 > offset {
                    work.push(Work::Visit(front));
                } else if d1 < -offset2 && d2 < -offset2 {
                    work.push(Work::Visit(rear));
                } else {
                    let (d1r, d2r) = (d1 - offset, d2 - offset);
                    let f_reelle = d1r / (d1r - d2r);
                    let saved = if d1 > d2 && f_reelle < ibrush.frac_real {
                        let (d1i, d2i) = (d1 - MIN_DISTANCE - offset, d2 - MIN_DISTANCE - offset);
                        *ibrush = ArticleImpact {
                            plane: Some((brush, plane)),
                            normal: Some(pl.normal),
                            frac_impact: d1i / (d1i - d2i),
                            frac_real: f_reelle,
                        };
                        *ibrush
                    } else {
                        *ibrush
                    };
                    // Popped in reverse: rear, then the restore, then front.
                    work.push(Work::Visit(front));
                    work.push(Work::Restore(saved));
                    work.push(Work::Visit(rear));
                }
            }
        }
    }
}

/// The article's search over a whole level: every brush's chain in turn into one `impact`.
pub fn article_sweep<P: Probe + ?Sized>(
    tree: &ArticleTree,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
    probe: &mut P,
) -> ArticleImpact {
    let mut impact = ArticleImpact::none();
    for &root in &tree.roots {
        // `iBrush.reset(pos1, pos2)` before the search: fractions 1.
        let mut ibrush = ArticleImpact::none();
        get_collision(
            tree,
            root,
            shape,
            start,
            end,
            &mut impact,
            &mut ibrush,
            probe,
        );
    }
    impact
}

/// The result of the article's slide. `end` is `None` when the position it writes is not a
/// number (the NaN crease).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArticleSlide {
    pub end: Option<Point3>,
    pub collided: bool,
    pub reason: SlideEnd,
    pub iterations: u8,
}

/// The article's `slide` (spec 001 §8.7), as written, on any search returning the article's
/// impact: fractions as they come (a negative impact fraction moves back), the normals kept
/// as given (the same wall twice gives a crease of a zero vector), and when `MAX_IMPACT`
/// searches are used up the position is not written: the shape stays at `start`. The trace
/// stops at the first NaN (reason `NotFinite`) rather than record it.
pub fn article_slide<P: Probe + ?Sized>(
    start: &Point3,
    velocity: &Vec3,
    probe: &mut P,
    mut collide: impl FnMut(&Point3, &Point3, &mut P) -> ArticleImpact,
) -> ArticleSlide {
    let finish = |end: Option<Point3>, collided, reason, iterations: usize, probe: &mut P| {
        report(
            probe,
            Verdict::Info,
            BspEvent::End {
                reason,
                iterations: iterations as u8,
            },
        );
        ArticleSlide {
            end,
            collided,
            reason,
            iterations: iterations as u8,
        }
    };
    let mut normals: Vec<Vec3> = Vec::with_capacity(MAX_IMPACT);
    let mut is_collision = false;
    let mut pos1 = *start;
    let mut trajet = *velocity;
    let mut frac: Real = 1.0;
    for iteration in 0..MAX_IMPACT {
        let pos2 = pos1 + trajet;
        let impact = collide(&pos1, &pos2, probe);
        let event = |normals: usize, reset, branch, next| BspEvent::Iteration {
            index: iteration as u8,
            start: pos1,
            remaining: trajet,
            hit: impact.plane.filter(|_| impact.is_impact()),
            frac_impact: impact.frac_impact,
            frac_real: impact.frac_real,
            normals: normals as u8,
            reset,
            branch,
            next,
        };
        if !impact.is_impact() {
            report(
                probe,
                Verdict::Info,
                event(0, false, SlideBranch::Free, trajet),
            );
            return finish(
                Some(pos2),
                is_collision,
                SlideEnd::NoImpact,
                iteration + 1,
                probe,
            );
        }
        is_collision = true;
        frac -= frac * impact.frac_impact;
        let mv = (pos2 - pos1) * impact.frac_impact;
        let reset = mv.norm() > MIN_MOVE;
        if reset {
            normals.clear();
        }
        // The article stores the plane's normal with the fraction: a stored impact has one.
        normals.push(impact.normal.unwrap_or_else(Vec3::zeros));
        let (branch, direction) = direction(velocity, &normals);
        let ev = |next| event(normals.len(), reset, branch, next);
        let Some(direction) = direction else {
            report(probe, Verdict::Hit, ev(Vec3::zeros()));
            return finish(
                Some(pos1 + mv),
                true,
                SlideEnd::Corner,
                iteration + 1,
                probe,
            );
        };
        let next = direction * frac;
        if !next.iter().all(|c| c.is_finite()) {
            report(probe, Verdict::Warning, ev(Vec3::zeros()));
            return finish(None, true, SlideEnd::NotFinite, iteration + 1, probe);
        }
        report(probe, Verdict::Hit, ev(next));
        pos1 += mv;
        trajet = next;
        if velocity.dot(&trajet) < 0.0 {
            return finish(Some(pos1), true, SlideEnd::Reversed, iteration + 1, probe);
        }
        if trajet.norm() < MIN_MOVE {
            return finish(Some(pos1), true, SlideEnd::TooShort, iteration + 1, probe);
        }
    }
    // "Normally this line is not reached": the position is not written.
    finish(
        Some(*start),
        is_collision,
        SlideEnd::MaxIterations,
        MAX_IMPACT,
        probe,
    )
}

/// The projection loop of §8.5 as written: no duplicate check, the crease normalised blindly.
fn direction(velocity: &Vec3, normals: &[Vec3]) -> (SlideBranch, Option<Vec3>) {
    if let Some((i, along)) = super::slide::free_wall(velocity, normals) {
        return (SlideBranch::Wall(i as u8), Some(along));
    }
    if normals.len() == 2 {
        let edge = normals[0].cross(&normals[1]).normalize();
        return (SlideBranch::Crease, Some(edge * edge.dot(velocity)));
    }
    (SlideBranch::Corner, None)
}

/// The article's slide through a level with the article's search.
pub fn slide<P: Probe + ?Sized>(
    tree: &ArticleTree,
    shape: &Shape,
    start: &Point3,
    velocity: &Vec3,
    probe: &mut P,
) -> ArticleSlide {
    article_slide(start, velocity, probe, |a, b, probe| {
        article_sweep(tree, shape, a, b, probe)
    })
}
