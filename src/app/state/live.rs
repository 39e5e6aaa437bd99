//! Listening for an engine (`collidoscope --listen`): the listener's events turned into a
//! session that grows step by step, with the same history, scrubbing and save as a live
//! session of our own engine.
//!
//! One engine at a time. When the next one connects, the run shown stays until the new one
//! sends its first step, which replaces it: an engine that connects and sends nothing useful
//! (garbage, a lost connection) never wipes what the reader was looking at.

use super::captured::StreamLog;
use super::session::{Origin, Session};
use super::{AppState, Level};
use crate::capture::{LiveEvent, LiveListener, LiveOptions, LiveSink};
use crate::scene::Scene;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// UI time spent taking events per tick, at most: the rest waits for the next tick.
const BUDGET: Duration = Duration::from_millis(8);

pub struct Listening {
    _listener: LiveListener,
    rx: Receiver<LiveEvent>,
    pub addr: SocketAddr,
    /// The engine streaming now.
    pub peer: Option<SocketAddr>,
    /// The run of the engine streaming now (or last).
    pub run: u64,
    /// A run that has not sent its first step yet: its scene and what its stream said.
    pending: Option<(u64, Box<Scene>)>,
    pending_log: StreamLog,
    /// How the last engine went, for the status bar and the panel.
    pub last_drop: Option<String>,
    /// A run whose steps are no longer shown (something else was opened meanwhile), said once.
    unshown: Option<u64>,
}

impl Listening {
    pub fn start(
        listener: TcpListener,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let (tx, rx) = channel();
        let listener =
            LiveListener::start(listener, LiveOptions::default(), LiveSink { tx, wake })?;
        Ok(Self {
            addr: listener.local_addr(),
            _listener: listener,
            rx,
            peer: None,
            run: 0,
            pending: None,
            pending_log: StreamLog::default(),
            last_drop: None,
            unshown: None,
        })
    }
}

/// Lines skipped during one tick, said once at its end.
#[derive(Default)]
struct Skips {
    count: u64,
    first: Option<String>,
}

impl AppState {
    /// Starts accepting engines on a bound listener.
    pub fn listen(&mut self, listener: TcpListener) -> Result<(), String> {
        let waker = self.waker.clone();
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(move || waker());
        let listening =
            Listening::start(listener, wake).map_err(|e| format!("cannot listen: {e}"))?;
        self.info(format!(
            "listening on {}: waiting for an engine to connect",
            listening.addr
        ));
        self.listening = Some(listening);
        Ok(())
    }

    /// Takes what the listener sent since the last tick, within a time budget. True when
    /// anything arrived.
    pub(super) fn poll_live(&mut self) -> bool {
        let started = Instant::now();
        let mut skips = Skips::default();
        let mut changed = false;
        let mut more = false;
        while let Some(event) = self.listening.as_ref().and_then(|l| l.rx.try_recv().ok()) {
            changed = true;
            self.live_event(event, &mut skips);
            if started.elapsed() > BUDGET {
                more = true;
                break;
            }
        }
        self.say_skips(&mut skips);
        if more {
            // The rest on the next frame: the UI answers meanwhile.
            (self.waker)();
        }
        changed
    }

    /// The lines skipped since last said, in one message.
    fn say_skips(&mut self, skips: &mut Skips) {
        if let Some(first) = skips.first.take() {
            let s = if skips.count == 1 { "" } else { "s" };
            self.error(format!(
                "engine stream: {} line{s} skipped ({first})",
                skips.count
            ));
        }
        skips.count = 0;
    }

    fn live_event(&mut self, event: LiveEvent, skips: &mut Skips) {
        match event {
            LiveEvent::Connected { run, peer } => self.connected(run, peer),
            LiveEvent::Scene { run, scene } => self.live_scene(run, scene),
            LiveEvent::Step { run, frame } => self.live_step(run, *frame),
            LiveEvent::Skipped { run, error } => {
                skips.count += 1;
                skips.first.get_or_insert_with(|| error.to_string());
                if let Some(log) = self.live_log(run) {
                    log.skip(error);
                }
            }
            LiveEvent::Warning { run, error } => {
                if let Some(log) = self.live_log(run) {
                    log.warn(error);
                }
            }
            LiveEvent::Dropped {
                run,
                peer,
                why,
                steps,
                clean,
            } => {
                // Said before the drop, so that the drop is the last word.
                self.say_skips(skips);
                self.dropped(run, peer, &why, steps, clean);
            }
            LiveEvent::Refused { peer, why } => {
                self.error(format!("refused the engine at {peer}: {why}"));
            }
            LiveEvent::Failed(why) => self.error(format!("listening: {why}")),
        }
    }

