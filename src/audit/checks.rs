//! The contact checks of one step: every pair whose boxes overlap goes through our exact
//! narrow phase, and what we find is set against what the engine reported for the pair.

use super::extent::overlap_along;
use super::finding::{Check, ContactView, Finding};
use super::options::AuditOptions;
use super::pair_scan::overlapping;
use crate::ccd::distance::{ShapeAt, signed_distance};
use crate::frame::Contact;
use crate::geom::{Aabb, Pose};
use crate::narrow::ContactPoint;
use crate::trace::{NoProbe, TraceRecorder};
use crate::world::World;
use std::collections::{HashMap, HashSet};

/// What the contact checks know of a step.
pub struct ContactStep<'a> {
    pub frame: u64,
    pub engine_frame: u64,
    /// Each collider's pose, `None` when its state is broken (not a number).
    pub poses: &'a [Option<Pose>],
    pub contacts: &'a [Contact],
    /// The engine's broad-phase pairs `(smaller, larger)`, when it sends them.
    pub pairs: Option<&'a HashSet<(u32, u32)>>,
}

/// What the checks need to know of the colliders besides their poses.
pub struct Colliders<'a> {
    pub world: &'a World,
    /// Pairs no engine makes contacts for: on one body, between two bodies that do not move
    /// on their own, a sensor.
    pub exempt: &'a dyn Fn(u32, u32) -> bool,
    /// A collider drawn as an approximation of its shape: no exact answer to compare with.
    pub approximate: &'a dyn Fn(u32) -> bool,
    pub name: &'a dyn Fn(u32) -> String,
    pub prediction_m: f64,
    /// The run's penetration tolerance: deeper overlaps are findings of their own.
    pub penetration_m: f64,
}

/// What the step's checks counted besides their findings.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counted {
    pub pairs_checked: u64,
    pub skipped_approximate: u64,
}

fn deepest(points: impl IntoIterator<Item = ContactView>) -> Option<ContactView> {
    points
        .into_iter()
        .max_by(|x, y| x.depth.total_cmp(&y.depth))
}

/// The engine's contacts by pair `(smaller, larger)`, normals turned to point from the
/// smaller id to the larger.
fn reported(contacts: &[Contact]) -> HashMap<(u32, u32), Vec<ContactView>> {
    let mut by_pair: HashMap<(u32, u32), Vec<ContactView>> = HashMap::new();
    for c in contacts {
        let normal = if c.a <= c.b { c.normal } else { -c.normal };
        by_pair
            .entry((c.a.min(c.b), c.a.max(c.b)))
            .or_default()
            .push(ContactView {
                point: c.point,
                normal,
                depth: c.depth,
            });
    }
    by_pair
}

fn view(p: &ContactPoint) -> ContactView {
    ContactView {
        point: p.point,
        normal: p.normal,
        depth: p.depth,
    }
}

pub fn contact_checks(
    step: &ContactStep,
    colliders: &Colliders,
    options: &AuditOptions,
    out: &mut Vec<Finding>,
) -> Counted {
    let boxes: Vec<Option<Aabb>> = step
        .poses
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let body = colliders.world.bodies.get(i)?;
            p.as_ref().map(|p| body.shape.aabb(p))
        })
        .collect();
    let theirs = reported(step.contacts);
    let mut counted = Counted::default();
    let mut seen = HashSet::new();
    // Pairs near enough for a contact within the prediction distance, not only touching
    // ones: a reported speculative contact is checked like a touching one.
    let near = colliders.prediction_m + options.depth_tolerance_m;
    for (i, j) in overlapping(&boxes, near) {
        if (colliders.exempt)(i, j) {
            continue;
        }
        let before = out.len();
        let touching_boxes = matches!(
            (boxes[i as usize], boxes[j as usize]),
            (Some(a), Some(b)) if a.intersects(&b)
        );
        if let Some(pairs) = step.pairs
            && options.runs(Check::BroadMiss)
            && touching_boxes
            && !pairs.contains(&(i, j))
            && !theirs.contains_key(&(i, j))
        {
            out.push(finding(
                step,
                colliders,
                Check::BroadMiss,
                (i, j),
                None,
                None,
                0.0,
            ));
        }
        if (colliders.approximate)(i) || (colliders.approximate)(j) {
            counted.skipped_approximate += 1;
            continue;
        }
        seen.insert((i, j));
        counted.pairs_checked += 1;
        pair_checks(step, colliders, options, (i, j), theirs.get(&(i, j)), out);
        attach_our_trace(step, colliders, options, (i, j), &mut out[before..]);
    }
    // Reported contacts of colliders whose boxes are not even near.
    let mut rest: Vec<(u32, u32)> = theirs
        .keys()
        .filter(|k| !seen.contains(*k))
        .copied()
        .collect();
    rest.sort_unstable();
    for (i, j) in rest {
        let known = |k: u32| step.poses.get(k as usize).is_some_and(Option::is_some);
        if !known(i) || !known(j) || (colliders.approximate)(i) || (colliders.approximate)(j) {
            continue;
        }
        counted.pairs_checked += 1;
        let before = out.len();
        apart_check(step, colliders, options, (i, j), &theirs[&(i, j)], out);
        attach_our_trace(step, colliders, options, (i, j), &mut out[before..]);
    }
    counted
}

