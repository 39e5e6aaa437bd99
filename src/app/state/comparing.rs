//! The comparison's commands on the app state: open run B beside the open recording, change
//! the tolerance, pick a row of the diff list, jump to the divergence, close.

use super::compare::{Compare, CompareJob, RunB};
use super::{AppState, Command, Playhead};
use crate::diff::Tolerance;
use crate::record::RecordingReader;
use std::path::PathBuf;
use std::sync::Arc;

/// What the comparison is asked to do (see [`Command::Compare`]).
#[derive(Clone, Debug, PartialEq)]
pub enum CompareCommand {
    /// Open this run as B beside the open recording (A), and go to where they part.
    Open(PathBuf),
    Close,
    Tolerance(Tolerance),
    /// Select what a row of the diff list names, in both runs.
    Focus(usize),
    /// Go to the first frame that differs.
    SeekDivergence,
}

impl AppState {
    pub(super) fn apply_compare(&mut self, command: CompareCommand) {
        match command {
            CompareCommand::Open(path) => self.start_compare(path),
            CompareCommand::Close => {
                if self.compare.take().is_some() {
                    self.info("comparison closed");
                }
                self.comparing = None;
                self.pending_compare = None;
            }
            CompareCommand::Tolerance(t) => {
                let Some(c) = &self.compare else {
                    return;
                };
                if c.tolerance == t {
                    return;
                }
                let b = Ok(c.b.clone());
                if let Some(a) = self.reader_a() {
                    self.comparing = Some(self.compare_job(a, b, t));
                }
            }
            CompareCommand::Focus(i) => self.focus_difference(i),
            CompareCommand::SeekDivergence => match self.compare.as_ref().map(|c| c.divergence) {
                Some(Some(pos)) => self.seek(pos, None),
                Some(None) => self.info("the runs do not part: nothing to go to"),
                None => {}
            },
        }
    }

    /// A's recording, or why there is none to compare (said in the status bar).
    fn reader_a(&mut self) -> Option<Arc<RecordingReader>> {
        let why = match &self.session {
            None => "open a recording first: it is run A",
            Some(s) if s.forked_at.is_some() => {
                "this session was resumed from a frame: reopen the recording to compare it"
            }
            Some(s) => match s.store().recording() {
                Some(r) => return Some(r.clone()),
                None => {
                    "run A must be a recording: save this session (File → Save recording as…) and open it"
                }
            },
        };
        self.error(format!("cannot compare: {why}"));
        None
    }

    fn compare_job(
        &self,
        a: Arc<RecordingReader>,
        b: Result<Arc<RunB>, PathBuf>,
        tolerance: Tolerance,
    ) -> CompareJob {
        let waker = self.waker.clone();
        CompareJob::start(a, b, tolerance, move || waker())
    }

    fn start_compare(&mut self, path: PathBuf) {
        // Run A is still opening (the command line's `A --compare B`): B waits for it.
        if self.loading.is_some() {
            self.pending_compare = Some(path);
            return;
        }
        let Some(a) = self.reader_a() else {
            return;
        };
        let tolerance = self
            .compare
            .as_ref()
            .map_or_else(Tolerance::default, |c| c.tolerance);
        self.comparing = Some(self.compare_job(a, Err(path), tolerance));
    }

    /// Starts a comparison asked for while A was opening, once it is open (or says why not).
    pub(super) fn start_pending_compare(&mut self) {
        if let Some(path) = self.pending_compare.take() {
            self.start_compare(path);
        }
    }

    /// Opens B and diffs it on this thread: for tests and the screenshot mode.
    pub fn compare_blocking(&mut self, path: PathBuf) -> bool {
        self.start_compare(path);
        match self.comparing.take() {
            Some(job) => {
                let result = job.wait();
                self.install_compare(result);
                self.compare.is_some()
            }
            None => false,
        }
    }

    /// A finished comparison job's result, if there is one.
    pub(super) fn poll_compare(&mut self) -> bool {
        let Some(result) = self.comparing.as_ref().and_then(|j| j.poll()) else {
            return false;
        };
        self.comparing = None;
        self.install_compare(result);
        true
    }

    fn install_compare(&mut self, result: Result<Compare, String>) {
        let compare = match result {
            Ok(c) => c,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        let retolerated = self
            .compare
            .as_ref()
            .is_some_and(|old| Arc::ptr_eq(&old.b, &compare.b));
        let mut text = format!("comparing with {}: {}", compare.label(), compare.summary());
        for note in &compare.report.notes {
            text.push_str("; ");
            text.push_str(note);
        }
        let damaged = !compare.report.notes.is_empty();
        let divergence = compare.divergence;
        self.compare = Some(compare);
        if damaged {
            self.error(text);
        } else {
            self.info(text);
        }
        // A new B opens at the divergence; a new tolerance keeps the frame looked at.
        match divergence {
            Some(pos) if !retolerated => self.seek(pos, None),
            _ => self.refresh_compare(),
        }
    }

    /// Compares the frame under the playhead, if it is not already.
    pub(super) fn refresh_compare(&mut self) {
        let pos = self.playhead.frame;
        let Some((_, frame)) = self.current.as_ref().filter(|(p, _)| *p == pos) else {
            return;
        };
        let frame = frame.clone();
        if let Some(c) = self.compare.as_mut() {
            c.show_frame(pos, &frame);
        }
    }

    fn focus_difference(&mut self, i: usize) {
        let Some(c) = self.compare.as_mut() else {
            return;
        };
        let Some(row) = c.shown.as_ref().and_then(|s| s.rows.get(i)).cloned() else {
            return;
        };
        c.focus = Some(i);
        c.generation += 1;
        if let Some(s) = row.selection() {
            self.apply(Command::Select(s));
        }
        // The event the row names, in A's trace; a contact or a body is no event: the
        // frame as a whole.
        self.playback.pause();
        self.playhead = Playhead {
            frame: self.playhead.frame,
            event: row.a_event,
        };
    }
}
