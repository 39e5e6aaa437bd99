//! Hostile query sessions (issue 31), run through the real binary: every file under
//! tests/fixtures/hostile/query is one session. Each request line says what it expects in
//! fields the protocol ignores: `"expect": "ok"`, or `"expect_error": "<field>"` (the error
//! must name it). A line that is not UTF-8 must get an error naming its line number. The
//! session must answer every non-blank line, in order, and go on after each bad one.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn fixtures() -> Vec<PathBuf> {
    let files = crate::repo_files::files_in("tests/fixtures/hostile/query", "jsonl");
    assert!(
        files.len() >= 4,
        "fixtures missing in tests/fixtures/hostile/query"
    );
    files
}

/// The binary's answer lines to `input`, fed on stdin.
fn session(input: &[u8]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "query exited with {}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The request lines to be answered: (line number, bytes without newline or BOM).
fn request_lines(input: &[u8]) -> Vec<(usize, &[u8])> {
    input
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix(b"\r").unwrap_or(l)))
        .map(|(n, l)| {
            (
                n,
                if n == 1 {
                    l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l)
                } else {
                    l
                },
            )
        })
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .collect()
}

fn check(name: &str, number: usize, request: &[u8], answer: &str) {
    let reply: Value =
        serde_json::from_str(answer).unwrap_or_else(|e| panic!("{name}:{number}: {e}: {answer}"));
    let Ok(text) = std::str::from_utf8(request) else {
        assert_eq!(reply["ok"], false, "{name}:{number}: {answer}");
        let error = reply["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("line {number}")) && error.contains("UTF-8"),
            "{name}:{number}: {error}"
        );
        return;
    };
    let request: Value = serde_json::from_str(text).unwrap();
    if let Some(field) = request["expect_error"].as_str() {
        assert_eq!(reply["ok"], false, "{name}:{number}: {answer}");
        let error = reply["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("\"{field}")),
            "{name}:{number}: expected {field:?} in {error}"
        );
        assert!(!error.contains("panicked"), "{name}:{number}: {error}");
    } else {
        assert_eq!(request["expect"], "ok", "{name}:{number}: no expectation");
        assert_eq!(reply["ok"], true, "{name}:{number}: {answer}");
    }
    // The id comes back as sent, digit for digit.
    if let Some(start) = text.find("\"id\": ") {
        let id: String = text[start + 6..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        assert!(
            answer.contains(&format!("\"id\":{id}")),
            "{name}:{number}: id {id} in {answer}"
        );
    }
}

#[test]
fn hostile_sessions_answer_every_line() {
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let input = std::fs::read(&path).unwrap();
        let requests = request_lines(&input);
        let answers = session(&input);
        assert_eq!(answers.len(), requests.len(), "{name}: {answers:#?}");
        for ((number, request), answer) in requests.iter().zip(&answers) {
            check(&name, *number, request, answer);
        }
    }
}

/// The 30-digit id of session-bytes.jsonl, checked on its own so that a failure says so.
#[test]
fn a_thirty_digit_id_is_echoed_digit_for_digit() {
    let answers = session(
        br#"{"id": 123456789012345678901234567890, "op": "nope"}
{"id": -0.100000000000000000000000000001, "op": "nope"}
{"id": {"deep": [1e400]}, "op": "nope"}
"#,
    );
    assert!(
        answers[0].contains(r#""id":123456789012345678901234567890"#),
        "{}",
        answers[0]
    );
    assert!(
        answers[1].contains(r#""id":-0.100000000000000000000000000001"#),
        "{}",
        answers[1]
    );
    assert_eq!(answers.len(), 3);
}

/// `1e400` is valid JSON that no f64 holds: as an id it is echoed as sent and the op is
/// answered; in an op's field it is refused by name, the id still echoed.
#[test]
fn an_id_beyond_f64_is_echoed_and_a_field_beyond_it_is_named() {
    let answers = session(
        br#"{"id": 1e400, "op": "sphere_sphere", "a": {"center": [0,0,0], "radius": 1}, "b": {"center": [1.5,0,0], "radius": 1}}
{"id": 7e999, "op": "sphere_sphere", "a": {"center": [0,0,0], "radius": 1e400}, "b": {"center": [1.5,0,0], "radius": 1}}
{"id": 8, "op": [1e400]}
"#,
    );
    assert_eq!(answers.len(), 3);
    assert_eq!(
        answers[0],
        r#"{"distance":-0.5,"id":1e400,"intersects":true,"ok":true}"#
    );
    assert!(answers[1].contains(r#""id":7e999"#), "{}", answers[1]);
    assert!(answers[1].contains(r#""ok":false"#), "{}", answers[1]);
    assert!(answers[1].contains(r#"field \"a\""#), "{}", answers[1]);
    assert!(answers[2].contains(r#""id":8"#), "{}", answers[2]);
    assert!(answers[2].contains(r#""ok":false"#), "{}", answers[2]);
}
