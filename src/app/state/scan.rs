//! Reading a whole recording in the background: per-frame summaries for the plots, the
//! markers for the timeline, then a re-simulation that marks the first divergence. The
//! viewer shows the recording at once and fills these in as they come.

use super::summary::{FrameSummary, TimelineMarker};
use crate::record::{MarkerKind, RecordingReader};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// Frames per message: small enough for a smooth progress bar, big enough to be cheap.
const BATCH: usize = 512;

#[derive(Debug)]
pub enum ScanMsg {
    Summaries {
        first: usize,
        summaries: Vec<FrameSummary>,
        markers: Vec<TimelineMarker>,
    },
    Marker(TimelineMarker),
    Progress {
        done: usize,
        total: usize,
        phase: ScanPhase,
    },
    Done,
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ScanPhase {
    Reading,
    Validating,
    Done,
    Failed(String),
}

pub struct ScanState {
    rx: Receiver<ScanMsg>,
    cancel: Arc<AtomicBool>,
    limit: Arc<AtomicUsize>,
    pub done: usize,
    pub total: usize,
    pub phase: ScanPhase,
}

impl ScanState {
    pub fn start(path: PathBuf, total: usize) -> Self {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let limit = Arc::new(AtomicUsize::new(total));
        let (c, l) = (cancel.clone(), limit.clone());
        let spawned = std::thread::Builder::new()
            .name("recording scan".into())
            .spawn(move || run(path, tx, c, l));
        let mut state = Self {
            rx,
            cancel,
            limit,
            done: 0,
            total,
            phase: ScanPhase::Reading,
        };
        if let Err(e) = spawned {
            state.phase = ScanPhase::Failed(format!("cannot start the scan thread: {e}"));
        }
        state
    }

    /// Frames past this are no longer part of the session (it was forked).
    pub fn limit_to(&mut self, len: usize) {
        self.limit.fetch_min(len, Ordering::Relaxed);
        self.total = self.total.min(len);
    }

    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.phase, ScanPhase::Done | ScanPhase::Failed(_))
    }

    /// Messages so far; progress messages update the state and are passed on too.
    pub fn drain(&mut self) -> Vec<ScanMsg> {
        let mut out = Vec::new();
        while let Ok(msg) = self.rx.try_recv() {
            match &msg {
                ScanMsg::Progress { done, total, phase } => {
                    self.done = *done;
                    self.total = (*total).min(self.limit());
                    self.phase = phase.clone();
                }
                ScanMsg::Done => self.phase = ScanPhase::Done,
                ScanMsg::Failed(why) => self.phase = ScanPhase::Failed(why.clone()),
                ScanMsg::Summaries {
                    first, summaries, ..
                } => {
                    self.done = (first + summaries.len()).min(self.limit());
                }
                ScanMsg::Marker(_) => {}
            }
            out.push(msg);
        }
        out
    }

    /// 0–1 over both phases.
    pub fn fraction(&self) -> f32 {
        match self.phase {
            ScanPhase::Reading if self.total > 0 => self.done as f32 / self.total as f32,
            ScanPhase::Reading => 0.0,
            _ => 1.0,
        }
    }
}

impl Drop for ScanState {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

fn run(path: PathBuf, tx: Sender<ScanMsg>, cancel: Arc<AtomicBool>, limit: Arc<AtomicUsize>) {
    let result = scan(&path, &tx, &cancel, &limit);
    let _ = tx.send(match result {
        Ok(()) => ScanMsg::Done,
        Err(why) => ScanMsg::Failed(why),
    });
}

fn scan(
    path: &PathBuf,
    tx: &Sender<ScanMsg>,
    cancel: &AtomicBool,
    limit: &AtomicUsize,
) -> Result<(), String> {
    // A reader of its own: the viewer's reader stays free for seeking.
    let reader = RecordingReader::open(path).map_err(|e| e.to_string())?;
    let total = reader.len();
    let mut pos = 0;
    while pos < total.min(limit.load(Ordering::Relaxed)) {
        if cancel.load(Ordering::Relaxed) {
            return Ok(());
        }
        let end = (pos + BATCH).min(total);
        let mut summaries = Vec::with_capacity(end - pos);
        let mut markers = Vec::new();
        for p in pos..end {
            let frame = reader.frame(p).map_err(|e| e.to_string())?;
            summaries.push(FrameSummary::of(&frame, 0));
            markers.extend(TimelineMarker::from_frame(p, &frame));
        }
        if tx
            .send(ScanMsg::Summaries {
                first: pos,
                summaries,
                markers,
            })
            .is_err()
        {
            return Ok(());
        }
        pos = end;
        let _ = tx.send(ScanMsg::Progress {
            done: pos,
            total,
            phase: ScanPhase::Reading,
        });
    }
    if limit.load(Ordering::Relaxed) < total || cancel.load(Ordering::Relaxed) {
        return Ok(());
    }
    let _ = tx.send(ScanMsg::Progress {
        done: total,
        total,
        phase: ScanPhase::Validating,
    });
    // Re-simulating needs the scene to rebuild; a recording without one still replays.
    match crate::validate::validate(&reader, None) {
        Ok(report) => {
            let position = |index: u64| {
                reader
                    .entries()
                    .iter()
                    .position(|e| e.index == index)
                    .unwrap_or(index as usize)
            };
            if let Some(d) = report.first_divergence {
                let body = d.body.map(|(id, _)| vec![id]).unwrap_or_default();
                let detail = match d.body {
                    Some((id, dist)) => format!(", body {id} off by {dist:.3e} m"),
                    None => String::new(),
                };
                let _ = tx.send(ScanMsg::Marker(TimelineMarker {
                    frame: position(d.frame),
                    kind: MarkerKind::Divergence,
                    text: format!("re-simulation diverges at frame {}{detail}", d.frame),
                    bodies: body,
                }));
            }
            if let Some(v) = report.first_violation
                && v.what.contains("non-finite")
            {
                let _ = tx.send(ScanMsg::Marker(TimelineMarker {
                    frame: position(v.frame),
                    kind: MarkerKind::Other("invalid state".into()),
                    text: v.what,
                    bodies: vec![],
                }));
            }
            Ok(())
        }
        Err(e) => Err(format!("validation skipped: {e}")),
    }
}
