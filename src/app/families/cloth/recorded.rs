//! One recorded frame of the cloth, read for drawing: the sheet's positions and normals, its
//! rays and inversions with their place in the trace, and the triangles they name resolved
//! to world points. Everything comes from the frame (events and `ClothFrame`) and the static
//! data; nothing is cast again.

use super::statics::ClothStatics;
use crate::app::families::FamilyContext;
use crate::cloth::{ClothEvent, ClothFrame, RayKind, RaySide, RejectReason, Target, WalkRecord};
use crate::families::FamilyFrameData;
use crate::geom::{Point3, Vec3};
use crate::trace::{EventKind, TraceEvent};

/// One ray event of the frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayRow {
    /// Index of its event in the frame's trace.
    pub event: usize,
    pub vertex: u32,
    pub side: RaySide,
    pub target: Target,
    pub triangle: Option<u32>,
    pub t: f32,
    pub kind: RayKind,
    pub reason: Option<RejectReason>,
    pub iterative: bool,
    /// The walk that found (or lost) the ray, when the recording says (recordings before
    /// walks were recorded only say `iterative`).
    pub walk: Option<WalkRecord>,
}

/// One ray from a rigid body's vertex against the sheet (volume → cloth).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VolumeRayRow {
    pub event: usize,
    pub body: u32,
    pub vertex: u32,
    pub side: RaySide,
    pub triangle: Option<u32>,
    pub t: f32,
    pub kind: RayKind,
}

pub fn volume_rays(trace: &[TraceEvent]) -> Vec<VolumeRayRow> {
    trace
        .iter()
        .enumerate()
        .filter_map(|(event, e)| match *cloth_event(e)? {
            ClothEvent::VolumeRay {
                body,
                vertex,
                side,
                triangle,
                t,
                kind,
                ..
            } => Some(VolumeRayRow {
                event,
                body,
                vertex,
                side,
                triangle,
                t,
                kind,
            }),
            _ => None,
        })
        .collect()
}

/// One inverted vertex of the frame (from `ClothFrame::inversions`), with its event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InversionRow {
    pub event: Option<usize>,
    pub vertex: u32,
    pub target: Target,
    pub triangle: u32,
    pub promoted: bool,
    pub corrected: bool,
}

pub fn cloth_frame<'a>(cx: &FamilyContext<'a>) -> Option<&'a ClothFrame> {
    cx.frame()?.families.iter().find_map(|d| match d {
        FamilyFrameData::Cloth(f) => Some(f),
        _ => None,
    })
}

pub fn cloth_event(e: &TraceEvent) -> Option<&ClothEvent> {
    match &e.kind {
        EventKind::Cloth(c) => Some(c),
        _ => None,
    }
}

pub fn rays(trace: &[TraceEvent]) -> Vec<RayRow> {
    trace
        .iter()
        .enumerate()
        .filter_map(|(event, e)| ray_row(event, cloth_event(e)?))
        .collect()
}

/// The ray of trace event `event` (a lost one included), or `None` for an inversion or a
/// body's ray.
pub fn ray_row(event: usize, e: &ClothEvent) -> Option<RayRow> {
    match *e {
        ClothEvent::WalkedRay {
            vertex,
            side,
            target,
            triangle,
            t,
            kind,
            reason,
            from,
            steps,
        } => Some(RayRow {
            event,
            vertex,
            side,
            target,
            triangle,
            t,
            kind,
            reason,
            iterative: true,
            walk: Some(WalkRecord {
                from,
                steps,
                stop: None,
            }),
        }),
        ClothEvent::LostRay {
            vertex,
            target,
            from,
            steps,
            stop,
        } => Some(RayRow {
            event,
            vertex,
            side: RaySide::Inner,
            target,
            triangle: None,
            t: f32::INFINITY,
            kind: RayKind::Lost,
            reason: None,
            iterative: true,
            walk: Some(WalkRecord {
                from,
                steps,
                stop: Some(stop),
            }),
        }),
        ClothEvent::Ray {
            vertex,
            side,
            target,
            triangle,
            t,
            kind,
            reason,
            iterative,
        } => Some(RayRow {
            event,
            vertex,
            side,
            target,
            triangle,
            t,
            kind,
            reason,
            iterative,
            walk: None,
        }),
        ClothEvent::Inversion { .. } | ClothEvent::VolumeRay { .. } => None,
    }
}

