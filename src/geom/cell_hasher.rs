//! The hash of small integer keys looked up many times per step: grid cells, body pairs.

use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hash: SipHash's defence against chosen keys took a third of a cloth
/// cluster search's time and most of a contact merge's. Cell keys come from coordinates, so
/// a chosen collision needs coordinates built for it, and costs only a longer cell list;
/// body ids and shape addresses are not chosen by the user at all.
#[derive(Default)]
pub struct CellHasher(u64);

/// For `HashMap<Cell, V, CellHash>`.
pub type CellHash = BuildHasherDefault<CellHasher>;

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
}
