//! The crate's layers, kept by a test: every file's `crate::`, `super::` and `self::` paths are
//! read, each file is a node, and the test fails on an import from a lower layer to a higher
//! one, on a plug-in that names another plug-in, and on a cycle between files.
//! `docs/architecture.md` explains the layers; this table is their definition.
//!
//! What counts as an import: any path in code (a `use` line or a path in an expression), not
//! in comments or in `#[cfg(test)]` items (a test may build a scene from above). A path
//! names the deepest file it reaches (`crate::world::Scene` names `world/mod.rs`). A file
//! naming one of its own ancestors is not an edge: a folder's `mod.rs` is the face of its
//! children.
//!
//! The one exception is the registry (`src/families.rs`, and `src/app/families/mod.rs` for the
//! viewer): `register_families!` generates the closed enums every recording is written in
//! (`EventKind`, `FamilySceneData`, `FamilyFrameData`) and the lookups over every family
//! (scenes by name, query ops, recording reports). A recorded enum must name every family,
//! and every layer records, so any file may name the registry.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; a module belongs to the most specific entry naming it.
const LAYERS: &[(&str, &[&str])] = &[
    ("untrusted input", &["input"]),
    ("geometry", &["geom"]),
    ("trace vocabulary", &["trace"]),
    (
        "shared algorithms",
        &["bvh", "convex", "raycast", "narrow", "ccd"],
    ),
    ("scene and frame model", &["scene", "frame", "query"]),
    (
        "pipeline stages",
        &[
            "dynamics",
            "broad",
            "ccd::impacts",
            "ccd::tunnel",
            "ccd::recorded_motion",
        ],
    ),
    ("pipeline", &["family", "world"]),
    (
        "plug-ins",
        &[
            "arka",
            "bsp",
            "cloth",
            "nurbs",
            "world::family",
            "world::scenes",
            "broad::family",
            "broad::scenes",
            "bvh::family",
            "bvh::scenes",
            "bvh::query_ops",
            "ccd::family",
            "ccd::scenes",
            "convex::family",
            "convex::scenes",
            "convex::query_ops",
            "convex::scene",
            "convex::sim",
        ],
    ),
    (
        "registry and services",
        &[
            "families", "record", "validate", "capture",
            // diff::{frame_list, matching} are parts of `diff`: listed apart, they would be
            // modules of their own in a cycle with the rest of it.
            "diff", "audit",
        ],
    ),
    (
        "viewer foundation",
        &[
            "app::state",
            "app::state::compare",
            "app::state::comparing",
            "app::state::audit",
            "app::viewport",
            "app::viewport::draw_list",
            "app::settings",
            "app::views",
            "app::views::compare_ghost",
            "app::widgets",
            "app::fields",
            "app::render_mesh",
            "app::families::context",
            "app::families::hooks",
            "app::families::views",
            "app::families::settings",
            "app::families::switch_edits",
        ],
    ),
    (
        "viewer plug-ins",
        &[
            "app::families::hierarchy",
            "app::families::broad_phase",
            "app::families::arka",
            "app::families::bsp",
            "app::families::ccd",
            "app::families::cloth",
            "app::families::convex",
            "app::families::nurbs",
            "app::families::capture",
            "app::families::capture::audit_draw",
            "app::families::capture::audit_panel",
            "app::families::test_family",
        ],
    ),
    (
        "front ends",
        &[
            "app",
            "app::compare",
            "app::file_browser",
            "app::files::system_dialog",
            "cli",
            "main",
        ],
    ),
];

/// Layers whose entries must not name each other.
const PLUG_IN_LAYERS: &[&str] = &["plug-ins", "viewer plug-ins"];

/// The registries: any file may name them (see the module doc).
const REGISTRIES: &[&str] = &["families", "app::families"];

/// What is left to fix. The test fails on anything not listed here, and on a listed line
/// that no longer happens, so the list only shrinks.
const KNOWN: &[&str] = &[];

type Module = Vec<String>;

