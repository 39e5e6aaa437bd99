use super::level::{BspFrame, BspScene};
use super::{BspTree, Shape, clip::BrushClip, clip_brush, slide};
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilyInput, FamilySim, StepContext};
use crate::frame::{Frame, Marker, MarkerKind};
use crate::geom::{Point3, Vec3};
use std::sync::Arc;

/// The walker: each frame it slides by its next scripted move.
#[derive(Clone)]
pub struct WalkerSim {
    pub tree: Arc<BspTree>,
    pub shape: Shape,
    pub moves: Arc<Vec<Vec3>>,
    pub position: Point3,
    /// A move the viewer's walk mode asked for: the next step makes it instead of the script.
    pub driven: Option<Vec3>,
}

/// Depth beyond which a walker counts as inside solid (rounding stays far below it).
const INSIDE_SOLID: f64 = 1e-6;

impl WalkerSim {
    /// The brushes the shape overlaps at `p` by more than rounding.
    pub fn inside_brushes(&self, p: &Point3) -> Vec<usize> {
        self.tree
            .brushes
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                matches!(clip_brush(b, &self.shape, p, p),
                    BrushClip::StartSolid { depth, .. } if depth > INSIDE_SOLID)
            })
            .map(|(i, _)| i)
            .collect()
    }
}

impl FamilySim for WalkerSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        let m = match self.driven.take() {
            Some(m) => m,
            None if self.moves.is_empty() => return,
            None => self.moves[(ctx.frame_index as usize).wrapping_sub(1) % self.moves.len()],
        };
        let result = slide(&self.tree, &self.shape, &self.position, &m, probe);
        self.position = result.end;
        let marker = match result.reason {
            super::SlideEnd::StartSolid => {
                Some(("walker in solid", "the walker starts inside a brush"))
            }
            super::SlideEnd::Corner => {
                Some(("walker cornered", "the slide stopped against 3+ walls"))
            }
            _ => None,
        };
        if let Some((kind, text)) = marker {
            ctx.markers.push(Marker {
                kind: MarkerKind::Other(kind.into()),
                text: text.into(),
                bodies: Vec::new(),
            });
        }
    }

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Bsp(BspFrame {
            position: self.position,
        })
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Bsp(f) = data {
            self.position = f.position;
        }
    }

    fn drive(&mut self, input: &FamilyInput) {
        if input.family == <super::BspFamily as crate::family::EngineFamily>::NAME
            && let [x, y, z] = input.values[..]
        {
            let m = Vec3::new(x, y, z);
            // Input from the keys is trusted no more than a file: a bad move is dropped.
            self.driven = m.iter().all(|c| c.is_finite()).then_some(m);
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }

    fn violations(&self, frame: &Frame) -> Vec<String> {
        let mut out = Vec::new();
        for data in &frame.families {
            if let FamilyFrameData::Bsp(f) = data {
                for b in self.inside_brushes(&f.position) {
                    out.push(format!("walker inside solid: brush {b}"));
                }
            }
        }
        out
    }
}

/// Builds the walker of a scene's BSP data.
pub fn walker(data: &BspScene) -> Result<WalkerSim, String> {
    Ok(WalkerSim {
        tree: Arc::new(data.tree()?),
        shape: data.shape,
        moves: Arc::new(data.moves.clone()),
        position: data.start,
        driven: None,
    })
}

#[allow(unused)]
fn _assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<WalkerSim>();
}
