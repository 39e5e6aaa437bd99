use super::RigidBody;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{Probe, TraceEvent, Verdict};

/// One contact point between bodies `a` and `b` (indices), `normal` from `a` to `b`.
#[derive(Clone, Debug)]
pub struct ContactConstraint {
    pub a: usize,
    pub b: usize,
    pub point: Point3,
    pub normal: Vec3,
    pub depth: Real,
    pub restitution: Real,
    pub friction: Real,
    /// Impulses this contact received last step (normal, friction as a vector), to start
    /// the iterations from: stacks converge in a few steps instead of sinking.
    pub warm_start: Option<(Real, Vec3)>,
}

/// What the solver applied at one contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactImpulse {
    pub normal: Real,
    pub friction: Vec3,
}

#[derive(Clone, Copy, Debug)]
pub struct SolverParams {
    pub iterations: u32,
    pub baumgarte: Real,
    pub slop_m: Real,
    /// Closing speeds below this bounce with no restitution, so resting bodies settle.
    pub restitution_threshold_mps: Real,
    pub dt_s: Real,
}

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

/// The two friction directions at a contact of normal `n` (the recorder predicts friction
/// impulses with the same function, so it must stay the one place they are computed).
pub(crate) fn tangent_basis(n: &Vec3) -> [Vec3; 2] {
    let helper = if n.x.abs() < 0.57 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let t1 = n.cross(&helper).normalize();
    [t1, n.cross(&t1)]
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
pub fn solve_contacts<P: Probe>(
    bodies: &mut [RigidBody],
    contacts: &[ContactConstraint],
    params: &SolverParams,
    probe: &mut P,
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

    for _ in 0..params.iterations {
        for (c, row) in contacts.iter().zip(rows.iter_mut()) {
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

    for (k, (c, row)) in contacts.iter().zip(&rows).enumerate() {
        let (a, b) = (bodies[c.a].id, bodies[c.b].id);
        crate::trace_event!(
            probe,
            TraceEvent::new(
                Verdict::Info,
                crate::frame::PipelineEvent::Impulse {
                    a,
                    b,
                    contact: k as u32,
                    normal_impulse: row.lambda_n,
                    friction_impulse: row.tangents[0] * row.lambda_t[0]
                        + row.tangents[1] * row.lambda_t[1],
                }
            )
        );
    }

    project_positions(bodies, contacts, params);
    rows.iter()
        .map(|r| ContactImpulse {
            normal: r.lambda_n,
            friction: r.tangents[0] * r.lambda_t[0] + r.tangents[1] * r.lambda_t[1],
        })
        .collect()
}

/// Moves each penetrating pair apart along its deepest contact's normal, shared by inverse
/// mass. One correction per pair: several contacts of one pair must not add up.
fn project_positions(
    bodies: &mut [RigidBody],
    contacts: &[ContactConstraint],
    params: &SolverParams,
) {
    let mut i = 0;
    while i < contacts.len() {
        let (a, b) = (contacts[i].a, contacts[i].b);
        let mut deepest = &contacts[i];
        let mut j = i;
        while j < contacts.len() && contacts[j].a == a && contacts[j].b == b {
            if contacts[j].depth > deepest.depth {
                deepest = &contacts[j];
            }
            j += 1;
        }
        let correction = (deepest.depth - params.slop_m).max(0.0) * params.baumgarte;
        let total = bodies[a].inv_mass + bodies[b].inv_mass;
        if correction > 0.0 && total > 0.0 {
            let n = deepest.normal;
            let (wa, wb) = (bodies[a].inv_mass / total, bodies[b].inv_mass / total);
            if !bodies[a].fixed {
                bodies[a].pose.translation.vector -= n * (correction * wa);
            }
            if !bodies[b].fixed {
                bodies[b].pose.translation.vector += n * (correction * wb);
            }
        }
        i = j;
    }
}
