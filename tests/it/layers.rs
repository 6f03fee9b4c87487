//! The shape of the crate, enforced: every source file is under 600 lines, no module imports
//! one from a higher layer (see `docs/architecture.md`), and no two source files import each
//! other, directly or through others.
//!
//! References are read from the text: `crate::a::b` paths and `super::` paths outside
//! `#[cfg(test)]` sections. A module's `mod.rs` declaring and re-exporting its own submodules
//! is not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Layers from the bottom up: a module may use its own layer's modules (without cycles) and
/// every layer below.
const LAYERS: &[&[&str]] = &[
    &["error", "escape"],
    &["io", "zip"],
    &["corpus"],
    &["formats"],
    &["spans"],
    &["matching"],
    &["metrics"],
    &["hipe", "table"],
    &["normalize"],
    &["eval"],
    &["convert"],
    &["family"],
    &["report"],
    &["score"],
    &["check"],
    &["api"],
    &["campaign"],
    &["lib"],
];

/// The general layers: they read, pair and count any format, and know no HIPE vocabulary
/// (no `crate::hipe`, no module or item named after HIPE outside the HIPE TSV reader).
const GENERAL: &[&str] = &["corpus", "formats", "spans", "matching", "metrics"];

const MAX_LINES: usize = 600;

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file relative to `src/` (`corpus/align.rs` → `["corpus", "align"]`,
/// `corpus/mod.rs` → `["corpus"]`, `lib.rs` → `[]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        parts.pop();
    }
    parts
}

/// Resolves a module path to the file defining its longest existing prefix.
fn resolve(path: &[String], files: &BTreeMap<Vec<String>, PathBuf>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| files.contains_key(p))
}

