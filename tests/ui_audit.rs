//! The audit of a captured run, in the viewer (egui_kittest, no display, no GL): a stream
//! with faults planted at known steps opens with exactly those findings counted and listed in
//! the captured run's panel, marked on the timeline at their steps; a click on a row goes to
//! its step, selects its pair and draws our contact beside the engine's with the sentence. A
//! clean stream says "0 findings".

use crate::audit_oracle::{ALL, stream, stream_of};
use crate::ui_capture::{options, tick_until};
use collidoscope::app::families::capture::audit_draw::FINDING_PX;
use collidoscope::app::state::loader::LoadRequest;
use collidoscope::app::state::{AppState, Selection};
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::audit::Check;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use std::time::{Duration, Instant};

/// What the planted faults give: each check at its step.
const PLANTED: [(u64, Check); 6] = [
    (3, Check::MissedContact),
    (4, Check::Depth),
    (5, Check::Normal),
    (7, Check::Tunnelling),
    (8, Check::NonFinite),
    (9, Check::BroadMiss),
];

fn harness_on(path: &Path) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size([1700.0, 1050.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Path(path.to_path_buf()))
    );
    // The scan and the audit run on worker threads; the UI ticks meanwhile.
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().state.is_busy() {
        assert!(Instant::now() < deadline, "the audit ends");
        // Not `run`: it fails when the UI keeps asking for repaints, as it does while busy.
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(4);
    h
}

fn open_stream(dir: &Path, text: &str) -> Harness<'static, CollidoscopeApp> {
    let path = dir.join("run.jsonl");
    std::fs::write(&path, text).expect("write the stream");
    harness_on(&path)
}

#[test]
fn planted_faults_are_listed_marked_and_a_row_goes_to_its_pair() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = open_stream(dir.path(), &stream(&ALL));
    assert!(h.state().settings.families.is_open("capture"));
    h.get_by_label("6 findings");
    // Counted per check, then one row per finding.
    for name in [
        "missed_contact 1",
        "depth 1",
        "normal 1",
        "tunnelling 1",
        "non_finite 1",
        "broad_miss 1",
    ] {
        h.get_by_label(name);
    }
    let rows = h.query_all_by_label_contains("step ").count();
    assert!(rows >= 6, "{rows} rows");
    h.get_by_label_contains("step 3 · missed_contact · body A · collider c-A – body B");
    h.get_by_label_contains("step 7 · tunnelling · body C");
    h.get_by_label_contains("step 8 · non_finite · body B");
    h.get_by_label_contains("step 9 · broad_miss");
    // The timeline's markers are the findings' steps.
    let session = h.state().state.session.as_ref().expect("a session");
    let audit = session.audit.as_ref().expect("the audit runs");
    let marked: Vec<(u64, Check)> = audit.findings.iter().map(|f| (f.frame, f.check)).collect();
    assert_eq!(marked, PLANTED.to_vec());
    // A click on the depth row: its step, its pair, both contacts drawn with the sentence.
    h.get_by_label(
        "step 4 · depth · body B · collider c-B – body E · collider c-E · 0.1000 m vs 0.0100 m (± 0.0050 m)",
    )
    .click();
    h.run_steps(4);
    let st = &h.state().state;
    assert_eq!(st.playhead.frame, 4, "the row goes to its step");
    assert_eq!(st.selection, Selection::pair(2, 3), "and selects B and E");
    let list = h.state().viewport.draw_list().clone();
    let dots = list
        .points
        .iter()
        .filter(|p| p.size_px == FINDING_PX)
        .count();
    assert_eq!(dots, 2, "ours and the engine's contact points");
    let labels: Vec<&str> = list.labels.iter().map(|l| l.text.as_str()).collect();
    assert!(labels.contains(&"ours: depth 0.1000 m"), "{labels:?}");
    assert!(labels.contains(&"engine: depth 0.0100 m"), "{labels:?}");
    assert!(
        labels
            .iter()
            .any(|l| l.contains("deepest contact is 0.0100 m deep, ours 0.1000 m")),
        "the sentence is a label: {labels:?}"
    );
    h.get_by_label_contains("▲ depth: ");
    // The step timeline says where our narrow phase ran on the pair, and what it found.
    h.get_by_label_contains(
        "◆ our narrow phase on body B · collider c-B – body E · collider c-E ran here \
         (the engine recorded no events in this step): sphere-sphere",
    );
    h.get_by_label("Our narrow phase");
    let audit = h
        .state()
        .state
        .session
        .as_ref()
        .and_then(|s| s.audit.as_ref());
    let depth = audit
        .and_then(|a| a.findings.iter().find(|f| f.check == Check::Depth))
        .expect("the depth finding");
    let summaries: Vec<String> = depth.our_trace.iter().map(|e| e.summary()).collect();
    assert_eq!(
        summaries.len(),
        2,
        "the test and its one point: {summaries:?}"
    );
    assert!(summaries[0].contains("1 contact"), "{summaries:?}");
}

#[test]
fn a_click_beside_a_findings_marker_goes_to_its_step() {
    // 1,000 steps on a 1,700-point strip: markers sit under two pixels apart, and a click
    // a few pixels off still lands on the finding rather than on the frame under it.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = open_stream(dir.path(), &stream_of(&ALL, 1000));
    assert_eq!(h.state().state.frame_count(), 1000);
    let strip = h.get_by_label("Frame scrubber").rect();
    let track = strip.shrink2(egui::vec2(6.0, 4.0));
    let x = track.left() + track.width() * 9.0 / 999.0 + 4.0;
    let at = egui::pos2(x, track.bottom() - 2.0);
    h.hover_at(at);
    h.drag_at(at);
    h.drop_at(at);
    h.run_steps(4);
    assert_eq!(
        h.state().state.playhead.frame,
        9,
        "the broad-phase miss at step 9, not the frame under the pointer"
    );
}

#[test]
fn a_live_run_is_audited_as_its_steps_arrive() {
    use std::io::Write;
    let mut st = AppState::new(options());
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = socket.local_addr().expect("addr");
    st.listen(socket).expect("listen");
    let mut engine = std::net::TcpStream::connect(addr).expect("connect");
    engine
        .write_all(stream(&ALL).as_bytes())
        .expect("stream the run");
    drop(engine);
    tick_until(&mut st, "every step audited", |s| {
        s.session
            .as_ref()
            .and_then(|s| s.audit.as_ref())
            .is_some_and(|a| a.steps == 11 && !a.is_working())
    });
    let audit = st.session.as_ref().and_then(|s| s.audit.as_ref());
    let found: Vec<(u64, Check)> = audit
        .expect("audited")
        .findings
        .iter()
        .map(|f| (f.frame, f.check))
        .collect();
    assert_eq!(found, PLANTED.to_vec(), "the same findings as the file's");
}

#[test]
fn a_clean_stream_has_no_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = open_stream(dir.path(), &stream(&[]));
    h.get_by_label("0 findings");
    h.get_by_label_contains("No finding at this step");
}

#[test]
fn the_screenshots_stream_is_the_oracles() {
    // scripts/screenshots.sh (audit-finding) opens this file: it must stay the planted stream.
    let fixture = std::fs::read_to_string("tests/fixtures/capture/planted-faults.jsonl")
        .expect("the fixture");
    assert!(
        fixture == stream(&ALL),
        "regenerate it from audit_oracle::stream(&ALL)"
    );
}
