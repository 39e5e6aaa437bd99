//! How a hierarchy is built: the split strategy and the leaf size, which a built tree keeps.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BuildStrategy {
    /// Split at the median triangle along the longest axis of the triangle centres.
    Median,
    /// Binned surface-area heuristic on all three axes; leaves when a split does not pay.
    #[default]
    Sah,
    /// RAPID: split the node's volume along its longest axis at the mean of its vertices,
    /// assigning triangles by their centroid; then the next axis; a leaf when all fail.
    Mean,
}

impl BuildStrategy {
    pub fn name(self) -> &'static str {
        match self {
            BuildStrategy::Median => "median",
            BuildStrategy::Sah => "sah",
            BuildStrategy::Mean => "mean",
        }
    }

    pub fn parse(s: &str) -> Option<BuildStrategy> {
        [
            BuildStrategy::Median,
            BuildStrategy::Sah,
            BuildStrategy::Mean,
        ]
        .into_iter()
        .find(|b| b.name() == s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildOptions {
    pub strategy: BuildStrategy,
    /// Median and mean builds split until a leaf holds at most this many triangles (a mean
    /// split that fails on every axis leaves more); SAH may stop earlier when splitting
    /// costs more than testing, but never leaves more.
    pub max_leaf_size: u32,
    /// Bins per axis for the SAH build.
    pub bins: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            strategy: BuildStrategy::Sah,
            max_leaf_size: 4,
            bins: 32,
        }
    }
}

impl BuildOptions {
    pub fn with_strategy(strategy: BuildStrategy) -> Self {
        Self {
            strategy,
            ..Self::default()
        }
    }
}
