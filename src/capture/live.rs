//! A capture stream received live over TCP: one engine at a time connects, streams its run
//! line by line, and each step is handed on as soon as it ends.
//!
//! The listener runs on threads of its own and never touches the viewer: what it finds is
//! sent as [`LiveEvent`]s over a channel, with a wake-up call after each, so the receiving
//! side polls without ever blocking on the socket. A client that does not speak the stream
//! (its first line is not a header, or too many bad lines in a row) or that disconnects in
//! the middle of a line is reported and dropped; every step it ended before that was sent
//! already and stays with the receiver.

use super::ingest::{LineError, LineFeeder};
use super::item::Item;
use super::lines::{LineRead, MAX_LINE_BYTES, read_line};
use super::recording::PushError;
use super::{Assembler, FieldError};
use crate::frame::Frame;
use crate::scene::Scene;
use std::io::{BufReader, Read};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the threads look at the stop flag while waiting on the socket.
const POLL: Duration = Duration::from_millis(50);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveOptions {
    /// Bad lines in a row after which a client is taken for something that does not speak
    /// the stream and dropped.
    pub max_bad_in_row: usize,
    /// The longest line read (see [`MAX_LINE_BYTES`]).
    pub max_line_bytes: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        Self {
            max_bad_in_row: 32,
            max_line_bytes: MAX_LINE_BYTES,
        }
    }
}

/// What the listener tells the receiver. `run` counts the clients accepted, from 1: each
/// client's stream is a run of its own.
#[derive(Debug)]
pub enum LiveEvent {
    Connected {
        run: u64,
        peer: SocketAddr,
    },
    /// The scene as declared so far; sent before the first step and again before any step
    /// after a declaration changed it. Body ids only grow, so earlier steps stay valid.
    Scene {
        run: u64,
        scene: Box<Scene>,
    },
    Step {
        run: u64,
        frame: Box<Frame>,
    },
    /// A line skipped, with its line number, field and cause.
    Skipped {
        run: u64,
        error: LineError,
    },
    /// Not an error, but worth a word (a step begun before the one before it ended).
    Warning {
        run: u64,
        error: LineError,
    },
    /// The client is gone: it disconnected or was dropped. `steps` were sent before;
    /// `clean` when it closed the connection between lines and outside a step.
    Dropped {
        run: u64,
        peer: SocketAddr,
        why: String,
        steps: u64,
        clean: bool,
    },
    /// A second engine tried to connect while one was streaming.
    Refused {
        peer: SocketAddr,
        why: String,
    },
    /// The listener itself could not go on (accepting failed).
    Failed(String),
}

/// Where the events go: a channel, and a call that wakes the receiver after each send.
#[derive(Clone)]
pub struct LiveSink {
    pub tx: Sender<LiveEvent>,
    pub wake: Arc<dyn Fn() + Send + Sync>,
}

impl LiveSink {
    /// False when the receiver is gone (the listener then stops).
    fn send(&self, event: LiveEvent) -> bool {
        let sent = self.tx.send(event).is_ok();
        (self.wake)();
        sent
    }
}

/// A listening socket serving one client at a time. Dropping it stops the threads.
pub struct LiveListener {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl LiveListener {
    /// Starts serving on a bound listener.
    pub fn start(
        listener: TcpListener,
        options: LiveOptions,
        sink: LiveSink,
    ) -> std::io::Result<Self> {
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let accept = std::thread::Builder::new()
            .name("capture listener".into())
            .spawn(move || accept_loop(&listener, options, &sink, &flag))?;
        Ok(Self {
            addr,
            stop,
            accept: Some(accept),
        })
    }

