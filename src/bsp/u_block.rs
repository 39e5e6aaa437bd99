//! A closed, non-convex triangle mesh: a U-shaped block, the polygon below extruded upwards.
//! It is what the mesh-built level is made of (`bsp-mesh-u-block`): a solid with a concave
//! pocket, so that building it into convex brushes has to split.

use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Real, TriMesh, Vec3};

/// The U's outline on the ground (x, z), every corner of the cap's rectangles listed so that
/// the caps' triangles meet the walls edge to edge (no T-junction).
const OUTLINE: [[Real; 2]; 12] = [
    [0.0, 0.0],
    [1.0, 0.0],
    [2.0, 0.0],
    [3.0, 0.0],
    [3.0, 1.0],
    [3.0, 3.0],
    [2.0, 3.0],
    [2.0, 1.0],
    [1.0, 1.0],
    [1.0, 3.0],
    [0.0, 3.0],
    [0.0, 1.0],
];

/// The cap as rectangles, by outline index (corners in order around each).
const CAP: [[usize; 4]; 5] = [
    [0, 1, 8, 11],
    [1, 2, 7, 8],
    [2, 3, 4, 7],
    [11, 8, 9, 10],
    [7, 4, 5, 6],
];

/// The U block `scale` metres to a unit of the outline, `height` tall, its outline's origin
/// at `corner` (on the ground). Triangles are counter-clockwise seen from outside.
pub fn u_block(corner: Point3, scale: Real, height: Real) -> TriMesh {
    let n = OUTLINE.len();
    let at = |i: usize, y: Real| {
        let [x, z] = OUTLINE[i];
        corner + Vec3::new(x * scale, y, z * scale)
    };
    let vertices: Vec<Point3> = (0..n)
        .map(|i| at(i, 0.0))
        .chain((0..n).map(|i| at(i, height)))
        .collect();
    let mut triangles = Vec::new();
    // Each triangle is turned to face `outward`: for a non-convex solid the centroid cannot
    // tell, but each face's outward direction is known from how it was made.
    let mut push = |t: [usize; 3], outward: Vec3| {
        let [a, b, c] = t.map(|i| vertices[i]);
        let t = t.map(|i| i as u32);
        if scaled_normal(a, b, c).dot(&outward) >= 0.0 {
            triangles.push(t);
        } else {
            triangles.push([t[0], t[2], t[1]]);
        }
    };
    for [a, b, c, d] in CAP {
        let down = Vec3::new(0.0, -1.0, 0.0);
        push([a, b, c], down);
        push([a, c, d], down);
        push([a + n, b + n, c + n], -down);
        push([a + n, c + n, d + n], -down);
    }
    // The outline runs counter-clockwise in (x, z): the solid is on each edge's left, so the
    // wall faces the edge's right.
    let area: Real = (0..n)
        .map(|i| {
            let ([x0, z0], [x1, z1]) = (OUTLINE[i], OUTLINE[(i + 1) % n]);
            x0 * z1 - x1 * z0
        })
        .sum();
    for (i, &[x0, z0]) in OUTLINE.iter().enumerate() {
        let j = (i + 1) % n;
        let [x1, z1] = OUTLINE[j];
        let right = Vec3::new(z1 - z0, 0.0, -(x1 - x0)) * area.signum();
        push([i, j, j + n], right);
        push([i, j + n, i + n], right);
    }
    TriMesh {
        vertices,
        triangles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Closed and consistently oriented: every directed edge is matched by its reverse, and
    /// the divergence theorem gives the U's volume (7 unit squares times the height).
    #[test]
    fn the_block_is_closed_outward_and_has_the_u_volume() {
        let m = u_block(Point3::new(-1.0, 0.0, 2.0), 0.5, 2.0);
        let mut edges = std::collections::HashMap::new();
        for t in &m.triangles {
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
            }
        }
        for (&(a, b), &count) in &edges {
            assert_eq!(count, 1, "edge {a}->{b} used {count} times");
            assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}->{b} has no twin");
        }
        let volume: Real = m
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| m.vertices[i as usize].coords);
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum();
        assert!((volume - 7.0 * 0.25 * 2.0).abs() < 1e-12, "{volume}");
    }
}
