//! Features of a convex polyhedron: its vertices, edges and faces, named as the query
//! protocol names them (`V3`, `E7`, `F1`).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Feature {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

impl Feature {
    pub fn kind(self) -> FeatureKind {
        match self {
            Feature::Vertex(_) => FeatureKind::Vertex,
            Feature::Edge(_) => FeatureKind::Edge,
            Feature::Face(_) => FeatureKind::Face,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Feature::Vertex(i) | Feature::Edge(i) | Feature::Face(i) => i as usize,
        }
    }

    /// Parses `V<i>`, `E<i>` or `F<i>`.
    pub fn parse(text: &str) -> Option<Feature> {
        let (tag, digits) = text.split_at_checked(1)?;
        let i: u32 = digits.parse().ok()?;
        match tag {
            "V" => Some(Feature::Vertex(i)),
            "E" => Some(Feature::Edge(i)),
            "F" => Some(Feature::Face(i)),
            _ => None,
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Feature::Vertex(i) => write!(f, "V{i}"),
            Feature::Edge(i) => write!(f, "E{i}"),
            Feature::Face(i) => write!(f, "F{i}"),
        }
    }
}

/// The kind of a feature: the states of the V-Clip walk are pairs of kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FeatureKind {
    Vertex,
    Edge,
    Face,
}

impl FeatureKind {
    pub fn letter(self) -> char {
        match self {
            FeatureKind::Vertex => 'V',
            FeatureKind::Edge => 'E',
            FeatureKind::Face => 'F',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in [
            Feature::Vertex(0),
            Feature::Edge(17),
            Feature::Face(4_000_000),
        ] {
            assert_eq!(Feature::parse(&f.to_string()), Some(f));
        }
        for bad in ["", "V", "X1", "E-1", "F1.5", "é1"] {
            assert_eq!(Feature::parse(bad), None, "{bad}");
        }
    }
}
