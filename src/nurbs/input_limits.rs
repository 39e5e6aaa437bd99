//! The magnitudes a NURBS surface read from JSON may hold, checked field by field before the
//! surface is built: a query line or a surface file is untrusted, and each limit below keeps
//! the evaluation's arithmetic finite and its subdivision meaningful. (The fuzzer's reproducers:
//! a knot span of 1e-308, knots at ±1e308, weights of 5e-324 or 1e308, and an interior knot
//! repeated past degree + 1, which indexed out of the basis arrays.)

use super::field_error::FieldError;

/// The largest knot magnitude: knot differences stay finite, and halving a span 20 times
/// (the op's finest precision) still finds distinct doubles.
pub const MAX_KNOT: f64 = 1e12;

/// The narrowest non-empty knot span, as a fraction of the larger of 1 and the largest knot:
/// derivatives grow as the inverse of a span, and a span that is a few ulps of its knots
/// cannot be halved.
pub const MIN_SPAN: f64 = 1e-6;

/// The largest control point coordinate (as for the other ops' shapes).
pub const MAX_COORDINATE: f64 = crate::query::limits::MAX_COORDINATE;

/// Weights must lie in [1 / MAX_WEIGHT, MAX_WEIGHT]: a homogeneous point is a coordinate
/// times its weight, so a weight of 1e308 overflows and one of 5e-324 rounds the point away.
pub const MAX_WEIGHT: f64 = 1e100;

/// The largest ratio between two weights of one surface. Where a heavy point's basis function
/// vanishes but its derivative does not, a derivative grows with the ratio: at 1e30, with the
/// coordinate and span limits, the normal's squared cross product stays below 1e270. (The
/// fuzzer's weights of 1e23 against 1 pass, and stop at the op's box budget.)
pub const MAX_WEIGHT_RATIO: f64 = 1e30;

/// The finest precision a query accepts, as a fraction of the larger surface's size (the
/// diagonal of its control points' box): about 17 halvings per direction. Each halving is
/// one level, and a precision far below the surfaces' size asks for so many that an all-hits
/// query runs for minutes or fills memory (the fuzzer's hang: one control point at 1e23 with
/// a precision of 0.01; a generated scene's point at 1e30 asked for 3 GB).
pub const MIN_RELATIVE_PRECISION: f64 = 1e-5;

/// Box pairs one query may test (a fraction of a second): surfaces touching along an area in
/// all-hits mode, or weights far apart, would otherwise keep it running for minutes (the
/// fuzzer's hangs). Past it the query says `truncated` and holds the hits found so far.
pub const MAX_BOX_TESTS: u64 = 200_000;

/// Box pairs one simulator step may test over all its queries (`box_budget`): a step costs
/// at most what one query may. The built-in scenes' busiest step tests 43,000.
pub const MAX_STEP_BOX_TESTS: u64 = 200_000;

fn fail(field: String, cause: String) -> FieldError {
    FieldError { field, cause }
}

/// Checks one knot vector (`at` names it, `a.knots_u`): magnitudes, span widths and
/// multiplicities (no value more than `degree + 1` times). Ordering is `NurbsSurface`'s check.
pub fn check_knots(knots: &[f64], degree: usize, at: &str) -> Result<(), FieldError> {
    if let Some(i) = knots.iter().position(|k| k.abs() > MAX_KNOT) {
        return Err(fail(
            format!("{at}[{i}]"),
            format!("knot {:e} is beyond ±{MAX_KNOT:e}", knots[i]),
        ));
    }
    let largest = knots.iter().fold(1.0, |m: f64, k| m.max(k.abs()));
    let mut run = 1;
    for i in 1..knots.len() {
        let span = knots[i] - knots[i - 1];
        if span > 0.0 && span < MIN_SPAN * largest {
            return Err(fail(
                format!("{at}[{i}]"),
                format!(
                    "the knot span before it is {span:e}, narrower than {MIN_SPAN:e} × {largest:e} \
                     (the larger of 1 and the largest knot): repeat the knot instead"
                ),
            ));
        }
        run = if span == 0.0 { run + 1 } else { 1 };
        if run > degree + 1 {
            return Err(fail(
                format!("{at}[{i}]"),
                format!(
                    "knot {} appears {run} times, more than degree + 1 = {}",
                    knots[i],
                    degree + 1
                ),
            ));
        }
    }
    Ok(())
}

