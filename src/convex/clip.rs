//! Clipping an edge against a Voronoi region (Mirtich 1998, §4.2): the parameter interval
//! of the edge inside the region, and the neighbours whose planes cut it.

use super::{Feature, RegionPlane};
use crate::geom::{Point3, Real};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clip {
    /// The edge's points `tail + λ (head − tail)` for λ in [lo, hi] are in the region.
    pub lo: Real,
    pub hi: Real,
    /// The neighbour whose plane set `lo` (`hi`), if a plane did.
    pub n_lo: Option<Feature>,
    pub n_hi: Option<Feature>,
    pub exclusion: Exclusion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exclusion {
    /// Part of the edge is in the region.
    None,
    /// The whole edge is outside one plane: the walk moves across it.
    Simple(Feature),
    /// The edge misses the region but no single plane excludes it.
    Compound,
}

pub fn clip_edge(tail: &Point3, head: &Point3, planes: &[RegionPlane]) -> Clip {
    let mut c = Clip {
        lo: 0.0,
        hi: 1.0,
        n_lo: None,
        n_hi: None,
        exclusion: Exclusion::None,
    };
    for plane in planes {
        let (dt, dh) = (plane.signed(tail), plane.signed(head));
        if dt < 0.0 && dh < 0.0 {
            c.n_lo = Some(plane.neighbour);
            c.n_hi = Some(plane.neighbour);
            c.exclusion = Exclusion::Simple(plane.neighbour);
            return c;
        }
        if dt < 0.0 {
            let l = dt / (dt - dh);
            if l > c.lo {
                c.lo = l;
                c.n_lo = Some(plane.neighbour);
                if c.lo > c.hi {
                    c.exclusion = Exclusion::Compound;
                    return c;
                }
            }
        } else if dh < 0.0 {
            let l = dt / (dt - dh);
            if l < c.hi {
                c.hi = l;
                c.n_hi = Some(plane.neighbour);
                if c.hi < c.lo {
                    c.exclusion = Exclusion::Compound;
                    return c;
                }
            }
        }
    }
    c
}
