//! The solver as it was first written, impulse by impulse through the bodies: the oracle of
//! the solver's cached rows (the same passes, so the same impulses up to rounding).

use super::RigidBody;
use super::solver::{ContactConstraint, ContactImpulse, SHOCK_SWEEPS, SolverParams, tangent_basis};
use super::support_levels::support_levels;
use crate::geom::{Real, Vec3};

struct Row {
    tangents: [Vec3; 2],
    mass_n: Real,
    mass_t: [Real; 2],
    /// The normal velocity the solver aims for: 0 for touching contacts, the (negative)
    /// speed that exactly closes the gap in one step for speculative ones.
    target: Real,
    /// Normal velocity before the solve, for restitution.
    approach: Real,
    lambda_n: Real,
    lambda_t: [Real; 2],
}

fn effective_mass(a: &RigidBody, b: &RigidBody, ra: &Vec3, rb: &Vec3, dir: &Vec3) -> Real {
    let ia = a.inv_inertia_world();
    let ib = b.inv_inertia_world();
    let k = a.inv_mass
        + b.inv_mass
        + dir.dot(&(ia * ra.cross(dir)).cross(ra))
        + dir.dot(&(ib * rb.cross(dir)).cross(rb));
    if k > 1e-300 { 1.0 / k } else { 0.0 }
}

/// [`effective_mass`] of body `body` alone, the other held still.
fn effective_mass_alone(body: &RigidBody, r: &Vec3, dir: &Vec3) -> Real {
    let k = body.inv_mass + dir.dot(&(body.inv_inertia_world() * r.cross(dir)).cross(r));
    if k > 1e-300 { 1.0 / k } else { 0.0 }
}

fn relative_velocity(bodies: &[RigidBody], c: &ContactConstraint) -> Vec3 {
    bodies[c.b].velocity_at(&c.point) - bodies[c.a].velocity_at(&c.point)
}

fn apply(bodies: &mut [RigidBody], c: &ContactConstraint, impulse: Vec3) {
    bodies[c.a].apply_impulse(&-impulse, &c.point);
    bodies[c.b].apply_impulse(&impulse, &c.point);
}

/// Sequential impulses with accumulated clamping (normal ≥ 0, friction in the Coulomb box),
/// then a position projection per body pair that removes penetration beyond the slop.
/// The contacts in the order of pass `pass`: on odd passes, each run of one pair's contacts
/// reversed.
fn pass_order(contacts: &[ContactConstraint], pass: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..contacts.len()).collect();
    if pass % 2 == 1 {
        let pair = |k: usize| (contacts[k].a, contacts[k].b);
        for run in order.chunk_by_mut(|&x, &y| pair(x) == pair(y)) {
            run.reverse();
        }
    }
    order
}

pub fn solve_contacts_by_body(
    bodies: &mut [RigidBody],
    contacts: &[ContactConstraint],
    params: &SolverParams,
) -> Vec<ContactImpulse> {
    let mut rows: Vec<Row> = contacts
        .iter()
        .map(|c| {
            let (a, b) = (&bodies[c.a], &bodies[c.b]);
            let ra = c.point - a.position();
            let rb = c.point - b.position();
            let tangents = tangent_basis(&c.normal);
            let approach = relative_velocity(bodies, c).dot(&c.normal);
            let target = if c.depth < 0.0 {
                c.depth / params.dt_s
            } else {
                0.0
            };
            Row {
                mass_n: effective_mass(a, b, &ra, &rb, &c.normal),
                mass_t: [
                    effective_mass(a, b, &ra, &rb, &tangents[0]),
                    effective_mass(a, b, &ra, &rb, &tangents[1]),
                ],
                tangents,
                target,
                approach,
                lambda_n: 0.0,
                lambda_t: [0.0; 2],
            }
        })
        .collect();

    for (c, row) in contacts.iter().zip(rows.iter_mut()) {
        if let Some((normal, friction)) = c.warm_start {
            row.lambda_n = normal.max(0.0);
            let limit = c.friction * row.lambda_n;
            for k in 0..2 {
                row.lambda_t[k] = friction.dot(&row.tangents[k]).clamp(-limit, limit);
            }
            let impulse = c.normal * row.lambda_n
                + row.tangents[0] * row.lambda_t[0]
                + row.tangents[1] * row.lambda_t[1];
            apply(bodies, c, impulse);
        }
    }

    for pass in 0..params.iterations as usize {
        for k in pass_order(contacts, pass) {
            let (c, row) = (&contacts[k], &mut rows[k]);
            let dv = relative_velocity(bodies, c);
            for k in 0..2 {
                let vt = dv.dot(&row.tangents[k]);
                let limit = c.friction * row.lambda_n;
                let new = (row.lambda_t[k] - vt * row.mass_t[k]).clamp(-limit, limit);
                let delta = new - row.lambda_t[k];
                row.lambda_t[k] = new;
                apply(bodies, c, row.tangents[k] * delta);
            }
            let vn = relative_velocity(bodies, c).dot(&c.normal);
            let new = (row.lambda_n + (row.target - vn) * row.mass_n).max(0.0);
            let delta = new - row.lambda_n;
            row.lambda_n = new;
            apply(bodies, c, c.normal * delta);
        }
    }

    shock_pass_by_body(bodies, contacts, &mut rows);

    // Restitution as a separate pass, once contacts have stopped the approach: a bounce needs
    // a contact that actually pushed (λ > 0), which also covers speculative contacts that
    // closed their gap during this step.
    for _ in 0..params.iterations.min(4) {
        for (c, row) in contacts.iter().zip(rows.iter_mut()) {
            if row.approach >= -params.restitution_threshold_mps || row.lambda_n <= 0.0 {
                continue;
            }
            let vn = relative_velocity(bodies, c).dot(&c.normal);
            let goal = -c.restitution * row.approach;
            let new = (row.lambda_n + (goal - vn) * row.mass_n).max(0.0);
            let delta = new - row.lambda_n;
            row.lambda_n = new;
            apply(bodies, c, c.normal * delta);
        }
    }

    // The bounces may drive bodies into gaps that speculative contacts were guarding:
    // enforce those once more, so a rebound cannot carry a body into its neighbour.
    for _ in 0..params.iterations.min(4) {
        for (c, row) in contacts
            .iter()
            .zip(rows.iter_mut())
            .filter(|(c, _)| c.depth < 0.0)
        {
            let vn = relative_velocity(bodies, c).dot(&c.normal);
            let new = (row.lambda_n + (row.target - vn) * row.mass_n).max(0.0);
            let delta = new - row.lambda_n;
            row.lambda_n = new;
            apply(bodies, c, c.normal * delta);
        }
    }

    rows.iter()
        .map(|r| ContactImpulse {
            normal: r.lambda_n,
            friction: r.tangents[0] * r.lambda_t[0] + r.tangents[1] * r.lambda_t[1],
        })
        .collect()
}

