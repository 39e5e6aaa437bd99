//! Resting volume → cloth contacts held through the spring solve, as the cloth's own resting
//! contacts are ([`super::held_contacts`]).
//!
//! A sheet draped over a tessellated body rests on its faces, and the body's vertices stand a
//! little proud of them, within the sheet's shell: their outer rays found the sheet there in
//! every step (30 to 37 collisions a frame of `cloth-two-sheets-on-ball` at rest), the
//! response lifted those triangles, and the spring solve of the next step pulled them back.
//! Lifted after the cloth's own contacts had kept the two sheets apart, the lower sheet was
//! pushed into the upper one, and settled layers crossed again in every frame.
//!
//! So at the start of the step each closed body vertex near the cloth casts its rays at the
//! cloth as it is then (the inner one only across the shell); a triangle resting on the
//! vertex is held, after integration and
//! after each spring pass, at least as far out from the vertex as the smaller of the shell and
//! its distance at the start of the step, along its normal at the start. A triangle still
//! landing is not held: the rays see it. (The rays are cast again rather than remembered from
//! the last detection: the memory is recorded with each frame, and its recorded shape is
//! part of the file format.)

use super::barycentric::barycentric_or_centre;
use super::held_contacts::{BARY_SLACK, HoldSettings};
use super::obstacle::ObstacleGeometry;
use super::volume::{push_point, triangle_point};
use crate::bvh::{BuildOptions, Bvh};
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Point3, Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::NoProbe;

/// The point `bary` of cloth triangle `triangle` kept on the outer side of the plane through
/// the body's vertex `point`: `normal · (x - point) ≥ level`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldPoint {
    pub triangle: [u32; 3],
    pub bary: [Real; 3],
    pub point: Point3,
    pub normal: Vec3,
    pub level: Real,
    /// How far holding pushed the point out this step: its share of a contact's depth, which
    /// bounds its friction (without it a sheet held off a sphere's vertices slid off it).
    pub pushed_m: Real,
}

/// The triangle points to hold this step: the cloth at the start of the step (`start`,
/// moving at `velocities`) against the closed bodies at this step's poses. `tree` is the
/// cloth's hierarchy from the last step, refitted here (built at the first).
pub fn held_points(
    obstacles: &[ObstacleGeometry],
    (triangles, tree): (&[[u32; 3]], &mut Option<Bvh<Aabb>>),
    start: &[Point3],
    velocities: &[Vec3],
    settings: &HoldSettings,
) -> Vec<HeldPoint> {
    let mut points = Vec::new();
    if !settings.enabled {
        return points;
    }
    let reach = Aabb::from_points(start).loosened(settings.reach_m);
    let near: Vec<&ObstacleGeometry> = obstacles
        .iter()
        .filter(|o| o.closed && Aabb::from_points(&o.mesh.vertices).intersects(&reach))
        .collect();
    if near.is_empty() {
        return points;
    }
    let Ok(surface) = TriMesh::new(start.to_vec(), triangles.to_vec()) else {
        return points;
    };
    // The closest hit is the same through any tree over these triangles: refitting the last
    // step's changes no answer, only the cost.
    let bvh = match tree {
        Some(t) if t.fits_mesh(&surface) => {
            t.refit(&surface, &Pose::identity(), 0, &mut NoProbe);
            t
        }
        _ => tree.insert(Bvh::build(&surface, &BuildOptions::default())),
    };
    for obstacle in near {
        for (point, outward) in obstacle.mesh.vertices.iter().zip(&obstacle.vertex_normals) {
            if !reach.contains_point(point) {
                continue;
            }
            // A triangle just inside the body (the vertex poking through it) first: the outer
            // ray would pass it and hold whatever lies beyond, a second sheet on the first.
            let cast = |dir: Vec3, reach: Real| {
                bvh.cast_ray(&surface, &Ray::new(*point, dir), reach, 0, &mut NoProbe)
            };
            let Some(hit) = cast(-outward, settings.half_thickness_m)
                .or_else(|| cast(*outward, settings.reach_m))
            else {
                continue;
            };
            let Some(&corners) = triangles.get(hit.triangle) else {
                continue;
            };
            let cloth = corners.map(|i| start[i as usize]);
            let speed = corners
                .iter()
                .fold(Vec3::zeros(), |sum, &i| sum + velocities[i as usize])
                / 3.0;
            points.extend(hold_one(*point, *outward, corners, cloth, speed, settings));
        }
    }
    points
}

fn hold_one(
    point: Point3,
    outward: Vec3,
    corners: [u32; 3],
    cloth: [Point3; 3],
    speed: Vec3,
    settings: &HoldSettings,
) -> Option<HeldPoint> {
    let e = settings.half_thickness_m;
    let normal = scaled_normal(cloth[0], cloth[1], cloth[2]).try_normalize(1e-300)?;
    // The side away from the body: the cloth rests outside it.
    let normal = if normal.dot(&outward) >= 0.0 {
        normal
    } else {
        -normal
    };
    let room = normal.dot(&(cloth[0] - point));
    let foot = point + normal * room;
    let bary = barycentric_or_centre(&foot, cloth);
    if bary.iter().any(|&w| w < -BARY_SLACK) {
        return None;
    }
    // Resting as the cloth's own contacts are; a triangle deeper than the shell inside the
    // body is the rays' to push out.
    let approach = -normal.dot(&speed) * settings.dt_s;
    if !settings.resting(room, approach) || room < -e {
        return None;
    }
    Some(HeldPoint {
        triangle: corners,
        bary: bary.map(|w| w.max(0.0)),
        point,
        normal,
        level: room.min(e),
        pushed_m: 0.0,
    })
}

