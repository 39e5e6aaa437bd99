//! The per-scene choice of rigid solver.

use serde::{Deserialize, Serialize};

/// How the contact response and the integration share a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SpelledMethod")]
pub enum SolverMethod {
    /// Positions are integrated first, contacts are sought at the integrated poses, then
    /// `iterations` sequential-impulse passes and a position projection correct them (the
    /// engine's historical solver, hence the default: existing recordings keep their states).
    #[default]
    Impulses,
    /// Small steps (temporal Gauss–Seidel, as rapier's solver): contacts are sought once, at
    /// the step's start poses; the step then runs `n` substeps of gravity, one pass that also
    /// pushes penetration out, the positions, and one pass that takes the push back. Each
    /// contact's depth follows the bodies' motion between substeps.
    Tgs(u32),
}

#[derive(Deserialize)]
enum SpelledMethod {
    Impulses,
    Tgs(u32),
}

impl TryFrom<SpelledMethod> for SolverMethod {
    type Error = String;

    fn try_from(s: SpelledMethod) -> Result<Self, String> {
        let method = match s {
            SpelledMethod::Impulses => SolverMethod::Impulses,
            SpelledMethod::Tgs(n) => SolverMethod::Tgs(n),
        };
        method.check().map(|()| method)
    }
}

/// More substeps than this is a typo: the step time grows with them.
pub const MAX_TGS_SUBSTEPS: u32 = 64;

impl SolverMethod {
    pub fn is_default(&self) -> bool {
        *self == SolverMethod::default()
    }

    /// As scene files spell it: `Impulses`, `Tgs(4)`.
    pub fn label(&self) -> String {
        match self {
            SolverMethod::Impulses => "Impulses".into(),
            SolverMethod::Tgs(n) => format!("Tgs({n})"),
        }
    }

    /// The method as the command line spells it: `impulses` or `tgs:N`.
    pub fn parse(text: &str) -> Result<SolverMethod, String> {
        let method = match text.trim().to_ascii_lowercase().as_str() {
            "impulses" => SolverMethod::Impulses,
            other => {
                let n = other
                    .strip_prefix("tgs:")
                    .ok_or_else(|| format!("{text:?}: expected impulses or tgs:N"))?
                    .parse::<u32>()
                    .map_err(|e| format!("{text:?}: the substep count {e}"))?;
                SolverMethod::Tgs(n)
            }
        };
        method.check().map(|()| method)
    }

    /// Why the method cannot run, for scene validation.
    pub fn check(&self) -> Result<(), String> {
        match self {
            SolverMethod::Tgs(n) if *n == 0 || *n > MAX_TGS_SUBSTEPS => Err(format!(
                "method: Tgs({n}) needs between 1 and {MAX_TGS_SUBSTEPS} substeps"
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_bad_counts_are_refused() {
        assert_eq!(SolverMethod::parse("tgs:4"), Ok(SolverMethod::Tgs(4)));
        assert_eq!(
            SolverMethod::parse(" Impulses "),
            Ok(SolverMethod::Impulses)
        );
        assert!(
            SolverMethod::parse("tgs:0")
                .unwrap_err()
                .contains("between 1 and")
        );
        assert!(
            SolverMethod::parse("tgs:x")
                .unwrap_err()
                .contains("substep count")
        );
        assert!(SolverMethod::parse("pgs").unwrap_err().contains("expected"));
        for m in [SolverMethod::Impulses, SolverMethod::Tgs(7)] {
            let ron = ron::to_string(&m).expect("serialises");
            assert_eq!(ron::from_str::<SolverMethod>(&ron).expect("reads back"), m);
        }
        let bad = ron::from_str::<SolverMethod>("Tgs(1000)").unwrap_err();
        assert!(bad.to_string().contains("between 1 and"), "{bad}");
    }
}
