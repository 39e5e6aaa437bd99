//! The query's choices that the thesis makes one way and this project offers another (§2.1,
//! §2.4 of the digest): which axes a piece's box takes, which direction a piece is halved in,
//! how the recursion is shaped, where a hit's normal comes from. The defaults are the thesis'
//! own; the others are kept for comparison (the bench, the cost-model counters).
//!
//! The split rule is a function of the piece alone (its knots and its own number of halvings),
//! so a recorded path of halvings still names its rectangle: [`halve`] is what the query, the
//! warm tree, the rebuild of a recorded path and the viewer all call.

use super::split::Direction;
use super::surface::NurbsSurface;

/// Which frame a sub-patch's box takes. The whole surface always gets the covariance box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BoxRule {
    /// The thesis (§2.1): eigenvectors of the covariance of the piece's control points.
    #[default]
    Covariance,
    /// The frame of the piece's four corner control points (mean u edge, normal of the
    /// diagonals): no moments and no eigen-solver.
    CornerFrame,
}

/// Which direction a piece is halved in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SplitRule {
    /// The thesis (Algorithm 2.3): the direction with more knots, else alternate. Knots are
    /// counted as non-empty spans inside the piece's domain, not as the knot vector's length:
    /// the length counts the degree, and with p ≠ q the literal rule would halve the
    /// higher-degree direction forever (§2.4's pitfall). A direction with more spans is cut
    /// at its interior knot nearest the middle, so both halves have fewer spans and the rule
    /// reaches single spans in finitely many halvings (a midpoint cut beside an off-centre
    /// knot keeps two spans on one side at every halving and would zoom on the knot forever).
    /// With equal counts the piece's own halvings alternate U, V, U, ... at the middle:
    /// what `Level AND 2` gives each surface, as each is halved every other level.
    #[default]
    Thesis,
    /// U and V in turn by the piece's own number of halvings, always at the middle.
    Alternate,
}

/// The shape of the recursion (§2.4), for the cost model T = N·(C_c + C_t + C_s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Recursion {
    /// Algorithm 2.3: one box built per call (the other is passed down), only the first
    /// surface halved, the surfaces swap places at every level.
    #[default]
    OneSplit,
    /// Algorithm 2.1 (NURBSCollideBase): both boxes built at every call; the subdivision is
    /// not specified, it halves one surface per call as 2.3 does, so the two differ only in
    /// the boxes built (the same tree, twice the C_c).
    Base,
    /// Algorithm 2.2: both boxes built, both surfaces cut in four (Subdivide4: one halving
    /// in each direction, by the split rule), 16 pairs one level deeper.
    Subdivide4,
}

/// Where a hit's normals come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NormalRule {
    /// The surface's ∂S/∂u × ∂S/∂v at the centre of the hit rectangle.
    #[default]
    Surface,
    /// The thesis (§2.4 outputs): the leaf box's thinnest axis (at high levels the boxes are
    /// "practically rectangular polygons"), oriented like ∂S/∂u × ∂S/∂v.
    ThinnestAxis,
}

/// The four choices together, as a scene sets them (its `rules`, the thesis' when absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NurbsRules {
    #[serde(rename = "box")]
    pub box_rule: BoxRule,
    #[serde(rename = "split")]
    pub split_rule: SplitRule,
    pub recursion: Recursion,
    pub normal: NormalRule,
}

impl NurbsRules {
    /// All four as the thesis makes them.
    pub fn is_thesis(&self) -> bool {
        *self == Self::default()
    }
}

/// The direction in which a piece that has been halved `depth` times is halved next.
pub fn split_direction(s: &NurbsSurface, depth: u8, rule: SplitRule) -> Direction {
    let alternate = if depth.is_multiple_of(2) {
        Direction::U
    } else {
        Direction::V
    };
    match rule {
        SplitRule::Alternate => alternate,
        SplitRule::Thesis => {
            let (su, sv) = s.span_counts();
            match su.cmp(&sv) {
                std::cmp::Ordering::Greater => Direction::U,
                std::cmp::Ordering::Less => Direction::V,
                std::cmp::Ordering::Equal => alternate,
            }
        }
    }
}

