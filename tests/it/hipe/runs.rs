//! Runs shared by these tests: the bundled example (`reference_runs/`: a hand-made gold and
//! run) scored by `fairscore score`, and the names of a folder's runs.

use std::path::{Path, PathBuf};
use std::process::Output;

/// A file of the bundled example: `reference_runs/NAME`.
pub(super) fn reference_runs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference_runs")
        .join(name)
}

/// The name of the demo run's output files without extension (`.tsv`, `.json`).
pub(super) const OUTPUT: &str = "demo_bundle4_newseye_en_1_nerc_coarse";

/// `fairscore score` of the demo run against its gold, task nerc_coarse of HIPE-2022, into
/// `out`, with `extra` flags.
pub(super) fn score(out: &Path, extra: &[&str]) -> Output {
    let gold = reference_runs("HIPE-2022-demo-test-en.tsv");
    let run = reference_runs("demo_bundle4_newseye_en_1.tsv");
    let mut args = vec![
        "score",
        "--ref",
        gold.to_str().expect("UTF-8 path"),
        "--pred",
        run.to_str().expect("UTF-8 path"),
        "--task",
        "nerc_coarse",
        "--hipe_edition",
        "hipe-2022",
        "--outdir",
        out.to_str().expect("UTF-8 path"),
    ];
    args.extend_from_slice(extra);
    crate::common::fairscore(&args)
}

/// The names of the files in `dir` ending with `suffix`, without it, sorted.
pub(super) fn runs_with(dir: &Path, suffix: &str) -> Vec<String> {
    let mut runs: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix(suffix)
                .map(str::to_string)
        })
        .collect();
    runs.sort();
    runs
}
