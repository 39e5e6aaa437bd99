//! Recording costs: bytes per frame, write time, seek latency on a long recording, and the
//! time `diff` takes over two 100,000-frame recordings.
//!
//! `cargo bench --no-default-features --bench record`. The byte counts and the median seek
//! latency measured by hand (criterion reports means) are printed before criterion's output.

use collidoscope::geom::{Aabb, Point3, Quat, Vec3};
use collidoscope::record::{
    BodyState, Contact, Counters, Frame, Marker, MarkerKind, RecordingMeta, RecordingReader,
    RecordingWriter, StageTimings, WriterOptions,
};
use collidoscope::trace::{EventKind, Stage, TraceEvent, Verdict};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

const BODIES: u32 = 60;
/// Bodies 0..FIXED are floors and walls: their state never changes.
const FIXED: u32 = 10;
const CONTACTS: u32 = 12;

/// A frame of a 60-body scene: 50 moving bodies, 12 contacts and, with `trace`, a modest
/// trace of 109 events (integration of each moving body, 25 broad pairs, 12 shape tests, 12
/// contacts).
fn realistic_frame(i: u64, trace: bool) -> Frame {
    let t = i as f64 / 60.0;
    let bodies: Vec<BodyState> = (0..BODIES)
        .map(|id| {
            let moving = id >= FIXED;
            let s = if moving { t } else { 0.0 };
            BodyState {
                id,
                position: Point3::new(id as f64 * 0.7, 5.0 - s * s, (s + id as f64).sin()),
                rotation: Quat::from_euler_angles(s * 0.3, s * 0.1 * id as f64, 0.2),
                linear_velocity: Vec3::new(0.1 * s, -2.0 * s, 0.0),
                angular_velocity: Vec3::new(0.0, s, 0.5 * s),
            }
        })
        .collect();
    let contacts: Vec<Contact> = (0..CONTACTS)
        .map(|k| Contact {
            a: k,
            b: FIXED + k,
            point: Point3::new(k as f64, 0.01 * t, 0.5),
            normal: Vec3::y(),
            depth: 0.001 + 1e-4 * k as f64,
        })
        .collect();
    let mut events = Vec::new();
    if trace {
        for b in &bodies[FIXED as usize..] {
            events.push(TraceEvent::staged(
                Stage::Integrate,
                Verdict::Info,
                EventKind::Pipeline(collidoscope::world::PipelineEvent::Integrated {
                    body: b.id,
                    from: b.position - b.linear_velocity / 60.0,
                    to: b.position,
                }),
            ));
        }
        for k in 0..25u32 {
            let p = bodies[k as usize].position;
            let bx = Aabb::new(p - Vec3::repeat(0.5), p + Vec3::repeat(0.5));
            events.push(TraceEvent::staged(
                Stage::BroadPhase,
                if k < CONTACTS {
                    Verdict::Hit
                } else {
                    Verdict::Miss
                },
                EventKind::Broad(collidoscope::broad::BroadEvent::BroadPair {
                    a: k,
                    b: k + FIXED,
                    box_a: bx,
                    box_b: bx,
                }),
            ));
        }
        for (k, c) in contacts.iter().enumerate() {
            events.push(TraceEvent::staged(
                Stage::NarrowPhase,
                Verdict::Hit,
                EventKind::Pipeline(collidoscope::world::PipelineEvent::ShapeTest {
                    a: c.a,
                    b: c.b,
                    test: "box-sphere".into(),
                    contacts: 1,
                    max_depth: c.depth,
                }),
            ));
            events.push(TraceEvent::staged(
                Stage::NarrowPhase,
                Verdict::Hit,
                EventKind::Pipeline(collidoscope::world::PipelineEvent::Contact {
                    a: c.a,
                    b: c.b,
                    point: collidoscope::world::ContactPoint::InFrame(k as u32),
                }),
            ));
        }
    }
    Frame {
        index: i,
        time_s: t,
        families: vec![],
        counters: Counters {
            bodies: BODIES,
            broad_pairs: 25,
            narrow_tests: CONTACTS,
            contacts: CONTACTS,
            max_penetration_m: 0.0021,
            kinetic_energy_j: 40.0 + t,
            trace_events: events.len() as u32,
            trace_dropped: 0,
        },
        timings: StageTimings {
            integrate_s: 2e-6,
            broad_s: 1.5e-5,
            narrow_s: 4e-5,
            response_s: 1e-5,
            families: Vec::new(),
        },
        markers: if i.is_multiple_of(500) {
            vec![Marker {
                kind: MarkerKind::DeepPenetration,
                text: "deep".into(),
                bodies: vec![3, 14],
            }]
        } else {
            vec![]
        },
        bodies,
        contacts,
        trace: events,
    }
}