/// The pair's findings get the trace of our narrow phase on it, run again with a recorder:
/// only pairs with a finding pay for it.
fn attach_our_trace(
    step: &ContactStep,
    colliders: &Colliders,
    options: &AuditOptions,
    (i, j): (u32, u32),
    findings: &mut [Finding],
) {
    if findings.is_empty() {
        return;
    }
    let mut recorder = TraceRecorder::default();
    let (_, sampled) = colliders.world.exact_contacts(
        (i, &pose(step, i)),
        (j, &pose(step, j)),
        colliders.prediction_m + options.depth_tolerance_m,
        &mut recorder,
    );
    let (trace, _) = recorder.take();
    for f in findings {
        f.our_trace.clone_from(&trace);
        // Our side of the comparison is then approximate, and the reader must know it.
        if let Some(s) = sampled {
            f.sentence += &format!(" (our contacts are approximate: {})", s.summary());
        }
    }
}

fn pose(step: &ContactStep, i: u32) -> Pose {
    step.poses[i as usize].unwrap_or_default()
}

/// One pair whose boxes overlap: missed, apart, depth and normal.
fn pair_checks(
    step: &ContactStep,
    colliders: &Colliders,
    options: &AuditOptions,
    (i, j): (u32, u32),
    theirs: Option<&Vec<ContactView>>,
    out: &mut Vec<Finding>,
) {
    let tol = options.depth_tolerance_m;
    let margin = colliders.prediction_m + tol;
    let (ours, _) = colliders.world.exact_contacts(
        (i, &pose(step, i)),
        (j, &pose(step, j)),
        margin,
        &mut NoProbe,
    );
    let our_deepest = deepest(ours.iter().map(view));
    if let Some(o) = our_deepest.filter(|o| o.depth > colliders.penetration_m)
        && options.runs(Check::DeepPenetration)
    {
        let their = theirs.and_then(|t| deepest(t.iter().copied()));
        let mut f = finding(
            step,
            colliders,
            Check::DeepPenetration,
            (i, j),
            Some(o),
            their,
            colliders.penetration_m,
        );
        f.theirs = their.map(|t| t.depth);
        f.sentence = format!(
            "{} and {} overlap by {:.4} m, deeper than the run's penetration tolerance {} m",
            (colliders.name)(i),
            (colliders.name)(j),
            o.depth,
            colliders.penetration_m
        );
        out.push(f);
    }
    let Some(theirs) = theirs else {
        if let Some(o) = our_deepest.filter(|o| o.depth > tol)
            && options.runs(Check::MissedContact)
        {
            out.push(finding(
                step,
                colliders,
                Check::MissedContact,
                (i, j),
                Some(o),
                None,
                tol,
            ));
        }
        return;
    };
    let their_deepest = deepest(theirs.iter().copied());
    let Some(o) = our_deepest else {
        apart_check(step, colliders, options, (i, j), theirs, out);
        return;
    };
    let Some(t) = their_deepest else { return };
    // Depths are compared where either side says the pair overlaps; a speculative contact
    // (apart on both sides) only has to be within the prediction distance, which the apart
    // check sees to.
    if options.runs(Check::Depth)
        && (o.depth > 0.0 || t.depth > 0.0)
        && (o.depth - t.depth).abs() > tol
    {
        out.push(finding(
            step,
            colliders,
            Check::Depth,
            (i, j),
            Some(o),
            Some(t),
            tol,
        ));
    }
    let angle = o.normal.angle(&t.normal).to_degrees();
    if options.runs(Check::Normal)
        && angle > options.normal_tolerance_deg
        && normal_is_worse(step, colliders, (i, j), &o, &t, tol)
    {
        out.push(finding(
            step,
            colliders,
            Check::Normal,
            (i, j),
            Some(o),
            Some(t),
            options.normal_tolerance_deg,
        ));
    }
}

