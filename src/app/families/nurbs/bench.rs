//! The NURBS bench's results, `bench-results/nurbs.csv`, read for the plots. The file is
//! written by `cargo bench --no-default-features --bench nurbs` and may be missing, old or
//! edited by hand: every line that does not parse is skipped and named, never a panic.
//!
//! Format: a header naming the columns `sweep,x,median_us,mean_us,collision_rate,queries`
//! (any order), then one row per point; `sweep` is `depth`, `net` or `rate`, or one of the
//! thesis-surface sweeps of `bench-results/nurbs-thesis.csv` (`thesis-depth`, `thesis-rate`,
//! `worst-case`, `thesis-net`, written by `cargo bench --no-default-features --bench nurbs_thesis`).

/// Where the bench writes, relative to the working directory (the crate's root).
pub const CSV_PATH: &str = "bench-results/nurbs.csv";
/// Where the thesis-surface bench writes its timing sweeps.
pub const THESIS_CSV: &str = "nurbs-thesis.csv";
/// Where it writes the precision study (see `precision_csv`).
pub const PRECISION_CSV: &str = "nurbs-precision.csv";
/// The folder of the bench results, relative to the working directory.
pub const RESULTS_DIR: &str = "bench-results";
/// The command that writes the thesis' experiments.
pub const THESIS_COMMAND: &str = "cargo bench --no-default-features --bench nurbs_thesis";
/// The command that writes it.
pub const BENCH_COMMAND: &str = "cargo bench --no-default-features --bench nurbs";

/// The three sweeps of the thesis' timing figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sweep {
    /// x: the maximum recursion depth (Fig. 3.2).
    Depth,
    /// x: n for an n × n control net (Fig. 3.5).
    Net,
    /// x: the target collision rate in percent (Fig. 3.3).
    Rate,
    /// Fig. 3.2 on Table 3.1's surfaces: x the recursion level.
    ThesisDepth,
    /// Fig. 3.3 on Table 3.1's surfaces: x the target collision rate (%).
    ThesisRate,
    /// Fig. 3.4's worst case (two parallel surfaces a hair apart): x the recursion level.
    WorstCase,
    /// Fig. 3.5: x the number of control points.
    ThesisNet,
}

impl Sweep {
    pub const ALL: [Sweep; 3] = [Sweep::Depth, Sweep::Net, Sweep::Rate];
    /// The sweeps of the thesis' experiments on its own surfaces, in figure order.
    pub const THESIS: [Sweep; 4] = [
        Sweep::ThesisDepth,
        Sweep::ThesisRate,
        Sweep::WorstCase,
        Sweep::ThesisNet,
    ];

    const NAMES: [(&'static str, Sweep); 7] = [
        ("depth", Sweep::Depth),
        ("net", Sweep::Net),
        ("rate", Sweep::Rate),
        ("thesis-depth", Sweep::ThesisDepth),
        ("thesis-rate", Sweep::ThesisRate),
        ("worst-case", Sweep::WorstCase),
        ("thesis-net", Sweep::ThesisNet),
    ];

    fn parse(s: &str) -> Option<Sweep> {
        Self::NAMES.iter().find(|(n, _)| *n == s).map(|(_, w)| *w)
    }

    pub fn title(self) -> &'static str {
        match self {
            Sweep::Depth => "Query time against recursion depth",
            Sweep::Net => "Query time against control-net size",
            Sweep::Rate => "Query time against collision rate",
            Sweep::ThesisDepth => "Fig. 3.2: time against recursion level (Table 3.1 surfaces)",
            Sweep::ThesisRate => "Fig. 3.3: time against collision rate (Table 3.1 surfaces)",
            Sweep::WorstCase => "Fig. 3.4: worst case, two parallel surfaces 0.001 apart",
            Sweep::ThesisNet => "Fig. 3.5: time against control points (noisy 4×4 refined)",
        }
    }

    pub fn x_label(self) -> &'static str {
        match self {
            Sweep::Depth => "maximum recursion depth",
            Sweep::Net => "n (n × n control net)",
            Sweep::Rate | Sweep::ThesisRate => "target collision rate (%)",
            Sweep::ThesisDepth | Sweep::WorstCase => "recursion level",
            Sweep::ThesisNet => "control points",
        }
    }

    /// What the thesis' figure shows (spec 000 §5), for the thesis-surface sweeps.
    pub fn thesis_claim(self) -> Option<&'static str> {
        match self {
            Sweep::ThesisDepth => Some(
                "Thesis: time rises with the level, a plateau from about 30 to 55, then a steep \
                 climb (single-precision floats exhausted).",
            ),
            Sweep::ThesisRate => Some(
                "Thesis: time grows with the rate, about ×10 from 0 % to 100 %, with a small dip \
                 near 100 % (the first hit ends the search).",
            ),
            Sweep::WorstCase => Some(
                "Thesis (no plot): parallel surfaces very close but apart are the worst case, \
                 subdivided over their whole area before \"no collision\".",
            ),
            Sweep::ThesisNet => Some(
                "Thesis: linear, O(n), in the number of control points (16, 100, 225, 400).",
            ),
            Sweep::Depth | Sweep::Net | Sweep::Rate => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub sweep: Sweep,
    pub x: f64,
    pub median_us: f64,
    pub mean_us: f64,
    pub collision_rate: f64,
    pub queries: u64,
}

