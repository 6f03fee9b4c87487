//! `inspect` pages of a HIPE campaign on Codabench (issue 35): a HIPE campaign file with
//! `inspect = true`, bundled with `codabench-bundle --campaign FILE --resources DIR`, and its
//! scoring program run as Codabench's worker runs it (`tests/common/worker.rs`) on real
//! HIPE-2022 newseye-de runs. Each NERC column with a run gets `inspect_KEY.html` beside
//! `detailed_results.html`, linked from it; the page is byte for byte the page `fairscore
//! inspect --format hipe --column COLUMN` writes for the same gold and run, and its counts
//! equal those of `evaluate --family fair` on that pair (an independent run of the binary,
//! read as `families::inspect` reads a page). A NEL column with a run has no page, and the
//! detailed page says so; a column without a run is not listed. A hostile run name comes out
//! escaped. The preset, without `inspect`, writes no page and the same scores.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::breakdown_hipe::campaign;
use super::insight_hipe::fair_counts;
use crate::common::worker::Worker;
use crate::common::{fairscore, shared_data, temp_dir};
use crate::families::inspect::page_counts;

const GOLD: &str = "HIPE-2022-v2.1-newseye-test-de.tsv";
const HISTONORM: &str = "HIPE-2022-v2.1-newseye-test-de_histonorm.tsv";
const EVIL: &str = "ev<i>l&co_bundle4_newseye_de_2";

/// The gold directory (the newseye-de golds) and the worker of `campaign_args`.
fn worker(data: &Path, dir: &Path, campaign_args: &[&str]) -> Worker {
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    for g in [GOLD, HISTONORM] {
        std::fs::copy(data.join("hipe2022/gold").join(g), gold.join(g)).unwrap();
    }
    let resources = data.join("hipe2022/resources");
    let mut args: Vec<String> = campaign_args.iter().map(|a| a.to_string()).collect();
    args.extend(["--resources".into(), resources.display().to_string()]);
    Worker::with(dir, &gold, &args)
}

/// A fresh directory `name` and the worker of the hipe-2022 preset with `inspect = true`
/// (a campaign file of that line and the preset's text).
fn inspecting_worker(data: &Path, name: &str) -> (PathBuf, Worker) {
    let dir = temp_dir(name);
    let file = campaign(&dir, "campaign.toml", "inspect = true");
    let w = worker(data, &dir, &["--campaign", file.to_str().unwrap()]);
    (dir, w)
}

/// The submission's runs (file name in the zip → the real run of ../shared).
fn submission(data: &Path, runs: &[(&str, &str)]) -> Vec<(String, String)> {
    let subs = data.join("hipe2022/submissions");
    runs.iter()
        .map(|(inside, real)| {
            let text = std::fs::read_to_string(subs.join(format!("{real}.tsv"))).unwrap();
            (inside.to_string(), text)
        })
        .collect()
}

/// Scores the submission `files` in the run directory `name`: (the output directory, scores).
fn score(w: &Worker, name: &str, files: &[(String, String)]) -> (PathBuf, serde_json::Value) {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let (code, stderr, scores) = w.score(name, &refs);
    assert_eq!(code, 0, "{name}: {stderr}");
    let out = w.root.parent().unwrap().join(name).join("output");
    (out, scores.expect("scores.json"))
}

/// The `inspect_*.html` files of an output directory.
fn pages(out: &Path) -> BTreeSet<String> {
    std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("inspect_"))
        .collect()
}

