//! A brush's axis-aligned planes as six numbers, so that a sweep drops a brush the whole move
//! stays in front of with six subtractions instead of its plane loop.
//!
//! Bevelled brushes always hold the six axial planes (the faces of their bounding box), and
//! most brushes a sweep reaches in a leaf are missed by one of them. The test is the clip's own
//! "in front of this plane at both ends" test, computed with the same arithmetic: for a plane
//! of normal exactly `+x`, `n·p - d` is `p.x - d` to the bit, and `(a - d) - off` only grows
//! with `a`, so the end nearest the plane decides for both. A brush without an axial plane on
//! some side is never dropped by that side, so unbevelled brushes stay exact too.

use super::Brush;
#[cfg(test)]
use super::Shape;
use crate::geom::{Point3, Real, Vec3};

/// The `d` of a brush's planes of normal `+e_a` (`pos`) and `-e_a` (`neg`), per axis `a`;
/// infinity where the brush has no such plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxialPlanes {
    pos: [Real; 3],
    neg: [Real; 3],
}

impl AxialPlanes {
    pub fn of(brush: &Brush) -> AxialPlanes {
        let mut out = AxialPlanes {
            pos: [Real::INFINITY; 3],
            neg: [Real::INFINITY; 3],
        };
        for plane in &brush.planes {
            for a in 0..3 {
                let axis = Vec3::ith(a, 1.0);
                // The first plane of a direction, as the clip would meet it; any would do.
                if plane.normal == axis && out.pos[a] == Real::INFINITY {
                    out.pos[a] = plane.d;
                } else if plane.normal == -axis && out.neg[a] == Real::INFINITY {
                    out.neg[a] = plane.d;
                }
            }
        }
        out
    }

    /// Planes that every move a brush of `self` or of `other` is dropped by also stays in
    /// front of: the farther plane of each direction. A subtree's union drops a move exactly
    /// when each of its brushes would (subtraction rounds monotonically).
    pub fn union(&self, other: &AxialPlanes) -> AxialPlanes {
        AxialPlanes {
            pos: std::array::from_fn(|a| self.pos[a].max(other.pos[a])),
            neg: std::array::from_fn(|a| self.neg[a].max(other.neg[a])),
        }
    }

    /// The union's identity: planes every move is in front of.
    pub const NOTHING: AxialPlanes = AxialPlanes {
        pos: [Real::NEG_INFINITY; 3],
        neg: [Real::NEG_INFINITY; 3],
    };
}

/// [`AxialPlanes`] in single precision, each `d` rounded up (`pos` then `neg`): half
/// the bytes and a cheap test for the nodes of the compact walk. A larger `d` only moves a
/// plane outwards, so these drop a move only where the exact planes do (see
/// [`RoundedExtent::misses`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundedPlanes {
    d: [f32; 6],
}

/// `x` rounded to a single-precision value no smaller than it (infinities kept).
fn up(x: Real) -> f32 {
    let f = x as f32;
    if Real::from(f) < x { f.next_up() } else { f }
}

impl RoundedPlanes {
    pub fn of(planes: &AxialPlanes) -> RoundedPlanes {
        let mut d = [0.0; 6];
        for a in 0..3 {
            d[a] = up(planes.pos[a]);
            d[3 + a] = up(planes.neg[a]);
        }
        RoundedPlanes { d }
    }
}

/// One sweep's [`SweptExtent`] against [`RoundedPlanes`]: per direction, how far the nearest
/// end of the move may be behind a plane with the move still in front of it once pushed out,
/// rounded down to single precision.
#[derive(Clone, Copy, Debug)]
pub struct RoundedExtent {
    room: [f32; 6],
}

impl RoundedExtent {
    /// Whether the move stays in front of one of the planes: six comparisons.
    ///
    /// Exact because: with `room ≤ m - off` (exact) and `room ≥ d'` ≥ `d`, `m - d ≥ off`
    /// holds exactly, so `m ⊖ d ≥ off` (rounding is monotonic and `off` is a double), and the
    /// exact test's `(m ⊖ d) ⊖ off ≥ 0` holds too: this drops a move only where
    /// [`SweptExtent::misses`] does.
    #[inline]
    pub fn misses(&self, planes: &RoundedPlanes) -> bool {
        let mut out = false;
        for k in 0..6 {
            out |= self.room[k] >= planes.d[k];
        }
        out
    }
}

/// One sweep's extent per axis and the shape's offsets along the six axial normals.
pub struct SweptExtent {
    min: [Real; 3],
    max: [Real; 3],
    off_pos: [Real; 3],
    off_neg: [Real; 3],
}

