//! Breakdowns and `inspect` pages in a campaign of family tasks (issue 35): on real HIPE-2022
//! runs, each run's breakdown buckets in `leaderboard.json` add up to its TP, FP and FN (of
//! `evaluate --family spans` on the same pair, an independent run of the binary), each run's
//! page exists, is linked from `index.html` and `leaderboard.md`, and shows the counts of
//! `evaluate --family fair` on the pair (read as `families::inspect` reads a page). Hostile
//! run names and labels come out escaped; the keys a family does not take are refused naming
//! the campaign file, the task and the key.

use super::fixtures::{board_json, dirs, hostile, leaderboard, run_leaderboard};
use crate::common::schema::{assert_valid, validator};
use crate::common::worker::Worker;
use crate::common::{fairscore_json, json_cell, shared_data, temp_dir};
use crate::families::inspect::{evaluate_counts, page_counts};

/// The sums of a breakdown's columns over its buckets: (TP-gold, FN, TP-run, FP).
fn bucket_sums(rows: &serde_json::Value) -> [u64; 4] {
    let mut s = [0; 4];
    for r in rows.as_array().unwrap() {
        for (k, c) in ["TP-gold", "FN", "TP-run", "FP"].iter().enumerate() {
            s[k] += r[*c].as_u64().unwrap();
        }
    }
    s
}

#[test]
fn hipe_runs_get_breakdowns_and_linked_pages_with_their_counts() {
    let Some(data) = shared_data("hipe_runs_get_breakdowns_and_linked_pages_with_their_counts")
    else {
        return;
    };
    let dir = temp_dir("campaign_insight_hipe");
    let (gold, runs, out) = dirs(&dir);
    let g = "HIPE-2022-v2.1-newseye-test-de.tsv";
    std::fs::copy(data.join("hipe2022/gold").join(g), gold.join(g)).unwrap();
    let systems = [
        "neurbsl_bundle3_newseye_de_1",
        "team4_bundle4_newseye_de_1",
        "team4_bundle4_newseye_de_2",
    ];
    for s in systems {
        let f = format!("{s}.tsv");
        std::fs::copy(data.join("hipe2022/submissions").join(&f), runs.join(&f)).unwrap();
    }
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        format!(
            "name = \"insight\"\ninspect = true\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\n\
             format = \"hipe\"\ngold = \"{g}\"\nruns = \"{{team}}_bundle{{bundle}}_newseye_de_{{run}}.tsv\"\n\
             breakdown = [\"label\", \"length\"]\n"
        ),
    )
    .unwrap();
    leaderboard(&campaign, &gold, &runs, &out, &[]);
    let board: serde_json::Value = board_json(&out);
    assert_valid(&validator("leaderboard"), "leaderboard.json", &board);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    let rows = board["tables"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), systems.len());
    for row in rows {
        let system = row["system"].as_str().unwrap();
        let run = runs.join(format!("{system}.tsv"));
        let v = fairscore_json(&[
            "evaluate",
            "--family",
            "spans",
            "--format",
            "hipe",
            "--gold",
            gold.join(g).to_str().unwrap(),
            "--pred",
            run.to_str().unwrap(),
            "--json",
            "-",
        ]);
        let n = |c: &str| json_cell(&v, "strict", &["ALL"], c).unwrap() as u64;
        let (tp, fp, fn_) = (n("TP"), n("FP"), n("FN"));
        assert!(tp > 0 && fp > 0 && fn_ > 0, "{system}: {tp} {fp} {fn_}");
        for key in ["label", "length"] {
            let b = &row["breakdown"][key];
            assert!(
                b.as_array().is_some_and(|a| a.len() > 1),
                "{system} {key}: {b}"
            );
            assert_eq!(bucket_sums(b), [tp, fn_, tp, fp], "{system} {key}");
        }
        // The page: written, linked (relative) from the page and the Markdown, its counts
        // those of the fair evaluation of the pair.
        let link = row["inspect"].as_str().unwrap();
        assert_eq!(link, format!("inspect/{system}_ner.html"));
        assert!(
            index.contains(&format!("<a href=\"inspect&#x2F;{system}_ner.html\"")),
            "{system}: no link in index.html"
        );
        assert!(
            md.contains(&format!("]({link})")),
            "{system}: no link in the Markdown"
        );
        let page = std::fs::read_to_string(out.join(link)).unwrap();
        let (counts, _, _) = page_counts(&page);
        assert_eq!(counts, evaluate_counts(&gold.join(g), &run), "{system}");
        assert_eq!(counts["tTP"], tp, "{system}: exact matches are strict TP");
    }
    // Each run's drill-down: one collapsed table per breakdown key.
    assert_eq!(
        index
            .matches("<summary>breakdown by label</summary>")
            .count(),
        systems.len()
    );
    assert_eq!(
        index
            .matches("<summary>breakdown by length</summary>")
            .count(),
        systems.len()
    );
    assert_eq!(
        md.matches("breakdown by length</summary>").count(),
        systems.len()
    );
    // The site moves as a whole: the links are relative.
    let moved = dir.join("moved");
    std::fs::rename(&out, &moved).unwrap();
    assert!(moved.join(rows[0]["inspect"].as_str().unwrap()).is_file());
}

