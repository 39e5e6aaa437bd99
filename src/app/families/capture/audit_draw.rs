//! The audit's findings of the shown step in the 3D view: our contact beside the engine's
//! (both points, both normals, each depth as a bar along its normal, side by side so that
//! equal points do not hide one another), labelled "ours" and "engine"; a tunnelling body's
//! path between the two steps; a body whose state is not finite, named in red. The finding's
//! sentence is a label over it.

use crate::app::families::{FamilyContext, Focus};
use crate::app::viewport::draw_list::{DrawList, Label, Rgba};
use crate::app::views::colors;
use crate::audit::{Check, ContactView, Finding};
use crate::geom::{Point3, Vec3};
use crate::trace::BodyId;

/// Our contact points and the engine's are drawn this many pixels across.
pub const FINDING_PX: f32 = 14.0;

/// Draws the findings of the frame under the playhead; returns the points to frame the camera
/// on, those of `picked` (an index in the audit's list) first when it is at this frame.
pub fn overlay(
    cx: &FamilyContext,
    picked: Option<usize>,
    length_m: f64,
    list: &mut DrawList,
) -> Vec<[f64; 3]> {
    let (Some(session), Some(frame)) = (cx.session(), cx.frame()) else {
        return Vec::new();
    };
    let Some(audit) = session.audit.as_ref() else {
        return Vec::new();
    };
    let mut focus = Vec::new();
    for (i, f) in audit.at_frame(frame.index) {
        let points = finding(cx, f, length_m, list);
        if picked == Some(i) {
            focus = points;
        }
    }
    focus
}

fn finding(cx: &FamilyContext, f: &Finding, length_m: f64, list: &mut DrawList) -> Vec<[f64; 3]> {
    let mut points = Vec::new();
    let side = side_of(f);
    for (view, color, who, sign) in [
        (f.our_contact, colors::OURS, "ours", -1.0),
        (f.their_contact, colors::ENGINE, "engine", 1.0),
    ] {
        if let Some(c) = view {
            contact(&c, color, who, side * sign * 0.08 * length_m, length_m, list);
            points.push(c.point.coords.into());
        }
    }
    if f.our_contact.is_some() && f.their_contact.is_none()
        && let Some(c) = f.our_contact
    {
        label(list, c.point - c.normal * 0.4 * length_m, "engine: no contact", colors::ENGINE);
    }
    match f.check {
        Check::Tunnelling => points.extend(path(cx, f, list)),
        Check::NonFinite | Check::Exploding => points.extend(named_in_red(cx, f, list)),
        Check::BroadMiss => points.extend(centres_line(cx, f, list)),
        _ => {}
    }
    // The sentence over what it is about, in its check's colour.
    if let Some(top) = highest(&points) {
        let at = Point3::new(top[0], top[1] + 0.9 * length_m, top[2]);
        label(list, at, &wrap(&f.sentence, 60), colors::audit(f.check));
    }
    points
}

/// One side's contact: its point, its normal, its depth as a bar along the normal (into the
/// first collider), shifted sideways by `offset`.
fn contact(c: &ContactView, color: Rgba, who: &str, offset: Vec3, length_m: f64, list: &mut DrawList) {
    list.point(&c.point, FINDING_PX, color);
    let n = c.normal.try_normalize(1e-12).unwrap_or(Vec3::y());
    list.arrow(&c.point, &(n * length_m), color);
    let base = c.point + offset;
    if c.depth.is_finite() && c.depth.abs() > 1e-9 {
        list.bar(&base, &(base - n * c.depth), 0.03 * length_m, color);
    }
    let text = format!("{who}: depth {:.4} m", c.depth);
    label(list, c.point + n * length_m * 1.1 + offset * 4.0, &text, color);
}

