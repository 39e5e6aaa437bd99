//! A feature's Voronoi region made drawable: the region is an intersection of half-spaces
//! that runs to infinity, so it is cut by a display box around the body, leaving a convex
//! polytope whose faces can be drawn translucent. Each face remembers the plane it came from
//! (a region plane and the neighbour it leads to, or the display box), so the view can tell
//! the reader which side leads where.

use crate::convex::{Feature, Placed, RegionPlane, region_planes};
use crate::geom::{Point3, Real, Vec3};

/// Where a face of the bounded region comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// A plane of the region; crossing it leads to `neighbour`'s region.
    Region { neighbour: Feature },
    /// The face's own plane (the floor of a face's prism).
    FacePlane,
    /// The display box that makes the region finite.
    Box,
    /// A face of a body (the overlap of two bodies is cut from one by the other).
    Body,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    pub points: Vec<Point3>,
    pub side: Side,
}

/// A half-space `normal · p ≥ offset`.
#[derive(Clone, Copy, Debug)]
struct HalfSpace {
    normal: Vec3,
    offset: Real,
    side: Side,
}

/// A box in the body's frame (so that a cube's regions come out as neat cells), placed in
/// the world: its centre, its three unit axes and half sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayBox {
    pub center: Point3,
    pub axes: [Vec3; 3],
    pub half: [Real; 3],
}

impl DisplayBox {
    /// The body's own bounding box grown by `margin` times its largest half size: room for
    /// the regions to show their shape beyond the body.
    pub fn around(placed: &Placed, margin: Real) -> DisplayBox {
        let mut lo = [Real::INFINITY; 3];
        let mut hi = [Real::NEG_INFINITY; 3];
        for v in &placed.shape.vertices {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        if !lo[0].is_finite() {
            lo = [0.0; 3];
            hi = [0.0; 3];
        }
        let biggest = (0..3).map(|k| hi[k] - lo[k]).fold(1e-6, Real::max) / 2.0;
        let centre_local = Point3::new(
            (lo[0] + hi[0]) / 2.0,
            (lo[1] + hi[1]) / 2.0,
            (lo[2] + hi[2]) / 2.0,
        );
        let rot = placed.pose.rotation;
        DisplayBox {
            center: placed.pose * centre_local,
            axes: [rot * Vec3::x(), rot * Vec3::y(), rot * Vec3::z()],
            half: [0, 1, 2].map(|k| (hi[k] - lo[k]) / 2.0 + margin * biggest),
        }
    }

    fn corner(&self, signs: [Real; 3]) -> Point3 {
        let mut p = self.center;
        for ((axis, sign), half) in self.axes.iter().zip(signs).zip(self.half) {
            p += axis * (sign * half);
        }
        p
    }

    /// The box's six faces, outward winding.
    fn polygons(&self) -> Vec<Polygon> {
        let mut out = Vec::with_capacity(6);
        for k in 0..3 {
            let (u, v) = ((k + 1) % 3, (k + 2) % 3);
            for s in [-1.0, 1.0] {
                // Corners in order around the face; the winding is irrelevant to clipping.
                let quad = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(a, b)| {
                    let mut signs = [0.0; 3];
                    signs[k] = s;
                    signs[u] = a;
                    signs[v] = b;
                    self.corner(signs)
                });
                out.push(Polygon {
                    points: quad.to_vec(),
                    side: Side::Box,
                });
            }
        }
        out
    }
}

/// The feature's region cut by the box, as its faces. Empty when the box misses the region.
pub fn bounded_region(placed: &Placed, feature: Feature, bounds: &DisplayBox) -> Vec<Polygon> {
    if !placed.shape.contains(feature) {
        return Vec::new();
    }
    let mut planes: Vec<RegionPlane> = Vec::new();
    region_planes(placed, feature, &mut planes);
    let mut halves: Vec<HalfSpace> = planes
        .iter()
        .map(|p| HalfSpace {
            normal: p.normal,
            offset: p.offset,
            side: Side::Region {
                neighbour: p.neighbour,
            },
        })
        .collect();
    if let Feature::Face(f) = feature {
        let (normal, offset) = placed.face_plane(f);
        halves.push(HalfSpace {
            normal,
            offset,
            side: Side::FacePlane,
        });
    }
    let mut polys = bounds.polygons();
    for h in &halves {
        polys = clip(&polys, h);
        if polys.is_empty() {
            break;
        }
    }
    polys
}