impl SweptExtent {
    /// `None` when a coordinate is not finite: then the clip's own arithmetic decides.
    #[cfg(test)]
    pub fn new(shape: &Shape, start: &Point3, end: &Point3) -> Option<SweptExtent> {
        SweptExtent::with_half(&shape.half_extents(), start, end)
    }

    /// [`Self::new`] given the shape's [`Shape::half_extents`]: its offsets along `+e_a`, and
    /// along `-e_a` too, to the bit (every shape's offset takes the normal's components
    /// through `abs` or a square).
    #[inline]
    pub fn with_half(half: &Vec3, start: &Point3, end: &Point3) -> Option<SweptExtent> {
        if !(start.coords.iter().chain(end.coords.iter())).all(|c| c.is_finite()) {
            return None;
        }
        let mut e = SweptExtent {
            min: [0.0; 3],
            max: [0.0; 3],
            off_pos: [half.x, half.y, half.z],
            off_neg: [half.x, half.y, half.z],
        };
        for a in 0..3 {
            e.min[a] = start[a].min(end[a]);
            e.max[a] = start[a].max(end[a]);
        }
        Some(e)
    }

    /// Whether both ends of the move are in front of one of the brush's axial planes pushed
    /// out by the shape: exactly when the clip would stop at that plane with a miss.
    #[inline]
    pub fn misses(&self, planes: &AxialPlanes) -> bool {
        // Every test taken, joined without branches: which one drops a brush is hard to
        // predict, and six subtractions cost less than a mispredicted jump.
        let mut out = false;
        for a in 0..3 {
            out |= (self.min[a] - planes.pos[a]) - self.off_pos[a] >= 0.0;
            out |= (-self.max[a] - planes.neg[a]) - self.off_neg[a] >= 0.0;
        }
        out
    }

    /// The extent against rounded planes (see [`RoundedExtent::misses`]).
    #[inline]
    pub fn rounded(&self) -> RoundedExtent {
        let mut room = [0.0; 6];
        for a in 0..3 {
            room[a] = below(self.min[a] - self.off_pos[a]);
            room[3 + a] = below(-self.max[a] - self.off_neg[a]);
        }
        RoundedExtent { room }
    }
}

