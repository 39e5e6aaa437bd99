//! Cloth from any triangle mesh (issue 28): the springs and clusters of a mesh piece against
//! brute force, a grid read back from OBJ text, the built-in skirt scene against the ball's
//! own signed distance, and bad OBJ cloth input refused by name.

use collidoscope::cloth::mesh::{GridSpec, SpringKind};
use collidoscope::cloth::mesh_piece::PieceInput;
use collidoscope::cloth::{ClothMesh, ClothScene};
use collidoscope::families::{FamilyFrameData, FamilySceneData};
use collidoscope::geom::{Point3, Real, TriMesh, Vec3};
use collidoscope::scene::Scene;
use collidoscope::scene::obj::parse_obj_indexed;
use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene, display_mesh};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn cloth_of(scene: &Scene) -> &ClothScene {
    scene
        .families
        .iter()
        .find_map(|d| match d {
            FamilySceneData::Cloth(c) => Some(c),
            _ => None,
        })
        .expect("a cloth")
}

fn positions_of(frame: &collidoscope::frame::Frame) -> Vec<Point3> {
    frame
        .families
        .iter()
        .find_map(|d| match d {
            FamilyFrameData::Cloth(c) => Some(c.positions.clone()),
            _ => None,
        })
        .expect("the frame records the cloth")
}

/// Signed distance to a closed convex mesh with outward faces: the largest plane distance
/// (exact inside, a lower bound outside; only its sign and depth inside matter here).
fn convex_signed_distance(mesh: &TriMesh, p: &Point3) -> Real {
    mesh.triangles()
        .filter_map(|t| {
            let n = (t.b - t.a).cross(&(t.c - t.a)).try_normalize(1e-300)?;
            Some((p - t.a).dot(&n))
        })
        .fold(Real::MIN, Real::max)
}

