//! The simulation of every built-in scene, bit for bit, against the hashes committed in
//! `tests/fixtures/state-hashes.txt`: a refactoring that moves code must not move a single
//! bit of any body's state. A change that means to alter the simulation regenerates the file
//! with `COLLIDOSCOPE_BLESS_STATE_HASHES=1 cargo test --test suite state_hashes` and says
//! why in its commit.

use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene, builtin_scenes};
use std::collections::BTreeMap;
use std::path::PathBuf;

const FRAMES: usize = 120;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/state-hashes.txt")
}

fn hashes(scene: &str) -> Vec<u64> {
    let scene = builtin_scene(scene).expect("built-in scenes build");
    let mut world = World::new(scene).expect("built-in scenes are valid");
    (0..FRAMES)
        .map(|_| world.step(&mut NoProbe).state_hash())
        .collect()
}

fn all_hashes() -> BTreeMap<String, Vec<u64>> {
    builtin_scenes()
        .into_iter()
        .map(|(name, _)| (name.to_string(), hashes(name)))
        .collect()
}

fn write(path: &PathBuf, all: &BTreeMap<String, Vec<u64>>) {
    let mut text = format!("# scene, then the state hash of each of its first {FRAMES} steps\n");
    for (name, hs) in all {
        text.push_str(name);
        for h in hs {
            text.push_str(&format!(" {h:016x}"));
        }
        text.push('\n');
    }
    std::fs::write(path, text).expect("the fixture is writable");
}

fn read(path: &PathBuf) -> BTreeMap<String, Vec<u64>> {
    let text = std::fs::read_to_string(path).expect("tests/fixtures/state-hashes.txt exists");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next().expect("a scene name").to_string();
            let hs = words
                .map(|w| u64::from_str_radix(w, 16).expect("hex hashes"))
                .collect();
            (name, hs)
        })
        .collect()
}

#[test]
fn every_builtin_scene_steps_bit_for_bit_as_committed() {
    let path = fixture();
    let now = all_hashes();
    if std::env::var_os("COLLIDOSCOPE_BLESS_STATE_HASHES").is_some() {
        write(&path, &now);
        return;
    }
    let committed = read(&path);
    let mut differences = Vec::new();
    for (name, hs) in &now {
        match committed.get(name) {
            None => differences.push(format!("{name}: not in the fixture (bless it)")),
            Some(old) => {
                if let Some(i) = (0..FRAMES).find(|&i| old.get(i) != hs.get(i)) {
                    differences.push(format!("{name}: first differs at step {}", i + 1));
                }
            }
        }
    }
    for name in committed.keys().filter(|n| !now.contains_key(*n)) {
        differences.push(format!("{name}: in the fixture but no longer built in"));
    }
    assert!(
        differences.is_empty(),
        "the simulation changed:\n{}",
        differences.join("\n")
    );
}
