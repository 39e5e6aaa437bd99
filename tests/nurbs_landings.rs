//! `nurbs-spheres-on-plane` shows what it says (issue 29): one sphere lands on its pole, one
//! on a seam between two octants and one inside an octant. The world runs the scene with its
//! trace recorded; the hits it records in the frame a sphere first touches the plane are the
//! landing, and each hit's sub-patch, rebuilt from its recorded path, gives its parameter
//! rectangle on the sphere's octant. An octant is `u` along its longitude quarter, `v` from
//! the equator (`v = 0`, the seam with the other hemisphere's octant) to the pole (`v = 1`,
//! where the control net's row collapses to one point).

use collidoscope::families::FamilySceneData;
use collidoscope::nurbs::scenes::spheres_on_plane_landings;
use collidoscope::nurbs::{NurbsEvent, NurbsScene, rebuild_piece};
use collidoscope::trace::{EventKind, TraceRecorder};
use collidoscope::world::{World, builtin_scene};

const SCENE: &str = "nurbs-spheres-on-plane";

fn data() -> NurbsScene {
    builtin_scene(SCENE)
        .expect("the scene builds")
        .families
        .iter()
        .find_map(|f| match f {
            FamilySceneData::Nurbs(d) => Some(d.clone()),
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .expect("NURBS data")
}

/// Where a sphere's lowest point is, by dense sampling of its octants (the oracle): the
/// octant and `(u, v)` of the lowest sample, ties (a pole shared by four octants, a seam by
/// two) to the first.
fn lowest_sample(body: usize) -> (usize, f64, f64) {
    let data = data();
    let mut best = (f64::INFINITY, 0, 0.0, 0.0);
    for (s, surface) in data.bodies[body].surfaces.iter().enumerate() {
        for i in 0..=200 {
            for j in 0..=200 {
                let (u, v) = (i as f64 / 200.0, j as f64 / 200.0);
                let y = surface.point(u, v).y;
                if y < best.0 - 1e-12 {
                    best = (y, s, u, v);
                }
            }
        }
    }
    (best.1, best.2, best.3)
}

/// The rectangles of the sphere `body`'s octants hit in the first frame it touches the plane,
/// with the octant of each.
fn landing(body: usize) -> Vec<(usize, [f64; 4])> {
    let data = data();
    let mut world = World::new(builtin_scene(SCENE).expect("the scene builds")).expect("world");
    for _ in 0..600 {
        let mut probe = TraceRecorder::default();
        let frame = world.step(&mut probe);
        let mut rects = Vec::new();
        for e in frame.trace.iter().chain(probe.take().0.iter()) {
            let EventKind::Nurbs(NurbsEvent::Hit {
                surface_a,
                surface_b,
                path_a,
                path_b,
                ..
            }) = &e.kind
            else {
                continue;
            };
            for (id, path) in [(surface_a, path_a), (surface_b, path_b)] {
                let (b, s) = data.locate(*id).expect("a recorded surface id");
                if b == body {
                    let piece = rebuild_piece(&data.bodies[b].surfaces[s], *path);
                    rects.push((s, piece.domain()));
                }
            }
        }
        if !rects.is_empty() {
            return rects;
        }
    }
    panic!("body {body} never touched the plane")
}

#[test]
fn the_pole_sphere_lands_on_its_pole() {
    let (name, _, _) = spheres_on_plane_landings()[0];
    assert_eq!(data().bodies[1].name, name);
    let (_, _, v) = lowest_sample(1);
    assert_eq!(v, 1.0, "the lowest point is not a pole");
    // The first hits lie around the pole, on the octants that meet there.
    let hits = landing(1);
    for &(octant, [_, _, v0, v1]) in &hits {
        assert!(
            v0 > 0.6,
            "octant {octant}: a hit at v {v0}..{v1}, far from the pole"
        );
    }
    let octants: std::collections::BTreeSet<_> = hits.iter().map(|h| h.0).collect();
    assert_eq!(
        octants.len(),
        4,
        "the four octants at the pole are hit: {hits:?}"
    );
}

#[test]
fn the_seam_sphere_lands_on_a_seam_between_octants() {
    let (_, u, v) = lowest_sample(2);
    assert!(
        v == 0.0 && (u - 0.5).abs() < 0.01,
        "the lowest point is at ({u}, {v})"
    );
    let hits = landing(2);
    for &(octant, [u0, u1, v0, v1]) in &hits {
        assert!(
            v0 < 0.4,
            "octant {octant}: a hit at v {v0}..{v1}, far from the seam"
        );
        assert!(
            u0 > 0.2 && u1 < 0.8,
            "octant {octant}: a hit spans u {u0}..{u1}, near a longitude seam"
        );
    }
    let octants: std::collections::BTreeSet<_> = hits.iter().map(|h| h.0).collect();
    assert_eq!(octants.len(), 2, "the seam's two octants are hit: {hits:?}");
}

#[test]
fn the_inside_sphere_lands_inside_an_octant() {
    let (octant, u, v) = lowest_sample(3);
    assert!(
        (0.2..0.8).contains(&u) && (0.2..0.8).contains(&v),
        "the lowest point is at ({u}, {v})"
    );
    let hits = landing(3);
    for &(hit, [u0, u1, v0, v1]) in &hits {
        assert_eq!(hit, octant, "another octant is hit: {hits:?}");
        assert!(
            u0 > 0.1 && u1 < 0.9 && v0 > 0.1 && v1 < 0.9,
            "a hit at u {u0}..{u1}, v {v0}..{v1} is near an edge of the octant"
        );
    }
}
