//! A campaign of any input format: a brat gold (an annotator's folder of the real brat project
//! in `../shared`) and runs in brat folders, doccano, Label Studio, Prodigy and CoNLL (made with
//! `fairscore convert` from the other annotators' folders). `leaderboard --campaign` and the
//! Codabench bundle's scoring program, run as the worker runs it on each run submitted as a zip
//! (brat folders inside), give the same numbers and so the same rankings; systems are named
//! without extensions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::fixtures::{board_json, leaderboard};
use crate::common::worker::{zip_files, Worker};
use crate::common::{copy_dir, fairscore, shared_data, temp_dir};

const CAMPAIGN: &str = "name = \"brat-ner\"\n\
[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n\
[[task]]\nname = \"fair\"\nfamily = \"fair\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n";

/// The runs: (entry in the runs directory, whether it is a brat folder).
const RUNS: &[(&str, bool)] = &[
    ("alpha_1", true),
    ("bravo_1.jsonl", false),
    ("charlie_1.json", false),
    ("delta_1.jsonl", false),
    ("echo_1.conll", false),
];

fn run(args: &[&str]) {
    let out = fairscore(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn convert(from: &Path, to: &Path, format: &str, more: &[&str]) {
    let mut args = vec![
        "convert",
        "--in",
        from.to_str().unwrap(),
        "--out",
        to.to_str().unwrap(),
        "--out-format",
        format,
    ];
    args.extend_from_slice(more);
    run(&args);
}

/// Gold `gold/test` (Lisa) and the five runs in `runs/`, one per format.
fn lay_out(project: &Path, dir: &Path) {
    copy_dir(&project.join("Lisa"), &dir.join("gold/test"));
    copy_dir(&project.join("Maria"), &dir.join("runs/alpha_1"));
    let runs = dir.join("runs");
    convert(
        &project.join("Max"),
        &runs.join("bravo_1.jsonl"),
        "doccano",
        &[],
    );
    convert(
        &project.join("Peter"),
        &runs.join("charlie_1.json"),
        "labelstudio",
        &[],
    );
    // Max and Peter once more, less some types, so that every run scores differently.
    convert(
        &project.join("Max"),
        &runs.join("delta_1.jsonl"),
        "prodigy",
        &["--remove-types", "MISC"],
    );
    convert(
        &project.join("Peter"),
        &runs.join("echo_1.conll"),
        "conll",
        &["--to", "BIO", "--remove-types", "ORG"],
    );
}

/// Every file under `dir`, as (path relative to `dir`, path), in name order.
fn files_under(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        if e.path().is_dir() {
            for (rel, p) in files_under(&e.path()) {
                out.push((format!("{name}/{rel}"), p));
            }
        } else {
            out.push((name, e.path()));
        }
    }
    out.sort();
    out
}

/// The ranked F1 of each system of each task of `leaderboard.json`, and the systems in rank
/// order.
fn board(site: &Path) -> BTreeMap<String, (Vec<String>, BTreeMap<String, f64>)> {
    let v: serde_json::Value = board_json(site);
    let mut out = BTreeMap::new();
    for t in v["tables"].as_array().unwrap() {
        let rows = t["rows"].as_array().unwrap();
        let order = rows
            .iter()
            .map(|r| r["system"].as_str().unwrap().to_string())
            .collect();
        let f1 = rows
            .iter()
            .map(|r| {
                (
                    r["system"].as_str().unwrap().to_string(),
                    r["scores"]["F1"].as_f64().unwrap(),
                )
            })
            .collect();
        out.insert(t["task"].as_str().unwrap().to_string(), (order, f1));
    }
    out
}

#[test]
fn brat_gold_and_runs_of_every_format_rank_alike_on_codabench() {
    let Some(data) = shared_data("codabench_formats") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("codabench_formats");
    lay_out(&project, &dir);
    let campaign = dir.join("campaign.toml");
    std::fs::write(&campaign, CAMPAIGN).unwrap();
    let (gold, runs, site) = (dir.join("gold"), dir.join("runs"), dir.join("site"));
    leaderboard(&campaign, &gold, &runs, &site, &[]);
    let board = board(&site);
    let systems = ["alpha_1", "bravo_1", "charlie_1", "delta_1", "echo_1"];
    // Named without extensions, in leaderboard.json and in the per-run files.
    for task in ["ner", "fair"] {
        let (_, f1) = &board[task];
        assert_eq!(f1.keys().collect::<Vec<_>>(), systems, "{task}: {f1:?}");
    }
    let mut written: Vec<String> = std::fs::read_dir(site.join("runs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    written.sort();
    let mut want: Vec<String> = systems
        .iter()
        .flat_map(|s| [format!("{s}_fair.json"), format!("{s}_ner.json")])
        .collect();
    want.sort();
    assert_eq!(written, want);
    // The runs score differently, so the rankings say something.
    let ner = &board["ner"].1;
    let mut values: Vec<u64> = ner.values().map(|x| x.to_bits()).collect();
    values.sort_unstable();
    values.dedup();
    assert_eq!(values.len(), systems.len(), "{ner:?}");
    assert!(ner.values().all(|x| *x > 0.5 && *x < 1.0), "{ner:?}");

    // The bundle takes the brat gold folder; each run is one submission, zipped.
    let worker = Worker::new(&dir, &gold, &campaign);
    assert_eq!(worker.keys, ["ner__F1", "fair__F1"]);
    let mut scored: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for (entry, folder) in RUNS {
        let path = runs.join(entry);
        let system = entry.split('.').next().unwrap();
        // A brat run is its folder inside the zip; a file run sits in a folder of the zip.
        let inside: Vec<(String, PathBuf)> = if *folder {
            files_under(&path)
                .into_iter()
                .map(|(rel, p)| (format!("{entry}/{rel}"), p))
                .collect()
        } else {
            vec![(format!("submission/{entry}"), path.clone())]
        };
        let zip = dir.join(format!("{system}.zip"));
        zip_files(&zip, &inside);
        let (code, stderr, scores) = worker.score_zip(system, &zip);
        assert_eq!(code, 0, "{entry}: {stderr}");
        let scores = scores.unwrap_or_else(|| panic!("{entry}: no scores.json: {stderr}"));
        for (task, key) in [("ner", "ner__F1"), ("fair", "fair__F1")] {
            let v = scores[key].as_f64().unwrap();
            scored
                .entry(task.to_string())
                .or_default()
                .insert(system.to_string(), v);
        }
    }
    for (task, (order, f1)) in &board {
        // Every number exactly, and so the ranking.
        assert_eq!(&scored[task], f1, "{task}");
        let mut by_codabench: Vec<(&String, &f64)> = scored[task].iter().collect();
        by_codabench.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
        let by_codabench: Vec<&String> = by_codabench.into_iter().map(|(s, _)| s).collect();
        assert_eq!(by_codabench, order.iter().collect::<Vec<_>>(), "{task}");
    }

    // A brat folder and a file of the same run name are two runs for one column: refused.
    let two = dir.join("two.zip");
    let mut entries: Vec<(String, PathBuf)> = files_under(&runs.join("alpha_1"))
        .into_iter()
        .map(|(rel, p)| (format!("alpha_1/{rel}"), p))
        .collect();
    entries.push(("alpha_1.jsonl".into(), runs.join("bravo_1.jsonl")));
    zip_files(&two, &entries);
    let (code, stderr, scores) = worker.score_zip("two", &two);
    assert_eq!(code, 1, "{stderr}");
    assert!(scores.is_none());
    assert!(
        stderr.contains("2 runs for the column ner__F1 (alpha_1.jsonl, alpha_1)"),
        "{stderr}"
    );
}

/// In `leaderboard --campaign`, two runs that would be one system (`bravo_1.jsonl` and
/// `bravo_1.conll`) are neither ranked: each is listed as not scored, naming the other.
#[test]
fn runs_named_alike_but_for_the_extension_are_refused() {
    let Some(data) = shared_data("codabench_formats") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("codabench_formats_clash");
    copy_dir(&project.join("Lisa"), &dir.join("gold/test"));
    copy_dir(&project.join("Maria"), &dir.join("runs/alpha_1"));
    convert(
        &project.join("Max"),
        &dir.join("runs/bravo_1.jsonl"),
        "doccano",
        &[],
    );
    convert(
        &project.join("Peter"),
        &dir.join("runs/bravo_1.conll"),
        "conll",
        &["--to", "BIO"],
    );
    let campaign = dir.join("campaign.toml");
    std::fs::write(&campaign, CAMPAIGN).unwrap();
    let site = dir.join("site");
    let out = fairscore(&[
        "leaderboard",
        "--campaign",
        campaign.to_str().unwrap(),
        "--gold-dir",
        dir.join("gold").to_str().unwrap(),
        "--runs-dir",
        dir.join("runs").to_str().unwrap(),
        "--outdir",
        site.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let board = board(&site);
    assert_eq!(board["ner"].0, ["alpha_1"], "{stderr}");
    let v: serde_json::Value = board_json(&site);
    let not: Vec<(String, String)> = v["not_scored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["file"].as_str().unwrap().to_string(),
                n["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(not.len(), 2, "{not:?}");
    assert_eq!(not[0].0, "bravo_1.conll");
    assert!(
        not[0]
            .1
            .contains("bravo_1.jsonl also names the system bravo_1"),
        "{not:?}"
    );
    assert_eq!(not[1].0, "bravo_1.jsonl");
    assert!(not[1].1.contains("bravo_1.conll"), "{not:?}");
}

/// A campaign of one column takes a zip of `.ann` and `.txt` files alone (the submission's
/// top is the brat run), scored as `evaluate` scores the folder; a link inside a brat folder
/// refuses the submission, never followed.
#[test]
fn a_one_column_campaign_takes_a_brat_run_at_the_top_of_the_zip() {
    let Some(data) = shared_data("codabench_formats") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("codabench_formats_top");
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"one\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n",
    )
    .unwrap();
    let score = |name: &str, lay: &dyn Fn(&Path)| {
        let input = dir.join(name).join("input");
        copy_dir(&project.join("Lisa"), &input.join("ref/test"));
        lay(&input.join("res"));
        let output = dir.join(name).join("output");
        std::fs::create_dir_all(&output).unwrap();
        let out = fairscore(&[
            "codabench",
            "--campaign",
            campaign.to_str().unwrap(),
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ]);
        let scores: Option<serde_json::Value> = std::fs::read_to_string(output.join("scores.json"))
            .ok()
            .map(|t| serde_json::from_str(&t).unwrap());
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            scores,
        )
    };
    let (code, stderr, scores) = score("top", &|res| copy_dir(&project.join("Maria"), res));
    assert_eq!(code, Some(0), "{stderr}");
    let v = crate::common::fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        project.join("Lisa").to_str().unwrap(),
        "--pred",
        project.join("Maria").to_str().unwrap(),
        "--table",
        "json",
    ]);
    let want = v["tables"][0]["rows"][0]["scores"]["F1"].as_f64().unwrap();
    assert!(want > 0.5 && want < 1.0, "{v}");
    assert_eq!(scores.unwrap()["ner__F1"].as_f64(), Some(want));

    let (code, stderr, scores) = score("link", &|res| {
        let run = res.join("team_1");
        copy_dir(&project.join("Maria"), &run);
        let doc = "esp.train-doc-100.ann";
        std::fs::remove_file(run.join(doc)).unwrap();
        std::os::unix::fs::symlink(project.join("Lisa").join(doc), run.join(doc)).unwrap();
    });
    assert_eq!(code, Some(1), "{stderr}");
    assert!(scores.is_none());
    assert!(
        stderr.contains("team_1/esp.train-doc-100.ann: a symbolic link"),
        "{stderr}"
    );
}
