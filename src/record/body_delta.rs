//! Deltas of the body list: a frame stores only the body states that changed, bit for bit,
//! since the frame before.

use super::error::RecordErrorCause;
use super::payload::decode_err;
use super::records::ChangedBody;
use crate::frame::BodyState;

/// Bit-for-bit equality: a NaN that stays NaN is unchanged, and -0.0 is not 0.0.
pub(crate) fn same_state(a: &BodyState, b: &BodyState) -> bool {
    a.id == b.id
        && a.position
            .iter()
            .map(|v| v.to_bits())
            .eq(b.position.iter().map(|v| v.to_bits()))
        && a.rotation.coords.iter().map(|v| v.to_bits()).eq(b
            .rotation
            .coords
            .iter()
            .map(|v| v.to_bits()))
        && a.linear_velocity
            .iter()
            .map(|v| v.to_bits())
            .eq(b.linear_velocity.iter().map(|v| v.to_bits()))
        && a.angular_velocity
            .iter()
            .map(|v| v.to_bits())
            .eq(b.angular_velocity.iter().map(|v| v.to_bits()))
}

/// Builds this frame's body list from the previous one and a delta's changes.
pub(crate) fn apply_delta(
    previous: &[BodyState],
    body_count: u32,
    changed: Vec<ChangedBody>,
) -> Result<Vec<BodyState>, RecordErrorCause> {
    let count = body_count as usize;
    // Every slot past the previous list must be given by the delta, so a count larger than
    // the changes plus the previous list is corrupt: checking first bounds the allocation.
    if count > previous.len() + changed.len() {
        return Err(decode_err(format!(
            "delta claims {count} bodies but the previous frame has {} and only {} changed",
            previous.len(),
            changed.len()
        )));
    }
    let mut bodies: Vec<Option<BodyState>> =
        previous.iter().take(count).cloned().map(Some).collect();
    bodies.resize(count, None);
    for c in changed {
        let slot = c.slot as usize;
        match bodies.get_mut(slot) {
            Some(b) => *b = Some(c.state),
            None => {
                return Err(decode_err(format!(
                    "delta slot {slot} is past its {count} bodies"
                )));
            }
        }
    }
    bodies
        .into_iter()
        .enumerate()
        .map(|(slot, b)| {
            b.ok_or_else(|| decode_err(format!("delta leaves body slot {slot} unset")))
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geom::{Point3, Quat, Vec3};

    /// A body at rest at `x` on the x axis, for the record tests.
    pub(crate) fn state(id: u32, x: f64) -> BodyState {
        BodyState {
            id,
            position: Point3::new(x, 0.0, 0.0),
            rotation: Quat::identity(),
            linear_velocity: Vec3::zeros(),
            angular_velocity: Vec3::zeros(),
        }
    }

    fn changed(slot: u32, x: f64) -> ChangedBody {
        ChangedBody {
            slot,
            state: state(slot, x),
        }
    }

    #[test]
    fn deltas_grow_and_shrink_the_body_list() {
        let prev = vec![state(0, 1.0), state(1, 2.0)];
        let grown = apply_delta(&prev, 3, vec![changed(2, 9.0)]).unwrap();
        assert_eq!(grown, vec![state(0, 1.0), state(1, 2.0), state(2, 9.0)]);
        let shrunk = apply_delta(&prev, 1, vec![]).unwrap();
        assert_eq!(shrunk, vec![state(0, 1.0)]);
        let replaced = apply_delta(&prev, 2, vec![changed(0, 5.0)]).unwrap();
        assert_eq!(replaced, vec![state(0, 5.0), state(1, 2.0)]);
    }

    #[test]
    fn inconsistent_deltas_are_errors() {
        let prev = vec![state(0, 1.0)];
        // A new slot left unset, a slot past the count, and a count no change can fill.
        assert!(apply_delta(&prev, 3, vec![changed(1, 0.0), changed(1, 0.0)]).is_err());
        assert!(apply_delta(&prev, 1, vec![changed(4, 0.0)]).is_err());
        assert!(apply_delta(&prev, u32::MAX, vec![]).is_err());
    }

    #[test]
    fn only_bit_changes_count_as_changes() {
        let a = state(0, 0.0);
        let mut b = a.clone();
        assert!(same_state(&a, &b));
        b.position.x = -0.0;
        assert!(!same_state(&a, &b), "-0.0 is a change");
        let mut n = a.clone();
        n.linear_velocity.y = f64::NAN;
        assert!(
            same_state(&n, &n.clone()),
            "a NaN that stays NaN is no change"
        );
    }
}
