//! The narrow phase of a substep: the contact points of each pair the broad phase handed
//! over, their events and markers, and the solver's constraints.

use super::World;
use super::margins::{RESTING_MARGIN_M, speculative_margin};
use super::substep::SubstepOutput;
use super::warm_start::PairContacts;
use crate::bvh::{AnyBvh, AnyPosed, TraverseOptions, traverse_any};
use crate::dynamics::{ContactConstraint, Shape};
use crate::frame::{Contact, ContactPoint, Marker, MarkerKind, PipelineEvent};
use crate::geom::{Pose, TriMesh};
use crate::narrow;
use crate::scene::CcdMode;
use crate::trace::{Probe, Stage, TraceEvent, Verdict};

impl World {
    /// Contacts go to `out`, one constraint each to the solver.
    pub(super) fn collide<P: Probe>(
        &mut self,
        pairs: &[(u32, u32)],
        handled_by_toi: &[bool],
        dt: f64,
        out: &mut SubstepOutput,
        probe: &mut P,
    ) -> Vec<ContactConstraint> {
        let mut constraints = Vec::with_capacity(self.warm_start.last_count());
        out.contacts.reserve(self.warm_start.last_count());
        for &(ia, ib) in pairs {
            // In Toi mode the fast bodies' impacts are the time of impact's: a speculative
            // contact would stop them short of the wall and bounce them a step later at the
            // lower speed, losing the energy the scene's materials keep.
            let by_toi = handled_by_toi.get(ia as usize).copied().unwrap_or(false)
                || handled_by_toi.get(ib as usize).copied().unwrap_or(false);
            let (points, thinned) = self.pair_points(ia, ib, by_toi, dt, probe);
            let points = narrow::reduce::reduce(points);
            if let Some(thinned) = thinned {
                out.markers.push(self.sampled_marker(ia, ib, &thinned));
            }
            self.report_pair(ia, ib, &points, &mut out.markers, probe);
            if !points.is_empty() {
                out.linked.push((ia, ib));
            }
            self.add_contacts(ia, ib, points, out, &mut constraints, probe);
        }
        self.narrow.end_pass();
        self.rays.end_pass();
        constraints
    }

    /// The marker of a pair that tested a sample of a dense mesh ([`narrow::thinning`]).
    fn sampled_marker(&self, ia: u32, ib: u32, thinned: &narrow::Thinned) -> Marker {
        let (a, b) = (&self.bodies[ia as usize], &self.bodies[ib as usize]);
        Marker {
            kind: MarkerKind::Other("sampled pair".into()),
            text: thinned.describe((&a.name, &b.name)),
            bodies: vec![ia, ib],
        }
    }

    /// The contact points of one pair, speculative ones (negative depth) included, and
    /// whether they come from a sample of a dense mesh.
    fn pair_points<P: Probe>(
        &mut self,
        ia: u32,
        ib: u32,
        by_toi: bool,
        dt: f64,
        probe: &mut P,
    ) -> (Vec<narrow::ContactPoint>, Option<narrow::Thinned>) {
        let mode = self.scene.solver.ccd;
        let (a, b) = (&self.bodies[ia as usize], &self.bodies[ib as usize]);
        let margin = if mode.speculative() && !by_toi {
            speculative_margin(
                (a, self.rim_radius[ia as usize]),
                (b, self.rim_radius[ib as usize]),
                dt,
            )
        } else {
            RESTING_MARGIN_M
        };
        let ray_mesh = |i: u32| self.ray_meshes.get(i as usize).cloned().flatten();
        if let (Some(ra), Some(rb)) = (ray_mesh(ia), ray_mesh(ib)) {
            let found = self.rays.collide_pair(
                (ia, &ra, &a.pose),
                (ib, &rb, &b.pose),
                margin,
                probe.enabled(),
            );
            for ray in found.rays {
                crate::trace_event!(
                    probe,
                    TraceEvent::new(ray_verdict(&ray), PipelineEvent::Ray(ray))
                );
            }
            return (found.contacts, None);
        }
        match (&a.shape, &b.shape, self.tree(ia), self.tree(ib)) {
            (Shape::Mesh(ma), Shape::Mesh(mb), Some(ta), Some(tb)) => {
                let now = mesh_mesh_contacts(ia, ma, &a.pose, ta, ib, mb, &b.pose, tb, probe);
                if now.0.is_empty() && mode != CcdMode::Off {
                    let mut thinned = None;
                    let ahead = super::mesh_lookahead::speculative_contacts(a, b, dt, |pa, pb| {
                        let mut quiet = crate::trace::NoProbe;
                        let ahead = mesh_mesh_contacts(ia, ma, pa, ta, ib, mb, pb, tb, &mut quiet);
                        thinned = ahead.1;
                        ahead.0
                    });
                    (ahead, thinned)
                } else {
                    now
                }
            }
            (Shape::Mesh(_), _, ta, tb) | (_, Shape::Mesh(_), ta, tb) => {
                narrow::with_mesh((&a.shape, &a.pose, ta), (&b.shape, &b.pose, tb), margin)
            }
            _ => (
                self.narrow
                    .collide(ia, &a.shape, &a.pose, ib, &b.shape, &b.pose, margin),
                None,
            ),
        }
    }

