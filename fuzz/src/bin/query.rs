//! Any text as a line of the query protocol: `answer_line` must answer, with an error when
//! the request is bad, and never panic or hang.

fn main() {
    afl::fuzz!(|bytes: &[u8]| {
        if let Ok(line) = std::str::from_utf8(bytes) {
            let _ = collidoscope::query::answer_line(line);
        }
    });
}