/// What the file held: its rows, and each skipped line with its number (1-based) and cause.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchTable {
    pub rows: Vec<Row>,
    pub skipped: Vec<(usize, String)>,
}

impl BenchTable {
    /// The rows of one sweep, by x.
    pub fn sweep(&self, s: Sweep) -> Vec<Row> {
        let mut out: Vec<Row> = self.rows.iter().filter(|r| r.sweep == s).copied().collect();
        out.sort_by(|a, b| a.x.total_cmp(&b.x));
        out
    }
}

const COLUMNS: [&str; 6] = [
    "sweep",
    "x",
    "median_us",
    "mean_us",
    "collision_rate",
    "queries",
];

/// Parses the CSV text. `Err` only when there is no usable header; bad rows are skipped.
pub fn parse(text: &str) -> Result<BenchTable, String> {
    let (rows, skipped) = parse_columns(text, &COLUMNS, row)?;
    Ok(BenchTable { rows, skipped })
}

/// Rows read, and rows skipped with their line number and cause.
pub(super) type Parsed<R> = (Vec<R>, Vec<(usize, String)>);

/// The rows of a CSV with these six named columns (in any order, `#` comments and blank lines
/// skipped), each read by `row` from its line, the columns' positions and the header's width.
/// `Err` only when there is no usable header.
pub(super) fn parse_columns<R>(
    text: &str,
    columns: &[&str; 6],
    row: impl Fn(&str, &[usize; 6], usize) -> Result<R, String>,
) -> Result<Parsed<R>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((hline, header)) = lines.next() else {
        return Err("the file is empty".into());
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let mut at = [0usize; 6];
    for (k, c) in columns.iter().enumerate() {
        at[k] = names.iter().position(|n| n == c).ok_or_else(|| {
            format!("line {hline}: the header has no column `{c}` (found `{header}`)")
        })?;
    }
    let (mut rows, mut skipped) = (Vec::new(), Vec::new());
    for (n, line) in lines {
        match row(line, &at, names.len()) {
            Ok(r) => rows.push(r),
            Err(e) => skipped.push((n, e)),
        }
    }
    Ok((rows, skipped))
}

fn row(line: &str, at: &[usize; 6], width: usize) -> Result<Row, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != width {
        return Err(format!("{} fields, expected {width}", fields.len()));
    }
    let sweep = Sweep::parse(fields[at[0]])
        .ok_or_else(|| format!("sweep `{}` is not a known sweep", fields[at[0]]))?;
    let number = |k: usize| -> Result<f64, String> {
        let s = fields[at[k]];
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("{} `{s}` is not a finite number", COLUMNS[k])),
        }
    };
    let queries = fields[at[5]]
        .parse::<u64>()
        .map_err(|_| format!("queries `{}` is not a whole number", fields[at[5]]))?;
    Ok(Row {
        sweep,
        x: number(1)?,
        median_us: number(2)?,
        mean_us: number(3)?,
        collision_rate: number(4)?,
        queries,
    })
}

/// Reads and parses a file: `Err` names the file and the cause.
pub fn load(path: &std::path::Path) -> Result<BenchTable, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_rows_are_read_and_bad_ones_named() {
        let text = "sweep,x,median_us,mean_us,collision_rate,queries\n\
                    depth,4,1.5,1.7,0.5,3000\n\
                    net,20,8.25,9.0,0.49,5000\n\
                    \n\
                    rate,50,3,3.2,0.5,3000\n\
                    plane,1,1,1,1,1\n\
                    depth,x,1,1,1,1\n\
                    depth,5,1,1\n\
                    depth,6,NaN,1,0.5,10\n\
                    depth,7,1,1,0.5,-3\n";
        let t = parse(text).expect("header");
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.sweep(Sweep::Net)[0].median_us, 8.25);
        assert_eq!(t.sweep(Sweep::Rate)[0].queries, 3000);
        let lines: Vec<usize> = t.skipped.iter().map(|s| s.0).collect();
        assert_eq!(lines, vec![6, 7, 8, 9, 10]);
        assert!(t.skipped[0].1.contains("plane"));
        assert!(t.skipped[2].1.contains("4 fields"));
    }

    #[test]
    fn columns_may_come_in_any_order_and_a_bad_header_is_an_error() {
        let t = parse("x,sweep,queries,median_us,mean_us,collision_rate\n10,net,7,2,3,0.5\n")
            .expect("header");
        assert_eq!(t.rows[0].x, 10.0);
        assert_eq!(t.rows[0].queries, 7);
        assert!(parse("").is_err());
        let e = parse("sweep,x,median\ndepth,1,2\n").unwrap_err();
        assert!(e.contains("median_us"), "{e}");
        assert!(load(std::path::Path::new("/nonexistent/nurbs.csv")).is_err());
    }
}
