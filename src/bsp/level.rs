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
    /// Bevel planes added to every brush (off: the faces pushed out alone, which over-estimate
    /// the swept volume at convex edges and corners; spec 001 §13.3).
    #[serde(default = "on")]
    pub bevels: bool,
    /// The collision search and slide the walker uses.
    #[serde(default)]
    pub sweep: BspSweepMode,
    /// Each frame, also slide with the other mode from the same start and record it after a
    /// `Compare` event, so both are drawn side by side (the walker follows `sweep`).
    #[serde(default)]
    pub compare: bool,
}

fn on() -> bool {
    true
}

/// Which collision search and slide the walker runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BspSweepMode {
    /// The corrected sweep (latest entry, earliest exit per brush, start inside solid found)
    /// and slide (fractions clamped, progress kept, no NaN crease).
    #[default]
    Engine,
    /// The article's `getCollision` and `slide` as written (spec 001 §7.3, §8.7), with their
    /// defects: each brush as the article stores it, its planes one behind the other.
    Article,
}

impl BspSweepMode {
    pub fn other(self) -> BspSweepMode {
        match self {
            BspSweepMode::Engine => BspSweepMode::Article,
            BspSweepMode::Article => BspSweepMode::Engine,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BspSweepMode::Engine => "engine",
            BspSweepMode::Article => "article",
        }
    }
}

/// What a frame records: where the walker is after its slide.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BspFrame {
    pub position: Point3,
}

impl BspScene {
    /// A scene of the engine's defaults: bevels on, the engine's sweep, no comparison.
    pub fn new(brushes: Vec<Vec<Plane>>, shape: Shape, start: Point3, moves: Vec<Vec3>) -> Self {
        BspScene {
            brushes,
            shape,
            start,
            moves,
            bevels: true,
            sweep: BspSweepMode::Engine,
            compare: false,
        }
    }

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
            .map(|(i, planes)| {
                Brush::from_planes_with(planes, self.bevels).map_err(|e| format!("brush {i}: {e}"))
            })
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

/// The face planes of a vertical prism, from `y0` to `y1`, over a convex polygon of `(x, z)`
/// corners in either winding: each side's normal points away from the polygon's centre.
pub fn prism_planes(corners: &[(f64, f64)], y0: f64, y1: f64) -> Vec<Plane> {
    let n = corners.len().max(1) as f64;
    let (cx, cz) = corners
        .iter()
        .fold((0.0, 0.0), |(x, z), c| (x + c.0 / n, z + c.1 / n));
    let mut out = Vec::with_capacity(corners.len() + 2);
    for (i, a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        let mut normal = Vec3::new(b.1 - a.1, 0.0, a.0 - b.0);
        if normal.x * (cx - a.0) + normal.z * (cz - a.1) > 0.0 {
            normal = -normal;
        }
        if let Some(normal) = normal.try_normalize(1e-12) {
            out.push(Plane {
                normal,
                d: normal.x * a.0 + normal.z * a.1,
            });
        }
    }
    out.push(Plane {
        normal: Vec3::y(),
        d: y1,
    });
    out.push(Plane {
        normal: -Vec3::y(),
        d: -y0,
    });
    out
}
