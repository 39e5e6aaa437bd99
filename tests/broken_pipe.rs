//! A closed pipe is not a crash: every subcommand whose output is cut short (`| head -2`,
//! `| grep -q NAME`) ends quietly with no panic and no backtrace, as Unix tools do.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

fn text(o: &Output) -> String {
    format!(
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs the command with a stdout pipe whose reading end is already closed: the very first
/// write meets a broken pipe, whatever the timing (a reader that closes after reading would
/// race with a short output that fits in the pipe's buffer).
fn run_into_closed_pipe(cmd: &mut Command, stdin: Option<&[u8]>) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    cmd.stdout(writer).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child: Child = cmd.spawn().expect("the collidoscope binary runs");
    if let (Some(bytes), Some(mut input)) = (stdin, child.stdin.take()) {
        // The child may stop reading once its output is gone: a failed write here is fine.
        let _ = input.write_all(bytes);
    }
    child.wait_with_output().expect("the child ends")
}

fn assert_quiet(what: &str, o: &Output) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{what}: {}",
        text(o)
    );
    assert!(
        o.status.success(),
        "{what}: exit {:?}\n{}",
        o.status,
        text(o)
    );
}

/// A subcommand's name, its arguments and what it reads on stdin.
type Case<'a> = (&'a str, Vec<&'a str>, Option<&'a [u8]>);

fn record(dir: &Path) -> PathBuf {
    let out = dir.join("small.cdrec");
    let o = bin()
        .args(["record", "--scene", "box-stack", "--frames", "20", "-o"])
        .arg(&out)
        .output()
        .expect("the collidoscope binary runs");
    assert!(o.status.success(), "{}", text(&o));
    out
}

#[test]
fn every_subcommand_ends_quietly_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path());
    let queries = dir.path().join("queries.jsonl");
    let line = r#"{"id": 1, "op": "sphere_sphere", "a": {"center": [0,0,0], "radius": 1}, "b": {"center": [1.5,0,0], "radius": 1}}"#;
    std::fs::write(&queries, format!("{line}\n{line}\n")).unwrap();
    let f = file.to_str().unwrap();
    let q = queries.to_str().unwrap();
    let again = dir.path().join("again.cdrec");
    let a = again.to_str().unwrap();
    let cases: Vec<Case> = vec![
        ("scenes", vec!["scenes"], None),
        ("info", vec!["info", f], None),
        ("info --json", vec!["info", "--json", f], None),
        ("validate", vec!["validate", f], None),
        ("query FILE", vec!["query", q], None),
        ("query -", vec!["query", "-"], Some(line.as_bytes())),
        (
            "record",
            vec!["record", "--scene", "box-stack", "--frames", "3", "-o", a],
            None,
        ),
        ("--help", vec!["--help"], None),
        ("--version", vec!["--version"], None),
    ];
    for (what, args, stdin) in cases {
        let o = run_into_closed_pipe(bin().args(&args), stdin);
        assert_quiet(what, &o);
    }
    // The recording made with its output cut short is whole all the same.
    let o = bin().args(["info", "--json", a]).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["frames"], 4);
}

#[test]
fn a_reader_that_stops_after_one_line_ends_the_query_quietly() {
    // Far more answers than a pipe buffers (64 KiB on Linux): the writer must meet the close.
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("many.jsonl");
    let line = r#"{"id": 7, "op": "sphere_sphere", "a": {"center": [0,0,0], "radius": 1}, "b": {"center": [1.5,0,0], "radius": 1}}"#;
    std::fs::write(&queries, format!("{line}\n").repeat(20_000)).unwrap();
    let mut child = bin()
        .arg("query")
        .arg(&queries)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("\"ok\":true"), "{first}");
    // Dropping the reader closed the pipe, like `head -1`.
    let o = child.wait_with_output().unwrap();
    assert_quiet("query | head -1", &o);
}

#[test]
fn a_failure_is_still_reported_when_stdout_is_closed() {
    // A closed stdout must not hide a real error: it goes to stderr with a non-zero status.
    let o = run_into_closed_pipe(bin().args(["info", "/nonexistent/x.cdrec"]), None);
    assert!(!o.status.success(), "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("/nonexistent/x.cdrec"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
