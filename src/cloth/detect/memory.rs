//! What the casts remember from one step to the next (spec 002 §3.5): the walk's starting
//! triangles and the gates' accumulated displacements.

use crate::geom::Real;

/// Temporal data of the iterative cast: for each obstacle (then the cloth itself, see
/// [`SELF_LISTS`]), each vertex's last hit triangle, and each cluster's relative
/// displacement accumulated since its last complete cast (§3.5). Small and exact, so a
/// recording can carry it and a restored step casts the same rays.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CastMemory {
    pub last_triangle: Vec<Vec<Option<u32>>>,
    pub accumulated_m: Vec<Vec<Real>>,
    /// Each vertex's ray origin at the last detection (f32: only the gate reads it, and the
    /// recording stays small), so the gate measures how far the rays moved, not the sag
    /// that each step's response takes back.
    #[serde(default)]
    pub origins: Vec<[f32; 3]>,
}

/// With self-collision, the memory holds the cloth's own entries after the obstacles': two
/// more `last_triangle` lists (each vertex's last hit on the cloth on its inner and outer
/// side, §3.4.1) and one more `accumulated_m` list (per cluster,
/// [`crate::cloth::self_gate`]). Appending keeps the recorded type, so recordings made before
/// the cloth walked on itself still load.
const SELF_LISTS: usize = 2;

/// Fits the memory to this step's obstacles, vertices and clusters: lists of another shape
/// start again (every ray cast completely), the obstacles' kept when only the cloth's own
/// lists are missing.
pub(super) fn fit_memory(
    memory: &mut CastMemory,
    obstacles: usize,
    walk_self: bool,
    n: usize,
    clusters: usize,
) {
    let fits = |m: &CastMemory, lists: usize, accumulators: usize| {
        m.last_triangle.len() >= lists
            && m.accumulated_m.len() >= accumulators
            && m.last_triangle[..lists].iter().all(|t| t.len() == n)
            && m.accumulated_m[..accumulators]
                .iter()
                .all(|a| a.len() == clusters)
    };
    if !fits(memory, obstacles, obstacles) {
        memory.last_triangle = vec![vec![None; n]; obstacles];
        memory.accumulated_m = vec![vec![Real::INFINITY; clusters]; obstacles];
    }
    let (lists, accumulators) = if walk_self {
        (obstacles + SELF_LISTS, obstacles + 1)
    } else {
        (obstacles, obstacles)
    };
    let exact = memory.last_triangle.len() == lists && memory.accumulated_m.len() == accumulators;
    if !(exact && fits(memory, lists, accumulators)) {
        memory.last_triangle.truncate(obstacles);
        memory.accumulated_m.truncate(obstacles);
        memory.last_triangle.resize(lists, vec![None; n]);
        memory
            .accumulated_m
            .resize(accumulators, vec![Real::INFINITY; clusters]);
    }
}
