use super::out::{Failure, out, outln};
use crate::record::RecordingReader;
use crate::validate::{ValidationReport, validate};
use std::path::Path;

pub fn run(file: &Path, tolerance: Option<f64>) -> Result<(), Failure> {
    if let Some(t) = tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(format!("--tolerance must be a finite number ≥ 0, got {t}").into());
    }
    let reader = RecordingReader::open(file).map_err(|e| e.to_string())?;
    if let Some(r) = reader.recovery() {
        eprintln!(
            "note: {} was damaged or cut short ({r}); validating the {} recovered frames \
             (frames missing between them are re-simulated, not compared)",
            file.display(),
            r.recovered_frames
        );
    }
    let report = validate(&reader, tolerance).map_err(|e| e.to_string())?;
    // The verdict is the exit status even when the reader of the report went away.
    let printed = print_report(&report);
    if !report.passed() {
        return Err(format!("{} failed validation", file.display()).into());
    }
    printed
}

fn print_report(report: &ValidationReport) -> Result<(), Failure> {
    outln!("checked {} frames", report.frames_checked)?;
    if report.replay_only {
        outln!(
            "captured run of another engine: its frames are checked, not re-simulated \
             (Collidoscope does not step another engine's bodies)"
        )?;
    } else if let Some(d) = &report.first_divergence {
        out!(
            "DIVERGED at frame {}: recorded state hash {:016x}, re-simulated {:016x}",
            d.frame,
            d.recorded_hash,
            d.simulated_hash
        )?;
        match d.body {
            Some((id, dist)) => {
                outln!(" (first differing body: {id}, position off by {dist:.3e} m)")?
            }
            None => outln!()?,
        }
    } else {
        outln!("deterministic: every frame re-simulates to the same state")?;
    }
    match &report.first_violation {
        Some(v) => outln!("VIOLATION at frame {}: {}", v.frame, v.what),
        None => outln!(
            "invariants hold: finite states, penetration within tolerance, no body tunnelled"
        ),
    }
}
