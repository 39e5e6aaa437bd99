//! The `.cdrec` format and the history: round trips, damaged files, spilling and forking.
//!
//! Heavy property suites scale with `COLLIDOSCOPE_TEST_SCALE` (default 1).

use collidoscope::frame::FamilyStageTimes;
use collidoscope::geom::{Aabb, Obb, Point3, Quat, Segment, Sphere, Vec3};
use collidoscope::record::{
    BodyState, CHUNK_HEADER_LEN, Contact, Counters, FORMAT_VERSION, Frame, History, LossCause,
    MAGIC, Marker, MarkerKind, PREAMBLE_LEN, RecordError, RecordErrorCause, RecordingMeta,
    RecordingReader, RecordingWriter, StageTimings, WriterOptions,
};
use collidoscope::trace::{EventKind, Stage, TraceEvent, Verdict, Volume};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s >= 1)
        .unwrap_or(1)
}

fn cases(base: u32) -> ProptestConfig {
    ProptestConfig {
        cases: base * scale(),
        ..ProptestConfig::default()
    }
}

// --- frames ---------------------------------------------------------------------------------

fn p(x: f64, y: f64, z: f64) -> Point3 {
    Point3::new(x, y, z)
}

fn body(id: u32, t: f64) -> BodyState {
    BodyState {
        id,
        position: p(id as f64, t, -t * 0.5),
        rotation: Quat::from_euler_angles(t * 0.1, id as f64 * 0.2, 0.3),
        linear_velocity: Vec3::new(0.0, -9.81 * t, 0.0),
        angular_velocity: Vec3::new(0.1, 0.0, -0.2 * id as f64),
    }
}

/// A deterministic frame with some of everything; bodies at rest keep their state, so deltas
/// are exercised.
fn sample_frame(i: u64, bodies: u32, with_trace: bool) -> Frame {
    let t = i as f64 / 60.0;
    let states = (0..bodies)
        .map(|id| {
            if id % 3 == 0 {
                body(id, 0.0)
            } else {
                body(id, t)
            }
        })
        .collect::<Vec<_>>();
    let contacts = (0..(i % 4) as u32)
        .map(|k| Contact {
            a: k,
            b: k + 1,
            point: p(k as f64, 0.5, t),
            normal: Vec3::y(),
            depth: 0.001 * (k + 1) as f64,
        })
        .collect::<Vec<_>>();
    let aabb = Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0 + t, 1.0));
    let trace = if with_trace {
        vec![
            TraceEvent::staged(
                Stage::BroadPhase,
                Verdict::Hit,
                EventKind::Broad(collidoscope::broad::BroadEvent::BroadPair {
                    a: 0,
                    b: 1,
                    box_a: aabb,
                    box_b: aabb,
                }),
            ),
            TraceEvent::staged(
                Stage::NarrowPhase,
                Verdict::Miss,
                EventKind::Pipeline(collidoscope::world::PipelineEvent::ShapeTest {
                    a: 0,
                    b: 1,
                    test: "sphere-box".into(),
                    contacts: 0,
                    max_depth: 0.25 - t,
                }),
            ),
            TraceEvent::new(
                Verdict::Miss,
                EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair {
                    a: 1,
                    b: 2,
                    node_a: 3,
                    node_b: 7,
                    separating_axis: Some(4),
                }),
            ),
            TraceEvent::new(
                Verdict::Info,
                EventKind::Pipeline(collidoscope::world::PipelineEvent::Note {
                    text: "(v1) body 2 slide iteration 1: fraction 0.500, plane n = (0.000, 1.000, 0.000)".into(),
                    points: vec![p(0.0, 1.0, 0.0), p(0.0, 0.5, 0.0)],
                }),
            ),
        ]
    } else {
        vec![]
    };
    let markers = if i % 5 == 2 {
        vec![Marker {
            kind: MarkerKind::FirstContact,
            text: format!("first contact in frame {i}"),
            bodies: vec![0, 1],
        }]
    } else {
        vec![]
    };
    Frame {
        index: i,
        time_s: t,
        families: vec![],
        counters: Counters {
            bodies,
            broad_pairs: 3,
            narrow_tests: 2,
            contacts: contacts.len() as u32,
            max_penetration_m: contacts.iter().map(|c| c.depth).fold(0.0, f64::max),
            kinetic_energy_j: 12.5 - t,
            trace_events: trace.len() as u32,
            trace_dropped: 0,
        },
        timings: StageTimings {
            integrate_s: 1e-5,
            broad_s: 2e-5,
            narrow_s: 3e-5 * (i % 3) as f64,
            response_s: 4e-6,
            families: Vec::new(),
        },
        bodies: states,
        contacts,
        trace,
        markers,
    }
}

fn meta(bodies: usize) -> RecordingMeta {
    RecordingMeta {
        scene_ron: "(name: \"test\", bodies: [])".into(),
        body_names: (0..bodies).map(|i| format!("body {i}")).collect(),
        dt_s: 1.0 / 60.0,
    }
}

fn options(k: u32) -> WriterOptions {
    WriterOptions {
        keyframe_interval: k,
        created_unix_ms: Some(1_700_000_000_000),
        reproducible: false,
    }
}

// Proptest strategies: finite floats (a NaN is not equal to itself, so frames with NaN are
// compared bytewise in their own test).
fn real() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e3..1e3f64,
        Just(0.0),
        Just(-0.0),
        Just(f64::MIN_POSITIVE),
        Just(1e300),
    ]
}

fn point() -> impl Strategy<Value = Point3> {
    (real(), real(), real()).prop_map(|(x, y, z)| p(x, y, z))
}

