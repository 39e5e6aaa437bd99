use super::out::Failure;
use std::io::{BufReader, ErrorKind};

pub fn run(input: &str) -> Result<(), Failure> {
    let stdout = std::io::stdout().lock();
    let (label, result) = if input == "-" {
        ("query", crate::query::run(std::io::stdin().lock(), stdout))
    } else {
        let file = std::fs::File::open(input).map_err(|e| format!("{input}: cannot read: {e}"))?;
        (input, crate::query::run(BufReader::new(file), stdout))
    };
    // Only a write meets a closed pipe: reading a file or stdin never does.
    result.map_err(|e| match e.kind() {
        ErrorKind::BrokenPipe => Failure::OutputClosed,
        _ => Failure::Message(format!("{label}: {e}")),
    })
}
