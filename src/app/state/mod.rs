//! Everything the viewer knows and decides, without drawing anything: the session and its
//! frames, the playhead (frame, then event inside the frame), playback, live stepping, the
//! fork, the selection and loading/saving. Panels read it and send [`Command`]s; tests drive
//! it directly, without a renderer.

pub mod audit;
pub mod captured;
pub mod catalog;
pub mod compare;
pub mod comparing;
pub mod live;
pub mod loader;
pub mod playback;
pub mod save;
pub mod scan;
pub mod session;
pub mod store;
pub mod summary;

use crate::record::Frame;
use crate::trace::BodyId;
use loader::{LoadJob, LoadOptions, LoadRequest, LoadResult};
use playback::Playback;
use save::{SaveJob, SaveProgress};
use session::{SceneEdits, Session};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What is selected. Ids are stable across frames, so a selection survives seeking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Selection {
    #[default]
    None,
    Body(BodyId),
    /// A pair of bodies (ordered a < b): their contacts and tests, frame after frame.
    Pair(BodyId, BodyId),
}

impl Selection {
    pub fn pair(a: BodyId, b: BodyId) -> Self {
        Selection::Pair(a.min(b), a.max(b))
    }

    pub fn involves(&self, body: BodyId) -> bool {
        match *self {
            Selection::None => false,
            Selection::Body(b) => b == body,
            Selection::Pair(a, b) => a == body || b == body,
        }
    }

    pub fn bodies(&self) -> Vec<BodyId> {
        match *self {
            Selection::None => vec![],
            Selection::Body(b) => vec![b],
            Selection::Pair(a, b) => vec![a, b],
        }
    }
}

/// Where the timeline stands: a frame, and optionally one event of its trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playhead {
    pub frame: usize,
    pub event: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play,
    Pause,
    TogglePlay,
    /// Forward (positive) or back by frames; stepping past the last frame of a live session
    /// steps the engine.
    StepFrames(i64),
    /// Through the current frame's trace, continuing into the neighbouring frames.
    StepEvents(i64),
    SeekFrame(usize),
    SeekEvent(Option<usize>),
    FirstFrame,
    LastFrame,
    SetSpeed(f32),
    SetLoop(bool),
    /// Let playback step the engine past the last frame (a live session).
    SetLive(bool),
    NextMarker,
    PreviousMarker,
    Select(Selection),
    /// Resume from the current frame: drops the later frames, optionally with other scene
    /// parameters.
    Fork(Option<SceneEdits>),
    Open(LoadRequest),
    Save(PathBuf),
    /// One step driven by a family's viewer (walk mode): from the frame shown, resuming there
    /// first when it is not the live end, then appended.
    Drive(crate::family::FamilyInput),
    /// Run B beside the open recording (see [`comparing`]).
    Compare(comparing::CompareCommand),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Level {
    Info,
    Error,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub level: Level,
    pub text: String,
    pub at: Instant,
}

pub struct AppState {
    pub session: Option<Session>,
    pub playhead: Playhead,
    pub playback: Playback,
    /// When playing past the last frame of a session that can step, step it.
    pub live: bool,
    pub selection: Selection,
    pub loading: Option<LoadJob>,
    pub saving: Option<SaveJob>,
    pub messages: Vec<Message>,
    pub load_options: LoadOptions,
    /// The frame under the playhead, decoded once per seek.
    current: Option<(usize, Arc<Frame>)>,
    /// Bumped when a new session arrives: caches keyed on it start over.
    pub session_generation: u64,
    /// Recently opened or saved files, newest first, for the settings to persist.
    pub opened_paths: Vec<PathBuf>,
    /// Called from worker threads when they finish (the UI asks for a repaint).
    waker: Arc<dyn Fn() + Send + Sync>,
    /// Time budget for live steps in one tick.
    pub step_budget: Duration,
    /// Saves write no creation time and no wall-clock timings (the settings' choice).
    pub reproducible_saves: bool,
    /// Engines streaming their runs to us (`--listen`).
    pub listening: Option<live::Listening>,
    /// Run B, compared with the open recording.
    pub compare: Option<compare::Compare>,
    /// Run B being opened and diffed.
    pub comparing: Option<compare::CompareJob>,
    /// Run B asked for while A was still opening.
    pending_compare: Option<PathBuf>,
}