fn vector() -> impl Strategy<Value = Vec3> {
    (real(), real(), real()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn body_state(id: u32) -> impl Strategy<Value = BodyState> {
    (point(), -3.0..3.0f64, -3.0..3.0f64, vector(), vector()).prop_map(
        move |(position, a, b, linear_velocity, angular_velocity)| BodyState {
            id,
            position,
            rotation: Quat::from_euler_angles(a, b, a - b),
            linear_velocity,
            angular_velocity,
        },
    )
}

fn contact() -> impl Strategy<Value = Contact> {
    (0..50u32, 0..50u32, point(), vector(), real()).prop_map(|(a, b, point, normal, depth)| {
        Contact {
            a,
            b,
            point,
            normal,
            depth,
        }
    })
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (point(), point()).prop_map(|(a, b)| Aabb::new(a, b))
}

fn volume() -> impl Strategy<Value = Volume> {
    prop_oneof![
        aabb().prop_map(Volume::Aabb),
        (point(), real()).prop_map(|(c, r)| Volume::Sphere(Sphere::new(c, r))),
        (point(), vector()).prop_map(|(center, half_extents)| Volume::Obb(Obb {
            center,
            axes: collidoscope::geom::Mat3::identity(),
            half_extents,
        })),
        (
            prop::collection::vec(vector(), 0..4),
            prop::collection::vec(real(), 0..4),
            prop::collection::vec(real(), 0..4)
        )
            .prop_map(|(axes, min, max)| Volume::Kdop { axes, min, max }),
    ]
}

fn event_kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        (0..9u32, point(), point()).prop_map(|(body, from, to)| EventKind::Pipeline(
            collidoscope::world::PipelineEvent::Integrated { body, from, to }
        )),
        (0..9u32, 0..9u32, aabb(), aabb()).prop_map(|(a, b, box_a, box_b)| {
            EventKind::Broad(collidoscope::broad::BroadEvent::BroadPair { a, b, box_a, box_b })
        }),
        (aabb(), any::<u8>(), prop::collection::vec(0..99u32, 0..5)).prop_map(
            |(bounds, depth, bodies)| EventKind::Broad(
                collidoscope::broad::BroadEvent::SpatialCell {
                    bounds,
                    depth,
                    bodies
                }
            )
        ),
        (0..9u32, 0..9u32, ".{0,12}", any::<u32>(), real()).prop_map(
            |(a, b, test, contacts, max_depth)| EventKind::Pipeline(
                collidoscope::world::PipelineEvent::ShapeTest {
                    a,
                    b,
                    test,
                    contacts,
                    max_depth,
                }
            )
        ),
        (0..9u32, any::<u32>(), prop::option::of(0..15u8)).prop_map(
            |(a, node_a, separating_axis)| {
                EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair {
                    a,
                    b: a + 1,
                    node_a,
                    node_b: node_a / 2,
                    separating_axis,
                })
            }
        ),
        (
            any::<u32>(),
            any::<u32>(),
            prop::option::of((point(), point()))
        )
            .prop_map(|(tri_a, tri_b, seg)| EventKind::Bvh(
                collidoscope::bvh::BvhEvent::TrianglePair {
                    a: 1,
                    b: 2,
                    tri_a,
                    tri_b,
                    segment: seg.map(|(s, t)| Segment::new(s, t)),
                }
            )),
        (0..9u32, any::<u32>(), volume()).prop_map(|(body, node, volume)| EventKind::Bvh(
            collidoscope::bvh::BvhEvent::Refit { body, node, volume }
        )),
        (0..9u32, point(), point(), point(), point()).prop_map(|(a, pa, qa, pb, qb)| {
            let pose = |p: Point3, q: Point3| {
                collidoscope::geom::Pose::from_parts(
                    p.coords.into(),
                    collidoscope::geom::Quat::from_euler_angles(q.x, q.y, q.z),
                )
            };
            let poses =
                collidoscope::bvh::BvhEvent::traversal(a, &pose(pa, qa), a + 1, &pose(pb, qb));
            EventKind::Bvh(poses)
        }),
        (0..9u32, any::<u32>()).prop_map(|(a, i)| EventKind::Pipeline(
            collidoscope::world::PipelineEvent::Contact {
                a,
                b: a + 1,
                point: collidoscope::world::ContactPoint::InFrame(i),
            }
        )),
        (0..9u32, point(), vector(), real()).prop_map(|(a, point, normal, depth)| {
            EventKind::Pipeline(collidoscope::world::PipelineEvent::Contact {
                a,
                b: a + 1,
                point: collidoscope::world::ContactPoint::Inline {
                    point,
                    normal,
                    depth,
                },
            })
        }),
        (0..9u32, any::<u32>(), real(), vector()).prop_map(
            |(a, contact, normal_impulse, friction_impulse)| EventKind::Pipeline(
                collidoscope::world::PipelineEvent::Impulse {
                    a,
                    b: a + 1,
                    contact,
                    normal_impulse,
                    friction_impulse,
                }
            )
        ),
        (".{0,20}", prop::collection::vec(point(), 0..3)).prop_map(|(text, points)| {
            EventKind::Pipeline(collidoscope::world::PipelineEvent::Note { text, points })
        }),
    ]
}

fn trace_event() -> impl Strategy<Value = TraceEvent> {
    (
        prop::sample::select(Stage::ALL.to_vec()),
        prop::sample::select(vec![
            Verdict::Hit,
            Verdict::Miss,
            Verdict::Info,
            Verdict::Warning,
        ]),
        event_kind(),
    )
        .prop_map(|(stage, verdict, kind)| TraceEvent::staged(stage, verdict, kind))
}

fn marker() -> impl Strategy<Value = Marker> {
    (
        prop_oneof![
            Just(MarkerKind::FirstContact),
            Just(MarkerKind::DeepPenetration),
            Just(MarkerKind::Divergence),
            "[a-z]{0,8}".prop_map(MarkerKind::Other),
        ],
        ".{0,16}",
        prop::collection::vec(0..9u32, 0..3),
    )
        .prop_map(|(kind, text, bodies)| Marker { kind, text, bodies })
}

/// What changes from one frame to the next: new states for some slots, and the body count.
#[derive(Clone, Debug)]
struct Step {
    changes: Vec<Option<BodyState>>,
    body_count: usize,
    contacts: Vec<Contact>,
    trace: Vec<TraceEvent>,
    markers: Vec<Marker>,
    time_s: f64,
    counter: u32,
}

fn step() -> impl Strategy<Value = Step> {
    (
        prop::collection::vec(prop::option::weighted(0.3, body_state(0)), 0..8),
        0..8usize,
        prop::collection::vec(contact(), 0..3),
        prop::collection::vec(trace_event(), 0..4),
        prop::collection::vec(marker(), 0..2),
        real(),
        any::<u32>(),
    )
        .prop_map(
            |(changes, body_count, contacts, trace, markers, time_s, counter)| Step {
                changes,
                body_count,
                contacts,
                trace,
                markers,
                time_s,
                counter,
            },
        )
}

/// Builds frames whose bodies evolve partly (as a simulation's do), so that deltas carry
/// some states and not others, and the body count grows and shrinks.
fn frames_from_steps(steps: &[Step]) -> Vec<Frame> {
    let mut bodies: Vec<BodyState> = Vec::new();
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            bodies.truncate(s.body_count);
            while bodies.len() < s.body_count {
                let id = bodies.len() as u32;
                bodies.push(body(id, i as f64));
            }
            for (slot, change) in s.changes.iter().enumerate() {
                if let (Some(b), Some(new)) = (bodies.get_mut(slot), change) {
                    *b = BodyState {
                        id: slot as u32,
                        ..new.clone()
                    };
                }
            }
            Frame {
                index: i as u64,
                time_s: s.time_s,
                families: vec![],
                bodies: bodies.clone(),
                contacts: s.contacts.clone(),
                timings: StageTimings {
                    integrate_s: s.time_s,
                    ..StageTimings::default()
                },
                counters: Counters {
                    narrow_tests: s.counter,
                    trace_dropped: s.counter as u64 * 3,
                    ..Counters::default()
                },
                trace: s.trace.clone(),
                markers: s.markers.clone(),
            }
        })
        .collect()
}

fn write_recording(path: &Path, frames: &[Frame], k: u32) -> RecordingWriter {
    let mut w = RecordingWriter::create(path, meta(8), options(k)).unwrap();
    for f in frames {
        w.write_frame(f).unwrap();
    }
    w
}

// --- round trips ----------------------------------------------------------------------------

proptest! {
    #![proptest_config(cases(24))]

    #[test]
    fn every_frame_reads_back_equal_in_any_order(
        steps in prop::collection::vec(step(), 1..40),
        k in 1..10u32,
        order_seed in any::<u64>(),
    ) {
        let frames = frames_from_steps(&steps);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.cdrec");
        let summary = write_recording(&path, &frames, k).finish().unwrap();
        prop_assert_eq!(summary.frames, frames.len());
        let reader = RecordingReader::open(&path).unwrap();
        prop_assert!(reader.recovery().is_none());
        prop_assert_eq!(reader.len(), frames.len());
        for (i, f) in frames.iter().enumerate() {
            prop_assert_eq!(&*reader.frame(i).unwrap(), f, "sequential read of frame {}", i);
        }
        // A fresh reader, so no cache helps: a pseudo-random permutation of the positions.
        let reader = RecordingReader::open(&path).unwrap();
        let mut order: Vec<usize> = (0..frames.len()).collect();
        let mut x = order_seed | 1;
        for i in (1..order.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            order.swap(i, (x % (i as u64 + 1)) as usize);
        }
        for &i in &order {
            prop_assert_eq!(&*reader.frame(i).unwrap(), &frames[i], "random read of frame {}", i);
        }
        prop_assert!(reader.verify().is_ok());
        prop_assert!(reader.frame(frames.len()).is_err());
    }
}