/// A single-precision value below the exact difference that rounded to `r`: lowered by more
/// than the two roundings can raise it (2^-53 of its size to a double, 2^-24 of its size or
/// 2^-150 to a single), without a branch on the way the rounding went.
#[inline]
fn below(r: Real) -> f32 {
    const RELATIVE: Real = 1.0 / (1u64 << 20) as Real;
    const ABSOLUTE: Real = f32::MIN_POSITIVE as Real;
    let lowered = r - r.abs() * RELATIVE - ABSOLUTE;
    if lowered.is_nan() {
        // An infinite room (the difference overflowed): no room is known.
        return f32::NEG_INFINITY;
    }
    lowered.min(Real::from(f32::MAX)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::clip::{BrushClip, clip_brush};
    use crate::geom::Plane;
    use proptest::prelude::*;

    fn shapes() -> impl Strategy<Value = Shape> {
        crate::bsp::shape::any_shape(2.0, 0.0)
    }

    fn point() -> impl Strategy<Value = Point3> {
        // A lattice half the time, so that ends land exactly on pushed-out planes.
        prop_oneof![
            (-4i32..5, -4i32..5, -4i32..5).prop_map(|(x, y, z)| Point3::new(
                x as Real * 0.5,
                y as Real * 0.5,
                z as Real
            )),
            (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
        ]
    }

    /// A box brush, cut by a slanted plane, with or without its bevels.
    fn brush() -> impl Strategy<Value = Brush> {
        (
            (-2.0..1.0f64, -2.0..1.0f64, -2.0..1.0f64),
            (0.5..2.0f64, 0.5..2.0f64, 0.5..2.0f64),
            proptest::option::of((-1.0..1.0f64, -1.0..1.0f64, 0.2..1.0f64)),
            any::<bool>(),
        )
            .prop_filter_map("a brush", |(lo, size, cut, bevels)| {
                let lo = Point3::new(lo.0, lo.1, lo.2);
                let hi = lo + Vec3::new(size.0, size.1, size.2);
                let mut planes = crate::bsp::box_planes(lo.into(), hi.into());
                if let Some((x, y, z)) = cut {
                    let n = Vec3::new(x, y, z).normalize();
                    let c = nalgebra::center(&lo, &hi);
                    planes.push(Plane {
                        normal: n,
                        d: n.dot(&c.coords),
                    });
                }
                Brush::from_planes_with(&planes, bevels).ok()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        /// The oracle is the clip itself: a dropped brush is one the clip misses.
        #[test]
        fn a_dropped_brush_is_one_the_clip_misses(
            brush in brush(),
            shape in shapes(),
            start in point(),
            end in point(),
        ) {
            let extent = SweptExtent::new(&shape, &start, &end).unwrap();
            if extent.misses(&AxialPlanes::of(&brush)) {
                prop_assert_eq!(clip_brush(&brush, &shape, &start, &end), BrushClip::Miss);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// A group's union drops a move only when it would drop it from every brush.
        #[test]
        fn a_union_drops_a_move_only_when_each_brush_does(
            brushes in proptest::collection::vec(brush(), 0..5),
            shape in shapes(),
            start in point(),
            end in point(),
        ) {
            let extent = SweptExtent::new(&shape, &start, &end).unwrap();
            let union = brushes
                .iter()
                .fold(AxialPlanes::NOTHING, |u, b| u.union(&AxialPlanes::of(b)));
            if extent.misses(&union) {
                for b in &brushes {
                    prop_assert!(extent.misses(&AxialPlanes::of(b)));
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]
        /// Rounding the planes outwards never drops a move the exact planes keep.
        #[test]
        fn rounded_planes_drop_a_move_only_when_the_exact_ones_do(
            brushes in proptest::collection::vec(brush(), 0..3),
            shape in shapes(),
            start in point(),
            end in point(),
        ) {
            let extent = SweptExtent::new(&shape, &start, &end).unwrap();
            let exact = brushes
                .iter()
                .fold(AxialPlanes::NOTHING, |u, b| u.union(&AxialPlanes::of(b)));
            if extent.rounded().misses(&RoundedPlanes::of(&exact)) {
                prop_assert!(extent.misses(&exact));
            }
        }
    }

    proptest! {
        /// `below` is below the exact difference, however far apart its terms are.
        #[test]
        fn room_is_below_the_exact_difference(
            m in prop_oneof![-1e6..1e6f64, any::<f64>()],
            off in prop_oneof![0.0..2.0f64, 0.0..1e300f64],
        ) {
            prop_assume!(m.is_finite());
            let room = below(m - off);
            // Exactly: `room ≤ m - off` when `room + off ≤ m`, each side compared in a wider
            // sense through the larger error-free sum (two-sum of `room` and `off`).
            let r = Real::from(room);
            prop_assume!(r.is_finite());
            let s = r + off;
            let err = if r.abs() >= off.abs() { off - (s - r) } else { r - (s - off) };
            prop_assert!(s < m || (s == m && err <= 0.0), "{room} + {off} > {m}");
        }
    }

    #[test]
    fn rounding_up_goes_up_and_keeps_infinities() {
        let values = [0.1, -0.1, 1e-40, -1e-40, 1e-50, 1e39, -1e39, 3.0, 0.0];
        for x in values
            .into_iter()
            .chain([Real::INFINITY, Real::NEG_INFINITY])
        {
            assert!(Real::from(up(x)) >= x, "{x}: {}", up(x));
            if x.is_infinite() {
                assert_eq!(Real::from(up(x)), x);
            }
        }
    }

    proptest! {
        /// `with_half` takes one offset for both directions of an axis: they are equal.
        #[test]
        fn offsets_along_an_axis_and_its_opposite_are_equal_to_the_bit(shape in shapes()) {
            for a in 0..3 {
                let pos = shape.offset(&Vec3::ith(a, 1.0));
                prop_assert_eq!(pos.to_bits(), shape.offset(&Vec3::ith(a, -1.0)).to_bits());
                prop_assert_eq!(pos.to_bits(), shape.half_extents()[a].to_bits());
            }
        }
    }

    #[test]
    fn a_move_beside_a_box_is_dropped_and_one_into_it_is_not() {
        let brush = Brush::cuboid(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let ball = Shape::Sphere { radius: 0.25 };
        let planes = AxialPlanes::of(&brush);
        let beside = SweptExtent::new(
            &ball,
            &Point3::new(2.0, 0.5, 0.5),
            &Point3::new(1.25, 3.0, 0.5),
        );
        assert!(beside.unwrap().misses(&planes));
        let into = SweptExtent::new(
            &ball,
            &Point3::new(2.0, 0.5, 0.5),
            &Point3::new(1.0, 0.5, 0.5),
        );
        assert!(!into.unwrap().misses(&planes));
        // Not finite: left to the clip.
        assert!(
            SweptExtent::new(&ball, &Point3::new(Real::NAN, 0.0, 0.0), &Point3::origin()).is_none()
        );
    }
}
