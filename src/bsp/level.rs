use super::{Brush, BspTree, Shape};
use crate::geom::{Plane, Point3, Vec3};
use serde::{Deserialize, Serialize};

/// What the BSP family adds to a scene: a level (each brush as its face planes, outward
/// normals: bevels are derived), the walker's shape and start, and its scripted moves (one per
/// frame, replayed in a loop). A `.map` file is read into this, so recordings carry the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BspScene {
    pub brushes: Vec<Vec<Plane>>,
    pub shape: Shape,
    pub start: Point3,
    pub moves: Vec<Vec3>,
}

/// What a frame records: where the walker is after its slide.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BspFrame {
    pub position: Point3,
}

impl BspScene {
    /// The tree of the scene's brushes; an error names the brush and the cause.
    pub fn tree(&self) -> Result<BspTree, String> {
        self.shape.validate()?;
        if !crate::geom::is_finite_point(&self.start) {
            return Err("the walker's start is not finite".into());
        }
        if let Some(i) = self
            .moves
            .iter()
            .position(|m| !m.iter().all(|c| c.is_finite()))
        {
            return Err(format!("move {i} is not finite"));
        }
        let brushes = self
            .brushes
            .iter()
            .enumerate()
            .map(|(i, planes)| Brush::from_planes(planes).map_err(|e| format!("brush {i}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BspTree::build(brushes))
    }
}

/// The face planes of a box brush, for scenes and tests.
pub fn box_planes(min: [f64; 3], max: [f64; 3]) -> Vec<Plane> {
    let mut out = Vec::with_capacity(6);
    for (i, axis) in [Vec3::x(), Vec3::y(), Vec3::z()].into_iter().enumerate() {
        out.push(Plane {
            normal: axis,
            d: max[i],
        });
        out.push(Plane {
            normal: -axis,
            d: -min[i],
        });
    }
    out
}
