//! A refusal of one field of a surface given as JSON or checked against the input limits.

/// A refusal: the field path (`surfaces[3].control_points[1][2][3]`) and the cause.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {cause}")]
pub struct FieldError {
    pub field: String,
    pub cause: String,
}
