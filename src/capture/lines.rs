//! Lines of a stream read within a bound: a 100 MB line is skipped as one error, not held
//! in memory.

use std::io::BufRead;

/// The longest line read: a mesh of a million triangles is about 60 MB of JSON.
pub const MAX_LINE_BYTES: usize = 64 << 20;

#[derive(Debug, PartialEq)]
pub enum LineRead {
    /// A line, without its line break; `ended` is false for a last line with no line break
    /// (a stream cut there, or one that just does not end with one).
    Line {
        ended: bool,
    },
    /// A line longer than the bound, skipped up to its end: its length.
    TooLong {
        bytes: u64,
        ended: bool,
    },
    End,
}

/// Reads the next line into `buf` (cleared first).
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    let mut total: u64 = 0;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (total, too_long) {
                (0, _) => LineRead::End,
                (bytes, true) => LineRead::TooLong {
                    bytes,
                    ended: false,
                },
                _ => LineRead::Line { ended: false },
            });
        }
        let (take, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        total += take as u64;
        if !too_long && buf.len() + take <= max {
            buf.extend_from_slice(&chunk[..take]);
        } else if !too_long {
            too_long = true;
            buf.clear();
        }
        input.consume(take + usize::from(found));
        if found {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(if too_long {
                LineRead::TooLong {
                    bytes: total,
                    ended: true,
                }
            } else {
                LineRead::Line { ended: true }
            });
        }
    }
}
