//! A step in words: a title and its explanation, one sentence a line. A family's describe
//! module builds one from an event; the panel's step text and the inspector show it alike.

use super::prose::prose;
use egui::{Color32, RichText, Ui};

pub struct Description {
    pub title: String,
    pub lines: Vec<String>,
}

impl Description {
    pub fn new(title: impl Into<String>, lines: Vec<String>) -> Self {
        Self {
            title: title.into(),
            lines,
        }
    }

    /// An event with nothing to say beyond its title.
    pub fn titled(title: impl Into<String>) -> Self {
        Self::new(title, Vec::new())
    }

    /// The title in bold, then one paragraph a line.
    pub fn show(self, ui: &mut Ui) {
        let title = RichText::new(self.title).strong();
        show_lines(ui, title, self.lines);
    }

    /// As [`show`](Self::show), the title in the colour the event is drawn with.
    pub fn show_colored(self, ui: &mut Ui, color: Color32) {
        let title = RichText::new(self.title).color(color).strong();
        show_lines(ui, title, self.lines);
    }
}

fn show_lines(ui: &mut Ui, title: RichText, lines: Vec<String>) {
    prose(ui, title);
    for l in lines {
        prose(ui, l);
    }
}
