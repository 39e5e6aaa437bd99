use super::out::{Failure, out, outln};
use crate::audit::{AuditError, AuditOptions, AuditReport, Check, audit};
use crate::validate::{ValidationReport, validate};
use std::path::Path;

/// What `validate` was given besides the file; all but `tolerance` are the audit's.
pub struct Flags {
    pub tolerance: Option<f64>,
    pub normal_tolerance_deg: Option<f64>,
    pub prediction_distance: Option<f64>,
    pub off: Vec<String>,
    pub json: bool,
}

fn non_negative(flag: &str, v: Option<f64>) -> Result<(), Failure> {
    match v {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            Err(format!("--{flag} must be a finite number ≥ 0, got {t}").into())
        }
        _ => Ok(()),
    }
}

fn audit_options(flags: &Flags) -> Result<AuditOptions, Failure> {
    non_negative("normal-tolerance-deg", flags.normal_tolerance_deg)?;
    non_negative("prediction-distance", flags.prediction_distance)?;
    let mut options = AuditOptions {
        prediction_distance_m: flags.prediction_distance,
        ..AuditOptions::default()
    };
    if let Some(t) = flags.tolerance {
        options.depth_tolerance_m = t;
    }
    if let Some(d) = flags.normal_tolerance_deg {
        options.normal_tolerance_deg = d;
    }
    for name in &flags.off {
        let check = Check::from_name(name.trim()).ok_or_else(|| {
            let known: Vec<&str> = Check::ALL.iter().map(|c| c.name()).collect();
            format!(
                "--off: no check named “{name}”; the checks: {}",
                known.join(", ")
            )
        })?;
        options.off.push(check);
    }
    Ok(options)
}

pub fn run(file: &Path, flags: &Flags) -> Result<(), Failure> {
    non_negative("tolerance", flags.tolerance)?;
    let options = audit_options(flags)?;
    let scratch = tempfile::Builder::new()
        .suffix(".cdrec")
        .tempfile()
        .map_err(|e| format!("a temporary file for the ingested stream: {e}"))?;
    let reader = super::diff::open(file, &scratch.path().to_path_buf())?;
    if let Some(r) = reader.recovery() {
        eprintln!(
            "note: {} was damaged or cut short ({r}); validating the {} recovered frames \
             (frames missing between them are re-simulated, not compared)",
            file.display(),
            r.recovered_frames
        );
    }
    match audit(&reader, options) {
        Err(AuditError::NotCaptured(_)) => {}
        Ok(report) => return print_audit_report(file, &report, flags.json),
        Err(e) => return Err(e.to_string().into()),
    }
    let report = validate(&reader, flags.tolerance).map_err(|e| e.to_string())?;
    // The verdict is the exit status even when the reader of the report went away.
    let printed = print_report(&report);
    if !report.passed() {
        return Err(format!("{} failed validation", file.display()).into());
    }
    printed
}

fn print_audit_report(file: &Path, report: &AuditReport, json: bool) -> Result<(), Failure> {
    let printed = if json {
        outln!("{}", report.json())
    } else {
        print_audit(report)
    };
    if !report.passed() {
        return Err(format!(
            "{}: the audit found {} disagreements with our algorithms",
            file.display(),
            report.findings.len()
        )
        .into());
    }
    printed
}

/// The findings a person reads before the summary, at most this many.
const SHOWN: usize = 20;

fn print_audit(report: &AuditReport) -> Result<(), Failure> {
    outln!(
        "captured run of {}: audited, not re-simulated (Collidoscope does not step another \
         engine's bodies; its exact algorithms check every step instead)",
        report.engine
    )?;
    for f in report.findings.iter().take(SHOWN) {
        outln!(
            "step {} (frame {}): {}: {}",
            f.engine_frame,
            f.frame,
            f.check.name(),
            f.sentence
        )?;
    }
    if report.findings.len() > SHOWN {
        outln!(
            "… and {} more (--json lists them all)",
            report.findings.len() - SHOWN
        )?;
    }
    outln!("{}", report.summary())
}

fn print_report(report: &ValidationReport) -> Result<(), Failure> {
    outln!("checked {} frames", report.frames_checked)?;
    if let Some(d) = &report.first_divergence {
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
