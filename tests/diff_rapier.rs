//! `collidoscope diff` on two captured Rapier runs that differ only in the solver's iteration
//! count, against a brute-force comparison of the two capture streams read line by line as
//! plain JSON: the first step where the streams part, its first differing stage in pipeline
//! order, and the pair of colliders there.

use collidoscope::capture::Capture;
use collidoscope::capture::rapier::{RapierCapture, example_world};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

const STEPS: usize = 60;

fn stream(iterations: usize, path: &Path) {
    let mut scene = example_world(true);
    scene.world.integration_parameters.num_solver_iterations = iterations;
    let header = RapierCapture::header(&scene.world);
    let file = std::fs::File::create(path).expect("the stream file");
    let mut capture = RapierCapture::new(
        Capture::to_stream(std::io::BufWriter::new(file), header).expect("the stream starts"),
    );
    for _ in 0..STEPS {
        scene.world.step();
        capture
            .record_step(&scene.world)
            .expect("the step is captured");
    }
    capture.finish().expect("the stream ends");
}

/// One compared item of a step: what it is, what is compared, and how a report names the
/// bodies it is about (a collider by its body's name and id: every body of the example has
/// one collider).
struct Item {
    key: String,
    value: Value,
    names: Vec<String>,
}

/// A step of a stream: its number and its items in the stages' order (pairs, contacts,
/// impulses, events, states), each stage in line order.
struct Step {
    frame: u64,
    stages: [Vec<Item>; 5],
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

fn pick(line: &Value, fields: &[&str]) -> Value {
    Value::Object(
        fields
            .iter()
            .filter_map(|f| line.get(*f).map(|v| (f.to_string(), v.clone())))
            .collect(),
    )
}

fn read(path: &Path) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut body_names: HashMap<String, String> = HashMap::new();
    let mut labels = HashMap::new();
    let mut events_seen: HashMap<String, u32> = HashMap::new();
    for line in std::fs::read_to_string(path)
        .expect("the stream reads")
        .lines()
    {
        let v: Value = serde_json::from_str(line).expect("each line is JSON");
        let (a, b) = (text(&v["a"]), text(&v["b"]));
        let contact_key = || format!("{a}-{b}:{}.{}", v["manifold"], v["point"]);
        match v["kind"].as_str().unwrap_or_default() {
            "body" => {
                let id = text(&v["id"]);
                let label = match v["name"].as_str() {
                    Some(n) => format!("{n} (body {id})"),
                    None => format!("body {id}"),
                };
                body_names.insert(id, label);
            }
            "collider" => {
                let label = body_names[&text(&v["body"])].clone();
                labels.insert(text(&v["id"]), label);
            }
            "frame" => {
                events_seen.clear();
                steps.push(Step {
                    frame: v["frame"].as_u64().expect("a frame number"),
                    stages: Default::default(),
                });
            }
            kind => {
                let Some(step) = steps.last_mut() else {
                    continue;
                };
                let label = |id: &str| labels.get(id).cloned().unwrap_or_default();
                let pair = vec![label(&a), label(&b)];
                let mut push = |stage: usize, key: String, value: Value, names: Vec<String>| {
                    step.stages[stage].push(Item { key, value, names });
                };
                match kind {
                    "pair" => push(0, format!("{a}-{b}"), Value::Null, pair),
                    "contact" => {
                        let geometry = pick(&v, &["position", "normal", "distance"]);
                        push(1, contact_key(), geometry, pair.clone());
                        let impulses = pick(&v, &["normal_impulse", "tangent_impulse"]);
                        if impulses.as_object().is_some_and(|o| !o.is_empty()) {
                            push(2, contact_key(), impulses, pair);
                        }
                    }
                    "event" => {
                        let what = format!("{}:{}:{}", v["stage"], v["label"], v["bodies"]);
                        let n = events_seen.entry(what.clone()).or_default();
                        *n += 1;
                        push(3, format!("{what}#{n}"), v["values"].clone(), Vec::new());
                    }
                    "state" => {
                        let body = text(&v["body"]);
                        let name = body_names.get(&body).cloned().unwrap_or_default();
                        push(4, body, v.clone(), vec![name]);
                    }
                    _ => {}
                }
            }
        }
    }
    steps
}

/// The first item of a stage that differs: in A's order, an item B lacks or holds otherwise;
/// then an item only B has.
fn first_in_stage<'a>(a: &'a [Item], b: &'a [Item]) -> Option<&'a Item> {
    let in_b: HashMap<&str, &Value> = b.iter().map(|i| (i.key.as_str(), &i.value)).collect();
    let in_a: HashMap<&str, &Value> = a.iter().map(|i| (i.key.as_str(), &i.value)).collect();
    a.iter()
        .find(|i| in_b.get(i.key.as_str()) != Some(&&i.value))
        .or_else(|| b.iter().find(|i| !in_a.contains_key(i.key.as_str())))
}

/// The first step that differs, its first differing stage and that stage's first differing
/// item.
fn brute_force<'a>(a: &'a [Step], b: &'a [Step]) -> Option<(u64, &'static str, &'a Item)> {
    a.iter().zip(b).find_map(|(sa, sb)| {
        (0..5).find_map(|s| {
            first_in_stage(&sa.stages[s], &sb.stages[s])
                .map(|item| (sa.frame, collidoscope::diff::STAGES[s], item))
        })
    })
}

#[test]
fn four_and_eight_solver_iterations_part_where_the_streams_do() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (pa, pb) = (
        dir.path().join("four.jsonl"),
        dir.path().join("eight.jsonl"),
    );
    stream(4, &pa);
    stream(8, &pb);
    let (steps_a, steps_b) = (read(&pa), read(&pb));
    assert_eq!(steps_a.len(), STEPS);
    let (frame, stage, item) = brute_force(&steps_a, &steps_b).expect("the runs part");
    let want_bodies: Vec<Value> = item.names.iter().cloned().map(Value::String).collect();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("diff")
        .arg(&pa)
        .arg(&pb)
        .arg("--json")
        .output()
        .expect("diff runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(report["first_divergent_frame"], frame, "{report}");
    assert_eq!(report["stage"], stage, "{report}");
    assert_eq!(report["bodies"], Value::Array(want_bodies), "{report}");
}
