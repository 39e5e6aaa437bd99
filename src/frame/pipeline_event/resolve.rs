//! A pipeline event's geometry from the frame it belongs to: a touching contact is one of the
//! frame's contacts, an impulse sits at the contact it answers. The viewer draws these, so it
//! still draws exactly what the engine recorded, recorded once.

use super::{ContactPoint, PipelineEvent, contact_shapes, impulse_shapes};
use crate::frame::Frame;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{DebugShape, EventKind, TraceEvent};

/// Where a contact or impulse event is: the contact's point, normal and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactGeometry {
    pub point: Point3,
    pub normal: Vec3,
    pub depth: Real,
}

impl PipelineEvent {
    /// The geometry of contact event `frame.trace[at]`; `None` for another event or a
    /// contact index past the frame's contacts (a damaged file).
    pub fn contact_geometry(frame: &Frame, at: usize) -> Option<ContactGeometry> {
        match &frame.trace.get(at)?.kind {
            EventKind::Pipeline(PipelineEvent::Contact { point, .. }) => match point {
                ContactPoint::InFrame(i) => {
                    frame.contacts.get(*i as usize).map(|c| ContactGeometry {
                        point: c.point,
                        normal: c.normal,
                        depth: c.depth,
                    })
                }
                ContactPoint::Inline {
                    point,
                    normal,
                    depth,
                } => Some(ContactGeometry {
                    point: *point,
                    normal: *normal,
                    depth: *depth,
                }),
            },
            _ => None,
        }
    }

    /// For every event of `trace`, the index of the contact event it answers: `Some` for the
    /// impulses only. A solver pass numbers its contacts from 0 in the order of their events,
    /// and the contacts of a pass are the Contact events since the previous pass's impulses.
    pub fn impulse_contacts(trace: &[TraceEvent]) -> Vec<Option<usize>> {
        let mut pass: Vec<usize> = Vec::new();
        let mut after_impulses = false;
        trace
            .iter()
            .enumerate()
            .map(|(i, e)| match &e.kind {
                EventKind::Pipeline(PipelineEvent::Contact { .. }) => {
                    if after_impulses {
                        pass.clear();
                        after_impulses = false;
                    }
                    pass.push(i);
                    None
                }
                EventKind::Pipeline(PipelineEvent::Impulse { contact, .. }) => {
                    after_impulses = true;
                    pass.get(*contact as usize).copied()
                }
                _ => None,
            })
            .collect()
    }

    /// The geometry of the contact that impulse `frame.trace[at]` answers.
    pub fn impulse_geometry(frame: &Frame, at: usize) -> Option<ContactGeometry> {
        let contact = (*Self::impulse_contacts(frame.trace.get(..=at)?).last()?)?;
        Self::contact_geometry(frame, contact)
    }

    /// What every event of `frame` draws, pipeline events resolved against the frame and
    /// other events as they draw themselves. One pass, so a whole frame's overlay costs
    /// no more than its events.
    pub fn frame_shapes(frame: &Frame) -> Vec<Vec<DebugShape>> {
        let impulses = Self::impulse_contacts(&frame.trace);
        frame
            .trace
            .iter()
            .enumerate()
            .map(|(i, e)| Self::shapes_with(frame, i, e, impulses[i]))
            .collect()
    }

    /// What event `frame.trace[at]` draws (see [`Self::frame_shapes`]).
    pub fn event_shapes(frame: &Frame, at: usize) -> Vec<DebugShape> {
        let Some(e) = frame.trace.get(at) else {
            return Vec::new();
        };
        let contact = match &e.kind {
            EventKind::Pipeline(PipelineEvent::Impulse { .. }) => frame
                .trace
                .get(..=at)
                .and_then(|t| Self::impulse_contacts(t).last().copied().flatten()),
            _ => None,
        };
        Self::shapes_with(frame, at, e, contact)
    }

