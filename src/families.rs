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
