//! The current step in words: what the sweep or the slide decided at this event and why, with
//! the numbers it decided on. The text is built from the event and the recorded level only.

use super::level::Level;
use super::log::{Iteration, SlideLog};
use crate::app::widgets::description::Description;
use crate::bsp::clip::MissReason;
use crate::bsp::{
    BspEvent, Child, ClipOutcome, MIN_DISTANCE, NodeSide, Shape, SlideBranch, SlideEnd,
};
use crate::geom::Vec3;

pub fn v3(v: &Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z)
}

fn child(c: Child) -> String {
    match c {
        Child::Node(n) => format!("node {n}"),
        Child::Leaf(l) => format!("leaf {l}"),
    }
}

pub fn describe(event: &BspEvent, level: &Level, log: &SlideLog, index: usize) -> Description {
    let mut d = describe_step(event, level, log, index);
    // The compared slide's steps say whose they are.
    if let Some((mode, _)) = log.other.as_ref().filter(|_| log.in_other(index)) {
        d.title = format!("{} slide · {}", mode.name(), d.title);
    }
    d
}

fn describe_step(event: &BspEvent, level: &Level, log: &SlideLog, index: usize) -> Description {
    let owner = log.owner(index);
    match *event {
        BspEvent::Node { node, side } => node_step(node, side, level, owner),
        BspEvent::Clip {
            brush,
            plane,
            enter,
            exit,
            outcome,
        } => clip_step(brush, plane, enter, exit, outcome),
        BspEvent::Iteration { .. } => match owner {
            Some(it) => iteration_step(it, level),
            None => Description {
                title: "slide iteration".into(),
                lines: Vec::new(),
            },
        },
        BspEvent::End { reason, iterations } => Description {
            title: format!(
                "Slide ended after {iterations} iteration(s): {}",
                end_words(reason)
            ),
            lines: vec![end_why(reason).into()],
        },
        BspEvent::ArticleLeaf {
            brush,
            plane,
            frac_impact,
            frac_real,
            nearer,
        } => article_leaf(brush, plane, frac_impact, frac_real, nearer),
        BspEvent::Compare { mode } => Description {
            title: format!("The same move with the {} slide", mode.name()),
            lines: vec![format!(
                "From here on, the events are the {} slide of the same move from the same \
                 start, recorded for comparison and drawn beside the walker's own; the walker \
                 keeps the result of the slide before.",
                mode.name()
            )],
        },
    }
}

fn article_leaf(
    brush: u32,
    plane: Option<u16>,
    frac_impact: f64,
    frac_real: f64,
    nearer: bool,
) -> Description {
    let mut lines = Vec::new();
    let title = match plane {
        Some(p) => {
            lines.push(format!(
                "The article's iBrush reached the solid leaf of brush {brush} holding plane {p}: \
                 the smallest real fraction of a front-to-back crossing on the way down \
                 ({frac_real:.4}, impact {frac_impact:.4}). It does not check that the move is \
                 behind the brush's other planes at that time, so a crossing of a plane's \
                 extension in open space counts (spec 001 §13.1)."
            ));
            if frac_impact < 0.0 {
                lines.push(
                    "The impact fraction is negative: the start is within the skin, and the \
                     article's slide will move the shape back along its move (§7.5)."
                        .into(),
                );
            }
            format!("Article: brush {brush} hit by plane {p} at {frac_real:.4}")
        }
        None => {
            lines.push(format!(
                "The article's iBrush reached the solid leaf of brush {brush} with nothing \
                 stored: every plane on the way was passed behind. If the move reached this \
                 leaf, it started inside the brush, and the article reports no impact: the \
                 shape passes through (§7.5)."
            ));
            format!("Article: solid leaf of brush {brush}, nothing stored")
        }
    };
    lines.push(if nearer {
        "It is the nearest so far: setNearerImpact keeps it.".into()
    } else {
        "Not nearer than the impact already kept.".into()
    });
    Description { title, lines }
}