#[test]
fn special_floats_survive_bit_for_bit() {
    let mut frame = sample_frame(3, 4, true);
    frame.bodies[1].position = p(f64::NAN, -0.0, f64::INFINITY);
    frame.bodies[2].linear_velocity = Vec3::new(f64::NEG_INFINITY, f64::MIN_POSITIVE / 2.0, 0.0);
    frame.contacts.push(Contact {
        a: 0,
        b: 1,
        point: p(f64::NAN, 0.0, 0.0),
        normal: Vec3::zeros(),
        depth: -0.0,
    });
    let mut next = frame.clone();
    next.index = 4;
    next.bodies[1].position = p(f64::NAN, 0.0, f64::INFINITY); // -0.0 became 0.0: a change
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nan.cdrec");
    write_recording(&path, &[frame.clone(), next.clone()], 64)
        .finish()
        .unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let bytes = |f: &Frame| postcard::to_allocvec(f).unwrap();
    assert_eq!(bytes(&reader.frame(0).unwrap()), bytes(&frame));
    assert_eq!(bytes(&reader.frame(1).unwrap()), bytes(&next));
    assert!(
        reader.frame(1).unwrap().bodies[1]
            .position
            .y
            .is_sign_positive()
    );
}

#[test]
fn deltas_store_only_changed_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let still: Vec<Frame> = (0..10)
        .map(|i| Frame {
            index: i,
            bodies: (0..50).map(|id| body(id, 0.0)).collect(),
            ..Frame::default()
        })
        .collect();
    let path = dir.path().join("still.cdrec");
    let w = write_recording(&path, &still, 64);
    let entries = w.frame_entries().to_vec();
    w.finish().unwrap();
    assert!(entries[0].keyframe && !entries[1].keyframe);
    // A delta of bodies at rest holds no body state (one is 13 floats, 104 bytes): only the
    // frame's own fixed parts (index, time, timings, counters, stream lengths).
    assert!(
        entries[1].len < 104 && entries[1].len * 40 < entries[0].len,
        "a delta of bodies at rest ({} bytes) should be tiny next to the keyframe ({} bytes)",
        entries[1].len,
        entries[0].len
    );
    let reader = RecordingReader::open(&path).unwrap();
    assert_eq!(&*reader.frame(9).unwrap(), &still[9]);
}

#[test]
fn keyframes_follow_the_interval() {
    let dir = tempfile::tempdir().unwrap();
    let frames: Vec<Frame> = (0..20).map(|i| sample_frame(i, 5, false)).collect();
    let path = dir.path().join("k.cdrec");
    write_recording(&path, &frames, 6).finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let keyframes: Vec<usize> = reader
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.keyframe)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(keyframes, vec![0, 6, 12, 18]);
    assert_eq!(reader.info().keyframe_count, 4);
}

// --- info -----------------------------------------------------------------------------------

#[test]
fn info_reports_the_header_and_the_contents() {
    let dir = tempfile::tempdir().unwrap();
    let frames: Vec<Frame> = (0..30).map(|i| sample_frame(i, 4, true)).collect();
    let path = dir.path().join("info.cdrec");
    write_recording(&path, &frames, 8).finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let info = reader.info();
    assert_eq!(info.format_version, FORMAT_VERSION);
    assert_eq!(info.app_version, env!("CARGO_PKG_VERSION"));
    assert_eq!(info.created_unix_ms, 1_700_000_000_000);
    assert_eq!(info.frame_count, 30);
    assert_eq!(info.keyframe_count, 4);
    assert_eq!(info.body_count(), 8);
    assert_eq!(info.body_names[3], "body 3");
    assert_eq!(info.dt_s, 1.0 / 60.0);
    assert!(
        (info.duration_s - 30.0 / 60.0).abs() < 1e-12,
        "{}",
        info.duration_s
    );
    assert_eq!(info.file_bytes, std::fs::metadata(&path).unwrap().len());
    assert_eq!(info.chunk_count, 1 + 30 + 2);
    assert_eq!(info.first_frame_index, Some(0));
    assert_eq!(info.last_frame_index, Some(29));
    assert!(info.recovery.is_none());
    assert_eq!(reader.header().scene_ron, meta(8).scene_ron);
    let text = info.to_string();
    assert!(
        text.contains("frames:          30") && text.contains("complete"),
        "{text}"
    );
}

// --- damaged files --------------------------------------------------------------------------

/// A small recording and the end offset of every chunk it holds, as the writer saw them.
struct Small {
    bytes: Vec<u8>,
    frames: Vec<Frame>,
    /// End of the header chunk.
    header_end: u64,
    /// End of each frame chunk.
    frame_ends: Vec<u64>,
    /// End of the index chunk (the footer follows).
    index_end: u64,
}

fn small_recording(dir: &Path, n: u64, k: u32) -> Small {
    let frames: Vec<Frame> = (0..n).map(|i| sample_frame(i, 3, i % 2 == 0)).collect();
    let path = dir.join("small.cdrec");
    let w = write_recording(&path, &frames, k);
    let header_end = w.header_len();
    let frame_ends = w.frame_entries().iter().map(|e| e.end()).collect();
    w.finish().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let index_end = bytes.len() as u64 - (CHUNK_HEADER_LEN + 16);
    Small {
        bytes,
        frames,
        header_end,
        frame_ends,
        index_end,
    }
}

fn open_bytes(path: &Path, bytes: &[u8]) -> Result<RecordingReader, RecordError> {
    std::fs::write(path, bytes).unwrap();
    RecordingReader::open(path)
}

#[test]
fn truncation_at_every_byte_recovers_exactly_the_complete_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 6 * scale() as u64, 4);
    let path = dir.path().join("cut.cdrec");
    let full = s.bytes.len() as u64;
    let mut chunk_ends = vec![s.header_end];
    chunk_ends.extend(&s.frame_ends);
    chunk_ends.push(s.index_end);
    chunk_ends.push(full);
    std::fs::write(&path, &s.bytes).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    // From the whole file down to nothing, cutting it shorter each time.
    for cut in (0..=full).rev() {
        file.set_len(cut).unwrap();
        let result = RecordingReader::open(&path);
        if cut < s.header_end {
            let err = result
                .err()
                .unwrap_or_else(|| panic!("a file cut at {cut} opened"));
            assert_eq!(err.path, path);
            continue;
        }
        let reader = result.unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let expected = s.frame_ends.iter().filter(|&&end| end <= cut).count();
        assert_eq!(reader.len(), expected, "cut at {cut}");
        for (i, f) in s.frames[..expected].iter().enumerate() {
            assert_eq!(&*reader.frame(i).unwrap(), f, "cut at {cut}, frame {i}");
        }
        let last_end = chunk_ends
            .iter()
            .copied()
            .filter(|&e| e <= cut)
            .max()
            .unwrap();
        match reader.recovery() {
            None => assert_eq!(cut, full, "only the whole file needs no recovery"),
            Some(r) => {
                assert_ne!(cut, full);
                assert_eq!(r.recovered_frames, expected);
                assert_eq!(r.bytes_lost, cut - last_end, "cut at {cut}: {r}");
                let first = &r.issues[0].cause;
                assert!(
                    matches!(first, LossCause::IndexMissing),
                    "cut at {cut}: {r}"
                );
                if cut > last_end {
                    let issue = r.issues.last().unwrap();
                    assert_eq!(issue.offset, last_end, "cut at {cut}: {r}");
                    assert!(
                        matches!(
                            issue.cause,
                            LossCause::TruncatedMidChunk { .. } | LossCause::TruncatedChunkHeader
                        ),
                        "cut at {cut}: {r}"
                    );
                }
            }
        }
    }
}

