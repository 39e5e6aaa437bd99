//! Hostile BSP input (issue 31): brushes of thousands of planes, nearly parallel planes, and
//! meshes that bound no solid. The reproducers go through the real binary (`query`,
//! `record`) and must get an answer or a clear error; the bounded brush construction is
//! held to the triple method it replaced, and the closed-mesh check to a brute-force count.
//!
//! Case counts scale with `COLLIDOSCOPE_TEST_SCALE` (default 1).

use crate::test_scale::scale;
use collidoscope::bsp::corners::{corners, corners_brute_force};
use collidoscope::bsp::mesh_bsp::brushes_from_mesh;
use collidoscope::bsp::{Brush, BrushError, MAX_BRUSH_PLANES};
use collidoscope::geom::closed_mesh::check_closed_mesh;
use collidoscope::geom::{Plane, Point3, Real, Vec3, hull_triangles};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: n * scale(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile/bsp")
        .join(name)
}

/// Runs `collidoscope query` on one file of query lines; the one reply.
fn query_file(path: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["query", path.to_str().expect("a UTF-8 path")])
        .stdin(Stdio::null())
        .output()
        .expect("the collidoscope binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text.lines().next().expect("one reply line");
    serde_json::from_str(line).expect("a JSON reply")
}

// ---------- the reproducers, through the binary ----------

/// A sphere of radius 1 made of 1,000 tangent planes: the sweep from x = 3 along y = 0.1,
/// z = 0.2 stops where a sphere of radius 0.1 first touches it, about |p| = 1.1, x = 1.077
/// (the faces are tangent to the unit sphere, so the brush reaches a little further).
#[test]
fn thousand_plane_brush_sweep_answers() {
    let r = query_file(&fixture("sphere-1000-sweep.jsonl"));
    assert_eq!(r["ok"], true, "{r}");
    let x = 3.0 - 6.0 * r["contact_fraction"].as_f64().unwrap();
    assert!(x > 1.07 && x < 1.09, "contact at x = {x}: {r}");
    assert!(r["normal"][0].as_f64().unwrap() > 0.9, "{r}");
    assert_eq!(r["start_solid"], false);
}

#[test]
fn thousand_plane_brush_slide_answers() {
    let r = query_file(&fixture("sphere-1000-slide.jsonl"));
    assert_eq!(r["ok"], true, "{r}");
    let end = &r["end"];
    let p = Vec3::new(
        end[0].as_f64().unwrap(),
        end[1].as_f64().unwrap(),
        end[2].as_f64().unwrap(),
    );
    // Pushed along the ball: never inside it.
    assert!(p.norm() > 1.09, "ended at {p}: {r}");
    assert_eq!(r["collided"], true);
}

/// 3,000 planes: one brush, one leaf, and bevels that fit in the sweep's plane index.
#[test]
fn three_thousand_plane_brush_stats_answer() {
    let r = query_file(&fixture("sphere-3000-stats.jsonl"));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["brushes"], 1);
    assert_eq!(r["solid_leaves"], 1);
}

/// A box whose top is 995 planes within 1e-4 of parallel: the sweep along y = 0.1, z = 0.2
/// meets the box's x = 1 side.
#[test]
fn nearly_parallel_planes_answer() {
    let r = query_file(&fixture("parallel-1000-sweep.jsonl"));
    assert_eq!(r["ok"], true, "{r}");
    let x = 3.0 - 6.0 * r["contact_fraction"].as_f64().unwrap();
    assert!((x - 1.1).abs() < 1e-6, "contact at x = {x}: {r}");
    assert_eq!(r["normal"][0].as_f64().unwrap(), 1.0, "{r}");
}

/// Planes tangent to a sphere, normals on a Fibonacci spiral.
fn sphere_planes(n: usize, radius: Real) -> Vec<Plane> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
            let r = (1.0 - z * z).sqrt();
            let t = golden * i as Real;
            Plane {
                normal: Vec3::new(r * t.cos(), r * t.sin(), z),
                d: radius,
            }
        })
        .collect()
}

