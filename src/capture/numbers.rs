//! Numbers as the stream writes them: JSON numbers, and text for the ones that are not
//! finite.

/// A number as the stream writes it: JSON numbers, and the strings `"NaN"`, `"inf"`, `"-inf"`.
pub fn number_text(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{x}")
    }
}

/// A number as a JSON value: itself when finite, else its text (`"NaN"`, `"inf"`, `"-inf"`).
pub fn number_json(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x)
        .map(serde_json::Value::Number)
        .unwrap_or_else(|| serde_json::Value::String(number_text(x)))
}
