//! What the cloth family adds to a scene (a sheet or several, their parameters, scripted
//! rigid motions) and what a frame records (the cloth's state, the cast memory, the
//! inversions).

use super::detect::CastMemory;
use super::inversion::InversionRecord;
use super::mesh::{ClothMesh, GridSpec, MAX_VERTICES};
use super::mesh_piece::PieceInput;
use super::params::ClothParams;
use crate::geom::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// A rigid body the scene moves at constant velocities (a rotating box, a pusher): rigid
/// bodies are the cloth's obstacles, and a fixed body only moves when scripted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptedBody {
    /// Index of the body in the scene's list.
    pub body: u32,
    pub linear_mps: Vec3,
    /// Axis times angular speed, rad/s.
    pub angular_rps: Vec3,
    /// The motion stops after this many frames (a push that stays pushed).
    pub frames: u64,
}

/// A further sheet of the same cloth (issue 12: sheets stacking). It shares the first
/// sheet's parameters and initial velocity; the sheets are disconnected parts of one mesh,
/// so the self-collision keeps them apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExtraSheet {
    /// Vertices along `u` and along `v`.
    pub columns: u32,
    pub rows: u32,
    pub corner: Point3,
    pub u: Vec3,
    pub v: Vec3,
    /// Vertices held in place, numbered within this sheet (row by row from `corner`).
    #[serde(default)]
    pub pinned: Vec<u32>,
}

/// A cloth piece made from a triangle mesh read from an OBJ file (a skirt, a tube): a stretch
/// spring on every edge, a bend spring across every interior edge (see `mesh_piece`). Its
/// vertices come after every sheet's, in the file's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjPiece {
    /// The OBJ file, relative to the scene file (made absolute when the scene is loaded).
    pub obj: String,
    /// Added to every position after the scale.
    #[serde(default)]
    pub translation: Vec3,
    /// A uniform scale of the file's positions (about the file's origin).
    #[serde(default = "unit_scale")]
    pub scale: Real,
    /// Vertices held in place, numbered from 0 in the file's `v` order.
    #[serde(default)]
    pub pinned: Vec<u32>,
    /// The file's text, read once when the scene is loaded (or embedded by a built-in
    /// scene): a recording's header carries the mesh, so that it replays without the file.
    /// Empty until then.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

fn unit_scale() -> Real {
    1.0
}

fn two_substeps() -> u32 {
    2
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClothScene {
    /// The first sheet: vertices along `u` and along `v`. A cloth of mesh pieces only leaves
    /// `columns` and `rows` out (both 0): it has no grid sheet. Files written before there
    /// were mesh pieces always have them, so they read as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub columns: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rows: u32,
    #[serde(default)]
    pub corner: Point3,
    #[serde(default)]
    pub u: Vec3,
    #[serde(default)]
    pub v: Vec3,
    #[serde(default)]
    pub pinned: Vec<u32>,
    /// This and the fields below may be left out of a scene file (their defaults: at rest,
    /// `ClothParams::default()`, 2 substeps, nothing scripted); they are always written.
    #[serde(default)]
    pub initial_velocity: Vec3,
    /// Boxed so that the scene data of every family, one enum, stays small (the cloth's was
    /// the largest variant by far; a scene has one, so the allocation costs nothing).
    #[serde(default)]
    pub params: Box<ClothParams>,
    /// Substeps per frame: a large time step is the scene's point when it is 1.
    #[serde(default = "two_substeps")]
    pub substeps: u32,
    #[serde(default)]
    pub scripted: Vec<ScriptedBody>,
    /// Sheets after the first, their vertices numbered after its. Absent from the scene files
    /// and recordings made before there could be several (their RON text stays the same).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_sheets: Vec<ExtraSheet>,
    /// Pieces made from OBJ meshes, their vertices after every sheet's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obj_pieces: Vec<ObjPiece>,
}

/// The sheet's exact state (restoring a frame must give the same next step bit for bit) and
/// what the step found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClothFrame {
    pub positions: Vec<Point3>,
    pub velocities: Vec<Vec3>,
    pub memory: CastMemory,
    /// Inversions detected this frame, with whether the response corrected them.
    pub inversions: Vec<InversionRecord>,
    /// The frame of the recording's first inversion so far (a timeline marker).
    pub first_inversion: Option<u64>,
    /// Ray–triangle tests and complete / walked casts of the frame.
    pub ray_triangle_tests: u64,
    pub iterative_casts: u64,
    pub full_casts: u64,
}