/// More planes than a brush may have: a clear error naming the brush and the limit.
#[test]
fn too_many_planes_is_a_clear_error() {
    let planes = sphere_planes(MAX_BRUSH_PLANES + 1, 1.0);
    let e = Brush::from_planes(&planes).unwrap_err();
    assert_eq!(
        e,
        BrushError::TooManyPlanes {
            count: MAX_BRUSH_PLANES + 1,
            limit: MAX_BRUSH_PLANES
        }
    );
    let list: Vec<[Real; 4]> = planes
        .iter()
        .map(|p| [p.normal.x, p.normal.y, p.normal.z, p.d])
        .collect();
    let q = serde_json::json!({"id": 1, "op": "bsp_stats", "brushes": [list]});
    let r = collidoscope::query::answer_line(&q.to_string());
    assert_eq!(r["ok"], false, "{r}");
    let error = r["error"].as_str().unwrap();
    assert!(
        error.contains("brushes[0]") && error.contains("at most 4096"),
        "{error}"
    );
}

/// A `.map` whose one world brush has 2,000 faces (tangent to a sphere of radius 64), the
/// player starting outside it: `collidoscope record` records it.
#[test]
fn map_brush_of_two_thousand_faces_records() {
    let mut text = String::from("{\n\"classname\" \"worldspawn\"\n{\n");
    for p in sphere_planes(2000, 64.0) {
        let n = p.normal;
        let helper = if n.x.abs() < 0.6 {
            Vec3::x()
        } else {
            Vec3::y()
        };
        let u = n.cross(&helper).normalize() * 16.0;
        let v = n.cross(&u);
        // Quake's order (clockwise seen from outside): a, a + v, a + u.
        let a = n * 64.0;
        let pts = [a, a + v, a + u];
        for q in pts {
            text.push_str(&format!("( {:.9} {:.9} {:.9} ) ", q.x, q.y, q.z));
        }
        text.push_str("ROCK 0 0 0 1 1\n");
    }
    text.push_str("}\n}\n{\n\"classname\" \"info_player_start\"\n\"origin\" \"200 0 0\"\n}\n");
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("ball.map");
    std::fs::write(&map, text).unwrap();
    let out = dir.path().join("ball.cdrec");
    let o = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["record", "--scene", map.to_str().unwrap(), "--frames", "3"])
        .args(["-o", out.to_str().unwrap()])
        .output()
        .expect("the collidoscope binary runs");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.exists());
}

/// A `.map` of 10,000 cube brushes (3.7 MB) is read in a few times its size: the query that
/// reads it runs with its data segment limited to ten times the file. Tokens copied out of the
/// text took some 30 times its size (a 64 MiB level, 2 GB).
#[test]
fn a_large_map_is_read_in_a_few_times_its_size() {
    let mut text = String::from("{\n\"classname\" \"worldspawn\"\n");
    for i in 0..10_000 {
        let (x, y, z) = (64 * (i % 22), 64 * ((i / 22) % 22), 64 * (i / 484));
        let (a, b) = ([x, y, z], [x + 32, y + 32, z + 32]);
        text.push_str("{\n");
        // Quake's order: three points clockwise seen from outside each face.
        for (p, q, r) in [
            (a, [a[0], a[1] + 1, a[2]], [a[0], a[1], a[2] + 1]),
            (b, [b[0], b[1], b[2] + 1], [b[0], b[1] + 1, b[2]]),
            (a, [a[0], a[1], a[2] + 1], [a[0] + 1, a[1], a[2]]),
            (b, [b[0] + 1, b[1], b[2]], [b[0], b[1], b[2] + 1]),
            (a, [a[0] + 1, a[1], a[2]], [a[0], a[1] + 1, a[2]]),
            (b, [b[0], b[1] + 1, b[2]], [b[0] + 1, b[1], b[2]]),
        ] {
            let point = |v: [i32; 3]| format!("( {} {} {} )", v[0], v[1], v[2]);
            text.push_str(&format!(
                "{} {} {} CRATE 0 0 0 1 1\n",
                point(p),
                point(q),
                point(r)
            ));
        }
        text.push_str("}\n");
    }
    text.push_str("}\n");
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("crates.map");
    std::fs::write(&map, &text).unwrap();
    let request = dir.path().join("stats.jsonl");
    let line = serde_json::json!({"op": "bsp_stats", "map": map.to_str().unwrap()});
    std::fs::write(&request, format!("{line}\n")).unwrap();
    let limit_kib = 10 * text.len() / 1024;
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -d {limit_kib} && exec \"$0\" query \"$1\""))
        .arg(env!("CARGO_BIN_EXE_collidoscope"))
        .arg(&request)
        .output()
        .expect("sh runs");
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["brushes"], 10_000, "{}", reply["error"]);
}

