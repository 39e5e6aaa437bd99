//! The captured step in the 3D view: contact points, their normals, normal-impulse arrows
//! (the step's largest impulse drawn a readable length, the scale said in the panel), lines
//! between the colliders of each broad-phase pair (touching or not), rings around the bodies
//! whose continuous collision is active, and the bodies of the event under the scrubber.

use super::data::{self, ContactRow};
use crate::app::families::{FamilyContext, Focus};
use crate::app::viewport::draw_list::{DrawList, Label, Rgba, to_f32};
use crate::app::views::colors;
use crate::capture::{CaptureFrame, CaptureScene};
use crate::geom::{Point3, Vec3};
use crate::record::Frame;
use crate::trace::BodyId;
use serde::{Deserialize, Serialize};

pub const CONTACT: Rgba = colors::CONTACT;
pub const NORMAL: Rgba = colors::NORMAL;
pub const IMPULSE: Rgba = [1.0, 0.35, 0.2, 1.0];
pub const TOUCHING: Rgba = [1.0, 0.6, 0.15, 0.55];
pub const APART: Rgba = [0.55, 0.65, 0.85, 0.7];
pub const CCD: Rgba = [0.85, 0.35, 1.0, 1.0];
/// Contact points are drawn this many pixels across: bigger than the shell's own dots.
pub const CONTACT_PX: f32 = 11.0;

/// What the overlay shows; persisted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Toggles {
    pub contacts: bool,
    pub impulses: bool,
    pub pairs: bool,
    /// Pairs the broad phase reported that do not touch, too.
    pub apart_pairs: bool,
    pub ccd: bool,
    pub labels: bool,
    /// Bodies drawn faint, so that contacts between them and arrows inside them show.
    pub fade_bodies: bool,
}

impl Default for Toggles {
    fn default() -> Self {
        Self {
            contacts: true,
            impulses: true,
            pairs: true,
            apart_pairs: true,
            ccd: true,
            labels: true,
            fade_bodies: true,
        }
    }
}

/// The impulse arrows' scale: the largest impulse of the step is drawn `length_m` long.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ImpulseScale {
    pub largest: f64,
    pub length_m: f64,
}

/// What the last overlay drew, for the panel's legend and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Drawn {
    pub contacts: usize,
    pub arrows: usize,
    pub pairs_touching: usize,
    pub pairs_apart: usize,
    pub ccd_bodies: usize,
    pub scale: Option<ImpulseScale>,
    /// The length the contacts' normals are drawn.
    pub normal_m: f64,
}

/// A length that reads next to the bodies in contact: their mean display radius (fixed
/// bodies, often a huge floor, only when nothing else is in contact).
pub fn reference_length(cx: &FamilyContext, rows: &[ContactRow]) -> f64 {
    let Some(catalog) = cx.catalog() else {
        return 0.5;
    };
    let radius = |id: BodyId| catalog.mesh_of(id).map(|m| f64::from(m.radius));
    let mut moving = Vec::new();
    let mut all = Vec::new();
    for r in rows {
        for id in [r.contact.a, r.contact.b] {
            let Some(x) = radius(id).filter(|x| x.is_finite() && *x > 0.0) else {
                continue;
            };
            all.push(x);
            if !catalog.body(id).is_some_and(|b| b.fixed) {
                moving.push(x);
            }
        }
    }
    let pick = if moving.is_empty() { &all } else { &moving };
    if pick.is_empty() {
        return 0.5;
    }
    (pick.iter().sum::<f64>() / pick.len() as f64).clamp(1e-3, 1e3)
}

pub fn overlay(cx: &FamilyContext, toggles: &Toggles, list: &mut DrawList) -> Drawn {
    let mut drawn = Drawn::default();
    let (Some(scene), Some((frame, cf))) = (data::scene(cx), data::step(cx)) else {
        return drawn;
    };
    let rows = data::contacts(frame, cf);
    let reference = reference_length(cx, &rows);
    // Short: the impulse arrows run along the normals too, and stacked bodies are close.
    drawn.normal_m = 0.3 * reference;
    if toggles.pairs {
        pairs(frame, cf, toggles.apart_pairs, list, &mut drawn);
    }
    if toggles.contacts {
        let tolerance = cx.scene().map_or(f64::INFINITY, |s| s.solver.penetration_tolerance_m);
        contacts(&rows, drawn.normal_m, tolerance, list, &mut drawn);
    }
    if toggles.impulses {
        impulses(&rows, reference, toggles.labels, list, &mut drawn);
    }
    if toggles.ccd {
        ccd(cx, scene, frame, cf, toggles.labels, list, &mut drawn);
    }
    if toggles.labels {
        deepest_label(&rows, drawn.normal_m, list);
    }
    drawn
}

fn centre(frame: &Frame, id: BodyId) -> Option<Point3> {
    frame.body(id).map(|b| b.position)
}

/// Pair lines between collider centres, over the bodies (they run inside them).
fn pairs(frame: &Frame, cf: &CaptureFrame, apart: bool, list: &mut DrawList, drawn: &mut Drawn) {
    for p in &cf.pairs {
        let (Some(a), Some(b)) = (centre(frame, p.a), centre(frame, p.b)) else {
            continue;
        };
        if p.touching == Some(true) {
            drawn.pairs_touching += 1;
            list.line_on_top(to_f32(&a), to_f32(&b), TOUCHING);
        } else if apart {
            drawn.pairs_apart += 1;
            list.line_on_top(to_f32(&a), to_f32(&b), APART);
        }
    }
}