#[test]
fn an_unfinished_recording_keeps_every_written_frame() {
    // What a killed process leaves: the writer never runs `finish` nor its destructor.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.cdrec");
    let frames: Vec<Frame> = (0..50).map(|i| sample_frame(i, 6, true)).collect();
    let w = write_recording(&path, &frames, 16);
    std::mem::forget(w);
    let reader = RecordingReader::open(&path).unwrap();
    assert_eq!(reader.len(), 50);
    let r = reader.recovery().unwrap();
    assert_eq!(r.bytes_lost, 0);
    assert_eq!(r.issues[0].cause, LossCause::IndexMissing);
    assert_eq!(&*reader.frame(49).unwrap(), &frames[49]);
    assert!(reader.info().to_string().contains("recovered 50 frames"));
}

/// Writes frames forever in a child process that the parent kills with SIGKILL.
#[test]
#[ignore = "run by sigkill_leaves_every_completed_chunk as a child process"]
fn sigkill_child_writer() {
    let Ok(path) = std::env::var("CDREC_SIGKILL_PATH") else {
        return;
    };
    let mut w = RecordingWriter::create(&path, meta(8), options(8)).unwrap();
    for i in 0.. {
        w.write_frame(&sample_frame(i, 8, true)).unwrap();
        println!("wrote {i}");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[cfg(unix)]
#[test]
fn sigkill_leaves_every_completed_chunk() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sigkill.cdrec");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "record_format::sigkill_child_writer",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CDREC_SIGKILL_PATH", &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut written = 0u64;
    for line in lines.by_ref() {
        if let Some(n) = line.unwrap().strip_prefix("wrote ") {
            written = n.parse::<u64>().unwrap() + 1;
            if written >= 40 {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL: no destructor, no flush, no index
    child.wait().unwrap();
    assert!(written >= 40, "the child wrote only {written} frames");
    let reader = RecordingReader::open(&path).unwrap();
    assert!(reader.recovery().is_some());
    assert!(
        reader.len() as u64 >= written,
        "{} < {written}",
        reader.len()
    );
    for i in 0..reader.len() {
        assert_eq!(&*reader.frame(i).unwrap(), &sample_frame(i as u64, 8, true));
    }
}

#[test]
fn a_bad_chunk_in_the_middle_loses_only_up_to_the_next_keyframe() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 14, 4);
    // No index (cut after the last frame), and frame 5's payload damaged.
    let mut bytes = s.bytes[..*s.frame_ends.last().unwrap() as usize].to_vec();
    let frame5 = s.frame_ends[4];
    bytes[(frame5 + CHUNK_HEADER_LEN + 3) as usize] ^= 0x40;
    let reader = open_bytes(&dir.path().join("bad.cdrec"), &bytes).unwrap();
    let r = reader.recovery().unwrap().clone();
    // Frames 0-4 before it; 6 and 7 are deltas on the lost frame; 8 is a keyframe again.
    let kept: Vec<u64> = (0..reader.len())
        .map(|i| reader.frame(i).unwrap().index)
        .collect();
    assert_eq!(kept, vec![0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13], "{r}");
    for i in 0..reader.len() {
        let f = reader.frame(i).unwrap();
        assert_eq!(&*f, &s.frames[f.index as usize]);
    }
    assert_eq!(r.frames_lost, 2);
    assert_eq!(r.bytes_lost, s.frame_ends[7] - s.frame_ends[4], "{r}");
    assert!(
        matches!(&r.issues[1], i if i.offset == frame5 && matches!(i.cause, LossCause::BadChunk { .. })),
        "{r}"
    );
    assert!(
        r.issues
            .iter()
            .any(|i| i.cause == LossCause::OrphanDeltas { frames: 2 }),
        "{r}"
    );
    let text = r.to_string();
    assert!(text.contains(&format!("at offset {frame5}")), "{text}");
}

#[test]
fn a_damaged_length_is_resynchronised() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 12, 4);
    let mut bytes = s.bytes.clone();
    // Frame 2's length field now claims more than the file holds.
    let at = s.frame_ends[1] as usize + 4;
    bytes[at..at + 4].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
    // With the index intact or without it, a scan skips the damage and resumes at the next
    // keyframe.
    let cut = &bytes[..*s.frame_ends.last().unwrap() as usize];
    for (name, bytes) in [("len.cdrec", &bytes[..]), ("len2.cdrec", cut)] {
        let reader = open_bytes(&dir.path().join(name), bytes).unwrap();
        let kept: Vec<u64> = (0..reader.len())
            .map(|i| reader.frame(i).unwrap().index)
            .collect();
        assert_eq!(kept, vec![0, 1, 4, 5, 6, 7, 8, 9, 10, 11], "{name}");
        reader.verify().unwrap();
    }
}

/// A finished file (index and footer intact) with one flipped bit in a frame chunk opens
/// with every other frame, as a cut file does, and says which frame and bytes were lost.
#[test]
fn a_flipped_bit_in_a_finished_file_loses_only_its_keyframe_interval() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 14, 4);
    let mut bytes = s.bytes.clone();
    let frame5 = s.frame_ends[4];
    bytes[(frame5 + CHUNK_HEADER_LEN + 3) as usize] ^= 0x40;
    let reader = open_bytes(&dir.path().join("flip.cdrec"), &bytes).unwrap();
    let r = reader
        .recovery()
        .expect("the damage is found at open")
        .clone();
    let kept: Vec<u64> = (0..reader.len())
        .map(|i| reader.frame(i).unwrap().index)
        .collect();
    assert_eq!(kept, vec![0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13], "{r}");
    for i in 0..reader.len() {
        let f = reader.frame(i).unwrap();
        assert_eq!(&*f, &s.frames[f.index as usize]);
    }
    reader.verify().unwrap();
    assert_eq!(
        r.issues[0].cause,
        LossCause::DamagedFrame { frame: 5 },
        "{r}"
    );
    assert!(
        matches!(&r.issues[1], i if i.offset == frame5 && i.bytes_lost == s.frame_ends[5] - frame5 && matches!(i.cause, LossCause::BadChunk { .. })),
        "{r}"
    );
    assert_eq!(r.frames_lost, 2, "{r}");
    assert!(r.to_string().contains("frame 5"), "{r}");
}

#[test]
fn a_corrupt_index_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 10, 4);
    let mut bytes = s.bytes.clone();
    bytes[s.frame_ends[9] as usize + CHUNK_HEADER_LEN as usize + 2] ^= 1;
    let reader = open_bytes(&dir.path().join("idx.cdrec"), &bytes).unwrap();
    let r = reader.recovery().unwrap();
    assert!(
        matches!(r.issues[0].cause, LossCause::IndexCorrupt(_)),
        "{r}"
    );
    assert_eq!(reader.len(), 10);
    assert_eq!(&*reader.frame(7).unwrap(), &s.frames[7]);
}

