//! Reading scene files: RON text, checked field by field before anything is built.

use super::{Scene, SceneError};
use std::path::{Path, PathBuf};

/// Escapes allowed in one string of a scene file: a few thousand line breaks in a
/// description read in milliseconds; 200,000 took 15 s.
const MAX_STRING_ESCAPES: usize = 16_384;

/// The largest terrain amplitude, in terrain sizes. A terrain of amplitude 1e308 next to a
/// dense sphere made every one of their boxes overlap, at 14 million triangle pairs a step.
const MAX_TERRAIN_STEEPNESS: f64 = 1e6;

impl Scene {
    /// Parses a scene from RON text; `file` names it in errors.
    pub fn from_ron(text: &str, file: &Path) -> Result<Scene, SceneError> {
        if let Some(line) = super::locate::string_with_escapes_over(text, MAX_STRING_ESCAPES) {
            return Err(SceneError::Parse {
                file: file.to_path_buf(),
                line,
                column: 1,
                cause: format!(
                    "a string with more than {MAX_STRING_ESCAPES} escapes (\\n, \\\", …): the \
                     RON reader's time grows with their square; write line breaks as they are"
                ),
            });
        }
        let scene: Scene = ron::from_str(text).map_err(|e| SceneError::Parse {
            file: file.to_path_buf(),
            line: e.position.line,
            column: e.position.col,
            cause: e.code.to_string(),
        })?;
        scene.validate(file)?;
        Ok(scene)
    }

    /// Reads a scene file: RON, or a file a family reads (a Quake `.map` level, say), chosen
    /// by the file's ending.
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if let Some(scene) = crate::families::load_scene_file(&extension, path) {
            return scene;
        }
        let text = crate::input::read_text_bounded(path)?;
        let mut scene = Scene::from_ron(&text, path)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        scene.resolve_paths(dir);
        for (entry, data) in scene.families.iter_mut().enumerate() {
            let family = data.family();
            data.read_files(dir).map_err(|cause| {
                SceneError::Family {
                    file: path.to_path_buf(),
                    entry: Some(entry),
                    line: None,
                    family,
                    cause,
                }
                .located(&text)
            })?;
        }
        Ok(scene)
    }

    /// The scene as RON text, as recordings embed it. Strings are written unescaped (line
    /// breaks as they are, raw strings where quotes need it): reading escapes back takes the
    /// RON reader time quadratic in their number.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::default().escape_strings(false);
        ron::ser::to_string_pretty(self, config)
            .unwrap_or_else(|e| format!("/* scene could not be serialised: {e} */"))
    }

    /// OBJ paths are relative to the scene file; make them absolute so a recording made
    /// from this scene can be re-simulated from anywhere.
    fn resolve_paths(&mut self, dir: &Path) {
        for body in &mut self.bodies {
            if let super::ShapeDesc::Obj { path, .. } = &mut body.shape {
                let p = PathBuf::from(&*path);
                if p.is_relative() {
                    *path = dir.join(p).to_string_lossy().into_owned();
                }
            }
        }
    }

    /// Checks every number and reference a user can get wrong.
    pub fn validate(&self, file: &Path) -> Result<(), SceneError> {
        let invalid = |cause: String| SceneError::Invalid {
            file: file.to_path_buf(),
            cause,
        };
        let s = &self.solver;
        if !(s.dt_s > 0.0 && s.dt_s <= 1.0) {
            return Err(invalid(format!(
                "solver.dt_s must be in (0, 1] seconds, got {}",
                s.dt_s
            )));
        }
        if s.iterations == 0 || s.iterations > 1000 {
            return Err(invalid(format!(
                "solver.iterations must be in 1..=1000, got {}",
                s.iterations
            )));
        }
        for (name, v) in [
            ("solver.baumgarte", s.baumgarte),
            ("solver.slop_m", s.slop_m),
            ("solver.penetration_tolerance_m", s.penetration_tolerance_m),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid(format!(
                    "{name} must be a finite number ≥ 0, got {v}"
                )));
            }
        }
        s.rays.check().map_err(|e| invalid(format!("solver.{e}")))?;
        s.method
            .check()
            .map_err(|e| invalid(format!("solver.{e}")))?;
        if matches!(s.method, super::SolverMethod::Tgs(_)) && s.ccd == super::CcdMode::Toi {
            return Err(invalid(
                "solver.method: Tgs seeks contacts before it moves the bodies, so it has no \
                 time-of-impact pass for ccd: Toi; use ccd: Speculative (its margin holds fast bodies) \
                 or method: Impulses"
                    .into(),
            ));
        }
        if !self.gravity.iter().all(|g| g.is_finite()) {
            return Err(invalid(format!(
                "gravity must be finite, got {:?}",
                self.gravity
            )));
        }
        for (i, m) in self.materials.iter().enumerate() {
            if !(m.density.is_finite() && m.density > 0.0) {
                return Err(invalid(format!(
                    "material {i} (\"{}\"): density must be > 0, got {}",
                    m.name, m.density
                )));
            }
            if !(m.restitution.is_finite() && (0.0..=1.0).contains(&m.restitution)) {
                return Err(invalid(format!(
                    "material {i} (\"{}\"): restitution must be in [0, 1], got {}",
                    m.name, m.restitution
                )));
            }
            if !(m.friction.is_finite() && m.friction >= 0.0) {
                return Err(invalid(format!(
                    "material {i} (\"{}\"): friction must be ≥ 0, got {}",
                    m.name, m.friction
                )));
            }
        }
        if self.bodies.len() > 1_000_000 {
            return Err(invalid(format!(
                "{} bodies is more than the 1,000,000 supported",
                self.bodies.len()
            )));
        }
        for (index, b) in self.bodies.iter().enumerate() {
            let body_err = |cause: String| SceneError::Body {
                line: None,
                file: file.to_path_buf(),
                index,
                name: b.name.clone(),
                cause,
            };
            for (field, v) in [
                ("position", b.position),
                ("rotation", b.rotation),
                ("linear_velocity", b.linear_velocity),
                ("angular_velocity", b.angular_velocity),
            ] {
                if !v.iter().all(|x| x.is_finite()) {
                    return Err(body_err(format!("{field} must be finite, got {v:?}")));
                }
            }
            if let Some(m) = &b.material
                && !self.materials.iter().any(|x| &x.name == m)
            {
                return Err(body_err(format!(
                    "material \"{m}\" is not defined in materials"
                )));
            }
            b.shape.validate().map_err(body_err)?;
        }
        Ok(())
    }
}

