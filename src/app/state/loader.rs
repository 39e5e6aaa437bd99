//! Opening scenes and recordings on a worker thread, so a big file never freezes the UI.

use super::captured::{StreamLog, TempRecording};
use super::session::{Origin, Session};
use crate::record::RecordingReader;
use crate::world::{Scene, builtin_scene};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

#[derive(Clone, Debug, PartialEq)]
pub enum LoadRequest {
    Builtin(String),
    Path(PathBuf),
}

impl LoadRequest {
    pub fn label(&self) -> String {
        match self {
            LoadRequest::Builtin(n) => format!("built-in scene “{n}”"),
            LoadRequest::Path(p) => p.display().to_string(),
        }
    }
}

/// Session parameters a load needs from the settings.
#[derive(Clone, Copy, Debug)]
pub struct LoadOptions {
    pub trace_limit: usize,
    pub budget_bytes: usize,
}

pub enum LoadResult {
    Ready(Box<Session>),
    Failed(String),
}

pub struct LoadJob {
    pub request: LoadRequest,
    rx: Receiver<LoadResult>,
    pub started: std::time::Instant,
}

impl LoadJob {
    pub fn start(
        request: LoadRequest,
        options: LoadOptions,
        wake: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        let r = request.clone();
        let spawned = std::thread::Builder::new()
            .name("open".into())
            .spawn(move || {
                let result = match load(&r, options) {
                    Ok(s) => LoadResult::Ready(Box::new(s)),
                    Err(e) => LoadResult::Failed(e),
                };
                let _ = tx.send(result);
                wake();
            });
        let job = Self {
            request,
            rx,
            started: std::time::Instant::now(),
        };
        if let Err(e) = spawned {
            // Load on this thread instead: slower UI, same result.
            let (tx, rx) = channel();
            let _ = tx.send(LoadResult::Failed(format!(
                "cannot start a loading thread: {e}"
            )));
            return Self { rx, ..job };
        }
        job
    }

    /// The result once the worker is done.
    pub fn poll(&self) -> Option<LoadResult> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(LoadResult::Failed(format!(
                "opening {} stopped unexpectedly",
                self.request.label()
            ))),
        }
    }

    /// Blocks until done (tests, the screenshot mode).
    pub fn wait(self) -> LoadResult {
        self.rx.recv().unwrap_or_else(|_| {
            LoadResult::Failed(format!(
                "opening {} stopped unexpectedly",
                self.request.label()
            ))
        })
    }
}

/// Does the file start like a recording? (The record module decides, by content.)
pub use crate::record::is_recording;

pub fn load(request: &LoadRequest, options: LoadOptions) -> Result<Session, String> {
    match request {
        LoadRequest::Builtin(name) => {
            let scene = builtin_scene(name).map_err(|e| e.to_string())?;
            Session::live(
                Origin::Builtin(name.clone()),
                scene,
                options.trace_limit,
                options.budget_bytes,
            )
        }
        LoadRequest::Path(path) => {
            if !path.exists() {
                return Err(format!("{}: no such file", path.display()));
            }
            if is_recording(path) {
                open_recording(path, options)
            } else if super::captured::is_capture_stream(path) {
                open_stream(path, options.trace_limit, options.budget_bytes)
            } else {
                let scene = Scene::load(path).map_err(|e| e.to_string())?;
                Session::live(
                    Origin::SceneFile(path.clone()),
                    scene,
                    options.trace_limit,
                    options.budget_bytes,
                )
            }
        }
    }
}

fn open_recording(path: &Path, options: LoadOptions) -> Result<Session, String> {
    let reader = RecordingReader::open(path).map_err(|e| e.to_string())?;
    if reader.is_empty() {
        return Err(format!(
            "{}: the recording holds no readable frame",
            path.display()
        ));
    }
    Ok(Session::replay(
        Arc::new(reader),
        options.trace_limit,
        options.budget_bytes,
    ))
}

/// Reads a capture stream into a temporary recording and opens it for replay.
fn open_stream(path: &Path, trace_limit: usize, budget_bytes: usize) -> Result<Session, String> {
    let temp = TempRecording::new()?;
    let report = crate::capture::ingest_file(path, temp.path())?;
    let log = StreamLog::from_report(&report.stream);
    if report.recording.frames == 0 {
        let why = log
            .skipped_summary()
            .map_or_else(String::new, |s| format!("; {s}"));
        return Err(format!(
            "{}: the capture stream holds no complete step ({} lines read{why})",
            path.display(),
            report.stream.lines
        ));
    }
    let reader = RecordingReader::open(temp.path())
        .map_err(|e| format!("{}: reading it back: {e}", path.display()))?;
    Ok(Session::replay_stream(
        Arc::new(reader),
        temp,
        PathBuf::from(path),
        log,
        (trace_limit, budget_bytes),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: LoadOptions = LoadOptions {
        trace_limit: crate::trace::TraceRecorder::DEFAULT_LIMIT,
        budget_bytes: 1 << 24,
    };

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nope.cdrec");
        let Err(e) = load(&LoadRequest::Path(missing.clone()), OPTIONS) else {
            panic!("a missing file loads")
        };
        assert!(e.contains("nope.cdrec"), "{e}");
        let bad = dir.path().join("bad.ron");
        std::fs::write(&bad, "Scene( name: ").expect("write");
        let Err(e) = load(&LoadRequest::Path(bad), OPTIONS) else {
            panic!("a broken scene loads")
        };
        assert!(e.contains("bad.ron"), "{e}");
        let Err(e) = load(&LoadRequest::Builtin("nope".into()), OPTIONS) else {
            panic!("an unknown built-in loads")
        };
        assert!(e.contains("mixed-drop"), "lists the available scenes: {e}");
    }

    #[test]
    fn a_scene_file_opens_live_in_the_background() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.ron");
        let scene = builtin_scene("box-stack").expect("built-in");
        std::fs::write(&path, scene.to_ron()).expect("write");
        let job = LoadJob::start(LoadRequest::Path(path), OPTIONS, || {});
        match job.wait() {
            LoadResult::Ready(s) => {
                assert!(s.can_step());
                assert_eq!(s.catalog.bodies.len(), scene.bodies.len());
            }
            LoadResult::Failed(e) => panic!("{e}"),
        }
    }
}
