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
) -> (BrushClip, Option<MissReason>) {
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
            return (BrushClip::Miss, Some(MissReason::InFrontOf));
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
        return (BrushClip::Miss, Some(MissReason::ExitBeforeEntry));
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
