//! The audit on a real engine: the Rapier example of the capture issue (a wall of boxes hit
//! by a fast ball) over 120 steps, with CCD and without. With CCD, rapier and our exact
//! algorithms agree within the documented tolerances; without it, the ball passes through
//! the wall, and the audit says so at the step it happens.

use collidoscope::audit::{AuditOptions, AuditReport, Check, audit};
use collidoscope::capture::Capture;
use collidoscope::capture::rapier::{RapierCapture, example_world};
use collidoscope::record::RecordingReader;
use std::path::Path;

const STEPS: usize = 120;

fn record(ccd: bool, path: &Path) {
    let mut scene = example_world(ccd);
    let header = RapierCapture::header(&scene.world);
    let mut capture =
        RapierCapture::new(Capture::to_recording(path, header).expect("the recording starts"));
    for _ in 0..STEPS {
        scene.world.step();
        capture
            .record_step(&scene.world)
            .expect("the step is captured");
    }
    capture.finish().expect("the recording ends");
}

fn audited(ccd: bool) -> AuditReport {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("run.cdrec");
    record(ccd, &path);
    let reader = RecordingReader::open(&path).expect("the recording opens");
    let report = audit(&reader, AuditOptions::default()).expect("the audit runs");
    eprintln!("ccd {ccd}: {}", report.summary());
    for (pair, counts) in report.per_pair() {
        eprintln!("  {pair}: {:?} largest {:?}", counts.counts, counts.largest);
    }
    report
}

#[test]
fn rapier_with_ccd_agrees_with_our_algorithms() {
    let report = audited(true);
    assert_eq!(report.steps, STEPS as u64);
    assert!(report.pairs_checked > STEPS as u64);
    assert_eq!(report.skipped_approximate, 0);
    assert!(report.passed(), "{:#?}", report.findings);
}

#[test]
fn rapier_without_ccd_lets_the_ball_tunnel_and_the_audit_says_when() {
    let report = audited(false);
    let tunnels: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.check == Check::Tunnelling)
        .collect();
    assert!(!tunnels.is_empty(), "{:#?}", report.findings);
    assert!(
        report.findings.iter().all(|f| f.check == Check::Tunnelling),
        "{:#?}",
        report.findings
    );
    // The ball starts 31 m out at 120 m/s (2 m a step): it reaches the wall after 15 steps.
    let first = tunnels[0];
    assert!((14..=17).contains(&first.engine_frame), "{first:?}");
    assert!(
        first.sentence.contains("passed through"),
        "{}",
        first.sentence
    );
}

/// The measurement the default tolerances were chosen from (docs/audit.md): the audit at a
/// tolerance of 0.1 mm and 0.5°, on both conventions of where rapier's contacts are, and the
/// largest disagreement of each check.
#[test]
#[ignore = "a measurement, printed: run with --ignored --nocapture"]
fn disagreements_at_a_tiny_tolerance() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for ccd in [true, false] {
        let path = dir.path().join("run.cdrec");
        record(ccd, &path);
        let reader = RecordingReader::open(&path).expect("the recording opens");
        for at_start in [true, false] {
            let options = AuditOptions {
                contacts_at_start: Some(at_start),
                depth_tolerance_m: 1e-4,
                normal_tolerance_deg: 0.5,
                ..AuditOptions::default()
            };
            let report = audit(&reader, options).expect("the audit runs");
            eprintln!(
                "ccd {ccd}, contacts at the step's start {at_start}: {}",
                report.summary()
            );
            for check in Check::ALL {
                let mut values: Vec<f64> = report
                    .findings
                    .iter()
                    .filter(|f| f.check == check)
                    .map(collidoscope::audit::disagreement)
                    .collect();
                if values.is_empty() {
                    continue;
                }
                values.sort_by(f64::total_cmp);
                let pick = |q: f64| values[((values.len() - 1) as f64 * q) as usize];
                eprintln!(
                    "  {}: {} findings, median {:.5}, 99th percentile {:.5}, largest {:.5}",
                    check.name(),
                    values.len(),
                    pick(0.5),
                    pick(0.99),
                    pick(1.0)
                );
            }
        }
    }
}