fn module_of(relative: &Path) -> Module {
    let mut parts: Module = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// Code without comments and without `#[cfg(test)]` items.
fn code_of(source: &str) -> String {
    let mut out = String::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            skip_item(&mut lines);
            continue;
        }
        let code = line.find("//").map_or(line, |i| &line[..i]);
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// Skips the item after an attribute: up to its closing brace, or its `;`.
fn skip_item<'a>(lines: &mut impl Iterator<Item = &'a str>) {
    let mut depth = 0i32;
    let mut opened = false;
    for line in lines {
        let code = line.find("//").map_or(line, |i| &line[..i]);
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
            return;
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads `ident(::ident)*`, spaces allowed around `::`; stops before `::{`.
fn read_segments(text: &str, mut i: usize) -> (Vec<String>, usize, bool) {
    let b = text.as_bytes();
    let mut segs = Vec::new();
    loop {
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if !text[j..].starts_with("::") {
            return (segs, i, false);
        }
        j += 2;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b'{' {
            return (segs, j + 1, true);
        }
        let start = j;
        while j < b.len() && is_ident(b[j] as char) {
            j += 1;
        }
        if j == start {
            return (segs, i, false);
        }
        segs.push(text[start..j].to_string());
        i = j;
    }
}

/// The first segment of each item of a `{...}` group starting at `i` (after the brace).
fn group_items(text: &str, i: usize) -> Vec<String> {
    let mut depth = 1;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in text[i..].chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(std::mem::take(&mut item));
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items
        .iter()
        .map(|it| {
            it.split("::")
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

/// Every module path the code names, absolute. A `use` path that starts with neither
/// `crate`, `super` nor `self` names a child module when one has that name (a `mod.rs`
/// re-exporting its children), or an outside crate, which no file is.
fn named_paths(code: &str, module: &[String]) -> Vec<Module> {
    let mut found = Vec::new();
    for root in ["crate", "super", "self"] {
        for (at, _) in code.match_indices(root) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) && c != '$' || c == '$' && root != "crate") {
                continue;
            }
            let after = at + root.len();
            if code[after..].chars().next().is_some_and(is_ident) {
                continue;
            }
            let base: Module = match root {
                "crate" => Vec::new(),
                "self" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            found.extend(paths_from(code, after, base, false));
        }
    }
    for (at, _) in code.match_indices("use ") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let start = at + "use ".len();
        let first: String = code[start..].chars().take_while(|c| is_ident(*c)).collect();
        if first.is_empty() || matches!(first.as_str(), "crate" | "super" | "self") {
            continue;
        }
        let mut base = module.to_vec();
        base.push(first.clone());
        found.extend(paths_from(code, start + first.len(), base, true));
    }
    found
}

/// The paths read after `base` at `at`: one, or one per item of a `{...}` group. A bare `use
/// child;` (`allow_bare`) names the child itself.
fn paths_from(code: &str, at: usize, base: Module, allow_bare: bool) -> Vec<Module> {
    let (segs, end, group) = read_segments(code, at);
    if segs.is_empty() && !group && !allow_bare {
        return Vec::new();
    }
    let mut path = base;
    let mut segs = segs.into_iter().peekable();
    while segs.peek().is_some_and(|s| s == "super") {
        segs.next();
        path.pop();
    }
    path.extend(segs);
    if !group {
        return vec![path];
    }
    group_items(code, end)
        .into_iter()
        .map(|first| {
            let mut p = path.clone();
            if !matches!(first.as_str(), "" | "self" | "*" | "super") {
                p.push(first);
            }
            p
        })
        .collect()
}

/// The crate's files as module → code.
struct Crate {
    files: BTreeMap<Module, String>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut files = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(src).expect("under src/");
                    let text = std::fs::read_to_string(&path).expect("sources are UTF-8");
                    files.insert(module_of(relative), text);
                }
            }
        }
        Crate { files }
    }

    fn from_sources(sources: &[(&str, &str)]) -> Crate {
        let files = sources
            .iter()
            .map(|(p, t)| (module_of(Path::new(p)), t.to_string()))
            .collect();
        Crate { files }
    }

    /// The deepest file a path reaches.
    fn file_of(&self, path: &[String]) -> Option<Module> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| self.files.contains_key(m))
    }

    /// File → files it names (the binary's `main.rs` names the library by its crate name).
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, text) in &self.files {
            if module == &["main".to_string()] {
                continue;
            }
            let targets = edges.entry(module.clone()).or_default();
            for path in named_paths(&code_of(text), module) {
                let Some(target) = self.file_of(&path) else {
                    continue;
                };
                if !module.starts_with(&target) {
                    targets.insert(target);
                }
            }
        }
        edges
    }
}

