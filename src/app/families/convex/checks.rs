//! The closest-pair condition (spec 003 §2.8, Fig. 1.14): x on A's feature and y on B's are
//! the closest points exactly when x lies in B's feature's region and y in A's. The view
//! shows both tests as badges; both pass where the walk stops on a separated pair.

use crate::app::views::colors;
use crate::convex::closest::feature_points;
use crate::convex::{Feature, Placed, in_region};
use crate::geom::{Point3, Real};
use egui::{RichText, Ui};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Containment {
    /// A's closest point, and whether it lies in the region of B's feature.
    pub x: Point3,
    pub x_in_b: bool,
    /// B's closest point, and whether it lies in the region of A's feature.
    pub y: Point3,
    pub y_in_a: bool,
}

/// The two containment tests of a feature pair, with a tolerance at the scale of the shapes
/// (a point on a region's boundary counts as in it, as the walk's own tests count it).
pub fn containment(a: &Placed, fa: Feature, b: &Placed, fb: Feature) -> Option<Containment> {
    if !a.shape.contains(fa) || !b.shape.contains(fb) {
        return None;
    }
    let (x, y) = feature_points(a, fa, b, fb);
    let tol: Real = 1e-7 * (1.0 + a.shape.radius + b.shape.radius);
    Some(Containment {
        x,
        x_in_b: in_region(b, fb, &x, tol),
        y,
        y_in_a: in_region(a, fa, &y, tol),
    })
}

fn badge(ui: &mut Ui, pass: bool, text: String, hover: &str) {
    let (mark, color) = if pass {
        ("PASS", colors::NORMAL)
    } else {
        ("FAIL", colors::WARNING)
    };
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!(" {mark} "))
                .strong()
                .monospace()
                .color(egui::Color32::BLACK)
                .background_color(colors::egui(color)),
        )
        .on_hover_text(hover);
        ui.label(text);
    });
}

/// The two badges, and what they mean together.
pub fn show(ui: &mut Ui, c: &Containment, fa: Feature, fb: Feature) {
    badge(
        ui,
        c.x_in_b,
        format!("x (closest on A's {fa}) lies in VR(B: {fb})"),
        "Is A's closest point in the Voronoi region of B's feature?",
    );
    badge(
        ui,
        c.y_in_a,
        format!("y (closest on B's {fb}) lies in VR(A: {fa})"),
        "Is B's closest point in the Voronoi region of A's feature?",
    );
    let verdict = if c.x_in_b && c.y_in_a {
        "Both pass: each point is in the other's region, so this pair is the closest pair."
    } else {
        "A check fails: the walk must move across the violated plane to a neighbour."
    };
    ui.label(RichText::new(verdict).small());
}
