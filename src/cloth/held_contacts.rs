//! Resting obstacle contacts held through the spring solve.
//!
//! Detection runs once a step, after the springs. A sheet draped over a body is under
//! tension: each step the spring solve pulled the resting patch about one shell thickness
//! into the body, the rays found it had crossed, and the response lifted it back, which
//! stretched the springs again. Every resting sheet re-inverted a few vertices in every
//! substep (2,614 inversions in 200 frames of `cloth-sheet-on-sphere`, 2,229 in
//! `cloth-stacked-sheets`), all "corrected", and the inversion view was never quiet.
//!
//! Each vertex's last hit triangle on each obstacle is in the cast memory (recorded with the
//! frame, and kept whether the cast walks or not), so the plane of that triangle is known
//! before the springs move anything. A vertex resting on it (within the shell `e`, or near and
//! drifting in slowly) is kept, after integration and after each spring pass, at least as
//! high above that plane as the smaller of `e` and its height at the start of the step: the
//! solve then finds the balance with the body instead of through it. Only the depth is
//! limited; along the plane the vertex slides, with the friction of a contact whose depth is
//! how far holding pushed it (a held sheet sinks no more, so its ray contacts no longer have
//! the depth that gave it friction: without this it slid off the sphere). A vertex still
//! landing is not held: the rays and the inversion test see it, as before.

use super::barycentric::barycentric_or_centre;
use super::detect::CastMemory;
use super::obstacle::ObstacleGeometry;
use super::params::ClothParams;
use crate::geom::{Point3, Real, Vec3};

/// How far outside its triangle (in barycentric units) a vertex may have slid and still be
/// held by that triangle's plane: the plane of a triangle left behind on a curved body would
/// hold it in the wrong place.
pub(super) const BARY_SLACK: Real = 0.25;

/// A vertex counts as resting up to this fraction beyond the shell: the response puts a
/// vertex at `e` exactly, up to rounding and the friction pass.
const RESTING_SLACK: Real = 0.01;

/// What decides which vertices are held.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HoldSettings {
    pub half_thickness_m: Real,
    /// Farther from the plane than this, a vertex is not resting on it (the prediction
    /// distance: farther, a ray classes the hit as rejected).
    pub reach_m: Real,
    pub dt_s: Real,
    /// False when the step is too long for contacts to rest (see [`HoldSettings::new`]).
    pub enabled: bool,
}

impl HoldSettings {
    /// A step in which gravity alone moves a vertex more than half the shell is not a resting
    /// step, and last step's plane says little about this one: there the sheet is left to the
    /// rays and the response alone. (Held through 1/20 s steps, `cloth-large-step`'s sheet
    /// tangled on the floor and left self-inversions uncorrected.)
    pub fn new(params: &ClothParams, dt_s: Real) -> Self {
        let sag = params.gravity_mps2.norm() * dt_s * dt_s;
        Self {
            half_thickness_m: params.half_thickness_m,
            reach_m: params.prediction_distance_m,
            dt_s,
            enabled: sag <= 0.5 * params.half_thickness_m,
        }
    }

    /// Whether a contact `room` out from its surface and closing in by `approach` this step
    /// rests on it: within the shell (where the response leaves it, up to rounding), or
    /// nearer than the reach and drifting in by less than half the shell a step (the rim of a
    /// drape, pulled in by the sheet's tension). Faster, it is landing: the rays and the
    /// inversion test see it.
    pub fn resting(&self, room: Real, approach: Real) -> bool {
        let e = self.half_thickness_m;
        room <= e * (1.0 + RESTING_SLACK) || (room <= self.reach_m && approach <= 0.5 * e)
    }
}

/// A one-sided plane: `normal · x ≥ level`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldPlane {
    pub vertex: u32,
    pub normal: Vec3,
    pub level: Real,
    /// How far holding pushed the vertex out this step: the plane's share of the contact,
    /// which bounds its friction as a contact's depth does.
    pub pushed_m: Real,
}

