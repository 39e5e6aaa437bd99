//! Structure-aware generated capture streams (issue 31, part 8): streams of the right kinds in
//! a plausible order (header, shapes, bodies, colliders, frames of states, pairs, contacts
//! and events), with extreme magnitudes and sizes where the contract has numbers and ids:
//! 1e308, 5e-324, `"NaN"`, 30-digit ids, zero quaternions, indices past the end, frames out of
//! order. Each is ingested (bad lines skipped and reported, never a panic), the recording it
//! makes reads back frame by frame, and half are audited with the engine's algorithms as the
//! oracle. Cases: 64 × `COLLIDOSCOPE_TEST_SCALE`.

use crate::test_scale::{generated_cases, timed_case_of};
use collidoscope::audit::{AuditOptions, audit};
use collidoscope::capture::ingest;
use collidoscope::record::{RecordingReader, WriterOptions};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::io::Cursor;

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        30 => (-5.0..5.0f64).prop_map(|x| json!(x)),
        1 => Just(json!(0)),
        1 => Just(json!(1e308)),
        1 => Just(json!(-1e308)),
        1 => Just(json!(5e-324)),
        1 => Just(json!(1e-308)),
        1 => Just(json!("NaN")),
        1 => Just(json!("inf")),
        1 => Just(json!("-inf")),
        1 => Just(json!(123_456_789_012_345_678_u64)),
    ]
    .boxed()
}

fn positive() -> BoxedStrategy<Value> {
    prop_oneof![8 => (0.05..2.0f64).prop_map(|x| json!(x)), 1 => number()].boxed()
}

fn vec3() -> BoxedStrategy<Value> {
    prop::collection::vec(number(), 3)
        .prop_map(Value::Array)
        .boxed()
}

fn pose() -> BoxedStrategy<Value> {
    let rotation = prop_oneof![
        6 => Just(json!([1, 0, 0, 0])),
        1 => Just(json!([0, 0, 0, 0])),
        1 => prop::collection::vec(number(), 4).prop_map(Value::Array),
    ];
    (vec3(), rotation)
        .prop_map(|(t, r)| json!({"translation": t, "rotation": r}))
        .boxed()
}

/// An id: mostly one of a few small ones, so that lines refer to each other.
fn id() -> BoxedStrategy<Value> {
    prop_oneof![
        12 => (0u64..4).prop_map(|i| json!(i)),
        4 => (0u64..4).prop_map(|i| json!(format!("c{i}"))),
        1 => Just(json!(u64::MAX)),
        1 => Just(serde_json::from_str::<Value>("123456789012345678901234567890").unwrap_or(Value::Null)),
        1 => Just(json!("")),
        1 => Just(json!(-1)),
    ]
    .boxed()
}

fn shape() -> BoxedStrategy<Value> {
    let index = prop_oneof![10 => 0u64..4, 1 => Just(u32::MAX as u64)];
    prop_oneof![
        positive().prop_map(|r| json!({"type": "sphere", "radius": r})),
        vec3().prop_map(|h| json!({"type": "cuboid", "half_extents": h})),
        (positive(), positive())
            .prop_map(|(r, h)| json!({"type": "capsule", "radius": r, "half_height": h})),
        (positive(), positive())
            .prop_map(|(r, h)| json!({"type": "cylinder", "radius": r, "half_height": h})),
        prop::collection::vec(vec3(), 0..8).prop_map(|p| json!({"type": "convex", "points": p})),
        (
            prop::collection::vec(vec3(), 0..5),
            prop::collection::vec(prop::collection::vec(index, 3), 0..4)
        )
            .prop_map(|(v, t)| json!({"type": "trimesh", "vertices": v, "triangles": t})),
        (
            prop::collection::vec(prop::collection::vec(number(), 0..4), 0..4),
            vec3()
        )
            .prop_map(|(h, s)| json!({"type": "heightfield", "heights": h, "scale": s})),
        (vec3(), number()).prop_map(|(n, d)| json!({"type": "plane", "normal": n, "d": d})),
    ]
    .boxed()
}

