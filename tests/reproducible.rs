//! `record --reproducible`: two recordings of the same scene are the same bytes, for every
//! built-in scene, because nothing in them depends on the clock.

use collidoscope::record::RecordingReader;
use collidoscope::world::builtin_scenes;
use std::path::Path;
use std::process::Command;

const FRAMES: &str = "6";

fn record(scene: &str, out: &Path, reproducible: bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_collidoscope"));
    cmd.args(["record", "--scene", scene, "--frames", FRAMES, "-o"])
        .arg(out);
    if reproducible {
        cmd.arg("--reproducible");
    }
    let status = cmd.output().expect("the binary runs");
    assert!(
        status.status.success(),
        "{scene}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn two_reproducible_recordings_of_every_builtin_scene_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    for (name, _) in builtin_scenes() {
        let (a, b) = (dir.path().join("a.cdrec"), dir.path().join("b.cdrec"));
        record(name, &a, true);
        record(name, &b, true);
        let (bytes_a, bytes_b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert!(bytes_a == bytes_b, "{name}: the two recordings differ");
        let reader = RecordingReader::open(&a).unwrap();
        assert_eq!(reader.header().created_unix_ms, 0, "{name}");
        for i in 0..reader.len() {
            let f = reader.frame(i).unwrap();
            assert_eq!(f.timings, Default::default(), "{name} frame {i}");
        }
    }
}

/// Without the flag the file keeps when it was made and how long each stage took: the
/// flag, not an accident of the clock, is what makes the files equal.
#[test]
fn an_ordinary_recording_keeps_its_time_and_timings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("timed.cdrec");
    record("mixed-drop", &out, false);
    let reader = RecordingReader::open(&out).unwrap();
    assert!(reader.header().created_unix_ms > 1_700_000_000_000);
    let timed = (1..reader.len()).any(|i| reader.frame(i).unwrap().timings.total_s() > 0.0);
    assert!(timed, "no frame has a stage timing");
}
