//! The cloth in the 3D view: the sheet (coloured by penetration depth), its rays by kind
//! under a cap, and the inverted vertices with the triangles they crossed, loud enough to
//! find at a glance.

use super::palette;
use super::recorded::{InversionRow, RayRow, Sheet, centroid};
use crate::app::families::FamilyContext;
use crate::app::viewport::draw_list::{DrawList, Label, Rgba, Style, to_f32};
use crate::app::views::colors::{mix, with_alpha};
use crate::cloth::RayKind;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Vec3};

/// Rays of one kind drawn at most: beyond, every n-th (a frame of a 20 × 20 sheet casts
/// about two thousand, a fine sheet tens of thousands).
pub const RAY_CAP: usize = 600;

/// Inversions named by a label in the 3D view (the rest are marked, not named: twenty
/// labels would hide the sheet).
pub const LABELLED_INVERSIONS: usize = 3;

/// Inversions in a frame up to which every one is ringed.
pub const LOUD_INVERSIONS: usize = 12;

/// Which kinds of rays are drawn (the panel's toggles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Toggles {
    pub collision: bool,
    pub prediction: bool,
    pub rejected: bool,
    /// Vertices outside an obstacle's grown box, where no ray was cast.
    pub culled: bool,
    pub lost: bool,
    /// The path of every walked ray (the picked vertex's and the stepped-on ray's always).
    pub walks: bool,
    /// Rays from the bodies' vertices against the sheet (volume → cloth).
    pub volume: bool,
    pub heatmap: bool,
    /// Colour the sheet by how full each cluster's gate is (over the depth heatmap).
    pub gate_map: bool,
    pub fade_bodies: bool,
    /// Ring every inverted vertex (off: only the one stepped onto or picked, so that the
    /// rays are the subject).
    pub inversions: bool,
}

impl Default for Toggles {
    fn default() -> Self {
        Self {
            collision: true,
            prediction: true,
            // Thousands of long misses hide everything else: off until asked for.
            rejected: false,
            culled: false,
            lost: true,
            walks: false,
            volume: true,
            heatmap: true,
            gate_map: false,
            fade_bodies: true,
            inversions: true,
        }
    }
}

impl Toggles {
    pub fn shows(&self, kind: RayKind) -> bool {
        match kind {
            RayKind::Collision => self.collision,
            RayKind::Prediction => self.prediction,
            RayKind::Rejected => self.rejected,
            RayKind::Culled => self.culled,
            RayKind::Lost => self.lost,
        }
    }
}

/// How many rays of each kind (in [`RAY_KINDS`] order) were drawn, of how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    pub drawn: [usize; 5],
    pub total: [usize; 5],
}

pub const RAY_KINDS: [RayKind; 5] = [
    RayKind::Collision,
    RayKind::Prediction,
    RayKind::Rejected,
    RayKind::Culled,
    RayKind::Lost,
];

pub fn kind_index(kind: RayKind) -> usize {
    match kind {
        RayKind::Collision => 0,
        RayKind::Prediction => 1,
        RayKind::Rejected => 2,
        RayKind::Culled => 3,
        RayKind::Lost => 4,
    }
}

/// The sheet's triangles, filled with the heat of their vertices (or plain) and a faint
/// grid. Translucent: the inner rays and the triangles crossed below stay visible. A cloth of
/// several sheets tints each sheet its own way (the heat scale starts at the tint) unless
/// `tint_sheets` is off (a map of clusters, not of sheets).
pub fn sheet(sheet: &Sheet, heat: Option<(&[f64], f64)>, tint_sheets: bool, list: &mut DrawList) {
    let plain: Rgba = [0.42, 0.5, 0.68, 1.0];
    let mesh = &sheet.statics.mesh;
    let several = tint_sheets && mesh.part_count() > 1;
    for tri in &mesh.triangles {
        let [a, b, c] = tri.map(|i| &sheet.positions[i as usize]);
        // A triangle's corners are all in one sheet.
        let tint = several.then(|| palette::sheet_tint(mesh.sheet_of(tri[0]).unwrap_or(0)));
        let color = match heat {
            Some((depths, max)) => {
                let d = tri
                    .iter()
                    .map(|&i| depths.get(i as usize).copied().unwrap_or(0.0))
                    .fold(0.0, f64::max);
                match tint {
                    Some(t) => super::heat::color_from(t, d, max),
                    None => super::heat::color(d, max),
                }
            }
            None => tint.map_or(plain, |t| mix(t, [1.0; 4], 0.15)),
        };
        list.triangle([a, b, c], with_alpha(color, 0.8), Style::Translucent);
        list.line(to_f32(a), to_f32(b), palette::GRID);
        list.line(to_f32(b), to_f32(c), palette::GRID);
    }
}

