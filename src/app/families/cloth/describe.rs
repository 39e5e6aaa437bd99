//! A cloth event in words a newcomer reads: what the ray is, what it met and why it was kept
//! or rejected; what an inversion means and whether the response fixed it. Used by the
//! inspector and the panel's step view.

use super::palette::kind_word;
use super::recorded::{RayRow, Sheet, owner_of, ray_row, target_name, vertex_sheet};
use crate::app::families::FamilyContext;
use crate::app::widgets::description::Description;
use crate::cloth::classify::RayHitInfo;
use crate::cloth::{ClothEvent, ClothParams, RayKind, RaySide, RejectReason, Target};
use crate::raycast::WalkStop;
use crate::geom::triangle::scaled_normal;

fn mm(m: f64) -> String {
    format!("{:.1} mm", m * 1000.0)
}

pub fn describe(
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    params: &ClothParams,
    index: usize,
    event: &ClothEvent,
) -> Description {
    if let ClothEvent::Inversion {
        vertex,
        target,
        triangle,
        promoted,
        corrected,
    } = event
    {
        return inversion(
            cx, sheet, *vertex, *target, *triangle, *promoted, *corrected,
        );
    }
    if let ClothEvent::VolumeRay {
        body,
        vertex,
        side,
        triangle,
        t,
        kind,
        reason,
    } = *event
    {
        return volume_ray(cx, body, vertex, side, triangle, t, kind, reason);
    }
    // Every other cloth event is a ray of a cloth vertex.
    ray_row(index, event).map_or_else(
        || Description::titled(String::new()),
        |row| ray(cx, sheet, params, &row),
    )
}

fn ray(cx: &FamilyContext, sheet: Option<&Sheet>, p: &ClothParams, r: &RayRow) -> Description {
    let (which, way) = match r.side {
        RaySide::Inner => ("inner", "against its normal"),
        RaySide::Outer => ("outer", "along its normal"),
    };
    let target = match r.triangle {
        Some(t) => owner_of(cx, sheet, r.target, t),
        None => target_name(cx, r.target),
    };
    let mut lines = vec![format!(
        "Every cloth vertex casts two rays, one along its normal and one against it, at each \
         obstacle and at the sheet itself. This is the {which} ray of vertex {}{}: it goes \
         {way}.",
        r.vertex,
        vertex_sheet(sheet, r.vertex)
    )];
    match (r.triangle, r.kind) {
        (Some(tri), _) => lines.push(hit_words(cx, sheet, r, tri, &target)),
        (None, RayKind::Lost | RayKind::Culled) => {}
        (None, _) => lines.push(format!("It met nothing of {target}.")),
    }
    lines.push(verdict_words(p, r));
    match r.walk {
        Some(w) if r.kind != RayKind::Lost => lines.push(format!(
            "Found by walking across the mesh from triangle {} (last step's hit) in {} \
             triangle tests (the iterative cast, drawn in light blue): the vertex and the \
             target moved little since the last full cast.",
            w.from, w.steps
        )),
        None if r.iterative => lines.push(
            "Found by walking from last step's triangle across the mesh (the iterative \
             cast): the vertex and the body moved little since the last full cast."
                .into(),
        ),
        _ => {}
    }
    Description::new(
        format!(
            "The {which} ray of vertex {}: {}",
            r.vertex,
            kind_word(r.kind)
        ),
        lines,
    )
}

/// Where the ray met triangle `tri` of `target`, measured along the ray and, re-projected,
/// straight to the triangle's plane.
fn hit_words(
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    r: &RayRow,
    tri: u32,
    target: &str,
) -> String {
    let projected = sheet.and_then(|s| {
        let dir = s.direction(r)?;
        let [a, b, c] = s.triangle(cx, r.target, tri)?;
        let normal = scaled_normal(a, b, c).try_normalize(1e-300)?;
        Some(RayHitInfo {
            triangle: tri,
            t: r.t as f64,
            normal,
            dir,
        })
    });
    let mut hit = format!(
        "It met triangle {tri} of {target} {} from the vertex",
        mm(r.t as f64)
    );
    if let Some(h) = projected {
        hit.push_str(&format!(
            "; measured straight to that triangle's plane (re-projected, Eq. 3.3) \
             it is {}{}",
            mm(h.reprojected_length()),
            if h.hits_back() && sheet.is_some_and(|s| s.target_closed(r.target)) {
                ", and it met the triangle from behind: the vertex is inside the body"
            } else {
                ""
            }
        ));
    }
    hit.push('.');
    hit
}

/// What the ray was classified as, and why.
fn verdict_words(p: &ClothParams, r: &RayRow) -> String {
    let e = p.half_thickness_m;
    let shell = match r.target {
        Target::Rigid(_) => e,
        Target::Cloth(_) => 2.0 * e,
    };
    match (r.kind, r.reason) {
        (RayKind::Collision, _) => format!(
            "Collision: the hit lies within the cloth's shell ({} thick here: the half \
             thickness e = {}{}) or inside the body, so the response pushes the vertex out \
             this step.",
            mm(shell),
            mm(e),
            if matches!(r.target, Target::Cloth(_)) {
                " on both sheets"
            } else {
                ""
            }
        ),
        (RayKind::Prediction, _) => format!(
            "Prediction: the surface is near (within the prediction distance d_pred = {}) \
             but not touching. Nothing is pushed; the triangle is remembered so that the next \
             step can walk from it.",
            mm(p.prediction_distance_m)
        ),
        (RayKind::Rejected, Some(RejectReason::LongerWayOut)) => "Rejected — the longer way \
             out: the vertex is inside a closed body and both of its rays hit the body's \
             inside. The other ray is the shorter way out; keeping this one too would push \
             the vertex both ways at once (§4.3 b)."
            .into(),
        (RayKind::Rejected, Some(RejectReason::TooFar)) => format!(
            "Rejected — too far: the hit is beyond the prediction distance d_pred = {}, so \
             it cannot matter this step.",
            mm(p.prediction_distance_m)
        ),
        (RayKind::Rejected, Some(RejectReason::NoHit) | None) => {
            "Rejected — no hit: nothing of the target lies on this ray.".into()
        }
        (RayKind::Culled, _) => format!(
            "Culled: the vertex lies outside the target's bounding box grown by the \
             prediction distance d_pred = {}, so neither of its rays can meet the target \
             within reach: none was cast (Hermann's culling, §3.1, grown as §3.3 asks).",
            mm(p.prediction_distance_m)
        ),
        (RayKind::Lost, _) => lost_words(p, r),
    }
}