/// The planes that hold this step's resting vertices, from the memory's last hit triangles
/// and the vertices' positions and velocities at the start of the step.
pub fn held_planes(
    memory: &CastMemory,
    obstacles: &[ObstacleGeometry],
    start: &[Point3],
    velocities: &[Vec3],
    inverse_mass: &[Real],
    settings: &HoldSettings,
) -> Vec<HeldPlane> {
    let mut planes = Vec::new();
    if !settings.enabled {
        return planes;
    }
    for (obstacle, last) in obstacles.iter().zip(&memory.last_triangle) {
        for (v, triangle) in last.iter().enumerate() {
            let (Some(t), Some(p), Some(velocity), Some(&w)) = (
                triangle,
                start.get(v),
                velocities.get(v),
                inverse_mass.get(v),
            ) else {
                continue;
            };
            if w == 0.0 {
                continue;
            }
            let vertex = Vertex {
                id: v as u32,
                position: p,
                velocity,
            };
            if let Some(plane) = hold_one(obstacle, *t, &vertex, settings) {
                planes.push(plane);
            }
        }
    }
    planes
}

struct Vertex<'a> {
    id: u32,
    position: &'a Point3,
    velocity: &'a Vec3,
}

fn hold_one(
    obstacle: &ObstacleGeometry,
    triangle: u32,
    vertex: &Vertex,
    settings: &HoldSettings,
) -> Option<HeldPlane> {
    let e = settings.half_thickness_m;
    // The obstacle's planes are computed once per step for the inversion test: reuse them.
    let a = obstacle.planes.get(triangle as usize)?.corner;
    let normal = obstacle.unit_normal(triangle)?;
    let distance = normal.dot(&(vertex.position - a));
    // A closed body's winding points out: a vertex inside must be free to leave, so only the
    // outside is held. An open one (a plate) holds either side, the one the vertex is on.
    let side = if distance > 0.0 {
        1.0
    } else if distance < 0.0 && !obstacle.closed {
        -1.0
    } else {
        return None;
    };
    let normal = normal * side;
    let room = distance * side;
    let approach = -normal.dot(vertex.velocity) * settings.dt_s;
    if !settings.resting(room, approach) {
        return None;
    }
    let corners = obstacle.mesh.triangle(triangle as usize).vertices();
    if !inside_with_slack(&(vertex.position - normal * room), corners) {
        return None;
    }
    Some(HeldPlane {
        vertex: vertex.id,
        normal,
        level: normal.dot(&a.coords) + room.min(e),
        pushed_m: 0.0,
    })
}

/// Whether `p` (on the triangle's plane) lies within [`BARY_SLACK`] of the triangle.
fn inside_with_slack(p: &Point3, triangle: [Point3; 3]) -> bool {
    barycentric_or_centre(p, triangle)
        .iter()
        .all(|&w| w >= -BARY_SLACK)
}

