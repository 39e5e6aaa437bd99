//! The live capture listener over a real loopback socket: a client that streams 1,000 steps
//! (every one arrives, in order), one that disconnects in the middle of a line (everything
//! before is kept, the cut is reported), one that sends garbage (reported and dropped, and a
//! good client after it is served), a second client while one streams (refused), bodies
//! declared mid-run (a new scene before the step that needs it), and `--listen` addresses.

use collidoscope::capture::{
    Capture, CapturedShape, ColliderItem, ContactItem, Header, LiveEvent, LiveListener,
    LiveOptions, LiveSink, Motion, PoseItem, StateItem, listen_address,
};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

fn listener(options: LiveOptions) -> (LiveListener, Receiver<LiveEvent>, SocketAddr) {
    let socket = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let (tx, rx) = channel();
    let l = LiveListener::start(
        socket,
        options,
        LiveSink {
            tx,
            wake: Arc::new(|| {}),
        },
    )
    .expect("listen");
    let addr = l.local_addr();
    (l, rx, addr)
}

/// Events up to and including the drop of run `run` (or a refusal, when `refused`).
fn until_dropped(rx: &Receiver<LiveEvent>, run: u64) -> Vec<LiveEvent> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut out = Vec::new();
    while Instant::now() < deadline {
        let Ok(e) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        let done = matches!(&e, LiveEvent::Dropped { run: r, .. } if *r == run);
        out.push(e);
        if done {
            return out;
        }
    }
    panic!("run {run} was not dropped within a minute: {out:?}");
}

fn pose(x: f64, y: f64) -> PoseItem {
    PoseItem {
        translation: [x, y, 0.0],
        rotation: [1.0, 0.0, 0.0, 0.0],
    }
}

fn collider(id: &str, body: u64, shape: &str) -> ColliderItem {
    ColliderItem {
        id: id.into(),
        body: body.into(),
        shape: shape.into(),
        pose: PoseItem::IDENTITY,
        sensor: false,
        name: None,
    }
}

/// A ball falling on a floor: `steps` steps, a contact once it lands.
fn stream_run(out: impl Write + Send + 'static, steps: u64) {
    let mut c = Capture::to_stream(std::io::BufWriter::new(out), Header::new("test-engine 1"))
        .expect("header");
    c.declare_shape(
        "floor",
        CapturedShape::Cuboid {
            half_extents: [5.0, 0.5, 5.0],
        },
    )
    .expect("shape");
    c.declare_shape("ball", CapturedShape::Sphere { radius: 0.5 })
        .expect("shape");
    c.declare_body(0u64, Some("floor"), Motion::Fixed)
        .expect("body");
    c.declare_body(1u64, Some("ball"), Motion::Dynamic)
        .expect("body");
    c.declare_collider(collider("c0", 0, "floor"))
        .expect("collider");
    c.declare_collider(collider("c1", 1, "ball"))
        .expect("collider");
    for f in 0..steps {
        c.begin_step(f, f as f64 / 60.0).expect("step");
        c.state(StateItem::at(0u64, pose(0.0, -0.5)))
            .expect("state");
        let y = (3.0 - f as f64 * 0.01).max(0.5);
        c.state(StateItem::at(1u64, pose(0.0, y))).expect("state");
        if y <= 0.5 {
            let mut contact =
                ContactItem::new("c0", "c1", [0.0, 0.0, 0.0], [0.0, 1.0, 0.0], -0.001);
            contact.normal_impulse = Some(0.1);
            c.contact(contact).expect("contact");
        }
        c.end_step(None).expect("end");
    }
    c.finish().expect("finish");
}

fn steps(events: &[LiveEvent]) -> Vec<(u64, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Step { run, frame } => Some((*run, frame.index)),
            _ => None,
        })
        .collect()
}

