//! Runs of one task and gold that would have the same system name.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The runs of one task on one gold: (system, path, team).
pub(super) type Runs = Vec<(String, PathBuf, String)>;

/// Takes out of `runs` those whose system name another run of the same list has
/// (`bravo_1.jsonl` and `bravo_1.conll` are both `bravo_1`): none of them is ranked, each is
/// returned as (file name, reason) naming the others, in name order.
pub(super) fn same_systems(runs: &mut Runs, task: &str) -> Vec<(String, String)> {
    let mut by: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (system, path, _) in runs.iter() {
        by.entry(system.as_str()).or_default().push(file_name(path));
    }
    let mut out = Vec::new();
    let mut clashing: Vec<String> = Vec::new();
    for (system, files) in by.iter().filter(|(_, f)| f.len() > 1) {
        for f in files {
            let others: Vec<&str> = files
                .iter()
                .filter(|o| *o != f)
                .map(String::as_str)
                .collect();
            out.push((
                f.clone(),
                format!(
                    "task {task}: {} also names the system {system}; keep one run of that name",
                    others.join(", ")
                ),
            ));
        }
        clashing.push(system.to_string());
    }
    runs.retain(|(s, _, _)| !clashing.contains(s));
    out.sort();
    out
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}