/// Whether separating the pair along the engine's normal takes more than along ours, beyond
/// the tolerance: at an edge or a corner a whole cone of normals is right, and only one
/// outside it is wrong. For a mesh, whose overlap along a direction is not known, a normal
/// is judged only where the pair is deeper than the tolerance (a face's normal is then the
/// only right one).
fn normal_is_worse(
    step: &ContactStep,
    colliders: &Colliders,
    (i, j): (u32, u32),
    ours: &ContactView,
    theirs: &ContactView,
    tol: f64,
) -> bool {
    let bodies = &colliders.world.bodies;
    let (pa, pb) = (pose(step, i), pose(step, j));
    let (a, b) = (&bodies[i as usize].shape, &bodies[j as usize].shape);
    let along = |n| overlap_along((a, &pa), (b, &pb), n);
    match (along(&ours.normal), along(&theirs.normal)) {
        (Some(o), Some(t)) => t > o + tol,
        _ => ours.depth > tol && theirs.depth >= -tol,
    }
}

/// A reported contact whose colliders are further apart than the engine's own prediction
/// distance allows.
fn apart_check(
    step: &ContactStep,
    colliders: &Colliders,
    options: &AuditOptions,
    (i, j): (u32, u32),
    theirs: &[ContactView],
    out: &mut Vec<Finding>,
) {
    if !options.runs(Check::ApartContact) {
        return;
    }
    let bodies = &colliders.world.bodies;
    let (Some(a), Some(b)) = (bodies.get(i as usize), bodies.get(j as usize)) else {
        return;
    };
    let allowed = colliders.prediction_m + options.depth_tolerance_m;
    let cap = 1e3_f64.max(allowed * 2.0);
    let (pose_a, pose_b) = (pose(step, i), pose(step, j));
    let side = |shape, pose, body| ShapeAt {
        shape,
        pose,
        tree: colliders.world.tree(body),
    };
    let Some(distance) =
        signed_distance(side(&a.shape, &pose_a, i), side(&b.shape, &pose_b, j), cap)
    else {
        return;
    };
    if distance > allowed {
        let their = deepest(theirs.iter().copied());
        let mut f = finding(
            step,
            colliders,
            Check::ApartContact,
            (i, j),
            None,
            their,
            options.depth_tolerance_m,
        );
        f.ours = Some(-distance);
        f.sentence = format!(
            "the engine reported a contact between {} and {}, which are {distance:.4} m apart: \
             more than its prediction distance {:.4} m plus the tolerance {:.4} m",
            (colliders.name)(i),
            (colliders.name)(j),
            colliders.prediction_m,
            options.depth_tolerance_m
        );
        out.push(f);
    }
}

fn finding(
    step: &ContactStep,
    colliders: &Colliders,
    check: Check,
    (i, j): (u32, u32),
    ours: Option<ContactView>,
    theirs: Option<ContactView>,
    tolerance: f64,
) -> Finding {
    let (a, b) = ((colliders.name)(i), (colliders.name)(j));
    let (ours_v, theirs_v, sentence) = match check {
        Check::MissedContact => (
            ours.map(|o| o.depth),
            None,
            format!(
                "{a} and {b} overlap by {:.4} m and the engine reported no contact (tolerance \
                 {tolerance} m)",
                ours.map_or(0.0, |o| o.depth)
            ),
        ),
        Check::Depth => {
            let (o, t) = (
                ours.map_or(0.0, |o| o.depth),
                theirs.map_or(0.0, |t| t.depth),
            );
            (
                Some(o),
                Some(t),
                format!(
                    "{a} – {b}: the engine's deepest contact is {t:.4} m deep, ours {o:.4} m: \
                     {:.4} m apart (tolerance {tolerance} m)",
                    (o - t).abs()
                ),
            )
        }
        Check::Normal => {
            let angle = match (ours, theirs) {
                (Some(o), Some(t)) => o.normal.angle(&t.normal).to_degrees(),
                _ => 0.0,
            };
            (
                Some(0.0),
                Some(angle),
                format!(
                    "{a} – {b}: the engine's contact normal is {angle:.2}° from ours \
                     (tolerance {tolerance}°)"
                ),
            )
        }
        _ => (
            None,
            None,
            format!(
                "the bounding boxes of {a} and {b} overlap and the engine's broad phase did not \
                 report the pair"
            ),
        ),
    };
    Finding {
        check,
        frame: step.frame,
        engine_frame: step.engine_frame,
        bodies: vec![i, j],
        engine_ids: vec![a, b],
        ours: ours_v,
        theirs: theirs_v,
        tolerance,
        our_contact: ours,
        their_contact: theirs,
        sentence,
        our_trace: Vec::new(),
    }
}
