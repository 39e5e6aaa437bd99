//! Tracing: algorithms report what they do to a [`Probe`]; the recorded events of one frame
//! form its trace, which the timeline's second level steps through.
//!
//! With [`NoProbe`] every report compiles to nothing: the event is built inside a closure that
//! is never called, so benchmarks run the very code the debugger shows. The `untraced` feature
//! removes the calls altogether, which is how the benchmark proves the point.

mod diff_role;
mod event;
mod family_event;
mod probe;
mod shapes;

pub use diff_role::{DiffRole, FrameParts};
pub use event::{BodyId, EventKind, FeatureId, Stage, TraceEvent, Verdict, Volume, axis_name};
pub use family_event::FamilyEvent;
pub use probe::{NoProbe, Probe, TraceRecorder};
pub use shapes::{DebugShape, ShapeRole, volume_shapes};

/// Reports an event to a probe. The event expression is only evaluated when the probe wants
/// events, and the whole call vanishes under the `untraced` feature.
#[macro_export]
macro_rules! trace_event {
    ($probe:expr, $event:expr) => {{
        #[cfg(not(feature = "untraced"))]
        {
            $crate::trace::Probe::record($probe, || $event);
        }
    }};
}
