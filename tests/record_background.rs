//! The recording writer's own thread: a failing disk is reported, not a panic, and what was
//! written before the failure stays readable.

use collidoscope::record::{
    BackgroundWriter, Frame, RecordingMeta, RecordingReader, RecordingWriter,
};

fn frame(index: u64) -> Frame {
    Frame {
        index,
        time_s: index as f64 / 60.0,
        ..Default::default()
    }
}

fn meta() -> RecordingMeta {
    RecordingMeta {
        scene_ron: String::new(),
        body_names: vec!["a".into()],
        dt_s: 1.0 / 60.0,
    }
}

/// Header size plus this: room for a few hundred of the small frames above.
const ROOM_FOR_FRAMES: u64 = 8_000;

/// Records until the file size limit set here makes a write fail, then prints what it saw.
#[cfg(unix)]
#[test]
#[ignore = "run by a_full_disk_stops_the_writer_with_an_error as a child process"]
fn child_recording_into_a_size_limit() {
    let Ok(path) = std::env::var("CDREC_FSIZE_PATH") else {
        return;
    };
    let w = RecordingWriter::create(&path, meta(), Default::default()).unwrap();
    let limit = w.header_len() + ROOM_FOR_FRAMES;
    // SAFETY: plain libc calls on this single-purpose child process. Ignoring SIGXFSZ makes
    // a write past the limit fail with EFBIG, as a full disk fails with ENOSPC.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let rl = libc::rlimit {
            rlim_cur: limit,
            rlim_max: limit,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &rl), 0);
    }
    let mut bg = BackgroundWriter::spawn(w, 2).unwrap();
    for i in 0..100_000 {
        if let Err(e) = bg.write_frame(frame(i)) {
            println!("error after {i} frames: {e}");
            // The writer has stopped: later calls say so instead of panicking or hanging.
            println!("then: {}", bg.write_frame(frame(i)).unwrap_err());
            println!("flush: {}", bg.flush().unwrap_err());
            return;
        }
    }
    println!("no error");
}

#[cfg(unix)]
#[test]
fn a_full_disk_stops_the_writer_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("limited.cdrec");
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "record_background::child_recording_into_a_size_limit",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CDREC_FSIZE_PATH", &path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("error after "))
        .unwrap_or_else(|| panic!("no write error was reported:\n{text}"));
    assert!(line.contains(path.to_str().unwrap()), "{line}");
    assert!(line.contains("File too large"), "{line}");
    assert!(
        text.contains("then: ") && text.contains("flush: "),
        "{text}"
    );
    // Every frame that reached the file is readable, by a scan if the index did not fit.
    let r = RecordingReader::open(&path).unwrap();
    assert!(r.len() > 50, "only {} frames survived", r.len());
    for i in 0..r.len() {
        assert_eq!(r.frame(i).unwrap().index, i as u64);
    }
}