/// The built-in skirt: run 240 frames (4 s). Oracle every frame: each vertex's signed
/// distance to the ball as the cloth sees it (its tessellation, every face, no rays, no
/// hierarchy) and to the exact sphere. At the end: it fell, the waist rests on the ball, the
/// hem hangs below the waist, nothing moves fast, no uncorrected inversion.
#[test]
fn the_skirt_falls_on_the_ball_and_rests_there_without_sinking_in() {
    let scene = builtin_scene("cloth-skirt-on-ball").expect("registered");
    let data = cloth_of(&scene).clone();
    let e = data.params.half_thickness_m;
    let ball = scene
        .bodies
        .iter()
        .find(|b| b.name == "ball")
        .expect("a ball");
    let centre = Point3::from(ball.position);
    let radius = match ball.shape {
        collidoscope::scene::ShapeDesc::Sphere { radius } => radius,
        _ => panic!("the ball is a sphere"),
    };
    let mut world = World::new(scene.clone()).expect("the scene builds");
    let tessellated = {
        let shape = &world.bodies[1].shape;
        let mesh = display_mesh(shape);
        let pose = world.bodies[1].pose;
        TriMesh::new(
            mesh.vertices.iter().map(|p| pose * p).collect(),
            mesh.triangles.clone(),
        )
        .expect("a mesh")
    };
    let (mesh, start) = data.mesh().expect("the skirt builds");
    let lowest = |p: &[Point3]| p.iter().map(|p| p.y).fold(Real::MAX, Real::min);
    let highest = |p: &[Point3]| p.iter().map(|p| p.y).fold(Real::MIN, Real::max);
    let mut deepest = (Real::MAX, String::new());
    let mut uncorrected = Vec::new();
    let mut positions = start.clone();
    let mut previous = start.clone();
    for frame in 0..240 {
        let f = world.step(&mut NoProbe);
        previous = positions;
        positions = positions_of(&f);
        for (v, p) in positions.iter().enumerate() {
            let d = convex_signed_distance(&tessellated, p);
            if d < deepest.0 {
                deepest = (d, format!("vertex {v} at frame {frame}"));
            }
        }
        if let Some(FamilyFrameData::Cloth(c)) = f.families.first() {
            uncorrected.extend(
                c.inversions
                    .iter()
                    .filter(|i| !i.corrected)
                    .map(|i| (frame, i.vertex)),
            );
        }
    }
    let exact_deepest = positions
        .iter()
        .map(|p| (p - centre).norm() - radius)
        .fold(Real::MAX, Real::min);
    let waist: Vec<Point3> = (0..60).map(|v| positions[v]).collect();
    let waist_gap: Vec<Real> = waist.iter().map(|p| (p - centre).norm() - radius).collect();
    let speed = positions
        .iter()
        .zip(&previous)
        .map(|(a, b)| (a - b).norm() * 60.0)
        .fold(0.0, Real::max);
    println!(
        "deepest {:.4} m ({}), exact sphere deepest {exact_deepest:.4}, waist gap {:.4}..{:.4}, \
         y {:.3}..{:.3} (start {:.3}..{:.3}), top speed {speed:.3} m/s, {} uncorrected, {} \
         vertices",
        deepest.0,
        deepest.1,
        waist_gap.iter().copied().fold(Real::MAX, Real::min),
        waist_gap.iter().copied().fold(Real::MIN, Real::max),
        lowest(&positions),
        highest(&positions),
        lowest(&start),
        highest(&start),
        uncorrected.len(),
        mesh.vertex_count(),
    );
    assert!(
        deepest.0 > -e,
        "{}: {:.4} m inside the ball",
        deepest.1,
        -deepest.0
    );
    assert!(
        uncorrected.is_empty(),
        "uncorrected inversions {uncorrected:?}"
    );
    // It fell: everything went down, the highest vertex by most of the 16 cm drop.
    assert!(highest(&positions) < highest(&start) - 0.1);
    assert!(lowest(&positions) < lowest(&start) - 0.1);
    // It rests on the ball: the waist ring touches it (within the shell and a tessellation
    // step) and has not slipped past its equator; the hem hangs below the waist, above the
    // floor; nothing moves faster than a slow sway.
    let touching = waist_gap.iter().filter(|&&g| g < 2.0 * e + 0.01).count();
    assert!(touching > 30, "{touching} of 60 waist vertices on the ball");
    assert!(
        waist.iter().all(|p| p.y > centre.y + 0.2),
        "the waist slipped down"
    );
    assert!(lowest(&positions) > 0.0 && lowest(&positions) < waist[0].y - 0.3);
    assert!(speed < 0.5, "top speed {speed} m/s after 4 s");
}

