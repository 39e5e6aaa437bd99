//! A made-up engine's run as capture items, for the capture tests and the ingest bench:
//! balls falling on a ground box, one of them carried by an offset collider, with pairs when
//! they come near the ground and contacts when they sink into it. Deterministic, and simple
//! enough to check by hand.

use collidoscope::capture::*;

pub fn upright(t: [f64; 3]) -> PoseItem {
    PoseItem {
        translation: t,
        rotation: [1.0, 0.0, 0.0, 0.0],
    }
}

/// `balls` balls for `steps` steps.
pub fn engine_run(balls: usize, steps: u64) -> Vec<Item> {
    let mut items = vec![Item::Header(Header {
        dt_s: Some(0.01),
        gravity: Some([0.0, -9.81, 0.0]),
        captures: Captured::STATES
            .with(Captured::VELOCITIES)
            .with(Captured::PAIRS)
            .with(Captured::CONTACTS),
        ..Header::new("toy-engine 1.0")
    })];
    items.push(Item::Shape(ShapeItem {
        id: "ground".into(),
        shape: CapturedShape::Cuboid {
            half_extents: [5.0, 0.5, 5.0],
        },
        approximates: None,
    }));
    items.push(Item::Shape(ShapeItem {
        id: 7u64.into(),
        shape: CapturedShape::Sphere { radius: 0.25 },
        approximates: None,
    }));
    items.push(Item::Body(BodyItem {
        id: "floor".into(),
        name: Some("the floor".into()),
        motion: Motion::Fixed,
    }));
    items.push(Item::Collider(ColliderItem {
        id: "g".into(),
        body: "floor".into(),
        shape: "ground".into(),
        pose: upright([0.0, -0.5, 0.0]),
        sensor: false,
        name: None,
    }));
    for i in 0..balls {
        items.push(Item::Body(BodyItem {
            id: (i as u64).into(),
            name: None,
            motion: Motion::Dynamic,
        }));
        // Ball 0's collider sits 0.1 m to the side of its body.
        let offset = if i == 0 { 0.1 } else { 0.0 };
        items.push(Item::Collider(ColliderItem {
            id: format!("ball{i}").into(),
            body: (i as u64).into(),
            shape: 7u64.into(),
            pose: upright([offset, 0.0, 0.0]),
            sensor: false,
            name: None,
        }));
    }
    for step in 0..steps {
        let t = step as f64 * 0.01;
        items.push(Item::Frame(FrameItem {
            frame: 10 + 2 * step,
            time_s: Some(t),
        }));
        for i in 0..balls {
            let y = 0.2 + i as f64 * 0.3 - 0.5 * 9.81 * t * t;
            let mut state = StateItem::at(i as u64, upright([i as f64, y, 0.0]));
            state.linvel = Some([0.0, -9.81 * t, 0.0]);
            items.push(Item::State(state));
            if y < 0.6 {
                items.push(Item::Pair(PairItem {
                    a: "g".into(),
                    b: format!("ball{i}").into(),
                    touching: Some(y < 0.25),
                }));
            }
            if y < 0.25 {
                let mut c = ContactItem::new(
                    "g",
                    format!("ball{i}").as_str(),
                    [i as f64, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    y - 0.25,
                );
                c.normal_impulse = Some(0.5 * step as f64);
                items.push(Item::Contact(c));
            }
        }
        items.push(Item::EndFrame(EndFrameItem {
            state_hash: Some(format!("{step:x}")),
        }));
    }
    items
}

pub fn stream_text(items: &[Item]) -> String {
    let mut out = String::new();
    for item in items {
        write_item(item, &mut out);
    }
    out
}