/// The overlap of two convex bodies as its faces: A's faces cut by every face plane of B.
/// Empty when they do not overlap.
pub fn overlap(a: &Placed, b: &Placed) -> Vec<Polygon> {
    let mut polys: Vec<Polygon> = (0..a.shape.faces.len())
        .map(|f| Polygon {
            points: a.shape.faces[f].iter().map(|&v| a.vertex(v)).collect(),
            side: Side::Body,
        })
        .collect();
    for g in 0..b.shape.faces.len() as u32 {
        let (normal, offset) = b.face_plane(g);
        polys = clip(
            &polys,
            &HalfSpace {
                normal: -normal,
                offset: -offset,
                side: Side::Body,
            },
        );
        if polys.is_empty() {
            break;
        }
    }
    polys
}

/// Keeps the part of a closed convex polytope (given by its faces) on the half-space's side,
/// closing the cut with a new face on the plane.
fn clip(polys: &[Polygon], h: &HalfSpace) -> Vec<Polygon> {
    let scale = polys
        .iter()
        .flat_map(|p| p.points.iter())
        .map(|p| p.coords.norm())
        .fold(1.0, Real::max);
    let eps = 1e-9 * scale;
    let dist = |p: &Point3| h.normal.dot(&p.coords) - h.offset;
    let mut out = Vec::with_capacity(polys.len() + 1);
    let mut cut: Vec<Point3> = Vec::new();
    for poly in polys {
        let n = poly.points.len();
        let mut kept = Vec::with_capacity(n + 1);
        for i in 0..n {
            let (p, q) = (poly.points[i], poly.points[(i + 1) % n]);
            let (dp, dq) = (dist(&p), dist(&q));
            if dp >= -eps {
                kept.push(p);
                if dp.abs() <= eps {
                    cut.push(p);
                }
            }
            if (dp < -eps && dq > eps) || (dp > eps && dq < -eps) {
                let x = p + (q - p) * (dp / (dp - dq));
                kept.push(x);
                cut.push(x);
            }
        }
        if kept.len() >= 3 {
            out.push(Polygon {
                points: kept,
                side: poly.side,
            });
        }
    }
    // A face already lying in the plane (two bodies sharing a face plane) is the cap.
    let has_face_in_plane = out
        .iter()
        .any(|p| p.points.iter().all(|q| dist(q).abs() <= eps));
    if !has_face_in_plane && let Some(cap) = cap_polygon(&cut, &h.normal, eps) {
        out.push(Polygon {
            points: cap,
            side: h.side,
        });
    }
    out
}

/// The points where the plane cut the polytope, in order around their centre: the new face.
fn cap_polygon(points: &[Point3], normal: &Vec3, eps: Real) -> Option<Vec<Point3>> {
    let mut unique: Vec<Point3> = Vec::with_capacity(points.len());
    for p in points {
        if unique.iter().all(|q| (q - p).norm() > eps * 10.0) {
            unique.push(*p);
        }
    }
    if unique.len() < 3 {
        return None;
    }
    let centre = Point3::from(unique.iter().map(|p| p.coords).sum::<Vec3>() / unique.len() as Real);
    let helper = if normal.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = normal.cross(&helper).try_normalize(1e-300)?;
    let v = normal.cross(&u);
    unique.sort_by(|a, b| {
        let (da, db) = (a - centre, b - centre);
        da.dot(&v)
            .atan2(da.dot(&u))
            .total_cmp(&db.dot(&v).atan2(db.dot(&u)))
    });
    Some(unique)
}

