//! One opened thing: a scene stepping live, or a recording being replayed (and possibly
//! resumed live from one of its frames).

use super::audit::AuditRun;
use super::captured::{StreamLog, TempRecording};
use super::catalog::BodyCatalog;
use super::scan::{ScanMsg, ScanState};
use super::store::FrameStore;
use super::summary::{FrameSummary, Markers, TimelineMarker};
use crate::record::{Frame, RecordError, RecordingReader};
use crate::world::{Scene, World};
use std::path::PathBuf;
use std::sync::Arc;

/// Where a session's frames came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    Builtin(String),
    SceneFile(PathBuf),
    Recording(PathBuf),
    /// A capture stream (`.jsonl`) read into a temporary recording.
    CaptureStream(PathBuf),
    /// An engine streaming its run to the address listened on.
    Listening {
        addr: std::net::SocketAddr,
        peer: std::net::SocketAddr,
    },
}

impl Origin {
    pub fn label(&self) -> String {
        match self {
            Origin::Builtin(name) => format!("built-in scene “{name}”"),
            Origin::SceneFile(p) | Origin::Recording(p) => p.display().to_string(),
            Origin::CaptureStream(p) => format!("{} (capture stream)", p.display()),
            Origin::Listening { addr, peer } => format!("engine at {peer} (live on {addr})"),
        }
    }

    pub fn path(&self) -> Option<&PathBuf> {
        match self {
            Origin::Builtin(_) | Origin::Listening { .. } => None,
            Origin::SceneFile(p) | Origin::Recording(p) | Origin::CaptureStream(p) => Some(p),
        }
    }
}

/// Why a captured run's session refuses to step or fork, wherever a control says so.
pub const REPLAY_ONLY_WHY: &str = "a captured run is replayed, not re-simulated";

/// Scene parameters a fork may change (the bodies stay those of the frame resumed from).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneEdits {
    pub gravity: [f64; 3],
    pub dt_s: f64,
    pub iterations: u32,
    pub baumgarte: f64,
    pub slop_m: f64,
    pub penetration_tolerance_m: f64,
    pub ccd: crate::scene::CcdMode,
    /// The families' data (a family view's switches edit its own).
    pub families: Vec<crate::families::FamilySceneData>,
}

impl SceneEdits {
    pub fn of(scene: &Scene) -> Self {
        Self {
            gravity: scene.gravity,
            dt_s: scene.solver.dt_s,
            iterations: scene.solver.iterations,
            baumgarte: scene.solver.baumgarte,
            slop_m: scene.solver.slop_m,
            penetration_tolerance_m: scene.solver.penetration_tolerance_m,
            ccd: scene.solver.ccd,
            families: scene.families.clone(),
        }
    }

    pub fn apply(&self, scene: &mut Scene) {
        scene.gravity = self.gravity;
        scene.solver.dt_s = self.dt_s;
        scene.solver.iterations = self.iterations;
        scene.solver.baumgarte = self.baumgarte;
        scene.solver.slop_m = self.slop_m;
        scene.solver.penetration_tolerance_m = self.penetration_tolerance_m;
        scene.solver.ccd = self.ccd;
        scene.families = self.families.clone();
    }
}

pub struct Session {
    pub origin: Origin,
    /// The scene the next steps use (after a fork with edits, the edited one).
    pub scene: Scene,
    pub catalog: Arc<BodyCatalog>,
    store: FrameStore,
    summaries: Vec<FrameSummary>,
    markers: Markers,
    /// The engine, in the state of the last frame: `Some` when the session can step.
    world: Option<World>,
    pub trace_limit: usize,
    /// Background reading of a recording's frames (summaries, markers, validation).
    pub scan: Option<ScanState>,
    /// Where the last fork happened, for the timeline.
    pub forked_at: Option<usize>,
    /// A captured run's stream: the lines skipped and what else it said.
    pub stream: Option<StreamLog>,
    /// The live client's run this session shows (see `capture::LiveEvent`).
    pub live_run: Option<u64>,
    /// A captured run's audit by our algorithms, on a worker thread.
    pub audit: Option<AuditRun>,
    /// The recording a capture stream was read into, removed with the session. Last, so
    /// that the store reading it is dropped first.
    temp: Option<TempRecording>,
}

