//! The macro behind `src/families.rs`: one line per family generates the recorded enums and
//! the global lists, so no other file of the engine names a family.

/// Registers the algorithm families. Each line `Variant => path::to::FamilyType` gives the
/// family its variant in [`EventKind`](crate::trace::EventKind), `FamilySceneData` and
/// `FamilyFrameData`. The order of the lines is the order of the variants in recordings:
/// append new families at the end, never reorder.
#[macro_export]
macro_rules! register_families {
    ($($variant:ident => $family:ty),+ $(,)?) => {
        use $crate::family::{EngineFamily, FamilyEvent};

        /// An event of one family: the family's own event type, under its variant.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum EventKind {
            $($variant(<$family as EngineFamily>::Event),)+
        }

        $(
            impl From<<$family as EngineFamily>::Event> for EventKind {
                fn from(e: <$family as EngineFamily>::Event) -> Self {
                    EventKind::$variant(e)
                }
            }
        )+

        impl EventKind {
            /// The name of the family the event belongs to.
            pub fn family(&self) -> &'static str {
                match self {
                    $(EventKind::$variant(_) => <$family as EngineFamily>::NAME,)+
                }
            }

            pub fn bodies(&self) -> Vec<$crate::trace::BodyId> {
                match self {
                    $(EventKind::$variant(e) => e.bodies(),)+
                }
            }

            pub fn summary(&self, verdict: $crate::trace::Verdict) -> String {
                match self {
                    $(EventKind::$variant(e) => e.summary(verdict),)+
                }
            }

            pub fn shapes(&self, out: &mut Vec<$crate::trace::DebugShape>) {
                match self {
                    $(EventKind::$variant(e) => e.shapes(out),)+
                }
            }

            pub fn heap_bytes(&self) -> usize {
                match self {
                    $(EventKind::$variant(e) => e.heap_bytes(),)+
                }
            }

            pub fn diff_role(&self, verdict: $crate::trace::Verdict) -> $crate::trace::DiffRole {
                match self {
                    $(EventKind::$variant(e) => e.diff_role(verdict),)+
                }
            }

            pub fn contact(&self) -> Option<([$crate::trace::BodyId; 2], bool)> {
                match self {
                    $(EventKind::$variant(e) => e.contact(),)+
                }
            }
        }

        /// What one family adds to a scene.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum FamilySceneData {
            $($variant(<$family as EngineFamily>::SceneData),)+
        }

        impl FamilySceneData {
            pub fn family(&self) -> &'static str {
                match self {
                    $(FamilySceneData::$variant(_) => <$family as EngineFamily>::NAME,)+
                }
            }

            /// True when a scene with this data is only replayed (`EngineFamily::REPLAY_ONLY`).
            pub fn replay_only(&self) -> bool {
                match self {
                    $(FamilySceneData::$variant(_) => <$family as EngineFamily>::REPLAY_ONLY,)+
                }
            }

            /// Reads the files the data names, relative to `dir` (see
            /// `EngineFamily::read_files`).
            pub fn read_files(&mut self, dir: &std::path::Path) -> Result<(), String> {
                match self {
                    $(FamilySceneData::$variant(d) => <$family as EngineFamily>::read_files(d, dir),)+
                }
            }

            /// About how many bytes the family's part of a world takes (see
            /// `EngineFamily::estimated_bytes`).
            pub fn estimated_bytes(&self) -> u64 {
                match self {
                    $(FamilySceneData::$variant(d) => <$family as EngineFamily>::estimated_bytes(d),)+
                }
            }

            /// The family's running state for a world built from this data.
            pub fn simulation(
                &self,
                setup: &$crate::family::SimSetup<'_>,
            ) -> Result<Box<dyn $crate::family::FamilySim>, $crate::scene::SceneError> {
                match self {
                    $(FamilySceneData::$variant(d) => <$family as EngineFamily>::simulation(d, setup),)+
                }
            }
        }

        /// What one family recorded in a frame.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum FamilyFrameData {
            $($variant(<$family as EngineFamily>::FrameData),)+
        }

        impl FamilyFrameData {
            pub fn family(&self) -> &'static str {
                match self {
                    $(FamilyFrameData::$variant(_) => <$family as EngineFamily>::NAME,)+
                }
            }

            /// See `EngineFamily::frame_parts`.
            pub fn parts(&self, frame: &$crate::frame::Frame, out: &mut $crate::trace::FrameParts) {
                match self {
                    $(FamilyFrameData::$variant(d) => <$family as EngineFamily>::frame_parts(frame, d, out),)+
                }
            }
        }

        /// The stages family `name` times its step in (`EngineFamily::STAGES`); none for a
        /// name no family has.
        pub fn family_stages(name: &str) -> &'static [&'static str] {
            $(
                if name == <$family as EngineFamily>::NAME {
                    return <$family as EngineFamily>::STAGES;
                }
            )+
            &[]
        }

        /// The names of the registered families, in registration order.
        pub const FAMILY_NAMES: &[&str] = &[$(<$family as EngineFamily>::NAME),+];

        /// Every family's built-in scenes under its name and title, families without scenes
        /// left out: the grouping of `collidoscope scenes` and the viewer's Scenes menu.
        pub fn builtin_scenes_by_family(
        ) -> Vec<(&'static str, &'static str, Vec<$crate::family::BuiltinScene>)> {
            let mut all = Vec::new();
            $(
                let scenes = <$family as EngineFamily>::scenes();
                if !scenes.is_empty() {
                    all.push((
                        <$family as EngineFamily>::NAME,
                        <$family as EngineFamily>::TITLE,
                        scenes,
                    ));
                }
            )+
            all
        }

        /// Every family's built-in scenes, family by family.
        pub fn builtin_scenes() -> Vec<$crate::family::BuiltinScene> {
            let mut all = Vec::new();
            $(all.extend(<$family as EngineFamily>::scenes());)+
            all
        }

        /// The family whose scene files end in `extension` (lower case, no dot) reads `path`;
        /// `None` when no family reads such files.
        pub fn load_scene_file(
            extension: &str,
            path: &std::path::Path,
        ) -> Option<Result<$crate::scene::Scene, $crate::scene::SceneError>> {
            $(
                if <$family as EngineFamily>::scene_file_extensions().contains(&extension) {
                    return Some(<$family as EngineFamily>::load_scene_file(path));
                }
            )+
            None
        }

        /// The recording reports of the families that give one, by family name.
        pub fn recording_reports() -> Vec<(&'static str, Box<dyn $crate::family::RecordingReport>)> {
            let mut all = Vec::new();
            $(
                if let Some(r) = <$family as EngineFamily>::recording_report() {
                    all.push((<$family as EngineFamily>::NAME, r));
                }
            )+
            all
        }

        /// Traces every family's postcard-encoded types for the schema manifest: events and
        /// frame data. Scene data is not among them: a recording embeds its scene as RON
        /// text, where a field added with a default still reads.
        pub fn trace_schema(
            tracer: &mut serde_reflection::Tracer,
        ) -> Result<(), serde_reflection::Error> {
            $(
                tracer.trace_simple_type::<<$family as EngineFamily>::Event>()?;
                tracer.trace_simple_type::<<$family as EngineFamily>::FrameData>()?;
                <$family as EngineFamily>::trace_nested_enums(tracer)?;
            )+
            tracer.trace_simple_type::<EventKind>()?;
            tracer.trace_simple_type::<FamilyFrameData>()?;
            Ok(())
        }

        /// Every family's query ops.
        pub fn query_ops() -> Vec<(&'static str, $crate::family::QueryOp)> {
            let mut all = Vec::new();
            $(all.extend(<$family as EngineFamily>::query_ops());)+
            all
        }
    };
}
