use super::{Brush, Shape};
use crate::geom::{Point3, Real};
use serde::{Deserialize, Serialize};

/// The skin kept between a shape and every wall after an impact (spec 001 §4.2).
pub const MIN_DISTANCE: Real = 0.01;

/// What sweeping a shape against one brush found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BrushClip {
    /// The segment never enters the pushed-out brush.
    Miss,
    /// Enters through `plane` at `enter` (the latest entry over the brush's planes) and would
    /// leave at `exit` (the earliest exit, capped at 1); `impact` stops `MIN_DISTANCE` short.
    Hit {
        plane: u16,
        enter: Real,
        exit: Real,
        impact: Real,
    },
    /// The shape already overlaps the brush at the start. `plane` is the plane the start is
    /// least deep behind: the way out.
    StartSolid { plane: u16, depth: Real },
}

/// Why a brush was missed and by which plane, for the trace: a missed brush is a step the
/// viewer explains ("entered at 0.33 by plane 2, after leaving at 0.17"), not a row of zeros.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Missed {
    pub reason: MissReason,
    /// The plane the whole move stays in front of, or the plane of the latest entry.
    pub plane: u16,
    /// The latest entry and the earliest exit (both 0 when the move is in front of `plane`:
    /// it neither enters nor leaves).
    pub enter: Real,
    pub exit: Real,
}

/// Why a brush was missed, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissReason {
    /// The whole segment is in front of one plane.
    InFrontOf,
    /// Entered after it had already left (a convex corner passed outside).
    ExitBeforeEntry,
}

/// Clips the segment `start → end` against the brush pushed out by the shape's offsets.
/// A convex solid is entered when the segment is behind every plane, so the entry is the
/// *latest* front-to-back crossing and the hit is real only if it comes before the *earliest*
/// back-to-front crossing; the article's smallest entry fraction gives early and phantom hits.
#[inline]
pub fn clip_brush(brush: &Brush, shape: &Shape, start: &Point3, end: &Point3) -> BrushClip {
    clip_brush_why(brush, shape, start, end).0
}

/// [`clip_brush`] with the reason of a miss.
pub fn clip_brush_why(
    brush: &Brush,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
) -> (BrushClip, Option<Missed>) {
    let mut enter = Real::NEG_INFINITY;
    let mut enter_plane = 0u16;
    let mut enter_d = (0.0, 0.0);
    let mut exit: Real = 1.0;
    let mut starts_out = false;
    let mut shallowest = (Real::NEG_INFINITY, 0u16);
    for (i, plane) in brush.planes.iter().enumerate() {
        let off = shape.offset(&plane.normal);
        let d1 = plane.signed_distance(start) - off;
        let d2 = plane.signed_distance(end) - off;
        if d1 >= 0.0 {
            starts_out = true;
        } else if d1 > shallowest.0 {
            shallowest = (d1, i as u16);
        }
        if d1 >= 0.0 && d2 >= 0.0 {
            let missed = Missed {
                reason: MissReason::InFrontOf,
                plane: i as u16,
                enter: 0.0,
                exit: 0.0,
            };
            return (BrushClip::Miss, Some(missed));
        }
        if d1 < 0.0 && d2 <= 0.0 {
            continue;
        }
        // Signs differ here, so d1 - d2 is not zero.
        let f = d1 / (d1 - d2);
        if d1 > d2 {
            if f > enter {
                enter = f;
                enter_plane = i as u16;
                enter_d = (d1, d2);
            }
        } else if f < exit {
            exit = f;
        }
    }
    if !starts_out {
        return (
            BrushClip::StartSolid {
                plane: shallowest.1,
                depth: -shallowest.0,
            },
            None,
        );
    }
    if enter >= exit || enter == Real::NEG_INFINITY {
        let missed = Missed {
            reason: MissReason::ExitBeforeEntry,
            plane: enter_plane,
            enter: enter.max(0.0),
            exit,
        };
        return (BrushClip::Miss, Some(missed));
    }
    let enter = enter.clamp(0.0, 1.0);
    let impact = ((enter_d.0 - MIN_DISTANCE) / (enter_d.0 - enter_d.1)).clamp(0.0, enter);
    (
        BrushClip::Hit {
            plane: enter_plane,
            enter,
            exit,
            impact,
        },
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::{BspTree, sweep};
    use crate::geom::Vec3;
    use crate::trace::{EventKind, TraceRecorder};

    fn unit_box() -> Brush {
        Brush::cuboid(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap()
    }

    fn plane_along(brush: &Brush, normal: Vec3) -> u16 {
        brush
            .planes
            .iter()
            .position(|p| (p.normal - normal).norm() < 1e-12)
            .unwrap() as u16
    }

    /// A point passing outside the box's edge x = 0, z = 0: x = -1 + 3t enters by the plane
    /// x = 0 at t = 1/3, z = 0.5 - 3t leaves by the plane z = 0 at t = 1/6, earlier.
    fn corner_pass() -> (Point3, Point3, Shape) {
        let tiny = Shape::Sphere { radius: 1e-9 };
        (
            Point3::new(-1.0, 0.5, 0.5),
            Point3::new(2.0, 0.5, -2.5),
            tiny,
        )
    }

    #[test]
    fn a_corner_miss_names_its_entry_plane_and_both_fractions() {
        let brush = unit_box();
        let (start, end, shape) = corner_pass();
        let (clip, why) = clip_brush_why(&brush, &shape, &start, &end);
        assert_eq!(clip, BrushClip::Miss);
        let m = why.unwrap();
        assert_eq!(m.reason, MissReason::ExitBeforeEntry);
        assert_eq!(m.plane, plane_along(&brush, -Vec3::x()));
        assert!((m.enter - 1.0 / 3.0).abs() < 1e-6, "{m:?}");
        assert!((m.exit - 1.0 / 6.0).abs() < 1e-6, "{m:?}");
        // In front of the plane y = 1 all the way: that plane is named.
        let (clip, why) = clip_brush_why(
            &brush,
            &shape,
            &Point3::new(0.5, 2.0, 0.5),
            &Point3::new(0.5, 3.0, 0.5),
        );
        assert_eq!(clip, BrushClip::Miss);
        let m = why.unwrap();
        assert_eq!(m.reason, MissReason::InFrontOf);
        assert_eq!(m.plane, plane_along(&brush, Vec3::y()));
    }

    /// The recorded step of the same pass: the trace carries the entry plane and fractions.
    #[test]
    fn a_traced_corner_miss_records_the_fractions() {
        let tree = BspTree::build(vec![unit_box()]);
        let (start, end, shape) = corner_pass();
        let mut probe = TraceRecorder::default();
        sweep(&tree, &shape, &start, &end, &mut probe);
        let clip = probe
            .events
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::Bsp(crate::bsp::BspEvent::Clip {
                    plane, enter, exit, ..
                }) => Some((*plane, *enter, *exit)),
                _ => None,
            })
            .expect("the brush was clipped");
        assert_eq!(clip.0, plane_along(&tree.brushes[0], -Vec3::x()));
        assert!((clip.1 - 1.0 / 3.0).abs() < 1e-6 && (clip.2 - 1.0 / 6.0).abs() < 1e-6);
    }
}