/// A scene with no bodies, named after the file: stands in for a recording's scene that
/// cannot be rebuilt. Built from text so that it follows the scene format's defaults.
fn placeholder_scene(path: &std::path::Path) -> Scene {
    let text = format!("(name: {:?}, bodies: [])", path.display().to_string());
    Scene::from_ron(&text, path).unwrap_or_else(|_| {
        let mut s = crate::world::builtin_scene(crate::world::DEFAULT_SCENE)
            .expect("the default scene is built in");
        s.bodies.clear();
        s
    })
}

/// The scene with the catalog of its bodies; a scene whose bodies cannot be built keeps
/// its names, drawn as points.
fn catalog_of(scene: Scene) -> (Scene, BodyCatalog) {
    match World::with_origin(scene.clone(), std::path::Path::new("<capture>")) {
        Ok(world) => {
            let catalog = BodyCatalog::from_bodies(&scene, &world.bodies);
            (scene, catalog)
        }
        Err(e) => {
            let names: Vec<String> = scene.bodies.iter().map(|b| b.name.clone()).collect();
            (scene, BodyCatalog::names_only(&names, e.to_string()))
        }
    }
}

impl Session {
    /// A scene stepping live, starting with its initial frame.
    pub fn live(
        origin: Origin,
        scene: Scene,
        trace_limit: usize,
        budget_bytes: usize,
    ) -> Result<Self, String> {
        let file = origin
            .path()
            .cloned()
            .unwrap_or_else(|| PathBuf::from("<built-in>"));
        let world = World::with_origin(scene.clone(), &file).map_err(|e| e.to_string())?;
        let catalog = Arc::new(BodyCatalog::from_bodies(&scene, &world.bodies));
        let mut session = Self {
            origin,
            scene,
            catalog,
            store: FrameStore::in_memory(budget_bytes),
            summaries: Vec::new(),
            markers: Markers::default(),
            world: None,
            trace_limit,
            scan: None,
            forked_at: None,
            stream: None,
            live_run: None,
            audit: None,
            temp: None,
        };
        session.append(world.initial_frame())?;
        session.world = Some(world);
        Ok(session)
    }

    /// A recording, replayed in place. The bodies are rebuilt from the scene the file embeds;
    /// summaries and markers arrive from a background scan (see [`Session::poll_scan`]).
    pub fn replay(reader: Arc<RecordingReader>, trace_limit: usize, budget_bytes: usize) -> Self {
        let path = reader.path().to_path_buf();
        let header = reader.header();
        let built = Scene::from_ron(&header.scene_ron, &path)
            .map_err(|e| e.to_string())
            .and_then(|scene| {
                let world = World::with_origin(scene.clone(), &path).map_err(|e| e.to_string())?;
                Ok((scene, world))
            });
        let (scene, catalog) = match built {
            Ok((scene, world)) => {
                let catalog = BodyCatalog::from_bodies(&scene, &world.bodies);
                (scene, catalog)
            }
            Err(why) => (
                placeholder_scene(&path),
                BodyCatalog::names_only(&header.body_names, why),
            ),
        };
        let scan = ScanState::start(path.clone(), reader.len());
        // A run captured from another engine is audited as it is shown.
        let audit = scene
            .replay_only()
            .then(|| AuditRun::over_recording(scene.clone(), &path));
        Self {
            origin: Origin::Recording(path),
            scene,
            catalog: Arc::new(catalog),
            store: FrameStore::over_recording(reader, budget_bytes),
            summaries: Vec::new(),
            markers: Markers::default(),
            world: None,
            trace_limit,
            scan: Some(scan),
            forked_at: None,
            stream: None,
            live_run: None,
            audit,
            temp: None,
        }
    }

    /// A capture stream's recording, read in place and removed with the session; the origin
    /// names the stream.
    pub fn replay_stream(
        reader: Arc<RecordingReader>,
        temp: TempRecording,
        stream: PathBuf,
        log: StreamLog,
        options: (usize, usize),
    ) -> Self {
        let mut session = Self::replay(reader, options.0, options.1);
        session.origin = Origin::CaptureStream(stream);
        session.stream = Some(log);
        session.temp = Some(temp);
        session
    }

    /// A captured run arriving step by step (see [`Session::push_captured`]): no frame yet,
    /// never stepped here.
    pub fn captured(origin: Origin, scene: Scene, budget_bytes: usize) -> Self {
        let (scene, catalog) = catalog_of(scene);
        let audit = Some(AuditRun::live(scene.clone()));
        Self {
            origin,
            scene,
            catalog: Arc::new(catalog),
            store: FrameStore::in_memory(budget_bytes),
            summaries: Vec::new(),
            markers: Markers::default(),
            world: None,
            trace_limit: 0,
            scan: None,
            forked_at: None,
            stream: Some(StreamLog::default()),
            live_run: None,
            audit,
            temp: None,
        }
    }

