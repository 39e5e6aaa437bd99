//! The viewer (eframe + egui + three-d). Being built: see issue 3.

/// Opens the viewer on a scene, a recording or the default scene.
pub fn run(file: Option<String>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    let title = file.unwrap_or_else(|| crate::world::DEFAULT_SCENE.to_string());
    eframe::run_native(
        "Collidoscope",
        options,
        Box::new(move |_cc| Ok(Box::new(Minimal { title }))),
    )
    .map_err(|e| format!("cannot open the viewer window: {e}"))
}

struct Minimal {
    title: String,
}

impl eframe::App for Minimal {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        ui.heading(&self.title);
    }
}
