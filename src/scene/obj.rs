//! Wavefront OBJ import: a file's faces as one triangle mesh (positions only; polygons are
//! fan-triangulated, points and lines ignored, every object and group merged).
//!
//! The parsing is tobj's. OBJ files are untrusted, and tobj's errors say what went wrong but
//! not where, so the text is first checked line by line here: every position, texture and
//! normal line must hold finite numbers, and every face at least three vertices whose indices
//! (1-based, or negative counting back) name existing positions. An error names the file,
//! the line and the cause. Whatever tobj still rejects is reported with the file, and a panic
//! inside it is caught and reported the same way.

use crate::geom::{Point3, TriMesh};
use crate::input::excerpt;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ObjError {
    /// The file is missing, not a regular file or too large.
    #[error(transparent)]
    Read(#[from] crate::input::ReadError),
    #[error("{file}:{line}: {cause}")]
    Line {
        file: PathBuf,
        line: usize,
        cause: String,
    },
    #[error("{file}: {cause}")]
    File { file: PathBuf, cause: String },
}

/// Loads an OBJ file as one triangle mesh.
pub fn load_obj(path: &Path) -> Result<TriMesh, ObjError> {
    let bytes = crate::input::read_bounded(path)?;
    let text = String::from_utf8_lossy(&bytes);
    parse_obj(&text, path)
}

/// Parses OBJ text; `file` names it in errors.
pub fn parse_obj(text: &str, file: &Path) -> Result<TriMesh, ObjError> {
    let line_error = |line: usize, cause: String| ObjError::Line {
        file: file.to_path_buf(),
        line,
        cause,
    };
    // Comments are stripped here: tobj would read a trailing "# ..." as numbers.
    let cleaned: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let faces = check_lines(&cleaned).map_err(|(line, cause)| line_error(line, cause))?;
    if faces == 0 {
        return Err(ObjError::File {
            file: file.to_path_buf(),
            cause: "no faces (a mesh needs at least one)".into(),
        });
    }

    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let parsed = std::panic::catch_unwind(|| {
        let mut reader = std::io::BufReader::new(cleaned.as_bytes());
        tobj::load_obj_buf(&mut reader, &options, |_| Ok(Default::default()))
    });
    let models = match parsed {
        Ok(Ok((models, _materials))) => models,
        Ok(Err(e)) => {
            return Err(ObjError::File {
                file: file.to_path_buf(),
                cause: format!("OBJ parser: {e}"),
            });
        }
        Err(_) => {
            return Err(ObjError::File {
                file: file.to_path_buf(),
                cause: "OBJ parser failed on this file".into(),
            });
        }
    };

    let mut vertices: Vec<Point3> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    for model in &models {
        let m = &model.mesh;
        let offset = vertices.len() as u32;
        vertices.extend(
            m.positions
                .chunks_exact(3)
                .map(|p| Point3::new(p[0], p[1], p[2])),
        );
        triangles.extend(
            m.indices
                .chunks_exact(3)
                .map(|t| [t[0] + offset, t[1] + offset, t[2] + offset]),
        );
    }
    TriMesh::new(vertices, triangles).map_err(|e| ObjError::File {
        file: file.to_path_buf(),
        cause: e.to_string(),
    })
}

/// An OBJ's faces with the file's own vertex numbering and lines: what a cloth piece is made
/// from (its pinned vertices are numbered as in the file, its errors name face lines).
/// [`parse_obj`] goes through tobj, which renumbers positions in the order faces use them.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedObj {
    /// Every `v` line's position, in file order (unused ones included).
    pub positions: Vec<Point3>,
    /// The line of each position.
    pub position_lines: Vec<usize>,
    /// Faces fan-triangulated from their first corner, 0-based position indices.
    pub triangles: Vec<[u32; 3]>,
    /// The `f` line each triangle comes from.
    pub face_lines: Vec<usize>,
}

