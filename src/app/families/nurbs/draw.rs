//! Drawing primitives of the view in 3D: a surface as a sampled sheet, its control net, a
//! control-point box. Samples come from the engine's own evaluation (`tessellate`).

use crate::app::viewport::draw_list::{DrawList, Label, Rgba, Style, to_f32};
use crate::geom::{Obb, Point3};
use crate::nurbs::NurbsSurface;
use crate::nurbs::tessellate::sample_grid;
use nalgebra::{Rotation3, UnitQuaternion};

/// A surface as `n × n` translucent cells with its border, sampled by the engine.
pub fn surface(list: &mut DrawList, s: &NurbsSurface, n: usize, fill: Rgba, edge: Rgba) {
    let grid = sample_grid(s, n);
    let at = |a: usize, b: usize| &grid[a * (n + 1) + b];
    for a in 0..n {
        for b in 0..n {
            list.triangle(
                [at(a, b), at(a + 1, b), at(a + 1, b + 1)],
                fill,
                Style::Translucent,
            );
            list.triangle(
                [at(a, b), at(a + 1, b + 1), at(a, b + 1)],
                fill,
                Style::Translucent,
            );
        }
    }
    for k in 0..n {
        for (p, q) in [
            (at(k, 0), at(k + 1, 0)),
            (at(k, n), at(k + 1, n)),
            (at(0, k), at(0, k + 1)),
            (at(n, k), at(n, k + 1)),
        ] {
            list.line(to_f32(p), to_f32(q), edge);
        }
    }
}

/// The control net: its rows and columns as lines, its points as dots.
pub fn control_net(list: &mut DrawList, s: &NurbsSurface, color: Rgba) {
    let (nu, nv) = (s.count_u, s.count_v);
    for i in 0..nu {
        for j in 0..nv {
            let p = s.cartesian(i, j);
            if i + 1 < nu {
                list.line(to_f32(&p), to_f32(&s.cartesian(i + 1, j)), color);
            }
            if j + 1 < nv {
                list.line(to_f32(&p), to_f32(&s.cartesian(i, j + 1)), color);
            }
            list.point(&p, 4.0, color);
        }
    }
}

/// A box as a wire (and a translucent fill when asked).
pub fn obb(list: &mut DrawList, b: &Obb, color: Rgba, fill: bool) {
    let mut axes = b.axes;
    // A mirrored frame holds the same box; a rotation needs a right-handed one.
    if axes.determinant() < 0.0 {
        axes.set_column(2, &(-axes.column(2)));
    }
    let rot = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(axes));
    // A flat box (a planar net) would vanish: give it a hair of thickness to stay visible.
    let floor = 1e-4 * b.half_extents.amax().max(1e-9);
    let half = b.half_extents.map(|h| h.max(floor));
    list.boxed(&b.center, &rot, &half, color, fill);
}

pub fn label(list: &mut DrawList, at: &Point3, text: String, color: Rgba) {
    list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text,
        color,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::viewport::draw_list::Template;
    use crate::nurbs::shapes::plane;

    #[test]
    fn a_surface_is_two_triangles_per_cell_and_a_net_one_dot_per_point() {
        let s = plane(2.0, 0.0);
        let mut list = DrawList::default();
        surface(&mut list, &s, 6, [1.0; 4], [1.0; 4]);
        assert_eq!(
            list.volume_count(Template::Triangle, Style::Translucent),
            72
        );
        assert_eq!(list.lines.len(), 2 * 4 * 6);
        let mut net = DrawList::default();
        control_net(&mut net, &s, [1.0; 4]);
        assert_eq!(net.points.len(), s.count_u * s.count_v);
        assert_eq!(
            net.lines.len(),
            2 * (2 * s.count_u * s.count_v - s.count_u - s.count_v)
        );
    }

    #[test]
    fn a_flat_box_keeps_a_visible_thickness() {
        let s = plane(2.0, 0.0);
        let b = crate::nurbs::control_point_obb(&s);
        let mut list = DrawList::default();
        obb(&mut list, &b, [1.0; 4], true);
        assert_eq!(list.volume_count(Template::Cube, Style::Wire), 1);
        assert_eq!(list.volume_count(Template::Cube, Style::Translucent), 1);
    }
}