/// Moves each held triangle point back out to its level where it went below, shared by
/// inverse mass and barycentric weight as the volume contacts' response is.
pub fn hold_points(points: &mut [HeldPoint], positions: &mut [Point3], inverse_mass: &[Real]) {
    for h in points.iter_mut() {
        let Some(at) = triangle_point(positions, h.triangle, h.bary) else {
            return;
        };
        let short = h.level - h.normal.dot(&(at - h.point));
        if short <= 0.0 {
            continue;
        }
        if push_point(
            positions,
            inverse_mass,
            h.triangle,
            h.bary,
            h.normal * short,
        ) {
            h.pushed_m += short;
        }
    }
}

/// The friction contacts `(cloth vertex, normal, depth)` of triangle points pressed by
/// `depth_m`: each corner takes its barycentric share.
pub fn corner_contacts(
    triangle: [u32; 3],
    bary: [Real; 3],
    normal: Vec3,
    depth_m: Real,
) -> impl Iterator<Item = (u32, Vec3, Real)> {
    (0..3).map(move |k| (triangle[k], normal, depth_m * bary[k]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> HoldSettings {
        HoldSettings {
            half_thickness_m: 0.01,
            reach_m: 0.05,
            dt_s: 0.01,
            enabled: true,
        }
    }

    /// An icosphere's top vertex under a large cloth triangle at `height` above it, falling at
    /// `speed`; returns the vertex, the point held over it and the triangle.
    fn over_the_top(height: Real, speed: Real) -> (Point3, Vec<HeldPoint>, Vec<Point3>) {
        let body = ObstacleGeometry::new(1, crate::world::procedural::icosphere(0.5, 2));
        let top = body
            .mesh
            .vertices
            .iter()
            .copied()
            .max_by(|a, b| a.y.total_cmp(&b.y))
            .unwrap();
        let y = top.y + height;
        let cloth = vec![
            Point3::new(top.x - 0.3, y, top.z - 0.3),
            Point3::new(top.x, y, top.z + 0.3),
            Point3::new(top.x + 0.3, y, top.z - 0.3),
        ];
        let velocities = vec![Vec3::new(0.0, -speed, 0.0); 3];
        let held = held_points(
            &[body],
            (&[[0, 1, 2]], &mut None),
            &cloth,
            &velocities,
            &settings(),
        );
        // The top vertex's point only: its neighbours, 2 cm lower, hold the triangle too.
        let held = held.into_iter().filter(|h| h.point == top).collect();
        (top, held, cloth)
    }

    #[test]
    fn a_resting_triangle_is_held_off_the_vertex_under_it() {
        let (top, held, mut cloth) = over_the_top(0.004, 0.0);
        assert_eq!(held.len(), 1, "{held:?}");
        let h = held[0];
        assert!((h.level - 0.004).abs() < 1e-12 && h.normal.y > 0.999);
        assert!((h.point - top).norm() < 1e-12);
        // Pulled 2 cm down (and slid), it comes back to its start height over the vertex;
        // a pinned corner stays where it is.
        for p in &mut cloth {
            *p += Vec3::new(0.01, -0.02, 0.0);
        }
        let pinned = cloth[2];
        let mut held = held;
        hold_points(&mut held, &mut cloth, &[1.0, 1.0, 0.0]);
        assert_eq!(cloth[2], pinned);
        let at: Vec3 = (0..3).map(|k| cloth[k].coords * h.bary[k]).sum();
        assert!((at.y - (top.y + 0.004)).abs() < 1e-12, "{}", at.y - top.y);
        assert!((held[0].pushed_m - 0.02).abs() < 1e-12);
    }

    #[test]
    fn a_landing_or_distant_triangle_is_left_to_the_rays() {
        // Within reach but falling a shell's thickness a step: landing.
        assert!(over_the_top(0.03, 1.0).1.is_empty());
        // Within reach and drifting in slowly: held at the shell.
        let (_, held, _) = over_the_top(0.03, 0.1);
        assert_eq!(held.len(), 1);
        assert!((held[0].level - 0.01).abs() < 1e-12);
        // Beyond the reach: nothing.
        assert!(over_the_top(0.08, 0.0).1.is_empty());
        let body = ObstacleGeometry::new(1, crate::world::procedural::icosphere(0.5, 2));
        let far = [
            Point3::new(1.0, 0.6, 0.0),
            Point3::new(-1.0, 0.6, 0.0),
            Point3::new(0.0, 0.6, 1.0),
        ];
        let settings = settings();
        assert!(
            held_points(
                &[body],
                (&[[0, 1, 2]], &mut None),
                &far,
                &[Vec3::zeros(); 3],
                &settings
            )
            .is_empty()
        );
        // Just inside the body (the vertex poking through): held where it is, no deeper.
        let (_, held, _) = over_the_top(-0.004, 0.0);
        assert_eq!(held.len(), 1);
        assert!((held[0].level + 0.004).abs() < 1e-12);
    }
}
