use serde::{Deserialize, Serialize};

/// The data of a family that adds none. A unit rather than an empty enum so the recording's
/// schema manifest can describe it (serde-reflection cannot trace a type with no value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nothing;
