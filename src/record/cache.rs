//! A small least-recently-used cache of frames read back from disk, so that scrubbing back
//! and forth over the same few frames does not decode them again.

use crate::frame::Frame;
use std::sync::Arc;

pub(crate) struct FrameCache {
    capacity: usize,
    /// Frame position, frame, its estimated size, last use.
    items: Vec<(usize, Arc<Frame>, usize, u64)>,
    clock: u64,
}

impl FrameCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            items: Vec::new(),
            clock: 0,
        }
    }

    pub fn get(&mut self, pos: usize) -> Option<Arc<Frame>> {
        self.clock += 1;
        let clock = self.clock;
        self.items.iter_mut().find(|i| i.0 == pos).map(|i| {
            i.3 = clock;
            i.1.clone()
        })
    }

    /// Adds a frame, then drops the least recently used ones until at most `capacity` frames
    /// of at most `max_bytes` in all are kept. A frame larger than `max_bytes` alone is not
    /// kept (and evicts nothing).
    pub fn insert(&mut self, pos: usize, frame: Arc<Frame>, bytes: usize, max_bytes: usize) {
        if bytes > max_bytes || self.capacity == 0 {
            return;
        }
        self.items.retain(|i| i.0 != pos);
        self.clock += 1;
        self.items.push((pos, frame, bytes, self.clock));
        while !self.items.is_empty()
            && (self.items.len() > self.capacity || self.bytes() > max_bytes)
        {
            let oldest = self
                .items
                .iter()
                .enumerate()
                .min_by_key(|(_, i)| i.3)
                .map(|(k, _)| k)
                .unwrap_or(0);
            self.items.swap_remove(oldest);
        }
    }

    pub fn bytes(&self) -> usize {
        self.items.iter().map(|i| i.2).sum()
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Drops frames at `pos` and after.
    pub fn forget_from(&mut self, pos: usize) {
        self.items.retain(|i| i.0 < pos);
    }

    /// Drops least recently used frames until at most `max_bytes` remain.
    pub fn shrink_to(&mut self, max_bytes: usize) {
        while self.bytes() > max_bytes && !self.items.is_empty() {
            let oldest = self
                .items
                .iter()
                .enumerate()
                .min_by_key(|(_, i)| i.3)
                .map(|(k, _)| k)
                .unwrap_or(0);
            self.items.swap_remove(oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(i: u64) -> Arc<Frame> {
        Arc::new(Frame {
            index: i,
            ..Frame::default()
        })
    }

    #[test]
    fn the_least_recently_used_frame_goes_first() {
        let mut c = FrameCache::new(2);
        c.insert(1, frame(1), 10, 100);
        c.insert(2, frame(2), 10, 100);
        assert!(c.get(1).is_some());
        c.insert(3, frame(3), 10, 100);
        assert!(c.get(2).is_none(), "2 was least recently used");
        assert!(c.get(1).is_some() && c.get(3).is_some());
    }

    #[test]
    fn the_byte_limit_holds() {
        let mut c = FrameCache::new(8);
        for i in 0..8 {
            c.insert(i, frame(i as u64), 30, 100);
            assert!(c.bytes() <= 100);
        }
        assert_eq!(c.len(), 3);
        c.insert(99, frame(99), 500, 100);
        assert!(
            c.get(99).is_none(),
            "a frame larger than the limit is not kept"
        );
        c.forget_from(6);
        assert!(c.get(7).is_none() && c.get(5).is_some());
        c.shrink_to(0);
        assert_eq!(c.len(), 0);
    }
}
