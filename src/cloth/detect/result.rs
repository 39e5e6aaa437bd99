//! What a detection hands on: the contacts for the response, the rays and inversions for the
//! trace, and the work the casts did.

use crate::cloth::classify::{RayRecord, Target};
use crate::cloth::inversion::InversionRecord;
use crate::cloth::volume::{VolumeContact, VolumeRayRecord};
use crate::geom::{Real, Vec3};

/// One contact handed to the response: move the vertex by `depth_m` along `normal` (and, for
/// cloth targets, the triangle the other way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothContact {
    pub vertex: u32,
    pub target: Target,
    pub triangle: u32,
    pub normal: Vec3,
    pub depth_m: Real,
    /// Barycentrics of the vertex's projection on the triangle (cloth targets move by them).
    pub bary: [Real; 3],
    /// The side of the triangle the vertex must end on (the side it held before the step).
    pub wanted_side: i8,
    pub inversion: Option<usize>,
}

/// Counters of the work the casts did, for the bench and the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CastWork {
    pub full_casts: u64,
    pub iterative_casts: u64,
    pub iterative_fallbacks: u64,
    pub ray_triangle_tests: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Detection {
    pub rays: Vec<RayRecord>,
    pub contacts: Vec<ClothContact>,
    pub inversions: Vec<InversionRecord>,
    pub work: CastWork,
    /// volume → cloth: rays from the closed bodies' vertices and the contacts they found.
    pub volume_rays: Vec<VolumeRayRecord>,
    pub volume_contacts: Vec<VolumeContact>,
}

/// Appends one part's results, renumbering the inversions its contacts point to.
pub(super) fn append(out: &mut Detection, part: Detection) {
    let nothing_yet = out.rays.is_empty()
        && out.inversions.is_empty()
        && out.contacts.is_empty()
        && out.volume_rays.is_empty()
        && out.volume_contacts.is_empty();
    if nothing_yet {
        let work = out.work;
        *out = part;
        out.work.full_casts += work.full_casts;
        out.work.iterative_casts += work.iterative_casts;
        out.work.iterative_fallbacks += work.iterative_fallbacks;
        out.work.ray_triangle_tests += work.ray_triangle_tests;
        return;
    }
    let offset = out.inversions.len();
    out.rays.extend(part.rays);
    out.inversions.extend(part.inversions);
    out.volume_rays.extend(part.volume_rays);
    out.volume_contacts.extend(part.volume_contacts);
    out.contacts
        .extend(part.contacts.into_iter().map(|c| ClothContact {
            inversion: c.inversion.map(|i| i + offset),
            ..c
        }));
    out.work.full_casts += part.work.full_casts;
    out.work.iterative_casts += part.work.iterative_casts;
    out.work.iterative_fallbacks += part.work.iterative_fallbacks;
    out.work.ray_triangle_tests += part.work.ray_triangle_tests;
}
