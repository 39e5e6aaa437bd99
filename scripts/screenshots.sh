#!/usr/bin/env bash
# Renders the README's screenshots of the viewer under Xvfb into screenshots/.
#
# The app screenshots itself (COLLIDOSCOPE_SCREENSHOT, see src/app/screenshot.rs) and exits,
# so each shot is one run of the release binary. Needs xvfb-run (scripts/setup.sh --headless
# installs it); installs nothing itself.
#
# Usage: scripts/screenshots.sh [--setup] [NAME...]   (no NAME: every shot)
#        COLLIDOSCOPE_SCREENSHOT_BIN=target/debug/collidoscope scripts/screenshots.sh NAME
#        (a binary already built: the dev profile is optimised too, and a release build of
#        every dependency takes most of an hour on two busy cores)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--setup" ]; then
  shift
  scripts/setup.sh --headless
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "screenshots: xvfb-run is missing; run scripts/setup.sh --headless (or pass --setup)" >&2
  exit 1
fi

if [ -n "${COLLIDOSCOPE_SCREENSHOT_BIN:-}" ]; then
  bin=$COLLIDOSCOPE_SCREENSHOT_BIN
else
  cargo build --release --bin collidoscope
  bin=${CARGO_TARGET_DIR:-target}/release/collidoscope
fi
out=screenshots
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 -p "$XDG_RUNTIME_DIR"

# Runs one shot: NAME, then VAR=value pairs for the screenshot mode.
shot() {
  local name=$1
  shift
  echo "screenshots: $name"
  env COLLIDOSCOPE_SCREENSHOT="$out/$name.png" COLLIDOSCOPE_SCREENSHOT_SIZE=1600x1000 "$@" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" >/dev/null
}