/// Why a walk lost its ray, and what happened next (§3.4.5).
fn lost_words(p: &ClothParams, r: &RayRow) -> String {
    let walk = r.walk.map_or(String::new(), |w| {
        let why = match w.stop {
            Some(WalkStop::IterationCap) => "its step cap (Eq. 4.1) ran out: the hit moved \
                 farther than the cap allows, or the walk circled in a concavity (Fig. 4.2)",
            Some(WalkStop::Border) => "it reached the border of an open surface",
            Some(WalkStop::Parallel) => "the ray ran parallel to a triangle's plane",
            Some(WalkStop::BadStart) => "its start triangle no longer exists",
            None => "it found a triangle",
        };
        format!(
            "The walk started from triangle {} (last step's hit) and stopped after {} \
             triangle tests: {why}. ",
            w.from, w.steps
        )
    });
    let then = if p.switches.recast_lost_rays {
        "The vertex was cast completely at once: its other rays of this step come from that \
         cast."
    } else {
        "Lost rays stay lost in this run (the switch \"recast lost rays\" is off, as in the \
         thesis): this vertex has no ray on this target until a complete cast runs again, \
         so a collision here goes unseen."
    };
    format!("Lost: {walk}{then}")
}


/// A ray from a body's vertex against the sheet (§4.3 a).
#[allow(clippy::too_many_arguments)]
fn volume_ray(
    cx: &FamilyContext,
    body: u32,
    vertex: u32,
    side: RaySide,
    triangle: Option<u32>,
    t: f32,
    kind: RayKind,
    reason: Option<RejectReason>,
) -> Description {
    let name = cx.body_name(body);
    let (which, way) = match side {
        RaySide::Inner => ("inner", "into the body"),
        RaySide::Outer => ("outer", "out of the body"),
    };
    let mut lines = vec![format!(
        "The cloth's own vertices miss a corner or a cap of a body that pokes between them, \
         so each vertex of a closed body near the sheet casts two rays at it too (volume → \
         cloth, §4.3 a). This is the {which} ray of vertex {vertex} of {name}: it goes {way}."
    )];
    lines.push(match triangle {
        Some(tri) => format!("It met cloth triangle {tri} {}.", mm(t as f64)),
        None => "It met nothing of the sheet.".into(),
    });
    lines.push(match (kind, reason) {
        (RayKind::Collision, _) => "Collision: the sheet is within its shell of the body's \
             vertex (outer ray), or inside the body on this vertex's side (inner ray: before \
             the step the hit point was nearer this side than the far one): the response moves \
             the cloth triangle off the vertex."
            .into(),
        (RayKind::Prediction, _) => "Prediction: the sheet is near, not touching.".into(),
        (_, Some(RejectReason::LongerWayOut)) => "Rejected: the sheet came from the body's \
             far side (with the switch \"side before the step\" off: it is nearer the far side \
             now, the thesis' half-way rule), whose vertices own this contact."
            .into(),
        (_, Some(RejectReason::TooFar)) => "Rejected: too far, or met only after the ray \
             left the body (Hermann's first condition)."
            .into(),
        _ => "Rejected: no hit.".into(),
    });
    Description::new(
        format!("The {which} ray of vertex {vertex} of {name}: {}", kind_word(kind)),
        lines,
    )
}

fn inversion(
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    vertex: u32,
    target: Target,
    triangle: u32,
    promoted: bool,
    corrected: bool,
) -> Description {
    let target = owner_of(cx, sheet, target, triangle);
    let on = vertex_sheet(sheet, vertex);
    let mut lines = vec![format!(
        "Before this step vertex {vertex}{on} was on one side of triangle {triangle} of {target}; \
         now it is on the other: it went through the surface within one time step. Pushing it \
         out the near side would leave it on the wrong side, so its contact normal is \
         reversed and it is pushed back the way it came (§4.5)."
    )];
    if promoted {
        lines.push(
            "Its ray alone was no collision (the vertex travelled farther than the shell's \
             thickness in one step); the inversion promoted it to one so that the response \
             acts."
                .into(),
        );
    }
    lines.push(if corrected {
        "Corrected: after the response the vertex is back on the side it held before the step."
            .into()
    } else {
        "NOT corrected: after the response the vertex is still on the wrong side. The test only \
         compares with the previous step, so from the next step on nobody sees this \
         inversion again: the sheet stays tangled here."
            .into()
    });
    Description::new(
        format!(
            "Inverted vertex {vertex}: through triangle {triangle} of {target}{}",
            if corrected {
                ""
            } else {
                " — left uncorrected"
            }
        ),
        lines,
    )
}
