//! The family views' persisted settings: which panels are open and each view's own options,
//! keyed by family name, so the shell's settings name no family.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FamilySettings {
    /// Families whose panel is open, in the order they were opened.
    pub open: Vec<String>,
    /// Each view's options as it saved them (RON text).
    pub options: BTreeMap<String, String>,
    /// Families the user closed while the shown scene used them: a later scene that uses
    /// them leaves them closed, until the user opens them again.
    pub closed_by_user: BTreeSet<String>,
    /// Families the user opened while the shown scene did not use them: they stay open on
    /// every scene they apply to.
    pub pinned: BTreeSet<String>,
    /// The families the shown scene uses (not saved: the next session says).
    #[serde(skip)]
    pub used_now: Vec<String>,
}

/// How a family's view stands to the scene being opened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneUse {
    /// The scene is one of the family's, or carries its data: the view opens by itself.
    pub used: bool,
    /// The view has something to show here (a pinned view stays open).
    pub applies: bool,
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

    /// The user opened or closed a family's view (the View menu): remembered per family,
    /// against whether the shown scene uses it.
    pub fn choose(&mut self, family: &str, open: bool) {
        self.set_open(family, open);
        let used = self.used_now.iter().any(|f| f == family);
        match (open, used) {
            (true, _) => {
                self.closed_by_user.remove(family);
                if !used {
                    self.pinned.insert(family.to_string());
                }
            }
            (false, true) => {
                self.closed_by_user.insert(family.to_string());
            }
            (false, false) => {
                self.pinned.remove(family);
            }
        }
    }

    /// A scene was opened: the views it uses open (unless the user closed them), pinned
    /// ones stay where they apply, every other one closes.
    pub fn show_scene(&mut self, families: &[(&str, SceneUse)]) {
        self.used_now = families
            .iter()
            .filter(|(_, u)| u.used)
            .map(|(f, _)| f.to_string())
            .collect();
        for (family, u) in families {
            let open = (u.used && !self.closed_by_user.contains(*family))
                || (u.applies && self.pinned.contains(*family));
            self.set_open(family, open);
        }
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

    const BSP_SCENE: [(&str, SceneUse); 3] = [
        (
            "bsp",
            SceneUse {
                used: true,
                applies: true,
            },
        ),
        (
            "cloth",
            SceneUse {
                used: false,
                applies: false,
            },
        ),
        (
            "broad phase",
            SceneUse {
                used: false,
                applies: true,
            },
        ),
    ];
    const CLOTH_SCENE: [(&str, SceneUse); 3] = [
        (
            "bsp",
            SceneUse {
                used: false,
                applies: false,
            },
        ),
        (
            "cloth",
            SceneUse {
                used: true,
                applies: true,
            },
        ),
        (
            "broad phase",
            SceneUse {
                used: false,
                applies: true,
            },
        ),
    ];

    #[test]
    fn a_scene_opens_its_views_and_closes_the_others() {
        let mut s = FamilySettings::default();
        s.set_open("cloth", true);
        s.show_scene(&BSP_SCENE);
        assert_eq!(s.open, ["bsp"]);
        s.show_scene(&CLOTH_SCENE);
        assert_eq!(
            s.open,
            ["cloth"],
            "the BSP view does not stay open on a cloth"
        );
    }

    #[test]
    fn the_users_choices_are_kept_per_family() {
        let mut s = FamilySettings::default();
        s.show_scene(&BSP_SCENE);
        s.choose("bsp", false);
        s.choose("broad phase", true);
        s.show_scene(&CLOTH_SCENE);
        assert_eq!(s.open, ["broad phase", "cloth"], "pinned where it applies");
        s.show_scene(&BSP_SCENE);
        assert_eq!(
            s.open,
            ["broad phase"],
            "closed by the user on a scene that used it"
        );
        s.choose("bsp", true);
        s.choose("broad phase", false);
        s.show_scene(&CLOTH_SCENE);
        s.show_scene(&BSP_SCENE);
        assert_eq!(s.open, ["bsp"]);
    }
}