    /// A captured step, appended.
    pub fn push_captured(&mut self, frame: Frame) -> Result<(), String> {
        if let Some(audit) = &mut self.audit {
            audit.feed(&frame);
        }
        self.append(frame)
    }

    /// The scene of a captured run that declared more bodies: ids only grow, so the frames
    /// already held stay valid.
    pub fn set_scene(&mut self, scene: Scene) {
        let (scene, catalog) = catalog_of(scene);
        if let Some(audit) = &mut self.audit {
            audit.rescene(scene.clone());
        }
        self.scene = scene;
        self.catalog = Arc::new(catalog);
    }

    /// True when the session's run came from another engine: replayed, never re-simulated.
    pub fn replay_only(&self) -> bool {
        self.scene.replay_only()
    }

    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    pub fn frame(&self, pos: usize) -> Result<Arc<Frame>, RecordError> {
        self.store.frame(pos)
    }

    pub fn store(&self) -> &FrameStore {
        &self.store
    }

    pub fn store_mut(&mut self) -> &mut FrameStore {
        &mut self.store
    }

    pub fn summaries(&self) -> &[FrameSummary] {
        &self.summaries
    }

    pub fn markers(&self) -> &Markers {
        &self.markers
    }

    pub fn dt_s(&self) -> f64 {
        match self.store.recording() {
            Some(r) if self.world.is_none() && r.header().dt_s > 0.0 => r.header().dt_s,
            _ => self.scene.solver.dt_s,
        }
    }

    /// True when the engine is attached and can append frames.
    pub fn can_step(&self) -> bool {
        self.world.is_some()
    }

    pub fn is_recording_replay(&self) -> bool {
        self.store.recording().is_some()
    }

    /// Gives a family input for the next step (see [`crate::family::FamilySim::drive`]).
    pub fn drive(&mut self, input: &crate::family::FamilyInput) -> Result<(), String> {
        match self.world.as_mut() {
            Some(world) => {
                world.drive(input);
                Ok(())
            }
            None => Err("this session cannot step: resume from a frame first".into()),
        }
    }

    /// Steps the engine once and appends the frame.
    pub fn step(&mut self) -> Result<(), String> {
        if self.replay_only() {
            return Err(format!("{REPLAY_ONLY_WHY}: it cannot be stepped"));
        }
        let Some(world) = self.world.as_mut() else {
            return Err("this session cannot step: resume from a frame first".into());
        };
        let frame = if self.trace_limit > 0 {
            world.step_traced(self.trace_limit)
        } else {
            world.step(&mut crate::trace::NoProbe)
        };
        self.append(frame)
    }

    fn append(&mut self, frame: Frame) -> Result<(), String> {
        let pos = self.store.len();
        let markers: Vec<TimelineMarker> = TimelineMarker::from_frame(pos, &frame).collect();
        let bytes_before = frame.estimated_bytes();
        self.store.push(frame).map_err(|e| e.to_string())?;
        let frame = self.store.frame(pos).map_err(|e| e.to_string())?;
        let mut summary = FrameSummary::of(&frame, self.store.memory_bytes() as u64);
        summary.frame_bytes = bytes_before as u64;
        // Summaries of a recording still being scanned fill in below this one later.
        if self.summaries.len() == pos {
            self.summaries.push(summary);
        }
        self.markers.extend(markers);
        Ok(())
    }

    /// "Resume from this frame": drops every frame after `pos`, attaches the engine in the
    /// state of frame `pos` (with the scene edited if asked), ready to step.
    pub fn fork(&mut self, pos: usize, edits: Option<&SceneEdits>) -> Result<(), String> {
        if self.replay_only() {
            return Err(format!("{REPLAY_ONLY_WHY}: it cannot be resumed"));
        }
        if pos >= self.len() {
            return Err(format!(
                "frame {pos} does not exist (there are {} frames)",
                self.len()
            ));
        }
        if self.catalog.problem.is_some() {
            return Err(format!(
                "cannot resume: the recording's scene cannot be rebuilt ({})",
                self.catalog.problem.clone().unwrap_or_default()
            ));
        }
        let frame = self.store.frame(pos).map_err(|e| e.to_string())?;
        let mut scene = self.scene.clone();
        if let Some(e) = edits {
            e.apply(&mut scene);
        }
        let file = self
            .origin
            .path()
            .cloned()
            .unwrap_or_else(|| PathBuf::from("<built-in>"));
        let mut world = World::with_origin(scene.clone(), &file).map_err(|e| e.to_string())?;
        world.restore(&frame);
        self.store.truncate(pos + 1).map_err(|e| e.to_string())?;
        self.summaries.truncate(pos + 1);
        self.markers.truncate_frames(pos + 1);
        // A scan of the recording past the fork would only report dropped frames.
        if let Some(scan) = &mut self.scan {
            scan.limit_to(pos + 1);
        }
        self.scene = scene;
        self.world = Some(world);
        self.forked_at = Some(pos);
        Ok(())
    }

