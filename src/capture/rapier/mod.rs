//! A rapier3d world, captured: [`RapierCapture`] reads a [`PhysicsWorld`] after each step and
//! writes what it holds through the capture API ([`Capture`]), to a recording or a stream.
//!
//! Each [`record_step`](RapierCapture::record_step) sends, in this order:
//!
//! - the bodies, colliders and shapes seen for the first time, and a `remove` for each one
//!   gone since the last step (a collider whose body, shape or pose on its body changed is
//!   removed and declared again);
//! - a `frame` (numbered from 0 by the capture, at the sum of the steps' `dt`);
//! - one `state` per body: its pose, velocities, whether it sleeps, and `ccd`, whether CCD was
//!   active for it this step ([`RigidBody::is_ccd_active`]);
//! - the pairs and contacts (see [`contacts`] for what they are: rapier does not expose its
//!   broad phase's pairs, so the pairs sent are the narrow phase's contact-graph and
//!   intersection-graph edges, `touching` when they have an active contact);
//! - one `ccd` event per body with CCD active, with its speed;
//! - the `end_frame`.
//!
//! Ids: a body's id is its handle's index (an integer), a collider's its handle's index too
//! (bodies and colliders are different kinds of ids; a `remove` says which it names), a
//! shape's a counter of the shapes declared. A collider on no body is put on a fixed body of
//! its own, whose id is the text `"collider N"`. Shapes are mapped as [`shapes`] says; every
//! number is rapier's f32 widened to f64, exactly.
//!
//! [`RigidBody::is_ccd_active`]: rapier3d::dynamics::RigidBody::is_ccd_active

mod contacts;
mod example_world;
mod known;
mod shapes;

pub use example_world::{ExampleWorld, example_world};

use crate::capture::{
    BodyItem, Capture, CaptureError, CaptureSummary, Captured, ColliderItem, EngineId, EventItem,
    EventValue, Header, Item, Motion, PoseItem, RemoveItem, Removed, StateItem,
};
use contacts::collider_id;
use known::Known;
use rapier3d::dynamics::{RigidBody, RigidBodyHandle, RigidBodySet, RigidBodyType};
use rapier3d::geometry::{Collider, ColliderHandle, ColliderSet, NarrowPhase};
use rapier3d::pipeline::PhysicsWorld;
use shapes::{pose, v3};
use std::io::Write;
use std::path::Path;

/// The engine as the header names it: the version `Cargo.lock` holds (a test checks it).
pub const ENGINE: &str = "rapier3d 0.36.1";

/// Everything the adapter sends, so that a stage with nothing in a step reads as zero.
const CAPTURES: [Captured; 8] = [
    Captured::STATES,
    Captured::VELOCITIES,
    Captured::PAIRS,
    Captured::CONTACTS,
    Captured::IMPULSES,
    Captured::EVENTS,
    Captured::SLEEPING,
    Captured::CCD,
];

/// The capture, keeping the first item it refused: a refused item (which would be a bug
/// here) does not stop the step, so the step still ends and the run goes on.
struct Sink {
    capture: Capture,
    refused: Option<CaptureError>,
}

impl Sink {
    fn send(&mut self, item: Item) -> Result<(), CaptureError> {
        match self.capture.push(item) {
            Err(e @ CaptureError::Item { .. }) => {
                self.refused.get_or_insert(e);
                Ok(())
            }
            other => other,
        }
    }
}

/// A rapier world's run, captured step by step. See the module doc.
pub struct RapierCapture {
    sink: Sink,
    known: Known,
    frame: u64,
    time_s: f64,
    /// Each body's pose at the end of the step recorded last: where the next step starts,
    /// and where rapier finds its contacts.
    start_poses: std::collections::HashMap<RigidBodyHandle, rapier3d::math::Pose>,
}

/// The rapier pieces a step is read from, for a pipeline without a [`PhysicsWorld`].
pub struct Pieces<'a> {
    pub bodies: &'a RigidBodySet,
    pub colliders: &'a ColliderSet,
    pub narrow_phase: &'a NarrowPhase,
    /// The step's length (`IntegrationParameters::dt`).
    pub dt: f32,
}

impl<'a> Pieces<'a> {
    pub fn of(world: &'a PhysicsWorld) -> Self {
        Self {
            bodies: &world.bodies,
            colliders: &world.colliders,
            narrow_phase: &world.narrow_phase,
            dt: world.integration_parameters.dt,
        }
    }
}

impl RapierCapture {
    /// The header for a capture of `world`: the engine, its step, its gravity and every stage
    /// the adapter sends. Give it to [`Capture::to_recording`] or [`Capture::to_stream`].
    pub fn header(world: &PhysicsWorld) -> Header {
        let mut header = Self::header_for(world.gravity, world.integration_parameters.dt);
        // Rapier makes a contact for colliders closer than this (colliders' contact skins
        // add to it; the example's have none).
        header.prediction_distance_m = Some(f64::from(
            world.integration_parameters.prediction_distance(),
        ));
        header
    }