// ---------- meshes that bound no solid ----------

fn cube() -> (Vec<Point3>, Vec<[u32; 3]>) {
    let v = (0..8)
        .map(|i| {
            Point3::new(
                (i & 1) as Real,
                ((i >> 1) & 1) as Real,
                ((i >> 2) & 1) as Real,
            )
        })
        .collect();
    // Counter-clockwise seen from outside.
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    (v, t)
}

fn write_obj(dir: &Path, name: &str, v: &[Point3], t: &[[u32; 3]]) -> PathBuf {
    let mut text = String::new();
    for p in v {
        text.push_str(&format!("v {} {} {}\n", p.x, p.y, p.z));
    }
    for f in t {
        text.push_str(&format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The three reproducers, as `.obj` levels through `collidoscope query`: each refused with
/// its reason; the closed cube they come from is accepted.
#[test]
fn meshes_that_bound_no_solid_are_refused_by_the_binary() {
    let (v, t) = cube();
    let flipped: Vec<[u32; 3]> = t.iter().map(|f| [f[0], f[2], f[1]]).collect();
    let flat = vec![
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
    ];
    let dir = tempfile::tempdir().unwrap();
    let meshes = [
        ("cube.obj", v.clone(), t.clone(), None),
        (
            "open.obj",
            flat.clone(),
            vec![[0, 1, 2]],
            Some("open: edge (0,1) is used by 1 triangle"),
        ),
        (
            "flat.obj",
            flat,
            vec![[0, 1, 2], [0, 2, 1]],
            Some("zero volume"),
        ),
        ("inside-out.obj", v, flipped, Some("inside out (volume -1)")),
    ];
    let mut lines = String::new();
    for (i, (name, v, t, _)) in meshes.iter().enumerate() {
        let path = write_obj(dir.path(), name, v, t);
        let q = serde_json::json!({"id": i, "op": "bsp_sweep", "mesh": path,
            "shape": {"kind": "sphere", "radius": 0.1}, "start": [3, 0.5, 0.5], "end": [-3, 0.5, 0.5]});
        lines.push_str(&format!("{q}\n"));
    }
    let queries = dir.path().join("q.jsonl");
    std::fs::write(&queries, lines).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["query", queries.to_str().unwrap()])
        .output()
        .expect("the collidoscope binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), meshes.len(), "{text}");
    for ((name, .., reason), r) in meshes.iter().zip(&replies) {
        match reason {
            None => assert_eq!(r["ok"], true, "{name}: {r}"),
            Some(reason) => {
                assert_eq!(r["ok"], false, "{name}: {r}");
                let e = r["error"].as_str().unwrap();
                assert!(e.contains(reason), "{name}: {e}");
            }
        }
    }
}

#[test]
fn closed_mesh_check_names_each_fault() {
    let (v, t) = cube();
    assert!((check_closed_mesh(&v, &t).unwrap() - 1.0).abs() < 1e-12);
    let mut one_flipped = t.clone();
    one_flipped[0] = [0, 1, 2];
    let e = check_closed_mesh(&v, &one_flipped).unwrap_err().to_string();
    assert!(e.starts_with("inconsistent orientation at edge"), "{e}");
    let e = check_closed_mesh(&v, &t[1..]).unwrap_err().to_string();
    assert!(e.starts_with("open: edge ("), "{e}");
    let mut doubled = t.clone();
    doubled.push(t[0]);
    let e = check_closed_mesh(&v, &doubled).unwrap_err().to_string();
    assert!(
        e.starts_with("not a surface: edge (0,1) is used by 3"),
        "{e}"
    );
    let e = check_closed_mesh(&v, &[[0, 1, 99]])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "triangle 0: vertex 99 out of range");
    let e = check_closed_mesh(&v, &[[0, 1, 1]]).unwrap_err().to_string();
    assert_eq!(e, "triangle 0 uses vertex 1 twice");
    let e = brushes_from_mesh(&v, &t[1..]).unwrap_err();
    assert!(e.starts_with("open: edge"), "{e}");
}

/// What a brute-force count says about a mesh: closed, consistently oriented, signed volume.
fn brute_force_verdict(v: &[Point3], t: &[[u32; 3]]) -> (bool, bool, Real) {
    let (mut closed, mut oriented) = (true, true);
    for tri in t {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let runs = |x: u32, y: u32| {
                t.iter()
                    .filter(|o| (0..3).any(|j| o[j] == x && o[(j + 1) % 3] == y))
                    .count()
            };
            let (same, opposite) = (runs(a, b), runs(b, a));
            closed &= same + opposite == 2;
            oriented &= same == 1 && opposite == 1;
        }
    }
    let volume = t
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|k| v[k as usize].coords);
            a.dot(&b.cross(&c)) / 6.0
        })
        .sum();
    (closed, oriented, volume)
}