    /// Takes what the audit has found so far. Returns true when something arrived.
    pub fn poll_audit(&mut self) -> bool {
        self.audit.as_mut().is_some_and(AuditRun::poll)
    }

    /// Takes what the background scan has found so far. Returns true when something arrived.
    pub fn poll_scan(&mut self) -> bool {
        let Some(scan) = &mut self.scan else {
            return false;
        };
        let mut changed = false;
        for msg in scan.drain() {
            changed = true;
            match msg {
                ScanMsg::Summaries {
                    first,
                    summaries,
                    markers,
                } => {
                    let limit = scan.limit();
                    if first == self.summaries.len() {
                        let take = summaries.len().min(limit.saturating_sub(first));
                        self.summaries.extend_from_slice(&summaries[..take]);
                    }
                    self.markers
                        .extend(markers.into_iter().filter(|m| m.frame < limit));
                }
                ScanMsg::Marker(m) => {
                    if m.frame < scan.limit() {
                        self.markers.extend([m]);
                    }
                }
                ScanMsg::Progress { .. } | ScanMsg::Done | ScanMsg::Failed(_) => {}
            }
        }
        // Frames stepped after a fork were summarised as they came; keep them once the scan
        // has caught up.
        changed
    }

    pub fn memory_bytes(&self) -> usize {
        self.store.memory_bytes()
    }

    pub fn budget_bytes(&self) -> usize {
        self.store.budget_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::builtin_scene;

    fn live(name: &str) -> Session {
        let scene = builtin_scene(name).expect("built-in");
        Session::live(Origin::Builtin(name.into()), scene, 1000, 64 << 20).expect("session")
    }

    #[test]
    fn live_session_steps_and_summarises() {
        let mut s = live("box-stack");
        assert_eq!(s.len(), 1);
        for _ in 0..10 {
            s.step().expect("step");
        }
        assert_eq!(s.len(), 11);
        assert_eq!(s.summaries().len(), 11);
        assert_eq!(s.frame(10).expect("frame").index, 10);
        assert!(s.summaries()[10].history_bytes > 0);
    }

    #[test]
    fn fork_drops_the_future_and_resteps_identically() {
        let mut s = live("mixed-drop");
        for _ in 0..40 {
            s.step().expect("step");
        }
        let original: Vec<u64> = (0..41)
            .map(|i| s.frame(i).expect("frame").state_hash())
            .collect();
        let markers_before = s.markers().len();
        s.fork(20, None).expect("fork");
        assert_eq!(s.len(), 21);
        assert_eq!(s.summaries().len(), 21);
        assert!(s.markers().all().iter().all(|m| m.frame <= 20));
        for _ in 0..20 {
            s.step().expect("step");
        }
        // Same scene, same state: the re-stepped future is the original one, bit for bit.
        for (i, hash) in original.iter().enumerate() {
            assert_eq!(s.frame(i).expect("frame").state_hash(), *hash, "frame {i}");
        }
        assert!(s.markers().len() >= markers_before.min(1));
    }

    #[test]
    fn fork_with_edits_changes_the_future() {
        let mut s = live("mixed-drop");
        for _ in 0..5 {
            s.step().expect("step");
        }
        let before = s.frame(5).expect("frame").state_hash();
        let mut edits = SceneEdits::of(&s.scene);
        edits.gravity = [0.0, 9.81, 0.0];
        s.fork(4, Some(&edits)).expect("fork");
        s.step().expect("step");
        assert_ne!(s.frame(5).expect("frame").state_hash(), before);
        assert_eq!(s.scene.gravity, [0.0, 9.81, 0.0]);
        assert!(s.fork(99, None).is_err());
    }
}