/// A direction across the pair's normals, to set the two sides' bars apart.
fn side_of(f: &Finding) -> Vec3 {
    let n = f
        .our_contact
        .or(f.their_contact)
        .map_or(Vec3::y(), |c| c.normal);
    let across = n.cross(&Vec3::z());
    let across = if across.norm() < 1e-6 { n.cross(&Vec3::x()) } else { across };
    across.try_normalize(1e-12).unwrap_or(Vec3::x())
}

/// A tunnelling body's centre at the step before and at this one, joined.
fn path(cx: &FamilyContext, f: &Finding, list: &mut DrawList) -> Vec<[f64; 3]> {
    let (Some(&body), Some(session), Some(frame)) = (f.bodies.first(), cx.session(), cx.frame())
    else {
        return Vec::new();
    };
    let Some(previous) = frame
        .index
        .checked_sub(1)
        .and_then(|p| session.frame(p as usize).ok())
    else {
        return Vec::new();
    };
    let (Some(a), Some(b)) = (previous.body(body), frame.body(body)) else {
        return Vec::new();
    };
    let color = colors::audit(Check::Tunnelling);
    list.line_on_top(
        crate::app::viewport::draw_list::to_f32(&a.position),
        crate::app::viewport::draw_list::to_f32(&b.position),
        color,
    );
    list.point(&a.position, FINDING_PX, color);
    list.point(&b.position, FINDING_PX, color);
    let name = cx.body_name(body);
    label(list, a.position, &format!("{name}, step {}", previous.index), color);
    label(list, b.position, &format!("{name}, step {}", frame.index), color);
    vec![a.position.coords.into(), b.position.coords.into()]
}

/// The body whose state broke, named in red where it last was finite.
fn named_in_red(cx: &FamilyContext, f: &Finding, list: &mut DrawList) -> Vec<[f64; 3]> {
    let (Some(&body), Some(session), Some(frame)) = (f.bodies.first(), cx.session(), cx.frame())
    else {
        return Vec::new();
    };
    let finite = |p: &Point3| p.iter().all(|c| c.is_finite());
    let here = frame.body(body).map(|b| b.position).filter(finite);
    let before = || {
        let p = frame.index.checked_sub(1)?;
        let previous = session.frame(p as usize).ok()?;
        previous.body(body).map(|b| b.position).filter(finite)
    };
    let Some(at) = here.or_else(before) else {
        return Vec::new();
    };
    let text = format!("{} — {}", cx.body_name(body), f.check.name());
    label(list, at, &text, colors::WARNING);
    list.point(&at, FINDING_PX, colors::WARNING);
    vec![at.coords.into()]
}

/// A pair the engine's broad phase did not report: a line between the two bodies.
fn centres_line(cx: &FamilyContext, f: &Finding, list: &mut DrawList) -> Vec<[f64; 3]> {
    let Some(frame) = cx.frame() else {
        return Vec::new();
    };
    let centre = |b: &BodyId| frame.body(*b).map(|s| s.position);
    let ends: Vec<Point3> = f.bodies.iter().filter_map(centre).collect();
    if let [a, b] = ends[..] {
        let color = colors::audit(f.check);
        list.line_on_top(
            crate::app::viewport::draw_list::to_f32(&a),
            crate::app::viewport::draw_list::to_f32(&b),
            color,
        );
    }
    ends.iter().map(|p| p.coords.into()).collect()
}

fn highest(points: &[[f64; 3]]) -> Option<[f64; 3]> {
    points
        .iter()
        .copied()
        .filter(|p| p.iter().all(|c| c.is_finite()))
        .reduce(|a, b| if b[1] > a[1] { b } else { a })
}

fn label(list: &mut DrawList, at: Point3, text: &str, color: Rgba) {
    list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text: text.to_string(),
        color,
    });
}

/// Breaks a long sentence into lines of about `width` characters, at spaces.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.chars().count();
    }
    out
}

/// The camera around a finding's points, with room for its labels.
pub fn focus(points: &[[f64; 3]], length_m: f64) -> Option<Focus> {
    Focus::around(points, 2.5 * length_m)
}