/// A random open mesh: a jittered `n × m` grid, each cell split along a random diagonal,
/// triangles kept with probability `keep`, unused vertices dropped; then every vertex
/// renumbered, the triangles shuffled and each turned to start at a random corner.
fn open_mesh(n: usize, m: usize, keep: &[bool], bits: &[u8], jitter: &[Real]) -> PieceInput {
    let mut positions = Vec::new();
    for j in 0..m {
        for i in 0..n {
            let k = j * n + i;
            let (dx, dy, dz) = (
                jitter[3 * k % jitter.len()],
                jitter[(3 * k + 1) % jitter.len()],
                jitter[(3 * k + 2) % jitter.len()],
            );
            positions.push(Point3::new(i as Real + 0.3 * dx, j as Real + 0.3 * dy, dz));
        }
    }
    let mut triangles = Vec::new();
    for j in 0..m - 1 {
        for i in 0..n - 1 {
            let (a, b, c, d) = (
                j * n + i,
                j * n + i + 1,
                (j + 1) * n + i + 1,
                (j + 1) * n + i,
            );
            let cell = j * (n - 1) + i;
            let pair = if bits[cell % bits.len()] & 1 == 0 {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for (h, t) in pair.iter().enumerate() {
                if keep[(2 * cell + h) % keep.len()] {
                    triangles.push(t.map(|v| v as u32));
                }
            }
        }
    }
    if triangles.is_empty() {
        triangles.push([0, 1, n as u32]);
    }
    compact(positions, triangles, bits)
}

/// Drops unused vertices, renumbers the rest in a shuffled order, shuffles the triangles and
/// turns each to start at a random corner (same winding).
fn compact(positions: Vec<Point3>, triangles: Vec<[u32; 3]>, bits: &[u8]) -> PieceInput {
    let mut used: Vec<u32> = triangles.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    // A deterministic shuffle from the bits.
    let mut order: Vec<usize> = (0..used.len()).collect();
    for k in (1..order.len()).rev() {
        let r = bits[k % bits.len()] as usize * 31 + k * 7;
        order.swap(k, r % (k + 1));
    }
    let mut new_of = BTreeMap::new();
    let mut placed = vec![Point3::origin(); used.len()];
    for (slot, &k) in order.iter().enumerate() {
        new_of.insert(used[k], slot as u32);
        placed[slot] = positions[used[k] as usize];
    }
    let mut tris: Vec<[u32; 3]> = triangles
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            let r = bits[(t + 3) % bits.len()] as usize % 3;
            let [a, b, c] = tri.map(|v| new_of[&v]);
            [[a, b, c], [b, c, a], [c, a, b]][r]
        })
        .collect();
    let len = tris.len();
    for k in (1..len).rev() {
        tris.swap(k, (bits[(k + 5) % bits.len()] as usize * 13 + k) % (k + 1));
    }
    PieceInput {
        name: "random.obj".into(),
        positions: placed,
        triangles: tris,
        face_lines: Vec::new(),
        position_lines: Vec::new(),
    }
}

/// A closed mesh: an octahedron subdivided `level` times, on the unit sphere, outward.
fn closed_mesh(level: u32, bits: &[u8]) -> PieceInput {
    let mut positions: Vec<Point3> = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ]
    .iter()
    .map(|p| Point3::new(p[0], p[1], p[2]))
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..level {
        let mut middle: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut next = Vec::new();
        for [a, b, c] in triangles {
            let mut mid = |p: u32, q: u32| {
                *middle.entry((p.min(q), p.max(q))).or_insert_with(|| {
                    let m = (positions[p as usize].coords + positions[q as usize].coords) / 2.0;
                    positions.push(Point3::from(m.normalize()));
                    positions.len() as u32 - 1
                })
            };
            let (ab, bc, ca) = (mid(a, b), mid(b, c), mid(c, a));
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        triangles = next;
    }
    compact(positions, triangles, bits)
}

/// Brute force: for every vertex pair, the triangles holding both; edges are the pairs with
/// at least one, interior edges those with exactly two, whose opposite corners are the bend
/// pair.
type Pair = (u32, u32);

fn brute_force_springs(input: &PieceInput) -> (BTreeSet<Pair>, Vec<Pair>) {
    let n = input.positions.len() as u32;
    let mut stretch = BTreeSet::new();
    let mut bend = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let holding: Vec<&[u32; 3]> = input
                .triangles
                .iter()
                .filter(|t| t.contains(&a) && t.contains(&b))
                .collect();
            if !holding.is_empty() {
                stretch.insert((a, b));
            }
            if let [s, t] = holding[..] {
                let opposite = |t: &[u32; 3]| *t.iter().find(|&&v| v != a && v != b).unwrap();
                let (p, q) = (opposite(s), opposite(t));
                bend.push((p.min(q), p.max(q)));
            }
        }
    }
    bend.sort_unstable();
    (stretch, bend)
}

