use serde::{Deserialize, Serialize};

/// The data of a family that adds none: no value of this type exists, so a scene or frame
/// can never hold one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Nothing {}