    pub fn header_for(gravity: rapier3d::math::Vector, dt: f32) -> Header {
        let mut header = Header::new(ENGINE);
        header.dt_s = Some(f64::from(dt));
        header.gravity = Some(v3(gravity));
        // Rapier's narrow phase runs before the solver and the integration: a step's
        // contacts are of the poses the step started from.
        header.contacts_at_start = true;
        header.captures = CAPTURES
            .iter()
            .fold(Captured::default(), |all, c| all.with(*c));
        header
    }

    /// Captures through `capture`, made with [`RapierCapture::header`].
    pub fn new(capture: Capture) -> Self {
        Self {
            sink: Sink {
                capture,
                refused: None,
            },
            known: Known::default(),
            start_poses: Default::default(),
            frame: 0,
            time_s: 0.0,
        }
    }

    /// A capture of `world` into a recording at `path`.
    pub fn to_recording(
        path: impl AsRef<Path>,
        world: &PhysicsWorld,
    ) -> Result<Self, CaptureError> {
        Ok(Self::new(Capture::to_recording(path, Self::header(world))?))
    }

    /// A capture of `world` as a stream into `out` (buffer it).
    pub fn to_stream(
        out: impl Write + Send + 'static,
        world: &PhysicsWorld,
    ) -> Result<Self, CaptureError> {
        Ok(Self::new(Capture::to_stream(out, Self::header(world))?))
    }

    /// Steps captured so far.
    pub fn frames(&self) -> u64 {
        self.frame
    }

    /// Records the step `world` has just taken (call it after `world.step()`).
    ///
    /// An item the capture refused (which would be a bug in the adapter) does not stop the
    /// step: the step ends, and the first refusal is returned. A write error is returned at
    /// once.
    pub fn record_step(&mut self, world: &PhysicsWorld) -> Result<(), CaptureError> {
        self.record_pieces(&Pieces::of(world))
    }

