//! A stack kept inline up to `N` entries that spills to the heap past them: the traversals'
//! stacks of waiting nodes, which real trees keep shallow, then allocate nothing.

pub struct InlineStack<T: Copy, const N: usize> {
    inline: [T; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy, const N: usize> InlineStack<T, N> {
    /// An empty stack; `fill` only initialises the unused slots.
    pub fn new(fill: T) -> Self {
        InlineStack {
            inline: [fill; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    pub fn push(&mut self, e: T) {
        if self.len < N {
            self.inline[self.len] = e;
        } else {
            self.spill.push(e);
        }
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < N {
            Some(self.inline[self.len])
        } else {
            self.spill.pop()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A `Vec` is the oracle, over runs that cross the inline capacity both ways.
        #[test]
        fn it_pops_what_a_vec_pops(ops in proptest::collection::vec(proptest::option::of(0u32..100), 0..64)) {
            let mut ours = InlineStack::<u32, 4>::new(0);
            let mut oracle = Vec::new();
            for op in ops {
                match op {
                    Some(v) => {
                        ours.push(v);
                        oracle.push(v);
                    }
                    None => prop_assert_eq!(ours.pop(), oracle.pop()),
                }
            }
            while let Some(v) = oracle.pop() {
                prop_assert_eq!(ours.pop(), Some(v));
            }
            prop_assert_eq!(ours.pop(), None);
        }
    }
}