impl super::ShapeDesc {
    /// Why the shape cannot be built, if it cannot: the checks a scene file's shapes pass.
    pub fn validate(&self) -> Result<(), String> {
        use super::ShapeDesc::*;
        let positive = |field: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!(
                    "shape.{field} must be a finite number > 0, got {v}"
                ))
            }
        };
        match self {
            Sphere { radius } => positive("radius", *radius),
            Box { half_extents } => {
                for (i, h) in half_extents.iter().enumerate() {
                    positive(&format!("half_extents[{i}]"), *h)?;
                }
                Ok(())
            }
            Capsule {
                radius,
                half_height,
            } => {
                positive("radius", *radius)?;
                positive("half_height", *half_height)
            }
            ConvexHull { points } => {
                let pts: Vec<_> = points
                    .iter()
                    .map(|p| crate::geom::Point3::new(p[0], p[1], p[2]))
                    .collect();
                crate::geom::ConvexPolyhedron::hull(&pts)
                    .map(|_| ())
                    .map_err(|e| format!("shape.points: {e}"))
            }
            TriMesh {
                vertices,
                triangles,
            } => {
                let v = vertices
                    .iter()
                    .map(|p| crate::geom::Point3::new(p[0], p[1], p[2]))
                    .collect();
                crate::geom::TriMesh::new(v, triangles.clone())
                    .map(|_| ())
                    .map_err(|e| format!("shape: {e}"))
            }
            Obj { scale, .. } => positive("scale", *scale),
            Procedural(p) => p.validate(),
        }
    }
}

impl super::ProceduralMesh {
    fn validate(&self) -> Result<(), String> {
        use super::ProceduralMesh::*;
        let ok = |c: bool, msg: &str| {
            if c {
                Ok(())
            } else {
                Err(format!("shape: {msg}"))
            }
        };
        match *self {
            Torus {
                major_radius,
                minor_radius,
                major_segments,
                minor_segments,
            } => {
                ok(
                    major_radius.is_finite()
                        && minor_radius.is_finite()
                        && minor_radius > 0.0
                        && major_radius > minor_radius,
                    "a torus needs major_radius > minor_radius > 0",
                )?;
                ok(
                    (3..=4096).contains(&major_segments) && (3..=4096).contains(&minor_segments),
                    "torus segments must be in 3..=4096",
                )
            }
            Terrain {
                size,
                cells,
                amplitude,
                ..
            } => {
                ok(size.is_finite() && size > 0.0, "terrain size must be > 0")?;
                ok(amplitude.is_finite(), "terrain amplitude must be finite")?;
                // Steeper than this, a cell is a wall taller than a million terrains are
                // wide, and the rounding of its height swallows every other shape nearby.
                ok(
                    amplitude.abs() <= MAX_TERRAIN_STEEPNESS * size,
                    "terrain amplitude must be at most 1e6 × size",
                )?;
                ok(
                    (1..=2048).contains(&cells),
                    "terrain cells must be in 1..=2048",
                )
            }
            IcoSphere { radius, level } => {
                ok(
                    radius.is_finite() && radius > 0.0,
                    "icosphere radius must be > 0",
                )?;
                ok(
                    level <= 8,
                    "icosphere level must be at most 8 (1.3 M triangles)",
                )
            }
        }
    }
}