/// The rays the toggles allow, each kind capped at [`RAY_CAP`] (every n-th beyond); the
/// rays of `always` (the picked vertex) are drawn whatever the cap.
pub fn rays(
    sheet: &Sheet,
    rows: &[RayRow],
    toggles: &Toggles,
    always: Option<u32>,
    list: &mut DrawList,
) -> Drawn {
    let width = sheet.statics.mesh.mean_edge_m() * 0.04;
    let mut out = Drawn::default();
    for r in rows {
        out.total[kind_index(r.kind)] += 1;
    }
    let stride = out.total.map(|n| n.div_ceil(RAY_CAP).max(1));
    let mut seen = [0usize; 5];
    for r in rows {
        let k = kind_index(r.kind);
        let nth = seen[k];
        seen[k] += 1;
        let picked = always == Some(r.vertex);
        if !(toggles.shows(r.kind) && (nth % stride[k] == 0 || picked)) {
            continue;
        }
        let c = palette::ray(r.kind);
        let Some((o, hit)) = sheet.segment(r) else {
            // No hit to draw to: a lost ray is a dot and a stub along its way, a culled
            // vertex a faint dot.
            if let Some(o) = sheet.vertex(r.vertex) {
                match r.kind {
                    RayKind::Lost => {
                        let dir = sheet.direction(r).unwrap_or_else(Vec3::y);
                        let stub = o + dir * sheet.statics.mesh.mean_edge_m() * 0.5;
                        list.line(to_f32(&o), to_f32(&stub), c);
                        list.point(&o, 8.0, c);
                        out.drawn[k] += 1;
                    }
                    RayKind::Culled => {
                        list.point(&o, 3.0, c);
                        out.drawn[k] += 1;
                    }
                    _ => {}
                }
            }
            continue;
        };
        list.line(to_f32(&o), to_f32(&hit), c);
        // A millimetre ray reads as a dot at the cloth's scale: its line goes on, faint, to
        // half an edge, so that its direction shows; the solid part is its true length.
        let along = hit - o;
        let min_len = sheet.statics.mesh.mean_edge_m() * 0.5;
        if let Some(dir) = along.try_normalize(1e-12)
            && along.norm() < min_len
        {
            let end = o + dir * min_len;
            list.line(to_f32(&hit), to_f32(&end), with_alpha(c, 0.45));
        }
        if r.kind == RayKind::Rejected {
            list.point(&hit, 3.0, c);
        } else {
            // Collision and prediction rays are millimetres long: a one-pixel line vanishes,
            // a thin bar and a dot at the hit do not.
            list.bar(&o, &hit, width, c);
            list.point(&hit, 6.0, c);
        }
        out.drawn[k] += 1;
    }
    out
}

/// A loop of `n` segments of radius `r` about `center` in the plane normal to `axis`, drawn
/// over everything: the mark that makes an inverted vertex impossible to miss.
fn ring(center: &Point3, axis: &Vec3, r: f64, color: Rgba, list: &mut DrawList) {
    let axis = axis.try_normalize(1e-300).unwrap_or_else(Vec3::y);
    let helper = if axis.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = axis.cross(&helper).normalize();
    let v = axis.cross(&u);
    let n = 24;
    let at = |k: usize| {
        let a = std::f64::consts::TAU * k as f64 / n as f64;
        center + (u * a.cos() + v * a.sin()) * r
    };
    for k in 0..n {
        list.line_on_top(to_f32(&at(k)), to_f32(&at(k + 1)), color);
    }
}

/// Outlines a triangle over everything and fills it translucent.
pub fn crossed_triangle(tri: &[Point3; 3], color: Rgba, list: &mut DrawList) {
    let [a, b, c] = tri;
    list.triangle([a, b, c], with_alpha(color, 0.55), Style::Translucent);
    for (p, q) in [(a, b), (b, c), (c, a)] {
        list.line_on_top(to_f32(p), to_f32(q), color);
    }
}