fn check_springs(input: &PieceInput) -> Result<(), TestCaseError> {
    let (mesh, positions) = ClothMesh::build(&[], std::slice::from_ref(input))
        .map_err(|e| TestCaseError::fail(format!("refused: {e}")))?;
    prop_assert_eq!(positions.len(), input.positions.len());
    prop_assert_eq!(&mesh.triangles, &input.triangles);
    let (stretch, bend) = brute_force_springs(input);
    let mut got_stretch = BTreeSet::new();
    let mut got_bend = Vec::new();
    for s in &mesh.springs {
        let pair = (s.a.min(s.b), s.a.max(s.b));
        let rest = (input.positions[s.a as usize] - input.positions[s.b as usize]).norm();
        prop_assert_eq!(s.rest_m, rest);
        match s.kind {
            SpringKind::Stretch => prop_assert!(got_stretch.insert(pair), "twice: {:?}", pair),
            SpringKind::Bend => got_bend.push(pair),
            SpringKind::Shear => prop_assert!(false, "a shear spring {:?}", pair),
        }
    }
    got_bend.sort_unstable();
    prop_assert_eq!(got_stretch, stretch);
    prop_assert_eq!(got_bend, bend);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48 * crate::test_scale::scale()))]

    /// Every edge has exactly one stretch spring, every interior edge one bend spring
    /// between its opposite corners, and there is nothing else, on random open meshes
    /// (holes, bow-ties, strips, a lone triangle) and closed ones.
    #[test]
    fn mesh_springs_match_brute_force(
        n in 2usize..7,
        m in 2usize..7,
        keep in prop::collection::vec(prop::bool::weighted(0.7), 1..80),
        bits in prop::collection::vec(any::<u8>(), 1..64),
        jitter in prop::collection::vec(-1.0..1.0f64, 3..60),
        level in 0u32..3,
    ) {
        let open = open_mesh(n, m, &keep, &bits, &jitter);
        check_springs(&open)?;
        let closed = closed_mesh(level, &bits);
        check_springs(&closed)?;
        // A third triangle on an edge (a fan): refused, naming it.
        for mesh in [open, closed] {
            let [a, b, _] = mesh.triangles[bits[0] as usize % mesh.triangles.len()];
            let mut fan = mesh.clone();
            let lifted = Point3::from(
                (fan.positions[a as usize].coords + fan.positions[b as usize].coords) / 2.0
                    + Vec3::new(0.1, -0.2, 1.0),
            );
            fan.positions.push(lifted);
            fan.triangles.push([a, b, fan.positions.len() as u32 - 1]);
            let third = fan.triangles.len() - 1;
            let shared = mesh.triangles.iter().filter(|t| t.contains(&a) && t.contains(&b)).count();
            match ClothMesh::build(&[], &[fan]) {
                // The edge had one triangle: the new one runs it the same way (a winding
                // fault), else it is a third one.
                Err(e) if shared == 2 => prop_assert!(
                    e.contains(&format!("triangle {third}: non-manifold edge")),
                    "{}", e
                ),
                Err(e) => prop_assert!(e.contains("wound the other way"), "{}", e),
                Ok(_) => prop_assert!(false, "a fan on edge {}-{} accepted", a, b),
            }
        }
    }
}

