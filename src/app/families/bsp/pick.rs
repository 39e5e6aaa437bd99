//! Which brush face a ray from the mouse meets first.

use super::level::Level;
use crate::geom::Ray;

/// The nearest (brush, face plane) the ray enters, clipping it against each brush's faces.
pub fn face_under(level: &Level, ray: &Ray) -> Option<(u32, u16)> {
    let mut best: Option<(f64, u32, u16)> = None;
    for (b, brush) in level.tree.brushes.iter().enumerate() {
        let (mut enter, mut exit, mut by) = (0.0f64, f64::INFINITY, None);
        for (k, p) in brush.faces().iter().enumerate() {
            let dist = p.signed_distance(&ray.origin);
            let speed = p.normal.dot(&ray.dir);
            if speed.abs() < 1e-15 {
                if dist > 0.0 {
                    enter = f64::INFINITY;
                }
                continue;
            }
            let t = -dist / speed;
            if speed < 0.0 {
                if t > enter {
                    enter = t;
                    by = Some(k as u16);
                }
            } else {
                exit = exit.min(t);
            }
        }
        if let Some(k) = by
            && enter <= exit
            && best.is_none_or(|(t, ..)| enter < t)
        {
            best = Some((enter, b as u32, k));
        }
    }
    best.map(|(_, b, k)| (b, k))
}
