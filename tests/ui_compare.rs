//! Two runs compared in the viewer (state headless, then the app through egui_kittest): run B
//! opens beside recording A at the frame `collidoscope diff` names; the diff list of a frame
//! is what a brute-force comparison of the decoded frames finds; a row selects what it names;
//! a bad B, a cut B, another scene or time step, and a live A each get a message, not a
//! panic; `collidoscope A --compare B` opens the same.

use super::diff_runs::record;
use crate::ui_harness::settle;
use collidoscope::app::state::comparing::CompareCommand;
use collidoscope::app::state::loader::{LoadOptions, LoadRequest};
use collidoscope::app::state::{AppState, Command, Level, Selection};
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::diff::{Key, STAGES, Tolerance};
use collidoscope::record::{Frame, RecordingReader};
use collidoscope::scene::Scene;
use collidoscope::trace::DiffRole;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The capsule pile of `assets/scenes` (the scene the screenshot compares too).
fn pile() -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenes/capsule-pile.ron");
    Scene::load(&path).expect("the capsule pile")
}

/// The pile with one moving body given its own, bouncier material.
fn bouncier(a: &Scene) -> Scene {
    let mut b = a.clone();
    let body = b
        .bodies
        .iter_mut()
        .rev()
        .find(|d| !d.fixed)
        .expect("a moving body");
    let mut bouncy = body
        .material
        .as_ref()
        .and_then(|m| a.materials.iter().find(|x| &x.name == m))
        .cloned()
        .unwrap_or_default();
    bouncy.name = "bouncy".into();
    bouncy.restitution = if bouncy.restitution > 0.5 { 0.1 } else { 0.95 };
    body.material = Some(bouncy.name.clone());
    b.materials.push(bouncy);
    b
}

/// Recordings A (the pile) and B (one body bouncier), 90 steps each.
fn two_runs(dir: &Path) -> (PathBuf, PathBuf) {
    let a = pile();
    (
        record(&a, 90, &dir.join("a.cdrec")),
        record(&bouncier(&a), 90, &dir.join("b.cdrec")),
    )
}

fn state() -> AppState {
    AppState::new(LoadOptions {
        trace_limit: 100_000,
        budget_bytes: 64 << 20,
    })
}

fn comparing(a: &Path, b: &Path) -> AppState {
    let mut st = state();
    assert!(st.open_blocking(LoadRequest::Path(a.to_path_buf())));
    assert!(
        st.compare_blocking(b.to_path_buf()),
        "{:?}",
        st.last_message()
    );
    st
}

fn last_error(st: &AppState) -> String {
    let m = st.last_message().expect("a message");
    assert_eq!(m.level, Level::Error, "{}", m.text);
    m.text.clone()
}

#[test]
fn a_compare_opens_at_the_frame_the_cli_diff_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let st = comparing(&a, &b);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .arg("--json")
        .output()
        .expect("run diff");
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let first = json["first_divergent_frame"].as_u64().expect("a frame");
    let c = st.compare.as_ref().expect("a comparison");
    assert_eq!(c.tolerance, Tolerance::Bitwise);
    assert_eq!(c.divergence, Some(first as usize));
    assert_eq!(st.playhead.frame, first as usize, "opens at the divergence");
    assert_eq!(st.current_frame().map(|f| f.index), Some(first));
    let shown = c.shown.as_ref().expect("the shown frame compared");
    assert_eq!(shown.b.as_ref().map(|f| f.index), Some(first));
    let row = &shown.rows[0].difference;
    assert_eq!(row.stage, json["stage"]);
    assert_eq!(row.what, json["what"]);
    // The frame before agrees.
    let mut st = st;
    st.apply(Command::StepFrames(-1));
    let shown = st
        .compare
        .as_ref()
        .and_then(|c| c.shown.as_ref())
        .expect("shown");
    assert!(shown.rows.is_empty() && shown.differing.is_empty());
}

/// What a brute-force comparison finds differs in a frame: per stage, whether anything does;
/// the bodies whose state differs; the pairs whose contacts differ.
struct Brute {
    stages: [bool; 5],
    bodies: BTreeSet<u32>,
    contact_pairs: BTreeSet<(u32, u32)>,
}

