//! The per-scene choice of continuous collision.

use serde::{Deserialize, Serialize};

/// How a scene keeps fast bodies from passing through others between two frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Spelled")]
pub enum CcdMode {
    /// Plain discrete stepping: contacts only where the shapes already (almost) touch at the
    /// end of the step, so a fast body can pass through a thin one.
    Off,
    /// Contacts within the distance a pair can close in one step (the engine's historical
    /// behaviour, hence the default: existing scenes and recordings keep their states).
    #[default]
    Speculative,
    /// The course's supersampling (spec 004 §8): the whole step runs `n` times with `dt / n`.
    Substep(u32),
    /// Fast bodies advance to their first time of impact (exact swept tests, or conservative
    /// advancement on the distance), bounce there and move for the rest of the step; slower
    /// pairs keep speculative contacts.
    Toi,
}

/// The mode as a scene file spells it, checked before it becomes a [`CcdMode`]: a bad
/// substep count is a parse error that names its line and column.
#[derive(Deserialize)]
enum Spelled {
    Off,
    Speculative,
    Substep(u32),
    Toi,
}

impl TryFrom<Spelled> for CcdMode {
    type Error = String;

    fn try_from(s: Spelled) -> Result<Self, String> {
        let mode = match s {
            Spelled::Off => CcdMode::Off,
            Spelled::Speculative => CcdMode::Speculative,
            Spelled::Substep(n) => CcdMode::Substep(n),
            Spelled::Toi => CcdMode::Toi,
        };
        mode.check().map(|()| mode)
    }
}

/// More substeps than this is a typo, not a choice: it would multiply the step time by it.
pub const MAX_SUBSTEPS: u32 = 64;

impl CcdMode {
    pub const ALL_KINDS: [CcdMode; 4] = [
        CcdMode::Off,
        CcdMode::Speculative,
        CcdMode::Substep(4),
        CcdMode::Toi,
    ];

    /// The mode as the command line spells it: `off`, `speculative`, `toi` or `substep:N`.
    pub fn parse(text: &str) -> Result<CcdMode, String> {
        let mode = match text.trim().to_ascii_lowercase().as_str() {
            "off" => CcdMode::Off,
            "speculative" => CcdMode::Speculative,
            "toi" => CcdMode::Toi,
            other => {
                let n = other
                    .strip_prefix("substep:")
                    .ok_or_else(|| {
                        format!("{text:?}: expected off, speculative, toi or substep:N")
                    })?
                    .parse::<u32>()
                    .map_err(|e| format!("{text:?}: the substep count {e}"))?;
                CcdMode::Substep(n)
            }
        };
        mode.check().map(|()| mode)
    }

    pub fn is_default(&self) -> bool {
        *self == CcdMode::default()
    }

    /// As scene files spell it: `Off`, `Speculative`, `Substep(4)`, `Toi`.
    pub fn label(&self) -> String {
        match self {
            CcdMode::Off => "Off".into(),
            CcdMode::Speculative => "Speculative".into(),
            CcdMode::Substep(n) => format!("Substep({n})"),
            CcdMode::Toi => "Toi".into(),
        }
    }

    /// Why the mode cannot run, for scene validation.
    pub fn check(&self) -> Result<(), String> {
        match self {
            CcdMode::Substep(n) if *n == 0 || *n > MAX_SUBSTEPS => Err(format!(
                "ccd: Substep({n}) needs between 1 and {MAX_SUBSTEPS} substeps"
            )),
            _ => Ok(()),
        }
    }

    /// How many times the pipeline runs per frame.
    pub fn substeps(&self) -> u32 {
        match self {
            CcdMode::Substep(n) => (*n).clamp(1, MAX_SUBSTEPS),
            _ => 1,
        }
    }

    /// Whether contacts are generated ahead of touching, by the distance a pair can close.
    pub fn speculative(&self) -> bool {
        matches!(self, CcdMode::Speculative | CcdMode::Toi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_spellings() {
        assert_eq!(CcdMode::parse("off"), Ok(CcdMode::Off));
        assert_eq!(CcdMode::parse(" Toi "), Ok(CcdMode::Toi));
        assert_eq!(CcdMode::parse("speculative"), Ok(CcdMode::Speculative));
        assert_eq!(CcdMode::parse("substep:4"), Ok(CcdMode::Substep(4)));
        for bad in [
            "",
            "fast",
            "substep:",
            "substep:-1",
            "substep:0",
            "substep:1000",
        ] {
            assert!(CcdMode::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scene_files_spell_the_modes_as_labels_say() {
        for mode in CcdMode::ALL_KINDS {
            let ron = ron::to_string(&mode).unwrap();
            assert_eq!(ron, mode.label());
            assert_eq!(ron::from_str::<CcdMode>(&ron).unwrap(), mode);
        }
        assert!(CcdMode::Substep(0).check().is_err());
        let bad = ron::from_str::<CcdMode>("Substep(0)")
            .unwrap_err()
            .to_string();
        assert!(bad.contains("Substep(0) needs between 1 and 64"), "{bad}");
        assert!(CcdMode::Substep(65).check().is_err());
        assert!(CcdMode::Substep(8).check().is_ok());
        assert_eq!(CcdMode::default(), CcdMode::Speculative);
    }
}
