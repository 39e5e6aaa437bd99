//! The rays from the vertices of closed bodies against the sheet (volume → cloth, spec 002
//! §4.3 a), drawn from the recorded ids: the body's vertex at its recorded pose, along or
//! against that vertex's normal, as far as the recorded length.

use super::palette;
use super::recorded::{Sheet, VolumeRayRow};
use crate::app::families::FamilyContext;
use crate::app::viewport::draw_list::{DrawList, to_f32};
use crate::cloth::{RayKind, RaySide};
use crate::geom::Point3;

/// Where the ray of `r` starts and, when it hit, where it met the sheet.
pub fn segment(cx: &FamilyContext, sheet: &Sheet, r: &VolumeRayRow) -> Option<(Point3, Point3)> {
    let rigid = sheet.statics.rigid.get(r.body as usize)?;
    let pose = cx.pose(r.body)?;
    let origin = pose * rigid.local.vertices.get(r.vertex as usize)?;
    let normal = pose.rotation * rigid.vertex_normals.get(r.vertex as usize)?;
    let dir = match r.side {
        RaySide::Inner => -normal,
        RaySide::Outer => normal,
    };
    let t = r.t as f64;
    let end = if r.triangle.is_some() && t.is_finite() {
        origin + dir * t
    } else {
        origin
    };
    Some((origin, end))
}

/// The body rays that hit (collision and prediction; rejected ones when those are shown),
/// as the sheet's rays are drawn: a bar and a dot at the hit. Returns how many were drawn.
pub fn draw(
    cx: &FamilyContext,
    sheet: &Sheet,
    rows: &[VolumeRayRow],
    rejected_too: bool,
    list: &mut DrawList,
) -> usize {
    let width = sheet.statics.mesh.mean_edge_m() * 0.04;
    let mut drawn = 0;
    for r in rows {
        if r.kind == RayKind::Rejected && !rejected_too {
            continue;
        }
        let Some((o, hit)) = segment(cx, sheet, r) else {
            continue;
        };
        let c = palette::ray(r.kind);
        list.line(to_f32(&o), to_f32(&hit), c);
        if r.kind != RayKind::Rejected {
            list.bar(&o, &hit, width, c);
        }
        // The body's end of the ray: a square-ish dot in the body colour's place.
        list.point(&o, 5.0, palette::BODY_RAY);
        drawn += 1;
    }
    drawn
}

/// The ray stepped onto, thick and over everything: returns the points to frame.
pub fn current(
    cx: &FamilyContext,
    sheet: &Sheet,
    r: &VolumeRayRow,
    list: &mut DrawList,
) -> Vec<Point3> {
    let Some((o, hit)) = segment(cx, sheet, r) else {
        return Vec::new();
    };
    let c = palette::ray(r.kind);
    list.bar(&o, &hit, sheet.statics.mesh.mean_edge_m() * 0.08, c);
    list.line_on_top(to_f32(&o), to_f32(&hit), c);
    list.point(&o, 12.0, [1.0, 1.0, 1.0, 1.0]);
    vec![o, hit]
}
