//! Traversal work per frame: node and triangle tests counted from each frame's trace, a few
//! hundred frames per UI frame so that a long recording never stalls the panel.

use super::draw::traversal_counts;
use super::panel::HierarchyPanel;
use crate::app::families::FamilyContext;
use crate::app::views::colors;
use egui::Ui;

impl HierarchyPanel {
    /// Counts node and triangle tests of frames not seen yet (a bounded number per call).
    pub(super) fn update_work(&mut self, cx: &FamilyContext) {
        let Some(session) = cx.session() else {
            return;
        };
        if self.work_generation != cx.generation() {
            self.work_generation = cx.generation();
            self.work_next = 0;
            self.work.clear();
        }
        // A fork drops frames: counts past the end go with them.
        self.work.resize(session.len(), None);
        // Frames are counted in order from a cursor, so a million counted frames cost nothing
        // per UI frame; a frame that cannot be read stays a gap in the plot.
        let first = self.work_next.min(self.work.len());
        let last = (first + 200).min(self.work.len());
        for i in first..last {
            if let Ok(f) = session.frame(i) {
                self.work[i] = Some(traversal_counts(&f.trace));
            }
        }
        self.work_next = last;
    }

    pub(super) fn work_plot(&self, ui: &mut Ui, cx: &FamilyContext, sah: Option<f64>) {
        egui::CollapsingHeader::new("Traversal work per frame")
            .default_open(true)
            .show(ui, |ui| {
                let pts = |f: fn((u32, u32)) -> u32| -> Vec<[f64; 2]> {
                    self.work
                        .iter()
                        .enumerate()
                        .filter_map(|(i, w)| w.map(|w| [i as f64, f(w) as f64]))
                        .collect()
                };
                let nodes = pts(|w| w.0);
                let tris = pts(|w| w.1);
                if let Some(sah) = sah {
                    ui.label(format!(
                        "SAH cost of this tree: {sah:.3} (rigid: the same every frame)"
                    ));
                }
                let cursor = cx.state.playhead.frame as f64;
                egui_plot::Plot::new("bvh-work")
                    .height(120.0)
                    .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
                    .include_y(0.0)
                    .allow_scroll(false)
                    .show(ui, |p| {
                        p.line(
                            egui_plot::Line::new("node tests", nodes)
                                .color(colors::egui(colors::FIRST)),
                        );
                        p.line(
                            egui_plot::Line::new("triangle tests", tris)
                                .color(colors::egui(colors::SECOND)),
                        );
                        p.add(
                            egui_plot::VLine::new("", cursor)
                                .color(colors::egui(colors::SELECTION)),
                        );
                    });
            });
    }
}