/// The shock pass, level by level from the fixed bodies: each contact between bodies of two
/// levels pushes its upper body alone.
fn shock_pass_by_body(bodies: &mut [RigidBody], contacts: &[ContactConstraint], rows: &mut [Row]) {
    let fixed: Vec<bool> = bodies.iter().map(|b| b.fixed).collect();
    let pairs: Vec<(usize, usize)> = contacts.iter().map(|c| (c.a, c.b)).collect();
    let level = support_levels(&fixed, &pairs);
    let lower = |c: &ContactConstraint| level[c.a].min(level[c.b]);
    let mut levels: Vec<u32> = contacts
        .iter()
        .filter(|c| level[c.a] != level[c.b])
        .map(lower)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    for l in levels {
        for _ in 0..SHOCK_SWEEPS {
            for (c, row) in contacts.iter().zip(rows.iter_mut()) {
                if level[c.a] == level[c.b] || lower(c) != l {
                    continue;
                }
                let (upper, sign) = if level[c.a] > level[c.b] {
                    (c.a, -1.0)
                } else {
                    (c.b, 1.0)
                };
                let r = c.point - bodies[upper].position();
                let mass = effective_mass_alone(&bodies[upper], &r, &c.normal);
                let vn = relative_velocity(bodies, c).dot(&c.normal);
                let new = (row.lambda_n + (row.target - vn) * mass).max(0.0);
                let delta = new - row.lambda_n;
                row.lambda_n = new;
                bodies[upper].apply_impulse(&(c.normal * (delta * sign)), &c.point);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::solve_contacts;
    use crate::geom::{Mat3, Point3, Pose, Shape};
    use crate::trace::NoProbe;
    use proptest::prelude::*;

    fn body() -> impl Strategy<Value = RigidBody> {
        (
            prop::array::uniform3(-2.0..2.0_f64),
            prop::array::uniform3(-3.2..3.2_f64),
            prop::array::uniform3(-5.0..5.0_f64),
            prop::array::uniform3(-5.0..5.0_f64),
            prop::option::weighted(0.75, (0.1..10.0_f64, prop::array::uniform3(0.05..20.0_f64))),
        )
            .prop_map(|(p, r, v, w, mass)| {
                let (inv_mass, inv_inertia_local) = match mass {
                    Some((m, i)) => (m, Mat3::from_diagonal(&Vec3::from(i))),
                    None => (0.0, Mat3::zeros()),
                };
                RigidBody {
                    id: 0,
                    name: String::new(),
                    shape: Shape::Sphere { radius: 0.5 },
                    pose: Pose::new(Vec3::from(p), Vec3::from(r)),
                    linear_velocity: Vec3::from(v),
                    angular_velocity: Vec3::from(w),
                    inv_mass,
                    inv_inertia_local,
                    material: Default::default(),
                    fixed: mass.is_none(),
                }
            })
    }

    /// A column of `n` unit boxes on a fixed floor, touching, each falling at `speed`: what
    /// gravity leaves a resting column at the start of a step, before any warm start.
    fn column(n: usize, speed: Real) -> (Vec<RigidBody>, Vec<ContactConstraint>) {
        let body = |k: usize| RigidBody {
            id: k as u32,
            name: String::new(),
            shape: Shape::Sphere { radius: 0.5 },
            pose: Pose::new(Vec3::new(0.0, k as Real - 0.5, 0.0), Vec3::zeros()),
            linear_velocity: Vec3::new(0.0, if k == 0 { 0.0 } else { -speed }, 0.0),
            angular_velocity: Vec3::zeros(),
            inv_mass: if k == 0 { 0.0 } else { 1.0 },
            inv_inertia_local: Mat3::identity() * if k == 0 { 0.0 } else { 6.0 },
            material: Default::default(),
            fixed: k == 0,
        };
        let bodies = (0..=n).map(body).collect();
        let mut contacts = Vec::new();
        for k in 0..n {
            for (x, z) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
                contacts.push(ContactConstraint {
                    a: k,
                    b: k + 1,
                    point: Point3::new(x, k as Real, z),
                    normal: Vec3::y(),
                    depth: 0.0,
                    restitution: 0.0,
                    friction: 0.5,
                    warm_start: None,
                });
            }
        }
        (bodies, contacts)
    }

    /// The oracle is the column at rest: whatever the passes leave, the shock pass hands the
    /// floor's support up the column, so that no box still falls into the one below. Ten
    /// passes alone leave the top of a 20-box column falling at most of its speed.
    #[test]
    fn a_cold_column_of_twenty_boxes_stops_in_one_solve() {
        let (mut bodies, contacts) = column(20, 0.163);
        let params = SolverParams {
            iterations: 10,
            baumgarte: 0.2,
            slop_m: 0.005,
            restitution_threshold_mps: 1.0,
            dt_s: 1.0 / 60.0,
        };
        let mut oracle = bodies.clone();
        solve_contacts(&mut bodies, &contacts, &params, &mut NoProbe);
        solve_contacts_by_body(&mut oracle, &contacts, &params);
        for c in &contacts {
            let vn = relative_velocity(&bodies, c).dot(&c.normal);
            assert!(vn > -1e-4, "{}-{} closes at {vn}", c.a, c.b);
        }
        for (b, r) in bodies.iter().zip(&oracle) {
            assert!(
                b.linear_velocity.y.abs() < 1e-4,
                "{}: {:?}",
                b.id,
                b.linear_velocity
            );
            assert!((b.linear_velocity - r.linear_velocity).norm() < 1e-12);
        }
    }

    /// Contacts between random pairs, sorted by pair as the narrow phase hands them over;
    /// deep and speculative ones, with and without last step's impulses.
    fn contacts(n: usize) -> impl Strategy<Value = Vec<ContactConstraint>> {
        prop::collection::vec(
            (
                (0..n, 1..n),
                prop::array::uniform3(-2.0..2.0_f64),
                prop::array::uniform3(-1.0..1.0_f64),
                -0.05..0.05_f64,
                (0.0..1.0_f64, 0.0..1.2_f64),
                prop::option::of((-1.0..4.0_f64, prop::array::uniform3(-1.0..1.0_f64))),
            )
                .prop_filter_map(
                    "a normal",
                    move |((a, k), p, d, depth, (e, mu), warm)| {
                        let normal = Vec3::from(d).try_normalize(1e-3)?;
                        Some(ContactConstraint {
                            a,
                            b: (a + k) % n,
                            point: Point3::from(p),
                            normal,
                            depth,
                            restitution: e,
                            friction: mu,
                            warm_start: warm.map(|(l, f)| (l, Vec3::from(f))),
                        })
                    },
                ),
            0..40,
        )
        .prop_map(|mut c| {
            c.sort_by_key(|c| (c.a, c.b));
            c
        })
    }

    fn case() -> impl Strategy<Value = (Vec<RigidBody>, Vec<ContactConstraint>, u32)> {
        (2..6_usize).prop_flat_map(|n| (prop::collection::vec(body(), n), contacts(n), 0..12_u32))
    }

    fn close(x: Real, y: Real) -> bool {
        (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn cached_rows_give_the_impulses_of_the_body_by_body_solver((bodies, contacts, iterations) in case()) {
            let params = SolverParams {
                iterations,
                baumgarte: 0.2,
                slop_m: 0.005,
                restitution_threshold_mps: 0.5,
                dt_s: 1.0 / 60.0,
            };
            let mut ours = bodies.clone();
            let mut oracle = bodies;
            let got = solve_contacts(&mut ours, &contacts, &params, &mut NoProbe);
            let want = solve_contacts_by_body(&mut oracle, &contacts, &params);
            for (g, w) in got.iter().zip(&want) {
                prop_assert!(close(g.normal, w.normal), "{g:?} {w:?}");
                for k in 0..3 {
                    prop_assert!(close(g.friction[k], w.friction[k]), "{g:?} {w:?}");
                }
            }
            for (o, r) in ours.iter().zip(&oracle) {
                for k in 0..3 {
                    prop_assert!(close(o.linear_velocity[k], r.linear_velocity[k]), "{o:?} {r:?}");
                    prop_assert!(close(o.angular_velocity[k], r.angular_velocity[k]), "{o:?} {r:?}");
                }
            }
        }
    }
}
