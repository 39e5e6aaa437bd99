//! A hash of everything a frame holds except its timings: two frames with equal content
//! hashes are taken to be bit-for-bit the same frame. The recording's index stores it per
//! frame, so `diff` skips the frames two runs agree on without decoding them.
//!
//! The bytes hashed are the frame's postcard encoding, fed straight into the hash (no
//! buffer). Each 8-byte word goes through a step that is a bijection of the state, so two
//! encodings that differ in one word always hash differently; the final mix spreads every
//! bit. Stable across runs, builds and platforms: postcard's encoding and the constants are.

use super::Frame;
use postcard::ser_flavors::Flavor;

const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

struct ContentHasher {
    state: u64,
    word: u64,
    filled: u32,
    len: u64,
}

impl ContentHasher {
    fn new() -> Self {
        Self {
            state: 0x243f_6a88_85a3_08d3,
            word: 0,
            filled: 0,
            len: 0,
        }
    }

    fn eat(&mut self, word: u64) {
        self.state = ((self.state ^ word).wrapping_mul(MULTIPLIER)).rotate_left(29);
    }
}

impl Flavor for ContentHasher {
    type Output = u64;

    /// Whole words straight from the slice when the word in progress is empty (the common
    /// case for a float), bytes one by one otherwise.
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        let mut rest = data;
        while !rest.is_empty() {
            if self.filled == 0
                && let Some((word, tail)) = rest.split_first_chunk::<8>()
            {
                self.eat(u64::from_le_bytes(*word));
                self.len += 8;
                rest = tail;
                continue;
            }
            self.try_push(rest[0])?;
            rest = &rest[1..];
        }
        Ok(())
    }

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        self.word |= (byte as u64) << (8 * self.filled);
        self.filled += 1;
        self.len += 1;
        if self.filled == 8 {
            let w = self.word;
            self.eat(w);
            self.word = 0;
            self.filled = 0;
        }
        Ok(())
    }

    fn finalize(mut self) -> postcard::Result<u64> {
        let (w, len) = (self.word, self.len);
        self.eat(w);
        self.eat(len);
        // MurmurHash3's finaliser: every input bit reaches every output bit.
        let mut h = self.state;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        Ok(h)
    }
}

impl Frame {
    /// The hash of the frame's index, time, bodies, contacts, counters, trace, markers and
    /// family data: everything but the timings, which differ between two runs of the same
    /// simulation.
    pub fn content_hash(&self) -> u64 {
        let content = (
            self.index,
            self.time_s,
            &self.bodies,
            &self.contacts,
            &self.counters,
            &self.trace,
            &self.markers,
            &self.families,
        );
        // Encoding into a hasher cannot run out of room; a type that refused to serialize
        // would fail every recording first, so its hash only needs to be deterministic.
        postcard::serialize_with_flavor(&content, ContentHasher::new()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Frame {
        Frame {
            index: 7,
            time_s: 0.125,
            bodies: Vec::new(),
            contacts: Vec::new(),
            timings: Default::default(),
            counters: Default::default(),
            trace: Vec::new(),
            markers: Vec::new(),
            families: Vec::new(),
        }
    }

    #[test]
    fn timings_do_not_count_and_everything_else_does() {
        let a = sample();
        let mut timed = a.clone();
        timed.timings.narrow_s = 3.0;
        assert_eq!(a.content_hash(), timed.content_hash());
        let mut later = a.clone();
        later.time_s = f64::from_bits(a.time_s.to_bits() + 1);
        assert_ne!(a.content_hash(), later.content_hash());
        let mut counted = a.clone();
        counted.counters.broad_pairs = 1;
        assert_ne!(a.content_hash(), counted.content_hash());
    }

    /// Every one-bit change of a field gives a hash of its own.
    #[test]
    fn one_bit_changes_never_collide() {
        let base = sample();
        let mut seen = std::collections::HashSet::new();
        assert!(seen.insert(base.content_hash()));
        for bit in 0..64 {
            let mut f = base.clone();
            f.time_s = f64::from_bits(base.time_s.to_bits() ^ (1 << bit));
            assert!(seen.insert(f.content_hash()), "bit {bit} of the time");
            let mut g = base.clone();
            g.index ^= 1 << bit;
            assert!(seen.insert(g.content_hash()), "bit {bit} of the index");
        }
    }
}