    /// The address listened on (with the port the OS chose, when asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting and drops the client; returns once the accepting thread is done.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

impl Drop for LiveListener {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(
    listener: &TcpListener,
    options: LiveOptions,
    sink: &LiveSink,
    stop: &Arc<AtomicBool>,
) {
    let busy = Arc::new(AtomicBool::new(false));
    let mut run = 0;
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => {
                if busy.load(Ordering::SeqCst) {
                    drop(stream);
                    let why = "another engine is streaming: one engine at a time".to_string();
                    if !sink.send(LiveEvent::Refused { peer, why }) {
                        return;
                    }
                    continue;
                }
                run += 1;
                busy.store(true, Ordering::SeqCst);
                let client = Client {
                    run,
                    peer,
                    options,
                    sink: sink.clone(),
                    stop: stop.clone(),
                };
                let done = busy.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("capture client {peer}"))
                    .spawn(move || {
                        client.serve(stream);
                        done.store(false, Ordering::SeqCst);
                    });
                if let Err(e) = spawned {
                    busy.store(false, Ordering::SeqCst);
                    let why = format!("cannot start a thread for it: {e}");
                    if !sink.send(LiveEvent::Refused { peer, why }) {
                        return;
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                // Out of descriptors and the like: say so once a while, and keep listening.
                if !sink.send(LiveEvent::Failed(format!("accepting a connection: {e}"))) {
                    return;
                }
                std::thread::sleep(POLL * 20);
            }
        }
    }
}

/// The socket read with a timeout, retried until data comes or the listener stops, so the
/// line reader above it never sees a timeout (which would lose a partly read line).
struct StopRead<'a> {
    stream: &'a TcpStream,
    stop: &'a AtomicBool,
}

impl Read for StopRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match (&*self.stream).read(buf) {
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if self.stop.load(Ordering::SeqCst) {
                        return Err(std::io::Error::other("the viewer stopped listening"));
                    }
                }
                other => return other,
            }
        }
    }
}

/// One accepted client, served on its own thread.
struct Client {
    run: u64,
    peer: SocketAddr,
    options: LiveOptions,
    sink: LiveSink,
    stop: Arc<AtomicBool>,
}

/// How reading one client went on, line after line.
struct Reading {
    assembler: Assembler,
    feeder: LineFeeder,
    /// The scene generation last sent (0: none yet).
    sent_generation: u64,
    saw_header: bool,
    bad_in_row: usize,
    steps: u64,
    warnings_sent: usize,
}

impl Client {
    fn serve(self, stream: TcpStream) {
        let ended = self.read_all(&stream);
        let _ = stream.shutdown(std::net::Shutdown::Both);
        if let Some(end) = ended {
            self.sink.send(LiveEvent::Dropped {
                run: self.run,
                peer: self.peer,
                why: end.why,
                steps: end.steps,
                clean: end.clean,
            });
        }
    }

    /// Reads lines until the client goes or is dropped: how it ended (`None` when the
    /// receiver is gone and there is no one to tell).
    fn read_all(&self, stream: &TcpStream) -> Option<End> {
        let setup = stream
            .set_nonblocking(false)
            .and_then(|()| stream.set_read_timeout(Some(POLL)));
        if let Err(e) = setup {
            return Some(End::dropped(format!("cannot read from it: {e}"), 0));
        }
        if !self.sink.send(LiveEvent::Connected {
            run: self.run,
            peer: self.peer,
        }) {
            return None;
        }
        let mut input = BufReader::with_capacity(
            1 << 16,
            StopRead {
                stream,
                stop: &self.stop,
            },
        );
        let mut r = Reading {
            assembler: Assembler::new(),
            feeder: LineFeeder::new(),
            sent_generation: 0,
            saw_header: false,
            bad_in_row: 0,
            steps: 0,
            warnings_sent: 0,
        };
        let mut buf = Vec::new();
        loop {
            let read = match read_line(&mut input, &mut buf, self.options.max_line_bytes) {
                Ok(read) => read,
                Err(e) => return Some(End::dropped(format!("connection lost: {e}"), r.steps)),
            };
            let outcome = match read {
                LineRead::End => return Some(ended(&r)),
                LineRead::TooLong { bytes, ended } => {
                    r.feeder.too_long(bytes, ended);
                    self.after_line(&mut r, false, Vec::new())
                }
                LineRead::Line { ended } => self.line(&mut r, &buf, ended),
            };
            match outcome {
                Next::Go => {}
                Next::Drop(why) => return Some(End::dropped(why, r.steps)),
                Next::ReceiverGone => return None,
            }
        }
    }