fn meta() -> RecordingMeta {
    RecordingMeta {
        scene_ron: "(name: \"bench\", bodies: [])".into(),
        body_names: (0..BODIES).map(|i| format!("body {i}")).collect(),
        dt_s: 1.0 / 60.0,
    }
}

fn write(path: &Path, frames: u64, trace: bool) -> u64 {
    let mut w = RecordingWriter::create(path, meta(), WriterOptions::default()).unwrap();
    for i in 0..frames {
        w.write_frame(&realistic_frame(i, trace)).unwrap();
    }
    w.finish().unwrap().bytes
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Median and tail of `n` random seeks, each on a cold position (the reader's small cache
/// almost never holds a random frame of a long recording).
fn seek_latency(reader: &RecordingReader, n: usize) -> (Duration, Duration, Duration) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let pos = rng.below(reader.len());
            let start = Instant::now();
            black_box(reader.frame(pos).unwrap());
            start.elapsed()
        })
        .collect();
    times.sort();
    (
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
    )
}

fn bytes_per_frame(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    for trace in [false, true] {
        let frames = 640;
        let path = dir.path().join("bpf.cdrec");
        let bytes = write(&path, frames, trace);
        let reader = RecordingReader::open(&path).unwrap();
        let entries = reader.entries();
        let key = entries
            .iter()
            .filter(|e| e.keyframe)
            .map(|e| e.len as u64 + 12);
        let delta = entries
            .iter()
            .filter(|e| !e.keyframe)
            .map(|e| e.len as u64 + 12);
        let (nk, nd) = (key.clone().count() as u64, delta.clone().count() as u64);
        eprintln!(
            "bytes per frame ({} bodies, {} contacts, {}): {:.0} on average over {frames} \
             frames (keyframe {:.0}, delta {:.0}); file {} bytes",
            BODIES,
            CONTACTS,
            if trace {
                "trace of 109 events"
            } else {
                "no trace"
            },
            (bytes - reader.header().schema.len() as u64) as f64 / frames as f64,
            key.sum::<u64>() as f64 / nk as f64,
            delta.sum::<u64>() as f64 / nd as f64,
            bytes
        );
    }
    let mut group = c.benchmark_group("write");
    for trace in [false, true] {
        let path = dir.path().join("w.cdrec");
        let mut w = RecordingWriter::create(&path, meta(), WriterOptions::default()).unwrap();
        // Two frames in turn, so that every delta carries the 50 moving bodies.
        let frames = [realistic_frame(1, trace), realistic_frame(2, trace)];
        let mut i = 0;
        let name = if trace { "frame_with_trace" } else { "frame" };
        group.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                w.write_frame(black_box(&frames[i % 2])).unwrap()
            })
        });
    }
    group.finish();
}