impl ClothScene {
    pub fn validate(&self) -> Result<(), String> {
        self.params.validate()?;
        if !(1..=64).contains(&self.substeps) {
            return Err(format!(
                "substeps must lie in 1..=64, got {}",
                self.substeps
            ));
        }
        let finite = |v: &Vec3| v.iter().all(|c| c.is_finite());
        if !(finite(&self.corner.coords)
            && finite(&self.u)
            && finite(&self.v)
            && finite(&self.initial_velocity))
        {
            return Err("corner, u, v and initial_velocity must be finite".into());
        }
        if self.columns == 0 && self.rows == 0 && self.obj_pieces.is_empty() {
            return Err(
                "columns: a cloth needs a sheet (columns, rows) or a mesh piece \
                        (obj_pieces), it has neither"
                    .into(),
            );
        }
        for (field, n) in [("columns", self.columns), ("rows", self.rows)] {
            if n < 2 && self.has_first_sheet() {
                return Err(format!(
                    "{field}: a sheet needs at least 2 vertices each way, got {n}"
                ));
            }
        }
        if !self.has_first_sheet() && !self.pinned.is_empty() {
            return Err(
                "pinned: the cloth has no first sheet (columns and rows are 0); pin a \
                        mesh piece's vertices in its own pinned list"
                    .into(),
            );
        }
        let count = self.columns as u64 * self.rows as u64;
        if count > MAX_VERTICES {
            return Err(format!(
                "columns: a sheet of {} × {} vertices is more than the {MAX_VERTICES} a cloth \
                 may have",
                self.columns, self.rows
            ));
        }
        if let Some(p) = self.pinned.iter().find(|&&p| p as u64 >= count) {
            return Err(format!(
                "pinned vertex {p} is not among the {count} vertices"
            ));
        }
        let mut total = count;
        for (k, sheet) in self.extra_sheets.iter().enumerate() {
            let at = |field: &str| format!("extra_sheets[{k}].{field}");
            for (field, n) in [("columns", sheet.columns), ("rows", sheet.rows)] {
                if n < 2 {
                    return Err(format!(
                        "{}: a sheet needs at least 2 vertices each way, got {n}",
                        at(field)
                    ));
                }
            }
            for (field, v) in [
                ("corner", &sheet.corner.coords),
                ("u", &sheet.u),
                ("v", &sheet.v),
            ] {
                if !finite(v) {
                    return Err(format!("{}: must be finite, got {v:?}", at(field)));
                }
            }
            let count = sheet.columns as u64 * sheet.rows as u64;
            total += count;
            if total > MAX_VERTICES {
                return Err(format!(
                    "{}: the sheets reach {total} vertices, more than the {MAX_VERTICES} a \
                     cloth may have",
                    at("columns")
                ));
            }
            if let Some(p) = sheet.pinned.iter().find(|&&p| p as u64 >= count) {
                return Err(format!(
                    "{}: vertex {p} is not among the sheet's {count} vertices",
                    at("pinned")
                ));
            }
        }
        self.validate_pieces(total)?;
        for (i, s) in self.scripted.iter().enumerate() {
            if !(finite(&s.linear_mps) && finite(&s.angular_rps)) {
                return Err(format!("scripted[{i}]: velocities must be finite"));
            }
        }
        Ok(())
    }

    /// True unless the cloth is made of mesh pieces only (`columns` and `rows` both 0).
    pub fn has_first_sheet(&self) -> bool {
        self.columns != 0 || self.rows != 0 || self.obj_pieces.is_empty()
    }

    /// The mesh pieces' fields, and their vertex count against the bound; `sheets` vertices
    /// come before them. Their meshes are checked when read (`piece_inputs`).
    fn validate_pieces(&self, sheets: u64) -> Result<(), String> {
        for (k, piece) in self.obj_pieces.iter().enumerate() {
            let at = |field: &str| format!("obj_pieces[{k}].{field}");
            if !piece.translation.iter().all(|c| c.is_finite()) {
                let t = piece.translation;
                return Err(format!("{}: must be finite, got {t:?}", at("translation")));
            }
            if !(piece.scale.is_finite() && piece.scale > 0.0) {
                let s = piece.scale;
                return Err(format!(
                    "{}: must be a finite number > 0, got {s}",
                    at("scale")
                ));
            }
        }
        let inputs = self.piece_inputs()?;
        let mut total = sheets;
        for (k, (piece, input)) in self.obj_pieces.iter().zip(&inputs).enumerate() {
            let count = input.positions.len() as u64;
            total += count;
            if total > MAX_VERTICES {
                return Err(format!(
                    "obj_pieces[{k}].obj: the cloth reaches {total} vertices, more than the \
                     {MAX_VERTICES} it may have"
                ));
            }
            if let Some(p) = piece.pinned.iter().find(|&&p| p as u64 >= count) {
                return Err(format!(
                    "obj_pieces[{k}].pinned: vertex {p} is not among the {count} vertices of \
                     {} (numbered from 0)",
                    input.name
                ));
            }
        }
        Ok(())
    }