/// The lines that declare the world: shapes, bodies, colliders.
fn declaration() -> BoxedStrategy<Value> {
    let motion = prop::sample::select(vec!["dynamic", "kinematic", "fixed", "flying"]);
    prop_oneof![
        (id(), shape()).prop_map(|(i, s)| json!({"kind": "shape", "id": i, "shape": s})),
        (id(), motion).prop_map(|(i, m)| json!({"kind": "body", "id": i, "motion": m})),
        (id(), id(), id(), pose()).prop_map(|(i, b, s, p)| json!({
            "kind": "collider", "id": format!("c{i}"), "body": b, "shape": s, "pose": p})),
    ]
    .boxed()
}

/// A line inside a frame.
fn step_line() -> BoxedStrategy<Value> {
    let collider = || id().prop_map(|i| json!(format!("c{}", i.to_string().trim_matches('"'))));
    prop_oneof![
        4 => (id(), pose(), vec3(), vec3()).prop_map(|(b, p, v, w)| json!({
            "kind": "state", "body": b, "pose": p, "linvel": v, "angvel": w})),
        2 => (collider(), collider(), any::<bool>())
            .prop_map(|(a, b, t)| json!({"kind": "pair", "a": a, "b": b, "touching": t})),
        3 => (collider(), collider(), vec3(), vec3(), number()).prop_map(|(a, b, p, n, d)| json!({
            "kind": "contact", "a": a, "b": b, "position": p, "normal": n, "distance": d,
            "normal_impulse": 0.1})),
        1 => (id(), number()).prop_map(|(b, v)| json!({
            "kind": "event", "stage": "ccd", "label": "toi", "bodies": [b], "values": {"toi": v}})),
        1 => id().prop_map(|i| json!({"kind": "remove", "id": i})),
    ]
    .boxed()
}

fn stream() -> BoxedStrategy<String> {
    let header = prop_oneof![
        6 => Just(json!({"kind": "header", "format": "collidoscope-capture", "version": 1,
            "engine": "generated", "dt_s": 0.016})),
        1 => (number(), vec3(), number()).prop_map(|(dt, g, unit)| json!({"kind": "header",
            "format": "collidoscope-capture", "version": 1, "engine": "generated", "dt_s": dt,
            "gravity": g, "length_unit_m": unit})),
    ];
    let frame_number = prop_oneof![8 => 0i64..6, 1 => Just(i64::MAX), 1 => Just(-1i64)];
    let frame = (
        frame_number,
        number(),
        prop::collection::vec(step_line(), 0..8),
    )
        .prop_map(|(n, t, lines)| {
            let mut out = vec![json!({"kind": "frame", "frame": n, "time_s": t})];
            out.extend(lines);
            out.push(json!({"kind": "end_frame"}));
            out
        });
    (
        header,
        prop::collection::vec(declaration(), 0..10),
        prop::collection::vec(frame, 0..5),
    )
        .prop_map(|(h, decls, frames)| {
            let mut text = format!("{h}\n");
            for d in decls {
                text.push_str(&format!("{d}\n"));
            }
            for line in frames.into_iter().flatten() {
                text.push_str(&format!("{line}\n"));
            }
            text
        })
        .boxed()
}

fn run(text: &str, audited: bool) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("gen.cdrec");
    let ends = text.matches("\"end_frame\"").count();
    let report = ingest(
        &mut Cursor::new(text.as_bytes()),
        &out,
        WriterOptions::default(),
        &mut |_| {},
    );
    let Ok(report) = report else {
        return;
    };
    for skipped in &report.stream.skipped {
        let said = format!("{skipped:?}");
        assert!(said.len() < 2_000, "{} bytes: {}", said.len(), &said[..300]);
    }
    let reader = match RecordingReader::open(&out) {
        Ok(r) => r,
        Err(e) => panic!("the recording of an ingested stream does not open: {e}"),
    };
    assert!(
        reader.len() <= ends,
        "{} frames from {ends} ends",
        reader.len()
    );
    for pos in 0..reader.len() {
        if let Err(e) = reader.frame(pos) {
            panic!("frame {pos} of an ingested stream does not decode: {e}");
        }
    }
    if audited && let Err(e) = audit(&reader, AuditOptions::default()) {
        assert!(!e.to_string().is_empty());
    }
}

proptest! {
    #![proptest_config(generated_cases())]

    #[test]
    fn generated_streams_ingest_replay_and_audit_without_panic(
        text in stream(),
        audited in any::<bool>(),
    ) {
        timed_case_of("capture stream", &text, || run(&text, audited));
    }
}