/// The number of faces that come from region planes (and a face's own plane): how many of
/// the region's bounds the display box did not hide.
pub fn region_face_count(polys: &[Polygon]) -> usize {
    polys.iter().filter(|p| p.side != Side::Box).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convex::Polyhedron;
    use crate::geom::{ConvexPolyhedron, Pose};

    fn cube() -> Polyhedron {
        Polyhedron::from_convex(&ConvexPolyhedron::cuboid(Vec3::new(1.0, 1.0, 1.0)))
            .expect("a cube is a polyhedron")
    }

    fn volume(polys: &[Polygon]) -> Real {
        // Divergence theorem over fan triangles, about the origin; the winding of each
        // polygon is fixed up by pointing it away from the centroid.
        let all: Vec<Point3> = polys.iter().flat_map(|p| p.points.clone()).collect();
        let c = all.iter().map(|p| p.coords).sum::<Vec3>() / all.len() as Real;
        let mut v = 0.0;
        for p in polys {
            for i in 1..p.points.len() - 1 {
                let (a, b, d) = (
                    p.points[0].coords - c,
                    p.points[i].coords - c,
                    p.points[i + 1].coords - c,
                );
                v += a.dot(&b.cross(&d)).abs() / 6.0;
            }
        }
        v
    }

    #[test]
    fn vertex_region_of_a_cube_is_a_corner_cell_of_the_box() {
        let poly = cube();
        let pose = Pose::new(Vec3::new(0.5, -1.0, 2.0), Vec3::new(0.2, 0.4, -0.1));
        let placed = Placed::new(&poly, &pose);
        // Margin 1: the box reaches 2 from the centre, the corner cell is 1×1×1.
        let bounds = DisplayBox::around(&placed, 1.0);
        for v in 0..8 {
            let polys = bounded_region(&placed, Feature::Vertex(v), &bounds);
            assert_eq!(polys.len(), 6, "V{v}: a cell has six faces");
            assert_eq!(region_face_count(&polys), 3, "V{v}: three edge planes");
            assert!(
                (volume(&polys) - 1.0).abs() < 1e-9,
                "V{v}: {}",
                volume(&polys)
            );
            // Every corner of the cell lies in the vertex's region (the engine's test).
            for p in polys.iter().flat_map(|p| &p.points) {
                assert!(crate::convex::in_region(
                    &placed,
                    Feature::Vertex(v),
                    p,
                    1e-9
                ));
            }
        }
    }

    #[test]
    fn edge_and_face_regions_of_a_cube() {
        let poly = cube();
        let pose = Pose::identity();
        let placed = Placed::new(&poly, &pose);
        let bounds = DisplayBox::around(&placed, 1.0);
        for e in 0..12 {
            let polys = bounded_region(&placed, Feature::Edge(e), &bounds);
            // Four planes: the two end caps and the two face walls; two box faces close it.
            assert_eq!(region_face_count(&polys), 4, "E{e}");
            assert_eq!(polys.len(), 6, "E{e}");
            assert!((volume(&polys) - 2.0).abs() < 1e-9, "E{e}: 1×1×2");
        }
        for f in 0..6 {
            let polys = bounded_region(&placed, Feature::Face(f), &bounds);
            // Four edge walls and the face's own plane; the box caps the prism.
            assert_eq!(region_face_count(&polys), 5, "F{f}");
            assert_eq!(polys.len(), 6, "F{f}");
            assert!((volume(&polys) - 4.0).abs() < 1e-9, "F{f}: 2×2×1");
        }
    }

    #[test]
    fn the_26_regions_tile_the_box_outside_the_cube() {
        let poly = cube();
        let pose = Pose::identity();
        let placed = Placed::new(&poly, &pose);
        let bounds = DisplayBox::around(&placed, 1.0);
        let total: Real = poly
            .features()
            .map(|f| volume(&bounded_region(&placed, f, &bounds)))
            .sum();
        // The 4×4×4 box minus the 2×2×2 cube.
        assert!((total - 56.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn the_overlap_of_two_cubes_is_their_common_box() {
        let poly = cube();
        let (pa, pb) = (
            Pose::identity(),
            Pose::new(Vec3::new(1.5, 0.5, 0.0), Vec3::zeros()),
        );
        let (a, b) = (Placed::new(&poly, &pa), Placed::new(&poly, &pb));
        let polys = overlap(&a, &b);
        // x in [0.5, 1], y in [-0.5, 1], z in [-1, 1].
        assert_eq!(polys.len(), 6);
        assert!(
            (volume(&polys) - 0.5 * 1.5 * 2.0).abs() < 1e-9,
            "{}",
            volume(&polys)
        );
        let far = Pose::new(Vec3::new(3.0, 0.0, 0.0), Vec3::zeros());
        assert!(overlap(&a, &Placed::new(&poly, &far)).is_empty());
    }

    #[test]
    fn a_missing_feature_has_no_region() {
        let poly = cube();
        let pose = Pose::identity();
        let placed = Placed::new(&poly, &pose);
        let bounds = DisplayBox::around(&placed, 1.0);
        assert!(bounded_region(&placed, Feature::Face(99), &bounds).is_empty());
    }
}
