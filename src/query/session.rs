//! The session loop: one answer per non-blank line, whatever the line holds. Lines are read as
//! bytes, so a line that is not UTF-8 is one failed answer rather than the end of the session
//! (`BufRead::lines` would stop the whole run with an I/O error).

use super::answer_line;
use super::raw_id::{raw_id, render};
use serde_json::Value;
use std::io::{BufRead, Write};

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Runs the protocol over a reader; blank lines are skipped. Fails only when reading or
/// writing fails.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let mut line = trim_newline(&bytes);
        if number == 1 {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let text = match std::str::from_utf8(line) {
            Ok(text) => text,
            Err(e) => {
                let answer = super::failure(
                    Value::Null,
                    format!(
                        "line {number} is not UTF-8 (invalid byte at column {}); the line is skipped",
                        e.valid_up_to() + 1
                    ),
                );
                writeln!(output, "{answer}")?;
                output.flush()?;
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        let answer = answer_line(text);
        writeln!(output, "{}", render(&answer, raw_id(text)))?;
        output.flush()?;
    }
    Ok(())
}

/// The line without its `\n` or `\r\n` (what `BufRead::lines` removed).
fn trim_newline(bytes: &[u8]) -> &[u8] {
    let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    line.strip_suffix(b"\r").unwrap_or(line)
}
