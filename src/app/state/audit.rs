//! The audit of a captured run in the viewer (see `crate::audit`): our exact algorithms run on
//! the captured shapes and poses on a worker thread, so that opening a long run or receiving
//! steps live never waits for it. A recording is read by a reader of the worker's own; a live
//! run's steps are handed over as they arrive. The findings come back in batches.

use crate::audit::{AuditOptions, AuditReport, Auditor, Finding};
use crate::record::{Frame, RecordingReader};
use crate::world::Scene;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// Frames per message from a recording: a steady progress, few messages.
const BATCH: usize = 64;

enum AuditMsg {
    /// What the frames audited since the last message found, and the totals so far.
    Steps {
        findings: Vec<Finding>,
        steps: u64,
        pairs_checked: u64,
    },
    Done,
    Failed(String),
}

/// Where the worker's frames come from.
enum Source {
    Recording(PathBuf),
    Live(Receiver<LiveItem>),
}

/// What a live run hands the worker, in the order it arrived.
enum LiveItem {
    Step(Box<Frame>),
    /// The run declared more colliders: the steps after this use them.
    Scene(Box<Scene>),
}

pub struct AuditRun {
    rx: Receiver<AuditMsg>,
    /// A live run's steps go to the worker through this.
    feed: Option<Sender<LiveItem>>,
    cancel: Arc<AtomicBool>,
    /// Every finding so far, in frame order.
    pub findings: Vec<Finding>,
    pub steps: u64,
    pub pairs_checked: u64,
    /// Steps handed to a live worker (it is idle when it has audited them all).
    fed: u64,
    pub done: bool,
    pub failed: Option<String>,
}

impl AuditRun {
    /// Audits a captured recording from its first frame to its last.
    pub fn over_recording(scene: Scene, path: &Path) -> Self {
        Self::start(scene, path, Source::Recording(path.to_path_buf()), None)
    }

    /// Audits a live run step by step as [`AuditRun::feed`] hands them over.
    pub fn live(scene: Scene) -> Self {
        let (tx, rx) = channel();
        Self::start(scene, Path::new("<live>"), Source::Live(rx), Some(tx))
    }

    fn start(scene: Scene, file: &Path, source: Source, feed: Option<Sender<LiveItem>>) -> Self {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let c = cancel.clone();
        let file = file.to_path_buf();
        let spawned = std::thread::Builder::new()
            .name("audit".into())
            .spawn(move || {
                let end = match work(scene, &file, source, &tx, &c) {
                    Ok(()) => AuditMsg::Done,
                    Err(why) => AuditMsg::Failed(why),
                };
                let _ = tx.send(end);
            });
        let mut run = Self {
            rx,
            feed,
            cancel,
            findings: Vec::new(),
            steps: 0,
            pairs_checked: 0,
            fed: 0,
            done: false,
            failed: None,
        };
        if let Err(e) = spawned {
            run.failed = Some(format!("cannot start the audit thread: {e}"));
        }
        run
    }

    /// A live step, for the worker.
    pub fn feed(&mut self, frame: &Frame) {
        if let Some(tx) = &self.feed
            && tx.send(LiveItem::Step(Box::new(frame.clone()))).is_ok()
        {
            self.fed += 1;
        }
    }

    /// A live run declared more bodies: the worker audits the next steps with them, keeping
    /// what spans steps (the frame before, for the tunnelling check).
    pub fn rescene(&mut self, scene: Scene) {
        if let Some(tx) = &self.feed {
            let _ = tx.send(LiveItem::Scene(Box::new(scene)));
        }
    }

    /// Takes what the worker found so far; true when something arrived.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(msg) = self.rx.try_recv() {
            changed = true;
            match msg {
                AuditMsg::Steps {
                    findings,
                    steps,
                    pairs_checked,
                } => {
                    self.findings.extend(findings);
                    self.steps = steps;
                    self.pairs_checked = pairs_checked;
                }
                AuditMsg::Done => self.done = true,
                AuditMsg::Failed(why) => self.failed = Some(why),
            }
        }
        changed
    }

    /// True while the worker has frames it has not audited yet.
    pub fn is_working(&self) -> bool {
        if self.failed.is_some() || self.done {
            return false;
        }
        self.feed.is_none() || self.steps < self.fed
    }

    /// The findings of one frame of the recording, with their index in [`AuditRun::findings`].
    pub fn at_frame(&self, frame: u64) -> impl Iterator<Item = (usize, &Finding)> {
        // In frame order: the frame's findings are one run of the list.
        let start = self.findings.partition_point(|f| f.frame < frame);
        self.findings[start..]
            .iter()
            .take_while(move |f| f.frame == frame)
            .enumerate()
            .map(move |(i, f)| (start + i, f))
    }
}

impl Drop for AuditRun {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

fn work(
    scene: Scene,
    file: &Path,
    source: Source,
    tx: &Sender<AuditMsg>,
    cancel: &AtomicBool,
) -> Result<(), String> {
    let mut auditor =
        Auditor::new(scene, file, AuditOptions::default()).map_err(|e| e.to_string())?;
    let mut report = AuditReport::new(auditor.engine(), auditor.prediction_m(), auditor.options());
    let send = |report: &mut AuditReport| {
        tx.send(AuditMsg::Steps {
            findings: std::mem::take(&mut report.findings),
            steps: report.steps,
            pairs_checked: report.pairs_checked,
        })
        .is_ok()
    };
    match source {
        Source::Recording(path) => {
            // A reader of its own: the viewer's reader stays free for seeking.
            let reader = RecordingReader::open(&path).map_err(|e| e.to_string())?;
            for pos in 0..reader.len() {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let frame = reader.frame(pos).map_err(|e| e.to_string())?;
                auditor.step(&frame, &mut report);
                if (pos + 1) % BATCH == 0 && !send(&mut report) {
                    return Ok(());
                }
            }
            send(&mut report);
        }
        Source::Live(frames) => {
            // Ends when the session (the sender) is dropped.
            while let Ok(item) = frames.recv() {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(());
                }
                match item {
                    LiveItem::Step(frame) => auditor.step(&frame, &mut report),
                    LiveItem::Scene(scene) => {
                        auditor.rescene(*scene, file).map_err(|e| e.to_string())?;
                    }
                }
                if !send(&mut report) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}
