//! The audit of a captured run against streams with faults planted at known steps: each
//! fault is found at its step, naming the engine's ids, and nothing else is reported. The
//! geometry is spheres and boxes placed so the true overlaps are known by hand.

use collidoscope::audit::{AuditOptions, AuditReport, Check, audit};
use collidoscope::record::{RecordingReader, WriterOptions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const STEPS: u64 = 11;

fn pose(t: [&str; 3]) -> String {
    format!(
        "{{\"translation\":[{},{},{}],\"rotation\":[1,0,0,0]}}",
        t[0], t[1], t[2]
    )
}

fn state(body: &str, t: [&str; 3], linvel: [f64; 3]) -> String {
    format!(
        "{{\"kind\":\"state\",\"body\":\"{body}\",\"pose\":{},\"linvel\":[{},{},{}],\"angvel\":[0,0,0]}}",
        pose(t),
        linvel[0],
        linvel[1],
        linvel[2]
    )
}

fn contact(a: &str, b: &str, at: [f64; 3], normal: [f64; 3], distance: f64) -> String {
    format!(
        "{{\"kind\":\"contact\",\"a\":\"c-{a}\",\"b\":\"c-{b}\",\"position\":[{},{},{}],\"normal\":[{},{},{}],\"distance\":{distance}}}",
        at[0], at[1], at[2], normal[0], normal[1], normal[2]
    )
}

fn pair(a: &str, b: &str) -> String {
    format!("{{\"kind\":\"pair\",\"a\":\"c-{a}\",\"b\":\"c-{b}\"}}")
}

/// What goes wrong, and at which step.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Fault {
    /// Step 3: B sits 0.8 m above A (two 0.5 m spheres overlap by 0.2 m); no contact.
    Missed,
    /// Step 4: E overlaps B by 0.1 m; the engine says 0.01 m.
    ShallowDepth,
    /// Step 5: the same overlap, the normal turned by 30°.
    TurnedNormal,
    /// Between steps 6 and 7: the small fast ball C jumps through the thin wall D.
    Tunnel,
    /// Step 8: B's position is NaN.
    NotANumber,
    /// Step 9: E touches A and the broad phase does not report the pair.
    UnreportedPair,
}

pub(crate) const ALL: [Fault; 6] = [
    Fault::Missed,
    Fault::ShallowDepth,
    Fault::TurnedNormal,
    Fault::Tunnel,
    Fault::NotANumber,
    Fault::UnreportedPair,
];

/// A ground box, a sphere A resting on it, spheres B and E in the air, a thin fixed wall D
/// and a small ball C flying at it at 600 m/s: every step reports A's contact with the ground
/// and every pair whose boxes overlap, except where a fault says otherwise.
pub(crate) fn stream(faults: &[Fault]) -> String {
    stream_of(faults, STEPS)
}

