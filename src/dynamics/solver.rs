use super::RigidBody;
use super::support_levels::support_levels;
use super::sweep_order::SweepOrder;
use super::velocity_rows::{Direction, Pair, Side, SolverBody, arms, hold_friction};
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

struct Row {
    normal: Direction,
    tangents: [Direction; 2],
    /// The normal velocity the solver aims for: 0 for touching contacts, the (negative)
    /// speed that exactly closes the gap in one step for speculative ones.
    target: Real,
    /// Normal velocity before the solve, for restitution.
    approach: Real,
    lambda_n: Real,
    lambda_t: [Real; 2],
    /// The contact's friction coefficient, kept beside the rows the passes stream through.
    friction: Real,
}

impl Row {
    fn new(solved: &[SolverBody], arms: (Vec3, Vec3), c: &ContactConstraint, dt_s: Real) -> Self {
        let (a, b) = (&solved[c.a], &solved[c.b]);
        let (ra, rb) = arms;
        let [t0, t1] = tangent_basis(&c.normal);
        let normal = Direction::new(a, b, &ra, &rb, c.normal);
        Self {
            approach: normal.speed(&Pair::take(solved, c.a, c.b)),
            target: if c.depth < 0.0 { c.depth / dt_s } else { 0.0 },
            tangents: [
                Direction::new(a, b, &ra, &rb, t0),
                Direction::new(a, b, &ra, &rb, t1),
            ],
            normal,
            lambda_n: 0.0,
            lambda_t: [0.0; 2],
            friction: c.friction,
        }
    }

    fn friction_impulse(&self) -> Vec3 {
        self.tangents[0].d * self.lambda_t[0] + self.tangents[1].d * self.lambda_t[1]
    }

    /// The normal impulse toward `target` pushing body `upper` alone, the other held still.
    fn lift(&mut self, p: &mut Pair, upper: Side) {
        let vn = self.normal.speed(p);
        let mass = self.normal.mass_alone(p, upper);
        let new = (self.lambda_n + (self.target - vn) * mass).max(0.0);
        self.normal.apply_to(p, upper, new - self.lambda_n);
        self.lambda_n = new;
    }

    /// Moves the accumulated normal impulse toward what makes the normal speed `goal`,
    /// never pulling.
    #[inline(always)]
    fn push_normal(&mut self, p: &mut Pair, goal: Real) {
        let vn = self.normal.speed(p);
        let new = (self.lambda_n + (goal - vn) * self.normal.mass).max(0.0);
        let delta = new - self.lambda_n;
        self.lambda_n = new;
        self.normal.apply(p, delta);
    }

    /// One pass at this contact: friction, then the normal impulse toward its target.
    #[inline(always)]
    fn relax(&mut self, p: &mut Pair) {
        self.hold_friction(p);
        self.push_normal(p, self.target);
    }

    /// Friction toward zero sliding, inside the Coulomb box of the current normal impulse.
    #[inline(always)]
    fn hold_friction(&mut self, p: &mut Pair) {
        hold_friction(
            &self.tangents,
            &mut self.lambda_t,
            p,
            self.friction * self.lambda_n,
        );
    }
}

/// Sequential impulses with accumulated clamping (normal ≥ 0, friction in the Coulomb box),
/// then a position projection per body pair that removes penetration beyond the slop.
pub fn solve_contacts<P: Probe>(
    bodies: &mut [RigidBody],
    contacts: &[ContactConstraint],
    params: &SolverParams,
    probe: &mut P,
) -> Vec<ContactImpulse> {
    let mut solved: Vec<SolverBody> = bodies.iter().map(SolverBody::of).collect();
    let mut rows: Vec<Row> = contacts
        .iter()
        .map(|c| Row::new(&solved, arms(bodies, c.a, c.b, &c.point), c, params.dt_s))
        .collect();
    let order = sweep_order(contacts);
    warm_start(&mut solved, contacts, &mut rows, &order);
    for pass in 0..params.iterations as usize {
        order.each_manifold(&mut solved, |p, m| {
            for row in SweepOrder::in_pass_order(&mut rows[m.contacts.clone()], pass) {
                row.relax(p);
            }
        });
    }
    shock_pass(&mut solved, bodies, contacts, &mut rows);
    // Restitution as a separate pass, once contacts have stopped the approach: a bounce needs
    // a contact that actually pushed (λ > 0), which also covers speculative contacts that
    // closed their gap during this step.
    for _ in 0..params.iterations.min(4) {
        for (c, row) in contacts.iter().zip(rows.iter_mut()) {
            if row.approach >= -params.restitution_threshold_mps || row.lambda_n <= 0.0 {
                continue;
            }
            let mut p = Pair::take(&solved, c.a, c.b);
            row.push_normal(&mut p, -c.restitution * row.approach);
            p.put(&mut solved, c.a, c.b);
        }
    }
    // The bounces may drive bodies into gaps that speculative contacts were guarding:
    // enforce those once more, so a rebound cannot carry a body into its neighbour.
    for _ in 0..params.iterations.min(4) {
        for (c, row) in contacts.iter().zip(rows.iter_mut()) {
            if c.depth < 0.0 {
                let mut p = Pair::take(&solved, c.a, c.b);
                row.push_normal(&mut p, row.target);
                p.put(&mut solved, c.a, c.b);
            }
        }
    }
    SolverBody::write_back(&solved, bodies);
    let impulses: Vec<ContactImpulse> = rows
        .iter()
        .map(|r| ContactImpulse {
            normal: r.lambda_n,
            friction: r.friction_impulse(),
        })
        .collect();
    trace_impulses(bodies, contacts, &impulses, probe);
    project_positions(bodies, contacts, params);
    impulses
}

