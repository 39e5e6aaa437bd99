//! The convex family in a world: scripted bodies move, and every frame each pair's closest
//! features are walked again from last frame's answer.

use super::gjk::{GjkTrace, GjkWarmStart, gjk_query};
use super::scene::{ConvexFrame, ConvexScene, ScriptedMotion, WalkRecord};
use super::support::Posed;
use super::{ConvexEvent, Outcome, Placed, Polyhedron, vclip};
use crate::dynamics::RigidBody;
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilySim, StepContext};
use crate::frame::{Frame, Marker, MarkerKind};
use crate::geom::Pose;
use std::sync::Arc;

#[derive(Clone)]
pub struct ConvexSim {
    /// The polyhedron of each paired body, by body index.
    shapes: Arc<Vec<Option<Polyhedron>>>,
    pairs: Arc<Vec<[u32; 2]>>,
    motions: Arc<Vec<(ScriptedMotion, Pose)>>,
    cross_check: bool,
    last: ConvexFrame,
}

/// The polyhedron of a body, if its shape is one.
pub fn body_polyhedron(body: &RigidBody) -> Option<Polyhedron> {
    Polyhedron::from_convex(body.shape.polyhedron()?).ok()
}

pub fn simulation(data: &ConvexScene, bodies: &[RigidBody]) -> Result<ConvexSim, String> {
    let mut shapes: Vec<Option<Polyhedron>> = vec![None; bodies.len()];
    for (k, pair) in data.pairs.iter().enumerate() {
        if pair[0] == pair[1] {
            return Err(format!("pairs[{k}]: a body is paired with itself"));
        }
        for &i in pair {
            let body = bodies.get(i as usize).ok_or_else(|| {
                format!("pairs[{k}]: no body {i} (the scene has {})", bodies.len())
            })?;
            if shapes[i as usize].is_none() {
                shapes[i as usize] = Some(body_polyhedron(body).ok_or_else(|| {
                    format!(
                        "pairs[{k}]: body {i} ({}) is not a convex hull or a box",
                        body.name
                    )
                })?);
            }
        }
    }
    let mut motions = Vec::with_capacity(data.motions.len());
    for (k, m) in data.motions.iter().enumerate() {
        m.validate().map_err(|e| format!("motions[{k}]: {e}"))?;
        let body = bodies
            .get(m.body as usize)
            .ok_or_else(|| format!("motions[{k}]: no body {}", m.body))?;
        motions.push((m.clone(), body.pose));
    }
    Ok(ConvexSim {
        shapes: Arc::new(shapes),
        pairs: Arc::new(data.pairs.clone()),
        motions: Arc::new(motions),
        cross_check: data.cross_check,
        last: ConvexFrame::default(),
    })
}

impl FamilySim for ConvexSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        for (motion, base) in self.motions.iter() {
            if let Some(body) = ctx.bodies.get_mut(motion.body as usize) {
                body.pose = motion.pose_at(base, ctx.time_s);
            }
        }
        let mut walks = Vec::with_capacity(self.pairs.len());
        for (k, &[i, j]) in self.pairs.iter().enumerate() {
            let (Some(Some(sa)), Some(Some(sb))) =
                (self.shapes.get(i as usize), self.shapes.get(j as usize))
            else {
                continue;
            };
            let (pa, pb) = (ctx.bodies[i as usize].pose, ctx.bodies[j as usize].pose);
            let (a, b) = (Placed::new(sa, &pa), Placed::new(sb, &pb));
            let start = self.last.walks.get(k).map(|w| w.features);
            let r = ctx
                .stages
                .time(0, || vclip(&a, &b, start, [i, j], &mut *probe));
            if r.outcome == Outcome::IterationCap {
                ctx.markers.push(Marker {
                    kind: MarkerKind::Other("V-Clip cap".into()),
                    text: format!("the walk between bodies {i} and {j} hit its iteration cap"),
                    bodies: vec![i, j],
                });
            }
            let cross_check = self.cross_check;
            let gjk_distance = ctx.stages.time(1, || {
                cross_check.then(|| {
                    let mut trace = GjkTrace {
                        probe: &mut *probe,
                        wrap: |e| ConvexEvent::Gjk(e).into(),
                    };
                    let q = gjk_query(
                        &Posed {
                            shape: sa,
                            pose: &pa,
                        },
                        &Posed {
                            shape: sb,
                            pose: &pb,
                        },
                        GjkWarmStart::default(),
                        [i, j],
                        &mut trace,
                    );
                    q.signed_distance().max(0.0)
                })
            });
            walks.push(WalkRecord {
                features: r.features,
                outcome: r.outcome,
                distance: r.distance,
                iterations: r.iterations,
                gjk_distance,
            });
        }
        self.last = ConvexFrame { walks };
    }

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Convex(self.last.clone())
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Convex(f) = data {
            self.last = f.clone();
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }

    fn violations(&self, frame: &Frame) -> Vec<String> {
        let mut out = Vec::new();
        for data in &frame.families {
            let FamilyFrameData::Convex(f) = data else {
                continue;
            };
            for (w, pair) in f.walks.iter().zip(self.pairs.iter()) {
                if w.outcome == Outcome::IterationCap {
                    out.push(format!(
                        "V-Clip between bodies {} and {} hit its iteration cap",
                        pair[0], pair[1]
                    ));
                }
                if let Some(g) = w.gjk_distance {
                    let scale = 1.0 + w.distance.abs().max(g.abs());
                    if (g - w.distance).abs() > 1e-6 * scale {
                        out.push(format!(
                            "bodies {} and {}: V-Clip says {:.9}, GJK {:.9}",
                            pair[0], pair[1], w.distance, g
                        ));
                    }
                }
            }
        }
        out
    }
}