fn arb_hull() -> impl Strategy<Value = (Vec<Point3>, Vec<[u32; 3]>)> {
    prop::collection::vec((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), 5..30).prop_filter_map(
        "a hull with volume",
        |pts| {
            let pts: Vec<Point3> = pts
                .into_iter()
                .map(|(x, y, z)| Point3::new(x, y, z))
                .collect();
            let tris = hull_triangles(&pts).ok()?;
            let tris: Vec<[u32; 3]> = tris.iter().map(|t| t.map(|k| k as u32)).collect();
            let (closed, oriented, volume) = brute_force_verdict(&pts, &tris);
            (closed && oriented && volume > 1e-3).then_some((pts, tris))
        },
    )
}

proptest! {
    #![proptest_config(cases(64))]

    /// Convex hulls are closed solids; removing a triangle opens one, flipping one breaks
    /// the orientation, flipping all turns it inside out; each verdict agrees with the
    /// brute-force count.
    #[test]
    fn closed_mesh_check_agrees_with_brute_force((v, t) in arb_hull(), pick in 0usize..1000) {
        let volume = check_closed_mesh(&v, &t).expect("a hull is closed");
        let brute = brute_force_verdict(&v, &t).2;
        prop_assert!((volume - brute).abs() <= 1e-9 * brute.abs().max(1.0));
        let k = pick % t.len();
        let mut removed = t.clone();
        removed.remove(k);
        let e = check_closed_mesh(&v, &removed).unwrap_err().to_string();
        prop_assert!(!brute_force_verdict(&v, &removed).0);
        prop_assert!(e.starts_with("open: edge ("), "{}", e);
        let mut flipped = t.clone();
        flipped[k] = [t[k][0], t[k][2], t[k][1]];
        let e = check_closed_mesh(&v, &flipped).unwrap_err().to_string();
        let (closed, oriented, _) = brute_force_verdict(&v, &flipped);
        prop_assert!(closed && !oriented);
        prop_assert!(e.starts_with("inconsistent orientation at edge ("), "{}", e);
        let inside_out: Vec<[u32; 3]> = t.iter().map(|f| [f[0], f[2], f[1]]).collect();
        let e = check_closed_mesh(&v, &inside_out).unwrap_err().to_string();
        prop_assert!(e.starts_with("inside out (volume -"), "{}", e);
    }
}

// ---------- the bounded brush construction against the triple method ----------

/// The far box `Brush::from_planes` closes every brush with.
fn with_far_box(mut planes: Vec<Plane>) -> Vec<Plane> {
    for axis in [Vec3::x(), Vec3::y(), Vec3::z()] {
        planes.push(Plane {
            normal: axis,
            d: 1e7,
        });
        planes.push(Plane {
            normal: -axis,
            d: 1e7,
        });
    }
    planes
}

/// How far `p` is outside the convex hull of `set`, measured along the normals of every
/// triangle of its points (both ways): the facets of the hull are among them, so this is the
/// largest distance of `p` beyond a facet plane of the hull (zero or less inside it).
fn beyond_hull(set: &[Point3], p: &Point3) -> Real {
    let support = |u: &Vec3| {
        set.iter()
            .map(|q| u.dot(&q.coords))
            .fold(Real::MIN, Real::max)
    };
    let mut worst = Real::MIN;
    for (i, a) in set.iter().enumerate() {
        for (j, b) in set.iter().enumerate().skip(i + 1) {
            for c in &set[j + 1..] {
                let Some(n) = (b - a).cross(&(c - a)).try_normalize(1e-300) else {
                    continue;
                };
                for u in [n, -n] {
                    worst = worst.max(u.dot(&p.coords) - support(&u));
                }
            }
        }
    }
    worst
}

/// The largest distance of `p` in front of a plane.
fn outside(planes: &[Plane], p: &Point3) -> Real {
    planes
        .iter()
        .map(|q| q.signed_distance(p))
        .fold(Real::MIN, Real::max)
}