    fn shapes_with(
        frame: &Frame,
        at: usize,
        e: &TraceEvent,
        contact: Option<usize>,
    ) -> Vec<DebugShape> {
        let mut out = Vec::new();
        match &e.kind {
            EventKind::Pipeline(PipelineEvent::Contact { .. }) => {
                if let Some(g) = Self::contact_geometry(frame, at) {
                    contact_shapes(&g.point, &g.normal, g.depth, &mut out);
                }
            }
            EventKind::Pipeline(PipelineEvent::Impulse { normal_impulse, .. }) => {
                if let Some(g) = contact.and_then(|c| Self::contact_geometry(frame, c)) {
                    impulse_shapes(&g.point, &g.normal, *normal_impulse, &mut out);
                }
            }
            kind => kind.shapes(&mut out),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Contact;
    use crate::trace::{Stage, Verdict};

    fn event(kind: PipelineEvent) -> TraceEvent {
        TraceEvent::staged(Stage::NarrowPhase, Verdict::Hit, kind)
    }

    fn contact(i: u32) -> TraceEvent {
        event(PipelineEvent::Contact {
            a: i,
            b: 9,
            point: ContactPoint::InFrame(i),
        })
    }

    fn impulse(k: u32) -> TraceEvent {
        event(PipelineEvent::Impulse {
            a: 0,
            b: 9,
            contact: k,
            normal_impulse: 1.0,
            friction_impulse: Vec3::zeros(),
        })
    }

    fn frame_contact(x: f64) -> Contact {
        Contact {
            a: 0,
            b: 9,
            point: Point3::new(x, 0.0, 0.0),
            normal: Vec3::y(),
            depth: 0.01 * x,
        }
    }

    /// Two solver passes (two substeps): each pass's impulses answer its own contacts, in
    /// order, whatever else the trace holds between them.
    #[test]
    fn impulses_answer_the_contacts_of_their_own_pass() {
        let note = event(PipelineEvent::Note {
            text: "between".into(),
            points: vec![],
        });
        let trace = vec![
            contact(0),
            note.clone(),
            contact(1),
            impulse(1),
            impulse(0),
            note.clone(),
            contact(2),
            impulse(0),
            impulse(7),
        ];
        let found = PipelineEvent::impulse_contacts(&trace);
        assert_eq!(
            found,
            vec![
                None,
                None,
                None,
                Some(2),
                Some(0),
                None,
                None,
                Some(6),
                None
            ]
        );
        let frame = Frame {
            contacts: (0..3).map(|k| frame_contact(k as f64)).collect(),
            trace,
            ..Frame::default()
        };
        let g = PipelineEvent::impulse_geometry(&frame, 3).expect("resolved");
        assert_eq!(g.point, frame.contacts[1].point);
        assert_eq!(
            PipelineEvent::impulse_geometry(&frame, 7).map(|g| g.point),
            Some(frame.contacts[2].point)
        );
        assert!(
            PipelineEvent::impulse_geometry(&frame, 8).is_none(),
            "no contact 7"
        );
        assert!(PipelineEvent::impulse_geometry(&frame, 99).is_none());
        // One pass over the frame and one event at a time draw the same.
        let all = PipelineEvent::frame_shapes(&frame);
        for (i, shapes) in all.iter().enumerate() {
            assert_eq!(shapes, &PipelineEvent::event_shapes(&frame, i), "event {i}");
        }
        assert_eq!(all[3].len(), 1, "an impulse is one arrow");
        assert_eq!(all[0].len(), 2, "a contact is a point and an arrow");
    }

    #[test]
    fn a_contact_past_the_frame_contacts_resolves_to_nothing() {
        let frame = Frame {
            contacts: vec![frame_contact(1.0)],
            trace: vec![contact(0), contact(1)],
            ..Frame::default()
        };
        assert_eq!(
            PipelineEvent::contact_geometry(&frame, 0).map(|g| g.depth),
            Some(0.01)
        );
        assert!(PipelineEvent::contact_geometry(&frame, 1).is_none());
        assert!(PipelineEvent::event_shapes(&frame, 1).is_empty());
    }

    /// The engine's own trace: every impulse resolves to a contact of the same two bodies,
    /// and every touching contact event names a frame contact of the same two bodies.
    #[test]
    fn the_engines_impulses_and_contacts_resolve() {
        let scene = crate::world::builtin_scene("mixed-drop").expect("built in");
        let mut world = crate::world::World::new(scene).expect("builds");
        let (mut impulses, mut in_frame) = (0, 0);
        for _ in 0..90 {
            let frame = world.step_traced(1_000_000);
            let answers = PipelineEvent::impulse_contacts(&frame.trace);
            for (i, e) in frame.trace.iter().enumerate() {
                match &e.kind {
                    EventKind::Pipeline(PipelineEvent::Impulse { a, b, .. }) => {
                        let c = answers[i].expect("every impulse answers a contact");
                        assert!(matches!(
                            &frame.trace[c].kind,
                            EventKind::Pipeline(PipelineEvent::Contact { a: ca, b: cb, .. })
                                if (ca, cb) == (a, b)
                        ));
                        impulses += 1;
                    }
                    EventKind::Pipeline(PipelineEvent::Contact {
                        a,
                        b,
                        point: ContactPoint::InFrame(k),
                    }) => {
                        let c = &frame.contacts[*k as usize];
                        assert_eq!((c.a, c.b), (*a, *b));
                        assert!(c.depth >= 0.0);
                        in_frame += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(
            impulses > 0 && in_frame > 0,
            "{impulses} impulses, {in_frame}"
        );
    }
}
