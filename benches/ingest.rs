//! Ingest speed: a capture stream of 50 balls over 200 steps (pairs and contacts included)
//! read into a recording, beside the floor any JSON-lines reader pays, serde_json parsing
//! every line into a `Value`. The ratio is what the contract's checks, the assembly into
//! frames and the recording cost on top of parsing.

use collidoscope::record::WriterOptions;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::io::Cursor;

#[path = "../tests/toy_engine.rs"]
mod toy_engine;

const BALLS: usize = 50;
const STEPS: u64 = 200;

fn ingest_speed(c: &mut Criterion) {
    let text = toy_engine::stream_text(&toy_engine::engine_run(BALLS, STEPS));
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("bench.cdrec");
    let mut group = c.benchmark_group("ingest");
    group.throughput(Throughput::Elements(STEPS));
    group.bench_function("ingest into a recording", |b| {
        b.iter(|| {
            let report = collidoscope::capture::ingest(
                &mut Cursor::new(text.as_bytes()),
                &out,
                WriterOptions::default(),
                &mut |_| {},
            )
            .expect("ingest");
            black_box(report.recording.frames)
        })
    });
    group.bench_function("serde_json lines into Values (reference)", |b| {
        b.iter(|| {
            let mut n = 0;
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("json");
                n += usize::from(v.is_object());
            }
            black_box(n)
        })
    });
    group.finish();
}

criterion_group!(benches, ingest_speed);
criterion_main!(benches);
