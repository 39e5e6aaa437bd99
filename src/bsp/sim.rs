use super::article::{self, ArticleTree};
use super::event::{BspEvent, SlideEnd, report};
use super::level::{BspFrame, BspScene, BspSweepMode};
use super::{BspTree, Shape, clip::BrushClip, clip_brush, slide};
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilyInput, FamilySim, StepContext};
use crate::frame::{Frame, Marker, MarkerKind};
use crate::geom::{Point3, Vec3};
use crate::trace::Verdict;
use std::sync::Arc;

/// The walker: each frame it slides by its next scripted move.
#[derive(Clone)]
pub struct WalkerSim {
    pub tree: Arc<BspTree>,
    pub shape: Shape,
    pub moves: Arc<Vec<Vec3>>,
    pub position: Point3,
    /// Where the scene placed the walker.
    pub start: Point3,
    /// A move the viewer's walk mode asked for: the next step makes it instead of the script.
    pub driven: Option<Vec3>,
    pub mode: BspSweepMode,
    /// Also slide with the other mode each frame, recorded after a `Compare` event.
    pub compare: bool,
    /// The level as the article stores it, for [`BspSweepMode::Article`].
    pub article: Arc<ArticleTree>,
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

    /// One slide by `m` from the walker's position with `mode`: where it ends (`None`: the
    /// article's NaN) and why.
    pub fn slide_with_mode(
        &self,
        mode: BspSweepMode,
        m: &Vec3,
        probe: &mut dyn DynProbe,
    ) -> (Option<Point3>, SlideEnd) {
        match mode {
            BspSweepMode::Engine => {
                let r = slide(&self.tree, &self.shape, &self.position, m, probe);
                (Some(r.end), r.reason)
            }
            BspSweepMode::Article => {
                let r = article::slide(&self.article, &self.shape, &self.position, m, probe);
                (r.end, r.reason)
            }
        }
    }
}

impl FamilySim for WalkerSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        let m = match self.driven.take() {
            Some(m) => m,
            None if self.moves.is_empty() => return,
            None => self.moves[(ctx.frame_index as usize).wrapping_sub(1) % self.moves.len()],
        };
        let (end, reason) = self.slide_with_mode(self.mode, &m, probe);
        if self.compare {
            let other = self.mode.other();
            report(probe, Verdict::Info, BspEvent::Compare { mode: other });
            self.slide_with_mode(other, &m, probe);
        }
        // The article's NaN is not written: the walker is held where it was, and marked.
        self.position = end.unwrap_or(self.position);
        let marker = match reason {
            SlideEnd::StartSolid => Some(("walker in solid", "the walker starts inside a brush")),
            SlideEnd::Corner => Some(("walker cornered", "the slide stopped against 3+ walls")),
            SlideEnd::NotFinite => Some((
                "article NaN",
                "the article's slide would write a NaN position (crease of one wall met \
                 twice); the walker is held where it was",
            )),
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
                // A walker the scene placed inside solid is the scene's doing: the slide
                // reports StartSolid and keeps it there. The engine putting it there is not.
                if f.position == self.start {
                    continue;
                }
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
    let tree = data.tree()?;
    Ok(WalkerSim {
        article: Arc::new(ArticleTree::chains(&tree, &data.brushes)),
        tree: Arc::new(tree),
        shape: data.shape,
        moves: Arc::new(data.moves.clone()),
        position: data.start,
        start: data.start,
        driven: None,
        mode: data.sweep,
        compare: data.compare,
    })
}

#[allow(unused)]
fn _assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<WalkerSim>();
}