    fn is_live_run(&self, run: u64) -> bool {
        self.session.as_ref().and_then(|s| s.live_run) == Some(run)
    }

    /// Where a run's stream notes go: its session's log, or the log kept for its first step.
    fn live_log(&mut self, run: u64) -> Option<&mut StreamLog> {
        if self.is_live_run(run) {
            return self.session.as_mut().and_then(|s| s.stream.as_mut());
        }
        let l = self.listening.as_mut()?;
        (l.run == run).then_some(&mut l.pending_log)
    }

    fn connected(&mut self, run: u64, peer: SocketAddr) {
        let Some(l) = self.listening.as_mut() else {
            return;
        };
        l.peer = Some(peer);
        l.run = run;
        l.pending = None;
        l.pending_log = StreamLog::default();
        l.pending_log
            .notes
            .push(format!("engine at {peer} connected"));
        let keep = if self.session.is_some() {
            ": the run shown stays until it sends its first step"
        } else {
            ""
        };
        self.info(format!("engine connected from {peer}{keep}"));
    }

    fn live_scene(&mut self, run: u64, scene: Box<Scene>) {
        if self.is_live_run(run) {
            if let Some(s) = self.session.as_mut() {
                s.set_scene(*scene);
            }
            // The bodies changed: views rebuild what they keep of the scene.
            self.session_generation += 1;
        } else if let Some(l) = self.listening.as_mut().filter(|l| l.run == run) {
            l.pending = Some((run, scene));
        }
    }

    fn live_step(&mut self, run: u64, frame: crate::record::Frame) {
        if !self.is_live_run(run) && !self.start_live_run(run) {
            return;
        }
        let following = self.playhead.frame + 1 >= self.frame_count();
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if let Err(e) = session.push_captured(frame) {
            self.error(format!("keeping a captured step: {e}"));
            return;
        }
        if following {
            let last = self.frame_count().saturating_sub(1);
            self.seek(last, None);
        }
    }

    /// The new run's first step: its session replaces the one shown.
    fn start_live_run(&mut self, run: u64) -> bool {
        let budget = self.load_options.budget_bytes;
        let Some(l) = self.listening.as_mut().filter(|l| l.run == run) else {
            return false;
        };
        let Some((_, scene)) = l.pending.take() else {
            // Its first step was shown, then something else was opened: the reader chose
            // that over this run, which is not brought back over it.
            if l.unshown.replace(run) != Some(run) {
                let peer = l.peer.map_or_else(|| "?".to_string(), |p| p.to_string());
                self.info(format!(
                    "the engine at {peer} streams on, not shown: the next engine to connect will be"
                ));
            }
            return false;
        };
        let Some(peer) = l.peer else {
            return false;
        };
        let origin = Origin::Listening { addr: l.addr, peer };
        let mut session = Session::captured(origin, *scene, budget);
        session.live_run = Some(run);
        session.stream = Some(std::mem::take(&mut l.pending_log));
        self.install(session);
        true
    }

    fn dropped(&mut self, run: u64, peer: SocketAddr, why: &str, steps: u64, clean: bool) {
        let gone = if clean { "left" } else { "dropped" };
        let note = format!("engine at {peer} {gone}: {why}; {steps} step(s) received and kept");
        if let Some(log) = self.live_log(run) {
            log.notes.push(note.clone());
        }
        if let Some(l) = self.listening.as_mut().filter(|l| l.run == run) {
            l.peer = None;
            l.last_drop = Some(note.clone());
        }
        self.push_message(if clean { Level::Info } else { Level::Error }, note);
    }
}