    /// The pair's shape test event, and its first-contact and deep-penetration markers.
    fn report_pair<P: Probe>(
        &mut self,
        ia: u32,
        ib: u32,
        points: &[narrow::ContactPoint],
        markers: &mut Vec<Marker>,
        probe: &mut P,
    ) {
        let tolerance = self.scene.solver.penetration_tolerance_m;
        let (a, b) = (&self.bodies[ia as usize], &self.bodies[ib as usize]);
        crate::trace_event!(
            probe,
            shape_test_event((ia, &a.shape), (ib, &b.shape), points)
        );
        let touching = points.iter().any(|p| p.depth >= 0.0);
        let max_depth = narrow::max_depth(points).max(0.0);
        if touching && self.touched.insert((ia, ib)) {
            markers.push(Marker {
                kind: MarkerKind::FirstContact,
                text: format!("{} – {}", a.name, b.name),
                bodies: vec![ia, ib],
            });
        }
        if max_depth > tolerance {
            markers.push(Marker {
                kind: MarkerKind::DeepPenetration,
                text: format!(
                    "{} – {} penetrate {:.3} m (tolerance {:.3} m)",
                    a.name, b.name, max_depth, tolerance
                ),
                bodies: vec![ia, ib],
            });
        }
    }

    /// Each point's event, a touching one also in the frame's contacts, and its constraint.
    fn add_contacts<P: Probe>(
        &self,
        ia: u32,
        ib: u32,
        points: Vec<narrow::ContactPoint>,
        out: &mut SubstepOutput,
        constraints: &mut Vec<ContactConstraint>,
        probe: &mut P,
    ) {
        let tolerance = self.scene.solver.penetration_tolerance_m;
        let warm = self.warm_start.pair(ia, ib);
        let materials = self.materials(ia, ib);
        for p in points {
            let verdict = if p.depth > tolerance {
                Verdict::Warning
            } else if p.depth >= 0.0 {
                Verdict::Hit
            } else {
                Verdict::Info
            };
            let point = record_point(&p, ia, ib, &mut out.contacts);
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    verdict,
                    PipelineEvent::Contact {
                        a: ia,
                        b: ib,
                        point,
                    }
                )
            );
            constraints.push(constraint_of(ia, ib, &p, materials, warm));
        }
    }

    /// The restitution and friction of a pair's contacts.
    fn materials(&self, ia: u32, ib: u32) -> Materials {
        let (a, b) = (&self.bodies[ia as usize], &self.bodies[ib as usize]);
        Materials {
            restitution: 0.5 * (a.material.restitution + b.material.restitution),
            friction: (a.material.friction * b.material.friction).sqrt(),
        }
    }

    /// The pair's constraints at the bodies' poses and velocities now, with nothing recorded:
    /// the small-steps solver's refresh of a fast-turning pair between substeps.
    pub(super) fn pair_constraints(&mut self, ia: u32, ib: u32, dt: f64) -> Vec<ContactConstraint> {
        let (points, _) = self.pair_points(ia, ib, false, dt, &mut crate::trace::NoProbe);
        let warm = self.warm_start.pair(ia, ib);
        let materials = self.materials(ia, ib);
        narrow::reduce::reduce(points)
            .iter()
            .map(|p| constraint_of(ia, ib, p, materials, warm))
            .collect()
    }
}

/// What a pair's contacts share of its two bodies' materials.
#[derive(Clone, Copy)]
struct Materials {
    restitution: f64,
    friction: f64,
}

/// The solver's constraint at one contact point, warm-started from last frame's impulse
/// there.
fn constraint_of(
    ia: u32,
    ib: u32,
    p: &narrow::ContactPoint,
    materials: Materials,
    warm: Option<&PairContacts>,
) -> ContactConstraint {
    ContactConstraint {
        a: ia as usize,
        b: ib as usize,
        point: p.point,
        normal: p.normal,
        depth: p.depth,
        restitution: materials.restitution,
        friction: materials.friction,
        warm_start: warm.and_then(|w| w.find(&p.point)),
    }
}

/// A collision ray is a hit, a prediction bookkeeping, a rejected ray a miss.
fn ray_verdict(ray: &narrow::rays::RigidRay) -> Verdict {
    match ray.class {
        narrow::rays::RigidRayClass::Collision => Verdict::Hit,
        narrow::rays::RigidRayClass::Prediction => Verdict::Info,
        narrow::rays::RigidRayClass::Rejected => Verdict::Miss,
    }
}