/// Identifier segments following a `crate::` or `super::` prefix at `at`.
fn segments(text: &str) -> Vec<String> {
    text.split("::")
        .map(|s| {
            s.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .take_while(|s| !s.is_empty())
        .collect()
}

/// Every module path a file refers to (absolute, without `crate`).
fn references(text: &str, own: &[String], is_mod_file: bool) -> BTreeSet<Vec<String>> {
    let body = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut out = BTreeSet::new();
    for line in body.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            if i > 0 && code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            out.insert(segments(&code[i + 7..]));
        }
        for (i, _) in code.match_indices("super::") {
            if i > 0 && code[..i].ends_with(':') {
                continue;
            }
            // `super` of a mod.rs file is its parent module's parent.
            let mut base = own.to_vec();
            base.pop();
            let mut rest = &code[i + 7..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            let mut p = base;
            p.extend(segments(rest));
            out.insert(p);
        }
        // `use child::…` / `pub use child::…` in a mod.rs re-export its own submodules.
        let _ = is_mod_file;
    }
    out.retain(|p| !p.is_empty());
    out
}

#[test]
fn files_are_small_layers_point_down_and_imports_have_no_cycles() {
    let root = src();
    let mut paths = Vec::new();
    rust_files(&root, &mut paths);
    paths.sort();
    let mut files: BTreeMap<Vec<String>, PathBuf> = BTreeMap::new();
    let mut too_long = Vec::new();
    for p in &paths {
        let rel = p.strip_prefix(&root).unwrap_or(p);
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            // The binary's clap layer is not part of the library.
            continue;
        }
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let n = text.lines().count();
        if n > MAX_LINES {
            too_long.push(format!("{} has {n} lines", rel.display()));
        }
        files.insert(module_path(rel), p.clone());
    }
    assert!(files.len() > 20, "found only {} source files", files.len());

    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut upward = Vec::new();
    for (module, path) in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let is_mod = path.ends_with("mod.rs");
        // `super::` from a mod.rs refers to its parent: treat it as a file one level deeper.
        let mut own = module.clone();
        if is_mod {
            own.push("mod".to_string());
        }
        let top = module.first().map(String::as_str).unwrap_or("lib");
        let Some(my_layer) = layer_of(top) else {
            upward.push(format!("{}: module {top} has no layer", path.display()));
            continue;
        };
        for r in references(&text, &own, is_mod) {
            let Some(target) = resolve(&r, &files) else {
                continue;
            };
            if &target == module || target.is_empty() {
                continue;
            }
            // A parent module using its own submodules is not an import.
            if target.starts_with(module) {
                continue;
            }
            let ttop = target[0].as_str();
            match layer_of(ttop) {
                Some(l) if l > my_layer => upward.push(format!(
                    "{} ({top}) uses crate::{} ({ttop}, a higher layer)",
                    path.strip_prefix(&root).unwrap_or(path).display(),
                    r.join("::")
                )),
                _ => {}
            }
            graph.entry(module.clone()).or_default().insert(target);
        }
    }

    // Cycles between files: depth-first search with colours.
    let mut cycles = Vec::new();
    let mut state: BTreeMap<Vec<String>, u8> = BTreeMap::new();
    fn visit(
        n: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m).copied().unwrap_or(0) {
                0 => visit(m, graph, state, stack, cycles),
                1 => {
                    let from = stack.iter().position(|x| x == m).unwrap_or(0);
                    let names: Vec<String> = stack[from..].iter().map(|p| p.join("::")).collect();
                    cycles.push(format!("{} -> {}", names.join(" -> "), m.join("::")));
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
    }
    for n in files.keys() {
        if state.get(n).copied().unwrap_or(0) == 0 {
            visit(n, &graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }

    // The general layers import nothing HIPE-specific.
    let mut hipe = Vec::new();
    for (module, path) in &files {
        let top = module.first().map(String::as_str).unwrap_or("lib");
        if !GENERAL.contains(&top) {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let own = module.clone();
        for r in references(&text, &own, path.ends_with("mod.rs")) {
            let in_hipe_reader = module.starts_with(&["formats".to_string(), "hipe".to_string()])
                || module == &vec!["formats".to_string()];
            let names_hipe = r.iter().any(|s| s.to_ascii_lowercase().contains("hipe"));
            let is_reader = r.starts_with(&["formats".to_string(), "hipe".to_string()]);
            if names_hipe && !(is_reader && in_hipe_reader) {
                hipe.push(format!(
                    "{} ({top}, a general layer) uses crate::{} (HIPE-specific)",
                    path.strip_prefix(&root).unwrap_or(path).display(),
                    r.join("::")
                ));
            }
        }
    }

    let mut problems = too_long;
    problems.extend(hipe);
    problems.extend(upward);
    problems.extend(cycles.into_iter().map(|c| format!("import cycle: {c}")));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `docs/architecture.md` keeps the picture current: it names every top-level module of
/// `src/` (a folder `NAME/` or a file `NAME.rs`), and every layer of [`LAYERS`] is a module
/// that exists.
#[test]
fn the_architecture_page_names_every_top_level_module() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("docs/architecture.md");
    let mut missing = Vec::new();
    let mut modules = BTreeSet::new();
    for e in std::fs::read_dir(src()).expect("src").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let module = match name.strip_suffix(".rs") {
            Some(m) if m != "lib" && m != "main" => m.to_string(),
            Some(_) => continue,
            None if e.path().is_dir() => name,
            None => continue,
        };
        let named = [
            format!("{module}/"),
            format!("{module}.rs"),
            format!(" {module} "),
            format!(" {module},"),
            format!("{module}:"),
        ]
        .iter()
        .any(|n| doc.contains(n.as_str()));
        if !named {
            missing.push(module.clone());
        }
        modules.insert(module);
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name: {missing:?}"
    );
    // The page's count of public modules is the source's.
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let pub_mods: usize = files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            text.lines().filter(|l| l.starts_with("pub mod ")).count()
        })
        .sum();
    let stated = format!("({pub_mods} `pub mod` in all");
    assert!(
        doc.contains(&stated),
        "docs/architecture.md should say {stated}: the source has {pub_mods} `pub mod`"
    );
    for layer in LAYERS.iter().flat_map(|l| l.iter()) {
        assert!(
            *layer == "lib" || modules.contains(*layer),
            "tests/it/layers.rs names a layer {layer} that is no module of src/"
        );
    }
}