    /// Each mesh piece's positions (scaled, translated) and triangles, parsed from its text
    /// with the file's lines; errors name the piece's field and the file's line.
    pub fn piece_inputs(&self) -> Result<Vec<PieceInput>, String> {
        self.obj_pieces
            .iter()
            .enumerate()
            .map(|(k, piece)| {
                let file = std::path::Path::new(&piece.obj);
                if piece.text.is_empty() {
                    return Err(format!(
                        "obj_pieces[{k}].obj: {} was not read (a scene names OBJ files \
                         relative to itself, read when it is loaded from its file)",
                        piece.obj
                    ));
                }
                let obj = crate::scene::obj::parse_obj_indexed(&piece.text, file)
                    .map_err(|e| format!("obj_pieces[{k}].obj: {e}"))?;
                let name = file
                    .file_name()
                    .map_or_else(|| piece.obj.clone(), |n| n.to_string_lossy().into_owned());
                Ok(PieceInput {
                    name,
                    positions: obj
                        .positions
                        .iter()
                        .map(|p| Point3::from(p.coords * piece.scale + piece.translation))
                        .collect(),
                    triangles: obj.triangles,
                    face_lines: obj.face_lines,
                    position_lines: obj.position_lines,
                })
            })
            .collect()
    }

    /// Reads each mesh piece's OBJ file, its path relative to `dir` (the scene file's
    /// folder), into the piece, and makes the path absolute so a recording names where it
    /// came from. Errors name the field and the file.
    pub fn read_files(&mut self, dir: &std::path::Path) -> Result<(), String> {
        for (k, piece) in self.obj_pieces.iter_mut().enumerate() {
            if !piece.text.is_empty() {
                continue;
            }
            let path = std::path::PathBuf::from(&piece.obj);
            let path = if path.is_relative() {
                dir.join(path)
            } else {
                path
            };
            let bytes = crate::input::read_bounded(&path)
                .map_err(|e| format!("obj_pieces[{k}].obj: {e}"))?;
            piece.text = String::from_utf8_lossy(&bytes).into_owned();
            piece.obj = path.to_string_lossy().into_owned();
        }
        Ok(())
    }

    /// Every sheet, the first one (the scene's own fields) first; none for a cloth of mesh
    /// pieces only.
    pub fn grid_specs(&self) -> Vec<GridSpec> {
        let first = GridSpec {
            columns: self.columns,
            rows: self.rows,
            corner: self.corner,
            u: self.u,
            v: self.v,
        };
        std::iter::once(first)
            .filter(|_| self.has_first_sheet())
            .chain(self.extra_sheets.iter().map(|s| GridSpec {
                columns: s.columns,
                rows: s.rows,
                corner: s.corner,
                u: s.u,
                v: s.v,
            }))
            .collect()
    }

    /// The cloth's mesh, every sheet in it, and its rest positions.
    pub fn mesh(&self) -> Result<(ClothMesh, Vec<Point3>), String> {
        if self.obj_pieces.is_empty() {
            return ClothMesh::sheets(&self.grid_specs());
        }
        let pieces = self.piece_inputs()?;
        ClothMesh::build(&self.grid_specs(), &pieces).map_err(|e| {
            // Name the piece's field before its file and line.
            match pieces.iter().position(|p| e.starts_with(&p.name)) {
                Some(k) => format!("obj_pieces[{k}].obj: {e}"),
                None => e,
            }
        })
    }

    /// The pinned vertices, numbered in the whole cloth (each extra sheet's own numbers
    /// shifted past the sheets before it). Indices out of their sheet are the validation's
    /// to refuse; here they are kept out of other sheets by being dropped.
    pub fn pinned_vertices(&self) -> Vec<u32> {
        let mut out = self.pinned.clone();
        let mut first = self.columns as u64 * self.rows as u64;
        for s in &self.extra_sheets {
            let count = s.columns as u64 * s.rows as u64;
            out.extend(
                s.pinned
                    .iter()
                    .filter(|&&p| (p as u64) < count)
                    .filter_map(|&p| u32::try_from(first + p as u64).ok()),
            );
            first += count;
        }
        if !self.obj_pieces.is_empty() {
            let counts = self.piece_inputs().map_or_else(
                |_| vec![0; self.obj_pieces.len()],
                |inputs| inputs.iter().map(|i| i.positions.len() as u64).collect(),
            );
            for (piece, count) in self.obj_pieces.iter().zip(counts) {
                out.extend(
                    piece
                        .pinned
                        .iter()
                        .filter(|&&p| (p as u64) < count)
                        .filter_map(|&p| u32::try_from(first + p as u64).ok()),
                );
                first += count;
            }
        }
        out
    }