impl AppState {
    pub fn new(load_options: LoadOptions) -> Self {
        Self {
            session: None,
            playhead: Playhead::default(),
            playback: Playback::default(),
            live: true,
            selection: Selection::None,
            loading: None,
            saving: None,
            messages: Vec::new(),
            load_options,
            current: None,
            session_generation: 0,
            opened_paths: Vec::new(),
            waker: Arc::new(|| {}),
            step_budget: Duration::from_millis(12),
            reproducible_saves: false,
            listening: None,
            compare: None,
            comparing: None,
            pending_compare: None,
        }
    }

    pub fn set_waker(&mut self, waker: impl Fn() + Send + Sync + 'static) {
        self.waker = Arc::new(waker);
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.push_message(Level::Info, text.into());
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.push_message(Level::Error, text.into());
    }

    fn push_message(&mut self, level: Level, text: String) {
        self.messages.push(Message {
            level,
            text,
            at: Instant::now(),
        });
        if self.messages.len() > 200 {
            self.messages.drain(..100);
        }
    }

    pub fn last_message(&self) -> Option<&Message> {
        self.messages.last()
    }

    pub fn frame_count(&self) -> usize {
        self.session.as_ref().map_or(0, |s| s.len())
    }

    /// The frame under the playhead.
    pub fn current_frame(&self) -> Option<&Arc<Frame>> {
        self.current
            .as_ref()
            .filter(|(pos, _)| *pos == self.playhead.frame)
            .map(|(_, f)| f)
    }

    /// The current event of the current frame, if the step scrubber is on one.
    pub fn current_event(&self) -> Option<(usize, &crate::trace::TraceEvent)> {
        let i = self.playhead.event?;
        self.current_frame()?.trace.get(i).map(|e| (i, e))
    }

    /// Puts a new session in place (from a load, or built directly by tests and benches).
    pub fn install(&mut self, session: Session) {
        if let Some(p) = session.origin.path() {
            self.remember_path(p.clone());
        }
        // Neither a recording nor a captured run steps at its end.
        let recording = session.is_recording_replay() || session.replay_only();
        self.session = Some(session);
        self.session_generation += 1;
        self.playback.pause();
        self.playhead = Playhead::default();
        self.current = None;
        // A replay starts at its first frame; a selection of another session means nothing.
        self.selection = Selection::None;
        self.live = !recording;
        // Run B was compared with the previous run A.
        if self.compare.take().is_some() {
            self.info("comparison closed: another run is open");
        }
        self.comparing = None;
        self.refresh_current();
    }

    fn remember_path(&mut self, path: PathBuf) {
        self.opened_paths.retain(|p| p != &path);
        self.opened_paths.insert(0, path);
        self.opened_paths.truncate(12);
    }

    fn refresh_current(&mut self) {
        self.refresh_frame();
        self.refresh_compare();
    }

    fn refresh_frame(&mut self) {
        let Some(session) = &self.session else {
            self.current = None;
            return;
        };
        if session.is_empty() {
            self.current = None;
            return;
        }
        self.playhead.frame = self.playhead.frame.min(session.len() - 1);
        if self
            .current
            .as_ref()
            .is_some_and(|(p, _)| *p == self.playhead.frame)
        {
            return;
        }
        match session.frame(self.playhead.frame) {
            Ok(f) => {
                if let Some(e) = self.playhead.event
                    && e >= f.trace.len()
                {
                    self.playhead.event = f.trace.len().checked_sub(1);
                }
                self.current = Some((self.playhead.frame, f));
            }
            Err(e) => {
                self.current = None;
                let text = format!("cannot read frame {}: {e}", self.playhead.frame);
                self.error(text);
            }
        }
    }