/// The frame's inversions in the engine's order, each tied to its own inversion event: a
/// vertex that crosses the same triangle in several substeps has a record and an event per
/// substep, matched in order (the trace may have been cut short: then the later ones have
/// none).
pub fn inversions(frame: &ClothFrame, trace: &[TraceEvent]) -> Vec<InversionRow> {
    let mut taken = vec![false; trace.len()];
    frame
        .inversions
        .iter()
        .map(|i| {
            let event = trace.iter().enumerate().position(|(k, e)| {
                !taken[k]
                    && matches!(cloth_event(e), Some(ClothEvent::Inversion { vertex, target, triangle, .. })
                        if *vertex == i.vertex && *target == i.target && *triangle == i.triangle)
            });
            if let Some(k) = event {
                taken[k] = true;
            }
            InversionRow {
                event,
                vertex: i.vertex,
                target: i.target,
                triangle: i.triangle,
                promoted: i.promoted,
                corrected: i.corrected,
            }
        })
        .collect()
}

/// The sheet as recorded in the frame, with the static data to resolve ids against.
pub struct Sheet<'a> {
    pub statics: &'a ClothStatics,
    pub positions: &'a [Point3],
    /// The engine's vertex normals of the recorded positions: the rays' directions.
    pub normals: Vec<Vec3>,
}

impl<'a> Sheet<'a> {
    pub fn new(statics: &'a ClothStatics, frame: &'a ClothFrame) -> Option<Self> {
        if frame.positions.len() != statics.mesh.vertex_count() {
            return None;
        }
        Some(Self {
            statics,
            positions: &frame.positions,
            normals: statics.mesh.vertex_normals(&frame.positions),
        })
    }

    pub fn vertex(&self, v: u32) -> Option<Point3> {
        self.positions.get(v as usize).copied()
    }

    /// A ray's unit direction: the vertex normal, reversed for the inner ray.
    pub fn direction(&self, row: &RayRow) -> Option<Vec3> {
        let n = *self.normals.get(row.vertex as usize)?;
        Some(match row.side {
            RaySide::Inner => -n,
            RaySide::Outer => n,
        })
    }

    /// Where the ray starts and where it met its triangle (`None` without a hit).
    pub fn segment(&self, row: &RayRow) -> Option<(Point3, Point3)> {
        let t = row.t as f64;
        if row.triangle.is_none() || !t.is_finite() {
            return None;
        }
        let o = self.vertex(row.vertex)?;
        Some((o, o + self.direction(row)? * t))
    }

    /// A triangle of a target in world space at the frame: a rigid body's mesh at its
    /// recorded pose, or the sheet's own triangle at the recorded positions.
    pub fn triangle(&self, cx: &FamilyContext, target: Target, t: u32) -> Option<[Point3; 3]> {
        match target {
            Target::Cloth(_) => {
                let tri = self.statics.mesh.triangles.get(t as usize)?;
                Some(tri.map(|i| self.positions[i as usize]))
            }
            Target::Rigid(body) => {
                let mesh = &self.statics.rigid.get(body as usize)?.local;
                let tri = mesh.triangles.get(t as usize)?;
                let pose = cx.pose(body)?;
                Some(tri.map(|i| pose * mesh.vertices[i as usize]))
            }
        }
    }

    pub fn target_closed(&self, target: Target) -> bool {
        match target {
            Target::Rigid(body) => self
                .statics
                .rigid
                .get(body as usize)
                .is_some_and(|r| r.closed),
            Target::Cloth(_) => false,
        }
    }
}

/// The words for a target: the body's name, or "the sheet itself".
pub fn target_name(cx: &FamilyContext, target: Target) -> String {
    match target {
        Target::Rigid(body) => cx.body_name(body),
        Target::Cloth(_) => "the sheet itself".into(),
    }
}

