//! Position-based response (spec 002 §4.6 point 3): each contact is a one-sided constraint
//! that moves the vertex, and for cloth targets the triangle, apart along the contact normal
//! by the depth, weighted by inverse masses (pinned vertices do not move).

use super::classify::Target;
use super::detect::ClothContact;
use super::inversion::side;
use super::mesh::ClothMesh;
use crate::geom::{Point3, Real, Vec3};

/// Passes over the contacts: a vertex squeezed between a rigid body and another layer of
/// cloth hands its correction to the cloth triangle over a few passes.
const CONTACT_PASSES: usize = 4;

/// Each contact is a one-sided constraint `normal · (vertex − triangle point) ≥ level`, the
/// level read at the detection positions (there the constraint falls short by the depth), and
/// each pass pushes only what is still short. In a pass the cloth contacts come first and the
/// rigid ones last: a rigid body does not give way, so it has the last word. Applied once in
/// detection order, a cloth contact after a rigid one undid it: a sheet's landing row, pressed
/// by the sheet folding over it, went back through the floor it had just been lifted out of
/// (cloth-sheet-on-edge, issue 12); and a vertex between the floor and a fold kept the
/// fold's crossing uncorrected, as only the vertex moved.
pub fn apply_contacts(
    mesh: &ClothMesh,
    positions: &mut [Point3],
    inverse_mass: &[Real],
    contacts: &[ClothContact],
) {
    let mut cloth = Vec::new();
    let mut rigid = Vec::new();
    for c in contacts {
        let v = c.vertex as usize;
        if !(c.depth_m.is_finite() && c.depth_m > 0.0) || v >= positions.len() {
            continue;
        }
        match c.target {
            Target::Rigid(_) if inverse_mass[v] > 0.0 => {
                let level = c.normal.dot(&positions[v].coords) + c.depth_m;
                rigid.push((c.inversion.is_some(), v, c.normal, level));
            }
            Target::Rigid(_) => {}
            Target::Cloth(_) => {
                let Some(&tri) = mesh.triangles.get(c.triangle as usize) else {
                    continue;
                };
                let weights = tri.map(|i| inverse_mass[i as usize]);
                let denominator = inverse_mass[v]
                    + (0..3)
                        .map(|k| c.bary[k] * c.bary[k] * weights[k])
                        .sum::<Real>();
                if denominator <= 0.0 {
                    continue;
                }
                let level = separation(positions, v, tri, c.bary, &c.normal) + c.depth_m;
                cloth.push((c, tri, weights, denominator, level));
            }
        }
    }
    // A vertex squeezed between two rigid bodies (a sheet's corner between the floor and a
    // box resting on it) cannot satisfy both: the crossing contacts go last, as a crossing
    // is certain (the vertex was on the other side before the step) where a ray's inside
    // hit is a guess.
    rigid.sort_by_key(|&(crossing, ..)| crossing);
    for _ in 0..CONTACT_PASSES {
        let mut moved = false;
        for &(c, tri, weights, denominator, level) in &cloth {
            let v = c.vertex as usize;
            let short = level - separation(positions, v, tri, c.bary, &c.normal);
            if short <= 0.0 {
                continue;
            }
            moved = true;
            let s = short / denominator;
            positions[v] += c.normal * (s * inverse_mass[v]);
            for k in 0..3 {
                positions[tri[k] as usize] -= c.normal * (s * weights[k] * c.bary[k]);
            }
        }
        for &(_, v, normal, level) in &rigid {
            let short = level - normal.dot(&positions[v].coords);
            if short > 0.0 {
                moved = true;
                positions[v] += normal * short;
            }
        }
        // A pass that moved nothing leaves the next ones nothing to do (one contact per
        // vertex on a body, the settled case, is done after the first).
        if !moved {
            break;
        }
    }
}

/// How far the vertex stands from the contact's point on the triangle, along the normal.
fn separation(positions: &[Point3], v: usize, tri: [u32; 3], bary: [Real; 3], n: &Vec3) -> Real {
    let on_triangle: Vec3 = (0..3)
        .map(|k| positions[tri[k] as usize].coords * bary[k])
        .sum();
    n.dot(&(positions[v].coords - on_triangle))
}

/// Whether the vertex of a contact ended on the side it had to reach.
pub fn contact_holds(
    mesh: &ClothMesh,
    positions: &[Point3],
    rigid: Option<[Point3; 3]>,
    c: &ClothContact,
) -> bool {
    let tri = rigid.unwrap_or_else(|| mesh.triangle_points(positions, c.triangle));
    side(&positions[c.vertex as usize], tri) == c.wanted_side
}