fn brute_force(a: &Frame, b: &Frame) -> Brute {
    let lists = |f: &Frame| {
        let mut pairs = Vec::new();
        let mut impulses = Vec::new();
        let mut events = Vec::new();
        for e in &f.trace {
            match e.kind_diff_role() {
                DiffRole::Pair { a, b } => pairs.push(format!("{}-{}", a.min(b), a.max(b))),
                DiffRole::Impulse { a, b, values, .. } => {
                    impulses.push(format!("{a}-{b}:{values:?}"))
                }
                DiffRole::Event => events.push(format!("{e:?}")),
            }
        }
        let contacts = f.contacts.iter().map(|c| format!("{c:?}")).collect();
        let bodies = f.bodies.iter().map(|b| format!("{b:?}")).collect();
        let mut all: [Vec<String>; 5] = [pairs, contacts, impulses, events, bodies];
        for l in &mut all {
            l.sort();
            l.dedup();
        }
        all
    };
    let (la, lb) = (lists(a), lists(b));
    let mut stages = [false; 5];
    for (s, slot) in stages.iter_mut().enumerate() {
        *slot = la[s] != lb[s];
    }
    let state = |f: &Frame| -> BTreeMap<u32, String> {
        f.bodies.iter().map(|s| (s.id, format!("{s:?}"))).collect()
    };
    let (sa, sb) = (state(a), state(b));
    let bodies = sa
        .keys()
        .chain(sb.keys())
        .filter(|id| sa.get(id) != sb.get(id))
        .copied()
        .collect();
    let by_pair = |f: &Frame| -> BTreeMap<(u32, u32), Vec<String>> {
        let mut m: BTreeMap<(u32, u32), Vec<String>> = BTreeMap::new();
        for c in &f.contacts {
            m.entry((c.a, c.b)).or_default().push(format!("{c:?}"));
        }
        m
    };
    let (ca, cb) = (by_pair(a), by_pair(b));
    let contact_pairs = ca
        .keys()
        .chain(cb.keys())
        .filter(|p| ca.get(p) != cb.get(p))
        .copied()
        .collect();
    Brute {
        stages,
        bodies,
        contact_pairs,
    }
}

#[test]
fn the_diff_list_of_a_frame_is_what_brute_force_finds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let mut st = comparing(&a, &b);
    let first = st.playhead.frame;
    let (ra, rb) = (
        RecordingReader::open(&a).expect("a"),
        RecordingReader::open(&b).expect("b"),
    );
    let mut checked_bodies = false;
    for pos in [first, first + 1, first + 5, ra.len() - 1] {
        st.apply(Command::SeekFrame(pos));
        let (fa, fb) = (ra.frame(pos).expect("a"), rb.frame(pos).expect("b"));
        let expected = brute_force(&fa, &fb);
        let shown = st
            .compare
            .as_ref()
            .and_then(|c| c.shown.as_ref())
            .expect("shown");
        let rows: Vec<_> = shown.rows.iter().map(|r| &r.difference).collect();
        let stage_of = |s: &str| STAGES.iter().position(|x| *x == s).expect("a stage");
        // Pipeline order, each item once.
        assert!(
            rows.windows(2)
                .all(|w| stage_of(w[0].stage) <= stage_of(w[1].stage))
        );
        let keys: BTreeSet<String> = rows.iter().map(|d| format!("{:?}", d.key)).collect();
        assert_eq!(keys.len(), rows.len(), "frame {pos}: an item listed twice");
        for (s, differs) in expected.stages.iter().enumerate() {
            let listed = rows.iter().any(|d| stage_of(d.stage) == s);
            assert_eq!(listed, *differs, "frame {pos}, stage {}", STAGES[s]);
        }
        let bodies: BTreeSet<u32> = rows
            .iter()
            .filter_map(|d| match d.key {
                Key::Body(b) => Some(b),
                _ => None,
            })
            .collect();
        assert_eq!(bodies, expected.bodies, "frame {pos}: the bodies");
        checked_bodies |= !bodies.is_empty();
        let pairs: BTreeSet<(u32, u32)> = rows
            .iter()
            .filter_map(|d| match d.key {
                Key::Contact(a, b, _) => Some((a, b)),
                _ => None,
            })
            .collect();
        assert_eq!(pairs, expected.contact_pairs, "frame {pos}: the contacts");
        // The list's first row is what `diff` reports first for the frame.
        let names = &ra.header().body_names;
        let first_d = collidoscope::diff::first_difference(&fa, &fb, Tolerance::Bitwise, names);
        assert_eq!(rows.first().copied(), first_d.as_ref(), "frame {pos}");
        // Every body a row names is highlighted.
        let named: BTreeSet<u32> = rows.iter().flat_map(|d| d.key.bodies()).collect();
        assert_eq!(named, shown.differing);
    }
    assert!(checked_bodies, "some checked frame has bodies that differ");
}