/// The degenerate inputs by hand: one triangle (three stretch springs, no bend), a strip
/// (its inner diagonals bent), and what must be refused.
#[test]
fn small_meshes_and_refusals() {
    let p = |x: Real, y: Real| Point3::new(x, y, 0.0);
    let piece = |positions: Vec<Point3>, triangles: Vec<[u32; 3]>| PieceInput {
        name: "hand.obj".into(),
        positions,
        triangles,
        face_lines: Vec::new(),
        position_lines: Vec::new(),
    };
    let one = piece(vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)], vec![[0, 1, 2]]);
    let (mesh, _) = ClothMesh::build(&[], &[one]).unwrap();
    assert_eq!(mesh.springs.len(), 3);
    assert!(mesh.springs.iter().all(|s| s.kind == SpringKind::Stretch));
    // A strip of 4 triangles: 9 edges, 3 interior.
    let strip = piece(
        (0..6)
            .map(|k| p((k / 2) as Real, (k % 2) as Real))
            .collect(),
        vec![[0, 2, 1], [1, 2, 3], [2, 4, 3], [3, 4, 5]],
    );
    let (mesh, _) = ClothMesh::build(&[], &[strip]).unwrap();
    let kinds = |k| mesh.springs.iter().filter(|s| s.kind == k).count();
    assert_eq!(
        (kinds(SpringKind::Stretch), kinds(SpringKind::Bend)),
        (9, 3)
    );
    // Refused, each naming the triangle (no lines known) and why.
    let fan = piece(
        vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(0.0, -1.0),
            Point3::new(0.5, 0.0, 1.0),
        ],
        vec![[0, 1, 2], [1, 0, 3], [0, 1, 4]],
    );
    let flat = piece(vec![p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)], vec![[0, 1, 2]]);
    let repeated = piece(vec![p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)], vec![[0, 1, 1]]);
    let flipped = piece(
        vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0), p(1.0, 1.0)],
        vec![[0, 1, 2], [1, 2, 3]],
    );
    let lonely = piece(
        vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0), p(5.0, 5.0)],
        vec![[0, 1, 2]],
    );
    let twice = piece(
        vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)],
        vec![[0, 1, 2], [1, 2, 0]],
    );
    let outside = piece(vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)], vec![[0, 1, 7]]);
    for (input, why) in [
        (fan, "triangle 2: non-manifold edge 1–2"),
        (flat, "triangle 0: degenerate (zero-area)"),
        (
            repeated,
            "triangle 0: degenerate triangle (a vertex repeated",
        ),
        (flipped, "triangle 1: wound the other way"),
        (lonely, "vertex 4: used by no triangle"),
        (twice, "triangle 1: the same triangle as"),
        (outside, "vertex 8 is not among the 3"),
    ] {
        let err = ClothMesh::build(&[], &[input]).unwrap_err();
        assert!(
            err.starts_with("hand.obj") && err.contains(why),
            "{why}: {err}"
        );
    }
}

/// OBJ text of a mesh, every number written exactly.
fn obj_text(positions: &[Point3], triangles: &[[u32; 3]]) -> String {
    let mut text = String::from("# a grid written back as OBJ\n");
    for p in positions {
        text.push_str(&format!("v {:?} {:?} {:?}\n", p.x, p.y, p.z));
    }
    for t in triangles {
        text.push_str(&format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1));
    }
    text
}

/// A grid sheet written as OBJ and read back as a mesh piece: the same triangles, and the
/// same stretch springs (as sets, with their rest lengths); its bend springs go across edges
/// rather than two vertices along a row, and it has no shear springs.
#[test]
fn a_grid_read_back_from_obj_has_the_grids_triangles_and_stretch_springs() {
    for (columns, rows, u, v) in [
        (2, 2, Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)),
        (7, 4, Vec3::new(1.3, 0.2, 0.0), Vec3::new(0.1, 0.0, 0.9)),
        (20, 20, Vec3::new(0.0, 0.0, 1.6), Vec3::new(1.6, 0.0, 0.0)),
    ] {
        let spec = GridSpec {
            columns,
            rows,
            corner: Point3::new(-0.3, 1.2, 0.4),
            u,
            v,
        };
        let (grid, positions) = ClothMesh::sheets(&[spec]).unwrap();
        let text = obj_text(&positions, &grid.triangles);
        let obj = parse_obj_indexed(&text, Path::new("grid.obj")).unwrap();
        assert_eq!(obj.face_lines.first(), Some(&(2 + positions.len())));
        let piece = PieceInput {
            name: "grid.obj".into(),
            positions: obj.positions,
            triangles: obj.triangles,
            face_lines: obj.face_lines,
            position_lines: obj.position_lines,
        };
        let (mesh, read) = ClothMesh::build(&[], &[piece]).unwrap();
        assert_eq!(read, positions);
        assert_eq!(mesh.triangles, grid.triangles);
        let springs = |m: &ClothMesh, kind: SpringKind| -> BTreeMap<(u32, u32), u64> {
            m.springs
                .iter()
                .filter(|s| s.kind == kind)
                .map(|s| ((s.a.min(s.b), s.a.max(s.b)), s.rest_m.to_bits()))
                .collect()
        };
        // The grid's triangle edges: its stretch springs and, in each cell, the shear spring
        // along the diagonal its two triangles share.
        let mut edges = springs(&grid, SpringKind::Stretch);
        let diagonals: BTreeMap<_, _> = springs(&grid, SpringKind::Shear)
            .into_iter()
            .filter(|((a, b), _)| {
                grid.triangles
                    .iter()
                    .any(|t| t.contains(a) && t.contains(b))
            })
            .collect();
        assert_eq!(diagonals.len() as u32, (columns - 1) * (rows - 1));
        edges.extend(diagonals);
        assert_eq!(
            springs(&mesh, SpringKind::Stretch),
            edges,
            "{columns} × {rows}"
        );
        assert_eq!(
            springs(&mesh, SpringKind::Stretch).len(),
            mesh.springs
                .iter()
                .filter(|s| s.kind == SpringKind::Stretch)
                .count()
        );
        assert!(mesh.springs.iter().all(|s| s.kind != SpringKind::Shear));
        assert_eq!(mesh.part_count(), 1);
        assert_eq!(mesh.sheet_of(0), Some(0));
    }
}