#[test]
fn hostile_names_and_labels_are_escaped_and_linked_safely() {
    let dir = temp_dir("campaign_insight_hostile");
    let (gold, runs) = hostile(&dir);
    let out = dir.join("site");
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"hostile\"\n[[task]]\nname = \"ner\"\nfamily = \"fair\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nbreakdown = \"label,length\"\n",
    )
    .unwrap();
    leaderboard(&campaign, &gold, &runs, &out, &["--inspect"]);
    let board: serde_json::Value = board_json(&out);
    assert_valid(&validator("leaderboard"), "leaderboard.json", &board);
    let rows = board["tables"][0]["rows"].as_array().unwrap();
    let evil = rows.iter().find(|r| r["system"] == "ev<i>l&co_1").unwrap();
    let labels: Vec<&str> = evil["breakdown"]["label"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bucket"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"<x>&'q"), "{labels:?}");
    assert_eq!(evil["inspect"], "inspect/ev<i>l&co_1_ner.html");
    assert!(out.join("inspect/ev<i>l&co_1_ner.html").is_file());
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for raw in ["<x>", "ev<i>", "<b>Mary"] {
        assert!(!index.contains(raw), "{raw} unescaped in index.html");
    }
    assert!(
        index.contains("&lt;x&gt;&amp;&#x27;q"),
        "the label, escaped"
    );
    assert!(
        index.contains("<a href=\"inspect&#x2F;ev%3Ci%3El%26co_1_ner.html\""),
        "the link, URL-encoded"
    );
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    assert!(!md.contains("<x>") && !md.contains("ev<i>"), "{md}");
    assert!(md.contains("](inspect/ev%3Ci%3El%26co_1_ner.html)"), "{md}");
}