/// The sine of the smallest angle between two different planes (1 at most): planes crossing
/// at an angle θ place a corner only to within tolerance / θ along their line, and a corner
/// so displaced tilts the hull faces next to it, so that is how far apart two answers may be.
fn sharpest(planes: &[Plane]) -> Real {
    let mut sine: Real = 1.0;
    for (i, a) in planes.iter().enumerate() {
        for b in &planes[i + 1..] {
            let s = a.normal.cross(&b.normal).norm();
            if s > 0.0 {
                sine = sine.min(s);
            }
        }
    }
    sine
}

/// The corners of degenerate brushes are only defined within tolerance, so the two methods
/// need not find the same points; what they must agree on is the solid. Each corner of
/// either is behind every plane within the construction's tolerance (1e-9 of its size: both
/// methods promise that), and each corner of one that has no match in the other (within
/// 1e-6) lies within ten tolerances of the other's convex hull, divided by the sine of the
/// sharpest angle between the planes ([`sharpest`]).
///
/// Why the points differ (seen on the generated cases, and why neither answer is wrong): a
/// copy tilted by 1e-10 meets its plane along a line, and the triple method reports the ends
/// of that line as corners though they sit on an edge of the others, straight within 1e-10,
/// where the clipping merges them away; a triple of nearly parallel planes (determinant near
/// the 1e-12 cut-off) meets far from where the planes really cross, and the triple method
/// keeps that point when it happens to be behind every plane, even 1e-5 inside the solid;
/// and where more than 256 nearly coincident triples pass through a corner, the new method
/// keeps the clipped point rather than trying them all. All of these are points of the same
/// solid, on its boundary or inside it.
fn same_solid(planes: &[Plane], new: &[Point3], old: &[Point3]) -> Result<(), String> {
    let counts = format!(
        "({} new corners, {} from the triple method)",
        new.len(),
        old.len()
    );
    let sharpest = sharpest(planes);
    for (x, y, which) in [(new, old, "new"), (old, new, "oracle")] {
        for p in x {
            let size = p.coords.amax().max(1.0);
            let tol = 1e-9 * size;
            let out = outside(planes, p);
            if out > tol {
                return Err(format!(
                    "{which} corner {p:?} is {out:e} in front of a plane {counts}"
                ));
            }
            if y.iter().any(|q| (q - p).amax() <= 1e-6 * size) {
                continue;
            }
            let beyond = beyond_hull(y, p);
            if beyond > 10.0 * tol / sharpest {
                return Err(format!(
                    "{which} corner {p:?} has no match and is {beyond:e} outside the other's hull {counts}"
                ));
            }
        }
    }
    Ok(())
}

/// Whether four of the points span a tetrahedron (of more than rounding's volume).
fn has_volume(points: &[Point3]) -> bool {
    let size = points.iter().map(|p| p.coords.amax()).fold(1.0, Real::max);
    let Some(a) = points.first() else {
        return false;
    };
    points.iter().any(|b| {
        points.iter().any(|c| {
            let n = (b - a).cross(&(c - a));
            points
                .iter()
                .any(|d| n.dot(&(d - a)).abs() > 1e-9 * size.powi(3))
        })
    })
}

fn unit(theta: Real, z: Real) -> Vec3 {
    let r = (1.0 - z * z).max(0.0).sqrt();
    Vec3::new(r * theta.cos(), r * theta.sin(), z)
}