/// What a ray or an inversion met, in words: as [`target_name`], except that on a cloth of
/// several sheets a cloth triangle names its sheet.
pub fn owner_of(
    cx: &FamilyContext,
    sheet: Option<&Sheet>,
    target: Target,
    triangle: u32,
) -> String {
    if let (Target::Cloth(_), Some(s)) = (target, sheet) {
        let mesh = &s.statics.mesh;
        if mesh.part_count() > 1
            && let Some(k) = mesh
                .triangles
                .get(triangle as usize)
                .and_then(|t| mesh.sheet_of(t[0]))
        {
            return format!("{} of the cloth", mesh.part_name(k));
        }
    }
    target_name(cx, target)
}

/// " (sheet k)" after a vertex of a cloth of several sheets; nothing for one sheet.
pub fn vertex_sheet(sheet: Option<&Sheet>, vertex: u32) -> String {
    sheet
        .map(|s| &s.statics.mesh)
        .filter(|m| m.part_count() > 1)
        .and_then(|m| Some(m.part_name(m.sheet_of(vertex)?)))
        .map_or_else(String::new, |name| format!(" ({name})"))
}

pub fn centroid([a, b, c]: &[Point3; 3]) -> Point3 {
    Point3::from((a.coords + b.coords + c.coords) / 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloth::InversionRecord;
    use crate::trace::Verdict;

    fn ray(vertex: u32, kind: RayKind) -> TraceEvent {
        TraceEvent::new(
            Verdict::Info,
            ClothEvent::Ray {
                vertex,
                side: RaySide::Inner,
                target: Target::Rigid(1),
                triangle: Some(7),
                t: 0.5,
                kind,
                reason: None,
                iterative: false,
            },
        )
    }

    fn inversion(vertex: u32, corrected: bool) -> InversionRecord {
        InversionRecord {
            cloth: 0,
            vertex,
            target: Target::Rigid(1),
            triangle: 7,
            promoted: false,
            corrected,
        }
    }

    fn frame(inversions: Vec<InversionRecord>) -> ClothFrame {
        ClothFrame {
            positions: Vec::new(),
            velocities: Vec::new(),
            memory: Default::default(),
            inversions,
            first_inversion: None,
            ray_triangle_tests: 0,
            iterative_casts: 0,
            full_casts: 0,
        }
    }

    /// Rays keep their trace index; each inverted vertex finds its own event, and one the
    /// trace lost (a cut trace) has none.
    #[test]
    fn rows_point_at_their_events() {
        let mut trace = vec![ray(3, RayKind::Collision), ray(4, RayKind::Rejected)];
        let record = inversion(4, false);
        trace.push(TraceEvent::new(
            Verdict::Warning,
            ClothEvent::Inversion {
                vertex: 4,
                target: record.target,
                triangle: 7,
                promoted: false,
                corrected: false,
            },
        ));
        let rows = rays(&trace);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[1].event, rows[1].vertex), (1, 4));
        assert_eq!(rows[1].kind, RayKind::Rejected);
        let inv = inversions(&frame(vec![record, inversion(9, true)]), &trace);
        assert_eq!(inv.len(), 2);
        assert_eq!(
            (inv[0].event, inv[0].vertex, inv[0].corrected),
            (Some(2), 4, false)
        );
        assert_eq!((inv[1].event, inv[1].vertex), (None, 9));
    }

    /// A vertex that crosses the same triangle in two substeps: each record gets its own
    /// event, in order, and a third record past the trace's end gets none.
    #[test]
    fn repeated_crossings_get_their_own_events() {
        let event = |corrected| {
            TraceEvent::new(
                Verdict::Warning,
                ClothEvent::Inversion {
                    vertex: 4,
                    target: Target::Rigid(1),
                    triangle: 7,
                    promoted: false,
                    corrected,
                },
            )
        };
        let trace = vec![event(true), ray(4, RayKind::Collision), event(false)];
        let records = vec![inversion(4, true), inversion(4, false), inversion(4, false)];
        let events: Vec<Option<usize>> = inversions(&frame(records), &trace)
            .iter()
            .map(|r| r.event)
            .collect();
        assert_eq!(events, vec![Some(0), Some(2), None]);
    }
}
