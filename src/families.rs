//! The registered algorithm families: one line each (see `docs/adding-a-family.md`). The
//! order is the order of their variants in recordings: append, never reorder.

crate::register_families! {
    Pipeline => crate::world::family::PipelineFamily,
    Broad => crate::broad::family::BroadFamily,
    Bvh => crate::bvh::family::BvhFamily,
    Ccd => crate::ccd::family::CcdFamily,
    Bsp => crate::bsp::BspFamily,
    Convex => crate::convex::family::ConvexFamily,
    Cloth => crate::cloth::ClothFamily,
    Nurbs => crate::nurbs::NurbsFamily,
    Capture => crate::capture::CaptureFamily,
    Arka => crate::arka::ArkaFamily,
}

// The families' frame data as formats 6 to 8 wrote it, here where every family may be named.
// Format v9 gave the NURBS family's frame the bodies' orientations, spins, contact-time
// searches and impulses (Annex I's rigid bodies); its older frames read as bodies that never
// turned.
/// The first format whose NURBS frames hold orientations.
pub(crate) const FIRST_TURNING_NURBS: u32 = 9;

type Data<F> = <F as crate::family::EngineFamily>::FrameData;

/// `FamilyFrameData` of format v8: the same variants in the same order (`src/families.rs`).
#[derive(serde::Deserialize)]
pub(crate) enum FamilyFrameDataV8 {
    Pipeline(Data<crate::world::family::PipelineFamily>),
    Broad(Data<crate::broad::family::BroadFamily>),
    Bvh(Data<crate::bvh::family::BvhFamily>),
    Ccd(Data<crate::ccd::family::CcdFamily>),
    Bsp(Data<crate::bsp::BspFamily>),
    Convex(Data<crate::convex::family::ConvexFamily>),
    Cloth(Data<crate::cloth::ClothFamily>),
    Nurbs(NurbsFrameV8),
    Capture(Data<crate::capture::CaptureFamily>),
    Arka(Data<crate::arka::ArkaFamily>),
}

/// The NURBS frame of format v8: bodies that only translated.
#[derive(serde::Deserialize)]
pub(crate) struct NurbsFrameV8 {
    positions: Vec<crate::geom::Point3>,
    velocities: Vec<crate::geom::Vec3>,
    contacts: u32,
}

impl From<FamilyFrameDataV8> for FamilyFrameData {
    fn from(d: FamilyFrameDataV8) -> Self {
        use FamilyFrameDataV8 as V;
        match d {
            V::Pipeline(x) => Self::Pipeline(x),
            V::Broad(x) => Self::Broad(x),
            V::Bvh(x) => Self::Bvh(x),
            V::Ccd(x) => Self::Ccd(x),
            V::Bsp(x) => Self::Bsp(x),
            V::Convex(x) => Self::Convex(x),
            V::Cloth(x) => Self::Cloth(x),
            V::Nurbs(f) => {
                let n = f.positions.len();
                Self::Nurbs(crate::nurbs::NurbsFrame {
                    positions: f.positions,
                    velocities: f.velocities,
                    contacts: f.contacts,
                    orientations: vec![crate::geom::Quat::identity(); n],
                    spins: vec![crate::geom::Vec3::zeros(); n],
                    bisections: Vec::new(),
                    impulses: Vec::new(),
                })
            }
            V::Capture(x) => Self::Capture(x),
            V::Arka(x) => Self::Arka(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Vec3};

    /// A v8 NURBS frame, its bytes written out by hand as postcard lays them: variant 7,
    /// one position, one velocity (3 f64 each), then the contact count.
    #[test]
    fn a_v8_nurbs_frame_reads_as_bodies_that_never_turned() {
        let mut bytes = vec![7u8, 1];
        for x in [1.0f64, 2.0, 3.0] {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes.push(1);
        for x in [0.0f64, -1.0, 0.5] {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes.push(2);
        let old: FamilyFrameDataV8 = postcard::from_bytes(&bytes).unwrap();
        let FamilyFrameData::Nurbs(f) = FamilyFrameData::from(old) else {
            panic!("not a NURBS frame");
        };
        assert_eq!(f.positions, vec![Point3::new(1.0, 2.0, 3.0)]);
        assert_eq!(f.velocities, vec![Vec3::new(0.0, -1.0, 0.5)]);
        assert_eq!(f.contacts, 2);
        assert_eq!(f.orientations, vec![crate::geom::Quat::identity()]);
        assert_eq!(f.spins, vec![crate::geom::Vec3::zeros()]);
        // The current type reads the same bytes differently, or not at all: the legacy
        // path is needed.
        assert_ne!(
            postcard::from_bytes::<FamilyFrameData>(&bytes).ok(),
            Some(FamilyFrameData::Nurbs(f))
        );
    }
}
