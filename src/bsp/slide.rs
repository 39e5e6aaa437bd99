use super::event::{BspEvent, SlideBranch, SlideEnd, report};
use super::sweep::{Sweep, sweep};
use super::{BspTree, Shape};
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{Probe, Verdict};

/// Collision searches per slide (spec 001 §5).
pub const MAX_IMPACT: usize = 5;
/// A move to an impact longer than this forgets older walls; a remaining path shorter than
/// this ends the slide. Twice `MIN_DISTANCE`, as the article advises.
pub const MIN_MOVE: Real = 0.02;

/// Normals closer than this are the same wall: its crease would have no direction.
const SAME_WALL: Real = 1.0 - 1e-9;

/// The result of one slide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    pub end: Point3,
    pub collided: bool,
    pub reason: SlideEnd,
    pub iterations: u8,
}

/// Moves `shape` from `start` by `velocity` through the tree, sliding along the walls it hits.
pub fn slide<P: Probe + ?Sized>(
    tree: &BspTree,
    shape: &Shape,
    start: &Point3,
    velocity: &Vec3,
    probe: &mut P,
) -> Slide {
    slide_with(start, velocity, probe, |p1, p2, probe| {
        sweep(tree, shape, p1, p2, probe)
    })
}

/// The slide on any collision search that returns an impact fraction and a normal (the
/// article's point: the response does not depend on the structure).
///
/// Fixed against the article (spec 001 §8.8, §13.2): the last impact point is kept when
/// `MAX_IMPACT` runs out; fractions are clamped, so a start inside the skin never moves back;
/// a start inside solid stays put and says so; the same wall twice is one wall, and walls
/// with no crease between them (parallel) stop instead of giving NaN.
pub fn slide_with<P: Probe + ?Sized>(
    start: &Point3,
    velocity: &Vec3,
    probe: &mut P,
    mut collide: impl FnMut(&Point3, &Point3, &mut P) -> Sweep,
) -> Slide {
    let mut pos = *start;
    let mut remaining = *velocity;
    let mut frac: Real = 1.0;
    let mut normals: [Vec3; MAX_IMPACT] = [Vec3::zeros(); MAX_IMPACT];
    let mut count = 0usize;
    let mut collided = false;
    let finish = |pos: Point3, collided, reason, iterations: usize, probe: &mut P| {
        report(
            probe,
            Verdict::Info,
            BspEvent::End {
                reason,
                iterations: iterations as u8,
            },
        );
        Slide {
            end: pos,
            collided,
            reason,
            iterations: iterations as u8,
        }
    };
    if !velocity.iter().all(|c| c.is_finite()) || velocity.norm_squared() == 0.0 {
        return finish(pos, false, SlideEnd::Still, 0, probe);
    }
    for iteration in 0..MAX_IMPACT {
        let target = pos + remaining;
        let found = collide(&pos, &target, probe);
        let Some(hit) = found.hit else {
            report(
                probe,
                Verdict::Info,
                iteration_event(
                    iteration,
                    pos,
                    remaining,
                    &found,
                    0,
                    false,
                    SlideBranch::Free,
                    remaining,
                ),
            );
            return finish(target, collided, SlideEnd::NoImpact, iteration + 1, probe);
        };
        collided = true;
        if found.start_solid {
            report(
                probe,
                Verdict::Warning,
                iteration_event(
                    iteration,
                    pos,
                    remaining,
                    &found,
                    0,
                    false,
                    SlideBranch::StartSolid,
                    Vec3::zeros(),
                ),
            );
            return finish(pos, true, SlideEnd::StartSolid, iteration + 1, probe);
        }
        let f = hit.frac_impact.clamp(0.0, 1.0);
        let step = remaining * f;
        frac -= frac * f;
        let reset = step.norm() > MIN_MOVE;
        if reset {
            count = 0;
        }
        if !normals[..count]
            .iter()
            .any(|n| n.dot(&hit.normal) > SAME_WALL)
        {
            normals[count] = hit.normal;
            count += 1;
        }
        pos += step;

        let (branch, direction) = new_direction(velocity, &normals[..count]);
        let next = direction.map(|d| d * frac);
        report(
            probe,
            Verdict::Hit,
            iteration_event(
                iteration,
                pos - step,
                remaining,
                &found,
                count,
                reset,
                branch,
                next.unwrap_or_else(Vec3::zeros),
            ),
        );
        let Some(next) = next else {
            return finish(pos, true, SlideEnd::Corner, iteration + 1, probe);
        };
        if velocity.dot(&next) < 0.0 {
            return finish(pos, true, SlideEnd::Reversed, iteration + 1, probe);
        }
        if next.norm() < MIN_MOVE {
            return finish(pos, true, SlideEnd::TooShort, iteration + 1, probe);
        }
        remaining = next;
    }
    finish(pos, collided, SlideEnd::MaxIterations, MAX_IMPACT, probe)
}

/// The first wall whose projection of `velocity` heads into none of the other walls, with
/// that projection (shared by the engine's slide and the article's as written).
pub(super) fn free_wall(velocity: &Vec3, normals: &[Vec3]) -> Option<(usize, Vec3)> {
    normals.iter().enumerate().find_map(|(i, ni)| {
        let along = velocity - ni * velocity.dot(ni);
        let blocked = normals
            .iter()
            .enumerate()
            .any(|(j, nj)| j != i && along.dot(nj) < 0.0);
        (!blocked).then_some((i, along))
    })
}

/// The article's projection step (Quake's `SV_FlyMove`): the velocity projected on a wall
/// that heads into none of the others, else along the crease of two, else stop.
fn new_direction(velocity: &Vec3, normals: &[Vec3]) -> (SlideBranch, Option<Vec3>) {
    if let Some((i, along)) = free_wall(velocity, normals) {
        return (SlideBranch::Wall(i as u8), Some(along));
    }
    if normals.len() == 2
        && let Some(edge) = normals[0].cross(&normals[1]).try_normalize(1e-9)
    {
        return (SlideBranch::Crease, Some(edge * edge.dot(velocity)));
    }
    (SlideBranch::Corner, None)
}

#[allow(clippy::too_many_arguments)]
fn iteration_event(
    index: usize,
    start: Point3,
    remaining: Vec3,
    found: &Sweep,
    normals: usize,
    reset: bool,
    branch: SlideBranch,
    next: Vec3,
) -> BspEvent {
    BspEvent::Iteration {
        index: index as u8,
        start,
        remaining,
        hit: found.hit.map(|h| (h.brush, h.plane)),
        frac_impact: found.fraction(),
        frac_real: found.contact_fraction(),
        normals: normals as u8,
        reset,
        branch,
        next,
    }
}
