use serde::{Deserialize, Serialize};
use std::fmt;

/// An id as the captured engine wrote it: a non-negative integer or a string. The two are
/// different ids (`1` is not `"1"`), and both are shown exactly as written, without quotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EngineId {
    Int(u64),
    Text(String),
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineId::Int(n) => write!(f, "{n}"),
            EngineId::Text(s) => f.write_str(s),
        }
    }
}

impl From<u64> for EngineId {
    fn from(n: u64) -> Self {
        EngineId::Int(n)
    }
}

impl From<u32> for EngineId {
    fn from(n: u32) -> Self {
        EngineId::Int(n.into())
    }
}

impl From<&str> for EngineId {
    fn from(s: &str) -> Self {
        EngineId::Text(s.to_string())
    }
}

impl From<String> for EngineId {
    fn from(s: String) -> Self {
        EngineId::Text(s)
    }
}

impl EngineId {
    /// The id as a JSON value, as the stream writes it.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            EngineId::Int(n) => serde_json::Value::from(*n),
            EngineId::Text(s) => serde_json::Value::from(s.as_str()),
        }
    }
}