fn dropped(events: &[LiveEvent]) -> (String, u64, bool) {
    events
        .iter()
        .find_map(|e| match e {
            LiveEvent::Dropped {
                why, steps, clean, ..
            } => Some((why.clone(), *steps, *clean)),
            _ => None,
        })
        .expect("a drop")
}

fn skipped(events: &[LiveEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Skipped { error, .. } => Some(error.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_thousand_steps_arrive_in_order() {
    let (_l, rx, addr) = listener(LiveOptions::default());
    let client = std::thread::spawn(move || {
        stream_run(TcpStream::connect(addr).expect("connect"), 1000);
    });
    let events = until_dropped(&rx, 1);
    client.join().expect("client");
    assert!(matches!(events[0], LiveEvent::Connected { run: 1, .. }));
    assert!(
        matches!(&events[1], LiveEvent::Scene { run: 1, scene } if scene.bodies.len() == 2),
        "the scene comes before the first step"
    );
    let got = steps(&events);
    let want: Vec<(u64, u64)> = (0..1000).map(|i| (1, i)).collect();
    assert_eq!(got, want, "every step, in order");
    assert!(skipped(&events).is_empty(), "{:?}", skipped(&events));
    let (why, n, clean) = dropped(&events);
    assert_eq!(n, 1000);
    assert!(clean, "{why}");
    // The steps are the engine's: contacts from the landing on, with their impulses.
    let with_contacts = events
        .iter()
        .filter(|e| matches!(e, LiveEvent::Step { frame, .. } if !frame.contacts.is_empty()))
        .count();
    assert_eq!(with_contacts, 1000 - 250);
}

#[test]
fn a_client_cut_mid_line_keeps_every_step_before_and_says_so() {
    let (_l, rx, addr) = listener(LiveOptions::default());
    let mut head = Vec::new();
    {
        let shared = SharedBuf(Arc::new(std::sync::Mutex::new(Vec::new())));
        stream_run(shared.clone(), 5);
        head.extend_from_slice(&shared.0.lock().expect("buf"));
    }
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(&head).expect("write");
    s.write_all(b"{\"kind\":\"frame\",\"frame\":5}\n{\"kind\":\"state\",\"bo")
        .expect("write");
    drop(s);
    let events = until_dropped(&rx, 1);
    assert_eq!(steps(&events), (0..5).map(|i| (1, i)).collect::<Vec<_>>());
    let skips = skipped(&events);
    assert_eq!(skips.len(), 1, "{skips:?}");
    assert!(skips[0].contains("middle of this line"), "{skips:?}");
    let (why, n, clean) = dropped(&events);
    assert_eq!(n, 5);
    assert!(!clean);
    assert!(why.contains("middle of a line"), "{why}");
    assert!(
        why.contains("frame 5"),
        "the unfinished step is named: {why}"
    );
}

#[test]
fn garbage_is_dropped_and_the_next_client_is_served() {
    let (_l, rx, addr) = listener(LiveOptions::default());
    let mut s = TcpStream::connect(addr).expect("connect");
    // A web browser pointed at the port, say.
    let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let events = until_dropped(&rx, 1);
    let (why, n, _) = dropped(&events);
    assert_eq!(n, 0);
    assert!(why.contains("not a capture-stream header"), "{why}");
    assert_eq!(skipped(&events).len(), 1, "the bad line is reported");
    drop(s);

    let client = std::thread::spawn(move || {
        stream_run(TcpStream::connect(addr).expect("connect"), 20);
    });
    let events = until_dropped(&rx, 2);
    client.join().expect("client");
    assert_eq!(steps(&events).len(), 20);
    assert!(dropped(&events).2, "a clean end");
}

#[test]
fn a_header_then_only_bad_lines_is_dropped_keeping_its_steps() {
    let options = LiveOptions {
        max_bad_in_row: 5,
        ..LiveOptions::default()
    };
    let (_l, rx, addr) = listener(options);
    let shared = SharedBuf(Arc::new(std::sync::Mutex::new(Vec::new())));
    stream_run(shared.clone(), 3);
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(&shared.0.lock().expect("buf")).expect("write");
    for _ in 0..50 {
        // The peer may close first: later writes then fail, which is the point.
        if s.write_all(b"{\"kind\":\"state\",\"body\":[1,2]}\n")
            .is_err()
        {
            break;
        }
    }
    let events = until_dropped(&rx, 1);
    let (why, n, clean) = dropped(&events);
    assert_eq!(n, 3, "the steps before are kept");
    assert!(!clean);
    assert!(why.contains("bad lines in a row"), "{why}");
    assert_eq!(skipped(&events).len(), 6);
}

#[test]
fn a_second_engine_is_refused_while_one_streams() {
    let (_l, rx, addr) = listener(LiveOptions::default());
    let mut first = TcpStream::connect(addr).expect("connect");
    first
        .write_all(b"{\"kind\":\"header\",\"format\":\"collidoscope-capture\",\"version\":1,\"engine\":\"a\"}\n")
        .expect("write");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !matches!(
        rx.recv_timeout(Duration::from_secs(1)),
        Ok(LiveEvent::Connected { .. })
    ) {
        assert!(Instant::now() < deadline, "the first client connects");
    }
    let _second = TcpStream::connect(addr).expect("connect");
    let refused = loop {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(LiveEvent::Refused { why, .. }) => break why,
            Ok(_) => {}
            Err(_) => assert!(Instant::now() < deadline, "the second is refused"),
        }
    };
    assert!(refused.contains("one engine at a time"), "{refused}");
    drop(first);
    let events = until_dropped(&rx, 1);
    assert!(dropped(&events).2);
}

#[test]
fn a_body_declared_mid_run_sends_the_grown_scene_first() {
    let (_l, rx, addr) = listener(LiveOptions::default());
    let client = std::thread::spawn(move || {
        let out = std::io::BufWriter::new(TcpStream::connect(addr).expect("connect"));
        let mut c = Capture::to_stream(out, Header::new("spawner")).expect("header");
        c.declare_shape("s", CapturedShape::Sphere { radius: 0.1 })
            .expect("shape");
        for f in 0..4u64 {
            c.declare_body(f, None, Motion::Dynamic).expect("body");
            c.declare_collider(collider(&format!("c{f}"), f, "s"))
                .expect("collider");
            c.begin_step(f, 0.0).expect("step");
            for b in 0..=f {
                c.state(StateItem::at(b, pose(b as f64, 1.0)))
                    .expect("state");
            }
            c.end_step(None).expect("end");
        }
        c.finish().expect("finish");
    });
    let events = until_dropped(&rx, 1);
    client.join().expect("client");
    let mut bodies = 0;
    for e in &events {
        match e {
            LiveEvent::Scene { scene, .. } => bodies = scene.bodies.len(),
            LiveEvent::Step { frame, .. } => {
                assert_eq!(frame.bodies.len(), bodies, "step {}", frame.index);
                assert_eq!(bodies as u64, frame.index + 1);
            }
            _ => {}
        }
    }
    assert_eq!(bodies, 4);
}

#[test]
fn listen_addresses_default_to_loopback_and_bad_ones_are_named() {
    let ok = |t: &str| listen_address(t).expect(t).to_string();
    assert_eq!(ok("7777"), "127.0.0.1:7777");
    assert_eq!(ok("localhost:80"), "127.0.0.1:80");
    assert_eq!(ok("0.0.0.0:9000"), "0.0.0.0:9000");
    assert_eq!(ok("[::1]:9000"), "[::1]:9000");
    for bad in ["", "abc", "127.0.0.1", "127.0.0.1:99999", "localhost:x"] {
        let e = listen_address(bad).expect_err(bad);
        assert!(e.contains("--listen") && e.contains("IP:PORT"), "{e}");
    }
}

/// A writer into shared bytes, to build a stream before sending it.
#[derive(Clone)]
struct SharedBuf(Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
