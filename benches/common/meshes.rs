//! The meshes and rays the hierarchy benches and the profiling example share.

use collidoscope::geom::{Ray, Real, TriMesh, Vec3};
use collidoscope::world::procedural;

/// The 100,000-triangle torus.
pub fn big_mesh() -> TriMesh {
    // 2 × 500 × 100 = 100,000 triangles.
    procedural::torus(1.0, 0.3, 500, 100)
}

/// The Utah teapot's 32 bicubic patches (a real file), each tessellated into 64 × 64 quads:
/// 262,144 triangles, many of them sliver-thin near the patches' poles.
pub fn teapot_mesh() -> TriMesh {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for named in collidoscope::nurbs::surface_file::teapot() {
        for t in collidoscope::nurbs::tessellate::tessellate(&named.surface, 64) {
            let k = vertices.len() as u32;
            vertices.extend([t.a, t.b, t.c]);
            triangles.push([k, k + 1, k + 2]);
        }
    }
    TriMesh {
        vertices,
        triangles,
    }
}

/// Rays from a sphere around the mesh towards random points of its box: about half hit.
pub fn rays(mesh: &TriMesh, n: usize) -> Vec<Ray> {
    let b = mesh.aabb();
    let (c, r) = (b.center(), b.extents().norm());
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut unit = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as Real / (1u64 << 53) as Real
    };
    (0..n)
        .map(|_| {
            let o = c + Vec3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5).normalize() * 2.0 * r;
            let e = b.extents();
            let target = b.min + Vec3::new(unit() * e.x, unit() * e.y, unit() * e.z);
            Ray::new(o, target - o)
        })
        .collect()
}
