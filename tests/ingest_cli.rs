//! The capture stream through the binary, both ways a user runs it: `ingest FILE -o OUT`, and
//! the stream piped to `ingest - -o OUT`. Returns the two recordings.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

pub fn ingest_file_and_pipe(stream: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let from_file = dir.join("file.cdrec");
    let out = bin()
        .arg("ingest")
        .arg(stream)
        .arg("-o")
        .arg(&from_file)
        .output()
        .expect("ingest FILE runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_pipe = dir.join("pipe.cdrec");
    let mut child = bin()
        .args(["ingest", "-", "-o"])
        .arg(&from_pipe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingest - runs");
    let mut stdin = child.stdin.take().expect("ingest's stdin");
    let bytes = std::fs::read(stream).expect("the stream reads");
    // Written from a thread while ingest's output is drained, so neither side can block.
    let feeder = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().expect("ingest - ends");
    feeder
        .join()
        .expect("the feeder thread")
        .expect("the stream is piped");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (from_file, from_pipe)
}