proptest! {
    #![proptest_config(cases(64))]

    /// Random damage gives an error or a recovery, never a panic, and never a wrong frame.
    #[test]
    fn random_byte_flips_never_panic(
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1..=255u8), 1..4),
        cut in prop::option::weighted(0.3, any::<prop::sample::Index>()),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let s = small_recording(dir.path(), 10, 3);
        let mut bytes = s.bytes.clone();
        for (at, x) in &flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len()));
        }
        let path = dir.path().join("flip.cdrec");
        if let Ok(reader) = open_bytes(&path, &bytes) {
            let _ = reader.info().to_string();
            let _ = reader.verify();
            for i in 0..reader.len() + 1 {
                if let Ok(f) = reader.frame(i) {
                    let original = s.frames.get(f.index as usize);
                    prop_assert_eq!(Some(&*f), original, "frame at position {}", i);
                }
            }
        }
    }
}

#[test]
fn a_foreign_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("image.png");
    for bytes in [
        &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..],
        b"",
        b"(name: \"a scene\")",
        &MAGIC[..5],
    ] {
        let err = open_bytes(&path, bytes).err().unwrap();
        let text = err.to_string();
        assert!(text.contains("image.png"), "{text}");
        if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) && !bytes.is_empty() {
            assert!(
                matches!(err.cause, RecordErrorCause::Truncated { .. }),
                "{text}"
            );
        } else {
            assert!(
                matches!(err.cause, RecordErrorCause::NotARecording { .. }),
                "{text}"
            );
            assert_eq!(err.offset, Some(0));
            assert!(text.contains("not a Collidoscope recording"), "{text}");
        }
    }
    let missing = RecordingReader::open(dir.path().join("nope.cdrec"))
        .err()
        .unwrap();
    assert!(matches!(missing.cause, RecordErrorCause::Io(_)));
    assert!(missing.to_string().contains("nope.cdrec"));
}

#[test]
fn a_future_version_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 2, 4);
    let mut bytes = s.bytes.clone();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = open_bytes(&dir.path().join("v2.cdrec"), &bytes)
        .err()
        .unwrap();
    match err.cause {
        RecordErrorCause::UnsupportedVersion { found, supported } => {
            assert_eq!((found, supported), (FORMAT_VERSION + 1, FORMAT_VERSION));
        }
        other => panic!("{other}"),
    }
    assert_eq!(err.offset, Some(8));
}

/// Rewrites the HEAD chunk of `bytes` following the documented layout.
fn with_header(
    bytes: &[u8],
    edit: impl FnOnce(&mut collidoscope::record::RecordingHeader),
) -> Vec<u8> {
    let pre = PREAMBLE_LEN as usize;
    let len = u32::from_le_bytes(bytes[pre + 4..pre + 8].try_into().unwrap()) as usize;
    let payload = &bytes[pre + 12..pre + 12 + len];
    let mut header: collidoscope::record::RecordingHeader = postcard::from_bytes(payload).unwrap();
    edit(&mut header);
    let new_payload = postcard::to_allocvec(&header).unwrap();
    let mut out = bytes[..pre].to_vec();
    let mut crc = crc32fast::Hasher::new();
    crc.update(b"HEAD");
    crc.update(&(new_payload.len() as u32).to_le_bytes());
    crc.update(&new_payload);
    out.extend_from_slice(b"HEAD");
    out.extend_from_slice(&(new_payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(&new_payload);
    out.extend_from_slice(&bytes[pre + 12 + len..]);
    out
}

#[test]
fn the_documented_layout_is_the_real_one() {
    // Re-encoding the header by hand with the spec's layout gives a file that still opens
    // (the index offsets move, so it is found by a scan).
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 3, 4);
    assert_eq!(&s.bytes[..8], &MAGIC);
    assert_eq!(&s.bytes[12..16], b"HEAD");
    let same = with_header(&s.bytes, |_| {});
    assert_eq!(same, s.bytes, "the header re-encodes to the same bytes");
    let tail = &s.bytes[s.bytes.len() - 28..];
    assert_eq!(&tail[..4], b"FOOT");
    let index_at = u64::from_le_bytes(tail[12..20].try_into().unwrap());
    assert_eq!(index_at, *s.frame_ends.last().unwrap());
    assert_eq!(&s.bytes[index_at as usize..index_at as usize + 4], b"INDX");
    assert_eq!(u64::from_le_bytes(tail[20..28].try_into().unwrap()), 3);
    assert_eq!(
        &s.bytes[s.header_end as usize..s.header_end as usize + 4],
        b"KEYF"
    );
    assert_eq!(
        &s.bytes[s.frame_ends[0] as usize..s.frame_ends[0] as usize + 4],
        b"DELT"
    );
}

#[test]
fn an_incompatible_schema_is_refused_with_the_type_named() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 3, 4);
    let bytes = with_header(&s.bytes, |h| {
        let mut doc: serde_json::Value = serde_json::from_str(&h.schema).unwrap();
        let variants = doc["types"]["Verdict"]["ENUM"].as_object_mut().unwrap();
        let hit = variants["0"].clone();
        variants.insert("0".into(), variants["1"].clone());
        variants.insert("1".into(), hit);
        h.schema = doc.to_string();
    });
    let err = open_bytes(&dir.path().join("schema.cdrec"), &bytes)
        .err()
        .unwrap();
    assert!(
        matches!(err.cause, RecordErrorCause::SchemaMismatch(_)),
        "{err}"
    );
    assert!(err.to_string().contains("Verdict"), "{err}");

    // A manifest from an older build with fewer event kinds still loads.
    let older = with_header(&s.bytes, |h| {
        let mut doc: serde_json::Value = serde_json::from_str(&h.schema).unwrap();
        let variants = doc["types"]["EventKind"]["ENUM"].as_object_mut().unwrap();
        let last = variants
            .keys()
            .map(|k| k.parse::<u32>().unwrap())
            .max()
            .unwrap();
        variants.remove(&last.to_string());
        h.schema = doc.to_string();
    });
    let reader = open_bytes(&dir.path().join("older.cdrec"), &older).unwrap();
    assert_eq!(&*reader.frame(2).unwrap(), &s.frames[2]);
}

// --- the committed v1 fixture ---------------------------------------------------------------

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1_small.cdrec")
}

fn fixture_frames() -> Vec<Frame> {
    (0..6).map(|i| sample_frame(i, 3, true)).collect()
}

fn v2_fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v2_small.cdrec")
}

/// Format v1 can no longer be written (its frozen types only read); the later fixtures are
/// made from the same frames, so every fixture holds the same recording.
fn write_fixture(path: &Path) {
    let meta = RecordingMeta {
        scene_ron: "(name: \"fixture\", bodies: [])".into(),
        body_names: vec!["floor".into(), "ball".into(), "box".into()],
        dt_s: 1.0 / 60.0,
    };
    let mut w = RecordingWriter::create(path, meta, options(4)).unwrap();
    for f in fixture_frames() {
        w.write_frame(&f).unwrap();
    }
    w.finish().unwrap();
}

fn versioned_fixture_path(version: u32) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/v{version}_small.cdrec"))
}

