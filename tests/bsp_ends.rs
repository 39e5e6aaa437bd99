//! Scene tests of every way a slide ends (spec 001 §8.8), of the corridor's absent false
//! impact, of what bevel planes are worth, and of each defect of the article's search and
//! slide (§7.5, §8.8, §13) in its scene: the article's slide fails as the text says, the
//! engine's does not, on the same moves from the same start.

use collidoscope::bsp::article::{self, ArticleTree};
use collidoscope::bsp::{
    BspEvent, BspScene, BspSweepMode, BspTree, MIN_DISTANCE, Shape, SlideBranch, SlideEnd, slide,
    sweep,
};
use collidoscope::geom::{Plane, Point3, Vec3};
use collidoscope::trace::{EventKind, NoProbe};

use crate::bsp_oracle::{Events, scene_data};

/// One frame's slide: its events, where it ended (`None`: NaN), why.
struct Step {
    events: Vec<BspEvent>,
    from: Point3,
    moved: Vec3,
    end: Option<Point3>,
    reason: SlideEnd,
}

/// The walker of `data` over `frames` frames with `mode`, as the simulation runs it.
fn walk(data: &BspScene, mode: BspSweepMode, frames: usize) -> (BspTree, Vec<Step>) {
    let tree = data.tree().expect("valid level");
    let chains = ArticleTree::chains(&tree, &data.brushes);
    let mut p = data.start;
    let mut out = Vec::new();
    for m in data.moves.iter().cycle().take(frames) {
        let mut ev = Events::default();
        let (end, reason) = match mode {
            BspSweepMode::Engine => {
                let s = slide(&tree, &data.shape, &p, m, &mut ev);
                (Some(s.end), s.reason)
            }
            BspSweepMode::Article => {
                let s = article::slide(&chains, &data.shape, &p, m, &mut ev);
                (s.end, s.reason)
            }
        };
        out.push(Step {
            events: ev.0,
            from: p,
            moved: *m,
            end,
            reason,
        });
        p = end.unwrap_or(p);
    }
    (tree, out)
}

/// The Iteration events of a step: (start, remaining, hit, frac_impact, frac_real, branch).
type It = (Point3, Vec3, Option<(u32, u16)>, f64, f64, SlideBranch);

fn iterations(events: &[BspEvent]) -> Vec<It> {
    events
        .iter()
        .filter_map(|e| match *e {
            BspEvent::Iteration {
                start,
                remaining,
                hit,
                frac_impact,
                frac_real,
                branch,
                ..
            } => Some((start, remaining, hit, frac_impact, frac_real, branch)),
            _ => None,
        })
        .collect()
}

fn plane(tree: &BspTree, hit: (u32, u16)) -> Plane {
    tree.brushes[hit.0 as usize].planes[hit.1 as usize]
}

/// How far `p` is in front of the plane pushed out by the shape: `MIN_DISTANCE` after a stop.
fn clearance(tree: &BspTree, shape: &Shape, hit: (u32, u16), p: &Point3) -> f64 {
    let pl = plane(tree, hit);
    pl.signed_distance(p) - shape.offset(&pl.normal)
}

/// Exact distance from a point to an axis-aligned box (an oracle independent of the planes).
fn box_distance(p: &Point3, min: &Point3, max: &Point3) -> f64 {
    let mut d2 = 0.0;
    for i in 0..3 {
        let e = (min[i] - p[i]).max(0.0).max(p[i] - max[i]);
        d2 += e * e;
    }
    d2.sqrt()
}

// ---------- every way a slide ends, in a scene ----------