#[test]
fn a_row_selects_what_it_names_in_both_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let mut st = comparing(&a, &b);
    let rows = st
        .compare
        .as_ref()
        .and_then(|c| c.shown.as_ref())
        .map(|s| s.rows.clone())
        .expect("rows");
    let with_event = rows
        .iter()
        .position(|r| r.a_event.is_some())
        .expect("a row naming a trace event");
    st.apply(Command::Compare(CompareCommand::Focus(with_event)));
    let row = &rows[with_event];
    assert_eq!(st.playhead.event, row.a_event);
    assert_eq!(Some(st.selection), row.selection());
    // The event stepped to is the one the row names: its bodies are the row's.
    let (_, e) = st.current_event().expect("an event");
    let mut named = row.difference.key.bodies();
    let mut bodies = e.bodies();
    named.sort();
    bodies.sort();
    assert_eq!(bodies, named);
    let c = st.compare.as_ref().expect("compare");
    assert_eq!(c.focus, Some(with_event));
    // A body row selects the body.
    if let Some(i) = rows
        .iter()
        .position(|r| matches!(r.difference.key, Key::Body(_)))
    {
        st.apply(Command::Compare(CompareCommand::Focus(i)));
        assert!(matches!(st.selection, Selection::Body(_)));
        assert_eq!(st.playhead.event, None);
    }
}

#[test]
fn a_looser_tolerance_compares_again_and_keeps_the_frame() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let mut st = comparing(&a, &b);
    let bitwise = st.compare.as_ref().and_then(|c| c.divergence);
    st.apply(Command::StepFrames(3));
    let at = st.playhead.frame;
    st.apply(Command::Compare(CompareCommand::Tolerance(
        Tolerance::Abs { abs: 1e9, rel: 0.0 },
    )));
    for _ in 0..2000 {
        st.tick(0.0);
        if st.comparing.is_none() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let c = st.compare.as_ref().expect("compare");
    assert!(matches!(c.tolerance, Tolerance::Abs { .. }));
    // Forgiving every number, the runs part later (where a contact is in one run only) or
    // not at all.
    assert!(c.divergence.is_none() || c.divergence >= bitwise);
    assert_ne!(c.divergence, bitwise, "{:?}", c.report.lines());
    assert_eq!(st.playhead.frame, at, "a new tolerance keeps the frame");
    let shown = c.shown.as_ref().expect("shown");
    // Pairs or events only one run has still differ whatever the tolerance; numbers do not.
    assert!(shown.rows.iter().all(|r| r.difference.a.is_none()));
}

