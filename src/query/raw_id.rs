//! Echoing a request's id exactly as sent. `serde_json::Value` holds a number as an f64 (or
//! i64/u64), so a 30-digit id or `0.10000000000000000001` would come back rounded; the
//! answer is built as a `Value` and its id is swapped for the request's own text when printed.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// The request's `"id"` as its source text, or `None` when the line is not a JSON object or
/// has no id (the answer's own id, null, is then right).
pub fn raw_id(line: &str) -> Option<&RawValue> {
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
    }
    serde_json::from_str::<Envelope>(line).ok()?.id
}

/// The answer as one line of JSON, its `"id"` being `id`'s text when given. Only an answer
/// that echoes an id takes it: a request that is a JSON array reads as an `Envelope` too
/// (serde fills a struct from a sequence), but its answer's id is null.
pub fn render(answer: &Value, id: Option<&RawValue>) -> String {
    match (answer, id) {
        (Value::Object(fields), Some(id)) if !answer["id"].is_null() => {
            serde_json::to_string(&WithRawId { fields, id }).unwrap_or_else(|_| answer.to_string())
        }
        _ => answer.to_string(),
    }
}

/// An answer object whose `"id"` entry is printed from the raw text; the other entries keep
/// their order (sorted, as `Value` prints them).
struct WithRawId<'a> {
    fields: &'a serde_json::Map<String, Value>,
    id: &'a RawValue,
}

impl Serialize for WithRawId<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, value) in self.fields {
            if key == "id" {
                map.serialize_entry(key, self.id)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thirty_digit_id_comes_back_as_sent() {
        let line = r#"{"id": 123456789012345678901234567890, "op": "x"}"#;
        let answer = serde_json::json!({"id": 1.0, "ok": false, "error": "e"});
        let out = render(&answer, raw_id(line));
        assert_eq!(
            out,
            r#"{"error":"e","id":123456789012345678901234567890,"ok":false}"#
        );
    }

    #[test]
    fn string_and_missing_ids() {
        assert_eq!(
            raw_id(r#"{"id": "a\"b"}"#).map(RawValue::get),
            Some(r#""a\"b""#)
        );
        assert!(raw_id(r#"{"op": "x"}"#).is_none());
        assert!(raw_id(r#"{"id": null}"#).is_none());
        assert!(raw_id("not json").is_none());
    }
}
