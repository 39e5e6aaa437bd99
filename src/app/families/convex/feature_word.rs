//! A feature's kind in a word, as the panel, the inspector and the 3D labels name it.

use crate::convex::Feature;

pub fn kind_word(f: Feature) -> &'static str {
    match f {
        Feature::Vertex(_) => "vertex",
        Feature::Edge(_) => "edge",
        Feature::Face(_) => "face",
    }
}