#[test]
fn bad_runs_get_a_message_not_a_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let mut st = state();
    assert!(st.open_blocking(LoadRequest::Path(a.clone())));
    // Not a recording at all.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello\n").expect("write");
    assert!(!st.compare_blocking(text));
    assert!(last_error(&st).contains("neither a recording"));
    // A scene file.
    let scene = dir.path().join("pile.ron");
    std::fs::write(&scene, pile().to_ron()).expect("write");
    assert!(!st.compare_blocking(scene));
    assert!(last_error(&st).contains("a scene, not a run"));
    // Missing.
    assert!(!st.compare_blocking(dir.path().join("nope.cdrec")));
    assert!(last_error(&st).contains("nope.cdrec"));
    // Another scene: the bodies do not correspond.
    let other = collidoscope::world::builtin_scene("box-stack").expect("scene");
    let other = record(&other, 5, &dir.path().join("other.cdrec"));
    assert!(!st.compare_blocking(other));
    let e = last_error(&st);
    assert!(
        e.contains("bodies do not correspond") || e.contains("time steps differ"),
        "{e}"
    );
    // Another time step.
    let mut slow = pile();
    slow.solver.dt_s = 1.0 / 30.0;
    let slow = record(&slow, 5, &dir.path().join("slow.cdrec"));
    assert!(!st.compare_blocking(slow));
    assert!(last_error(&st).contains("time steps differ"));
    assert!(st.compare.is_none());
    // Cut short: what survives is compared, and the message says so.
    let bytes = std::fs::read(&b).expect("read");
    let cut = dir.path().join("cut.cdrec");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).expect("write");
    assert!(st.compare_blocking(cut.clone()), "{:?}", st.last_message());
    assert!(last_error(&st).contains("cut short"));
    let c = st.compare.as_ref().expect("compare");
    assert!(!c.report.notes.is_empty());
    assert!(c.report.frames_b < c.report.frames_a);
    // Past B's end the panel says B has no such frame.
    st.apply(Command::LastFrame);
    let shown = st
        .compare
        .as_ref()
        .and_then(|c| c.shown.as_ref())
        .expect("shown");
    assert!(shown.b.is_none());
    assert!(
        shown
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("no frame"))
    );
    // A live scene is no run A.
    let mut live = state();
    assert!(live.open_blocking(LoadRequest::Builtin("box-stack".into())));
    assert!(!live.compare_blocking(b));
    assert!(last_error(&live).contains("must be a recording"));
}

#[test]
fn compare_on_the_command_line_opens_b_beside_a() {
    use clap::Parser;
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let cli = collidoscope::cli::Cli::try_parse_from([
        "collidoscope".as_ref(),
        a.as_os_str(),
        "--compare".as_ref(),
        b.as_os_str(),
    ])
    .expect("parses");
    assert_eq!(cli.compare.as_deref(), Some(b.as_path()));
    assert!(
        collidoscope::cli::Cli::try_parse_from(["collidoscope", "--compare", "b.cdrec"]).is_err(),
        "--compare needs run A"
    );
    let (file, compare) = (cli.file.clone(), cli.compare.clone());
    let mut h = crate::ui_harness::app_with(
        [1600.0, 1000.0],
        StartOptions {
            file,
            compare,
            ..StartOptions::headless()
        },
    );
    let st = &h.state().state;
    let c = st.compare.as_ref().expect("B compared once A opened");
    let at = c.divergence.expect("they part");
    assert_eq!(st.playhead.frame, at);
    h.get_by_label("Compare runs");
    h.get_by_label_contains(&format!("Go to the divergence (frame {at})"));
    h.get_by_label_contains("B ≠ at frame");
    // The ghost: B's moving bodies, translucent, in the draw list; the differing ones outlined.
    let list = h.state().viewport.draw_list().clone();
    assert!(list.meshes.iter().any(|m| !m.translucent.is_empty()));
    assert!(list.labels.iter().any(|l| l.text.starts_with("≠ ")));
    // A row clicked in the panel selects what it names.
    let first = c.shown.as_ref().expect("shown").rows[0].clone();
    let stage = first.difference.stage;
    h.get_all_by_label_contains(&first.difference.what)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(stage))
        })
        .expect("the first row")
        .click();
    h.run_steps(3);
    let st = &h.state().state;
    assert_eq!(st.compare.as_ref().and_then(|c| c.focus), Some(0));
    assert_eq!(Some(st.selection), first.selection());
    if first.difference.a.is_some() {
        // A's and B's values side by side.
        h.get_by_label("field");
    }
}

#[test]
fn file_compare_with_opens_a_window_taking_a_typed_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = two_runs(dir.path());
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    assert!(h.state_mut().state.open_blocking(LoadRequest::Path(a)));
    h.run_steps(2);
    h.get_by_label("File").click();
    // Not `run`: a background load may keep a spinner turning under a busy machine.
    h.run_steps(3);
    h.get_by_label("Compare with…").click();
    h.run_steps(3);
    assert!(h.state().compare.window_open);
    h.state_mut().compare.path_text = b.display().to_string();
    h.run_steps(3);
    h.get_by_label("Compare").click();
    settle(&mut h);
    assert!(
        h.state().state.compare.is_some(),
        "{:?}",
        h.state().state.last_message()
    );
    h.get_by_label("Close").click();
    h.run_steps(2);
    assert!(h.state().state.compare.is_none());
}