    pub fn half_thickness_m(&self) -> Real {
        self.params.half_thickness_m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::FamilySceneData;

    fn stacked() -> ClothScene {
        let scene = super::super::scenes::scenes()
            .into_iter()
            .find(|s| s.name == "cloth-stacked-sheets")
            .map(|s| (s.build)())
            .expect("the stacked-sheets scene is registered");
        scene
            .families
            .into_iter()
            .find_map(|d| match d {
                FamilySceneData::Cloth(c) => Some(c),
                _ => None,
            })
            .expect("a cloth")
    }

    #[test]
    fn the_stacked_scene_builds_three_sheets_with_self_collision() {
        let data = stacked();
        assert_eq!(data.validate(), Ok(()));
        assert!(data.params.self_collision);
        let (mesh, positions) = data.mesh().unwrap();
        assert_eq!(mesh.sheets.len(), 3);
        assert_eq!(positions.len(), 400 + 256 + 144);
        // Each sheet starts above the one below it, all of it.
        for k in 1..mesh.sheets.len() {
            let top_of = |k: usize| {
                mesh.sheets[k]
                    .vertices()
                    .map(|v| positions[v as usize].y)
                    .fold(Real::MIN, Real::max)
            };
            let bottom_of = |k: usize| {
                mesh.sheets[k]
                    .vertices()
                    .map(|v| positions[v as usize].y)
                    .fold(Real::MAX, Real::min)
            };
            assert!(bottom_of(k) > top_of(k - 1) + 0.04, "sheet {k}");
        }
    }

    /// Each extra sheet's fields are checked, and the error names the sheet and the field.
    #[test]
    fn a_bad_extra_sheet_is_named_with_its_field() {
        type Spoil = Box<dyn Fn(&mut ClothScene)>;
        let cases: Vec<(Spoil, &str)> = vec![
            (
                Box::new(|s: &mut ClothScene| s.extra_sheets[1].rows = 1),
                "extra_sheets[1].rows",
            ),
            (
                Box::new(|s: &mut ClothScene| s.extra_sheets[0].columns = 0),
                "extra_sheets[0].columns",
            ),
            (
                Box::new(|s: &mut ClothScene| s.extra_sheets[1].u.x = Real::NAN),
                "extra_sheets[1].u",
            ),
            (
                Box::new(|s: &mut ClothScene| s.extra_sheets[0].corner.y = Real::INFINITY),
                "extra_sheets[0].corner",
            ),
            (
                Box::new(|s: &mut ClothScene| s.extra_sheets[1].pinned = vec![144]),
                "extra_sheets[1].pinned",
            ),
            (
                Box::new(|s: &mut ClothScene| {
                    s.extra_sheets[0].columns = 2000;
                    s.extra_sheets[0].rows = 2000;
                }),
                "extra_sheets[0].columns",
            ),
            (
                Box::new(|s: &mut ClothScene| {
                    s.extra_sheets[0].columns = u32::MAX;
                    s.extra_sheets[0].rows = u32::MAX;
                }),
                "extra_sheets[0].columns",
            ),
            (Box::new(|s: &mut ClothScene| s.rows = 1), "rows"),
        ];
        for (spoil, field) in cases {
            let mut data = stacked();
            spoil(&mut data);
            let err = data.validate().unwrap_err();
            assert!(err.starts_with(field), "{field}: {err}");
            // The constructors refuse what validation refuses, without panicking.
            let _ = data.mesh();
        }
    }

    /// Pins of an extra sheet are its own vertex numbers, shifted past the sheets before it.
    #[test]
    fn extra_sheet_pins_are_shifted_past_the_sheets_before() {
        let mut data = stacked();
        data.pinned = vec![3];
        data.extra_sheets[0].pinned = vec![0, 255];
        data.extra_sheets[1].pinned = vec![7];
        assert_eq!(data.validate(), Ok(()));
        assert_eq!(data.pinned_vertices(), vec![3, 400, 655, 663]);
    }

    /// A scene written before there could be several sheets (no `extra_sheets` field) still
    /// reads, and a one-sheet scene writes no such field (its text, hence the recordings'
    /// headers, stay as they were).
    #[test]
    fn one_sheet_scenes_read_and_write_as_before() {
        let mut data = stacked();
        data.extra_sheets.clear();
        let text = ron::to_string(&data).unwrap();
        assert!(!text.contains("extra_sheets"), "{text}");
        // Nor mesh pieces (issue 28), and the first sheet's fields are all written.
        assert!(!text.contains("obj_pieces"), "{text}");
        for field in [
            "columns:",
            "rows:",
            "corner:",
            "u:",
            "v:",
            "pinned:",
            "substeps:",
        ] {
            assert!(text.contains(field), "{field} {text}");
        }
        let back: ClothScene = ron::from_str(&text).unwrap();
        assert_eq!(back, data);
        let several = stacked();
        let text = ron::to_string(&several).unwrap();
        assert!(text.contains("extra_sheets"));
        assert_eq!(ron::from_str::<ClothScene>(&text).unwrap(), several);
    }
}