want() {
  [ ${#selected[@]} -eq 0 ] && return 0
  local s
  for s in "${selected[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}
selected=("$@")

if want main; then
  # The default scene mid-drop: contacts and normals, a selected body in the inspector,
  # markers on the timeline, the plots.
  shot main COLLIDOSCOPE_SCREENSHOT_FRAME=70 COLLIDOSCOPE_SCREENSHOT_SELECT=box-5 \
    COLLIDOSCOPE_SCREENSHOT_CAMERA=0.2,0.05,0.85
fi
if want event-step; then
  # Stepping inside a frame: the current narrow-phase test, its bodies in focus, the event's
  # fields in the inspector.
  shot event-step COLLIDOSCOPE_SCREENSHOT_FRAME=62 COLLIDOSCOPE_SCREENSHOT_EVENT=moving-contact \
    COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,0.1,0.75
fi
if want wireframe-light; then
  shot wireframe-light COLLIDOSCOPE_SCREENSHOT_SCENE=box-stack COLLIDOSCOPE_SCREENSHOT_FRAME=120 \
    COLLIDOSCOPE_SCREENSHOT_THEME=light COLLIDOSCOPE_SCREENSHOT_SHADING=wire \
    COLLIDOSCOPE_SCREENSHOT_SELECT=box-7 COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,-0.15,0.7
fi
if want recording; then
  # A recording replayed: read in the background, markers and plots for the whole run.
  mkdir -p target/screenshots
  "$bin" record --scene tunnelling --frames 240 --output target/screenshots/tunnelling.cdrec >/dev/null
  shot recording COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/tunnelling.cdrec COLLIDOSCOPE_SCREENSHOT_FRAME=5 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=bullet COLLIDOSCOPE_SCREENSHOT_TRACE=frame COLLIDOSCOPE_SCREENSHOT_CAMERA=-0.55,-0.05,1.7
fi
for mode in off toi; do
  if want "tunnelling-$mode"; then
    # The same bullet and thin wall run with continuous collision Off (it passes the wall between
    # two frames: the tunnelled marker) and Toi (the advancement stops it at the wall).
    mkdir -p target/screenshots
    "$bin" record --scene tunnelling --frames 60 --ccd "$mode" \
      --output "target/screenshots/tunnelling-$mode.cdrec" >/dev/null
    shot "tunnelling-$mode" COLLIDOSCOPE_SCREENSHOT_SCENE="target/screenshots/tunnelling-$mode.cdrec" \
      COLLIDOSCOPE_SCREENSHOT_FRAME=7 COLLIDOSCOPE_SCREENSHOT_PANEL=ccd COLLIDOSCOPE_SCREENSHOT_SELECT=bullet \
      COLLIDOSCOPE_SCREENSHOT_TRACE=frame COLLIDOSCOPE_SCREENSHOT_CAMERA=-0.55,-0.05,1.7
  fi
done
if want captured-rapier; then
  # A Rapier world captured through the adapter (examples/rapier_capture.rs): the fast CCD ball
  # meets the box wall at step 16, with the contacts, their normals and the impulses drawn, and
  # the capture panel's table of contacts in the engine's ids.
  mkdir -p target/screenshots
  cargo run --release --features rapier --example rapier_capture -- \
    --out target/screenshots/rapier-capture.cdrec >/dev/null
  shot captured-rapier COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/rapier-capture.cdrec \
    COLLIDOSCOPE_SCREENSHOT_FRAME=16 COLLIDOSCOPE_SCREENSHOT_PANEL=capture
fi
if want captured-run; then
  # A run captured from another engine through the capture API (the example plays one with
  # Collidoscope's own engine): the step where the fast ball meets the box stack, with its
  # contacts, normals, impulse arrows (the largest named), pairs and the ball's CCD ring; the
  # panel with the engine's ids, the stages not captured.
  mkdir -p target/screenshots
  cargo run --release --example capture_box_stack -- target/screenshots/box-stack-captured.cdrec >/dev/null
  shot captured-run COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/box-stack-captured.cdrec \
    COLLIDOSCOPE_SCREENSHOT_PANEL=capture COLLIDOSCOPE_SCREENSHOT_CAPTURE=impulse
fi
if want audit-finding; then
  # A captured run with faults planted at known steps (the audit's oracle stream), audited in
  # the viewer: the finding where the engine reported a depth of 0.01 m for an overlap of
  # 0.1 m, our contact beside the engine's with both depth bars, the findings' markers on the
  # timeline and their list in the panel.
  shot audit-finding COLLIDOSCOPE_SCREENSHOT_SCENE=tests/fixtures/capture/planted-faults.jsonl \
    COLLIDOSCOPE_SCREENSHOT_PANEL=capture COLLIDOSCOPE_SCREENSHOT_CAPTURE=audit
fi
if want compare-restitution; then
  # Two runs of the capsule pile, the second with "ball 1" bouncier (its own material,
  # restitution 0.95 for 0.4), compared at the first frame where they part: the red marker on
  # the timeline, run B as a violet ghost, the bodies that differ outlined and labelled, and
  # the diff panel with the first difference's values in A and B.
  mkdir -p target/screenshots
  pile=assets/scenes/capsule-pile.ron
  bouncy=target/screenshots/capsule-pile-bouncy.ron
  sed -e 's|^\(        (name: "plastic".*\)$|\1\n        (name: "bouncy", density: 1.2, restitution: 0.95, friction: 0.5),|' \
    -e 's|^\(        (name: "ball 1", .*\)material: Some("plastic")|\1material: Some("bouncy")|' "$pile" >"$bouncy"
  grep -q 'Some("bouncy")' "$bouncy" || { echo "screenshots: the bouncy variant did not take" >&2; exit 1; }
  "$bin" record --scene "$pile" --frames 120 --reproducible --output target/screenshots/pile-a.cdrec >/dev/null
  "$bin" record --scene "$bouncy" --frames 120 --reproducible --output target/screenshots/pile-b.cdrec >/dev/null
  shot compare-restitution COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/pile-a.cdrec \
    COLLIDOSCOPE_SCREENSHOT_COMPARE=target/screenshots/pile-b.cdrec COLLIDOSCOPE_SCREENSHOT_DIFF_ROW=0
fi
if want fork; then
  shot fork COLLIDOSCOPE_SCREENSHOT_STEPS=150 COLLIDOSCOPE_SCREENSHOT_FRAME=90 COLLIDOSCOPE_SCREENSHOT_FORK=1
fi
# The scenes with meshes are recorded first and replayed: the hierarchy views then come from the
# engine rebuilding the recording's embedded scene, as they do for any recording.
if want hierarchy || want traversal-step; then
  mkdir -p target/screenshots
  "$bin" record --scene interlocked-tori --frames 40 --output target/screenshots/interlocked-tori.cdrec >/dev/null
fi
if want hierarchy; then
  # The hanging torus's bounding-volume hierarchy, levels 5 to 7 coloured by depth, with the
  # node table, the tree metrics and a node in the node inspector.
  shot hierarchy COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/interlocked-tori.cdrec COLLIDOSCOPE_SCREENSHOT_FRAME=10 \
    COLLIDOSCOPE_SCREENSHOT_SELECT="hanging torus" COLLIDOSCOPE_SCREENSHOT_PANEL=hierarchy \
    COLLIDOSCOPE_SCREENSHOT_COLOR=depth COLLIDOSCOPE_SCREENSHOT_DEPTH=5,7 COLLIDOSCOPE_SCREENSHOT_NODE=3 \
    COLLIDOSCOPE_SCREENSHOT_FOCUS=selected \
    COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want traversal-step; then
  # One step of the tree-versus-tree traversal: the triangle pair that intersects and its
  # segment, described in the inspector and the hierarchy panel.
  shot traversal-step COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/interlocked-tori.cdrec COLLIDOSCOPE_SCREENSHOT_FRAME=10 \
    COLLIDOSCOPE_SCREENSHOT_SELECT="hanging torus" COLLIDOSCOPE_SCREENSHOT_PANEL=hierarchy \
    COLLIDOSCOPE_SCREENSHOT_COLOR=tested COLLIDOSCOPE_SCREENSHOT_DEPTH=7,9 \
    COLLIDOSCOPE_SCREENSHOT_TRAVERSAL=triangle
fi
if want broad-phase; then
  # Sweep and prune's view of the convex pile: x, y, z intervals and the overlapping pairs.
  mkdir -p target/screenshots
  "$bin" record --scene convex-pile --frames 60 --output target/screenshots/convex-pile.cdrec >/dev/null
  shot broad-phase COLLIDOSCOPE_SCREENSHOT_SCENE=target/screenshots/convex-pile.cdrec COLLIDOSCOPE_SCREENSHOT_FRAME=60 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=broad-phase
fi
if want voronoi-regions; then
  # The closest-features view of the cube walk: the two closest features (dot, bar or filled
  # face, coloured by kind), the segment between the closest points with its length, and the
  # Voronoi region of the fixed cube's closest feature as a translucent volume.
  shot voronoi-regions COLLIDOSCOPE_SCREENSHOT_SCENE=convex-cube-walk COLLIDOSCOPE_SCREENSHOT_FRAME=1 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=convex COLLIDOSCOPE_SCREENSHOT_REGION=closest \
    COLLIDOSCOPE_SCREENSHOT_TRACE=off COLLIDOSCOPE_SCREENSHOT_CAMERA=0.5,0.1,0.55
fi
if want walk-step; then
  # One move of the V-Clip walk (the longest walk of the first frames, its middle move): the
  # pair it moved to, the pair it left faint, the reason, the state chart, the distance per move
  # and the two containment checks.
  shot walk-step COLLIDOSCOPE_SCREENSHOT_SCENE=convex-cube-walk COLLIDOSCOPE_SCREENSHOT_FRAME=1 \
    COLLIDOSCOPE_SCREENSHOT_STEPS=240 COLLIDOSCOPE_SCREENSHOT_PANEL=convex COLLIDOSCOPE_SCREENSHOT_WALK=longest \
    COLLIDOSCOPE_SCREENSHOT_REGION=pair COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,0.1,0.55
fi
if want gjk-simplex; then
  # GJK beside the walk: the first iteration whose simplex is a triangle or more, drawn in A − B
  # with the origin, the search direction, the support point added and |v|; its support points
  # on both bodies in the 3D view; V-Clip's and GJK's answers on one line.
  shot gjk-simplex COLLIDOSCOPE_SCREENSHOT_SCENE=convex-cube-walk COLLIDOSCOPE_SCREENSHOT_FRAME=1 \
    COLLIDOSCOPE_SCREENSHOT_STEPS=240 COLLIDOSCOPE_SCREENSHOT_PANEL=convex COLLIDOSCOPE_SCREENSHOT_GJK=simplex \
    COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,0.1,0.55
fi
if want gjk-epa; then
  # A penetrating pair: the overlap volume, the edge through the face that proves it, EPA's
  # last expansion in A − B and its depth and normal.
  shot gjk-epa COLLIDOSCOPE_SCREENSHOT_SCENE=convex-penetration COLLIDOSCOPE_SCREENSHOT_FRAME=1 \
    COLLIDOSCOPE_SCREENSHOT_STEPS=240 COLLIDOSCOPE_SCREENSHOT_PANEL=convex COLLIDOSCOPE_SCREENSHOT_GJK=epa \
    COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,0.1,0.55
fi
if want bsp-slide; then
  # The BSP view on the corridor: the walker's slide with the most walls hit, each iteration in
  # its colour (move made, contact point, hit plane with its normal, remaining move), the table
  # beside it, the step text, the skin close-up of the first wall stop and the tree with its
  # statistics.
  shot bsp-slide COLLIDOSCOPE_SCREENSHOT_SCENE=bsp-corridor COLLIDOSCOPE_SCREENSHOT_STEPS=80 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=bsp COLLIDOSCOPE_SCREENSHOT_BSP=slide
fi
if want bsp-article-extension; then
  # A defect beside its correction: the article's slide (red) stops on the extension of the
  # block's west face in open space and slides along it; the engine's (in its colours) enters
  # by the south face and slides along it.
  shot bsp-article-extension COLLIDOSCOPE_SCREENSHOT_SCENE=bsp-article-extension \
    COLLIDOSCOPE_SCREENSHOT_STEPS=2 COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=bsp \
    COLLIDOSCOPE_SCREENSHOT_BSP=slide COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,1.2,0.17
fi
if want bsp-article-max-impact; then
  # MAX_IMPACT: the engine's five impacts along the round room, kept; the article's the same
  # five, then the position not written: back at the start.
  shot bsp-article-max-impact COLLIDOSCOPE_SCREENSHOT_SCENE=bsp-max-impact \
    COLLIDOSCOPE_SCREENSHOT_STEPS=2 COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=bsp \
    COLLIDOSCOPE_SCREENSHOT_BSP=slide COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,1.4,0.2
fi
if want bsp-faces; then
  # The article's BSP by face insertion: three pillars cut at the walker's height, faces A-J
  # labelled, the tree in the panel.
  shot bsp-faces COLLIDOSCOPE_SCREENSHOT_SCENE=bsp-faces COLLIDOSCOPE_SCREENSHOT_PANEL=bsp \
    COLLIDOSCOPE_SCREENSHOT_BSP=faces COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,1.4,0.6
fi
if want bsp-room-stairs; then
  # A newcomer's first look: the scene as it opens, nothing else done. The level and the
  # walker fill the view, the BSP panel opened by itself, the header counts them.
  shot bsp-room-stairs COLLIDOSCOPE_SCREENSHOT_SCENE=bsp-room-stairs
fi
for mode in rays inversions; do
  if want "cloth-$mode"; then
    # The sheet on the sphere: draped (the frame with the most collision rays), rays coloured by
    # kind (collision red, prediction green, rejected grey) with the step scrubber on a collision
    # ray; then at its landing (frame 16, its first inversions) the inverted vertices ringed with
    # the triangles they crossed, one picked and explained, the sheet coloured by depth.
    shot "cloth-$mode" COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-sheet-on-sphere COLLIDOSCOPE_SCREENSHOT_STEPS=40 \
      COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=cloth COLLIDOSCOPE_SCREENSHOT_CLOTH="$mode" \
      COLLIDOSCOPE_SCREENSHOT_TRACE=off
  fi
done
if want rays-drop; then
  # The ray-traced narrow phase (narrow: Rays), frame 100: a sphere mesh selected, in
  # wireframe, with its rays: green predictions fanning down to the floor, red collisions
  # from the vertices that sank in, grey rejected rays.
  shot rays-drop COLLIDOSCOPE_SCREENSHOT_SCENE=rays-drop COLLIDOSCOPE_SCREENSHOT_STEPS=100 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=ball-2 COLLIDOSCOPE_SCREENSHOT_FOCUS=selected \
    COLLIDOSCOPE_SCREENSHOT_SHADING=wire COLLIDOSCOPE_SCREENSHOT_CAMERA=0.2,0.15,2.2
fi
if want cloth-stage-times; then
  # The sheet draping (frame 30): the stage-time plot and the inspector give the cloth's own
  # stages (integrate, springs, ray casts, response, other) beside the rigid pipeline's.
  shot cloth-stage-times COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-sheet-on-sphere COLLIDOSCOPE_SCREENSHOT_STEPS=40 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=30 COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want cloth-switches; then
  # Fig. 3.25, the frame the upper sheet crosses the lower one: the inverted vertex ringed,
  # the ray classes (lost and culled among them) and the Switches that re-simulate without
  # each fix.
  shot cloth-switches COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-two-sheets-on-ball COLLIDOSCOPE_SCREENSHOT_STEPS=40 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=31 COLLIDOSCOPE_SCREENSHOT_PANEL=cloth COLLIDOSCOPE_SCREENSHOT_CLOTH=inversions
fi
if want cloth-stacked-sheets; then
  # Three sheets dropped on a box, landed and piled (frame 180): each sheet in its own tint, so
  # a reader sees them lie one on the other, none through another.
  shot cloth-stacked-sheets COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-stacked-sheets COLLIDOSCOPE_SCREENSHOT_FRAME=180 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=box COLLIDOSCOPE_SCREENSHOT_FOCUS=selected COLLIDOSCOPE_SCREENSHOT_CAMERA=0.3,0.1,1.5 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=cloth COLLIDOSCOPE_SCREENSHOT_CLOTH=sheets COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want cloth-skirt-on-ball; then
  # A skirt read from an OBJ mesh, draped on the ball (frame 150): its waist caught on the
  # ball, the hem folded around it; the panel's header names the mesh piece and its size.
  shot cloth-skirt-on-ball COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-skirt-on-ball COLLIDOSCOPE_SCREENSHOT_FRAME=150 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=ball COLLIDOSCOPE_SCREENSHOT_FOCUS=selected COLLIDOSCOPE_SCREENSHOT_CAMERA=0.3,0.25,1.6 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=cloth COLLIDOSCOPE_SCREENSHOT_CLOTH=sheets COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want cloth-corner-poke; then
  # A cube's corner pushed up into a sheet of 23 cm cells (frame 120): the sheet peaks over the
  # corner, held there by the cube's own rays (volume → cloth), the cube seen through it.
  shot cloth-corner-poke COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-corner-poke COLLIDOSCOPE_SCREENSHOT_FRAME=120 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=cube COLLIDOSCOPE_SCREENSHOT_FOCUS=selected COLLIDOSCOPE_SCREENSHOT_CAMERA=0.7,-0.05,2.4 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=cloth
fi
if want cloth-gate; then
  # The three sheets landing on the box (frame 45): each cluster coloured by how full its
  # gate is, slate where it was cast completely this step, white where the next step will be.
  shot cloth-gate COLLIDOSCOPE_SCREENSHOT_SCENE=cloth-stacked-sheets COLLIDOSCOPE_SCREENSHOT_FRAME=45 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=box COLLIDOSCOPE_SCREENSHOT_FOCUS=selected COLLIDOSCOPE_SCREENSHOT_CAMERA=0.3,0.1,1.5 \
    COLLIDOSCOPE_SCREENSHOT_PANEL=cloth COLLIDOSCOPE_SCREENSHOT_CLOTH=gate COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want nurbs-obb-tree; then
  # The NURBS view on the spheres falling on the plane, the first frame with a hit: the query
  # with the most box tests, its two surfaces tinted A and B with their control nets, the boxes
  # of one subdivision level (filled: overlapped at least once; grey: separated), the hit's
  # sub-patches lit, and the recursion tree in the panel.
  shot nurbs-obb-tree COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-spheres-on-plane COLLIDOSCOPE_SCREENSHOT_STEPS=120 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs COLLIDOSCOPE_SCREENSHOT_NURBS=tree \
    COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want nurbs-annex-sheet; then
  # Annex I's demo at 1.5 s: the sheet hung by four springs (orange zig-zags, one per corner),
  # the torus resting on it, and the label of the frame's contact-time search.
  shot nurbs-annex-sheet COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-torus-vase-sheet COLLIDOSCOPE_SCREENSHOT_FRAME=90
fi
if want nurbs-annex-springs; then
  # Table I.8: the four two-cube mass-spring systems, rows stacked along z.
  shot nurbs-annex-springs COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-annex-springs COLLIDOSCOPE_SCREENSHOT_FRAME=40
fi
if want nurbs-bench; then
  # The Benchmarks section: the thesis' three timing curves from bench-results/nurbs*.csv, the
  # query cold, on cached subdivision trees, on fresh trees, and the polygonal reference.
  shot nurbs-bench COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-spheres-on-plane COLLIDOSCOPE_SCREENSHOT_STEPS=120 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs COLLIDOSCOPE_SCREENSHOT_NURBS=bench \
    COLLIDOSCOPE_SCREENSHOT_TRACE=off
fi
if want nurbs-thesis-experiments; then
  # The Thesis experiments section: Figs 3.2-3.5 and 3.7-3.8 from bench-results/nurbs-thesis.csv
  # and nurbs-precision.csv (benches/nurbs_thesis.rs), each under the thesis' claim.
  shot nurbs-thesis-experiments COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-spheres-on-plane COLLIDOSCOPE_SCREENSHOT_STEPS=120 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs COLLIDOSCOPE_SCREENSHOT_NURBS=thesis
fi
if want nurbs-parameter-space; then
  # The same query, the step scrubber on the box test accepted as its hit: both surfaces' (u, v)
  # squares with every sub-patch tested (grey: separated, tinted: overlapped, yellow: hit), the
  # step's rectangles outlined, the separating-axis inspector, the step in words.
  shot nurbs-parameter-space COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-spheres-on-plane COLLIDOSCOPE_SCREENSHOT_STEPS=120 \
    COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs COLLIDOSCOPE_SCREENSHOT_NURBS=uv \
    COLLIDOSCOPE_SCREENSHOT_TRACE=current
fi
if want nurbs-intersection-curve; then
  # Curve mode (the thesis' flat-patch stop): a sheet cuts a bicubic dome; the leaf pieces'
  # corner triangles are intersected and their segments (green) trace the closed intersection
  # loop in 3D and on both surfaces' (u, v) squares; the step on the query's first hit.
  shot nurbs-intersection-curve COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-intersection-curve \
    COLLIDOSCOPE_SCREENSHOT_STEPS=30 COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs \
    COLLIDOSCOPE_SCREENSHOT_NURBS=uv COLLIDOSCOPE_SCREENSHOT_TRACE=current
fi
if want nurbs-intersection-curve-3d; then
  # The same query with no step and no level boxes: the view frames the whole intersection
  # loop (green bars) where the sheet cuts the dome, beside the (u, v) squares.
  shot nurbs-intersection-curve-3d COLLIDOSCOPE_SCREENSHOT_SCENE=nurbs-intersection-curve \
    COLLIDOSCOPE_SCREENSHOT_STEPS=30 COLLIDOSCOPE_SCREENSHOT_FRAME=1 COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs \
    COLLIDOSCOPE_SCREENSHOT_NURBS=curve
fi
if want arka-corner-bounce; then
  # Arka3D scenario 3: the walls, the four balls, and the first corner bounce from frame 60
  # stepped to: its facet, the band of the grown square that decided it, named at the
  # crossing, with the tested segment and the normal; the region key and the counters.
  shot arka-corner-bounce COLLIDOSCOPE_SCREENSHOT_SCENE=arka-3-hard COLLIDOSCOPE_SCREENSHOT_FRAME=60 \
    COLLIDOSCOPE_SCREENSHOT_STEPS=900 COLLIDOSCOPE_SCREENSHOT_PANEL=arka COLLIDOSCOPE_SCREENSHOT_ARKA=corner \
    COLLIDOSCOPE_SCREENSHOT_TRACE=current
fi
