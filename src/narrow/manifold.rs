use crate::geom::{Point3, Real, Vec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    pub point: Point3,
    /// Unit normal from the first shape to the second.
    pub normal: Vec3,
    /// Penetration depth, positive when overlapping.
    pub depth: Real,
}

impl ContactPoint {
    pub fn flipped(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

/// Drops points closer than `tolerance` to one already kept (keeping the deeper one), so
/// that shared mesh edges or coincident candidates do not count twice.
pub fn dedup(points: Vec<ContactPoint>, tolerance: Real) -> Vec<ContactPoint> {
    let mut kept: Vec<ContactPoint> = Vec::with_capacity(points.len());
    for p in points {
        match kept
            .iter_mut()
            .find(|k| (k.point - p.point).norm() < tolerance)
        {
            Some(k) if p.depth > k.depth => *k = p,
            Some(_) => {}
            None => kept.push(p),
        }
    }
    kept
}