/// The layer index and the entry a module belongs to.
fn layer_of(module: &[String]) -> Option<(usize, &'static str)> {
    let mut best: Option<(usize, &'static str, usize)> = None;
    for (i, (_, entries)) in LAYERS.iter().enumerate() {
        for entry in entries.iter() {
            let parts: Vec<&str> = entry.split("::").collect();
            let matches =
                parts.len() <= module.len() && parts.iter().zip(module).all(|(p, m)| p == m);
            if matches && best.is_none_or(|b| parts.len() > b.2) {
                best = Some((i, entry, parts.len()));
            }
        }
    }
    best.map(|(i, e, _)| (i, e))
}

/// The plug-in an entry belongs to: `bvh::scenes` is the `bvh` plug-in,
/// `app::families::cloth` the viewer's `cloth`.
fn plug_in(entry: &str) -> String {
    let parts: Vec<&str> = entry.split("::").collect();
    let n = if parts[0] == "app" { 3 } else { 1 };
    parts[..n.min(parts.len())].join("::")
}

fn is_registry(module: &[String]) -> bool {
    REGISTRIES.contains(&name(module).as_str())
}

fn layer_violations(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut out = Vec::new();
    for (from, targets) in edges {
        for to in targets.iter().filter(|t| !is_registry(t)) {
            let (Some((lf, ef)), Some((lt, et))) = (layer_of(from), layer_of(to)) else {
                out.push(format!("no layer: {} -> {}", name(from), name(to)));
                continue;
            };
            if lt > lf {
                out.push(format!(
                    "upward: {} ({}) -> {} ({})",
                    name(from),
                    LAYERS[lf].0,
                    name(to),
                    LAYERS[lt].0
                ));
            } else if lt == lf
                && PLUG_IN_LAYERS.contains(&LAYERS[lf].0)
                && plug_in(ef) != plug_in(et)
            {
                out.push(format!(
                    "plug-in to plug-in: {} -> {}",
                    name(from),
                    name(to)
                ));
            }
        }
    }
    out
}

/// Strongly connected components of more than one node (Tarjan's algorithm).
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Tarjan<'a, N> {
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        found: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Tarjan<'_, N> {
        fn visit(&mut self, v: &N) {
            let i = self.index.len();
            self.index.insert(v.clone(), i);
            self.low.insert(v.clone(), i);
            self.stack.push(v.clone());
            self.on_stack.insert(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(&w);
                    let done = &w == v;
                    component.push(w);
                    if done {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.found
}

fn cycle_violations(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let without_registry: BTreeMap<Module, BTreeSet<Module>> = edges
        .iter()
        .filter(|(f, _)| !is_registry(f))
        .map(|(f, ts)| {
            (
                f.clone(),
                ts.iter().filter(|t| !is_registry(t)).cloned().collect(),
            )
        })
        .collect();
    let files = cycles(&without_registry).into_iter().map(|c| {
        format!(
            "cycle: {}",
            c.iter().map(|m| name(m)).collect::<Vec<_>>().join(" <-> ")
        )
    });
    // Between the entries of the table too: two folders of one layer that name each other
    // through different files are a cycle no file shows.
    let mut entries: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, targets) in &without_registry {
        let Some((_, ef)) = layer_of(from) else {
            continue;
        };
        for to in targets {
            if let Some((_, et)) = layer_of(to).filter(|(_, et)| *et != ef) {
                entries.entry(ef).or_default().insert(et);
            }
        }
    }
    let entries = cycles(&entries)
        .into_iter()
        .map(|c| format!("cycle between modules: {}", c.join(" <-> ")));
    files.chain(entries).collect()
}

fn violations(krate: &Crate) -> Vec<String> {
    let edges = krate.edges();
    let mut all = layer_violations(&edges);
    all.extend(cycle_violations(&edges));
    all.sort();
    all
}

#[test]
fn the_crate_keeps_its_layers_and_has_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&Crate::read(&src));
    let new: Vec<&String> = found
        .iter()
        .filter(|v| !KNOWN.contains(&v.as_str()))
        .collect();
    let fixed: Vec<&&str> = KNOWN
        .iter()
        .filter(|k| !found.iter().any(|f| f == *k))
        .collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "layering (see docs/architecture.md):\nnew violations:\n  {}\nfixed, remove from KNOWN:\n  {}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        fixed.iter().map(|s| **s).collect::<Vec<_>>().join("\n  ")
    );
}