/// Clusters of a mesh piece (§3.5.2, cells of `side` mean edges over the rest positions):
/// every vertex in one, numbered densely after the grid sheets' and never shared with a
/// sheet; each cluster's vertices within a cell's diagonal of each other; about side²
/// vertices each on the skirt; `cluster_of` agrees with `cluster_map`.
#[test]
fn mesh_piece_clusters_cover_every_vertex_in_bounded_cells() {
    let scene = builtin_scene("cloth-skirt-on-ball").unwrap();
    let mut data = cloth_of(&scene).clone();
    data.columns = 9;
    data.rows = 6;
    data.u = Vec3::new(1.0, 0.0, 0.0);
    data.v = Vec3::new(0.0, 0.0, 1.0);
    data.corner = Point3::new(-0.5, 2.0, -0.5);
    let (mesh, positions) = data.mesh().unwrap();
    assert_eq!((mesh.sheets.len(), mesh.pieces.len()), (1, 1));
    let piece = &mesh.pieces[0];
    assert_eq!(
        (piece.first, piece.count, piece.triangles),
        (54, 1080, 2040)
    );
    let mean_edge = {
        let s: Vec<Real> = mesh
            .springs
            .iter()
            .filter(|s| s.kind == SpringKind::Stretch && s.a >= 54)
            .map(|s| s.rest_m)
            .collect();
        s.iter().sum::<Real>() / s.len() as Real
    };
    for side in [1, 2, 4, 6] {
        let count = mesh.cluster_count(side);
        let map = mesh.cluster_map(side);
        assert_eq!(map.len(), positions.len());
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (v, &c) in map.iter().enumerate() {
            assert!(
                (c as usize) < count,
                "side {side}: vertex {v} in cluster {c} of {count}"
            );
            members[c as usize].push(v as u32);
        }
        assert!(
            members.iter().all(|m| !m.is_empty()),
            "side {side}: an empty cluster"
        );
        for m in &members {
            let part = mesh.sheet_of(m[0]);
            assert!(
                m.iter().all(|&v| mesh.sheet_of(v) == part),
                "a cluster spans two parts"
            );
        }
        let cell = collidoscope::cloth::mesh_piece::CELL_EDGES * side as Real * mean_edge;
        let reach = 3f64.sqrt() * cell * (1.0 + 1e-9);
        let piece_clusters: Vec<&Vec<u32>> = members.iter().filter(|m| m[0] >= 54).collect();
        for m in &piece_clusters {
            for &a in m.iter() {
                for &b in m.iter() {
                    let d = (positions[a as usize] - positions[b as usize]).norm();
                    assert!(d <= reach, "side {side}: {a} and {b} {d} m apart > {reach}");
                }
            }
        }
        let mean = 1080.0 / piece_clusters.len() as Real;
        let square = (side * side) as Real;
        println!(
            "side {side}: {} clusters on the skirt, {mean:.1} vertices each",
            piece_clusters.len()
        );
        if side > 1 {
            assert!(
                mean > square / 4.0 && mean < 2.0 * square,
                "side {side}: {mean}"
            );
        }
        let one_by_one: Vec<u32> = (0..positions.len() as u32)
            .map(|v| mesh.cluster_of(v, side))
            .collect();
        assert_eq!(one_by_one, map);
    }
    // The split of the halves falls inside the piece (its middle vertex), and the grid's
    // clusters are the grid's alone.
    let split = mesh.half_split();
    assert_eq!(split, positions.len() / 2);
    let (alone, _) = ClothMesh::sheets(&data.grid_specs()).unwrap();
    assert_eq!(alone.cluster_map(4)[..], mesh.cluster_map(4)[..54]);
}