/// The manifolds of a solve's contacts, in the order the passes visit them.
pub(super) fn sweep_order(contacts: &[ContactConstraint]) -> SweepOrder {
    SweepOrder::new(contacts.iter().map(|c| (c.a, c.b)))
}

/// Sweeps over each level's contacts in the shock pass: a box on a box has four contacts,
/// and one sweep over them leaves the last ones' pushes tilting the box against the first.
pub(super) const SHOCK_SWEEPS: usize = 4;

/// Support handed up each stack, level by level from the fixed bodies (Guendelman, Bridson
/// and Fedkiw 2003, "shock propagation"): each contact between bodies of two levels pushes
/// only the upper body, as though the lower one, already settled, could not move. The passes
/// before it converge slowly on tall stacks: from a cold start, a column of n boxes needs
/// some n² of them to stop its top box, which meanwhile falls into the one below and rocks
/// the column over. After it, no body moves into the one it rests on. Contacts within a
/// level, and between bodies no contact joins to a fixed one, are left as they are: free
/// bodies keep their momentum exactly.
fn shock_pass(
    solved: &mut [SolverBody],
    bodies: &[RigidBody],
    contacts: &[ContactConstraint],
    rows: &mut [Row],
) {
    let fixed: Vec<bool> = bodies.iter().map(|b| b.fixed).collect();
    let pairs: Vec<(usize, usize)> = contacts.iter().map(|c| (c.a, c.b)).collect();
    let level = support_levels(&fixed, &pairs);
    let mut order: Vec<(u32, usize)> = contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| level[c.a] != level[c.b])
        .map(|(k, c)| (level[c.a].min(level[c.b]), k))
        .collect();
    order.sort_unstable();
    let pair_of = |k: usize| (contacts[k].a, contacts[k].b);
    for group in order.chunk_by(|x, y| x.0 == y.0) {
        for _ in 0..SHOCK_SWEEPS {
            // A manifold's points are consecutive in the group: its bodies are copied out once.
            for run in group.chunk_by(|x, y| pair_of(x.1) == pair_of(y.1)) {
                let (a, b) = pair_of(run[0].1);
                let upper = if level[a] > level[b] {
                    Side::A
                } else {
                    Side::B
                };
                let mut p = Pair::take(solved, a, b);
                for &(_, k) in run {
                    rows[k].lift(&mut p, upper);
                }
                p.put(solved, a, b);
            }
        }
    }
}

/// Last step's impulses, clamped to this step's limits, applied before the passes.
fn warm_start(
    solved: &mut [SolverBody],
    contacts: &[ContactConstraint],
    rows: &mut [Row],
    order: &SweepOrder,
) {
    order.each_manifold(solved, |p, m| {
        let run = m.contacts.clone();
        for (c, row) in contacts[run.clone()].iter().zip(&mut rows[run]) {
            let Some((normal, friction)) = c.warm_start else {
                continue;
            };
            row.lambda_n = normal.max(0.0);
            row.normal.apply(p, row.lambda_n);
            let limit = row.friction * row.lambda_n;
            for k in 0..2 {
                let t = &row.tangents[k];
                row.lambda_t[k] = friction.dot(&t.d).clamp(-limit, limit);
                t.apply(p, row.lambda_t[k]);
            }
        }
    });
}

/// Each contact's impulse as a trace event (the small-steps solver reports the same way).
pub(super) fn trace_impulses<P: Probe>(
    bodies: &[RigidBody],
    contacts: &[ContactConstraint],
    impulses: &[ContactImpulse],
    probe: &mut P,
) {
    for (k, (c, imp)) in contacts.iter().zip(impulses).enumerate() {
        let (a, b) = (bodies[c.a].id, bodies[c.b].id);
        crate::trace_event!(
            probe,
            TraceEvent::new(
                Verdict::Info,
                crate::frame::PipelineEvent::Impulse {
                    a,
                    b,
                    contact: k as u32,
                    normal_impulse: imp.normal,
                    friction_impulse: imp.friction,
                }
            )
        );
    }
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