/// Parses OBJ text keeping its vertex order and face lines; the same line checks as
/// [`parse_obj`] (same errors, naming `file` and the line). Points and lines are ignored.
pub fn parse_obj_indexed(text: &str, file: &Path) -> Result<IndexedObj, ObjError> {
    let cleaned: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect();
    let faces = check_lines(&cleaned.join("\n")).map_err(|(line, cause)| ObjError::Line {
        file: file.to_path_buf(),
        line,
        cause,
    })?;
    if faces == 0 {
        return Err(ObjError::File {
            file: file.to_path_buf(),
            cause: "no faces (a mesh needs at least one)".into(),
        });
    }
    let mut out = IndexedObj {
        positions: Vec::new(),
        position_lines: Vec::new(),
        triangles: Vec::new(),
        face_lines: Vec::new(),
    };
    // The lines are checked: numbers parse and indices name positions.
    for (i, content) in cleaned.iter().enumerate() {
        let mut words = content.split_whitespace();
        match words.next() {
            Some("v") => {
                let c: Vec<f64> = words.take(3).filter_map(|w| w.parse().ok()).collect();
                if let [x, y, z] = c[..] {
                    out.positions.push(Point3::new(x, y, z));
                    out.position_lines.push(i + 1);
                }
            }
            Some("f") => {
                let count = out.positions.len() as i64;
                let corners: Vec<u32> = words
                    .filter_map(|w| w.split('/').next()?.parse::<i64>().ok())
                    .map(|k| if k < 0 { count + k } else { k - 1 })
                    .filter_map(|k| u32::try_from(k).ok())
                    .collect();
                for k in 1..corners.len().saturating_sub(1) {
                    out.triangles.push([corners[0], corners[k], corners[k + 1]]);
                    out.face_lines.push(i + 1);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// What a face corner's index names: a position, a texture coordinate or a normal.
const WHAT: [&str; 3] = ["position", "texture coordinate", "normal"];

/// A line's number (1-based) and what is wrong with it.
type LineError = (usize, String);

/// Checks every line tobj will read (comments already stripped); returns the number of
/// faces, or the first bad line (1-based) and why.
fn check_lines(text: &str) -> Result<usize, LineError> {
    let mut counts = [0usize; 3];
    // Positive indices may refer forward: checked once all lines are read.
    let mut forward: Vec<(usize, usize, usize)> = Vec::new(); // (line, kind, 0-based index)
    let mut faces = 0;
    for (i, content) in text.lines().enumerate() {
        let line = i + 1;
        let mut words = content.split_whitespace();
        match words.next() {
            Some("v") => {
                check_position(&words.collect::<Vec<_>>(), line)?;
                counts[0] += 1;
            }
            Some("vt") => {
                numbers(&words.collect::<Vec<_>>(), 2, line, "texture coordinate")?;
                counts[1] += 1;
            }
            Some("vn") => {
                numbers(&words.collect::<Vec<_>>(), 3, line, "normal")?;
                counts[2] += 1;
            }
            Some(kind @ ("f" | "l")) => {
                let corners: Vec<&str> = words.collect();
                if kind == "f" && corners.len() < 3 {
                    let n = corners.len();
                    let why = format!("a face needs at least 3 vertices, this one has {n}");
                    return Err((line, why));
                }
                for corner in corners {
                    forward.extend(corner_indices(corner, line, &counts)?);
                }
                faces += usize::from(kind == "f");
            }
            _ => {}
        }
    }
    check_forward(&forward, &counts)?;
    Ok(faces)
}

/// A `v` line: 3 numbers, 4 with a weight or 6 with a colour.
fn check_position(values: &[&str], line: usize) -> Result<(), LineError> {
    numbers(values, 3, line, "position")?;
    match values.len() {
        3 => Ok(()),
        4 => match values[3].parse::<f64>() {
            Ok(w) if w.is_finite() && w != 0.0 => Ok(()),
            _ => Err((
                line,
                format!(
                    "weight \"{}\" must be a finite non-zero number",
                    excerpt(values[3])
                ),
            )),
        },
        6 => numbers(&values[3..], 3, line, "vertex colour"),
        n => Err((
            line,
            format!("a position has 3 numbers, 4 with a weight or 6 with a colour, not {n}"),
        )),
    }
}

/// The (line, kind, 0-based index) of each index of a face corner (`v`, `v/vt`, `v//vn` or
/// `v/vt/vn`); negative indices count back from the `counts` read so far.
fn corner_indices(
    corner: &str,
    line: usize,
    counts: &[usize; 3],
) -> Result<Vec<(usize, usize, usize)>, LineError> {
    let parts: Vec<&str> = corner.split('/').collect();
    let corner = excerpt(corner);
    if parts.len() > 3 {
        let why = format!("\"{corner}\" is not a face vertex (v, v/vt, v//vn or v/vt/vn)");
        return Err((line, why));
    }
    let mut out = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        if part.is_empty() && k > 0 {
            continue;
        }
        let what = WHAT[k];
        let index: i64 = part.parse().map_err(|_| {
            (
                line,
                format!(
                    "\"{}\" is not a {what} index in \"{corner}\"",
                    excerpt(part)
                ),
            )
        })?;
        let resolved = match index {
            0 => {
                let why = format!("{what} index 0 in \"{corner}\" (OBJ indices start at 1)");
                return Err((line, why));
            }
            x if x < 0 => {
                let back = x.unsigned_abs() as usize;
                if back > counts[k] {
                    let why = format!(
                        "{what} index {x} reaches before the first {what} ({} so far)",
                        counts[k]
                    );
                    return Err((line, why));
                }
                counts[k] - back
            }
            x => x as usize - 1,
        };
        out.push((line, k, resolved));
    }
    Ok(out)
}

/// Texture and normal indices only matter when the file has any (tobj ignores them
/// otherwise); positions always do.
fn check_forward(forward: &[(usize, usize, usize)], counts: &[usize; 3]) -> Result<(), LineError> {
    for &(line, k, index) in forward {
        if index >= counts[k] && (k == 0 || counts[k] > 0) {
            return Err((
                line,
                format!(
                    "{} index {} but the file has only {} {}s",
                    WHAT[k],
                    index + 1,
                    counts[k],
                    WHAT[k]
                ),
            ));
        }
    }
    Ok(())
}

/// At least `n` numbers, the first `n` finite.
fn numbers(values: &[&str], n: usize, line: usize, what: &str) -> Result<(), LineError> {
    if values.len() < n {
        return Err((
            line,
            format!("a {what} needs {n} numbers, found {}", values.len()),
        ));
    }
    for v in &values[..n] {
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() => {}
            Ok(_) => {
                let v = excerpt(v);
                return Err((line, format!("{what} coordinate \"{v}\" is not finite")));
            }
            Err(_) => {
                let v = excerpt(v);
                return Err((line, format!("\"{v}\" is not a number in a {what}")));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TriMesh, ObjError> {
        parse_obj(text, Path::new("test.obj"))
    }

    #[test]
    fn quads_groups_and_negative_indices() {
        let text = "# a unit square and a triangle\n\
                    o square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\n\
                    g tri\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf -3 -2 -1\nl 1 2\n";
        let m = parse(text).unwrap();
        assert_eq!(m.triangles.len(), 3);
        let area: f64 = m.triangles().map(|t| t.area()).sum();
        assert!((area - 1.5).abs() < 1e-12);
        let z1 = m
            .triangles()
            .filter(|t| t.a.z == 1.0 && t.b.z == 1.0 && t.c.z == 1.0)
            .count();
        assert_eq!(z1, 1);
    }

    /// The indexed parse keeps the file's vertex order (tobj's renumbers by first use) and
    /// unused vertices, fans polygons from their first corner, resolves negative indices at
    /// their line, and names each triangle's face line; its errors are `parse_obj`'s.
    #[test]
    fn indexed_parse_keeps_file_order_and_face_lines() {
        let text = "# header\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 9 9 9\n\
                    f 3/1/1 4 1 2\nvt 0 0\nvn 0 0 1\nf -5 -4 -3 # a comment\nl 1 2\n";
        let m = parse_obj_indexed(text, Path::new("order.obj")).unwrap();
        assert_eq!(m.positions.len(), 5);
        assert_eq!(m.positions[4], Point3::new(9.0, 9.0, 9.0));
        assert_eq!(m.position_lines, vec![2, 3, 4, 5, 6]);
        assert_eq!(m.triangles, vec![[2, 3, 0], [2, 0, 1], [0, 1, 2]]);
        assert_eq!(m.face_lines, vec![7, 7, 10]);
        for bad in ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "v 0 0 0\nv 1 x 0\n"] {
            let a = parse_obj_indexed(bad, Path::new("t.obj"))
                .unwrap_err()
                .to_string();
            let b = parse_obj(bad, Path::new("t.obj")).unwrap_err().to_string();
            assert_eq!(a, b);
        }
        assert!(parse_obj_indexed("v 0 0 0\n", Path::new("t.obj")).is_err());
    }

    #[test]
    fn positions_keep_double_precision() {
        let m = parse("v 0.1 0.2 1e-9\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        assert!(
            m.vertices
                .iter()
                .any(|p| p.x == 0.1 && p.y == 0.2 && p.z == 1e-9)
        );
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("v 0 0 0\nv 1 0\n", 2, "needs 3 numbers"),
            ("v 0 0 0\nv 1 0 x\n", 2, "not a number"),
            ("v 0 0 nan\n", 1, "not finite"),
            (
                "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n",
                5,
                "only 3 positions",
            ),
            ("v 0 0 0 # comment\nv 1 0 0 0\n", 2, "weight"),
            (
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/2 2/1 3/1\n",
                5,
                "only 1 texture",
            ),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "index 0"),
            ("v 0 0 0\nf -2 -1 1\n", 2, "before the first"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "at least 3"),
            (
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/a 2 3\n",
                4,
                "not a texture coordinate index",
            ),
        ];
        for (text, line, cause) in cases {
            match parse(text) {
                Err(ObjError::Line {
                    line: l,
                    cause: c,
                    file,
                }) => {
                    assert_eq!(l, line, "{text:?}: {c}");
                    assert!(c.contains(cause), "{text:?}: {c}");
                    assert_eq!(file, Path::new("test.obj"));
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert!(matches!(parse("v 0 0 0\n"), Err(ObjError::File { .. })));
        let missing = load_obj(Path::new("/nonexistent/dir/x.obj")).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("/nonexistent/dir/x.obj: cannot read"),
            "{missing}"
        );
    }

    /// Whatever the bytes, an answer and no panic.
    #[test]
    fn garbage_never_panics() {
        let mut s = 1u64;
        let alphabet = b"vfntl/-0123456789. \n#e+og";
        for _ in 0..3000 {
            let len = (s % 60) as usize;
            let text: String = (0..len)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    alphabet[(s >> 33) as usize % alphabet.len()] as char
                })
                .collect();
            let _ = parse(&text);
            let _ = parse_obj_indexed(&text, Path::new("garbage.obj"));
        }
    }

    #[test]
    fn a_huge_token_is_quoted_as_a_short_excerpt() {
        let huge = "x".repeat(10 << 20);
        for text in [
            format!("v 1 2 {huge}\n"),
            format!("v 0 0 0\nf 1 1 {huge}\n"),
        ] {
            let e = parse_obj(&text, Path::new("big.obj"))
                .unwrap_err()
                .to_string();
            assert!(
                e.len() < 200,
                "{} bytes: {}",
                e.len(),
                &e[..200.min(e.len())]
            );
            assert!(e.contains("(10485760 bytes)"), "{e}");
        }
    }
}