    /// [`record_step`](Self::record_step) from the pieces of a rapier pipeline.
    pub fn record_pieces(&mut self, step: &Pieces<'_>) -> Result<(), CaptureError> {
        self.remove_gone(step.bodies, step.colliders)?;
        self.declare_new(step.bodies, step.colliders)?;
        self.time_s += f64::from(step.dt);
        self.sink.capture.begin_step(self.frame, self.time_s)?;
        self.frame += 1;
        self.send_states(step.bodies, step.colliders)?;
        let known = &self.known;
        let live = |h: ColliderHandle| known.collider_is(h);
        contacts::send_pairs(&mut self.sink, step.narrow_phase, &live)?;
        let starts = &self.start_poses;
        let start = |h: RigidBodyHandle| starts.get(&h).copied();
        contacts::send_contacts(
            &mut self.sink,
            step.narrow_phase,
            step.bodies,
            &live,
            &start,
        )?;
        self.start_poses.clear();
        self.start_poses
            .extend(step.bodies.iter().map(|(h, rb)| (h, *rb.position())));
        self.send_ccd_events(step.bodies)?;
        self.sink.send(Item::EndFrame(Default::default()))?;
        match self.sink.refused.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Flushes the stream, or writes the recording's index.
    pub fn finish(self) -> Result<CaptureSummary, CaptureError> {
        self.sink.capture.finish()
    }

    fn remove_gone(
        &mut self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
    ) -> Result<(), CaptureError> {
        let mut removed = false;
        for i in 0..self.known.colliders.len() {
            let Some(k) = &self.known.colliders[i] else {
                continue;
            };
            let same = colliders
                .get(k.handle)
                .is_some_and(|c| self.known.collider_unchanged(k, c));
            if !same {
                let own_body = k.parent.is_none();
                self.known.colliders[i] = None;
                removed = true;
                self.sink
                    .send(remove(EngineId::Int(i as u64), Removed::Collider))?;
                if own_body {
                    self.sink.send(remove(own_body_id(i), Removed::Body))?;
                }
            }
        }
        for i in 0..self.known.bodies.len() {
            if let Some(h) = self.known.bodies[i]
                && bodies.get(h).is_none()
            {
                self.known.bodies[i] = None;
                self.sink
                    .send(remove(EngineId::Int(i as u64), Removed::Body))?;
            }
        }
        if removed {
            self.known.prune_shapes();
        }
        Ok(())
    }

    fn declare_new(
        &mut self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
    ) -> Result<(), CaptureError> {
        for (handle, body) in bodies.iter() {
            if !self.known.body_is(handle) {
                self.sink.send(Item::Body(BodyItem {
                    id: body_id(handle),
                    name: None,
                    motion: motion(body.body_type()),
                }))?;
                self.known.set_body(handle);
            }
        }
        for (handle, collider) in colliders.iter() {
            if !self.known.collider_is(handle) {
                self.declare_collider(handle, collider)?;
            }
        }
        Ok(())
    }

    fn declare_collider(
        &mut self,
        handle: ColliderHandle,
        collider: &Collider,
    ) -> Result<(), CaptureError> {
        let id = collider_id(handle);
        let (shape, offset, new) = self.known.shape_of(collider, shapes::declare);
        if let Some(declared) = new {
            self.sink.send(Item::Shape(declared.item))?;
        }
        let body = match collider.parent() {
            Some(parent) => body_id(parent),
            None => {
                let own = own_body_id(handle.into_raw_parts().0 as usize);
                self.sink.send(Item::Body(BodyItem {
                    id: own.clone(),
                    name: Some("no rigid body".into()),
                    motion: Motion::Fixed,
                }))?;
                own
            }
        };
        let on_body = collider
            .position_wrt_parent()
            .map_or(PoseItem::IDENTITY, pose);
        self.sink.send(Item::Collider(ColliderItem {
            id,
            body,
            shape,
            pose: then(&on_body, &offset),
            sensor: collider.is_sensor(),
            name: None,
        }))?;
        self.known.set_collider(handle, collider);
        Ok(())
    }

    fn send_states(
        &mut self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
    ) -> Result<(), CaptureError> {
        for (handle, body) in bodies.iter() {
            self.sink.send(Item::State(state(body_id(handle), body)))?;
        }
        for (handle, collider) in colliders.iter() {
            if collider.parent().is_none() {
                let own = own_body_id(handle.into_raw_parts().0 as usize);
                self.sink
                    .send(Item::State(StateItem::at(own, pose(collider.position()))))?;
            }
        }
        Ok(())
    }

    fn send_ccd_events(&mut self, bodies: &RigidBodySet) -> Result<(), CaptureError> {
        for (handle, body) in bodies.iter().filter(|(_, b)| b.is_ccd_active()) {
            let mut event = EventItem::new("ccd", "CCD active");
            event.bodies.push(body_id(handle));
            let speed = v3(body.linvel()).iter().map(|x| x * x).sum::<f64>().sqrt();
            event
                .values
                .push(("speed_m_s".into(), EventValue::Number(speed)));
            // Rapier sweeps a fast body against fixed colliders on its own; a body with CCD
            // enabled ("bullet") is swept against moving bodies too.
            let sweeps = if body.is_ccd_enabled() {
                "every body"
            } else {
                "fixed colliders"
            };
            event
                .values
                .push(("sweeps".into(), EventValue::Text(sweeps.into())));
            self.sink.send(Item::Event(event))?;
        }
        Ok(())
    }
}

fn body_id(handle: RigidBodyHandle) -> EngineId {
    EngineId::Int(handle.into_raw_parts().0.into())
}

/// The fixed body a collider without a rigid body is put on.
fn own_body_id(collider_index: usize) -> EngineId {
    EngineId::Text(format!("collider {collider_index}"))
}

fn remove(id: EngineId, what: Removed) -> Item {
    Item::Remove(RemoveItem {
        id,
        what: Some(what),
    })
}

fn motion(t: RigidBodyType) -> Motion {
    match t {
        RigidBodyType::Dynamic => Motion::Dynamic,
        RigidBodyType::Fixed => Motion::Fixed,
        // A soft body's cluster frame is moved by its particles, not by the solver's contacts:
        // to a viewer it is kinematic.
        RigidBodyType::KinematicPositionBased
        | RigidBodyType::KinematicVelocityBased
        | RigidBodyType::SoftFrame => Motion::Kinematic,
    }
}

fn state(id: EngineId, body: &RigidBody) -> StateItem {
    StateItem {
        body: id,
        pose: pose(body.position()),
        linvel: Some(v3(body.linvel())),
        angvel: Some(v3(body.angvel())),
        sleeping: Some(body.is_sleeping()),
        ccd: Some(body.is_ccd_active()),
    }
}

/// `a` then `b`. An identity `b` (most shapes) returns `a` untouched: no arithmetic, so the
/// pose sent is rapier's, bit for bit.
fn then(a: &PoseItem, b: &PoseItem) -> PoseItem {
    if b.is_identity() {
        return *a;
    }
    let p = crate::capture::assemble::pose(a) * crate::capture::assemble::pose(b);
    let q = p.rotation.into_inner();
    PoseItem {
        translation: p.translation.vector.into(),
        rotation: [q.w, q.i, q.j, q.k],
    }
}