    /// One line through the feeder; steps it ends are sent.
    fn line(&self, r: &mut Reading, bytes: &[u8], ended: bool) -> Next {
        let skipped_before = r.feeder.report.skipped.len();
        let unknown_before: u64 = r.feeder.report.unknown.values().map(|(n, _)| n).sum();
        let mut frames = Vec::new();
        let mut pushed = false;
        let gated = !r.saw_header;
        let assembler = &mut r.assembler;
        let mut header_ok = false;
        let mut push = |item: Item| {
            pushed = true;
            if gated && !matches!(item, Item::Header(_)) {
                return Err(PushError::Item(FieldError::new(
                    "kind",
                    format!("a {} line where the header must come first", item.kind()),
                )));
            }
            let is_header = matches!(item, Item::Header(_));
            let frame = assembler.push(item).map_err(PushError::Item)?;
            header_ok |= is_header;
            frames.extend(frame);
            Ok(assembler.take_warnings())
        };
        // Only a failed write to a recording is an error here, and there is none.
        let _ = r.feeder.feed(bytes, ended, &mut push);
        let unknown_after: u64 = r.feeder.report.unknown.values().map(|(n, _)| n).sum();
        let nothing = !pushed
            && r.feeder.report.skipped.len() == skipped_before
            && unknown_after == unknown_before;
        r.saw_header |= header_ok;
        if gated && !nothing && !r.saw_header {
            let said = r
                .feeder
                .report
                .skipped
                .last()
                .filter(|_| r.feeder.report.skipped.len() > skipped_before)
                .map_or_else(|| "an unknown kind".to_string(), ToString::to_string);
            self.send_news(r);
            return Next::Drop(format!(
                "its first line is not a capture-stream header ({said}): not a capture stream"
            ));
        }
        self.after_line(r, nothing, frames)
    }

    /// Sends what a line produced: new errors and warnings, the scene if it changed, steps.
    fn after_line(&self, r: &mut Reading, blank: bool, frames: Vec<Frame>) -> Next {
        let skipped = self.send_news(r);
        if skipped.is_none() {
            return Next::ReceiverGone;
        }
        if skipped.is_some_and(|n| n > 0) {
            r.bad_in_row += 1;
        } else if !blank {
            r.bad_in_row = 0;
        }
        for frame in frames {
            if r.assembler.generation() != r.sent_generation {
                r.sent_generation = r.assembler.generation();
                let scene = Box::new(r.assembler.scene());
                if !self.sink.send(LiveEvent::Scene {
                    run: self.run,
                    scene,
                }) {
                    return Next::ReceiverGone;
                }
            }
            r.steps += 1;
            if !self.sink.send(LiveEvent::Step {
                run: self.run,
                frame: Box::new(frame),
            }) {
                return Next::ReceiverGone;
            }
        }
        if r.bad_in_row > self.options.max_bad_in_row {
            return Next::Drop(format!(
                "{} bad lines in a row: not a capture stream",
                r.bad_in_row
            ));
        }
        Next::Go
    }

    /// Sends the errors and warnings not sent yet; how many errors, `None` when the
    /// receiver is gone.
    fn send_news(&self, r: &mut Reading) -> Option<usize> {
        let report = &mut r.feeder.report;
        let errors: Vec<LineError> = std::mem::take(&mut report.skipped);
        let n = errors.len();
        for error in errors {
            if !self.sink.send(LiveEvent::Skipped {
                run: self.run,
                error,
            }) {
                return None;
            }
        }
        for error in report.warnings.iter().skip(r.warnings_sent).cloned() {
            r.warnings_sent += 1;
            if !self.sink.send(LiveEvent::Warning {
                run: self.run,
                error,
            }) {
                return None;
            }
        }
        Some(n)
    }
}

enum Next {
    Go,
    Drop(String),
    ReceiverGone,
}

/// How a client's connection ended.
struct End {
    why: String,
    steps: u64,
    clean: bool,
}

impl End {
    fn dropped(why: String, steps: u64) -> Self {
        Self {
            why,
            steps,
            clean: false,
        }
    }
}

/// A client whose stream ended: cleanly, or in the middle of a line or a step.
fn ended(r: &Reading) -> End {
    let cut = r.feeder.report.cut_mid_line;
    let during = r.assembler.open_frame();
    let mut why = "the engine disconnected".to_string();
    if cut {
        why.push_str(" in the middle of a line");
    }
    if let Some(f) = during {
        why.push_str(&format!(", during its frame {f} (that step is lost)"));
    }
    End {
        why,
        steps: r.steps,
        clean: !cut && during.is_none(),
    }
}

/// The address `--listen` names: `PORT` alone (on the loopback address), `IP:PORT`,
/// `[IPv6]:PORT` or `localhost:PORT`.
pub fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    let bad = |why: &str| {
        Err(format!(
            "--listen {text:?}: {why}; write PORT, IP:PORT or [IPv6]:PORT (e.g. 127.0.0.1:7777)"
        ))
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return match port.parse::<u16>() {
            Ok(port) => Ok(SocketAddr::from(([127, 0, 0, 1], port))),
            Err(_) => bad("the port is not a number from 0 to 65535"),
        };
    }
    match text.parse::<SocketAddr>() {
        Ok(addr) => Ok(addr),
        Err(_) if text.is_empty() => bad("no address"),
        Err(_) => bad("not an address and port"),
    }
}
