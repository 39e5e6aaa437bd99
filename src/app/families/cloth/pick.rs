//! Which cloth vertex a click meant: the vertex nearest the click's ray within a reach of
//! the grid's spacing, inverted vertices first (they are what a reader clicks at).

use super::recorded::{InversionRow, Sheet};
use crate::geom::{Point3, Ray};

/// Distance from `p` to the ray's half-line.
fn distance_to_ray(ray: &Ray, p: &Point3) -> f64 {
    let Some(dir) = ray.dir.try_normalize(1e-300) else {
        return f64::INFINITY;
    };
    let along = (p - ray.origin).dot(&dir).max(0.0);
    (ray.origin + dir * along - p).norm()
}

pub fn vertex_under(sheet: &Sheet, inversions: &[InversionRow], ray: &Ray) -> Option<u32> {
    let edge = sheet.statics.mesh.mean_edge_m();
    let nearest = |candidates: &mut dyn Iterator<Item = u32>, reach: f64| {
        candidates
            .filter_map(|v| Some((distance_to_ray(ray, &sheet.vertex(v)?), v)))
            .filter(|(d, _)| *d <= reach)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, v)| v)
    };
    nearest(&mut inversions.iter().map(|r| r.vertex), edge)
        .or_else(|| nearest(&mut (0..sheet.positions.len() as u32), edge * 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;

    #[test]
    fn distance_is_to_the_half_line() {
        let ray = Ray::new(Point3::origin(), Vec3::new(0.0, 0.0, -2.0));
        assert!((distance_to_ray(&ray, &Point3::new(0.3, 0.0, -5.0)) - 0.3).abs() < 1e-12);
        // Behind the origin: the distance to the origin itself.
        assert!((distance_to_ray(&ray, &Point3::new(0.0, 4.0, 3.0)) - 5.0).abs() < 1e-12);
    }
}