fn node_step(node: u32, side: NodeSide, level: &Level, owner: Option<&Iteration>) -> Description {
    let Some(n) = level.tree.nodes.get(node as usize) else {
        return Description {
            title: format!("node {node} (not in this level)"),
            lines: Vec::new(),
        };
    };
    let mut lines = vec![format!(
        "Splitting plane: normal {}, distance {:.3} (a face of brush {}).",
        v3(&n.plane.normal),
        n.plane.d,
        n.from_brush
    )];
    if let Some(it) = owner {
        let margin = Shape::box_offset(&level.shape.half_extents(), &n.plane.normal);
        let d1 = n.plane.signed_distance(&it.start);
        let d2 = n.plane.signed_distance(&it.target());
        lines.push(format!(
            "The shape's centre is {d1:.3} from the plane at the start and {d2:.3} at the end \
             of the move; the shape reaches {margin:.3} to each side."
        ));
    }
    let (front, back) = (child(n.front), child(n.back));
    let verdict = match side {
        NodeSide::Front => format!(
            "The whole swept shape stays in front of the plane: only the front child ({front}) \
             is visited, the back child ({back}) is skipped."
        ),
        NodeSide::Back => format!(
            "The whole swept shape stays behind the plane: only the back child ({back}) is \
             visited, the front child ({front}) is skipped."
        ),
        NodeSide::Both => format!(
            "The swept shape straddles the plane: both children are visited ({front} in front, \
             {back} behind), the side holding the start first."
        ),
    };
    lines.push(verdict);
    Description {
        title: format!("Node {node}: {}", side_words(side)),
        lines,
    }
}

pub fn side_words(side: NodeSide) -> &'static str {
    match side {
        NodeSide::Front => "front only",
        NodeSide::Back => "back only",
        NodeSide::Both => "both sides",
    }
}

fn clip_step(brush: u32, plane: u16, enter: f64, exit: f64, outcome: ClipOutcome) -> Description {
    let (title, why) = match outcome {
        ClipOutcome::Hit => (
            format!("Brush {brush}: hit through plane {plane} at {enter:.4}"),
            format!(
                "The latest entry over the brush's planes ({enter:.4}, by plane {plane}) comes \
                 before the earliest exit ({exit:.4}): the swept shape is inside every plane at \
                 once, so it touches the brush."
            ),
        ),
        ClipOutcome::StartSolid => (
            format!("Brush {brush}: the shape starts inside it"),
            "At the start the shape is already behind every plane of the brush: the sweep \
             reports it instead of letting the shape pass through."
                .to_string(),
        ),
        ClipOutcome::Missed(MissReason::InFrontOf) => (
            format!("Brush {brush}: missed"),
            format!(
                "The whole move stays in front of plane {plane} (farther than the shape's \
                 reach): the brush cannot be touched."
            ),
        ),
        ClipOutcome::Missed(MissReason::ExitBeforeEntry) => (
            format!("Brush {brush}: missed past a corner"),
            format!(
                "The latest entry ({enter:.4}) comes after the earliest exit ({exit:.4}): the \
                 shape leaves one plane's back before it is behind all of them, so it passes \
                 the corner (the article's smallest-entry test would have reported a hit)."
            ),
        ),
    };
    Description {
        title,
        lines: vec![why],
    }
}

