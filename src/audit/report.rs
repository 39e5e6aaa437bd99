//! The audit's report: counts per check and per pair, every finding, the JSON of
//! `validate --json` and a summary line for a CI log.

use super::checks::Counted;
use super::finding::{Check, Finding};
use super::options::AuditOptions;
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct AuditReport {
    pub engine: String,
    pub prediction_distance_m: f64,
    pub options: AuditOptions,
    pub steps: u64,
    pub pairs_checked: u64,
    /// Pairs left out because a collider is drawn as an approximation of its shape.
    pub skipped_approximate: u64,
    pub findings: Vec<Finding>,
}

/// Per pair (or body): how many findings of each check, and the largest disagreement.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairCounts {
    pub counts: BTreeMap<Check, u64>,
    pub largest: BTreeMap<Check, f64>,
}

/// How far apart the two sides of a finding are, in its unit.
pub fn disagreement(f: &Finding) -> f64 {
    match (f.ours, f.theirs) {
        (Some(o), Some(t)) => (o - t).abs(),
        (Some(o), None) => o.abs(),
        (None, Some(t)) => t.abs(),
        (None, None) => 0.0,
    }
}

impl AuditReport {
    pub fn new(engine: &str, prediction_distance_m: f64, options: &AuditOptions) -> Self {
        Self {
            engine: engine.to_string(),
            prediction_distance_m,
            options: options.clone(),
            steps: 0,
            pairs_checked: 0,
            skipped_approximate: 0,
            findings: Vec::new(),
        }
    }

    pub fn add_step(&mut self, counted: Counted, findings: Vec<Finding>) {
        self.steps += 1;
        self.pairs_checked += counted.pairs_checked;
        self.skipped_approximate += counted.skipped_approximate;
        self.findings.extend(findings);
    }

    pub fn passed(&self) -> bool {
        self.findings.is_empty()
    }

    pub fn counts(&self) -> BTreeMap<Check, u64> {
        let mut counts: BTreeMap<Check, u64> = Check::ALL.iter().map(|c| (*c, 0)).collect();
        for f in &self.findings {
            *counts.entry(f.check).or_default() += 1;
        }
        counts
    }

    pub fn per_pair(&self) -> BTreeMap<String, PairCounts> {
        let mut out: BTreeMap<String, PairCounts> = BTreeMap::new();
        for f in &self.findings {
            let entry = out.entry(f.subject()).or_default();
            *entry.counts.entry(f.check).or_default() += 1;
            let largest = entry.largest.entry(f.check).or_default();
            *largest = largest.max(disagreement(f));
        }
        out
    }

    /// One line for a CI log.
    pub fn summary(&self) -> String {
        let counts: Vec<String> = self
            .counts()
            .iter()
            .map(|(c, n)| format!("{} {n}", c.name()))
            .collect();
        format!(
            "audit of {}: {} steps, {} pair checks, {} findings ({}){}",
            self.engine,
            self.steps,
            self.pairs_checked,
            self.findings.len(),
            counts.join(", "),
            if self.skipped_approximate > 0 {
                format!(
                    "; {} pair checks skipped (a shape drawn as an approximation)",
                    self.skipped_approximate
                )
            } else {
                String::new()
            }
        )
    }

    pub fn json(&self) -> Value {
        let counts: serde_json::Map<String, Value> = self
            .counts()
            .iter()
            .map(|(c, n)| (c.name().to_string(), json!(n)))
            .collect();
        let per_pair: Vec<Value> = self
            .per_pair()
            .into_iter()
            .map(|(pair, p)| {
                let named = |m: BTreeMap<Check, Value>| -> serde_json::Map<String, Value> {
                    m.into_iter().map(|(c, v)| (c.name().to_string(), v)).collect()
                };
                json!({
                    "pair": pair,
                    "counts": named(p.counts.into_iter().map(|(c, n)| (c, json!(n))).collect()),
                    "largest": named(p.largest.into_iter().map(|(c, v)| (c, crate::capture::number_json(v))).collect()),
                })
            })
            .collect();
        let findings: Vec<Value> = self.findings.iter().map(finding_json).collect();
        json!({
            "audit": true,
            "passed": self.passed(),
            "engine": self.engine,
            "steps": self.steps,
            "pairs_checked": self.pairs_checked,
            "skipped_approximate": self.skipped_approximate,
            "tolerances": {
                "depth_m": self.options.depth_tolerance_m,
                "normal_deg": self.options.normal_tolerance_deg,
                "speed_gain_mps": self.options.speed_gain_mps,
                "prediction_distance_m": self.prediction_distance_m,
            },
            "checks_off": self.options.off.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "counts": counts,
            "per_pair": per_pair,
            "findings": findings,
            "summary": self.summary(),
        })
    }
}

fn finding_json(f: &Finding) -> Value {
    let num = |v: Option<f64>| v.map_or(Value::Null, crate::capture::number_json);
    let contact = |c: &Option<super::ContactView>| {
        c.map_or(Value::Null, |c| {
            json!({
                "point": [c.point.x, c.point.y, c.point.z],
                "normal": [c.normal.x, c.normal.y, c.normal.z],
                "depth": crate::capture::number_json(c.depth),
            })
        })
    };
    json!({
        "check": f.check.name(),
        "frame": f.frame,
        "engine_frame": f.engine_frame,
        "ids": f.engine_ids,
        "ours": num(f.ours),
        "theirs": num(f.theirs),
        "tolerance": f.tolerance,
        "unit": f.check.unit(),
        "our_contact": contact(&f.our_contact),
        "their_contact": contact(&f.their_contact),
        "what": f.sentence,
    })
}
