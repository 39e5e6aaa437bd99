//! `collidoscope query`: JSON lines in, JSON lines out, one answer per request in order.
//! The contract is docs/query-protocol.md (the shared spec, extended, never changed).

pub mod args;
pub(crate) mod basic_ops;

pub use args::{ArgError, Args};

use serde_json::{Map, Value};
use std::io::{BufRead, Write};

/// The result fields of a successful op (merged into `{"id", "ok": true}`).
pub type Reply = Map<String, Value>;

pub type Op = fn(&Args) -> Result<Reply, ArgError>;

/// Every op by name: each family registers its own (`EngineFamily::query_ops`).
fn ops() -> Vec<(&'static str, Op)> {
    crate::families::query_ops()
}

pub fn op_names() -> Vec<&'static str> {
    ops().into_iter().map(|(n, _)| n).collect()
}

/// Answers one request line.
pub fn answer_line(line: &str) -> Value {
    let request: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return failure(Value::Null, format!("not JSON: {e}")),
    };
    let Value::Object(fields) = request else {
        return failure(Value::Null, "a request must be a JSON object".into());
    };
    let id = fields.get("id").cloned().unwrap_or(Value::Null);
    let op = match fields.get("op") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return failure(id, "field \"op\" must be a string".into()),
        None => return failure(id, "missing field \"op\"".into()),
    };
    let Some((_, handler)) = ops().into_iter().find(|(n, _)| *n == op) else {
        return failure(
            id,
            format!("unknown op \"{op}\"; known ops: {}", op_names().join(", ")),
        );
    };
    match handler(&Args::new(&fields)) {
        Ok(result) => {
            let mut out = Map::new();
            out.insert("id".into(), id);
            out.insert("ok".into(), Value::Bool(true));
            out.extend(result);
            Value::Object(out)
        }
        Err(e) => failure(id, e.to_string()),
    }
}

fn failure(id: Value, error: String) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), id);
    out.insert("ok".into(), Value::Bool(false));
    out.insert("error".into(), Value::String(error));
    Value::Object(out)
}

/// Runs the protocol over a reader; blank lines are skipped. Fails only when reading or
/// writing fails.
pub fn run(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = answer_line(&line);
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}
