//! Any bytes as a capture stream: every line is read, parsed and assembled into frames, with
//! an error for each bad one, and nothing may panic or hang.

use collidoscope::capture::{Assembler, LineFeeder, LineRead, PushError, read_line};

fn main() {
    afl::fuzz!(|bytes: &[u8]| {
        let mut input = std::io::Cursor::new(bytes);
        let mut assembler = Assembler::new();
        let mut feeder = LineFeeder::new();
        let mut buf = Vec::new();
        // A small line bound, so the fuzzer reaches the too-long path with small inputs.
        while let Ok(read) = read_line(&mut input, &mut buf, 4096) {
            match read {
                LineRead::End => break,
                LineRead::TooLong { bytes, ended } => feeder.too_long(bytes, ended),
                LineRead::Line { ended } => {
                    let mut push = |item| match assembler.push(item) {
                        Ok(_) => Ok(assembler.take_warnings()),
                        Err(e) => Err(PushError::Item(e)),
                    };
                    let _ = feeder.feed(&buf, ended, &mut push);
                }
            }
        }
        let _ = assembler.scene();
    });
}
