//! The built-in scenes: demos that need no file, each showing one thing well. Each family
//! lists its own (`EngineFamily::scenes`); this is the catalogue of them all.

use super::{Scene, SceneError};
use std::path::Path;

pub const DEFAULT_SCENE: &str = "mixed-drop";

/// A built-in scene: a demo that needs no file.
#[derive(Clone, Copy)]
pub struct BuiltinScene {
    pub name: &'static str,
    /// One line for `collidoscope scenes` and the viewer's scene menu.
    pub description: &'static str,
    pub build: fn() -> Scene,
}

/// Where a scene comes from: a built-in name or a file.
pub fn load_scene(name_or_path: &str) -> Result<Scene, SceneError> {
    match scene_file(name_or_path) {
        Some(path) => Scene::load(path),
        None => builtin_scene(name_or_path),
    }
}

/// The file [`load_scene`] reads for `name_or_path`, or `None` for a built-in scene: what
/// errors found while building the world name.
pub fn scene_file(name_or_path: &str) -> Option<&Path> {
    if builtin_scene_list().iter().any(|s| s.name == name_or_path) {
        return None;
    }
    let path = Path::new(name_or_path);
    (path.exists() || name_or_path.contains('/') || name_or_path.ends_with(".ron")).then_some(path)
}

/// Every built-in scene of every family, family by family.
pub fn builtin_scene_list() -> Vec<BuiltinScene> {
    crate::families::builtin_scenes()
}

/// The built-in scenes family by family: (family name, family title, its scenes).
pub fn builtin_scenes_by_family() -> Vec<(&'static str, &'static str, Vec<BuiltinScene>)> {
    crate::families::builtin_scenes_by_family()
}

/// The family whose built-in scene is called `name`.
pub fn builtin_scene_family(name: &str) -> Option<&'static str> {
    builtin_scenes_by_family()
        .into_iter()
        .find(|(_, _, scenes)| scenes.iter().any(|s| s.name == name))
        .map(|(family, _, _)| family)
}

/// Every built-in scene: (name, one-line description).
pub fn builtin_scenes() -> Vec<(&'static str, &'static str)> {
    builtin_scene_list()
        .into_iter()
        .map(|s| (s.name, s.description))
        .collect()
}

pub fn builtin_scene(name: &str) -> Result<Scene, SceneError> {
    let all = builtin_scene_list();
    match all.iter().find(|s| s.name == name) {
        Some(s) => Ok((s.build)()),
        None => Err(SceneError::UnknownBuiltin {
            name: name.to_string(),
            available: all.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scene_names_are_unique_and_each_builds_under_its_own_name() {
        let all = builtin_scene_list();
        let mut names: Vec<_> = all.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(
            names.len(),
            all.len(),
            "two families list the same scene name"
        );
        for s in &all {
            assert_eq!((s.build)().name, s.name);
        }
        assert!(all.iter().any(|s| s.name == DEFAULT_SCENE));
    }
}
