use super::{Point3, Real};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub a: Point3,
    pub b: Point3,
}

impl Segment {
    pub fn new(a: Point3, b: Point3) -> Self {
        Self { a, b }
    }

    pub fn at(&self, t: Real) -> Point3 {
        self.a + (self.b - self.a) * t
    }

    pub fn length(&self) -> Real {
        (self.b - self.a).norm()
    }
}