/// The page `fairscore inspect` writes for the pair in `column`.
fn inspect_page(gold: &Path, run: &Path, column: &str, page: &Path) -> String {
    let o = fairscore(&[
        "inspect",
        "--format",
        "hipe",
        "--column",
        column,
        "--gold",
        gold.to_str().unwrap(),
        "--pred",
        run.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(page).unwrap()
}

#[test]
fn a_hipe_campaign_on_codabench_writes_and_links_a_page_per_nerc_column() {
    let Some(data) =
        shared_data("a_hipe_campaign_on_codabench_writes_and_links_a_page_per_nerc_column")
    else {
        return;
    };
    let (dir, w) = inspecting_worker(&data, "codabench_hipe_insight");
    // Bundle 3 (NERC coarse and fine) and bundle 5 (NEL, relaxed NEL) of two teams.
    let bundle3 = "neurbsl/neurbsl_bundle3_newseye_de_1.tsv";
    let bundle5 = "team5/team5_bundle5_newseye_de_1.tsv";
    let files = submission(
        &data,
        &[
            (bundle3, "neurbsl_bundle3_newseye_de_1"),
            (bundle5, "team5_bundle5_newseye_de_1"),
        ],
    );
    let run_dir = w.root.parent().unwrap().join("both");
    let (out, scores) = score(&w, "both", &files);
    let gold = run_dir.join("input/ref").join(GOLD);
    let run = run_dir.join("input/res").join(bundle3);
    let detailed = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    let nerc = [
        ("nerc_coarse_newseye_de__F1", "NE-COARSE-LIT"),
        ("nerc_fine_newseye_de__F1", "NE-FINE-LIT"),
    ];
    let want: BTreeSet<String> = nerc
        .iter()
        .map(|(k, _)| format!("inspect_{k}.html"))
        .collect();
    assert_eq!(pages(&out), want, "one page per NERC column with a run");
    for (key, column) in nerc {
        let name = format!("inspect_{key}.html");
        let page = std::fs::read_to_string(out.join(&name)).unwrap();
        // The page of `fairscore inspect` on the same files, byte for byte.
        let own = inspect_page(&gold, &run, column, &dir.join(format!("own_{key}.html")));
        assert!(page == own, "{name}: not the page of fairscore inspect");
        let (counts, gold_marks, run_marks) = page_counts(&page);
        let fair = fair_counts(&gold, &run, column);
        assert!(
            gold_marks > 0 && run_marks > 0 && fair["tTP"] > 0,
            "{fair:?}"
        );
        assert_eq!(counts, fair, "{key}: the page's counts and evaluate's");
        assert_eq!(
            detailed.matches(&format!("<a href=\"{name}\">")).count(),
            1,
            "{name} linked once"
        );
    }
    // The NEL columns have a run and no page: said on the detailed page, not linked.
    for key in ["nel_newseye_de__F1", "nel_relaxed_newseye_de__F1"] {
        assert!(
            detailed.contains(&format!("<li>{key}: no page (entity linking")),
            "{key}: why no page"
        );
        assert!(!out.join(format!("inspect_{key}.html")).exists(), "{key}");
        assert!(scores[key].as_f64().unwrap() > 0.0, "{key}: a run scored");
    }
    // The preset (no `inspect`): the same scores, no page and no list of pages.
    let plain = worker(
        &data,
        &temp_dir("codabench_hipe_insight_plain"),
        &["--preset", "hipe-2022"],
    );
    let (plain_out, plain_scores) = score(&plain, "both", &files);
    assert_eq!(plain_scores, scores);
    assert!(pages(&plain_out).is_empty());
    let plain_detailed = std::fs::read_to_string(plain_out.join("detailed_results.html")).unwrap();
    assert!(!plain_detailed.contains("Errors in their text"));
    assert!(detailed.contains("Errors in their text"));
}

#[test]
fn a_hostile_run_name_is_escaped_on_the_codabench_pages_of_a_hipe_campaign() {
    let Some(data) =
        shared_data("a_hostile_run_name_is_escaped_on_the_codabench_pages_of_a_hipe_campaign")
    else {
        return;
    };
    let (_, w) = inspecting_worker(&data, "codabench_hipe_insight_evil");
    let inside = format!("<b>&/{EVIL}.tsv");
    let files = submission(&data, &[(&inside, "team4_bundle4_newseye_de_2")]);
    let (out, scores) = score(&w, "evil", &files);
    let key = "nerc_coarse_newseye_de__F1";
    assert!(scores[key].as_f64().unwrap() > 0.0);
    // Bundle 4 is NERC coarse only: one page; the columns without a run are not listed.
    let name = format!("inspect_{key}.html");
    assert_eq!(pages(&out), BTreeSet::from([name.clone()]));
    let page = std::fs::read_to_string(out.join(&name)).unwrap();
    let detailed = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    for (what, text) in [("page", &page), ("detailed page", &detailed)] {
        assert!(
            !text.contains("ev<i>") && !text.contains("<b>&"),
            "{what}: the run's name unescaped"
        );
    }
    assert!(
        page.contains("ev&lt;i&gt;l&amp;co"),
        "the run named on its page"
    );
    assert!(detailed.contains("ev&lt;i&gt;l&amp;co"), "the run named");
    assert!(detailed.contains(&format!("<a href=\"{name}\">")));
    assert!(
        !detailed.contains("no page ("),
        "no column without a page listed"
    );
    let run = w
        .root
        .parent()
        .unwrap()
        .join("evil/input/res")
        .join(&inside);
    let gold = w.root.parent().unwrap().join("evil/input/ref").join(GOLD);
    assert_eq!(
        page_counts(&page).0,
        fair_counts(&gold, &run, "NE-COARSE-LIT")
    );
}