#[test]
fn keys_a_task_cannot_take_are_refused_naming_file_task_and_key() {
    let dir = temp_dir("campaign_insight_refused");
    let (gold, runs) = hostile(&dir);
    let out = dir.join("site");
    let campaign = dir.join("campaign.toml");
    let task = |family: &str, extra: &str| {
        format!(
            "name = \"refused\"\n[[task]]\nname = \"t1\"\nfamily = \"{family}\"\nformat = \"conll\"\n\
             gold = \"test.conll\"\nruns = \"{{team}}_{{run}}.conll\"\n{extra}\n"
        )
    };
    for (text, key) in [
        (task("tagging", "breakdown = [\"label\"]"), "breakdown"),
        (task("fair", "train = \"train.conll\""), "train"),
        (
            task("spans", "train = \"../train.conll\"\nbreakdown = \"oov\""),
            "train",
        ),
        (task("muc", "inspect = true"), "inspect"),
    ] {
        std::fs::write(&campaign, &text).unwrap();
        let o = run_leaderboard(&campaign, &gold, &runs, &out, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{text}");
        assert!(
            err.contains("campaign.toml") && err.contains("task t1") && err.contains(key),
            "{text}\n{err}"
        );
        let line = text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
        assert!(err.contains(&format!(":{line}:")), "line {line}: {err}");
    }
    // --inspect on a campaign without a span task.
    std::fs::write(&campaign, task("muc", "")).unwrap();
    let o = run_leaderboard(&campaign, &gold, &runs, &out, &["--inspect"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--inspect"));
}

/// A task's `train` file is read relative to the campaign file: the oov buckets of a run are
/// those `evaluate --train` gives for the same file.
#[test]
fn a_train_file_beside_the_campaign_feeds_the_oov_breakdown() {
    let dir = temp_dir("campaign_insight_train");
    let (gold, runs) = hostile(&dir);
    let out = dir.join("site");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let train = "-DOCSTART- O\n\nJohn B-PER\nsaw O\nYork B-LOC\n\n";
    std::fs::write(dir.join("data/train.conll"), train).unwrap();
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"train\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nbreakdown = \"oov\"\n\
         train = \"data/train.conll\"\n",
    )
    .unwrap();
    // Run from elsewhere: the path is the campaign file's, not the working directory's.
    leaderboard(&campaign, &gold, &runs, &out, &[]);
    let board: serde_json::Value = board_json(&out);
    let evil = board["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["system"] == "ev<i>l&co_1")
        .unwrap()
        .clone();
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--format",
        "conll",
        "--gold",
        gold.join("test.conll").to_str().unwrap(),
        "--pred",
        runs.join("ev<i>l&co_1.conll").to_str().unwrap(),
        "--breakdown",
        "oov",
        "--train",
        dir.join("data/train.conll").to_str().unwrap(),
        "--json",
        "-",
    ]);
    let want = crate::common::json_table(&v, "breakdown:oov")["rows"]
        .as_array()
        .unwrap()
        .clone();
    let got = evil["breakdown"]["oov"].as_array().unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g["bucket"], w["key"]["bucket"], "{g} {w}");
        assert_eq!(g["FN"].as_f64(), w["scores"]["FN"].as_f64(), "{g} {w}");
        assert_eq!(g["FP"].as_f64(), w["scores"]["FP"].as_f64(), "{g} {w}");
    }
}

/// The Codabench scoring program embeds the submission's page in its detailed results (issue
/// 46.7; with `reveal_gold = true`, the page of `fairscore inspect`) and shows the breakdown
/// tables; the bundle ships the task's training file beside the campaign file.
#[test]
fn codabench_writes_and_links_the_page_and_shows_breakdowns() {
    let dir = temp_dir("campaign_insight_codabench");
    let (gold, runs) = hostile(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let train = "-DOCSTART- O\n\nJohn B-PER\nsaw O\nYork B-LOC\n\n";
    std::fs::write(dir.join("data/train.conll"), train).unwrap();
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"cb\"\ninspect = true\nreveal_gold = true\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\n\
         format = \"conll\"\ngold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\n\
         breakdown = [\"label\", \"oov\"]\ntrain = \"data/train.conll\"\n",
    )
    .unwrap();
    let worker = Worker::new(&dir, &gold, &campaign);
    assert!(worker
        .root
        .join("scoring_program/data/train.conll")
        .is_file());
    let run = std::fs::read_to_string(runs.join("ev<i>l&co_1.conll")).unwrap();
    let (code, stderr, scores) = worker.score("one", &[("alpha_1.conll", &run)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(scores.is_some());
    let output = worker.root.parent().unwrap().join("one/output");
    let key = &worker.keys[0];
    let detailed = std::fs::read_to_string(output.join("detailed_results.html")).unwrap();
    let pages = crate::common::worker::embedded_pages(&detailed);
    let (counts, _, _) = page_counts(&pages[key.as_str()]);
    assert_eq!(
        counts,
        evaluate_counts(&gold.join("test.conll"), &runs.join("ev<i>l&co_1.conll"))
    );
    for k in ["label", "oov"] {
        assert!(
            detailed.contains(&format!("<h2>ner F1 (spans): Breakdown by {k} (")),
            "the breakdown by {k} on the detailed page"
        );
    }
    assert!(!detailed.contains("<x>"), "labels escaped");
}