/// Points (deeper than the tolerance in the warning colour, as the shell's) and normals.
fn contacts(
    rows: &[ContactRow],
    normal_m: f64,
    tolerance: f64,
    list: &mut DrawList,
    drawn: &mut Drawn,
) {
    for r in rows {
        let c = r.contact;
        let deep = c.depth > tolerance || !c.depth.is_finite();
        list.point(&c.point, CONTACT_PX, if deep { colors::WARNING } else { CONTACT });
        if let Some(n) = c.normal.try_normalize(1e-12) {
            let tip = c.point + n * normal_m;
            list.line_on_top(to_f32(&c.point), to_f32(&tip), NORMAL);
        }
        drawn.contacts += 1;
    }
}

/// Arrows along the normals, as long as the impulse: the step's largest `1.5 × reference`.
fn impulses(rows: &[ContactRow], reference: f64, labels: bool, list: &mut DrawList, drawn: &mut Drawn) {
    let Some(largest) = data::largest_impulse(rows) else {
        return;
    };
    let scale = ImpulseScale {
        largest,
        length_m: 1.5 * reference,
    };
    drawn.scale = Some(scale);
    let per_unit = scale.length_m / largest;
    let mut biggest: Option<(f64, Point3)> = None;
    for r in rows {
        let (Some(j), Some(n)) = (r.impulse(), r.contact.normal.try_normalize(1e-12)) else {
            continue;
        };
        if j == 0.0 {
            continue;
        }
        let v: Vec3 = n * (j * per_unit);
        let from = r.contact.point;
        list.bar(&from, &(from + v * 0.8), 0.08 * reference, IMPULSE);
        list.arrow(&from, &v, IMPULSE);
        drawn.arrows += 1;
        if biggest.is_none_or(|(b, _)| j.abs() > b) {
            biggest = Some((j.abs(), from + v));
        }
    }
    if labels && let Some((j, tip)) = biggest {
        list.labels.push(Label {
            position: tip.into(),
            text: format!("largest impulse {}", data::number(j, 4)),
            color: IMPULSE,
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn ccd(
    cx: &FamilyContext,
    scene: &CaptureScene,
    frame: &Frame,
    cf: &CaptureFrame,
    labels: bool,
    list: &mut DrawList,
    drawn: &mut Drawn,
) {
    for f in cf.flags.iter().filter(|f| f.ccd == Some(true)) {
        for id in data::colliders_of(scene, f.body) {
            let Some(p) = centre(frame, id) else {
                continue;
            };
            let r = cx
                .catalog()
                .and_then(|c| c.mesh_of(id))
                .map_or(0.5, |m| f64::from(m.radius));
            list.sphere(&p, r * 1.2, CCD, false);
            drawn.ccd_bodies += 1;
            if labels {
                list.labels.push(Label {
                    position: (p + Vec3::new(0.0, r * 1.3, 0.0)).into(),
                    text: "CCD active".into(),
                    color: CCD,
                });
            }
        }
    }
}

/// The deepest contact, named at the tip of its normal.
fn deepest_label(rows: &[ContactRow], normal_m: f64, list: &mut DrawList) {
    let Some(r) = rows
        .iter()
        .filter(|r| r.contact.depth.is_finite() && r.contact.depth > 0.0)
        .max_by(|x, y| x.contact.depth.total_cmp(&y.contact.depth))
    else {
        return;
    };
    let n = r.contact.normal.try_normalize(1e-12).unwrap_or_else(Vec3::y);
    list.labels.push(Label {
        position: (r.contact.point - n * (0.3 * normal_m)).into(),
        text: format!("deepest {} m", data::number(r.contact.depth, 4)),
        color: CONTACT,
    });
}

/// The bodies of the event under the scrubber, ringed; where the camera should look.
pub fn current_event(cx: &FamilyContext, color: Rgba, list: &mut DrawList) -> Vec<[f64; 3]> {
    let (Some((_, e)), Some(frame)) = (cx.event(), cx.frame()) else {
        return Vec::new();
    };
    let Some(ev) = data::event(e) else {
        return Vec::new();
    };
    let mut at = Vec::new();
    for &id in &ev.colliders {
        let Some(p) = centre(frame, id) else {
            continue;
        };
        let r = cx
            .catalog()
            .and_then(|c| c.mesh_of(id))
            .map_or(0.5, |m| f64::from(m.radius));
        list.sphere(&p, r * 1.35, color, true);
        at.push(p.into());
    }
    if let Some(first) = at.first() {
        list.labels.push(Label {
            position: *first,
            text: format!("{}: {}", ev.stage, ev.label),
            color,
        });
    }
    at
}

/// The step's contact points, for the camera.
pub fn contact_focus(cx: &FamilyContext) -> Option<Focus> {
    let (frame, cf) = data::step(cx)?;
    let rows = data::contacts(frame, cf);
    let points: Vec<[f64; 3]> = rows.iter().map(|r| r.contact.point.into()).collect();
    Focus::around(&points, 2.0 * reference_length(cx, &rows))
}