/// Rewrites the fixture of the current format version (run once, when the version changes:
/// the fixtures of older versions are never rewritten).
#[test]
#[ignore = "writes tests/fixtures/vN_small.cdrec for the current format; only for a deliberate format change"]
fn regenerate_current_fixture() {
    write_fixture(&versioned_fixture_path(
        collidoscope::record::FORMAT_VERSION,
    ));
}

/// A fixture of format `version` holds exactly the v1 fixture's frames, and reads and
/// verifies without a recovery.
fn check_fixture(version: u32) {
    let reader = RecordingReader::open(versioned_fixture_path(version)).unwrap();
    assert!(reader.recovery().is_none());
    let h = reader.header();
    assert_eq!(h.format_version, version);
    assert_eq!(h.created_unix_ms, 1_700_000_000_000);
    assert_eq!(h.keyframe_interval, 4);
    assert_eq!(h.body_names, vec!["floor", "ball", "box"]);
    assert_eq!(reader.len(), 6);
    for (i, f) in fixture_frames().iter().enumerate() {
        assert_eq!(&*reader.frame(i).unwrap(), f, "frame {i}");
    }
    for i in (0..6).rev() {
        assert_eq!(
            &*reader.frame(i).unwrap(),
            &fixture_frames()[i],
            "frame {i} backwards"
        );
    }
    reader.verify().unwrap();
}

/// Guards backward compatibility of format v3 (compact trace events, before the columnar
/// frame records of v4).
#[test]
fn v3_fixture_still_loads() {
    check_fixture(3);
}

/// Guards format v4 (columnar frame records with predicted floats): a later change to the
/// predictions must not change what these bytes mean.
#[test]
fn v4_fixture_still_loads() {
    check_fixture(4);
}

/// Guards format v5 (v4's columns with the exact predictions of shape-test depths, manifold
/// normals and friction impulses split along the solver's tangents).
#[test]
fn v5_fixture_still_loads() {
    check_fixture(5);
}

/// Guards format v6 (stages that no longer name families: an event's family is its kind's).
#[test]
fn v6_fixture_still_loads() {
    check_fixture(6);
}

/// Guards format v7 (each frame's content hash in the index).
#[test]
fn v7_fixture_still_loads() {
    check_fixture(7);
    let reader = RecordingReader::open(versioned_fixture_path(7)).unwrap();
    for (entry, frame) in reader.entries().iter().zip(fixture_frames()) {
        assert_eq!(entry.content_hash, Some(frame.content_hash()));
    }
}

/// Guards format v8 (the families' stage times after the rigid pipeline's).
#[test]
fn v8_fixture_still_loads() {
    check_fixture(8);
}

/// Guards format v9 (NURBS frames with the bodies' orientations, spins, contact-time
/// searches and impulses).
#[test]
fn v9_fixture_still_loads() {
    check_fixture(9);
}

/// Format v8: the families' stage times read back as written, in keyframes and deltas.
#[test]
fn family_stage_times_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let frames: Vec<Frame> = (0..5)
        .map(|i| {
            let mut f = sample_frame(i, 3, true);
            f.timings.families = vec![
                FamilyStageTimes {
                    family: "cloth".into(),
                    stages_s: vec![1e-4 * i as f64, 2e-4, 3e-4, 4e-4],
                },
                FamilyStageTimes {
                    family: "bsp".into(),
                    stages_s: vec![5e-6],
                },
            ];
            f
        })
        .collect();
    let path = dir.path().join("staged.cdrec");
    write_recording(&path, &frames, 2).finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(&*reader.frame(i).unwrap(), f, "frame {i}");
    }
}

/// A v2 frame payload decoded by hand with the documented layout: index varint, time f64,
/// codec byte, record length varint, then the record (zstd when the codec is 1), whose own
/// first fields are the index and time again.
#[test]
fn the_documented_frame_payload_is_the_real_one() {
    fn varint(b: &[u8]) -> (u64, usize) {
        let mut v = 0u64;
        for (i, byte) in b.iter().enumerate() {
            v |= ((byte & 0x7f) as u64) << (7 * i);
            if byte & 0x80 == 0 {
                return (v, i + 1);
            }
        }
        panic!("unterminated varint");
    }
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 3, 4);
    let mut at = s.header_end as usize;
    let mut codecs = Vec::new();
    for (i, end) in s.frame_ends.iter().enumerate() {
        let payload = &s.bytes[at + 12..*end as usize];
        let (index, n) = varint(payload);
        assert_eq!(index, i as u64);
        let time = f64::from_le_bytes(payload[n..n + 8].try_into().unwrap());
        let codec = payload[n + 8];
        let (raw_len, m) = varint(&payload[n + 9..]);
        let body = &payload[n + 9 + m..];
        let record = match codec {
            0 => body.to_vec(),
            1 => zstd::stream::decode_all(body).unwrap(),
            other => panic!("codec {other}"),
        };
        assert_eq!(record.len() as u64, raw_len);
        assert_eq!(
            &record[..n + 8],
            &payload[..n + 8],
            "the record starts with index and time"
        );
        assert_eq!(
            time,
            f64::from_le_bytes(record[n..n + 8].try_into().unwrap())
        );
        codecs.push(codec);
        at = *end as usize;
    }
    assert!(
        codecs.contains(&1),
        "some frame of the sample was compressed: {codecs:?}"
    );
}

/// Guards backward compatibility of format v2 (compressed frame chunks).
#[test]
fn v2_fixture_still_loads() {
    let reader = RecordingReader::open(v2_fixture_path()).unwrap();
    assert!(reader.recovery().is_none());
    let h = reader.header();
    assert_eq!(h.format_version, 2);
    assert_eq!(h.created_unix_ms, 1_700_000_000_000);
    assert_eq!(h.keyframe_interval, 4);
    assert_eq!(h.body_names, vec!["floor", "ball", "box"]);
    assert_eq!(reader.len(), 6);
    for (i, f) in fixture_frames().iter().enumerate() {
        assert_eq!(&*reader.frame(i).unwrap(), f, "frame {i}");
    }
    reader.verify().unwrap();
    // Its frames were compressed: the records are larger than their chunks.
    let bytes = reader.frame_bytes().unwrap();
    assert_eq!(bytes.frames, 6);
    assert!(bytes.raw > bytes.stored, "{bytes:?}");
    // The same recording as the v1 fixture, frame for frame.
    let v1 = RecordingReader::open(fixture_path()).unwrap();
    for i in 0..6 {
        assert_eq!(v1.frame(i).unwrap(), reader.frame(i).unwrap(), "frame {i}");
    }
    assert_eq!(v1.frame_bytes().unwrap().ratio(), 1.0);
}

/// Every input the fuzzers start from or ever crashed on (fuzz/corpus, tests/fixtures/fuzz)
/// is read as a recording in full: errors are fine, a panic fails the test.
#[test]
fn fuzz_inputs_never_panic_the_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for dir in ["fuzz/corpus/reader", "tests/fixtures/fuzz/reader"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            seen += 1;
            if let Ok(reader) = RecordingReader::open(&path) {
                let _ = reader.info().to_string();
                let _ = reader.frame_bytes();
                for pos in (0..reader.len()).rev() {
                    let _ = reader.frame(pos);
                }
                let _ = reader.verify();
            }
        }
    }
    assert!(seen >= 2, "the reader's seed corpus is missing");
}

/// Every query line the fuzzer starts from or ever crashed on gets an answer object.
#[test]
fn fuzz_inputs_never_panic_the_query_parser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for dir in ["fuzz/corpus/query", "tests/fixtures/fuzz/query"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            seen += 1;
            if let Ok(line) = std::str::from_utf8(&bytes) {
                let answer = collidoscope::query::answer_line(line.trim_end());
                assert!(answer.get("ok").is_some(), "{line}: {answer}");
            }
        }
    }
    assert!(seen >= 3, "the query seed corpus is missing");
}

