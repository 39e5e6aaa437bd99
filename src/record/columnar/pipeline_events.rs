//! The pipeline's hot events in columns: integrations (predicted from the body's motion),
//! shape tests, contacts (by their frame contact when there is one) and impulses (by the
//! contact of their solver pass).

use super::trace::{
    CONTACT_IN_FRAME, CONTACT_INLINE, CONTACT_NEXT, IMPULSE, IMPULSE_IN_PASS,
    IMPULSE_IN_PASS_SPLIT, IMPULSE_SPLIT, INTEGRATED, SHAPE_TEST, TraceState,
};
use super::{DEPTH, IMPULSES, MOTION, SPECULATIVE, contact_numbers, corrupt, predict_contact};
use crate::frame::{ContactPoint, PipelineEvent};
use crate::geom::{Point3, Vec3};
use crate::record::error::RecordErrorCause;
use crate::record::predict;
use crate::record::streams::{StreamsIn, StreamsOut};

impl TraceState<'_> {
    pub(super) fn encode_integrated(
        &mut self,
        sv: u8,
        body: u32,
        from: &Point3,
        to: &Point3,
        s: &mut StreamsOut,
    ) {
        s.tag(INTEGRATED);
        s.tag(sv);
        s.uint(body as u64);
        s.column(MOTION);
        let (f, t) = (predict::point(from), predict::point(to));
        s.floats(&f, &self.predict_from(body));
        s.floats(&t, &self.predict_to(body, &f));
        self.integrated.insert(body, (f, t));
    }

    pub(super) fn decode_integrated(
        &mut self,
        s: &mut StreamsIn,
    ) -> Result<PipelineEvent, RecordErrorCause> {
        let body = s.u32()?;
        s.column(MOTION);
        let f = s.floats(&self.predict_from(body))?;
        let t = s.floats(&self.predict_to(body, &f))?;
        self.integrated.insert(body, (f, t));
        Ok(PipelineEvent::Integrated {
            body,
            from: Point3::new(f[0], f[1], f[2]),
            to: Point3::new(t[0], t[1], t[2]),
        })
    }

    /// A shape test: its name by number (given in full the first time), its depth predicted
    /// from the contacts it found.
    pub(super) fn encode_shape_test(
        &mut self,
        sv: u8,
        (a, b): (u32, u32),
        test: &str,
        contacts: u32,
        max_depth: f64,
        s: &mut StreamsOut,
    ) -> Result<(), RecordErrorCause> {
        s.tag(SHAPE_TEST);
        s.tag(sv);
        s.pair(a, b);
        match self.tests.iter().position(|t| t == test) {
            Some(i) => s.uint(i as u64),
            None => {
                s.uint(self.tests.len() as u64);
                s.value(test)?;
                self.tests.push(test.to_owned());
            }
        }
        s.uint(contacts as u64);
        s.column(DEPTH);
        s.float(max_depth, self.predict_max_depth(a, b, contacts));
        Ok(())
    }

    pub(super) fn decode_shape_test(
        &mut self,
        s: &mut StreamsIn,
    ) -> Result<PipelineEvent, RecordErrorCause> {
        let (a, b) = s.pair()?;
        let i = s.uint()?;
        let test = match self.tests.get(i as usize) {
            Some(t) => t.clone(),
            None if i == self.tests.len() as u64 => {
                let t: String = s.value()?;
                self.tests.push(t.clone());
                t
            }
            None => return Err(corrupt(format!("shape test name {i} is unknown"))),
        };
        let contacts = s.u32()?;
        s.column(DEPTH);
        let max_depth = s.float(self.predict_max_depth(a, b, contacts))?;
        Ok(PipelineEvent::ShapeTest {
            a,
            b,
            test,
            contacts,
            max_depth,
        })
    }

    pub(super) fn encode_contact(
        &mut self,
        sv: u8,
        (a, b): (u32, u32),
        point: &ContactPoint,
        s: &mut StreamsOut,
    ) {
        match point {
            ContactPoint::InFrame(i) => {
                let next = self.next_in_frame == *i as u64
                    && self
                        .contacts
                        .get(*i as usize)
                        .is_some_and(|c| c.a == a && c.b == b);
                if next {
                    s.tag(CONTACT_NEXT);
                    s.tag(sv);
                } else {
                    s.tag(CONTACT_IN_FRAME);
                    s.tag(sv);
                    s.pair(a, b);
                    s.uint(*i as u64);
                }
                self.next_in_frame = *i as u64 + 1;
                self.contact_seen(a, b, self.frame_normal(*i as u64));
            }
            ContactPoint::Inline {
                point,
                normal,
                depth,
            } => {
                s.tag(CONTACT_INLINE);
                s.tag(sv);
                s.pair(a, b);
                let v = contact_numbers(point, normal, *depth);
                s.column(SPECULATIVE);
                s.floats(&v, &predict_contact(&mut self.inline, (a, b), self.v5));
                self.inline.push((a, b), v);
                self.contact_seen(a, b, Some(predict::vector(normal)));
            }
        }
    }

    /// A contact naming a frame contact: the next one (`CONTACT_NEXT`, nothing stored) or
    /// any other.
    pub(super) fn decode_frame_contact(
        &mut self,
        tag: u8,
        s: &mut StreamsIn,
    ) -> Result<PipelineEvent, RecordErrorCause> {
        let (a, b, i) = if tag == CONTACT_NEXT {
            let i = self.next_in_frame;
            let c = self.contacts.get(i as usize).ok_or_else(|| {
                corrupt(format!(
                    "contact event names frame contact {i}, past the last"
                ))
            })?;
            (c.a, c.b, i as u32)
        } else {
            let (a, b) = s.pair()?;
            (a, b, s.u32()?)
        };
        self.next_in_frame = i as u64 + 1;
        self.contact_seen(a, b, self.frame_normal(i as u64));
        Ok(PipelineEvent::Contact {
            a,
            b,
            point: ContactPoint::InFrame(i),
        })
    }

    pub(super) fn decode_inline_contact(
        &mut self,
        s: &mut StreamsIn,
    ) -> Result<PipelineEvent, RecordErrorCause> {
        let (a, b) = s.pair()?;
        s.column(SPECULATIVE);
        let v = s.floats(&predict_contact(&mut self.inline, (a, b), self.v5))?;
        self.inline.push((a, b), v);
        self.contact_seen(a, b, Some([v[3], v[4], v[5]]));
        Ok(PipelineEvent::Contact {
            a,
            b,
            point: ContactPoint::Inline {
                point: Point3::new(v[0], v[1], v[2]),
                normal: Vec3::new(v[3], v[4], v[5]),
                depth: v[6],
            },
        })
    }

    /// An impulse: its pair left out when it is that of the contact it names in its pass,
    /// its friction split along that contact's normal when the split rebuilds it bit for bit.
    pub(super) fn encode_impulse(
        &mut self,
        sv: u8,
        (a, b): (u32, u32),
        contact: u32,
        normal_impulse: f64,
        friction_impulse: &Vec3,
        s: &mut StreamsOut,
    ) {
        let expected = self.expected_impulse();
        let f = predict::vector(friction_impulse);
        let normal = self.pass_normals.get(contact as usize).copied().flatten();
        let split = normal.and_then(|n| predict::friction_split(&n, &f));
        let in_pass = self.pass.get(contact as usize) == Some(&(a, b));
        s.tag(match (in_pass, split.is_some()) {
            (true, false) => IMPULSE_IN_PASS,
            (false, false) => IMPULSE,
            (true, true) => IMPULSE_IN_PASS_SPLIT,
            (false, true) => IMPULSE_SPLIT,
        });
        s.tag(sv);
        if !in_pass {
            s.pair(a, b);
        }
        s.sint(contact as i64 - expected);
        let p = self.impulses.predict((a, b));
        s.column(IMPULSES);
        let v = match split {
            Some([l0, l1]) => {
                let v = [normal_impulse, l0, l1];
                s.floats(&v, &[p[0], p[1], p[2]]);
                [v[0], v[1], v[2], 0.0]
            }
            None => {
                let v = [normal_impulse, f[0], f[1], f[2]];
                s.floats(&v, &p);
                v
            }
        };
        self.impulses.push((a, b), v);
        self.after_impulses = true;
        self.next_impulse = contact as i64 + 1;
    }

    pub(super) fn decode_impulse(
        &mut self,
        tag: u8,
        s: &mut StreamsIn,
    ) -> Result<PipelineEvent, RecordErrorCause> {
        let expected = self.expected_impulse();
        let pair = if tag == IMPULSE || tag == IMPULSE_SPLIT {
            Some(s.pair()?)
        } else {
            None
        };
        let contact = u32::try_from(expected + s.sint()?)
            .map_err(|_| corrupt("an impulse names a bad contact number"))?;
        let (a, b) = match pair {
            Some(p) => p,
            None => *self.pass.get(contact as usize).ok_or_else(|| {
                corrupt(format!(
                    "an impulse names contact {contact}, not in its pass"
                ))
            })?,
        };
        let split = tag == IMPULSE_IN_PASS_SPLIT || tag == IMPULSE_SPLIT;
        let p = self.impulses.predict((a, b));
        s.column(IMPULSES);
        let (v, f) = if split {
            let n = self
                .pass_normals
                .get(contact as usize)
                .copied()
                .flatten()
                .ok_or_else(|| {
                    corrupt(format!(
                        "an impulse's friction is split along contact {contact}'s \
                         normal, which is not known"
                    ))
                })?;
            let v = s.floats(&[p[0], p[1], p[2]])?;
            let f = predict::friction_from(&n, [v[1], v[2]]);
            ([v[0], v[1], v[2], 0.0], f)
        } else {
            let v = s.floats(&p)?;
            (v, [v[1], v[2], v[3]])
        };
        self.impulses.push((a, b), v);
        self.after_impulses = true;
        self.next_impulse = contact as i64 + 1;
        Ok(PipelineEvent::Impulse {
            a,
            b,
            contact,
            normal_impulse: v[0],
            friction_impulse: Vec3::new(f[0], f[1], f[2]),
        })
    }
}
