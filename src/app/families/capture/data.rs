//! A captured run's data as the view reads it: the engine's scene and the step's frame data,
//! each contact with its engine details, and the names the engine gave.

use crate::app::families::FamilyContext;
use crate::capture::{
    CaptureEvent, CaptureFrame, CaptureScene, Captured, CapturedShapeInfo, ContactDetail,
};
use crate::families::{FamilyFrameData, FamilySceneData};
use crate::record::{Contact, Frame};
use crate::trace::{BodyId, EventKind, TraceEvent};

pub fn scene<'a>(cx: &FamilyContext<'a>) -> Option<&'a CaptureScene> {
    cx.scene_data().iter().find_map(|d| match d {
        FamilySceneData::Capture(c) => Some(c),
        _ => None,
    })
}

pub fn frame_data(frame: &Frame) -> Option<&CaptureFrame> {
    frame.families.iter().find_map(|f| match f {
        FamilyFrameData::Capture(c) => Some(c),
        _ => None,
    })
}

/// The step under the playhead: its frame and the engine's data for it.
pub fn step<'a>(cx: &FamilyContext<'a>) -> Option<(&'a Frame, &'a CaptureFrame)> {
    let frame = cx.frame()?;
    Some((frame, frame_data(frame)?))
}

pub fn event(e: &TraceEvent) -> Option<&CaptureEvent> {
    match &e.kind {
        EventKind::Capture(c) => Some(c),
        _ => None,
    }
}

/// What the engine sent up to a step: its frame's list (which starts from the header's
/// promise), or the header's alone.
pub fn captured(scene: &CaptureScene, cf: Option<&CaptureFrame>) -> Captured {
    cf.map_or(scene.captures, |c| c.captured.with(scene.captures))
}

/// A contact of the step with what the engine said of it.
pub struct ContactRow<'a> {
    pub contact: &'a Contact,
    pub detail: Option<&'a ContactDetail>,
}

impl ContactRow<'_> {
    /// The normal impulse, when sent and a number.
    pub fn impulse(&self) -> Option<f64> {
        self.detail?.normal_impulse.filter(|x| x.is_finite())
    }
}

pub fn contacts<'a>(frame: &'a Frame, cf: &'a CaptureFrame) -> Vec<ContactRow<'a>> {
    frame
        .contacts
        .iter()
        .enumerate()
        .map(|(i, contact)| ContactRow {
            contact,
            detail: cf.contacts.get(i),
        })
        .collect()
}

/// The largest normal impulse of the step (in size), when any was sent.
pub fn largest_impulse(rows: &[ContactRow]) -> Option<f64> {
    rows.iter()
        .filter_map(ContactRow::impulse)
        .map(f64::abs)
        .filter(|x| *x > 0.0)
        .reduce(f64::max)
}

/// The shape a collider (a scene body) is drawn as.
pub fn shape_of(scene: &CaptureScene, collider: BodyId) -> Option<&CapturedShapeInfo> {
    scene
        .shapes
        .get(scene.collider(collider)?.shape as usize)
}

/// "cuboid", or "heightfield (drawn as its bounding box)" when drawn as something else.
pub fn shape_text(info: &CapturedShapeInfo) -> String {
    match &info.note {
        Some(note) => format!("{} ({note})", info.kind),
        None => info.kind.clone(),
    }
}

/// The colliders (scene bodies) of an engine body.
pub fn colliders_of(scene: &CaptureScene, body: u32) -> Vec<BodyId> {
    scene
        .colliders
        .iter()
        .enumerate()
        .filter(|(_, c)| c.body == body)
        .map(|(i, _)| i as BodyId)
        .collect()
}

/// A number as the engine's stream would write it, with `digits` decimals when finite.
pub fn number(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        crate::capture::number_text(x)
    }
}

pub fn yes_no(flag: Option<bool>) -> &'static str {
    match flag {
        Some(true) => "yes",
        Some(false) => "no",
        None => "—",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Vec3};

    #[test]
    fn the_largest_impulse_ignores_missing_and_non_finite_ones() {
        let c = Contact {
            a: 0,
            b: 1,
            point: Point3::origin(),
            normal: Vec3::y(),
            depth: 0.0,
        };
        let detail = |x: Option<f64>| ContactDetail {
            normal_impulse: x,
            ..ContactDetail::default()
        };
        let ds = [
            detail(Some(2.0)),
            detail(Some(f64::NAN)),
            detail(None),
            detail(Some(-5.0)),
        ];
        let rows: Vec<ContactRow> = ds
            .iter()
            .map(|d| ContactRow {
                contact: &c,
                detail: Some(d),
            })
            .collect();
        assert_eq!(largest_impulse(&rows), Some(5.0));
        assert_eq!(largest_impulse(&rows[1..3]), None);
        assert_eq!(number(f64::NAN, 3), "NaN");
        assert_eq!(number(0.5, 2), "0.50");
    }
}
