//! Comparing the open recording (run A) with another run (run B): B is read beside A, frame
//! by frame index; `diff` finds where they part; the frame under the playhead gets B's frame
//! of the same index and the list of everything that differs in it.
//!
//! B is opened and diffed on a worker thread (a long recording takes a while); the per-frame
//! list is computed on seek, for one frame only.

use super::captured::TempRecording;
use crate::diff::{DiffError, DiffReport, Difference, Key, Tolerance};
use crate::record::{Frame, RecordingReader};
use crate::trace::BodyId;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Run B as read: a recording, or a capture stream ingested into a temporary one.
pub struct RunB {
    pub path: PathBuf,
    pub reader: Arc<RecordingReader>,
    /// The ingested stream's recording, removed with the comparison.
    _temp: Option<TempRecording>,
}

impl RunB {
    /// Opens B; anything that is not a run (a scene, a text file, nothing) is an error that
    /// says what it is.
    pub fn open(path: &Path) -> Result<Self, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !meta.is_file() {
            return Err(format!("{}: not a regular file", path.display()));
        }
        if crate::record::is_recording(path) {
            let reader = RecordingReader::open(path).map_err(|e| e.to_string())?;
            return Self::checked(path, reader, None);
        }
        if super::captured::is_capture_stream(path) {
            return Self::ingest(path);
        }
        let what = if crate::world::Scene::load(path).is_ok() {
            "a scene, not a run: record it first (collidoscope record --scene …)"
        } else {
            "neither a recording (.cdrec) nor a capture stream (.jsonl)"
        };
        Err(format!("{}: {what}", path.display()))
    }

    fn ingest(path: &Path) -> Result<Self, String> {
        let temp = TempRecording::new()?;
        let report = crate::capture::ingest_file(path, temp.path())?;
        if report.recording.frames == 0 {
            return Err(format!(
                "{}: the capture stream holds no complete step",
                path.display()
            ));
        }
        let reader = RecordingReader::open(temp.path())
            .map_err(|e| format!("{}: reading it back: {e}", path.display()))?;
        Self::checked(path, reader, Some(temp))
    }

    fn checked(
        path: &Path,
        reader: RecordingReader,
        temp: Option<TempRecording>,
    ) -> Result<Self, String> {
        if reader.is_empty() {
            return Err(format!(
                "{}: the recording holds no readable frame",
                path.display()
            ));
        }
        Ok(Self {
            path: path.to_path_buf(),
            reader: Arc::new(reader),
            _temp: temp,
        })
    }
}

/// One row of the diff panel: a difference, and where the event it names sits in each run's
/// trace (when it is a trace event).
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    pub difference: Difference,
    pub a_event: Option<usize>,
    pub b_event: Option<usize>,
}

impl DiffRow {
    /// What selecting the row selects: the body, or the pair, it names.
    pub fn selection(&self) -> Option<super::Selection> {
        let bodies = self.difference.key.bodies();
        match bodies.as_slice() {
            [b] => Some(super::Selection::Body(*b)),
            [a, b, ..] if a != b => Some(super::Selection::pair(*a, *b)),
            [a, ..] => Some(super::Selection::Body(*a)),
            [] => None,
        }
    }
}

/// The frame under the playhead, as compared.
#[derive(Clone, Debug, Default)]
pub struct ShownFrame {
    /// A's position (the playhead's frame) and frame index.
    pub a_pos: usize,
    pub index: u64,
    /// B's frame of the same index (`None`: B has none, see `problem`).
    pub b: Option<Arc<Frame>>,
    pub rows: Vec<DiffRow>,
    /// Bodies any difference of the frame names: drawn highlighted in both runs.
    pub differing: BTreeSet<BodyId>,
    pub problem: Option<String>,
}

pub struct Compare {
    pub b: Arc<RunB>,
    pub tolerance: Tolerance,
    pub report: DiffReport,
    /// A's position of the first frame that differs.
    pub divergence: Option<usize>,
    /// B's position by frame index.
    b_index: HashMap<u64, usize>,
    names: Vec<String>,
    pub shown: Option<ShownFrame>,
    /// The row the user picked in the diff panel.
    pub focus: Option<usize>,
    /// Bumped when what is drawn changes (a new report, a new shown frame).
    pub generation: u64,
}

impl Compare {
    /// Diffs A (the open recording) with B.
    pub fn new(a: &RecordingReader, b: Arc<RunB>, tolerance: Tolerance) -> Result<Self, String> {
        let report = crate::diff::diff(a, &b.reader, tolerance).map_err(|e| match e {
            DiffError::Incomparable(why) => format!("cannot compare: {why}"),
            DiffError::Record(e) => format!("cannot compare: {e}"),
        })?;
        let divergence = report
            .first
            .as_ref()
            .and_then(|(index, _, _)| a.entries().iter().position(|e| e.index == *index));
        let b_index = b
            .reader
            .entries()
            .iter()
            .enumerate()
            .map(|(pos, e)| (e.index, pos))
            .collect();
        Ok(Self {
            b,
            tolerance,
            report,
            divergence,
            b_index,
            names: a.header().body_names.clone(),
            shown: None,
            focus: None,
            generation: 0,
        })
    }