/// A scene directory with `scene.ron` (a cloth of `pieces`, RON text) and the given files.
fn scene_dir(tag: &str, pieces: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "collidoscope-objcloth-{tag}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let scene = format!(
        "(\n    name: \"objcloth-{tag}\",\n    bodies: [\n        (name: \"ball\", shape: Sphere(radius: 0.5), position: (0.0, 0.5, 0.0), fixed: true),\n    ],\n    families: [\n        Cloth((\n            obj_pieces: [\n{pieces}\n            ],\n        )),\n    ],\n)\n"
    );
    std::fs::write(dir.join("scene.ron"), scene).unwrap();
    dir
}

/// Loads and builds `scene.ron` in `dir`: the first error as text.
fn load_and_build(dir: &Path) -> Result<World, String> {
    let path = dir.join("scene.ron");
    let scene = Scene::load(&path).map_err(|e| e.to_string())?;
    World::with_origin(scene, &path).map_err(|e| e.to_string())
}

const SQUARE: &str = "# two triangles\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 1 3 4\n";

/// A scene file with an OBJ piece: the path is relative to the scene file, the text is read
/// into the scene, and the scene written out (a recording's header) builds the same world
/// once the file is gone.
#[test]
fn an_obj_piece_in_a_scene_file_reads_and_replays_without_the_file() {
    let piece = "                (obj: \"meshes/square.obj\", translation: (0.0, 1.2, 0.0), scale: 0.5, pinned: [0, 2]),";
    let dir = scene_dir("good", piece, &[("meshes/square.obj", SQUARE)]);
    let mut world = load_and_build(&dir).expect("the scene builds");
    let path = dir.join("scene.ron");
    let scene = Scene::load(&path).unwrap();
    let data = cloth_of(&scene);
    assert!(!data.has_first_sheet());
    assert_eq!(data.pinned_vertices(), vec![0, 2]);
    let (_, positions) = data.mesh().unwrap();
    assert_eq!(positions[2], Point3::new(0.5, 1.2, 0.5));
    let header = scene.to_ron();
    assert!(
        header.contains("f 1 3 4") && !header.contains("columns"),
        "{header}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let replayed = Scene::from_ron(&header, Path::new("header.ron")).expect("reads");
    let mut again = World::new(replayed).expect("builds without the file");
    for _ in 0..20 {
        let (a, b) = (world.step(&mut NoProbe), again.step(&mut NoProbe));
        assert_eq!(a.state_hash(), b.state_hash());
        // The pinned corners stay.
        assert_eq!(positions_of(&a)[2], Point3::new(0.5, 1.2, 0.5));
    }
}

/// Bad OBJ cloth input: each refused with the scene file, the field and (for the OBJ's own
/// faults) the OBJ's file and line, never a panic.
#[test]
fn bad_obj_cloth_input_is_refused_by_file_line_and_field() {
    let non_manifold =
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 2 1 4\n\nf 1 2 5\n";
    let flat = "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\n";
    let unused = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 3 3 3\nf 1 2 3\n";
    let bad_number = "v 0 0 0\nv 1 zero 0\n";
    let piece = |file: &str, extra: &str| format!("                (obj: \"{file}\"{extra}),");
    type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>, Vec<&'a str>);
    let cases: Vec<Case> = vec![
        (
            "nonmanifold",
            piece("bad.obj", ""),
            vec![("bad.obj", non_manifold)],
            vec![
                "scene.ron:",
                "obj_pieces[0].obj",
                "bad.obj:9",
                "non-manifold edge 1–2",
            ],
        ),
        (
            "flat",
            piece("flat.obj", ""),
            vec![("flat.obj", flat)],
            vec!["obj_pieces[0].obj", "flat.obj:6", "zero-area"],
        ),
        (
            "unused",
            piece("unused.obj", ""),
            vec![("unused.obj", unused)],
            vec![
                "obj_pieces[0].obj",
                "unused.obj:4: vertex 4",
                "used by no triangle",
            ],
        ),
        (
            "missing",
            piece("nowhere.obj", ""),
            vec![],
            vec![
                "scene.ron:",
                "obj_pieces[0].obj",
                "nowhere.obj",
                "cannot read",
            ],
        ),
        (
            "pinned",
            piece("square.obj", ", pinned: [1, 4]"),
            vec![("square.obj", SQUARE)],
            vec!["obj_pieces[0].pinned", "vertex 4", "square.obj"],
        ),
        (
            "number",
            piece("num.obj", ""),
            vec![("num.obj", bad_number)],
            vec!["obj_pieces[0].obj", "num.obj:2", "not a number"],
        ),
        (
            "scale",
            piece("square.obj", ", scale: -1.0"),
            vec![("square.obj", SQUARE)],
            vec!["obj_pieces[0].scale"],
        ),
        (
            "second",
            format!("{}\n{}", piece("square.obj", ""), piece("bad.obj", "")),
            vec![("square.obj", SQUARE), ("bad.obj", non_manifold)],
            vec!["obj_pieces[1].obj", "bad.obj:9"],
        ),
    ];
    for (tag, pieces, files, expected) in cases {
        let dir = scene_dir(tag, &pieces, &files);
        let err = match load_and_build(&dir) {
            Ok(_) => panic!("{tag}: accepted"),
            Err(e) => e,
        };
        for part in expected {
            assert!(err.contains(part), "{tag}: {part:?} not in {err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // A cloth of nothing at all.
    let dir = scene_dir("empty", "", &[]);
    let err = load_and_build(&dir).err().expect("refused");
    assert!(
        err.contains("needs a sheet") && err.contains("obj_pieces"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The header a recording of the skirt carries: the scene's RON with the OBJ's text once.
#[test]
fn the_skirt_scene_header_carries_the_mesh_once() {
    let skirt = builtin_scene("cloth-skirt-on-ball").unwrap();
    let sheet = builtin_scene("cloth-sheet-on-sphere").unwrap();
    let (a, b) = (skirt.to_ron().len(), sheet.to_ron().len());
    println!("scene header: cloth-skirt-on-ball {a} bytes, cloth-sheet-on-sphere {b} bytes");
    let obj = include_str!("../assets/meshes/cloth-skirt.obj");
    assert!(a > obj.len() && a < obj.len() + 2 * b, "{a} bytes");
    assert_eq!(skirt.to_ron().matches("f 1 2 61").count(), 1);
    let back = Scene::from_ron(&skirt.to_ron(), Path::new("header.ron")).unwrap();
    assert_eq!(back, skirt);
}