fn iteration_step(it: &Iteration, level: &Level) -> Description {
    let n = it.index + 1;
    let mut lines = vec![format!(
        "From {} the shape asks for the move {} (length {:.3}).",
        v3(&it.start.coords),
        v3(&it.remaining),
        it.remaining.norm()
    )];
    let title = match it.hit {
        None => {
            lines.push("No brush is in the way: the whole move is made.".into());
            format!("Iteration {n}: free move")
        }
        Some((b, p)) => {
            let normal = level
                .plane(b, p)
                .map(|pl| v3(&pl.normal))
                .unwrap_or_default();
            lines.push(format!(
                "It touches brush {b}, plane {p} (normal {normal}) at fraction {:.4} and stops \
                 at {:.4}, {MIN_DISTANCE} clear of the wall.",
                it.frac_real, it.frac_impact
            ));
            if it.frac_impact < 0.0 {
                lines.push(format!(
                    "The impact fraction is negative (the start is inside the skin, spec 001 \
                     §7.5): the article's slide moves the shape back by {:.3} along its move, \
                     against the velocity (the engine clamps it to 0).",
                    -it.frac_impact * it.remaining.norm()
                ));
            } else if it.frac_impact <= 0.0 && it.frac_real > 0.0 {
                lines.push(format!(
                    "It already rests within {MIN_DISTANCE} of that wall: it makes no move \
                     towards it, only the slide along it."
                ));
            }
            if it.reset {
                lines.push(
                    "It moved far enough before the impact: older walls are forgotten.".into(),
                );
            }
            lines.push(format!("Walls held: {}.", it.normals));
            lines.push(branch_words(it.branch, &it.next));
            format!(
                "Iteration {n}: hit brush {b} plane {p}, {}",
                branch_name(it.branch)
            )
        }
    };
    Description { title, lines }
}

pub fn branch_name(b: SlideBranch) -> String {
    match b {
        SlideBranch::Free => "free".into(),
        SlideBranch::Wall(i) => format!("along wall {}", i + 1),
        SlideBranch::Crease => "crease".into(),
        SlideBranch::Corner => "corner: stop".into(),
        SlideBranch::StartSolid => "start solid".into(),
    }
}

fn branch_words(b: SlideBranch, next: &Vec3) -> String {
    match b {
        SlideBranch::Free => "Nothing to project.".into(),
        SlideBranch::Wall(i) => format!(
            "The velocity projected on wall {} heads into none of the other walls: the rest \
             of the move is {}.",
            i + 1,
            v3(next)
        ),
        SlideBranch::Crease => format!(
            "Each single-wall projection heads into the other wall: the shape follows the \
             crease where the two meet, {}.",
            v3(next)
        ),
        SlideBranch::Corner => {
            "Three or more walls (or two with no crease) block every direction: the shape stops."
                .into()
        }
        SlideBranch::StartSolid => {
            "The shape already overlapped a brush: it stays where it is.".into()
        }
    }
}

pub fn end_words(r: SlideEnd) -> &'static str {
    match r {
        SlideEnd::NoImpact => "no impact left",
        SlideEnd::Corner => "stopped by 3+ walls",
        SlideEnd::Reversed => "the slide would turn back",
        SlideEnd::TooShort => "remaining move too short",
        SlideEnd::MaxIterations => "iteration limit",
        SlideEnd::StartSolid => "started inside solid",
        SlideEnd::Still => "no movement asked",
        SlideEnd::NotFinite => "NaN position (article)",
    }
}

fn end_why(r: SlideEnd) -> &'static str {
    match r {
        SlideEnd::NoImpact => {
            "The last sweep found nothing: the shape made its whole remaining move."
        }
        SlideEnd::Corner => "No projection of the velocity keeps clear of every wall held.",
        SlideEnd::Reversed => {
            "The next direction points against the original velocity: the slide stops rather \
             than jitter back."
        }
        SlideEnd::TooShort => "What is left of the move is shorter than MIN_MOVE.",
        SlideEnd::MaxIterations => {
            "MAX_IMPACT sweeps were used. The engine keeps the last impact point; the article's \
             slide does not write the position, and the shape stays where the slide began."
        }
        SlideEnd::StartSolid => {
            "The shape overlapped a brush before moving: reported, not ignored."
        }
        SlideEnd::Still => "The move was zero.",
        SlideEnd::NotFinite => {
            "The article's slide held the same wall twice; its crease, the normalised cross \
             product of a normal with itself, is NaN, and so is the position it would write \
             (spec 001 §13.2). The walker is held where it was."
        }
    }
}
