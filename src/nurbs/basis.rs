//! B-spline basis functions by the Cox–de Boor recurrence (The NURBS Book, A2.1–A2.2), and
//! their first derivatives.

use super::surface::MAX_DEGREE;

/// Basis values for one parameter: the `p + 1` non-zero functions `N_{span-p..=span}`.
pub type Basis = [f64; MAX_DEGREE + 1];

/// The knot span `k` with `knots[k] <= u < knots[k+1]`, clamped to the domain so that the
/// last parameter value belongs to the last non-empty span.
pub fn find_span(count: usize, degree: usize, u: f64, knots: &[f64]) -> usize {
    let last = count - 1;
    if u >= knots[last + 1] {
        let mut k = last;
        while k > degree && knots[k] >= knots[last + 1] {
            k -= 1;
        }
        return k;
    }
    if u <= knots[degree] {
        let mut k = degree;
        while k < last && knots[k + 1] <= knots[degree] {
            k += 1;
        }
        return k;
    }
    let (mut low, mut high) = (degree, last + 1);
    let mut mid = (low + high) / 2;
    while u < knots[mid] || u >= knots[mid + 1] {
        if u < knots[mid] {
            high = mid;
        } else {
            low = mid;
        }
        mid = (low + high) / 2;
    }
    mid
}

/// The non-zero basis functions of degree `degree` at `u` in span `span`.
pub fn basis_functions(span: usize, u: f64, degree: usize, knots: &[f64]) -> Basis {
    let mut n = [0.0; MAX_DEGREE + 1];
    let mut left = [0.0; MAX_DEGREE + 1];
    let mut right = [0.0; MAX_DEGREE + 1];
    n[0] = 1.0;
    for j in 1..=degree {
        left[j] = u - knots[span + 1 - j];
        right[j] = knots[span + j] - u;
        let mut saved = 0.0;
        for r in 0..j {
            let denom = right[r + 1] + left[j - r];
            let temp = if denom != 0.0 { n[r] / denom } else { 0.0 };
            n[r] = saved + right[r + 1] * temp;
            saved = left[j - r] * temp;
        }
        n[j] = saved;
    }
    n
}

/// Basis values and first derivatives, from the degree-1-lower functions:
/// `N'_{i,p} = p/(u_{i+p}-u_i) N_{i,p-1} - p/(u_{i+p+1}-u_{i+1}) N_{i+1,p-1}`.
pub fn basis_with_derivatives(span: usize, u: f64, degree: usize, knots: &[f64]) -> (Basis, Basis) {
    let values = basis_functions(span, u, degree, knots);
    let mut ders = [0.0; MAX_DEGREE + 1];
    let lower = basis_functions(span, u, degree - 1, knots);
    let p = degree as f64;
    for (k, d) in ders.iter_mut().enumerate().take(degree + 1) {
        let i = span + k - degree;
        let mut value = 0.0;
        if k >= 1 {
            let denom = knots[i + degree] - knots[i];
            if denom != 0.0 {
                value += p / denom * lower[k - 1];
            }
        }
        if k < degree {
            let denom = knots[i + degree + 1] - knots[i + 1];
            if denom != 0.0 {
                value -= p / denom * lower[k];
            }
        }
        *d = value;
    }
    (values, ders)
}
