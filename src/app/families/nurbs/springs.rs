//! Annex I's simulator as recorded: the springs between their world attach points (from the
//! frame's poses), each impulse at its point along its normal, and a label per contact-time
//! search with the interval it narrowed to.

use super::geometry::{nurbs_frame, nurbs_scene};
use crate::app::families::FamilyContext;
use crate::app::viewport::draw_list::{DrawList, Label, to_f32};
use crate::geom::Point3;
use crate::nurbs::NurbsSim;

const SPRING: [f32; 4] = [1.0, 0.55, 0.1, 1.0];
const IMPULSE: [f32; 4] = [1.0, 0.2, 0.6, 1.0];

pub fn draw(cx: &FamilyContext, list: &mut DrawList) {
    let (Some(scene), Some(frame)) = (nurbs_scene(cx), cx.frame()) else {
        return;
    };
    let Some(data) = nurbs_frame(frame) else {
        return;
    };
    let Some(poses) = NurbsSim::recorded_poses(scene, data) else {
        return;
    };
    for s in &scene.springs {
        let a = poses[s.a] * s.attach_a;
        let b = s.b.map_or(s.attach_b, |b| poses[b] * s.attach_b);
        coil(list, &a, &b);
    }
    for imp in &data.impulses {
        let tip = imp.point + imp.normal * (0.3 + 0.2 * imp.j.min(5.0));
        list.line_on_top(to_f32(&imp.point), to_f32(&tip), IMPULSE);
        list.labels.push(Label {
            position: [tip.x, tip.y, tip.z],
            text: format!("impulse j = {:.3}", imp.j),
            color: IMPULSE,
        });
    }
    for search in &data.bisections {
        let Some(&[a, _]) = search.pairs.first() else {
            continue;
        };
        let at = poses.get(a as usize).map(|p| p * Point3::origin());
        let Some(at) = at else { continue };
        let (lo, hi) = search.interval(search.iterations);
        list.labels.push(Label {
            position: [at.x, at.y + 0.4, at.z],
            text: format!(
                "contact time: {lo:.4}..{hi:.4} of sub-step {} ({} halvings)",
                search.substep, search.iterations
            ),
            color: IMPULSE,
        });
    }
}

/// A spring as a zig-zag between its ends, so it reads as a spring and not a rod.
fn coil(list: &mut DrawList, a: &Point3, b: &Point3) {
    let d = b - a;
    let len = d.norm();
    if len < 1e-9 {
        return;
    }
    let side = d.cross(&nalgebra::Vector3::x()).try_normalize(1e-9).unwrap_or_else(|| d.cross(&nalgebra::Vector3::z()).normalize()) * (0.06 + 0.02 * len);
    let turns = 12;
    let mut last = *a;
    for k in 1..=turns {
        let t = k as f64 / (turns + 1) as f64;
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        let p = a + d * t + side * sign;
        list.line_on_top(to_f32(&last), to_f32(&p), SPRING);
        last = p;
    }
    list.line_on_top(to_f32(&last), to_f32(b), SPRING);
}
