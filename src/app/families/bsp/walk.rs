//! Walk mode: the user drives the walker. W/S move along the camera's heading (the mouse turns
//! the camera, so it steers), A/D sideways, R/F up and down. Each move is one slide run by
//! the engine and appended to the session as a frame, like any live step.

use super::FamilyContext;
use crate::app::state::Command;
use crate::family::FamilyInput;
use crate::geom::Vec3;

#[derive(Debug)]
pub struct Walk {
    pub on: bool,
    /// Units per second while a key is held.
    pub speed: f64,
    /// Moves sent since the view was created (the overlay follows them).
    pub frames_added: u64,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            on: false,
            speed: 3.0,
            frames_added: 0,
        }
    }
}

/// The move asked for by the held keys over `dt` seconds: `forward` is the camera's view
/// direction, flattened onto the ground (y is up).
pub fn move_of(keys: [bool; 6], forward: &Vec3, speed: f64, dt: f64) -> Option<Vec3> {
    let [w, a, s, d, up, down] = keys.map(|k| k as i32 as f64);
    let flat = Vec3::new(forward.x, 0.0, forward.z).try_normalize(1e-9)?;
    let right = flat.cross(&Vec3::y());
    let dir = flat * (w - s) + right * (d - a) + Vec3::y() * (up - down);
    let m = dir.try_normalize(1e-9)? * speed * dt;
    m.iter().all(|c| c.is_finite()).then_some(m)
}

impl Walk {
    pub fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.on, "Walk mode");
            ui.add(
                egui::Slider::new(&mut self.speed, 0.1..=20.0)
                    .logarithmic(true)
                    .text("units/s"),
            );
        });
        if self.on {
            crate::app::widgets::prose::prose(
                ui,
                "W / S: forward / back where the camera looks (drag to turn), A / D: sideways, \
                 R / F: up / down. Each move is a slide recorded as a new frame.",
            );
            if cx.session().is_some_and(|s| !s.can_step()) {
                ui.label("This recording resumes from the shown frame at the first move.");
            }
            if ui.button("Step one move forward").clicked() {
                out.push(self.drive(Vec3::new(0.0, 0.0, -1.0) * self.speed / 30.0));
            }
        }
    }

    /// The command that runs one walker move.
    pub fn drive(&mut self, m: Vec3) -> Command {
        self.frames_added += 1;
        Command::Drive(FamilyInput {
            family: <crate::bsp::BspFamily as crate::family::EngineFamily>::NAME,
            values: vec![m.x, m.y, m.z],
        })
    }

    /// Reads the walk keys (consuming them, so the camera keys do not also fire).
    pub fn keys(&mut self, input: &mut egui::InputState, forward: &Vec3) -> Option<Command> {
        use egui::Key;
        if !self.on {
            return None;
        }
        let keys = [Key::W, Key::A, Key::S, Key::D, Key::R, Key::F];
        let held = keys.map(|k| input.key_down(k));
        for k in keys {
            // Drop the presses so the shell's key map does not see them.
            input.consume_key(egui::Modifiers::NONE, k);
        }
        let dt = (input.stable_dt as f64).clamp(1.0 / 240.0, 0.1);
        let m = move_of(held, forward, self.speed, dt)?;
        Some(self.drive(m))
    }
}
