//! Quake-style `.map` levels: entities of `"key" "value"` pairs and brushes, each brush a list
//! of faces given by three points (clockwise seen from outside, Quake's convention) and a
//! texture, in the standard layout or the Valve 220 one (`[ u ] [ v ]` texture axes). Only
//! the world's brushes are collision; other entities are noted and skipped. Coordinates stay
//! as in the file (Quake: z up).

use super::Brush;
pub use super::map_error::MapError;
use super::map_lexer::{Lexer, Tok};
use crate::geom::triangle::scaled_normal;
use crate::geom::{Plane, Point3, Real};
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
pub struct MapLevel {
    pub brushes: Vec<Brush>,
    /// The first `info_player_start`'s origin.
    pub player_start: Option<Point3>,
    pub valve220: bool,
    /// What was skipped, one line each (entities other than the world, their brushes).
    pub notes: Vec<String>,
}

impl Lexer<'_> {
    fn expect(&mut self, want: Tok, what: &str) -> Result<(), MapError> {
        match self.peek() {
            Some(t) if t == want => {
                self.next();
                Ok(())
            }
            Some(t) => {
                let t = crate::input::excerpt(&format!("{t:?}"));
                self.err(format!("expected {what}, found {t}"))
            }
            None => self.err(format!("expected {what}, found the end of the file")),
        }
    }

    fn number(&mut self, what: &str) -> Result<Real, MapError> {
        match self.peek() {
            Some(Tok::Word(w)) => match w.parse::<Real>() {
                Ok(v) if v.is_finite() => {
                    self.next();
                    Ok(v)
                }
                _ => {
                    let w = crate::input::excerpt(w);
                    self.err(format!("{what}: '{w}' is not a finite number"))
                }
            },
            _ => self.err(format!("expected a number ({what})")),
        }
    }

    fn point(&mut self) -> Result<Point3, MapError> {
        self.expect(Tok::LParen, "'(' opening a face point")?;
        let p = Point3::new(
            self.number("point x")?,
            self.number("point y")?,
            self.number("point z")?,
        );
        self.expect(Tok::RParen, "')' closing a face point")?;
        Ok(p)
    }

    /// One face: three points, a texture, then texture parameters up to the end of the line
    /// (standard: offsets, rotation, scales and optional Quake 2 flags; Valve 220: two
    /// bracketed axes first).
    fn face(&mut self, valve220: bool) -> Result<Plane, MapError> {
        let line = self.line();
        let (a, b, c) = (self.point()?, self.point()?, self.point()?);
        match self.peek() {
            Some(Tok::Word(_)) | Some(Tok::Quoted(_)) => {
                self.next();
            }
            _ => return self.err("expected a texture name after the three points"),
        }
        if valve220 || self.peek() == Some(Tok::LBracket) {
            for axis in ["u", "v"] {
                self.expect(
                    Tok::LBracket,
                    &format!("'[' opening the Valve 220 {axis} axis"),
                )?;
                for _ in 0..4 {
                    self.number(&format!("Valve 220 {axis} axis"))?;
                }
                self.expect(
                    Tok::RBracket,
                    &format!("']' closing the Valve 220 {axis} axis"),
                )?;
            }
        }
        while self.peek_line() == Some(line) {
            if !matches!(self.peek(), Some(Tok::Word(_))) {
                return self.err("unexpected token in the texture parameters");
            }
            self.number("texture parameter")?;
        }
        // Quake's convention: points clockwise seen from outside give an outward normal.
        let n = scaled_normal(b, a, c);
        match Plane::from_point_normal(&a, &n) {
            Some(p) => Ok(p),
            None => Err(MapError {
                file: self.file.to_path_buf(),
                line,
                cause: "the face's three points are on one line (no plane)".into(),
            }),
        }
    }
}

pub fn load_map(path: &Path) -> Result<MapLevel, MapError> {
    let text = crate::input::read_text_bounded(path).map_err(|e| MapError {
        file: path.to_path_buf(),
        line: 0,
        cause: e.reason.to_string(),
    })?;
    parse_map(&text, path)
}

pub fn parse_map(text: &str, file: &Path) -> Result<MapLevel, MapError> {
    let mut lx = Lexer::new(text, file);
    let mut level = MapLevel {
        brushes: Vec::new(),
        player_start: None,
        valve220: false,
        notes: Vec::new(),
    };
    let mut entity = 0usize;
    while lx.peek().is_some() {
        let entity_line = lx.line();
        lx.expect(Tok::Open, "'{' opening an entity")?;
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut brushes: Vec<(usize, Vec<Plane>)> = Vec::new();
        loop {
            match lx.peek() {
                Some(Tok::Close) => {
                    lx.next();
                    break;
                }
                Some(Tok::Quoted(k)) => {
                    lx.next();
                    match lx.peek() {
                        Some(Tok::Quoted(v)) => {
                            lx.next();
                            if k == "mapversion" && v.trim() == "220" {
                                level.valve220 = true;
                            }
                            keys.push((k, v));
                        }
                        _ => {
                            let k = crate::input::excerpt(k);
                            return lx.err(format!("key \"{k}\" has no quoted value"));
                        }
                    }
                }
                Some(Tok::Open) => {
                    let line = lx.line();
                    lx.next();
                    let mut planes = Vec::new();
                    while lx.peek() != Some(Tok::Close) {
                        if lx.peek().is_none() {
                            return lx.err(format!("brush opened on line {line} is not closed"));
                        }
                        planes.push(lx.face(level.valve220)?);
                    }
                    lx.next();
                    brushes.push((line, planes));
                }
                None => {
                    return lx.err(format!("entity opened on line {entity_line} is not closed"));
                }
                Some(t) => {
                    let t = crate::input::excerpt(&format!("{t:?}"));
                    return lx.err(format!("expected a key, a brush or '}}', found {t}"));
                }
            }
        }
        let class = keys
            .iter()
            .find(|(k, _)| *k == "classname")
            .map_or("", |(_, v)| v);
        if class == "worldspawn" || (entity == 0 && class.is_empty()) {
            for (line, planes) in brushes {
                let brush = Brush::from_planes(&planes).map_err(|e| MapError {
                    file: file.to_path_buf(),
                    line,
                    cause: format!("brush: {e}"),
                })?;
                level.brushes.push(brush);
            }
        } else {
            if class == "info_player_start"
                && level.player_start.is_none()
                && let Some((_, origin)) = keys.iter().find(|(k, _)| *k == "origin")
            {
                let v: Vec<Real> = origin
                    .split_whitespace()
                    .filter_map(|s| s.parse().ok())
                    .filter(|x: &Real| x.is_finite())
                    .collect();
                if v.len() != 3 {
                    return Err(MapError {
                        file: file.to_path_buf(),
                        line: entity_line,
                        cause: format!(
                            "origin \"{}\" is not three numbers",
                            crate::input::excerpt(origin)
                        ),
                    });
                }
                level.player_start = Some(Point3::new(v[0], v[1], v[2]));
            }
            let what = if class.is_empty() {
                "(no classname)"
            } else {
                class
            };
            let mut note = format!("line {entity_line}: entity {what} ignored (not collision)");
            if !brushes.is_empty() {
                note.push_str(&format!(", with its {} brush(es)", brushes.len()));
            }
            level.notes.push(note);
        }
        entity += 1;
    }
    lx.finish()?;
    if level.brushes.is_empty() {
        return Err(MapError {
            file: file.to_path_buf(),
            line: 1,
            cause: "the map has no world brushes".into(),
        });
    }
    Ok(level)
}