    fn seek(&mut self, frame: usize, event: Option<usize>) {
        self.playhead = Playhead { frame, event };
        self.refresh_current();
    }

    /// Appends one engine step and moves the playhead onto it.
    fn step_live(&mut self) -> bool {
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        if !session.can_step() {
            return false;
        }
        match session.step() {
            Ok(()) => {
                let last = session.len() - 1;
                self.seek(last, None);
                true
            }
            Err(e) => {
                self.playback.pause();
                self.error(format!("step failed: {e}"));
                false
            }
        }
    }

    fn at_end(&self) -> bool {
        self.playhead.frame + 1 >= self.frame_count()
    }

    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Play => {
                if self.at_end() && self.playback.looping && !self.can_step_live() {
                    self.seek(0, None);
                }
                self.playhead.event = None;
                self.playback.play();
            }
            Command::Pause => self.playback.pause(),
            Command::TogglePlay => {
                let c = if self.playback.playing {
                    Command::Pause
                } else {
                    Command::Play
                };
                self.apply(c);
            }
            Command::StepFrames(n) => {
                self.playback.pause();
                self.step_frames(n);
            }
            Command::StepEvents(n) => {
                self.playback.pause();
                self.step_events(n);
            }
            Command::SeekFrame(f) => {
                let f = f.min(self.frame_count().saturating_sub(1));
                self.seek(f, None);
            }
            Command::SeekEvent(e) => {
                let n = self.current_frame().map_or(0, |f| f.trace.len());
                self.playhead.event = e.filter(|&i| i < n);
            }
            Command::FirstFrame => self.seek(0, None),
            Command::LastFrame => {
                let last = self.frame_count().saturating_sub(1);
                self.seek(last, None);
            }
            Command::SetSpeed(s) => self.playback.set_speed(s),
            Command::SetLoop(l) => self.playback.looping = l,
            Command::SetLive(l) => self.live = l,
            Command::NextMarker => {
                let target = self
                    .session
                    .as_ref()
                    .and_then(|s| s.markers().next_after(self.playhead.frame).map(|m| m.frame));
                match target {
                    Some(f) => self.seek(f, None),
                    None => self.info("no marker after this frame"),
                }
            }
            Command::PreviousMarker => {
                let target = self.session.as_ref().and_then(|s| {
                    s.markers()
                        .previous_before(self.playhead.frame)
                        .map(|m| m.frame)
                });
                match target {
                    Some(f) => self.seek(f, None),
                    None => self.info("no marker before this frame"),
                }
            }
            Command::Select(s) => self.selection = s,
            Command::Fork(edits) => self.fork(edits),
            Command::Open(request) => self.open(request),
            Command::Save(path) => self.save(path),
            Command::Drive(input) => self.drive(input),
            Command::Compare(c) => self.apply_compare(c),
        }
    }

    fn drive(&mut self, input: crate::family::FamilyInput) {
        self.playback.pause();
        let live_end = self.at_end() && self.session.as_ref().is_some_and(|s| s.can_step());
        if !live_end {
            self.fork(None);
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        match session.drive(&input) {
            Ok(()) => {
                self.step_live();
            }
            Err(e) => self.error(e),
        }
    }

    fn can_step_live(&self) -> bool {
        self.live && self.session.as_ref().is_some_and(|s| s.can_step())
    }

    fn step_frames(&mut self, n: i64) {
        if self.session.is_none() {
            return;
        }
        if n < 0 {
            let f = self
                .playhead
                .frame
                .saturating_sub(n.unsigned_abs() as usize);
            self.seek(f, None);
            return;
        }
        for _ in 0..n {
            if !self.at_end() {
                let f = self.playhead.frame + 1;
                self.seek(f, None);
            } else if !(self.session.as_ref().is_some_and(|s| s.can_step()) && self.step_live()) {
                break;
            }
        }
    }

    fn step_events(&mut self, n: i64) {
        for _ in 0..n.unsigned_abs() {
            let len = self.current_frame().map_or(0, |f| f.trace.len());
            match (n > 0, self.playhead.event) {
                (true, None) if len > 0 => self.playhead.event = Some(0),
                (true, Some(i)) if i + 1 < len => self.playhead.event = Some(i + 1),
                (true, _) => {
                    // Past the last event: the first event of the next frame with a trace.
                    if self.at_end() {
                        break;
                    }
                    let f = self.playhead.frame + 1;
                    self.seek(f, None);
                    if self.current_frame().is_some_and(|f| !f.trace.is_empty()) {
                        self.playhead.event = Some(0);
                    }
                }
                (false, Some(i)) if i > 0 => self.playhead.event = Some(i - 1),
                (false, Some(_)) => self.playhead.event = None,
                (false, None) => {
                    if self.playhead.frame == 0 {
                        break;
                    }
                    let f = self.playhead.frame - 1;
                    self.seek(f, None);
                    let len = self.current_frame().map_or(0, |f| f.trace.len());
                    self.playhead.event = len.checked_sub(1);
                }
            }
        }
    }

    fn fork(&mut self, edits: Option<SceneEdits>) {
        let at = self.playhead.frame;
        let Some(session) = self.session.as_mut() else {
            return;
        };
        match session.fork(at, edits.as_ref()) {
            Ok(()) => {
                // Run A is no longer the recording B was compared with.
                self.compare = None;
                self.live = true;
                self.current = None;
                self.refresh_current();
                self.session_generation += 1;
                let changed = if edits.is_some() {
                    " with the edited parameters"
                } else {
                    ""
                };
                self.info(format!(
                    "resumed from frame {at}{changed}: later frames dropped"
                ));
            }
            Err(e) => self.error(e),
        }
    }

    pub fn open(&mut self, request: LoadRequest) {
        let waker = self.waker.clone();
        self.loading = Some(LoadJob::start(request, self.load_options, move || waker()));
    }

    /// Opens on this thread: for tests and the screenshot mode, where waiting is the point.
    pub fn open_blocking(&mut self, request: LoadRequest) -> bool {
        match loader::load(&request, self.load_options) {
            Ok(s) => {
                self.install(s);
                true
            }
            Err(e) => {
                self.error(e);
                false
            }
        }
    }

    fn save(&mut self, path: PathBuf) {
        let Some(session) = &self.session else {
            self.error("nothing to save: open a scene or a recording first");
            return;
        };
        match SaveJob::start(session, path, self.reproducible_saves) {
            Ok(job) => self.saving = Some(job),
            Err(e) => self.error(e),
        }
    }

    /// Advances time: background results, saving, playback and live stepping. Returns true
    /// when something changed that needs a repaint.
    pub fn tick(&mut self, elapsed_s: f64) -> bool {
        let mut changed = false;
        if let Some(job) = &self.loading
            && let Some(result) = job.poll()
        {
            let label = job.request.label();
            self.loading = None;
            changed = true;
            match result {
                LoadResult::Ready(s) => {
                    let len = s.len();
                    let skipped = s.stream.as_ref().and_then(|l| l.skipped_summary());
                    self.install(*s);
                    match skipped {
                        Some(what) => self.error(format!(
                            "opened {label}: {len} frame(s); {what} (all listed in the captured run's panel)"
                        )),
                        None => self.info(format!("opened {label}: {len} frame(s)")),
                    }
                }
                LoadResult::Failed(e) => {
                    let e = match self.pending_compare.take() {
                        Some(b) => format!("{e} (so {} is not compared)", b.display()),
                        None => e,
                    };
                    self.error(e);
                }
            }
            self.start_pending_compare();
        }
        if self.poll_compare() {
            changed = true;
        }
        if let Some(s) = self.session.as_mut()
            && s.poll_scan()
        {
            changed = true;
        }
        if let Some(s) = self.session.as_mut()
            && s.poll_audit()
        {
            changed = true;
        }
        if self.listening.is_some() && self.poll_live() {
            changed = true;
        }
        if let Some(job) = &mut self.saving {
            changed = true;
            let Some(session) = &self.session else {
                self.saving = None;
                return changed;
            };
            match job.work(session, Duration::from_millis(8)) {
                SaveProgress::Working => {}
                SaveProgress::Done(text) => {
                    let path = job.path.clone();
                    self.saving = None;
                    self.remember_path(path);
                    self.info(text);
                }
                SaveProgress::Failed(e) => {
                    self.saving = None;
                    self.error(format!("save failed: {e}"));
                }
            }
        }
        if self.playback.playing {
            changed = true;
            let dt = self.session.as_ref().map_or(1.0 / 60.0, |s| s.dt_s());
            let n = self.playback.advance(elapsed_s, dt);
            let started = Instant::now();
            for _ in 0..n {
                if !self.at_end() {
                    let f = self.playhead.frame + 1;
                    self.seek(f, None);
                } else if self.can_step_live() {
                    if !self.step_live() || started.elapsed() > self.step_budget {
                        break;
                    }
                } else if self.playback.looping && self.frame_count() > 1 {
                    self.seek(0, None);
                } else {
                    self.playback.pause();
                    break;
                }
            }
        }
        changed
    }

    pub fn is_busy(&self) -> bool {
        self.loading.is_some()
            || self.saving.is_some()
            || self.comparing.is_some()
            || self
                .session
                .as_ref()
                .and_then(|s| s.scan.as_ref())
                .is_some_and(|scan| !scan.is_finished())
            || self
                .session
                .as_ref()
                .and_then(|s| s.audit.as_ref())
                .is_some_and(|a| a.is_working())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_with(name: &str) -> AppState {
        let mut st = AppState::new(LoadOptions {
            trace_limit: crate::trace::TraceRecorder::DEFAULT_LIMIT,
            budget_bytes: 64 << 20,
        });
        assert!(st.open_blocking(LoadRequest::Builtin(name.into())));
        st
    }

    #[test]
    fn stepping_forward_at_the_end_steps_the_engine() {
        let mut st = state_with("mixed-drop");
        assert_eq!(st.frame_count(), 1);
        st.apply(Command::StepFrames(3));
        assert_eq!((st.frame_count(), st.playhead.frame), (4, 3));
        st.apply(Command::StepFrames(-2));
        assert_eq!(st.playhead.frame, 1);
        st.apply(Command::LastFrame);
        assert_eq!(st.playhead.frame, 3);
        assert_eq!(st.current_frame().map(|f| f.index), Some(3));
    }

    #[test]
    fn playing_advances_by_wall_clock_time_and_live_steps() {
        let mut st = state_with("box-stack");
        // The budget caps the steps a tick may take by wall-clock time; on a loaded machine
        // it bound before the simulated third of a second did, and the test counted that.
        st.step_budget = std::time::Duration::from_secs(60);
        st.apply(Command::Play);
        for _ in 0..10 {
            st.tick(1.0 / 30.0);
        }
        assert!(st.frame_count() >= 15, "{} frames", st.frame_count());
        assert_eq!(st.playhead.frame, st.frame_count() - 1);
        st.apply(Command::Pause);
        let n = st.frame_count();
        st.tick(1.0);
        assert_eq!(st.frame_count(), n, "paused: nothing steps");
    }

    #[test]
    fn replaying_stops_or_loops_at_the_end_when_not_live() {
        let mut st = state_with("box-stack");
        st.apply(Command::StepFrames(5));
        st.apply(Command::SetLive(false));
        st.apply(Command::SeekFrame(3));
        st.apply(Command::Play);
        for _ in 0..20 {
            st.tick(0.1);
        }
        assert_eq!((st.playhead.frame, st.frame_count()), (5, 6));
        assert!(!st.playback.playing);
        st.apply(Command::SetLoop(true));
        st.apply(Command::Play);
        assert_eq!(st.playhead.frame, 0, "play at the end restarts");
        st.apply(Command::SeekFrame(4));
        st.tick(2.5 / 60.0);
        assert_eq!(st.playhead.frame, 0, "wrapped after the last frame");
    }

    #[test]
    fn events_step_through_frames_and_selection_survives_seeks() {
        let mut st = state_with("mixed-drop");
        st.apply(Command::StepFrames(60));
        st.apply(Command::Select(Selection::Body(3)));
        st.apply(Command::FirstFrame);
        // Frame 0 has no trace: the first event step lands in frame 1.
        st.apply(Command::StepEvents(1));
        assert_eq!(st.playhead.frame, 1);
        assert_eq!(st.playhead.event, Some(0));
        let len = st.current_frame().map(|f| f.trace.len()).unwrap_or(0);
        assert!(len > 0);
        st.apply(Command::StepEvents(len as i64));
        assert_eq!(st.playhead.frame, 2, "past the last event: next frame");
        // Back from the first event: the whole frame, then the previous frame's last event.
        st.apply(Command::StepEvents(-1));
        assert_eq!((st.playhead.frame, st.playhead.event), (2, None));
        st.apply(Command::StepEvents(-1));
        assert_eq!((st.playhead.frame, st.playhead.event), (1, Some(len - 1)));
        assert!(st.current_event().is_some());
        assert_eq!(st.selection, Selection::Body(3));
        st.apply(Command::SeekEvent(Some(100_000_000)));
        assert_eq!(st.playhead.event, None, "out of range");
    }

    #[test]
    fn markers_are_jumped_to_in_order() {
        let mut st = state_with("mixed-drop");
        st.apply(Command::StepFrames(120));
        let frames: Vec<usize> = st
            .session
            .as_ref()
            .map(|s| s.markers().all().iter().map(|m| m.frame).collect())
            .unwrap_or_default();
        assert!(
            !frames.is_empty(),
            "bodies land on the floor: first contacts"
        );
        st.apply(Command::FirstFrame);
        st.apply(Command::NextMarker);
        assert_eq!(st.playhead.frame, frames[0]);
        st.apply(Command::LastFrame);
        st.apply(Command::PreviousMarker);
        assert_eq!(
            st.playhead.frame,
            *frames.iter().rev().find(|&&f| f < 120).unwrap_or(&0)
        );
    }

    #[test]
    fn fork_from_the_playhead_drops_the_future() {
        let mut st = state_with("mixed-drop");
        st.apply(Command::StepFrames(30));
        st.apply(Command::SeekFrame(10));
        st.apply(Command::Fork(None));
        assert_eq!(st.frame_count(), 11);
        st.apply(Command::StepFrames(1));
        assert_eq!((st.frame_count(), st.playhead.frame), (12, 11));
    }

    #[test]
    fn save_then_open_round_trips_every_frame() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("run.cdrec");
        let mut st = state_with("box-stack");
        st.apply(Command::StepFrames(20));
        let hashes: Vec<u64> = (0..21)
            .map(|i| {
                st.session
                    .as_ref()
                    .and_then(|s| s.frame(i).ok())
                    .map_or(0, |f| f.state_hash())
            })
            .collect();
        st.apply(Command::Save(path.clone()));
        while st.saving.is_some() {
            st.tick(0.0);
        }
        assert!(
            st.last_message().is_some_and(|m| m.level == Level::Info),
            "{:?}",
            st.last_message()
        );
        assert!(st.open_blocking(LoadRequest::Path(path.clone())));
        let s = st.session.as_ref().expect("session");
        assert!(s.is_recording_replay() && !s.can_step());
        assert_eq!(s.len(), 21);
        for (i, h) in hashes.iter().enumerate() {
            assert_eq!(s.frame(i).expect("frame").state_hash(), *h);
        }
        // Saving onto the file being replayed would destroy it.
        st.apply(Command::Save(path));
        assert!(st.saving.is_none());
        assert_eq!(
            st.last_message().map(|m| m.level.clone()),
            Some(Level::Error)
        );
    }
}
