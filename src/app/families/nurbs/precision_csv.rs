//! The precision study's results, `bench-results/nurbs-precision.csv`, read for the plots of
//! Figs 3.7 and 3.8. Written by `cargo bench --no-default-features --bench nurbs_thesis`; it
//! may be missing, old or edited by hand: a line that does not parse is skipped and named
//! with its number and the field at fault, never a panic.
//!
//! Format: a header naming the columns `case,motion,level,error,mean_error,hits` (any order),
//! then one row per case, motion and level; `case` is 1..=6 (the thesis' numbering), `motion`
//! `static` or `moving`, `error` the worst hit's distance to the theoretical contact and
//! `mean_error` the distance of the hits' mean.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Motion {
    Static,
    Moving,
}

impl Motion {
    pub const ALL: [Motion; 2] = [Motion::Static, Motion::Moving];

    pub fn title(self) -> &'static str {
        match self {
            Motion::Static => "Fig. 3.7: error against level, bodies placed touching",
            Motion::Moving => "Fig. 3.8: error against level, one body falling (dt 1e-4)",
        }
    }

    /// What the thesis' figure shows (spec 000 §5).
    pub fn thesis_claim(self) -> &'static str {
        match self {
            Motion::Static => {
                "Thesis: a straight line on a log error axis, the error falls exponentially \
                 with the level."
            }
            Motion::Moving => {
                "Thesis: the same shape, about 10× less precise than static (contact seen a \
                 little after it happens)."
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrecisionRow {
    pub case: u8,
    pub motion: Motion,
    pub level: u32,
    pub error: f64,
    pub mean_error: f64,
    pub hits: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrecisionTable {
    pub rows: Vec<PrecisionRow>,
    /// Skipped lines: number (1-based) and cause.
    pub skipped: Vec<(usize, String)>,
}

impl PrecisionTable {
    /// One case's rows of one motion, by level.
    pub fn series(&self, case: u8, motion: Motion) -> Vec<PrecisionRow> {
        let mut out: Vec<PrecisionRow> = self
            .rows
            .iter()
            .filter(|r| r.case == case && r.motion == motion)
            .copied()
            .collect();
        out.sort_by_key(|r| r.level);
        out
    }
}

const COLUMNS: [&str; 6] = ["case", "motion", "level", "error", "mean_error", "hits"];

/// Parses the CSV text. `Err` only when there is no usable header; bad rows are skipped.
pub fn parse(text: &str) -> Result<PrecisionTable, String> {
    let (rows, skipped) = super::bench::parse_columns(text, &COLUMNS, row)?;
    Ok(PrecisionTable { rows, skipped })
}

fn row(line: &str, at: &[usize; 6], width: usize) -> Result<PrecisionRow, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != width {
        return Err(format!("{} fields, expected {width}", fields.len()));
    }
    let field = |k: usize| fields[at[k]];
    let case = field(0)
        .parse::<u8>()
        .ok()
        .filter(|c| (1..=6).contains(c))
        .ok_or_else(|| format!("case `{}` is not 1 to 6", field(0)))?;
    let motion = match field(1) {
        "static" => Motion::Static,
        "moving" => Motion::Moving,
        m => return Err(format!("motion `{m}` is not static or moving")),
    };
    let level = field(2)
        .parse::<u32>()
        .map_err(|_| format!("level `{}` is not a whole number", field(2)))?;
    // An error of 0 is possible (a split landing on the contact) but cannot go on a log axis:
    // it is kept, and the plot clamps it.
    let distance = |k: usize| -> Result<f64, String> {
        match field(k).parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(format!(
                "{} `{}` is not a finite distance",
                COLUMNS[k],
                field(k)
            )),
        }
    };
    let hits = field(5)
        .parse::<u64>()
        .map_err(|_| format!("hits `{}` is not a whole number", field(5)))?;
    Ok(PrecisionRow {
        case,
        motion,
        level,
        error: distance(3)?,
        mean_error: distance(4)?,
        hits,
    })
}

/// Reads and parses a file: `Err` names the file and the cause.
pub fn load(path: &std::path::Path) -> Result<PrecisionTable, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_rows_are_read_and_bad_ones_named_by_line_and_field() {
        let text = "case,motion,level,error,mean_error,hits\n\
                    1,static,8,1.5e-2,1e-3,16\n\
                    1,static,4,3e-1,1e-2,16\n\
                    6,moving,8,2e-3,2e-3,1\n\
                    7,static,8,1,1,1\n\
                    2,falling,8,1,1,1\n\
                    2,static,x,1,1,1\n\
                    2,static,8,-1,1,1\n\
                    2,static,8,1,NaN,1\n\
                    2,static,8,1,1\n\
                    2,static,8,1,1,many\n";
        let t = parse(text).expect("header");
        assert_eq!(t.rows.len(), 3);
        let s = t.series(1, Motion::Static);
        assert_eq!((s[0].level, s[1].level), (4, 8));
        assert_eq!(t.series(6, Motion::Moving)[0].hits, 1);
        let lines: Vec<usize> = t.skipped.iter().map(|s| s.0).collect();
        assert_eq!(lines, vec![5, 6, 7, 8, 9, 10, 11]);
        for (k, word) in ["case", "motion", "level", "error", "mean_error", "5 fields", "hits"]
            .iter()
            .enumerate()
        {
            assert!(t.skipped[k].1.contains(word), "{:?}", t.skipped[k]);
        }
    }

    #[test]
    fn a_missing_column_or_file_is_an_error() {
        assert!(parse("").is_err());
        let e = parse("case,motion,level,error\n1,static,4,1\n").unwrap_err();
        assert!(e.contains("mean_error") && e.contains("line 1"), "{e}");
        assert!(load(std::path::Path::new("/nonexistent/p.csv")).is_err());
    }
}
