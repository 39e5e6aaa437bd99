use crate::record::RecordingReader;
use crate::validate::validate;
use std::path::Path;

pub fn run(file: &Path, tolerance: Option<f64>) -> Result<(), String> {
    if let Some(t) = tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(format!("--tolerance must be a finite number ≥ 0, got {t}"));
    }
    let reader = RecordingReader::open(file).map_err(|e| e.to_string())?;
    if let Some(r) = reader.recovery() {
        eprintln!(
            "note: {} was cut short; validating the {} recovered frames",
            file.display(),
            r.recovered_frames
        );
    }
    let report = validate(&reader, tolerance).map_err(|e| e.to_string())?;
    println!("checked {} frames", report.frames_checked);
    if let Some(d) = &report.first_divergence {
        print!(
            "DIVERGED at frame {}: recorded state hash {:016x}, re-simulated {:016x}",
            d.frame, d.recorded_hash, d.simulated_hash
        );
        match d.body {
            Some((id, dist)) => {
                println!(" (first differing body: {id}, position off by {dist:.3e} m)")
            }
            None => println!(),
        }
    } else {
        println!("deterministic: every frame re-simulates to the same state");
    }
    match &report.first_violation {
        Some(v) => println!("VIOLATION at frame {}: {}", v.frame, v.what),
        None => println!(
            "invariants hold: finite states, penetration within tolerance, no body tunnelled"
        ),
    }
    if report.passed() {
        Ok(())
    } else {
        Err(format!("{} failed validation", file.display()))
    }
}
