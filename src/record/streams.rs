//! The byte streams of a format v4 frame record (see `columnar.rs`): one stream of event tags,
//! one of small integers (LEB128 varints), one of postcard values for everything without a
//! column of its own, and one of floating-point residuals.
//!
//! A residual is a value's bits XOR the bits of a prediction that the reader makes too, so a
//! good prediction leaves mostly zero bits. Residuals are stored as eight byte planes (the
//! most significant byte of every residual, then the next, …): zeros and sign/exponent bytes
//! line up for zstd, which then stores them in almost nothing, while the low mantissa bytes,
//! which no prediction reaches, cost what they cost. XOR keeps it lossless bit for bit (NaN
//! payloads, -0.0) whatever the prediction is.

use super::error::RecordErrorCause;
use serde::{Deserialize, Serialize};

/// Residuals go to one of this many columns, each stored as its own byte planes: the
/// sign/exponent bytes of contact depths and of impulses differ, so they are kept apart.
pub(crate) const COLUMNS: usize = 10;

/// The streams being written.
pub(crate) struct StreamsOut {
    tags: Vec<u8>,
    ints: Vec<u8>,
    values: Vec<u8>,
    residuals: [Vec<u64>; COLUMNS],
    column: usize,
}

impl Default for StreamsOut {
    fn default() -> Self {
        Self {
            tags: Vec::new(),
            ints: Vec::new(),
            values: Vec::new(),
            residuals: std::array::from_fn(|_| Vec::new()),
            column: 0,
        }
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

impl StreamsOut {
    pub fn tag(&mut self, tag: u8) {
        self.tags.push(tag);
    }

    pub fn uint(&mut self, v: u64) {
        push_varint(&mut self.ints, v);
    }

    /// A signed difference (zigzag, so small negatives stay small).
    pub fn sint(&mut self, v: i64) {
        push_varint(&mut self.ints, zigzag(v));
    }

    /// `b` as its difference from `a`: the two ids of a pair are usually close.
    pub fn pair(&mut self, a: u32, b: u32) {
        self.uint(a as u64);
        self.sint(b as i64 - a as i64);
    }

    /// The column the next floats go to (below [`COLUMNS`]).
    pub fn column(&mut self, column: usize) {
        self.column = column.min(COLUMNS - 1);
    }

    pub fn float(&mut self, value: f64, prediction: f64) {
        self.residuals[self.column].push(value.to_bits() ^ prediction.to_bits());
    }

    pub fn floats<const N: usize>(&mut self, values: &[f64; N], predictions: &[f64; N]) {
        for (v, p) in values.iter().zip(predictions) {
            self.float(*v, *p);
        }
    }

    pub fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), RecordErrorCause> {
        let values = std::mem::take(&mut self.values);
        self.values = postcard::to_extend(v, values).map_err(|e| RecordErrorCause::Encode {
            what: "a frame",
            detail: e.to_string(),
        })?;
        Ok(())
    }

    /// Appends the streams, each behind its length, the residuals as byte planes.
    pub fn finish(&self, out: &mut Vec<u8>) {
        for s in [&self.tags, &self.ints, &self.values] {
            push_varint(out, s.len() as u64);
            out.extend_from_slice(s);
        }
        for column in &self.residuals {
            push_varint(out, column.len() as u64);
            out.reserve(column.len() * 8);
            for shift in (0..8).rev() {
                out.extend(column.iter().map(|r| (r >> (shift * 8)) as u8));
            }
        }
    }

    /// The streams' sizes, for measurements: tags, integers, values, then each column's
    /// residual bytes.
    #[cfg(test)]
    pub fn parts(&self) -> Vec<Vec<u8>> {
        let mut parts = vec![self.tags.clone(), self.ints.clone(), self.values.clone()];
        for column in &self.residuals {
            let mut planes = Vec::new();
            for shift in (0..8).rev() {
                planes.extend(column.iter().map(|r| (r >> (shift * 8)) as u8));
            }
            parts.push(planes);
        }
        parts
    }
}

/// The four streams being read. Every read checks what is left: a corrupt record is an
/// error, never a panic or a large allocation.
pub(crate) struct StreamsIn<'a> {
    what: &'static str,
    tags: &'a [u8],
    ints: &'a [u8],
    values: &'a [u8],
    residuals: [Vec<u64>; COLUMNS],
    next_residual: [usize; COLUMNS],
    column: usize,
}

