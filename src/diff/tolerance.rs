//! How far two numbers may be apart and still be the same.

/// `bitwise` (the default: a determinism check), `ulps:N` (another machine or compiler),
/// `abs:E` or `abs:E,rel:R` (runs that change a setting on purpose).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Tolerance {
    #[default]
    Bitwise,
    Ulps(u64),
    Abs {
        abs: f64,
        rel: f64,
    },
}

impl Tolerance {
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "bitwise" {
            return Ok(Tolerance::Bitwise);
        }
        if let Some(n) = text.strip_prefix("ulps:") {
            return n
                .parse()
                .map(Tolerance::Ulps)
                .map_err(|_| format!("ulps:N needs a whole number of units, got {n:?}"));
        }
        if let Some(rest) = text.strip_prefix("abs:") {
            let (abs, rel) = match rest.split_once(",rel:") {
                Some((a, r)) => (a, Some(r)),
                None => (rest, None),
            };
            let number = |s: &str, what: &str| -> Result<f64, String> {
                match s.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                    _ => Err(format!("{what} must be a finite number ≥ 0, got {s:?}")),
                }
            };
            return Ok(Tolerance::Abs {
                abs: number(abs, "abs")?,
                rel: rel.map(|r| number(r, "rel")).transpose()?.unwrap_or(0.0),
            });
        }
        Err(format!(
            "unknown tolerance {text:?}: use bitwise, ulps:N, abs:E or abs:E,rel:R"
        ))
    }

    /// Two NaNs are the same (a state that became NaN in both runs did not diverge).
    pub fn same(self, a: f64, b: f64) -> bool {
        if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
            return true;
        }
        match self {
            Tolerance::Bitwise => false,
            Tolerance::Ulps(n) => ulps_apart(a, b) <= n,
            Tolerance::Abs { abs, rel } => (a - b).abs() <= abs + rel * a.abs().max(b.abs()),
        }
    }
}

/// Units in the last place between two floats (on one number line through zero), so that
/// `0.0` and `-0.0` are 0 apart and the smallest numbers either side of zero 2.
pub fn ulps_apart(a: f64, b: f64) -> u64 {
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let line = |x: f64| {
        let bits = x.to_bits() as i64;
        if bits < 0 { i64::MIN - bits } else { bits }
    };
    line(a).abs_diff(line(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulps_count_steps_between_neighbours() {
        let x = 1.0f64;
        let next = f64::from_bits(x.to_bits() + 1);
        assert_eq!(ulps_apart(x, next), 1);
        assert_eq!(ulps_apart(0.0, -0.0), 0);
        let tiny = f64::from_bits(1);
        assert_eq!(ulps_apart(tiny, -tiny), 2);
        assert!(Tolerance::Ulps(1).same(x, next));
        assert!(!Tolerance::Bitwise.same(x, next));
        assert!(Tolerance::Bitwise.same(f64::NAN, f64::NAN));
    }

    #[test]
    fn parses_every_form_and_names_a_bad_one() {
        assert_eq!(Tolerance::parse("ulps:4"), Ok(Tolerance::Ulps(4)));
        assert_eq!(
            Tolerance::parse("abs:1e-6,rel:0.01"),
            Ok(Tolerance::Abs {
                abs: 1e-6,
                rel: 0.01
            })
        );
        assert!(Tolerance::parse("abs:-1").unwrap_err().contains("abs"));
        assert!(Tolerance::parse("close").unwrap_err().contains("bitwise"));
        assert!(Tolerance::Abs { abs: 0.0, rel: 0.1 }.same(100.0, 109.0));
    }
}
