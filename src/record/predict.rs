//! Predictions of a frame's floating-point numbers from what the reader already has: the
//! previous frame's bodies, the values decoded before in this frame. Writer and reader run
//! the same code on the same values, so they make the same predictions bit for bit; a miss
//! costs only bytes (the residual is XOR, see `streams.rs`).

use crate::frame::BodyState;
use crate::geom::{Point3, Quat, Vec3};
use std::collections::HashMap;

/// Values that come in runs per pair of bodies: the contact points of a pair, the impulses
/// on them. A pair meets again in the next substep (four times a frame in a pile with
/// substeps) with nearly the same values, so the `k`-th item of a run is predicted by the
/// `k`-th item of the pair's previous run.
pub(crate) struct Runs<const N: usize> {
    runs: HashMap<(u32, u32), Run<N>>,
    current: Option<(u32, u32)>,
}

struct Run<const N: usize> {
    previous: Vec<[f64; N]>,
    current: Vec<[f64; N]>,
}

impl<const N: usize> Default for Runs<N> {
    fn default() -> Self {
        Self {
            runs: HashMap::new(),
            current: None,
        }
    }
}

impl<const N: usize> Runs<N> {
    /// The prediction of the next item of pair `key`.
    pub fn predict(&mut self, key: (u32, u32)) -> [f64; N] {
        if self.current != Some(key) {
            if let Some(run) = self.current.and_then(|k| self.runs.get_mut(&k)) {
                run.previous = std::mem::take(&mut run.current);
            }
            self.current = Some(key);
            if let Some(run) = self.runs.get_mut(&key) {
                run.current.clear();
            }
        }
        self.runs
            .get(&key)
            .and_then(|r| r.previous.get(r.current.len()))
            .copied()
            .unwrap_or([0.0; N])
    }

    /// The item coded just before in the current run of pair `key` (after [`Runs::predict`]
    /// for the same key): the points of one contact manifold share their normal bit for bit.
    pub fn last_in_run(&self, key: (u32, u32)) -> Option<[f64; N]> {
        if self.current != Some(key) {
            return None;
        }
        self.runs.get(&key).and_then(|r| r.current.last()).copied()
    }

    /// Remembers the item just coded (after [`Runs::predict`] for the same key).
    pub fn push(&mut self, key: (u32, u32), values: [f64; N]) {
        self.runs
            .entry(key)
            .or_insert_with(|| Run {
                previous: Vec::new(),
                current: Vec::new(),
            })
            .current
            .push(values);
    }
}

/// The two friction directions the solver uses at a contact of normal `n`: the solver's own
/// function, so that [`friction_from`] gives its friction impulse bit for bit.
fn tangents(n: &Vec3) -> [Vec3; 2] {
    crate::dynamics::tangent_basis(n)
}

/// The friction impulse the solver builds from its two tangential impulses `l` at a contact
/// of normal `n`.
pub(crate) fn friction_from(n: &[f64; 3], l: [f64; 2]) -> [f64; 3] {
    let [t0, t1] = tangents(&Vec3::new(n[0], n[1], n[2]));
    vector(&(t0 * l[0] + t1 * l[1]))
}

/// Two tangential impulses from which [`friction_from`] rebuilds `f` bit for bit, when the
/// projections of `f` on the tangents (or numbers a few units in the last place from them)
/// do: the friction impulse then costs two numbers instead of three.
pub(crate) fn friction_split(n: &[f64; 3], f: &[f64; 3]) -> Option<[f64; 2]> {
    let [t0, t1] = tangents(&Vec3::new(n[0], n[1], n[2]));
    let fv = Vec3::new(f[0], f[1], f[2]);
    let (l0, l1) = (fv.dot(&t0), fv.dot(&t1));
    let nudge = |x: f64, d: i64| f64::from_bits((x.to_bits() as i64).wrapping_add(d) as u64);
    const STEPS: [i64; 5] = [0, -1, 1, -2, 2];
    for d0 in STEPS {
        for d1 in STEPS {
            let l = [nudge(l0, d0), nudge(l1, d1)];
            let back = friction_from(n, l);
            if back.iter().zip(f).all(|(x, y)| x.to_bits() == y.to_bits()) {
                return Some(l);
            }
        }
    }
    None
}

pub(crate) fn point(p: &Point3) -> [f64; 3] {
    [p.x, p.y, p.z]
}