/// Every inverted vertex: a big dot and a ring, the triangle it crossed outlined, a line
/// from one to the other; the first few (`emphasised` first) named by a label.
pub fn inversions(
    cx: &FamilyContext,
    sheet: &Sheet,
    rows: &[InversionRow],
    emphasised: Option<u32>,
    all: bool,
    list: &mut DrawList,
) {
    let size = sheet.statics.mesh.mean_edge_m();
    // A dozen rings read; a hundred cover the sheet: beyond, only the uncorrected and the
    // emphasised one get the ring and the filled triangle, the others a dot and an outline.
    let crowded = rows.len() > LOUD_INVERSIONS;
    let mut order: Vec<&InversionRow> = rows.iter().collect();
    // Labels go to the emphasised vertex, then to uncorrected ones, then in engine order.
    order.sort_by_key(|r| (emphasised != Some(r.vertex), r.corrected));
    for (k, r) in order.into_iter().enumerate() {
        let Some(p) = sheet.vertex(r.vertex) else {
            continue;
        };
        let c = palette::inversion(r.corrected);
        let strong = emphasised == Some(r.vertex);
        if !(all || strong) {
            continue;
        }
        let tri = sheet.triangle(cx, r.target, r.triangle);
        let loud = strong || !r.corrected || !crowded;
        if !loud {
            if let Some([a, b, t]) = &tri {
                for (x, y) in [(a, b), (b, t), (t, a)] {
                    list.line(to_f32(x), to_f32(y), c);
                }
            }
            list.point(&p, 9.0, c);
            continue;
        }
        if let Some(tri) = &tri {
            crossed_triangle(tri, c, list);
            list.line_on_top(to_f32(&p), to_f32(&centroid(tri)), c);
        }
        let axis = tri
            .map(|[a, b, c]| scaled_normal(a, b, c))
            .or_else(|| sheet.normals.get(r.vertex as usize).copied())
            .unwrap_or_else(Vec3::y);
        ring(&p, &axis, size * if strong { 0.9 } else { 0.55 }, c, list);
        list.point(&p, if strong { 20.0 } else { 13.0 }, c);
        if k < LABELLED_INVERSIONS {
            list.labels.push(Label {
                position: (p + axis.normalize() * size * 0.8).into(),
                text: format!(
                    "inverted v{} → tri {}{}",
                    r.vertex,
                    r.triangle,
                    if r.corrected { "" } else { " (uncorrected)" }
                ),
                color: c,
            });
        }
    }
}

/// The ray under the step scrubber, thick, with its hit triangle: returns the points the
/// camera should frame.
pub fn current_ray(
    cx: &FamilyContext,
    sheet: &Sheet,
    r: &RayRow,
    d_pred: f64,
    list: &mut DrawList,
) -> Vec<Point3> {
    let size = sheet.statics.mesh.mean_edge_m();
    let Some(o) = sheet.vertex(r.vertex) else {
        return Vec::new();
    };
    let c = with_alpha(palette::ray(r.kind), 1.0);
    let end = match sheet.segment(r) {
        Some((_, hit)) => hit,
        // No hit: a stub as long as the prediction distance shows the way it went.
        None => o + sheet.direction(r).unwrap_or_else(Vec3::y) * d_pred,
    };
    list.bar(&o, &end, size * 0.08, c);
    list.line_on_top(to_f32(&o), to_f32(&end), c);
    list.point(&o, 12.0, [1.0, 1.0, 1.0, 1.0]);
    list.point(&end, 10.0, c);
    if let Some(tri) = r.triangle.and_then(|t| sheet.triangle(cx, r.target, t)) {
        crossed_triangle(&tri, c, list);
    }
    list.labels.push(Label {
        position: end.into(),
        text: format!(
            "{} ray of v{}: {}",
            match r.side {
                crate::cloth::RaySide::Inner => "inner",
                crate::cloth::RaySide::Outer => "outer",
            },
            r.vertex,
            palette::kind_word(r.kind)
        ),
        color: c,
    });
    vec![o, end]
}