/// Guards backward compatibility: every later build must read this version 1 file.
#[test]
fn v1_fixture_still_loads() {
    let reader = RecordingReader::open(fixture_path()).unwrap();
    assert!(reader.recovery().is_none());
    let h = reader.header();
    assert_eq!(h.format_version, 1);
    assert_eq!(h.app_version, "0.1.0");
    assert_eq!(h.created_unix_ms, 1_700_000_000_000);
    assert_eq!(h.keyframe_interval, 4);
    assert_eq!(h.dt_s, 1.0 / 60.0);
    assert_eq!(h.body_names, vec!["floor", "ball", "box"]);
    assert_eq!(h.scene_ron, "(name: \"fixture\", bodies: [])");
    assert_eq!(reader.len(), 6);
    let expected = fixture_frames();
    for (i, f) in expected.iter().enumerate() {
        assert_eq!(&*reader.frame(i).unwrap(), f, "frame {i}");
    }
    // Spot checks that do not depend on the helper that made the file.
    let f3 = reader.frame(3).unwrap();
    assert_eq!(f3.contacts.len(), 3);
    assert_eq!(f3.contacts[2].depth, 0.003);
    assert_eq!(f3.trace.len(), 4);
    assert!(matches!(
        &f3.trace[1].kind,
        EventKind::Pipeline(collidoscope::world::PipelineEvent::ShapeTest { test, .. }) if test == "sphere-box"
    ));
    assert!(matches!(
        f3.trace[2].kind,
        EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair {
            separating_axis: Some(4),
            ..
        })
    ));
    let f2 = reader.frame(2).unwrap();
    assert_eq!(f2.markers.len(), 1);
    assert_eq!(f2.markers[0].kind, MarkerKind::FirstContact);
    assert_eq!(f2.markers[0].text, "first contact in frame 2");
    assert_eq!(f2.bodies.len(), 3);
    assert_eq!(f2.bodies[1].position, p(1.0, 2.0 / 60.0, -1.0 / 60.0));
    assert_eq!(reader.info().keyframe_count, 2);
}

// --- history --------------------------------------------------------------------------------

#[test]
fn a_tiny_budget_spills_and_every_frame_stays_readable() {
    let frames: Vec<Frame> = (0..300).map(|i| sample_frame(i, 6, i % 3 == 0)).collect();
    let largest = frames.iter().map(|f| f.estimated_bytes()).max().unwrap();
    let budget = 3 * largest;
    let mut h = History::new(budget);
    for f in &frames {
        h.push(f.clone()).unwrap();
        assert!(h.memory_bytes() <= budget + largest, "{h:?}");
    }
    assert_eq!(h.len(), 300);
    assert!(h.spilled_len() > 250, "{h:?}");
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(&*h.get(i).unwrap(), f, "frame {i}");
        assert!(h.memory_bytes() <= budget + largest, "{h:?}");
    }
    for i in [299, 0, 150, 151, 149, 17, 298, 3] {
        assert_eq!(&*h.get(i).unwrap(), &frames[i]);
    }
    assert!(h.get(300).is_err());
    assert_eq!(h.budget_bytes(), budget);
}

#[test]
fn shrinking_the_budget_spills_at_once() {
    let mut h = History::new(usize::MAX / 2);
    let frames: Vec<Frame> = (0..50).map(|i| sample_frame(i, 4, true)).collect();
    for f in &frames {
        h.push(f.clone()).unwrap();
    }
    assert_eq!(h.spilled_len(), 0);
    let one = frames[0].estimated_bytes();
    h.set_budget_bytes(4 * one).unwrap();
    assert!(h.spilled_len() >= 45, "{h:?}");
    assert!(h.memory_bytes() <= 5 * one);
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(&*h.get(i).unwrap(), f);
    }
}

#[test]
fn a_named_spill_file_is_used_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let spill = dir.path().join("spill.cdrec");
    let mut h = History::new(1).with_spill_file(&spill);
    for i in 0..5 {
        h.push(sample_frame(i, 2, false)).unwrap();
    }
    assert!(spill.exists());
    assert_eq!(h.spilled_len(), 4);
    assert_eq!(&*h.get(0).unwrap(), &sample_frame(0, 2, false));
    drop(h);
    assert!(!spill.exists());
}

#[test]
fn truncate_forks_the_history() {
    let old: Vec<Frame> = (0..40).map(|i| sample_frame(i, 5, true)).collect();
    let one = old[0].estimated_bytes();
    let mut h = History::new(8 * one);
    for f in &old {
        h.push(f.clone()).unwrap();
    }
    let spilled = h.spilled_len();
    assert!(spilled > 20 && spilled < 40);

    // Cut among the resident frames.
    h.truncate(38).unwrap();
    assert_eq!(h.len(), 38);
    assert!(h.get(38).is_err());

    // Cut inside the spilled range, then resume with a different future.
    h.truncate(10).unwrap();
    assert_eq!(h.len(), 10);
    assert_eq!(h.spilled_len(), 10);
    let fork: Vec<Frame> = (10..60)
        .map(|i| {
            let mut f = sample_frame(i, 5, i % 2 == 1);
            f.bodies[1].position.x += 100.0;
            f
        })
        .collect();
    for f in &fork {
        h.push(f.clone()).unwrap();
    }
    assert_eq!(h.len(), 60);
    for i in 0..60 {
        let expected = if i < 10 { &old[i] } else { &fork[i - 10] };
        assert_eq!(&*h.get(i).unwrap(), expected, "frame {i}");
    }
    h.truncate(100).unwrap();
    assert_eq!(h.len(), 60);
    h.truncate(0).unwrap();
    assert!(h.is_empty());
    h.push(sample_frame(0, 1, false)).unwrap();
    assert_eq!(&*h.get(0).unwrap(), &sample_frame(0, 1, false));
}

#[test]
fn a_recording_history_writes_exactly_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.cdrec");
    let before: Vec<Frame> = (0..5).map(|i| sample_frame(i, 4, true)).collect();
    let one = before[0].estimated_bytes();
    let mut h = History::new(6 * one);
    for f in &before {
        h.push(f.clone()).unwrap();
    }
    // Recording starts late: the frames already there go in first.
    let writer = RecordingWriter::create(&path, meta(4), options(4)).unwrap();
    h.attach_recording(writer).unwrap();
    assert!(h.is_recording());
    assert_eq!(h.recording_path().as_deref(), Some(path.as_path()));
    let mut expected = before.clone();
    for i in 5..30 {
        let f = sample_frame(i, 4, i % 2 == 0);
        expected.push(f.clone());
        h.push(f).unwrap();
    }
    h.truncate(12).unwrap(); // inside the spilled range: the file is cut too
    expected.truncate(12);
    for i in 12..20 {
        let mut f = sample_frame(i, 4, false);
        f.bodies[0].position.y = -1.0;
        expected.push(f.clone());
        h.push(f).unwrap();
    }
    for (i, f) in expected.iter().enumerate() {
        assert_eq!(&*h.get(i).unwrap(), f, "history frame {i}");
    }
    let summary = h.finish_recording().unwrap().unwrap();
    assert_eq!(summary.frames, 20);
    assert!(!h.is_recording());
    // The history still has every frame after the recording is closed.
    for (i, f) in expected.iter().enumerate() {
        assert_eq!(&*h.get(i).unwrap(), f, "history frame {i} after finishing");
    }
    h.push(sample_frame(20, 4, false)).unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    assert!(reader.recovery().is_none());
    assert_eq!(reader.len(), 20);
    for (i, f) in expected.iter().enumerate() {
        assert_eq!(&*reader.frame(i).unwrap(), f, "recorded frame {i}");
    }
}

