//! The Arka3D view: the board of cubes, the balls, the region of a facet that decided each
//! bounce of the frame and the recoveries; a panel with the frame's counters, the scene's
//! ablation switches and the counters plotted over the run.

pub mod draw;
pub mod panel;

use super::{FamilyBody, FamilyContext, FamilyView, Focus, Overlay};
use crate::app::state::Command;
use crate::arka::{ArkaFrame, ArkaScene, ArkaCounters};
use crate::families::{FamilyFrameData, FamilySceneData};

#[derive(Default)]
pub struct ArkaView {
    /// The counters of every frame of the session, read once per session and length.
    series: Vec<(u64, ArkaCounters)>,
    series_key: Option<(u64, usize)>,
}

pub fn scene_of<'a>(cx: &FamilyContext<'a>) -> Option<&'a ArkaScene> {
    cx.scene_data().iter().find_map(|d| match d {
        FamilySceneData::Arka(s) => Some(s),
        _ => None,
    })
}

pub fn frame_of<'a>(cx: &FamilyContext<'a>) -> Option<&'a ArkaFrame> {
    cx.frame()?.families.iter().find_map(|d| match d {
        FamilyFrameData::Arka(f) => Some(f),
        _ => None,
    })
}

impl ArkaView {
    fn refresh_series(&mut self, cx: &FamilyContext) {
        let Some(session) = cx.session() else {
            return;
        };
        let key = (cx.generation(), session.len());
        if self.series_key == Some(key) {
            return;
        }
        self.series_key = Some(key);
        self.series = (0..session.len())
            .filter_map(|i| session.frame(i).ok())
            .filter_map(|f| {
                f.families.iter().find_map(|d| match d {
                    FamilyFrameData::Arka(a) => Some((f.index, a.counters)),
                    _ => None,
                })
            })
            .collect();
    }
}

impl FamilyView for ArkaView {
    fn family(&self) -> &'static str {
        <crate::arka::ArkaFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Arka3D"
    }

    fn about(&self) -> &'static str {
        "Balls in a board of cubes: the facet routine's bounces, their Voronoi regions, and error recoveries"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.95, 0.75, 0.2, 1.0]
    }

    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.has_data(self.family())
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, _out: &mut Vec<Command>) {
        let (Some(scene), Some(frame)) = (scene_of(cx), frame_of(cx)) else {
            ui.weak("No Arka3D data in this frame.");
            return;
        };
        ui.strong(format!(
            "Frame {}: {} balls, {} cubes",
            cx.state.playhead.frame,
            frame.balls.len(),
            frame.board_cells(scene).iter().filter(|&&c| c != 0).count()
        ));
        panel::counters(ui, frame);
        ui.separator();
        panel::happenings(ui, cx.frame().map_or(&[], |f| &f.trace));
        ui.separator();
        panel::switches(ui, scene);
        ui.separator();
        self.refresh_series(cx);
        panel::plot(ui, &self.series, cx.state.playhead.frame as u64);
    }

    /// The board's box and each ball, so `H` frames them and the header counts them.
    fn family_bodies(&mut self, cx: &FamilyContext, out: &mut Vec<FamilyBody>) {
        let (Some(scene), Some(frame)) = (scene_of(cx), frame_of(cx)) else {
            return;
        };
        let corners = [
            crate::geom::Point3::origin(),
            crate::geom::Point3::new(10.0, 10.0, scene.height),
        ];
        out.extend(FamilyBody::around("cube board", corners));
        out.extend(
            frame
                .balls
                .iter()
                .filter_map(|b| FamilyBody::around("ball", [b.position])),
        );
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        let (Some(scene), Some(frame)) = (scene_of(cx), frame_of(cx)) else {
            return;
        };
        let events = cx.frame().map_or(&[][..], |f| &f.trace);
        draw::draw(scene, frame, events, &mut out.list);
        out.focus = Some(Focus {
            center: [5.0, 5.0, scene.height / 2.0],
            radius: scene.height * 0.75,
        });
    }
}
