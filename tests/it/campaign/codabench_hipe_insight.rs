//! `inspect` pages of a HIPE campaign on Codabench (issue 35): a HIPE campaign file with
//! `inspect = true`, bundled with `codabench-bundle --campaign FILE --resources DIR`, and its
//! scoring program run as Codabench's worker runs it (`tests/common/worker.rs`) on real
//! HIPE-2022 newseye-de runs. Each NERC column with a run gets its page embedded in
//! `detailed_results.html` (issue 46.7: Codabench uploads that file alone; no other file is
//! written); with `reveal_gold = true` the page is byte for byte the page `fairscore inspect
//! --format hipe --column COLUMN` writes for the same gold and run, and its counts equal those
//! of `evaluate --family fair` on that pair (an independent run of the binary, read as
//! `families::inspect` reads a page). Without it (issue 47.1) the page marks the run's own
//! spans only. A NEL column with a run has no page, and the detailed page says so; a column
//! without a run is not listed. A hostile run name comes out escaped. The preset, without
//! `inspect`, embeds no page and gives the same scores.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::breakdown_hipe::campaign;
use super::insight_hipe::fair_counts;
use crate::common::worker::{embedded_pages, Worker};
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
/// and `more` (a campaign file of those lines and the preset's text).
fn inspecting_worker(data: &Path, name: &str, more: &str) -> (PathBuf, Worker) {
    let dir = temp_dir(name);
    let file = campaign(&dir, "campaign.toml", &format!("inspect = true\n{more}"));
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

/// The files of an output directory.
fn written(out: &Path) -> BTreeSet<String> {
    std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The only files the program writes.
fn outputs() -> BTreeSet<String> {
    ["detailed_results.html", "scores.json"]
        .map(String::from)
        .into()
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
    let (dir, w) = inspecting_worker(&data, "codabench_hipe_insight", "reveal_gold = true");
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
    let embedded = embedded_pages(&detailed);
    let want: BTreeSet<&str> = nerc.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        embedded.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        want,
        "one page per NERC column with a run"
    );
    assert_eq!(
        written(&out),
        outputs(),
        "the pages are in the detailed page"
    );
    for (key, column) in nerc {
        let page = &embedded[key];
        // The page of `fairscore inspect` on the same files, byte for byte.
        let own = inspect_page(&gold, &run, column, &dir.join(format!("own_{key}.html")));
        assert!(*page == own, "{key}: not the page of fairscore inspect");
        let (counts, gold_marks, run_marks) = page_counts(page);
        let fair = fair_counts(&gold, &run, column);
        assert!(
            gold_marks > 0 && run_marks > 0 && fair["tTP"] > 0,
            "{fair:?}"
        );
        assert_eq!(counts, fair, "{key}: the page's counts and evaluate's");
        assert!(
            !detailed.contains("<a href="),
            "no link to a file never uploaded"
        );
    }
    // The NEL columns have a run and no page: said on the detailed page.
    for key in ["nel_newseye_de__F1", "nel_relaxed_newseye_de__F1"] {
        assert!(
            detailed.contains(&format!("<p>{key}: no page (entity linking")),
            "{key}: why no page"
        );
        assert!(!embedded.contains_key(key), "{key}");
        assert!(scores[key].as_f64().unwrap() > 0.0, "{key}: a run scored");
    }
    // Without reveal_gold (issue 47.1): the same scores, pages of the run's spans only, each
    // run span marked as on the revealing page, with its type and label.
    let (_, hidden) = inspecting_worker(&data, "codabench_hipe_insight_hidden", "");
    let (hidden_out, hidden_scores) = score(&hidden, "both", &files);
    assert_eq!(hidden_scores, scores);
    let hidden_pages =
        embedded_pages(&std::fs::read_to_string(hidden_out.join("detailed_results.html")).unwrap());
    for (key, _) in nerc {
        let (page, full) = (&hidden_pages[key], &embedded[key]);
        let (_, gold_marks, run_marks) = page_counts(page);
        assert_eq!(gold_marks, 0, "{key}: a gold span on a participant's page");
        assert_eq!(
            run_marks,
            page_counts(full).2,
            "{key}: every run span marked"
        );
        assert!(
            full.contains("\">gold ") && !page.contains("\">gold "),
            "{key}: a gold span listed"
        );
        assert!(
            full.contains("<li class=\"e fn") && !page.contains("<li class=\"e fn"),
            "{key}: a missed span listed"
        );
    }
    // The preset (no `inspect`): the same scores, no page and no list of pages.
    let plain = worker(
        &data,
        &temp_dir("codabench_hipe_insight_plain"),
        &["--preset", "hipe-2022"],
    );
    let (plain_out, plain_scores) = score(&plain, "both", &files);
    assert_eq!(plain_scores, scores);
    assert_eq!(written(&plain_out), outputs());
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
    let (_, w) = inspecting_worker(&data, "codabench_hipe_insight_evil", "");
    let inside = format!("<b>&/{EVIL}.tsv");
    let files = submission(&data, &[(&inside, "team4_bundle4_newseye_de_2")]);
    let (out, scores) = score(&w, "evil", &files);
    let key = "nerc_coarse_newseye_de__F1";
    assert!(scores[key].as_f64().unwrap() > 0.0);
    // Bundle 4 is NERC coarse only: one page; the columns without a run are not listed.
    let detailed = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    let embedded = embedded_pages(&detailed);
    assert_eq!(
        embedded.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        BTreeSet::from([key])
    );
    let page = embedded[key].clone();
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
    // The gold is hidden: no gold span, no missed one; every run error with its type.
    let (counts, gold_marks, run_marks) = page_counts(&page);
    let fair = fair_counts(&gold, &run, "NE-COARSE-LIT");
    assert_eq!((gold_marks, counts["FN"]), (0, 0));
    assert!(run_marks > 0);
    for k in ["FP", "LE", "BES", "BEL", "BEO", "LBE", "tFP"] {
        assert_eq!(counts[k], fair[k], "{k}");
    }
}