/// The same run, `steps` long (the faults stay at their steps).
pub(crate) fn stream_of(faults: &[Fault], steps: u64) -> String {
    let has = |f: Fault| faults.contains(&f);
    let mut lines = vec![
        r#"{"kind":"header","format":"collidoscope-capture","version":1,"engine":"planted 1.0","dt_s":0.016666666666666666,"gravity":[0,0,0],"penetration_tolerance_m":0.5,"captures":["states","velocities","pairs","contacts"]}"#.to_string(),
        r#"{"kind":"shape","id":"ground","shape":{"type":"cuboid","half_extents":[10,0.5,10]}}"#.into(),
        r#"{"kind":"shape","id":"ball","shape":{"type":"sphere","radius":0.5}}"#.into(),
        r#"{"kind":"shape","id":"bullet","shape":{"type":"sphere","radius":0.1}}"#.into(),
        r#"{"kind":"shape","id":"wall","shape":{"type":"cuboid","half_extents":[1,1,0.05]}}"#.into(),
    ];
    for (body, motion, shape) in [
        ("ground", "fixed", "ground"),
        ("A", "dynamic", "ball"),
        ("B", "dynamic", "ball"),
        ("E", "dynamic", "ball"),
        ("C", "dynamic", "bullet"),
        ("D", "fixed", "wall"),
    ] {
        lines.push(format!(
            "{{\"kind\":\"body\",\"id\":\"{body}\",\"motion\":\"{motion}\"}}"
        ));
        lines.push(format!(
            "{{\"kind\":\"collider\",\"id\":\"c-{body}\",\"body\":\"{body}\",\"shape\":\"{shape}\"}}"
        ));
    }
    for step in 0..steps {
        lines.push(format!(
            "{{\"kind\":\"frame\",\"frame\":{step},\"time_s\":{}}}",
            step as f64 / 60.0
        ));
        lines.extend(step_lines(step, &has));
        lines.push(r#"{"kind":"end_frame"}"#.into());
    }
    lines.join("\n") + "\n"
}

fn step_lines(step: u64, has: &dyn Fn(Fault) -> bool) -> Vec<String> {
    let fly = [0.0, 0.0, -600.0];
    let still = [0.0; 3];
    let b = match step {
        3 if has(Fault::Missed) => ["0", "1.3", "0"],
        8 if has(Fault::NotANumber) => ["\"NaN\"", "2", "0"],
        _ => ["3", "2", "0"],
    };
    let e = match step {
        4 if has(Fault::ShallowDepth) => ["3", "2.9", "0"],
        5 if has(Fault::TurnedNormal) => ["3", "2.9", "0"],
        9 if has(Fault::UnreportedPair) => ["0", "1.5", "0"],
        _ => ["3", "5", "0"],
    };
    let c_z = if has(Fault::Tunnel) && step >= 7 {
        "-5"
    } else {
        "5"
    };
    let mut out = vec![
        state("ground", ["0", "-0.5", "0"], still),
        state("A", ["0", "0.5", "0"], still),
        state("B", b, still),
        state("E", e, still),
        state("C", ["20", "1", c_z], fly),
        state("D", ["20", "1", "0"], still),
        pair("ground", "A"),
        contact("ground", "A", [0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.0),
    ];
    if step == 3 && has(Fault::Missed) {
        out.push(pair("A", "B"));
    }
    if (step == 4 && has(Fault::ShallowDepth)) || (step == 5 && has(Fault::TurnedNormal)) {
        out.push(pair("B", "E"));
        let (normal, distance) = if step == 4 {
            ([0.0, 1.0, 0.0], -0.01)
        } else {
            let t = 30f64.to_radians();
            ([-t.sin(), t.cos(), 0.0], -0.1)
        };
        out.push(contact("B", "E", [3.0, 2.45, 0.0], normal, distance));
    }
    out
}

fn ingest(text: &str, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.cdrec"));
    let report = collidoscope::capture::ingest(
        &mut std::io::Cursor::new(text.as_bytes()),
        &path,
        WriterOptions::default(),
        &mut |_| {},
    )
    .expect("the stream ingests");
    assert!(
        report.stream.skipped.is_empty(),
        "{:?}",
        report.stream.skipped
    );
    path
}

fn run(faults: &[Fault], options: AuditOptions) -> AuditReport {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = ingest(&stream(faults), dir.path(), "run");
    let reader = RecordingReader::open(&path).expect("the recording opens");
    audit(&reader, options).expect("the audit runs")
}

/// What each fault must produce: the check, the engine's step, and the bodies named.
fn expected(fault: Fault) -> (Check, u64, [&'static str; 2]) {
    match fault {
        Fault::Missed => (Check::MissedContact, 3, ["body A", "body B"]),
        Fault::ShallowDepth => (Check::Depth, 4, ["body B", "body E"]),
        Fault::TurnedNormal => (Check::Normal, 5, ["body B", "body E"]),
        Fault::Tunnel => (Check::Tunnelling, 7, ["body C", "body D"]),
        Fault::NotANumber => (Check::NonFinite, 8, ["body B", ""]),
        Fault::UnreportedPair => (Check::BroadMiss, 9, ["body A", "body E"]),
    }
}

type Seen = BTreeSet<(Check, u64, Vec<String>)>;

fn seen(report: &AuditReport) -> Seen {
    report
        .findings
        .iter()
        .map(|f| {
            let bodies = f
                .engine_ids
                .iter()
                .map(|id| id.split(" · ").next().unwrap_or_default().to_string())
                .collect();
            (f.check, f.engine_frame, bodies)
        })
        .collect()
}

fn want(faults: &[Fault]) -> Seen {
    faults
        .iter()
        .map(|f| {
            let (check, step, names) = expected(*f);
            let bodies = names
                .iter()
                .filter(|n| !n.is_empty())
                .map(|n| n.to_string())
                .collect();
            (check, step, bodies)
        })
        .collect()
}

#[test]
fn a_run_without_faults_has_no_findings() {
    let report = run(&[], AuditOptions::default());
    assert!(report.passed(), "{:#?}", report.findings);
    assert_eq!(report.steps, STEPS);
    assert!(report.pairs_checked >= STEPS, "{}", report.pairs_checked);
}

#[test]
fn each_planted_fault_is_found_alone_at_its_step() {
    for fault in ALL {
        let report = run(&[fault], AuditOptions::default());
        assert_eq!(seen(&report), want(&[fault]), "{:#?}", report.findings);
    }
}

#[test]
fn all_faults_at_once_are_found_and_nothing_else() {
    let report = run(&ALL, AuditOptions::default());
    assert_eq!(seen(&report), want(&ALL), "{:#?}", report.findings);
    let depth = report
        .findings
        .iter()
        .find(|f| f.check == Check::Depth)
        .expect("the depth finding");
    assert!((depth.ours.expect("ours") - 0.1).abs() < 1e-9);
    assert!((depth.theirs.expect("theirs") - 0.01).abs() < 1e-12);
    let normal = report
        .findings
        .iter()
        .find(|f| f.check == Check::Normal)
        .expect("the normal finding");
    assert!((normal.theirs.expect("the angle") - 30.0).abs() < 1e-6);
    let missed = report
        .findings
        .iter()
        .find(|f| f.check == Check::MissedContact)
        .expect("the missed contact");
    assert!((missed.ours.expect("ours") - 0.2).abs() < 1e-9);
}

#[test]
fn tolerances_and_switches_are_the_users() {
    let loose = AuditOptions {
        depth_tolerance_m: 0.1,
        normal_tolerance_deg: 31.0,
        ..AuditOptions::default()
    };
    let report = run(&[Fault::ShallowDepth, Fault::TurnedNormal], loose);
    assert!(report.passed(), "{:#?}", report.findings);
    let off = AuditOptions {
        off: vec![Check::Tunnelling, Check::BroadMiss],
        ..AuditOptions::default()
    };
    let report = run(&[Fault::Tunnel, Fault::UnreportedPair, Fault::Missed], off);
    assert_eq!(seen(&report), want(&[Fault::Missed]));
}

fn validate(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("validate")
        .args(args)
        .output()
        .expect("validate runs")
}

#[test]
fn validate_audits_a_stream_and_exits_one_on_findings() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let clean = dir.path().join("clean.jsonl");
    let faulty = dir.path().join("faulty.jsonl");
    std::fs::write(&clean, stream(&[])).expect("write");
    std::fs::write(&faulty, stream(&ALL)).expect("write");
    let out = validate(&[clean.to_str().expect("path")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("audited, not re-simulated"), "{text}");
    assert!(text.contains("0 findings"), "{text}");
    let out = validate(&[faulty.to_str().expect("path"), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(ALL.len()));
    assert_eq!(json["counts"]["depth"], 1);
    assert_eq!(json["counts"]["missed_contact"], 1);
    assert!(json["per_pair"].as_array().is_some_and(|p| !p.is_empty()));
    let out = validate(&[faulty.to_str().expect("path"), "--off", "depth,nonsense"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no check named"));
}

/// Two spheres at a generated distance, the engine's reported depth off by a generated error
/// (or no contact at all): the audit's verdict is what the spheres' exact overlap, worked out
/// here by hand, says.
fn two_spheres(ra: f64, rb: f64, gap: f64, reported: Option<f64>) -> String {
    let (ya, yb) = (0.0, ra + rb + gap);
    let mut lines = vec![
        r#"{"kind":"header","format":"collidoscope-capture","version":1,"engine":"generated","dt_s":0.01,"gravity":[0,0,0],"penetration_tolerance_m":10}"#.to_string(),
        format!(r#"{{"kind":"shape","id":"a","shape":{{"type":"sphere","radius":{ra}}}}}"#),
        format!(r#"{{"kind":"shape","id":"b","shape":{{"type":"sphere","radius":{rb}}}}}"#),
    ];
    for body in ["a", "b"] {
        lines.push(format!(
            "{{\"kind\":\"body\",\"id\":\"{body}\",\"motion\":\"dynamic\"}}"
        ));
        lines.push(format!(
            "{{\"kind\":\"collider\",\"id\":\"c-{body}\",\"body\":\"{body}\",\"shape\":\"{body}\"}}"
        ));
    }
    lines.push(r#"{"kind":"frame","frame":0,"time_s":0}"#.into());
    lines.push(state("a", ["0", &ya.to_string(), "0"], [0.0; 3]));
    lines.push(state("b", ["0", &yb.to_string(), "0"], [0.0; 3]));
    if let Some(depth) = reported {
        lines.push(contact("a", "b", [0.0, ra, 0.0], [0.0, 1.0, 0.0], -depth));
    }
    lines.push(r#"{"kind":"end_frame"}"#.into());
    lines.join("\n") + "\n"
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        24 * super::test_scale::scale()
    ))]
    #[test]
    fn depth_and_missed_verdicts_follow_the_exact_overlap(
        ra in 0.05..2.0f64,
        rb in 0.05..2.0f64,
        overlap in -0.05..0.3f64,
        error in -0.05..0.05f64,
        reported in proptest::bool::ANY,
    ) {
        let tol = collidoscope::audit::DEFAULT_DEPTH_TOLERANCE_M;
        // Verdicts within rounding of a tolerance are not asked for.
        proptest::prop_assume!((error.abs() - tol).abs() > 1e-9 && (overlap - tol).abs() > 1e-9);
        // An overlap past the radii's sum would carry b's centre through a's: the spheres
        // would part again on the far side and `overlap` would no longer be their overlap.
        proptest::prop_assume!(overlap < ra + rb - 1e-9);
        let dir = tempfile::tempdir().expect("a temporary directory");
        let text = two_spheres(ra, rb, -overlap, reported.then_some(overlap + error));
        let path = ingest(&text, dir.path(), "pair");
        let reader = RecordingReader::open(&path).expect("the recording opens");
        let report = audit(&reader, AuditOptions::default()).expect("the audit runs");
        let checks: Vec<Check> = report.findings.iter().map(|f| f.check).collect();
        let mut want = Vec::new();
        let deepest = overlap.max(overlap + error);
        if reported && overlap > -tol && deepest > 0.0 && error.abs() > tol {
            want.push(Check::Depth);
        }
        if reported && overlap < -tol {
            want.push(Check::ApartContact);
        }
        if !reported && overlap > tol {
            want.push(Check::MissedContact);
        }
        proptest::prop_assert_eq!(checks, want, "overlap {} error {}", overlap, error);
    }
}

/// A live run that declares more colliders hands the auditor a new scene mid-run: the check
/// spanning two steps goes on across it, so a tunnel between the step before and the step
/// after is still found (a new auditor would have started over and missed it).
#[test]
fn a_new_scene_mid_run_keeps_the_tunnelling_check_going() {
    use collidoscope::audit::Auditor;
    use collidoscope::scene::Scene;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = ingest(&stream(&ALL), dir.path(), "run");
    let reader = RecordingReader::open(&path).expect("the recording opens");
    let scene = || Scene::from_ron(&reader.header().scene_ron, &path).expect("the scene");
    let mut auditor = Auditor::new(scene(), &path, AuditOptions::default()).expect("captured");
    let mut report = AuditReport::new(auditor.engine(), auditor.prediction_m(), auditor.options());
    for pos in 0..reader.len() {
        if pos == 7 {
            auditor.rescene(scene(), &path).expect("the grown scene");
        }
        auditor.step(&reader.frame(pos).expect("a frame"), &mut report);
    }
    assert_eq!(seen(&report), want(&ALL));
}

/// A box sunk 0.2 m into a flat height field of 38,642 triangles meets more of them than one
/// pair tests (`narrow::thinning`): the engine's missing contact is still found, and the
/// finding says that our side of it comes from a sample.
#[test]
fn a_finding_on_a_sampled_pair_says_so() {
    let n = 140;
    let row = format!("[{}]", vec!["0"; n].join(","));
    let heights = format!("[{}]", vec![row; n].join(","));
    let mut lines = vec![
        r#"{"kind":"header","format":"collidoscope-capture","version":1,"engine":"generated","dt_s":0.01,"gravity":[0,0,0],"penetration_tolerance_m":10}"#.to_string(),
        format!(r#"{{"kind":"shape","id":"ground","shape":{{"type":"heightfield","heights":{heights},"scale":[20,1,20]}}}}"#),
        r#"{"kind":"shape","id":"slab","shape":{"type":"cuboid","half_extents":[9.9,0.5,9.9]}}"#.to_string(),
        r#"{"kind":"body","id":"ground","motion":"fixed"}"#.to_string(),
        r#"{"kind":"body","id":"slab","motion":"dynamic"}"#.to_string(),
    ];
    for body in ["ground", "slab"] {
        lines.push(format!(
            "{{\"kind\":\"collider\",\"id\":\"c-{body}\",\"body\":\"{body}\",\"shape\":\"{body}\"}}"
        ));
    }
    lines.push(r#"{"kind":"frame","frame":0,"time_s":0}"#.into());
    lines.push(state("ground", ["0", "0", "0"], [0.0; 3]));
    lines.push(state("slab", ["0", "0.3", "0"], [0.0; 3]));
    lines.push(pair("ground", "slab"));
    lines.push(r#"{"kind":"end_frame"}"#.into());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = ingest(&(lines.join("\n") + "\n"), dir.path(), "sampled");
    let reader = RecordingReader::open(&path).expect("the recording opens");
    let report = audit(&reader, AuditOptions::default()).expect("the audit runs");
    let missed: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.check == Check::MissedContact)
        .collect();
    assert_eq!(missed.len(), 1, "{:?}", report.findings);
    let depth = missed[0].ours.expect("our depth");
    assert!((depth - 0.2).abs() < 1e-9, "{depth}");
    let said = &missed[0].sentence;
    assert!(
        said.contains("our contacts are approximate") && said.contains("triangles tested"),
        "{said}"
    );
}