fn seeking(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.cdrec");
    let start = Instant::now();
    let bytes = write(&long, 100_000, false);
    eprintln!(
        "100,000-frame recording (no trace): {bytes} bytes, written in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let reader = RecordingReader::open(&long).unwrap();
    eprintln!("opened (index load) in {:?}", start.elapsed());
    let (median, p99, max) = seek_latency(&reader, 2000);
    eprintln!("random seek, 100,000 frames, no trace: median {median:?}, p99 {p99:?}, max {max:?}");

    let traced = dir.path().join("traced.cdrec");
    let bytes = write(&traced, 20_000, true);
    let traced_reader = RecordingReader::open(&traced).unwrap();
    let (median, p99, max) = seek_latency(&traced_reader, 2000);
    eprintln!(
        "random seek, 20,000 frames with trace ({bytes} bytes): median {median:?}, p99 {p99:?}, max {max:?}"
    );

    let mut group = c.benchmark_group("seek");
    let mut rng = Rng(42);
    group.bench_function("random_100k", |b| {
        b.iter(|| black_box(reader.frame(rng.below(reader.len())).unwrap()))
    });
    let mut pos = 0;
    group.bench_function("sequential_100k", |b| {
        b.iter(|| {
            pos = (pos + 1) % reader.len();
            black_box(reader.frame(pos).unwrap())
        })
    });
    group.finish();
    drop(reader);
    drop(traced_reader);
    let start = Instant::now();
    // A scan (what a killed recording costs to open): cut off the index.
    let len = std::fs::metadata(&long).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&long).unwrap();
    f.set_len(len - 28 - 1).unwrap();
    let scanned = RecordingReader::open(&long).unwrap();
    eprintln!(
        "opening the 100,000-frame recording without its index (scan): {:?}, {} frames recovered",
        start.elapsed(),
        scanned.len()
    );
}

/// A copy of `from` whose last frame has one body moved by one unit in the last place.
fn write_parted_at_last(path: &Path, frames: u64) {
    let mut w = RecordingWriter::create(path, meta(), WriterOptions::default()).unwrap();
    for i in 0..frames {
        let mut f = realistic_frame(i, false);
        if i + 1 == frames {
            let y = &mut f.bodies[FIXED as usize].position.y;
            *y = f64::from_bits(y.to_bits() + 1);
        }
        w.write_frame(&f).unwrap();
    }
    w.finish().unwrap();
}

/// `diff` over 100,000 frames: two identical recordings, and two that part at the last frame,
/// each opened and compared (what `collidoscope diff` does). For scale, the same comparison
/// with the content hashes gone (an index rebuilt by a scan), which decodes every frame.
fn diffing(c: &mut Criterion) {
    use collidoscope::diff::{Tolerance, diff};
    const FRAMES: u64 = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let (a, same, parted) = (
        dir.path().join("a.cdrec"),
        dir.path().join("same.cdrec"),
        dir.path().join("parted.cdrec"),
    );
    write(&a, FRAMES, false);
    write(&same, FRAMES, false);
    write_parted_at_last(&parted, FRAMES);
    let compare = |x: &Path, y: &Path| {
        let (rx, ry) = (
            RecordingReader::open(x).unwrap(),
            RecordingReader::open(y).unwrap(),
        );
        diff(&rx, &ry, Tolerance::Bitwise).unwrap()
    };
    assert!(compare(&a, &same).same());
    assert_eq!(compare(&a, &parted).first.map(|f| f.0), Some(FRAMES - 1));
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.bench_function("identical_100k", |b| {
        b.iter(|| black_box(compare(&a, &same)))
    });
    group.bench_function("part_at_last_100k", |b| {
        b.iter(|| black_box(compare(&a, &parted)))
    });
    // What the writer adds per frame for the index's hash, beside the frame's encoding.
    let traced = realistic_frame(500, true);
    group.sample_size(30);
    group.bench_function("content_hash_traced_frame", |b| {
        b.iter(|| black_box(traced.content_hash()))
    });
    group.finish();
    let unhashed = dir.path().join("unhashed.cdrec");
    std::fs::copy(&same, &unhashed).unwrap();
    let len = std::fs::metadata(&unhashed).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&unhashed)
        .unwrap();
    f.set_len(len - 28 - 1).unwrap();
    let (ra, ru) = (
        RecordingReader::open(&a).unwrap(),
        RecordingReader::open(&unhashed).unwrap(),
    );
    let start = Instant::now();
    assert!(diff(&ra, &ru, Tolerance::Bitwise).unwrap().same());
    eprintln!(
        "diff of two identical 100,000-frame recordings without the hashes (every frame \
         decoded): {:?}",
        start.elapsed()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(3));
    targets = bytes_per_frame, seeking, diffing
}
criterion_main!(benches);