/// Random planes around the origin (a bounded brush when their normals surround it).
fn arb_planes(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Plane>> {
    prop::collection::vec((0.0..std::f64::consts::TAU, -1.0..1.0f64, 0.3..2.0f64), n).prop_map(
        |v| {
            v.into_iter()
                .map(|(t, z, d)| Plane {
                    normal: unit(t, z),
                    d,
                })
                .collect()
        },
    )
}

/// Integer planes as a level designer makes them: boxes cut by 45° planes, so that four
/// planes or more often meet at one corner.
fn arb_designed() -> impl Strategy<Value = Vec<Plane>> {
    let cut = (-1i32..=1, -1i32..=1, -1i32..=1, 0i32..4);
    (
        prop::collection::vec(1i32..4, 6),
        prop::collection::vec(cut, 0..8),
    )
        .prop_map(|(b, cuts)| {
            let mut planes = collidoscope::bsp::box_planes(
                [-b[0] as Real, -b[1] as Real, -b[2] as Real],
                [b[3] as Real, b[4] as Real, b[5] as Real],
            );
            for (x, y, z, d) in cuts {
                if let Some(p) = Plane::new(Vec3::new(x as Real, y as Real, z as Real), d as Real) {
                    planes.push(p);
                }
            }
            planes
        })
}

proptest! {
    #![proptest_config(cases(96))]

    /// Generic and designed brushes: the same corners, in the same order, to the bit.
    #[test]
    fn corners_match_the_triple_method_exactly(planes in prop_oneof![arb_planes(4..24), arb_designed()]) {
        let planes = with_far_box(planes);
        let (new, old) = (corners(&planes), corners_brute_force(&planes));
        // Designed cuts can squash a box flat (x <= 0, z >= 0, z <= x leave a segment): the
        // triple method lists that flat set's corners, the clipping finds no face with area.
        // Either way the brush is refused as empty, so only solids are compared.
        if has_volume(&old) {
            prop_assert_eq!(new, old);
        } else {
            prop_assert!(!has_volume(&new), "{:?}", new);
        }
    }

    /// Degenerate brushes: duplicated planes, nearly parallel copies (tilted by up to 1e-6,
    /// down to 1e-12), and open ones (normals in one half-space, closed only by the far box):
    /// the same solid (see [`same_solid`] for why not always the same points).
    #[test]
    fn degenerate_corners_match_the_triple_method(
        planes in arb_planes(4..16),
        copies in prop::collection::vec((0usize..100, -1e-6..1e-6f64, -1e-6..1e-6f64, -8i32..-2), 1..6),
        open in any::<bool>(),
    ) {
        let mut planes = planes;
        if open {
            for p in &mut planes {
                p.normal.z = p.normal.z.abs().max(0.05);
                p.normal = p.normal.normalize();
            }
        }
        let n = planes.len();
        for (k, tilt_x, tilt_y, exp) in copies {
            let p = planes[k % n];
            let scale = 10f64.powi(exp + 2);
            let normal = (p.normal + Vec3::new(tilt_x, tilt_y, 0.0) * scale).normalize();
            planes.push(Plane { normal, d: p.d + tilt_x * scale });
            planes.push(p);
        }
        let planes = with_far_box(planes);
        let (new, old) = (corners(&planes), corners_brute_force(&planes));
        if let Err(e) = same_solid(&planes, &new, &old) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// A brush of 60 tangent planes (many faces, corners of three planes each) has the corners
/// of the triple method, bit for bit, and every plane is a face.
#[test]
fn many_plane_brush_matches_the_triple_method() {
    let planes = with_far_box(sphere_planes(60, 1.0));
    assert_eq!(corners(&planes), corners_brute_force(&planes));
    let brush = Brush::from_planes(&sphere_planes(60, 1.0)).unwrap();
    assert_eq!(brush.face_count, 60);
    assert!(brush.planes.len() > 60);
}

/// A cube whose corner (1, 1, 1) also has 30 planes through it, nearly coincident (normals
/// within 1e-11 of the diagonal, so no two of them meet) and listed first: more than 256
/// triples pass through that corner before one with two of the cube's planes, so the
/// construction keeps the clipped corner. It is the same solid as the triple method's.
#[test]
fn corner_of_many_nearly_coincident_planes() {
    let diagonal = Vec3::new(1.0, 1.0, 1.0).normalize();
    let mut planes: Vec<Plane> = (0..30)
        .map(|k| {
            let t = k as Real;
            let normal = (diagonal + Vec3::new(t.cos(), t.sin(), 0.0) * 1e-11).normalize();
            Plane {
                normal,
                d: normal.dot(&Vec3::new(1.0, 1.0, 1.0)),
            }
        })
        .collect();
    planes.extend(collidoscope::bsp::box_planes([-1.0; 3], [1.0; 3]));
    let planes = with_far_box(planes);
    let (new, old) = (corners(&planes), corners_brute_force(&planes));
    same_solid(&planes, &new, &old).unwrap();
    // The cube's eight corners, (1, 1, 1) the clipped one (so last, after the exact ones).
    let cube_corner = |p: &Point3| p.iter().all(|c| c.abs() == 1.0);
    assert_eq!(new.len(), 8, "{new:?}");
    assert!(new.iter().all(cube_corner), "{new:?}");
    assert_eq!(new[7], Point3::new(1.0, 1.0, 1.0));
}
