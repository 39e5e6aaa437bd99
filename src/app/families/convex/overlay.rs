//! The 3D view of the convex family: the pair the walk is at (strong, labelled by body and
//! feature), the pair it just left (faint), the closest points with the distance, the clipped
//! part of an edge, and the regions asked for. Bodies are ghosted so that features read
//! first.

use super::current::Current;
use super::draw;
use super::feature_word::kind_word;
use super::region::{DisplayBox, bounded_region};
use super::shapes::PosedShape;
use super::{ConvexView, palette};
use crate::app::families::{FamilyContext, Focus, Overlay};
use crate::app::viewport::draw_list::{DrawList, to_f32};
use crate::app::views::colors::{self, with_alpha};
use crate::geom::Vec3;

/// How far the display box reaches beyond the body, in the body's half sizes.
pub const REGION_MARGIN: f64 = 1.2;

pub fn draw(view: &mut ConvexView, cx: &FamilyContext, out: &mut Overlay) {
    let Some(current) = view.current(cx) else {
        return;
    };
    let s = current.scale();
    out.ghost_bodies = true;
    let sides = [&current.a, &current.b];
    regions(view, &current, &mut out.list);
    if current.live {
        let moved = sides[view.live.side.min(1)];
        wireframe(&mut out.list, moved, colors::SELECTION);
    }
    if let Some(prev) = current.previous() {
        for (k, f) in prev.into_iter().enumerate() {
            if current.features().map(|p| p[k]) != Some(f) {
                draw::feature(
                    &mut out.list,
                    &sides[k].placed(),
                    f,
                    palette::GHOST,
                    false,
                    s,
                );
            }
        }
    }
    if let Some(pair) = current.features() {
        for (k, f) in pair.into_iter().enumerate() {
            let placed = sides[k].placed();
            if !placed.shape.contains(f) {
                continue;
            }
            draw::feature(&mut out.list, &placed, f, palette::kind(f.kind()), true, s);
            let name = if k == 0 { "A" } else { "B" };
            let at = placed.anchor(f) + away(&current, k) * 0.3;
            draw::label(
                &mut out.list,
                &at,
                format!("{name}: {f} ({})", kind_word(f)),
                palette::kind(f.kind()),
            );
        }
        let (a, b) = (current.a.placed(), current.b.placed());
        // A penetrating pair's "distance 0" says nothing: the overlap is drawn instead.
        let overlapping = current.at_end() && super::penetration::penetrating(&current);
        if !overlapping && a.shape.contains(pair[0]) && b.shape.contains(pair[1]) {
            let (x, y) = crate::convex::closest::feature_points(&a, pair[0], &b, pair[1]);
            draw::closest(&mut out.list, &x, &y, s);
        }
    }
    super::penetration::draw(&current, &mut out.list, s);
    if !view.hide_gjk_3d {
        gjk_points(&current, &mut out.list);
    }
    if let Some(c) = current.clipped() {
        let off = away(&current, c.side) * 0.12;
        draw::clip(
            &mut out.list,
            &sides[c.side].placed(),
            c.edge,
            c.interval,
            off,
            s,
        );
    }
    if std::mem::take(&mut view.frame_request) {
        out.focus = frame(&current);
    }
}

/// A step of the bodies' size pointing from the other body to side `k`'s: feature labels
/// move along it, so that A's and B's labels part on either side of the gap between them.
fn away(current: &Current, k: usize) -> Vec3 {
    let sides = [&current.a, &current.b];
    let k = k.min(1);
    let d = sides[k].pose.translation.vector - sides[1 - k].pose.translation.vector;
    d.try_normalize(1e-12).unwrap_or_else(Vec3::y) * current.scale().size
}

