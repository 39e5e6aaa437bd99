//! The Arka3D view: the board of cubes, the balls, the region of a facet that decided each
//! bounce of the frame and the recoveries; a panel with the frame's counters, the scene's
//! ablation switches and the counters plotted over the run.

pub mod draw;
pub mod panel;
mod screenshot;

use super::{EventMark, FamilyBody, FamilyContext, FamilyView, Focus, Overlay, ScreenshotSetup};
use crate::app::state::Command;
use crate::arka::{ArkaCounters, ArkaEvent, ArkaFrame, ArkaScene};
use crate::trace::EventKind;
use crate::families::{FamilyFrameData, FamilySceneData};

#[derive(Default)]
pub struct ArkaView {
    /// The counters and step length of every frame of the session, read once per session
    /// and length.
    series: Vec<(u64, ArkaCounters, f64)>,
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
                    FamilyFrameData::Arka(a) => Some((f.index, a.counters, a.step_s)),
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
        let plural = if frame.balls.len() == 1 { "" } else { "s" };
        ui.strong(format!(
            "Frame {}: {} ball{plural}, {} cubes",
            cx.state.playhead.frame,
            frame.balls.len(),
            frame.board_cells(scene).iter().filter(|&&c| c != 0).count()
        ));
        panel::step(ui, scene, frame);
        panel::region_key(ui);
        ui.separator();
        panel::happenings(
            ui,
            cx.frame().map_or(&[], |f| &f.trace),
            cx.event().map(|(i, _)| i),
        );
        ui.separator();
        panel::counters(ui, frame);
        ui.separator();
        panel::switches(ui, scene);
        ui.separator();
        self.refresh_series(cx);
        panel::plot(
            ui,
            &self.series,
            cx.state.playhead.frame as u64,
            scene.switches.frame_rate_step,
        );
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
        let current = cx.event().map(|(i, _)| i);
        draw::draw(scene, frame, events, current, &mut out.list);
        // The event stepped to, close up (the facet, its grown square and the cells around);
        // otherwise the whole box.
        let at = cx.event().and_then(|(_, e)| match &e.kind {
            EventKind::Arka(
                ArkaEvent::Bounce { point, .. }
                | ArkaEvent::Paddle { point, .. }
                | ArkaEvent::Recovery { to: point, .. },
            ) => Some([point.x, point.y, point.z]),
            _ => None,
        });
        out.focus = Some(match at {
            Some(center) => Focus {
                center,
                radius: 2.0,
            },
            None => Focus {
                center: [5.0, 5.0, scene.height / 2.0],
                radius: scene.height * 0.75,
            },
        });
    }

    /// Bounces (in their region's colour), paddle bounces and recoveries on the event strip.
    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let Some(frame) = cx.frame() else {
            return;
        };
        for (i, e) in frame.trace.iter().enumerate() {
            let EventKind::Arka(a) = &e.kind else {
                continue;
            };
            let color = match a {
                ArkaEvent::Bounce { region, .. } => draw::region_color(*region),
                ArkaEvent::Paddle { .. } => draw::PADDLE,
                ArkaEvent::Recovery { .. } => draw::RECOVERY,
                _ => continue,
            };
            out.push(EventMark {
                event: i,
                color,
                text: crate::family::FamilyEvent::summary(a, e.verdict),
            });
        }
    }

    fn prepare_screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        screenshot::prepare(setup);
    }
}