/// Checks one control point's coordinates `[x, y, z]` (`at` names the point).
pub fn check_coordinates(c: &[f64], at: &str) -> Result<(), FieldError> {
    match c.iter().position(|x| x.abs() > MAX_COORDINATE) {
        Some(k) => Err(fail(
            format!("{at}[{k}]"),
            format!("coordinate {:e} is beyond ±{MAX_COORDINATE:e}", c[k]),
        )),
        None => Ok(()),
    }
}

/// Checks one weight (positive already): within [1 / MAX_WEIGHT, MAX_WEIGHT].
pub fn check_weight(w: f64, at: &str) -> Result<(), FieldError> {
    if (1.0 / MAX_WEIGHT..=MAX_WEIGHT).contains(&w) {
        Ok(())
    } else {
        Err(fail(
            at.to_string(),
            format!(
                "weight {w:e} is outside [{:e}, {MAX_WEIGHT:e}]",
                1.0 / MAX_WEIGHT
            ),
        ))
    }
}

/// Checks the spread of a surface's weights, given with their fields: the lightest may not be
/// more than `MAX_WEIGHT_RATIO` times lighter than the heaviest. Names the lightest.
pub fn check_weight_ratio(weights: &[(String, f64)]) -> Result<(), FieldError> {
    let lightest = weights.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    let heaviest = weights.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    let (Some((field, low)), Some((heavy_field, high))) = (lightest, heaviest) else {
        return Ok(());
    };
    if high / low > MAX_WEIGHT_RATIO {
        return Err(fail(
            field.clone(),
            format!(
                "weight {low:e} is more than {MAX_WEIGHT_RATIO:e} times lighter than {heavy_field} ({high:e})"
            ),
        ));
    }
    Ok(())
}

/// The limits above on a surface already built (a scene file's, whose fields serde read):
/// its knots, its Cartesian control points and its weights. `at` names the surface.
pub fn check_surface(s: &super::NurbsSurface, at: &str) -> Result<(), FieldError> {
    check_knots(&s.knots_u, s.degree_u, &format!("{at}.knots_u"))?;
    check_knots(&s.knots_v, s.degree_v, &format!("{at}.knots_v"))?;
    let mut weights = Vec::with_capacity(s.points.len());
    for (k, h) in s.points.iter().enumerate() {
        let p_at = format!("{at}.points[{k}]");
        check_weight(h.w, &format!("{p_at}.w"))?;
        check_coordinates(&[h.x / h.w, h.y / h.w, h.z / h.w], &p_at)?;
        weights.push((format!("{p_at}.w"), h.w));
    }
    check_weight_ratio(&weights)
}

/// Refuses a precision finer than `MIN_RELATIVE_PRECISION` of `size`, or any precision when
/// the size is not finite.
pub fn check_precision(precision: f64, size: f64) -> Result<(), String> {
    if size.is_finite() && precision >= size * MIN_RELATIVE_PRECISION {
        return Ok(());
    }
    Err(format!(
        "{precision} is finer than {MIN_RELATIVE_PRECISION:e} of the surfaces' size ({size:e}): pass a coarser precision"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knots_name_the_offending_index() {
        assert!(check_knots(&[0.0, 0.0, 0.5, 1.0, 1.0], 1, "k").is_ok());
        let e = check_knots(&[0.0, 0.0, 0.5, 0.5, 0.5, 1.0, 1.0], 1, "k").unwrap_err();
        assert_eq!(e.field, "k[4]");
        let e = check_knots(&[0.0, 0.0, 1e-308, 1.0, 1.0], 1, "k").unwrap_err();
        assert_eq!(e.field, "k[2]");
        let e = check_knots(&[-1e308, -1e308, 1e308, 1e308], 1, "k").unwrap_err();
        assert_eq!(e.field, "k[0]");
    }

    #[test]
    fn weights_in_range_and_spread() {
        assert!(check_weight(5e-324, "w").is_err());
        assert!(check_weight(1e308, "w").is_err());
        assert!(check_weight(0.5, "w").is_ok());
        let w = [("p0".to_string(), 1.0), ("p1".to_string(), 1e-31)];
        assert_eq!(check_weight_ratio(&w).unwrap_err().field, "p1");
    }
}