pub(crate) fn vector(v: &Vec3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// A body's state as the 13 numbers a delta codes: velocities first, since the position and
/// rotation are predicted from them.
pub(crate) fn state_numbers(s: &BodyState) -> [f64; 13] {
    let q = &s.rotation.coords;
    [
        s.linear_velocity.x,
        s.linear_velocity.y,
        s.linear_velocity.z,
        s.angular_velocity.x,
        s.angular_velocity.y,
        s.angular_velocity.z,
        s.position.x,
        s.position.y,
        s.position.z,
        q.x,
        q.y,
        q.z,
        q.w,
    ]
}

pub(crate) fn state_from_numbers(id: u32, n: &[f64; 13]) -> BodyState {
    BodyState {
        id,
        linear_velocity: Vec3::new(n[0], n[1], n[2]),
        angular_velocity: Vec3::new(n[3], n[4], n[5]),
        position: Point3::new(n[6], n[7], n[8]),
        rotation: Quat::new_unchecked(nalgebra::Quaternion::new(n[12], n[9], n[10], n[11])),
    }
}

/// The velocities are predicted unchanged (a resting body's are; a falling body's change in
/// their last bits).
pub(crate) fn predict_velocities(previous: Option<&BodyState>) -> [f64; 6] {
    previous.map_or([0.0; 6], |p| {
        let mut out = [0.0; 6];
        out[..3].copy_from_slice(&vector(&p.linear_velocity));
        out[3..].copy_from_slice(&vector(&p.angular_velocity));
        out
    })
}

/// The position and rotation a body reaches from its previous state with its new velocities
/// over `dt`: what semi-implicit Euler does, so only the solver's corrections are left.
pub(crate) fn predict_pose(previous: Option<&BodyState>, velocities: &[f64], dt: f64) -> [f64; 7] {
    let Some(p) = previous else {
        return [0.0; 7];
    };
    let (v, w) = (
        Vec3::new(velocities[0], velocities[1], velocities[2]),
        Vec3::new(velocities[3], velocities[4], velocities[5]),
    );
    let x = p.position + v * dt;
    let q = p.rotation.coords;
    let q = nalgebra::Quaternion::new(q.w, q.x, q.y, q.z);
    let dq = nalgebra::Quaternion::new(0.0, w.x, w.y, w.z) * q * (0.5 * dt);
    let q = (q + dq).normalize();
    [x.x, x.y, x.z, q.i, q.j, q.k, q.w]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_predicted_by_the_pairs_previous_run() {
        let mut runs = Runs::<1>::default();
        let mut code = |key, v: f64| {
            let p = runs.predict(key);
            runs.push(key, [v]);
            p[0]
        };
        assert_eq!(code((1, 2), 1.0), 0.0);
        assert_eq!(code((1, 2), 2.0), 0.0);
        assert_eq!(code((3, 4), 9.0), 0.0);
        // The pair comes back (next substep): its items follow the first run, item by item.
        assert_eq!(code((1, 2), 1.5), 1.0);
        assert_eq!(code((1, 2), 2.5), 2.0);
        assert_eq!(code((1, 2), 3.5), 0.0, "a longer run has nothing to follow");
        assert_eq!(code((3, 4), 9.5), 9.0);
        assert_eq!(code((1, 2), 1.7), 1.5);
    }

    #[test]
    fn a_friction_impulse_is_split_and_rebuilt_bit_for_bit() {
        let normals = [
            [0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.6, 0.0, 0.8],
            [-0.48, 0.6, 0.64],
        ];
        let (mut split, mut tried) = (0, 0);
        for n in &normals {
            for l in [
                [0.0, 0.0],
                [1.5, -0.25],
                [1e-9, 3.0],
                [-0.0, 0.0],
                [0.1, 0.2],
            ] {
                let f = friction_from(n, l);
                tried += 1;
                if let Some(back) = friction_split(n, &f) {
                    split += 1;
                    let again = friction_from(n, back);
                    for k in 0..3 {
                        assert_eq!(again[k].to_bits(), f[k].to_bits(), "{n:?} {l:?}");
                    }
                }
            }
            // A vector with a component along the normal is no friction: it is not split.
            let off = friction_from(n, [1.0, 1.0]);
            let bent = [off[0] + n[0], off[1] + n[1], off[2] + n[2]];
            assert!(friction_split(n, &bent).is_none());
        }
        // A tiny impulse beside a large one is lost in the sum, so not every vector splits
        // (those are coded as 3 numbers); a basis unlike the solver's would split none.
        assert!(split * 4 >= tried * 3, "{split} of {tried} split");
    }

    #[test]
    fn a_pose_is_predicted_by_integration() {
        let prev = BodyState {
            id: 0,
            position: Point3::new(1.0, 2.0, 3.0),
            rotation: Quat::identity(),
            linear_velocity: Vec3::zeros(),
            angular_velocity: Vec3::zeros(),
        };
        let p = predict_pose(Some(&prev), &[0.0, -1.0, 0.0, 0.0, 0.0, 0.0], 0.5);
        assert_eq!(p, [1.0, 1.5, 3.0, 0.0, 0.0, 0.0, 1.0]);
        let s = state_from_numbers(0, &state_numbers(&prev));
        assert_eq!(s, prev);
    }
}
