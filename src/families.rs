//! The registered algorithm families: one line each (see `docs/adding-a-family.md`). The
//! order is the order of their variants in recordings: append, never reorder.

crate::register_families! {
    Pipeline => crate::world::PipelineFamily,
    Broad => crate::broad::BroadFamily,
    Bvh => crate::bvh::BvhFamily,
    Ccd => crate::ccd::CcdFamily,
    Bsp => crate::bsp::BspFamily,
    Convex => crate::convex::ConvexFamily,
    Cloth => crate::cloth::ClothFamily,
    Nurbs => crate::nurbs::NurbsFamily,
}
