//! The family views' persisted settings: which panels are open and each view's own options,
//! keyed by family name, so the shell's settings name no family.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FamilySettings {
    /// Families whose panel is open, in the order they were opened.
    pub open: Vec<String>,
    /// Each view's options as it saved them (RON text).
    pub options: BTreeMap<String, String>,
}

impl FamilySettings {
    pub fn is_open(&self, family: &str) -> bool {
        self.open.iter().any(|f| f == family)
    }

    pub fn set_open(&mut self, family: &str, open: bool) {
        let was = self.is_open(family);
        if open && !was {
            self.open.push(family.to_string());
        } else if !open && was {
            self.open.retain(|f| f != family);
        }
    }

    pub fn any_open(&self) -> bool {
        !self.open.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_twice_keeps_one_entry_and_closing_removes_it() {
        let mut s = FamilySettings::default();
        s.set_open("hierarchy", true);
        s.set_open("hierarchy", true);
        s.set_open("broad phase", true);
        assert_eq!(s.open, ["hierarchy", "broad phase"]);
        s.set_open("hierarchy", false);
        assert!(!s.is_open("hierarchy") && s.is_open("broad phase") && s.any_open());
    }
}
