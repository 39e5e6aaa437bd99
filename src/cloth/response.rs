//! Position-based response (spec 002 §4.6 point 3): each contact is a one-sided constraint
//! that moves the vertex, and for cloth targets the triangle, apart along the contact normal
//! by the depth, weighted by inverse masses (pinned vertices do not move).

use super::classify::Target;
use super::detect::ClothContact;
use super::inversion::side;
use super::mesh::ClothMesh;
use crate::geom::{Point3, Real};

pub fn apply_contacts(
    mesh: &ClothMesh,
    positions: &mut [Point3],
    inverse_mass: &[Real],
    contacts: &[ClothContact],
) {
    for c in contacts {
        if !(c.depth_m.is_finite() && c.depth_m > 0.0) {
            continue;
        }
        let v = c.vertex as usize;
        match c.target {
            Target::Rigid(_) => {
                if inverse_mass[v] > 0.0 {
                    positions[v] += c.normal * c.depth_m;
                }
            }
            Target::Cloth(_) => {
                let tri = mesh.triangles[c.triangle as usize];
                let weights = tri.map(|i| inverse_mass[i as usize]);
                let denominator = inverse_mass[v]
                    + (0..3)
                        .map(|k| c.bary[k] * c.bary[k] * weights[k])
                        .sum::<Real>();
                if denominator <= 0.0 {
                    continue;
                }
                let s = c.depth_m / denominator;
                positions[v] += c.normal * (s * inverse_mass[v]);
                for k in 0..3 {
                    positions[tri[k] as usize] -= c.normal * (s * weights[k] * c.bary[k]);
                }
            }
        }
    }
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
