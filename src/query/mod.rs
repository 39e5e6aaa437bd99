//! `collidoscope query`: JSON lines in, JSON lines out, one answer per request in order.
//! The contract is docs/query-protocol.md (the shared spec, extended, never changed).

pub mod args;
pub(crate) mod basic_ops;
mod finite;
pub mod limits;
mod raw_id;
mod session;

pub use args::{ArgError, Args};
pub use session::run;

use serde_json::{Map, Value};
use std::panic::{AssertUnwindSafe, catch_unwind};

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
    let fields = match request_fields(line) {
        Ok(fields) => fields,
        Err(answer) => return answer,
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
    let result = match run_op(handler, &fields) {
        Ok(reply) => finite::check_reply(&op, &fields, &reply)
            .map(|()| reply)
            .map_err(OpFailure::Arg),
        Err(e) => Err(e),
    };
    match result {
        Ok(result) => {
            let mut out = Map::new();
            out.insert("id".into(), id);
            out.insert("ok".into(), Value::Bool(true));
            out.extend(result);
            Value::Object(out)
        }
        Err(OpFailure::Arg(e)) => failure(id, e.to_string()),
        Err(OpFailure::Panic(message)) => failure(
            id,
            format!("op \"{op}\" panicked: {message} (a bug: please report this line)"),
        ),
    }
}

/// The request's fields, or the failure to answer with. A number no `Value` holds (`1e400`
/// overflows an f64) is valid JSON: the request is then read field by field, so its id is
/// still echoed (as sent, by `raw_id::render`, from the placeholder its text makes here)
/// and the error names the field.
fn request_fields(line: &str) -> Result<Map<String, Value>, Value> {
    let whole_error = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(fields)) => return Ok(fields),
        Ok(_) => {
            return Err(failure(
                Value::Null,
                "a request must be a JSON object".into(),
            ));
        }
        Err(e) => e,
    };
    let not_json = || failure(Value::Null, format!("not JSON: {whole_error}"));
    let raw: std::collections::BTreeMap<String, &serde_json::value::RawValue> =
        serde_json::from_str(line).map_err(|_| not_json())?;
    let id = raw.get("id").map_or(Value::Null, |text| {
        serde_json::from_str(text.get()).unwrap_or_else(|_| Value::String(text.get().into()))
    });
    let mut fields = Map::new();
    for (name, text) in &raw {
        let value = match serde_json::from_str(text.get()) {
            Ok(value) => value,
            Err(_) if name == "id" => id.clone(),
            Err(e) => return Err(failure(id, format!("field \"{name}\": {e}"))),
        };
        fields.insert(name.clone(), value);
    }
    Ok(fields)
}

/// Why an op gave no reply: its input was refused, or it panicked (a bug, but one line's bug
/// must not end the session).
enum OpFailure {
    Arg(ArgError),
    Panic(String),
}

impl From<ArgError> for OpFailure {
    fn from(e: ArgError) -> Self {
        Self::Arg(e)
    }
}

/// Runs one op, catching a panic. The op only reads the request, so nothing it could leave
/// half-updated outlives the unwind: `AssertUnwindSafe` is sound here.
fn run_op(handler: Op, fields: &Map<String, Value>) -> Result<Reply, OpFailure> {
    match catch_unwind(AssertUnwindSafe(|| handler(&Args::new(fields)))) {
        Ok(result) => Ok(result?),
        Err(payload) => Err(OpFailure::Panic(panic_message(payload.as_ref()))),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

pub(crate) fn failure(id: Value, error: String) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), id);
    out.insert("ok".into(), Value::Bool(false));
    out.insert("error".into(), Value::String(error));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boom(_: &Args) -> Result<Reply, ArgError> {
        let empty: Vec<u8> = Vec::new();
        // An index out of bounds, as the NURBS basis arrays once panicked.
        Ok(Reply::from_iter([("x".to_string(), Value::from(empty[3]))]))
    }

    #[test]
    fn a_panicking_op_is_an_error_with_its_message() {
        match run_op(boom, &Map::new()) {
            Err(OpFailure::Panic(message)) => {
                assert!(message.contains("index out of bounds"), "{message}")
            }
            _ => panic!("the panic was not caught"),
        }
    }
}