/// The regions asked for: every region of one body (faint), the current pair's two (Fig.
/// 1.14), and the picked feature's (strongest, drawn last).
fn regions(view: &ConvexView, current: &Current, list: &mut DrawList) {
    let sides = [&current.a, &current.b];
    let side_of = |body| sides.iter().position(|s| s.body == body);
    if let Some(k) = view.all_regions_of.and_then(side_of) {
        let placed = sides[k].placed();
        let bounds = DisplayBox::around(&placed, REGION_MARGIN);
        for f in placed.shape.features() {
            let polys = bounded_region(&placed, f, &bounds);
            let c = palette::kind(f.kind());
            draw::region(
                list,
                &polys,
                palette::region_fill(f.kind(), false),
                with_alpha(c, 0.35),
            );
        }
    }
    if view.pair_regions
        && let Some(pair) = current.features()
    {
        for (k, f) in pair.into_iter().enumerate() {
            let placed = sides[k].placed();
            let bounds = DisplayBox::around(&placed, REGION_MARGIN);
            let polys = bounded_region(&placed, f, &bounds);
            let c = palette::kind(f.kind());
            draw::region(
                list,
                &polys,
                palette::region_fill(f.kind(), false),
                with_alpha(c, 0.6),
            );
        }
    }
    if let Some(p) = view.picked
        && let Some(k) = side_of(p.body)
    {
        let placed = sides[k].placed();
        let bounds = DisplayBox::around(&placed, REGION_MARGIN);
        let polys = bounded_region(&placed, p.feature, &bounds);
        let c = palette::kind(p.feature.kind());
        draw::region(
            list,
            &polys,
            palette::region_fill(p.feature.kind(), true),
            c,
        );
        if !polys.is_empty() {
            draw::feature(list, &placed, p.feature, c, true, current.scale());
            // Far out in the region, where no feature label sits.
            let body = sides[k].pose.translation.vector;
            let far = polys.iter().flat_map(|p| p.points.iter()).max_by(|x, y| {
                (x.coords - body)
                    .norm()
                    .total_cmp(&(y.coords - body).norm())
            });
            if let Some(far) = far {
                let at = far + (placed.anchor(p.feature) - far) * 0.2;
                draw::label(list, &at, format!("VR({})", p.feature), c);
            }
        }
    }
}

/// GJK's step on the bodies: each simplex point of A − B is a point of A minus a point of B,
/// drawn on both; the support point just added is larger and named, and the witnesses of the
/// nearest point v are joined (at the end they meet V-Clip's closest points).
fn gjk_points(current: &Current, list: &mut DrawList) {
    use super::gjk_steps::Step;
    let step = current.gjk.step(current.gjk_position);
    let (simplex, added, witnesses) = match &step {
        Step::Iteration(it) => (it.after.clone(), it.added, Some(it.witnesses)),
        Step::Expansion(ex) => (ex.face.to_vec(), Some(ex.added), None),
        Step::End => (current.gjk.final_simplex(), None, None),
    };
    for v in &simplex {
        list.point(&v.a, 9.0, palette::SIMPLEX);
        list.point(&v.b, 9.0, palette::SIMPLEX);
    }
    if let Some(w) = added
        && !current.gjk.penetrating()
    {
        list.point(&w.a, 14.0, palette::SUPPORT);
        list.point(&w.b, 14.0, palette::SUPPORT);
        list.line_on_top(
            to_f32(&w.a),
            to_f32(&w.b),
            with_alpha(palette::SUPPORT, 0.5),
        );
        let name = |i: u32| format!("V{i}");
        // Below the pair's feature labels, on B's side of the gap.
        let at = w.b + away(current, 1) * 0.45 - Vec3::y() * (current.scale().size * 0.6);
        draw::label(
            list,
            &at,
            format!(
                "GJK support: A's {} − B's {}",
                name(w.ids[0]),
                name(w.ids[1])
            ),
            palette::SUPPORT,
        );
    }
    if let Some((x, y)) = witnesses {
        list.line_on_top(to_f32(&x), to_f32(&y), palette::SIMPLEX);
        list.point(&x, 7.0, palette::SIMPLEX);
        list.point(&y, 7.0, palette::SIMPLEX);
    }
}

/// The moved body's edges where the drag put it.
fn wireframe(list: &mut DrawList, body: &PosedShape, color: [f32; 4]) {
    let placed = body.placed();
    for e in 0..placed.shape.edges.len() as u32 {
        let s = placed.edge(e);
        list.line_on_top(to_f32(&s.a), to_f32(&s.b), color);
    }
}

/// A sphere holding both bodies.
pub fn frame(current: &Current) -> Option<Focus> {
    let mut points = Vec::new();
    for side in [&current.a, &current.b] {
        let c = side.pose.translation.vector;
        let r = side.shape.radius;
        points.push([c.x - r, c.y - r, c.z - r]);
        points.push([c.x + r, c.y + r, c.z + r]);
    }
    Focus::around(&points, 1e-3).map(|f| Focus {
        radius: f.radius * 0.9,
        ..f
    })
}