fn corrupt(what: &'static str, detail: impl Into<String>) -> RecordErrorCause {
    RecordErrorCause::Decode {
        what,
        detail: detail.into(),
    }
}

fn take_varint(
    what: &'static str,
    stream: &'static str,
    bytes: &mut &[u8],
) -> Result<u64, RecordErrorCause> {
    let mut v: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        let bits = (b & 0x7f) as u64;
        if i == 9 && bits > 1 {
            break;
        }
        v |= bits << (7 * i);
        if b & 0x80 == 0 {
            *bytes = &bytes[i + 1..];
            return Ok(v);
        }
    }
    Err(corrupt(
        what,
        format!("the {stream} stream ends or holds a bad varint"),
    ))
}

fn take_bytes<'a>(
    what: &'static str,
    stream: &'static str,
    bytes: &mut &'a [u8],
    n: u64,
) -> Result<&'a [u8], RecordErrorCause> {
    if n > bytes.len() as u64 {
        return Err(corrupt(
            what,
            format!(
                "the {stream} stream claims {n} bytes, {} are left",
                bytes.len()
            ),
        ));
    }
    let (head, rest) = bytes.split_at(n as usize);
    *bytes = rest;
    Ok(head)
}

impl<'a> StreamsIn<'a> {
    /// Reads the streams at the start of `bytes`; returns them and what follows them.
    pub fn read(
        what: &'static str,
        mut bytes: &'a [u8],
    ) -> Result<(Self, &'a [u8]), RecordErrorCause> {
        let mut stream = |name| -> Result<&'a [u8], RecordErrorCause> {
            let n = take_varint(what, name, &mut bytes)?;
            take_bytes(what, name, &mut bytes, n)
        };
        let tags = stream("tag")?;
        let ints = stream("integer")?;
        let values = stream("value")?;
        let mut residuals: [Vec<u64>; COLUMNS] = std::array::from_fn(|_| Vec::new());
        for column in &mut residuals {
            let n = take_varint(what, "float", &mut bytes)?;
            let planes = take_bytes(what, "float", &mut bytes, n.saturating_mul(8))?;
            let n = n as usize;
            column.resize(n, 0);
            for (p, plane) in planes.chunks_exact(n.max(1)).enumerate().take(8) {
                let shift = (7 - p) * 8;
                for (r, &b) in column.iter_mut().zip(plane) {
                    *r |= (b as u64) << shift;
                }
            }
        }
        Ok((
            Self {
                what,
                tags,
                ints,
                values,
                residuals,
                next_residual: [0; COLUMNS],
                column: 0,
            },
            bytes,
        ))
    }

    pub fn tag(&mut self) -> Result<u8, RecordErrorCause> {
        let (&t, rest) = self
            .tags
            .split_first()
            .ok_or_else(|| corrupt(self.what, "the tag stream ends early"))?;
        self.tags = rest;
        Ok(t)
    }

    pub fn uint(&mut self) -> Result<u64, RecordErrorCause> {
        take_varint(self.what, "integer", &mut self.ints)
    }

    pub fn u32(&mut self) -> Result<u32, RecordErrorCause> {
        let v = self.uint()?;
        u32::try_from(v).map_err(|_| corrupt(self.what, format!("{v} is not a 32-bit number")))
    }

    pub fn sint(&mut self) -> Result<i64, RecordErrorCause> {
        Ok(unzigzag(self.uint()?))
    }

    /// The inverse of [`StreamsOut::pair`].
    pub fn pair(&mut self) -> Result<(u32, u32), RecordErrorCause> {
        let a = self.u32()?;
        let b = a as i64 + self.sint()?;
        let b = u32::try_from(b)
            .map_err(|_| corrupt(self.what, format!("pair {a}–{b} has a bad body id")))?;
        Ok((a, b))
    }

    /// Residuals left in all columns.
    fn residuals_left(&self) -> usize {
        self.residuals
            .iter()
            .zip(&self.next_residual)
            .map(|(c, n)| c.len() - n)
            .sum()
    }

    /// Bytes and residuals left in all streams together.
    pub fn remaining(&self) -> u64 {
        (self.tags.len() + self.ints.len() + self.values.len() + self.residuals_left()) as u64
    }

    /// See [`StreamsOut::column`].
    pub fn column(&mut self, column: usize) {
        self.column = column.min(COLUMNS - 1);
    }

    /// A count of items that each take at least one byte or residual: bounded by what is
    /// left, so a corrupt count cannot make a large allocation.
    pub fn count(&mut self) -> Result<usize, RecordErrorCause> {
        let n = self.uint()?;
        let left = self.remaining();
        if n > left {
            return Err(corrupt(
                self.what,
                format!("a count of {n} items is more than the {left} bytes left"),
            ));
        }
        Ok(n as usize)
    }

    pub fn float(&mut self, prediction: f64) -> Result<f64, RecordErrorCause> {
        let next = &mut self.next_residual[self.column];
        let r = self.residuals[self.column]
            .get(*next)
            .ok_or_else(|| corrupt(self.what, "a float column ends early"))?;
        *next += 1;
        Ok(f64::from_bits(r ^ prediction.to_bits()))
    }

    pub fn floats<const N: usize>(
        &mut self,
        predictions: &[f64; N],
    ) -> Result<[f64; N], RecordErrorCause> {
        let mut out = [0.0; N];
        for (o, p) in out.iter_mut().zip(predictions) {
            *o = self.float(*p)?;
        }
        Ok(out)
    }

    pub fn value<T: Deserialize<'a>>(&mut self) -> Result<T, RecordErrorCause> {
        let (v, rest) = postcard::take_from_bytes::<T>(self.values)
            .map_err(|e| corrupt(self.what, format!("the value stream: {e}")))?;
        self.values = rest;
        Ok(v)
    }

    /// Checks that every stream was read to its end.
    pub fn finish(self) -> Result<(), RecordErrorCause> {
        let left = [
            ("tag", self.tags.len()),
            ("integer", self.ints.len()),
            ("value", self.values.len()),
            ("float", self.residuals_left()),
        ];
        match left.iter().find(|(_, n)| *n > 0) {
            Some((name, n)) => Err(corrupt(
                self.what,
                format!("{n} items left over in the {name} stream"),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_round_trip_bit_for_bit() {
        let mut out = StreamsOut::default();
        out.tag(7);
        out.uint(300);
        out.sint(-5);
        out.pair(9, 3);
        let specials = [f64::NAN, -0.0, f64::INFINITY, 1e-310, 3.25];
        for (i, v) in specials.iter().enumerate() {
            out.float(*v, i as f64 * 0.5);
        }
        out.value("text").unwrap();
        let mut bytes = Vec::new();
        out.finish(&mut bytes);
        bytes.push(42);
        let (mut inp, rest) = StreamsIn::read("test", &bytes).unwrap();
        assert_eq!(rest, [42]);
        assert_eq!(inp.tag().unwrap(), 7);
        assert_eq!(inp.uint().unwrap(), 300);
        assert_eq!(inp.sint().unwrap(), -5);
        assert_eq!(inp.pair().unwrap(), (9, 3));
        for (i, v) in specials.iter().enumerate() {
            assert_eq!(inp.float(i as f64 * 0.5).unwrap().to_bits(), v.to_bits());
        }
        assert_eq!(inp.value::<&str>().unwrap(), "text");
        inp.finish().unwrap();
    }

    #[test]
    fn every_cut_and_overread_is_an_error() {
        let mut out = StreamsOut::default();
        out.tag(1);
        out.uint(1 << 40);
        out.float(1.5, 0.0);
        let mut bytes = Vec::new();
        out.finish(&mut bytes);
        for cut in 0..bytes.len() {
            assert!(StreamsIn::read("test", &bytes[..cut]).is_err(), "cut {cut}");
        }
        let (mut inp, _) = StreamsIn::read("test", &bytes).unwrap();
        inp.tag().unwrap();
        assert!(inp.tag().is_err());
        assert!(inp.u32().is_err(), "2^40 is no u32");
        inp.float(0.0).unwrap();
        assert!(inp.float(0.0).is_err());
        // A count larger than what is left, and a huge float count, are refused.
        let mut huge = Vec::new();
        for _ in 0..4 {
            push_varint(&mut huge, 0);
        }
        push_varint(&mut huge, u64::MAX / 2);
        assert!(StreamsIn::read("test", &huge).is_err());
        let mut out = StreamsOut::default();
        out.uint(1000);
        let mut bytes = Vec::new();
        out.finish(&mut bytes);
        let (mut inp, _) = StreamsIn::read("test", &bytes).unwrap();
        assert!(inp.count().is_err());
    }
}
