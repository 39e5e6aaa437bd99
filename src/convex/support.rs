//! The one question GJK asks a convex shape: its farthest point along a direction.

use crate::geom::{ConvexPolyhedron, Point3, Pose, Segment, Triangle, Vec3};

/// A convex shape seen through its support mapping, in its own local frame.
pub trait SupportMap {
    /// A point of the shape maximising `dir · p` (any one of them on ties), and the index of
    /// the vertex it is when the shape has vertices (so a simplex can name its features).
    fn support(&self, dir: &Vec3) -> (Point3, Option<u32>);
}

impl SupportMap for ConvexPolyhedron {
    fn support(&self, dir: &Vec3) -> (Point3, Option<u32>) {
        let i = ConvexPolyhedron::support(self, dir);
        (self.vertices[i], Some(i as u32))
    }
}

/// A triangle as a flat convex shape: a mesh's face on its own, as conservative advancement
/// measures it.
impl SupportMap for Triangle {
    fn support(&self, dir: &Vec3) -> (Point3, Option<u32>) {
        let v = self.vertices();
        let i = (1..3).fold(0, |best, i| {
            if v[i].coords.dot(dir) > v[best].coords.dot(dir) {
                i
            } else {
                best
            }
        });
        (v[i], Some(i as u32))
    }
}

/// A segment: a capsule's inner axis, whose distance to a shape is the capsule's plus its
/// radius.
impl SupportMap for Segment {
    fn support(&self, dir: &Vec3) -> (Point3, Option<u32>) {
        if self.b.coords.dot(dir) > self.a.coords.dot(dir) {
            (self.b, Some(1))
        } else {
            (self.a, Some(0))
        }
    }
}

/// A shape placed in the world by a pose: supports are asked in the shape's frame.
pub struct Posed<'a, S: SupportMap + ?Sized> {
    pub shape: &'a S,
    pub pose: &'a Pose,
}

impl<S: SupportMap + ?Sized> SupportMap for Posed<'_, S> {
    fn support(&self, dir: &Vec3) -> (Point3, Option<u32>) {
        let local = self.pose.rotation.inverse_transform_vector(dir);
        let (p, id) = self.shape.support(&local);
        (self.pose.transform_point(&p), id)
    }
}