    pub fn label(&self) -> String {
        self.b.path.display().to_string()
    }

    /// One line on where the runs part, for the status bar and the panel.
    pub fn summary(&self) -> String {
        match &self.report.first {
            None => format!(
                "same ({}): {} frames compared",
                tolerance_label(self.tolerance),
                self.report.frames_compared
            ),
            Some((frame, _, d)) => format!(
                "runs part at frame {frame}, first in the {}: {}",
                d.stage, d.what
            ),
        }
    }

    /// Compares A's frame at `a_pos` with B's frame of the same index.
    pub fn show_frame(&mut self, a_pos: usize, a: &Frame) {
        if self.shown.as_ref().is_some_and(|s| s.a_pos == a_pos) {
            return;
        }
        self.generation += 1;
        self.focus = None;
        let mut shown = ShownFrame {
            a_pos,
            index: a.index,
            ..Default::default()
        };
        match self.b_index.get(&a.index) {
            None => {
                shown.problem = Some(format!(
                    "run B has no frame {} (it holds {} frames)",
                    a.index,
                    self.b.reader.len()
                ));
            }
            Some(&pos) => match self.b.reader.frame(pos) {
                Ok(b) => {
                    shown.rows = rows(a, &b, self.tolerance, &self.names);
                    shown.differing = shown
                        .rows
                        .iter()
                        .flat_map(|r| r.difference.key.bodies())
                        .collect();
                    shown.b = Some(b);
                }
                Err(e) => shown.problem = Some(format!("run B's frame {}: {e}", a.index)),
            },
        }
        self.shown = Some(shown);
    }

    /// Forgets the shown frame, so the next [`Compare::show_frame`] computes it again.
    pub fn invalidate(&mut self) {
        self.shown = None;
        self.generation += 1;
    }
}

/// The diff panel's rows for two frames, with the trace events they name.
pub fn rows(a: &Frame, b: &Frame, tol: Tolerance, names: &[String]) -> Vec<DiffRow> {
    let differences = crate::diff::differences(a, b, tol, names);
    if differences.is_empty() {
        return Vec::new();
    }
    let (ta, tb) = (
        crate::diff::trace_positions(a),
        crate::diff::trace_positions(b),
    );
    let at = |t: &HashMap<Key, usize>, k: &Key| t.get(k).copied();
    differences
        .into_iter()
        .map(|d| DiffRow {
            a_event: at(&ta, &d.key),
            b_event: at(&tb, &d.key),
            difference: d,
        })
        .collect()
}

pub fn tolerance_label(t: Tolerance) -> String {
    match t {
        Tolerance::Bitwise => "bitwise".into(),
        Tolerance::Ulps(n) => format!("ulps:{n}"),
        Tolerance::Abs { abs, rel: 0.0 } => format!("abs:{abs}"),
        Tolerance::Abs { abs, rel } => format!("abs:{abs},rel:{rel}"),
    }
}

/// Opening B and diffing it, on a worker thread.
pub struct CompareJob {
    pub path: PathBuf,
    rx: Receiver<Result<Compare, String>>,
}

impl CompareJob {
    /// Opens B (unless `b` is the one already open) and diffs it with `a`.
    pub fn start(
        a: Arc<RecordingReader>,
        b: Result<Arc<RunB>, PathBuf>,
        tolerance: Tolerance,
        wake: impl Fn() + Send + 'static,
    ) -> Self {
        let path = match &b {
            Ok(run) => run.path.clone(),
            Err(p) => p.clone(),
        };
        let (tx, rx) = channel();
        let tx2 = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("compare".into())
            .spawn(move || {
                let _ = tx.send(run_job(&a, b, tolerance));
                wake();
            });
        if let Err(e) = spawned {
            let _ = tx2.send(Err(format!("cannot start a comparing thread: {e}")));
        }
        Self { path, rx }
    }

    pub fn poll(&self) -> Option<Result<Compare, String>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(format!(
                "comparing with {} stopped unexpectedly",
                self.path.display()
            ))),
        }
    }

    pub fn wait(self) -> Result<Compare, String> {
        self.rx.recv().unwrap_or_else(|_| {
            Err(format!(
                "comparing with {} stopped unexpectedly",
                self.path.display()
            ))
        })
    }
}

fn run_job(
    a: &RecordingReader,
    b: Result<Arc<RunB>, PathBuf>,
    tolerance: Tolerance,
) -> Result<Compare, String> {
    let b = match b {
        Ok(run) => run,
        Err(path) => Arc::new(RunB::open(&path)?),
    };
    Compare::new(a, b, tolerance)
}
