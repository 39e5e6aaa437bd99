//! What every family hook reads: the state and the scene's static data.

use crate::app::state::catalog::BodyCatalog;
use crate::app::state::session::{SceneEdits, Session};
use crate::app::state::{AppState, Selection};
use crate::families::FamilySceneData;
use crate::geom::Pose;
use crate::record::Frame;
use crate::trace::{BodyId, TraceEvent};
use crate::world::{Scene, World};

/// The static data of the open session's scene, as the engine builds it: the bodies (shapes,
/// meshes), each triangle mesh's hierarchy, the families' scene data. Rebuilt once per
/// session (for a recording, from the scene it embeds), shared by every family view.
#[derive(Default)]
pub struct SceneStatics {
    generation: Option<u64>,
    world: Option<World>,
    /// Why the scene could not be rebuilt, for the panels to say.
    pub problem: Option<String>,
}

impl SceneStatics {
    /// Rebuilds the world when a new session arrived.
    pub fn sync(&mut self, state: &AppState) {
        if self.generation == Some(state.session_generation) {
            return;
        }
        self.generation = Some(state.session_generation);
        self.world = None;
        self.problem = None;
        if let Some(session) = &state.session {
            match World::with_origin(session.scene.clone(), std::path::Path::new("<viewer>")) {
                Ok(w) => self.world = Some(w),
                Err(e) => self.problem = Some(format!("cannot rebuild the scene: {e}")),
            }
        }
    }

    pub fn world(&self) -> Option<&World> {
        self.world.as_ref()
    }

    /// The hierarchy of a triangle-mesh body.
    pub fn tree(&self, body: BodyId) -> Option<&crate::bvh::AnyBvh> {
        self.world.as_ref()?.tree(body)
    }
}

/// What a family hook reads. Cheap to build: two references.
#[derive(Clone, Copy)]
pub struct FamilyContext<'a> {
    pub state: &'a AppState,
    pub statics: &'a SceneStatics,
}

impl<'a> FamilyContext<'a> {
    pub fn new(state: &'a AppState, statics: &'a SceneStatics) -> Self {
        Self { state, statics }
    }

    pub fn session(&self) -> Option<&'a Session> {
        self.state.session.as_ref()
    }

    /// The scene the session records (for a recording, the one its header embeds).
    pub fn scene(&self) -> Option<&'a Scene> {
        self.session().map(|s| &s.scene)
    }

    pub fn catalog(&self) -> Option<&'a BodyCatalog> {
        self.session().map(|s| &*s.catalog)
    }

    /// The engine's static data for the scene (bodies, meshes, hierarchies).
    pub fn world(&self) -> Option<&'a World> {
        self.statics.world()
    }

    /// The recorded frame under the playhead.
    pub fn frame(&self) -> Option<&'a Frame> {
        self.state.current_frame().map(|f| &**f)
    }

    /// The event under the step scrubber.
    pub fn event(&self) -> Option<(usize, &'a TraceEvent)> {
        self.state.current_event()
    }

    pub fn selection(&self) -> Selection {
        self.state.selection
    }

    /// Changes when a new session arrives: caches keyed on it start over.
    pub fn generation(&self) -> u64 {
        self.state.session_generation
    }

    /// A body's recorded pose in the frame under the playhead.
    pub fn pose(&self, body: BodyId) -> Option<Pose> {
        let b = self.frame()?.body(body)?;
        Some(Pose::from_parts(b.position.coords.into(), b.rotation))
    }

    /// What the families added to the scene (`Scene::families`).
    pub fn scene_data(&self) -> &'a [FamilySceneData] {
        self.scene().map_or(&[], |s| &s.families[..])
    }

    /// Whether the session's scene carries family `family`'s data.
    pub fn has_data(&self, family: &str) -> bool {
        self.scene_data().iter().any(|d| d.family() == family)
    }

    /// The commands that run the scene again from its first frame, with `edit` applied to its
    /// settings, up to the frame shown (the frames after it are dropped). Nothing when there
    /// is no scene or `edit` finds nothing to change (it returns false).
    pub fn resimulate_with(
        &self,
        edit: impl FnOnce(&mut SceneEdits) -> bool,
    ) -> Vec<crate::app::state::Command> {
        use crate::app::state::Command;
        let Some(scene) = self.scene() else {
            return Vec::new();
        };
        let mut edits = SceneEdits::of(scene);
        if !edit(&mut edits) {
            return Vec::new();
        }
        vec![
            Command::SeekFrame(0),
            Command::Fork(Some(edits)),
            Command::StepFrames(self.state.playhead.frame as i64),
        ]
    }

    /// The name of a body, or `body N` when unknown.
    pub fn body_name(&self, body: BodyId) -> String {
        self.catalog()
            .map_or_else(|| format!("body {body}"), |c| c.name(body))
    }
}
