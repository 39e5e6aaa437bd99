//! The broad phase's and continuous collision's hot events in columns: broad pairs (a box
//! stored only when it changed since the body's last one), sweep-and-prune swaps (runs of one
//! interval end stored once) and conservative-advancement steps (predicted from the pair's
//! step before).

use super::trace::{BROAD_PAIR, CCD_ADVANCE, SAP_SWAP, SAP_SWAP_SAME, TraceState};
use super::{BOXES, SWEEP, corrupt};
use crate::broad::BroadEvent;
use crate::ccd::CcdEvent;
use crate::geom::{Aabb, Point3};
use crate::record::error::RecordErrorCause;
use crate::record::streams::{StreamsIn, StreamsOut};

fn aabb_numbers(b: &Aabb) -> [f64; 6] {
    [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z]
}

fn aabb_from(n: &[f64; 6]) -> Aabb {
    Aabb {
        min: Point3::new(n[0], n[1], n[2]),
        max: Point3::new(n[3], n[4], n[5]),
    }
}

fn same_bits<const N: usize>(a: &[f64; N], b: &[f64; N]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl TraceState<'_> {
    pub(super) fn encode_broad_pair(
        &mut self,
        sv: u8,
        (a, b): (u32, u32),
        (box_a, box_b): (&Aabb, &Aabb),
        s: &mut StreamsOut,
    ) {
        s.tag(BROAD_PAIR);
        s.tag(sv);
        s.pair(a, b);
        let (na, nb) = (aabb_numbers(box_a), aabb_numbers(box_b));
        let known = |id: &u32, n: &[f64; 6]| self.boxes.get(id).is_some_and(|k| same_bits(k, n));
        let flags = known(&a, &na) as u64 | (known(&b, &nb) as u64) << 1;
        s.uint(flags);
        s.column(BOXES);
        for (id, n, bit) in [(a, na, 1), (b, nb, 2)] {
            if flags & bit == 0 {
                s.floats(&n, &self.boxes.get(&id).copied().unwrap_or([0.0; 6]));
                self.boxes.insert(id, n);
            }
        }
    }

    pub(super) fn decode_broad_pair(
        &mut self,
        s: &mut StreamsIn,
    ) -> Result<BroadEvent, RecordErrorCause> {
        let (a, b) = s.pair()?;
        let flags = s.uint()?;
        if flags > 3 {
            return Err(corrupt(format!("broad pair flags {flags} are unknown")));
        }
        s.column(BOXES);
        let mut boxes = [[0.0; 6]; 2];
        for (k, (id, bit)) in [(a, 1), (b, 2)].into_iter().enumerate() {
            let known = self.boxes.get(&id).copied();
            boxes[k] = if flags & bit != 0 {
                known.ok_or_else(|| {
                    corrupt(format!("broad pair reuses body {id}'s box, never given"))
                })?
            } else {
                let n = s.floats(&known.unwrap_or([0.0; 6]))?;
                self.boxes.insert(id, n);
                n
            };
        }
        Ok(BroadEvent::BroadPair {
            a,
            b,
            box_a: aabb_from(&boxes[0]),
            box_b: aabb_from(&boxes[1]),
        })
    }

    pub(super) fn encode_sap_swap(
        &mut self,
        sv: u8,
        (axis, a, b, value): (u8, u32, u32, f64),
        s: &mut StreamsOut,
    ) {
        let (last_axis, last_a, last_value) = self.last_swap;
        let same = axis == last_axis && a == last_a && value.to_bits() == last_value.to_bits();
        s.tag(if same { SAP_SWAP_SAME } else { SAP_SWAP });
        s.tag(sv);
        if !same {
            s.uint(axis as u64);
            s.uint(a as u64);
            s.column(SWEEP);
            s.float(value, 0.0);
        }
        s.uint(b as u64);
        self.last_swap = (axis, a, value);
    }

    pub(super) fn decode_sap_swap(
        &mut self,
        tag: u8,
        s: &mut StreamsIn,
    ) -> Result<BroadEvent, RecordErrorCause> {
        let (axis, a, value) = if tag == SAP_SWAP_SAME {
            self.last_swap
        } else {
            let axis = u8::try_from(s.uint()?)
                .map_err(|_| corrupt("a sweep-and-prune swap has a bad axis"))?;
            let a = s.u32()?;
            s.column(SWEEP);
            (axis, a, s.float(0.0)?)
        };
        let b = s.u32()?;
        self.last_swap = (axis, a, value);
        Ok(BroadEvent::SapSwap { axis, a, b, value })
    }

    pub(super) fn encode_advance(
        &mut self,
        sv: u8,
        (a, b): (u32, u32),
        v: [f64; 3],
        s: &mut StreamsOut,
    ) {
        s.tag(CCD_ADVANCE);
        s.tag(sv);
        s.pair(a, b);
        s.column(SWEEP);
        s.floats(&v, &self.predict_advance((a, b)));
        self.last_advance = Some(((a, b), v));
    }

    pub(super) fn decode_advance(
        &mut self,
        s: &mut StreamsIn,
    ) -> Result<CcdEvent, RecordErrorCause> {
        let (a, b) = s.pair()?;
        s.column(SWEEP);
        let v = s.floats(&self.predict_advance((a, b)))?;
        self.last_advance = Some(((a, b), v));
        Ok(CcdEvent::Advance {
            a,
            b,
            t: v[0],
            distance: v[1],
            bound: v[2],
        })
    }
}