#[derive(Clone, Debug)]
enum Op {
    Push(u32),
    Truncate(prop::sample::Index),
    Get(prop::sample::Index),
    Budget(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (1..6u32).prop_map(Op::Push),
        1 => any::<prop::sample::Index>().prop_map(Op::Truncate),
        3 => any::<prop::sample::Index>().prop_map(Op::Get),
        1 => (0..12usize).prop_map(Op::Budget),
    ]
}

proptest! {
    #![proptest_config(cases(24))]

    /// The history behaves like a plain vector of frames, whatever spills.
    #[test]
    fn history_matches_a_vector(ops in prop::collection::vec(op(), 1..80), record in any::<bool>()) {
        let unit = sample_frame(0, 3, true).estimated_bytes();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.cdrec");
        let mut h = if record {
            let w = RecordingWriter::create(&path, meta(5), options(3)).unwrap();
            History::recording(3 * unit, w).unwrap()
        } else {
            History::new(3 * unit)
        };
        let mut model: Vec<Frame> = Vec::new();
        let mut serial = 0u64;
        for op in ops {
            match op {
                Op::Push(bodies) => {
                    serial += 1;
                    let mut f = sample_frame(model.len() as u64, bodies, serial.is_multiple_of(2));
                    f.counters.trace_dropped = serial;
                    model.push(f.clone());
                    h.push(f).unwrap();
                }
                Op::Truncate(i) => {
                    let len = i.index(model.len() + 2);
                    model.truncate(len);
                    h.truncate(len).unwrap();
                }
                Op::Get(i) if !model.is_empty() => {
                    let i = i.index(model.len());
                    prop_assert_eq!(&*h.get(i).unwrap(), &model[i]);
                }
                Op::Get(_) => prop_assert!(h.get(0).is_err()),
                Op::Budget(units) => h.set_budget_bytes(units * unit).unwrap(),
            }
            prop_assert_eq!(h.len(), model.len());
            let largest = model.iter().map(|f| f.estimated_bytes()).max().unwrap_or(0);
            prop_assert!(h.memory_bytes() <= h.budget_bytes() + largest);
        }
        for (i, f) in model.iter().enumerate() {
            prop_assert_eq!(&*h.get(i).unwrap(), f);
        }
        if record {
            h.finish_recording().unwrap();
            let reader = RecordingReader::open(&path).unwrap();
            prop_assert_eq!(reader.len(), model.len());
            for (i, f) in model.iter().enumerate() {
                prop_assert_eq!(&*reader.frame(i).unwrap(), f);
            }
        }
    }
}

#[test]
fn a_second_recording_glued_on_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let s = small_recording(dir.path(), 5, 4);
    let frames_end = *s.frame_ends.last().unwrap() as usize;
    let mut bytes = s.bytes[..frames_end].to_vec();
    bytes.extend_from_slice(&s.bytes[PREAMBLE_LEN as usize..frames_end]);
    let reader = open_bytes(&dir.path().join("glued.cdrec"), &bytes).unwrap();
    assert_eq!(reader.len(), 5);
    let r = reader.recovery().unwrap();
    assert_eq!(
        r.issues.last().unwrap().cause,
        LossCause::SecondHeader,
        "{r}"
    );
    assert_eq!(r.bytes_lost, (frames_end - PREAMBLE_LEN as usize) as u64);
}

#[test]
fn readers_and_histories_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<RecordingReader>();
    shareable::<History>();
    shareable::<RecordingWriter>();
}

// --- the engine's own frames ----------------------------------------------------------------

/// Records `frames` steps of built-in scene `name` (full trace) and reads every frame back,
/// forwards and by random access: each must equal what the engine emitted, event for event
/// and bit for bit. Returns how many frame contacts, speculative contacts and impulses the
/// recording held, so a caller can check that the predictions were exercised.
fn engine_round_trip(name: &str, frames: usize, keyframe_interval: u32) -> (usize, usize, usize) {
    use collidoscope::world::{ContactPoint, PipelineEvent, World, builtin_scene};
    let mut world = World::new(builtin_scene(name).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.cdrec"));
    let meta = RecordingMeta {
        scene_ron: String::new(),
        body_names: (0..world.bodies.len())
            .map(|i| format!("body {i}"))
            .collect(),
        dt_s: 1.0 / 60.0,
    };
    let mut w = RecordingWriter::create(&path, meta, options(keyframe_interval)).unwrap();
    let mut emitted = Vec::new();
    for _ in 0..frames {
        let f = world.step_traced(1_000_000);
        w.write_frame(&f).unwrap();
        emitted.push(f);
    }
    w.finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    assert_eq!(reader.len(), frames);
    let (mut contacts, mut speculative, mut impulses) = (0, 0, 0);
    for (i, f) in emitted.iter().enumerate() {
        let back = reader.frame(i).unwrap();
        assert_eq!(back.bodies, f.bodies, "{name} frame {i}: bodies");
        assert_eq!(back.contacts, f.contacts, "{name} frame {i}: contacts");
        assert_eq!(back.trace.len(), f.trace.len(), "{name} frame {i}: events");
        for (k, (b, e)) in back.trace.iter().zip(&f.trace).enumerate() {
            assert_eq!(b, e, "{name} frame {i}: event {k}");
        }
        assert_eq!(&*back, f, "{name} frame {i}");
        contacts += f.contacts.len();
        for e in &f.trace {
            match &e.kind {
                EventKind::Pipeline(PipelineEvent::Contact {
                    point: ContactPoint::Inline { .. },
                    ..
                }) => speculative += 1,
                EventKind::Pipeline(PipelineEvent::Impulse { .. }) => impulses += 1,
                _ => {}
            }
        }
    }
    // Random access walks from a keyframe through the deltas: the same frames again.
    for i in (0..frames).rev().step_by(7) {
        assert_eq!(
            &*reader.frame(i).unwrap(),
            &emitted[i],
            "{name} frame {i} backwards"
        );
    }
    reader.verify().unwrap();
    (contacts, speculative, impulses)
}

/// The default scene: spheres, boxes, capsules and hulls landing, bouncing and resting.
#[test]
fn mixed_drop_reads_back_exactly_as_the_engine_emitted_it() {
    let (contacts, speculative, impulses) =
        engine_round_trip("mixed-drop", 70 * scale() as usize, 16);
    assert!(
        contacts > 100 && speculative > 10 && impulses > 100,
        "{contacts} contacts, {speculative} speculative, {impulses} impulses"
    );
}

/// 300 hulls on the small-steps solver: contact manifolds sought once a frame, some of them
/// speculative, and impulses met again frame after frame, which is what the predictions lean on.
#[test]
fn convex_pile_reads_back_exactly_as_the_engine_emitted_it() {
    let (contacts, speculative, impulses) =
        engine_round_trip("convex-pile", 8 * scale() as usize, 4);
    assert!(
        contacts > 20 && speculative > 20 && contacts + speculative > 100 && impulses > 100,
        "{contacts} contacts, {speculative} speculative, {impulses} impulses"
    );
}