/// Where in `dir` the piece is cut: the middle, or (the thesis rule on a direction with more
/// spans) the interior knot nearest the middle.
pub fn split_parameter(s: &NurbsSurface, dir: Direction, rule: SplitRule) -> f64 {
    let [u0, u1, v0, v1] = s.domain();
    let (lo, hi, knots) = match dir {
        Direction::U => (u0, u1, &s.knots_u),
        Direction::V => (v0, v1, &s.knots_v),
    };
    let mid = (lo + hi) * 0.5;
    if rule == SplitRule::Alternate {
        return mid;
    }
    let (su, sv) = s.span_counts();
    let more = match dir {
        Direction::U => su > sv,
        Direction::V => sv > su,
    };
    if !more {
        return mid;
    }
    knots
        .iter()
        .copied()
        .filter(|&k| k > lo && k < hi)
        .min_by(|a, b| (a - mid).abs().total_cmp(&(b - mid).abs()))
        .unwrap_or(mid)
}

/// The direction and the parameter of the next halving of a piece.
pub fn split_plan(s: &NurbsSurface, depth: u8, rule: SplitRule) -> (Direction, f64) {
    let dir = split_direction(s, depth, rule);
    (dir, split_parameter(s, dir, rule))
}

/// The two halves of a piece that has been halved `depth` times, lower first.
pub fn halve(s: &NurbsSurface, depth: u8, rule: SplitRule) -> (NurbsSurface, NurbsSurface) {
    let (dir, t) = split_plan(s, depth, rule);
    s.split_at(dir, t)
}

/// Whether halving still gives two pieces: a rectangle a few ulps wide has no midpoint
/// strictly inside it.
pub fn splittable(s: &NurbsSurface) -> bool {
    let [u0, u1, v0, v1] = s.domain();
    let wide = |a: f64, b: f64| b - a > 8.0 * f64::EPSILON * a.abs().max(b.abs()).max(1.0);
    wide(u0, u1) && wide(v0, v1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat 1×1-span patch of degrees (p, q) on [0,1]².
    fn patch(p: usize, q: usize) -> NurbsSurface {
        let (nu, nv) = (p + 1, q + 1);
        let mut pts = Vec::new();
        for i in 0..nu {
            for j in 0..nv {
                pts.push([i as f64 / p as f64, j as f64 / q as f64, 0.0]);
            }
        }
        let clamp = |d: usize| [vec![0.0; d + 1], vec![1.0; d + 1]].concat();
        NurbsSurface::new(
            (p, q),
            (clamp(p), clamp(q)),
            (nu, nv),
            &pts,
            &vec![1.0; nu * nv],
        )
        .expect("a valid patch")
    }

    /// Halvings per direction along the path that always takes the lower half.
    fn halvings(mut s: NurbsSurface, rule: SplitRule, levels: u8) -> (u32, u32) {
        let (mut nu, mut nv) = (0, 0);
        for d in 0..levels {
            match split_direction(&s, d, rule) {
                Direction::U => nu += 1,
                Direction::V => nv += 1,
            }
            s = halve(&s, d, rule).0;
        }
        (nu, nv)
    }

    /// The literal rule (knot vector lengths) on degrees 3 × 1 would halve u forever; the
    /// span count sees one span each way and alternates.
    #[test]
    fn different_degrees_do_not_starve_a_direction() {
        let s = patch(3, 1);
        assert!(s.knots_u.len() > s.knots_v.len(), "the literal rule's trap");
        assert_eq!(halvings(s, SplitRule::Thesis, 12), (6, 6));
        assert_eq!(halvings(patch(1, 2), SplitRule::Thesis, 9), (5, 4));
    }

    /// More spans in u: u is cut at knots until one span is left, then the rule alternates.
    /// An off-centre knot (0.3) is cut at, not zoomed on.
    #[test]
    fn more_spans_are_cut_at_knots_then_alternate() {
        let base = patch(3, 3);
        let s = base
            .with_knot(Direction::U, 0.3)
            .with_knot(Direction::U, 0.8);
        assert_eq!(s.span_counts(), (3, 1));
        let (dir, t) = split_plan(&s, 0, SplitRule::Thesis);
        assert_eq!((dir, t), (Direction::U, 0.3));
        let (nu, nv) = halvings(s.clone(), SplitRule::Thesis, 10);
        assert!(nv >= 4 && nu >= 4, "both directions shrink: {nu} {nv}");
        // 0.3 is nearer the middle than 0.8. Alternate keeps the middle.
        assert_eq!(split_plan(&s, 0, SplitRule::Alternate), (Direction::U, 0.5));
    }
}