/// A crate in the shape of ours, clean.
fn clean() -> Vec<(&'static str, &'static str)> {
    vec![
        ("lib.rs", "pub mod geom; pub mod world; pub mod families;"),
        ("geom/mod.rs", "mod aabb;\npub use aabb::Aabb;"),
        ("geom/aabb.rs", "pub struct Aabb;"),
        (
            "world/mod.rs",
            "use crate::geom::Aabb;\nuse crate::families::EventKind; // the registry\n",
        ),
        ("families.rs", "use crate::world::World;"),
    ]
}

#[test]
fn a_clean_crate_passes() {
    assert_eq!(
        violations(&Crate::from_sources(&clean())),
        Vec::<String>::new()
    );
}

#[test]
fn an_upward_import_fails() {
    let mut files = clean();
    files[2] = (
        "geom/aabb.rs",
        "use crate::{world::World, geom::Obb};\npub struct Aabb;",
    );
    assert_eq!(
        violations(&Crate::from_sources(&files)),
        [
            "cycle between modules: geom <-> world",
            "cycle: geom <-> geom::aabb <-> world",
            "upward: geom::aabb (geometry) -> world (pipeline)"
        ]
    );
}

#[test]
fn an_upward_path_in_an_expression_fails_but_not_in_a_comment_or_a_test() {
    let mut files = clean();
    files[2] = (
        "geom/aabb.rs",
        "/// See [`crate::world::World`].\nfn f() { let _ = crate::world::make(); }\n\
         #[cfg(test)]\nmod tests {\n    use crate::world::World;\n}\n",
    );
    assert_eq!(
        violations(&Crate::from_sources(&files)),
        [
            "cycle between modules: geom <-> world",
            "cycle: geom <-> geom::aabb <-> world",
            "upward: geom::aabb (geometry) -> world (pipeline)"
        ]
    );
    files[2] = (
        "geom/aabb.rs",
        "// crate::world::World\n#[cfg(test)]\nmod tests {\n    use crate::world::World;\n}\n",
    );
    assert_eq!(
        violations(&Crate::from_sources(&files)),
        Vec::<String>::new()
    );
}

#[test]
fn a_cycle_between_files_fails() {
    let mut files = clean();
    files[1] = ("geom/mod.rs", "mod aabb;\nmod obb;\npub use aabb::Aabb;");
    files[2] = ("geom/aabb.rs", "use super::obb::Obb;\npub struct Aabb;");
    files.push(("geom/obb.rs", "use super::aabb::Aabb;"));
    assert_eq!(
        violations(&Crate::from_sources(&files)),
        ["cycle: geom::aabb <-> geom::obb"]
    );
}

#[test]
fn a_plug_in_naming_another_fails() {
    let mut files = clean();
    files.push((
        "cloth/mod.rs",
        "use crate::bsp::Level;\nuse crate::geom::Aabb;",
    ));
    files.push(("bsp/mod.rs", "pub struct Level;"));
    assert_eq!(
        violations(&Crate::from_sources(&files)),
        ["plug-in to plug-in: cloth -> bsp"]
    );
}

#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let krate = Crate::read(&src);
    let missing: Vec<String> = krate
        .files
        .keys()
        .filter(|m| !m.is_empty() && layer_of(m).is_none())
        .map(|m| name(m))
        .collect();
    assert!(missing.is_empty(), "modules with no layer: {missing:?}");
}