/// Moves each held vertex back onto its plane where it went below.
pub fn hold(planes: &mut [HeldPlane], positions: &mut [Point3]) {
    for plane in planes {
        if let Some(p) = positions.get_mut(plane.vertex as usize) {
            let short = plane.level - plane.normal.dot(&p.coords);
            if short > 0.0 {
                *p += plane.normal * short;
                plane.pushed_m += short;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::TriMesh;

    /// A floor plate (open) of two triangles facing +y.
    fn plate() -> ObstacleGeometry {
        let vertices = vec![
            Point3::new(-1.0, 0.0, -1.0),
            Point3::new(1.0, 0.0, -1.0),
            Point3::new(1.0, 0.0, 1.0),
            Point3::new(-1.0, 0.0, 1.0),
        ];
        let mesh = TriMesh::new(vertices, vec![[0, 2, 1], [0, 3, 2]]).unwrap();
        ObstacleGeometry::new(7, mesh)
    }

    fn memory(triangles: Vec<Option<u32>>) -> CastMemory {
        CastMemory {
            last_triangle: vec![triangles],
            ..Default::default()
        }
    }

    fn settings() -> HoldSettings {
        HoldSettings {
            half_thickness_m: 0.01,
            reach_m: 0.05,
            dt_s: 0.01,
            enabled: true,
        }
    }

    #[test]
    fn a_resting_vertex_is_held_at_its_start_depth() {
        let floor = plate();
        assert!(!floor.closed);
        let start = [
            Point3::new(0.2, 0.004, 0.5),     // within the shell: held at 4 mm
            Point3::new(-0.3, 0.01, -0.5),    // on the shell (the response's level): at e
            Point3::new(0.1, -0.003, 0.1),    // below the open plate: held below
            Point3::new(5.0, 0.002, 0.0),     // off the plate: free
            Point3::new(0.0, 0.002, 0.0),     // pinned: free
            Point3::new(0.0, 0.002, 0.0),     // no last hit: free
            Point3::new(-0.4, 0.01005, -0.6), // just past the shell: still resting, at e
            Point3::new(0.6, 0.03, 0.3),      // landing at 1 m/s: free, the rays' to see
            Point3::new(0.7, 0.03, 0.2),      // drifting in at 0.1 m/s: held at e
            Point3::new(0.8, 0.06, 0.1),      // beyond the reach: free
        ];
        let mut velocities = [Vec3::zeros(); 10];
        velocities[7].y = -1.0;
        velocities[8].y = -0.1;
        let triangle_under = |p: &Point3| Some(if p.x > p.z { 0 } else { 1 });
        let mut last: Vec<Option<u32>> = start.iter().map(triangle_under).collect();
        last[5] = None;
        let mass = [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let planes = held_planes(
            &memory(last),
            &[floor],
            &start,
            &velocities,
            &mass,
            &settings(),
        );
        let held: Vec<u32> = planes.iter().map(|p| p.vertex).collect();
        assert_eq!(held, vec![0, 1, 2, 6, 8]);
        let mut moved = start.map(|p| p - Vec3::new(0.1, 0.5, 0.0));
        moved[2] += Vec3::new(0.0, 1.0, 0.0);
        let mut planes = planes;
        hold(&mut planes, &mut moved);
        assert!((planes[0].pushed_m - 0.5).abs() < 1e-12);
        for (v, y) in [(0, 0.004), (1, 0.01), (2, -0.003), (6, 0.01), (8, 0.01)] {
            assert!((moved[v].y - y).abs() < 1e-15, "vertex {v}: {}", moved[v].y);
            // Sliding along the plane is free.
            assert!((moved[v].x - (start[v].x - 0.1)).abs() < 1e-15);
        }
        for v in [3, 4, 5, 7, 9] {
            assert_eq!(moved[v].y, start[v].y - 0.5, "vertex {v} is not held");
        }
        // A step too long to rest holds nothing.
        let off = HoldSettings {
            enabled: false,
            ..settings()
        };
        let planes = held_planes(
            &memory(vec![Some(0); 10]),
            &[plate()],
            &start,
            &velocities,
            &mass,
            &off,
        );
        assert!(planes.is_empty());
    }

    #[test]
    fn long_steps_are_not_resting_steps() {
        let p = ClothParams::default();
        assert!(HoldSettings::new(&p, 1.0 / 120.0).enabled);
        assert!(!HoldSettings::new(&p, 1.0 / 20.0).enabled);
    }

    #[test]
    fn a_closed_body_never_holds_a_vertex_inside() {
        let body = ObstacleGeometry::new(1, crate::world::procedural::icosphere(0.5, 2));
        assert!(body.closed);
        let top = (0..body.mesh.triangles.len())
            .max_by(|&s, &t| {
                let height = |t: usize| {
                    let [a, b, c] = body.mesh.triangle(t).vertices();
                    (a.y + b.y + c.y) / 3.0
                };
                height(s).total_cmp(&height(t))
            })
            .unwrap() as u32;
        let [a, b, c] = body.mesh.triangle(top as usize).vertices();
        let centre = Point3::from((a.coords + b.coords + c.coords) / 3.0);
        let out = body.mesh.triangle(top as usize).scaled_normal().normalize();
        assert!(out.y > 0.9, "the winding points out");
        // Just inside the top face, and just outside it.
        let start = [centre - out * 0.01, centre + out * 0.005];
        let planes = held_planes(
            &memory(vec![Some(top); 2]),
            &[body],
            &start,
            &[Vec3::zeros(); 2],
            &[1.0; 2],
            &settings(),
        );
        assert_eq!(planes.len(), 1);
        assert_eq!(planes[0].vertex, 1);
        assert!((planes[0].normal - out).norm() < 1e-12);
        let mut sunk = [start[0], start[1] - out * 0.02];
        let mut planes = planes;
        hold(&mut planes, &mut sunk);
        assert!((out.dot(&(sunk[1] - a)) - 0.005).abs() < 1e-12);
    }
}