#[test]
fn wall_ends_on_the_skin_of_the_wall_it_slides_along() {
    let data = scene_data("bsp-corridor");
    let (tree, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    let mut walls = 0;
    for s in &steps {
        for (start, rem, hit, fi, _, branch) in iterations(&s.events) {
            if let (SlideBranch::Wall(_), Some(hit)) = (branch, hit) {
                let stop = start + rem * fi;
                let c = clearance(&tree, &data.shape, hit, &stop);
                if fi > 0.0 {
                    assert!((c - MIN_DISTANCE).abs() < 1e-9, "stop {c} off the skin");
                    walls += 1;
                }
            }
        }
    }
    assert!(walls > 0, "the corridor slides along a wall");
}

#[test]
fn crease_then_corner_stop_three_walls_deep() {
    let data = scene_data("bsp-three-plane-corner");
    let (_, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    let creases = steps
        .iter()
        .flat_map(|s| iterations(&s.events))
        .filter(|it| it.5 == SlideBranch::Crease)
        .count();
    assert!(creases > 0, "a crease is followed");
    let corner = steps
        .iter()
        .find(|s| s.reason == SlideEnd::Corner)
        .expect("a corner stop");
    let end = corner.end.expect("finite");
    // The floor (y = 0) and both walls (x = 2, z = 2): the sphere is within the skin of
    // each (on it where the slide stopped it; the floor was reached by free moves that
    // ended inside the skin, pressed down a little every frame).
    let r = 0.5;
    for (d, what) in [
        (end.y, "floor"),
        (2.0 - end.x, "x wall"),
        (2.0 - end.z, "z wall"),
    ] {
        let c = d - r;
        assert!(
            (-1e-12..=MIN_DISTANCE + 1e-12).contains(&c),
            "{what}: {c} clear of the {what}, not in its skin ({end:?})"
        );
    }
}

#[test]
fn head_on_ends_too_short_at_an_axis_wall_and_reversed_at_a_slanted_one() {
    let data = scene_data("bsp-head-on");
    let (tree, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    let short = steps
        .iter()
        .find(|s| s.reason == SlideEnd::TooShort)
        .expect("too short");
    let end = short.end.expect("finite");
    assert!(
        (end.x - (-3.0 + 0.3 + MIN_DISTANCE)).abs() < 1e-9,
        "on the skin of the wall x = -3: {end:?}"
    );
    let reversed = steps
        .iter()
        .find(|s| s.reason == SlideEnd::Reversed)
        .expect("reversed");
    let end = reversed.end.expect("finite");
    let its = iterations(&reversed.events);
    let hit = its.last().and_then(|it| it.2).expect("a hit");
    assert_eq!(hit.0, 2, "the slanted wall");
    assert!((clearance(&tree, &data.shape, hit, &end) - MIN_DISTANCE).abs() < 1e-9);
    // Why: the move is head-on, its projection is zero up to rounding, and it rounds back.
    let n = plane(&tree, hit).normal;
    let dir = reversed.moved - n * reversed.moved.dot(&n);
    assert!(
        dir.norm() < 1e-15 && reversed.moved.dot(&dir) < 0.0,
        "{dir:?}"
    );
}

#[test]
fn max_impact_runs_out_after_five_real_moves_and_keeps_the_last_stop() {
    let data = scene_data("bsp-max-impact");
    let (tree, steps) = walk(&data, BspSweepMode::Engine, 1);
    let s = &steps[0];
    assert_eq!(s.reason, SlideEnd::MaxIterations);
    let its = iterations(&s.events);
    assert_eq!(its.len(), 5);
    let mut brushes = Vec::new();
    for (start, rem, hit, fi, _, branch) in &its {
        let hit = hit.expect("every search hits");
        assert!(matches!(branch, SlideBranch::Wall(_)));
        assert!(
            (rem * *fi).norm() > collidoscope::bsp::MIN_MOVE,
            "a real move"
        );
        assert!(
            (clearance(&tree, &data.shape, hit, &(start + rem * *fi)) - MIN_DISTANCE).abs() < 1e-9
        );
        brushes.push(hit.0);
    }
    brushes.dedup();
    assert_eq!(brushes.len(), 5, "five different sides: {brushes:?}");
    let last = its.last().expect("five");
    let end = s.end.expect("finite");
    assert!((end - (last.0 + last.1 * last.3)).norm() < 1e-12);
    assert!((end - s.from).norm() > 1.0, "the progress is kept");
}

#[test]
fn start_solid_is_reported_and_the_walker_stays() {
    let data = scene_data("bsp-start-solid");
    let (_, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    for s in &steps {
        assert_eq!(s.reason, SlideEnd::StartSolid);
        assert_eq!(s.end, Some(data.start));
    }
}

// ---------- the corridor's absent false impact ----------

/// The corridor's brushes as boxes (all of them are).
fn corridor_boxes(data: &BspScene) -> Vec<(Point3, Point3)> {
    data.brushes
        .iter()
        .map(|planes| {
            let get = |n: Vec3| {
                planes
                    .iter()
                    .find(|p| (p.normal - n).norm() < 1e-12)
                    .map(|p| p.d)
                    .expect("a box")
            };
            (
                Point3::new(-get(-Vec3::x()), -get(-Vec3::y()), -get(-Vec3::z())),
                Point3::new(get(Vec3::x()), get(Vec3::y()), get(Vec3::z())),
            )
        })
        .collect()
}

#[test]
fn corridor_grazes_a_convex_corner_the_article_would_hit() {
    let data = scene_data("bsp-corridor");
    let (tree, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    let chains = ArticleTree::chains(&tree, &data.brushes);
    let boxes = corridor_boxes(&data);
    let r = match data.shape {
        Shape::Sphere { radius } => radius,
        _ => panic!("the corridor's walker is a sphere"),
    };
    let mut grazes = 0;
    for s in &steps {
        for (start, rem, hit, ..) in iterations(&s.events) {
            let target = start + rem;
            let art = article::article_sweep(&chains, &data.shape, &start, &target, &mut NoProbe);
            if hit.is_some() || !art.is_impact() {
                continue;
            }
            // The article reports an impact where the engine moved freely: check densely that
            // the sphere overlaps no box along the move.
            for k in 0..=1000 {
                let p = start + rem * (k as f64 / 1000.0);
                for (lo, hi) in &boxes {
                    assert!(box_distance(&p, lo, hi) >= r - 1e-9, "overlap at {p:?}");
                }
            }
            assert!(
                sweep(&tree, &data.shape, &start, &target, &mut NoProbe)
                    .hit
                    .is_none()
            );
            grazes += 1;
        }
    }
    assert!(
        grazes > 0,
        "no move of the corridor passes a corner the article would hit"
    );
    eprintln!("corridor: {grazes} free moves the article's search takes for impacts");
}

// ---------- bevel planes ----------

/// The first stop of the bevel scene's box, head-on at the diamond's corner.
fn first_stop(bevels: bool) -> Point3 {
    let data = BspScene {
        bevels,
        ..scene_data("bsp-bevel-corner")
    };
    let (_, steps) = walk(&data, BspSweepMode::Engine, data.moves.len());
    steps
        .iter()
        .find_map(|s| {
            iterations(&s.events)
                .into_iter()
                .find(|it| it.2.is_some())
                .map(|(start, rem, _, fi, ..)| start + rem * fi)
        })
        .expect("the box reaches the pillar")
}

#[test]
fn bevels_remove_the_overestimate_at_a_convex_corner() {
    // Exact contact (Minkowski sum of the diamond |x| + |z| <= 1 and the box of half 0.3,
    // whose z range holds 0): the box's west face on the corner, x = 1 + 0.3.
    let exact = 1.3;
    let with = first_stop(true);
    let without = first_stop(false);
    eprintln!(
        "bevel corner: stop x with bevels {:.4}, without {:.4}, exact contact {exact}",
        with.x, without.x
    );
    assert!((with.x - exact - MIN_DISTANCE).abs() < 1e-9, "{with:?}");
    // Without: the faces x + z <= 1 and x - z <= 1 pushed out by 0.3 (|nx| + |nz|) / sqrt 2
    // meet at x + |z| = 1.6: at z = 0.05 the box stops 0.25 short, in open space.
    let over = without.x - with.x;
    assert!((over - 0.25).abs() < 0.02, "over-estimate {over}");
}

// ---------- the article's defects, each in its scene ----------

fn first_iteration(steps: &[Step]) -> It {
    iterations(&steps[0].events)[0]
}

#[test]
fn defect_scene_early_hit_on_a_plane_extension() {
    let data = scene_data("bsp-article-extension");
    let (tree, art) = walk(&data, BspSweepMode::Article, 1);
    let (_, eng) = walk(&data, BspSweepMode::Engine, 1);
    let (start, rem, hit, _, fr, _) = first_iteration(&art);
    // The article: the west face (x = 0, plane 1) at t = 0.5, at z = -1.7: 1.5 off the block.
    assert_eq!(hit, Some((1, 1)));
    assert!((fr - 0.5).abs() < 1e-12);
    assert!(((start + rem * fr).z + 1.7).abs() < 1e-9);
    // The engine: the south face (z = 0, plane 5) at t = 0.8, over the block (x = 0.4).
    let (start, rem, hit, _, fr, _) = first_iteration(&eng);
    assert_eq!(hit, Some((1, 5)));
    assert!((fr - 0.8).abs() < 1e-12);
    let touch = start + rem * fr;
    assert!((touch.x - 0.4).abs() < 1e-9);
    assert!(
        box_distance(
            &touch,
            &Point3::new(0.0, 0.0, 0.0),
            &Point3::new(2.0, 1.5, 2.0)
        ) - 0.2
            < 1e-9
    );
    let _ = tree;
    // Where they end differs: the article slid along a wall that is not there.
    let (a, e) = (art[0].end.expect("finite"), eng[0].end.expect("finite"));
    assert!((a - e).norm() > 1.0, "article {a:?}, engine {e:?}");
}

#[test]
fn defect_scene_phantom_hit_past_a_convex_corner() {
    let data = scene_data("bsp-article-phantom");
    let (_, art) = walk(&data, BspSweepMode::Article, 1);
    let (_, eng) = walk(&data, BspSweepMode::Engine, 1);
    let (_, _, hit, _, fr, _) = first_iteration(&art);
    // The north face (z = 2, plane 4) pushed out to 2.2 is entered at t = 2.2 / 3.4.
    assert_eq!(hit, Some((1, 4)));
    assert!((fr - 2.2 / 3.4).abs() < 1e-12, "{fr}");
    assert_eq!(eng[0].reason, SlideEnd::NoImpact);
    assert!(iterations(&eng[0].events)[0].2.is_none());
    assert_eq!(eng[0].end, Some(data.start + data.moves[0]));
    assert_ne!(art[0].end, eng[0].end);
}

#[test]
fn defect_scene_start_inside_solid_is_ignored() {
    let data = scene_data("bsp-start-solid");
    let (tree, art) = walk(&data, BspSweepMode::Article, 6);
    let (_, eng) = walk(&data, BspSweepMode::Engine, 6);
    assert_eq!(art[0].reason, SlideEnd::NoImpact);
    assert_eq!(art[0].end, Some(data.start + data.moves[0]));
    // The article's leaf of the block was reached with nothing stored.
    assert!(art[0].events.iter().any(|e| matches!(
        e,
        BspEvent::ArticleLeaf {
            brush: 1,
            plane: None,
            ..
        }
    )));
    // Six frames on, the article's walker has walked through the block and out of it.
    let out = art[5].end.expect("finite");
    assert!(out.x > 1.5 + 0.3, "{out:?}");
    let _ = tree;
    assert!(
        eng.iter()
            .all(|s| s.reason == SlideEnd::StartSolid && s.end == Some(data.start))
    );
}

#[test]
fn defect_scene_negative_fraction_moves_back() {
    let data = scene_data("bsp-article-skin");
    let (_, art) = walk(&data, BspSweepMode::Article, 1);
    let (_, eng) = walk(&data, BspSweepMode::Engine, 1);
    let (start, rem, _, fi, _, _) = first_iteration(&art);
    // (0.005 - 0.01) / 0.01: half a move back, against the velocity.
    assert!((fi + 0.5).abs() < 1e-9, "{fi}");
    assert!((start + rem * fi - start).dot(&rem) < 0.0);
    assert!(((start + rem * fi).x - (start.x - 0.5)).abs() < 1e-9);
    let (_, _, hit, fi, _, _) = first_iteration(&eng);
    assert!(hit.is_some());
    assert_eq!(fi, 0.0, "the engine makes no move back");
}

#[test]
fn defect_scene_max_impact_loses_the_move() {
    let data = scene_data("bsp-max-impact");
    let (_, art) = walk(&data, BspSweepMode::Article, 1);
    let (_, eng) = walk(&data, BspSweepMode::Engine, 1);
    assert_eq!(art[0].reason, SlideEnd::MaxIterations);
    assert_eq!(iterations(&art[0].events).len(), 5);
    assert_eq!(
        art[0].end,
        Some(data.start),
        "the article does not write the position"
    );
    assert_eq!(eng[0].reason, SlideEnd::MaxIterations);
    assert!((eng[0].end.expect("finite") - data.start).norm() > 1.0);
}

#[test]
fn defect_scene_nan_crease() {
    let data = scene_data("bsp-article-nan");
    let (_, art) = walk(&data, BspSweepMode::Article, 1);
    let (tree, eng) = walk(&data, BspSweepMode::Engine, 1);
    assert_eq!(art[0].reason, SlideEnd::NotFinite);
    assert_eq!(art[0].end, None);
    // It came from holding the same wall twice.
    let its = iterations(&art[0].events);
    let walls: Vec<_> = its.iter().filter_map(|it| it.2).collect();
    assert!(
        walls.len() >= 2 && walls.windows(2).any(|w| w[0] == w[1]),
        "{walls:?}"
    );
    assert_eq!(its.last().map(|it| it.5), Some(SlideBranch::Crease));
    // The engine: the normal made unit, a slide along the wall, forward, out of solid.
    let end = eng[0].end.expect("finite");
    assert!(end.iter().all(|c| c.is_finite()));
    assert!((end - data.start).dot(&data.moves[0]) > 0.5);
    let hit = iterations(&eng[0].events)[0].2.expect("it hits the wall");
    assert_eq!(hit.0, 1);
    assert!((plane(&tree, hit).normal.norm() - 1.0).abs() < 1e-12);
    assert!(clearance(&tree, &data.shape, hit, &end) >= MIN_DISTANCE - 1e-9);
}

/// The compare setting records the other slide after a `Compare` event, from the same start.
#[test]
fn compared_scenes_record_both_slides() {
    let scene = collidoscope::world::builtin_scene("bsp-article-phantom").expect("scene");
    let mut world = collidoscope::world::World::new(scene).expect("world");
    let mut rec = collidoscope::trace::TraceRecorder::default();
    world.step(&mut rec);
    let kinds: Vec<&BspEvent> = rec
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Bsp(b) => Some(b),
            _ => None,
        })
        .collect();
    let at = kinds
        .iter()
        .position(|e| {
            matches!(
                e,
                BspEvent::Compare {
                    mode: BspSweepMode::Article
                }
            )
        })
        .expect("a Compare event");
    assert!(matches!(kinds[at - 1], BspEvent::End { .. }));
    assert!(
        kinds[at + 1..]
            .iter()
            .any(|e| matches!(e, BspEvent::ArticleLeaf { .. }))
    );
    assert!(matches!(kinds.last(), Some(BspEvent::End { .. })));
}

// ---------- the article's BSP by face insertion ----------

#[test]
fn face_insertion_tree_classifies_the_cross_section_like_the_brushes() {
    let data = scene_data("bsp-faces");
    let tree = data.tree().expect("valid level");
    let y = data.start.y;
    let ft = collidoscope::bsp::face_tree::FaceTree::build(&tree, y);
    assert_eq!(ft.faces.len(), 10, "faces A-J");
    assert_eq!(collidoscope::bsp::face_tree::label(9), "J");
    let (solid, empty) = ft.leaves();
    assert!(solid >= 3 && empty >= 1, "{solid} solid, {empty} empty");
    // Oracle: a point of the cut is inside matter when it is behind every face plane of
    // some brush (from the planes, not from the tree).
    let mut checked = 0;
    for i in 0..200 {
        for j in 0..200 {
            let (x, z) = (
                -5.0 + 10.0 * (i as f64 + 0.37) / 200.0,
                -5.0 + 10.0 * (j as f64 + 0.61) / 200.0,
            );
            let p = Point3::new(x, y, z);
            let depth = tree
                .brushes
                .iter()
                .map(|b| {
                    b.faces()
                        .iter()
                        .map(|pl| pl.signed_distance(&p))
                        .fold(f64::MIN, f64::max)
                })
                .fold(f64::MAX, f64::min);
            if depth.abs() < 1e-6 {
                continue;
            }
            let solid = ft.classify([x, z]) == collidoscope::bsp::face_tree::Slot::Solid;
            assert_eq!(solid, depth < 0.0, "({x}, {z}): depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 39_000);
}