/// The event of one pair's shape test: which test ran, how many points touch, how deep.
fn shape_test_event(
    (ia, a): (u32, &Shape),
    (ib, b): (u32, &Shape),
    points: &[narrow::ContactPoint],
) -> TraceEvent {
    let touching = points.iter().filter(|p| p.depth >= 0.0).count() as u32;
    TraceEvent::new(
        if touching == 0 {
            Verdict::Miss
        } else {
            Verdict::Hit
        },
        PipelineEvent::ShapeTest {
            a: ia,
            b: ib,
            test: narrow::test_name(a, b),
            contacts: touching,
            max_depth: narrow::max_depth(points).max(0.0),
        },
    )
}

/// A touching contact is recorded once, in the frame's contacts, and the event names it
/// there; a speculative one is only in the event.
fn record_point(
    p: &narrow::ContactPoint,
    ia: u32,
    ib: u32,
    contacts: &mut Vec<Contact>,
) -> ContactPoint {
    if p.depth >= 0.0 {
        contacts.push(Contact {
            a: ia,
            b: ib,
            point: p.point,
            normal: p.normal,
            depth: p.depth,
        });
        ContactPoint::InFrame(contacts.len() as u32 - 1)
    } else {
        ContactPoint::Inline {
            point: p.point,
            normal: p.normal,
            depth: p.depth,
        }
    }
}

/// Mesh against mesh: the two hierarchies are traversed (every node and triangle pair goes to
/// the probe) and the intersection segments become contacts.
#[allow(clippy::too_many_arguments)]
fn mesh_mesh_contacts<P: Probe>(
    ia: u32,
    ma: &TriMesh,
    pa: &Pose,
    ta: &AnyBvh,
    ib: u32,
    mb: &TriMesh,
    pb: &Pose,
    tb: &AnyBvh,
    probe: &mut P,
) -> (Vec<narrow::ContactPoint>, Option<narrow::Thinned>) {
    let side = |mesh, tree, pose, body| AnyPosed {
        mesh,
        tree,
        pose,
        body,
    };
    traverse_any(
        &side(ma, ta, pa, ia),
        &side(mb, tb, pb, ib),
        TraverseOptions {
            max_triangle_tests: Some(narrow::thinning::MAX_PAIR_TRIANGLE_TESTS),
            ..TraverseOptions::default()
        },
        probe,
    )
    .map(|r| narrow::mesh_mesh::contacts_from_traversal(&r, (ma, pa, Some(ta)), (mb, pb, Some(tb))))
    .unwrap_or_default()
}

impl World {
    /// The exact contact points of bodies `ia` and `ib` at the poses given, within `margin`
    /// (a point within it and apart has a negative depth): the narrow phase with no cache and
    /// no look-ahead, the same at any step. What the audit of a captured run compares another
    /// engine's contacts with. The test and each point go to the probe, in the narrow phase.
    /// Past the bounds of [`narrow::thinning`] (a body swallowing tens of thousands of a mesh's
    /// triangles), the points come from a sample, as in the world's own step, and say so.
    pub fn exact_contacts<P: Probe>(
        &self,
        (ia, pose_a): (u32, &Pose),
        (ib, pose_b): (u32, &Pose),
        margin: f64,
        probe: &mut P,
    ) -> (Vec<narrow::ContactPoint>, Option<narrow::Thinned>) {
        let (Some(a), Some(b)) = (self.bodies.get(ia as usize), self.bodies.get(ib as usize))
        else {
            return (Vec::new(), None);
        };
        probe.set_stage(Stage::NarrowPhase);
        let points = match (&a.shape, &b.shape, self.tree(ia), self.tree(ib)) {
            (Shape::Mesh(ma), Shape::Mesh(mb), Some(ta), Some(tb)) => {
                mesh_mesh_contacts(ia, ma, pose_a, ta, ib, mb, pose_b, tb, probe)
            }
            (_, _, ta, tb) => {
                narrow::with_mesh((&a.shape, pose_a, ta), (&b.shape, pose_b, tb), margin)
            }
        };
        let (points, thinned) = points;
        // Not the world's frame: every point is inline in its event.
        crate::trace_event!(
            probe,
            shape_test_event((ia, &a.shape), (ib, &b.shape), &points)
        );
        for p in &points {
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    if p.depth >= 0.0 {
                        Verdict::Hit
                    } else {
                        Verdict::Info
                    },
                    PipelineEvent::Contact {
                        a: ia,
                        b: ib,
                        point: ContactPoint::Inline {
                            point: p.point,
                            normal: p.normal,
                            depth: p.depth,
                        },
                    }
                )
            );
        }
        (points, thinned)
    }
}
