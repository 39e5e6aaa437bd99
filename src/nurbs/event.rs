//! Compact trace vocabulary of the query: ids, the path of each sub-patch and the verdicts
//! that cannot be recomputed. Boxes and nets are rebuilt from the recorded surface and the
//! path by [`super::query::rebuild_piece`].

use serde::{Deserialize, Serialize};

/// A sub-patch as the path of halvings from the whole surface: bit `k` of `bits` is the child
/// taken at split `k` (0 = lower half). The split direction at each step is derived from the
/// surface by the same rule the query uses, so the path alone names the rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PatchPath {
    pub depth: u8,
    pub bits: u64,
}

/// Deepest path a [`PatchPath`] can hold.
pub const MAX_PATH_DEPTH: u8 = 64;

impl PatchPath {
    pub fn child(self, which: u8) -> Self {
        Self {
            depth: self.depth + 1,
            bits: self.bits | ((which as u64 & 1) << self.depth),
        }
    }

    pub fn step(self, k: u8) -> u8 {
        ((self.bits >> k) & 1) as u8
    }
}

/// One step of a surface–surface query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NurbsEvent {
    /// Two boxes tested; `axis` is the separating axis index of `bvh::sat_obb` (None: overlap).
    BoxPair {
        surface_a: u32,
        surface_b: u32,
        path_a: PatchPath,
        path_b: PatchPath,
        axis: Option<u8>,
    },
    /// One piece halved; the direction is derived from the path.
    Split { surface: u32, path: PatchPath },
    /// A leaf pair accepted as a hit at the query's stop.
    Hit {
        surface_a: u32,
        surface_b: u32,
        path_a: PatchPath,
        path_b: PatchPath,
    },
    /// A piece of the intersection curve (`HitMode::Curve`): where the corner triangles of
    /// the pieces of the `Hit` just before cross, as the (u, v) of its two ends on each
    /// surface, each the surface point nearest the triangles' crossing (`flat::nearest_uv`):
    /// the viewer draws the ends at S_a(u, v), within the flat tolerance of the crossing.
    Segment {
        surface_a: u32,
        surface_b: u32,
        uv_a: [[f64; 2]; 2],
        uv_b: [[f64; 2]; 2],
    },
}

impl crate::family::FamilyEvent for NurbsEvent {
    fn bodies(&self) -> Vec<crate::trace::BodyId> {
        // Surfaces belong to the family's own bodies, not to rigid bodies.
        Vec::new()
    }

    fn summary(&self, _verdict: crate::trace::Verdict) -> String {
        self.describe()
    }
}

impl NurbsEvent {
    /// One line for the event list.
    pub fn describe(&self) -> String {
        match self {
            NurbsEvent::BoxPair {
                surface_a,
                surface_b,
                path_a,
                path_b,
                axis,
            } => match axis {
                Some(a) => format!(
                    "boxes {surface_a}@{}/{} vs {surface_b}@{}/{}: separated on {}",
                    path_a.depth,
                    path_a.bits,
                    path_b.depth,
                    path_b.bits,
                    crate::bvh::sat_obb::SAT_AXIS_NAMES[*a as usize % 15]
                ),
                None => format!(
                    "boxes {surface_a}@{}/{} vs {surface_b}@{}/{}: overlap",
                    path_a.depth, path_a.bits, path_b.depth, path_b.bits
                ),
            },
            NurbsEvent::Split { surface, path } => {
                format!("split surface {surface} at {}/{}", path.depth, path.bits)
            }
            NurbsEvent::Hit {
                surface_a,
                surface_b,
                ..
            } => format!("hit between surfaces {surface_a} and {surface_b}"),
            NurbsEvent::Segment {
                surface_a,
                surface_b,
                uv_a,
                ..
            } => format!(
                "curve segment between surfaces {surface_a} and {surface_b}: on {surface_a} \
                 from ({:.4}, {:.4}) to ({:.4}, {:.4})",
                uv_a[0][0], uv_a[0][1], uv_a[1][0], uv_a[1][1]
            ),
        }
    }
}
