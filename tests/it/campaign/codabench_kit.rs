//! The Codabench bundle's public data and starting kit: each gold blind in its own format
//! (CoNLL tags `O`, JSON exports without spans, brat texts with empty `.ann` files), a sample
//! submission that the scoring program, run as the worker runs it, accepts and scores, the
//! README's `fairscore check` commands (against the blind gold, with the task's label list),
//! and the task key `label_list` making an unknown run label a refusal.

use std::path::{Path, PathBuf};

use crate::common::worker::{zip_files, Worker};
use crate::common::{copy_dir, fairscore, shared_data, temp_dir};

const CAMPAIGN: &str = r#"name = "kit-test"

[[task]]
name = "ner"
family = "spans"
format = "conll"
gold = "ner.conll"
runs = "{team}_{run}.conll"
label_list = "lists/ner.txt"

[[task]]
name = "ents"
family = "spans"
gold = "ents-{lang}.jsonl"
runs = "{team}_{run}-{lang}.jsonl"

[[task]]
name = "seg"
family = "segmentation"
format = "text"
gold = "seg.txt"
runs = "{team}_{run}.txt"
"#;

/// A CoNLL gold of three cells a token (word, POS, tag), tab-separated, two documents.
fn conll_gold() -> String {
    let mut g = String::new();
    for d in 0..2 {
        g.push_str("-DOCSTART-\t-X-\tO\n\n");
        for s in 0..3 {
            for t in 0..6 {
                let tag = match (t + s + d) % 5 {
                    0 => "B-PER",
                    1 => "I-PER",
                    3 => "B-LOC",
                    _ => "O",
                };
                g.push_str(&format!("w{d}{s}{t}\tNN\t{tag}\n"));
            }
            g.push('\n');
        }
    }
    g
}

/// A doccano gold of three documents.
fn doccano_gold(lang: &str) -> String {
    (0..3)
        .map(|i| {
            format!(
                "{{\"id\": \"{lang}{i}\", \"text\": \"Ada Lovelace met Babbage in London {i}.\", \"label\": [[0, 12, \"PER\"], [28, 34, \"LOC\"]]}}\n"
            )
        })
        .collect()
}

fn write_fixture(dir: &Path) -> (PathBuf, PathBuf) {
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("ner.conll"), conll_gold()).unwrap();
    for lang in ["de", "en"] {
        std::fs::write(gold.join(format!("ents-{lang}.jsonl")), doccano_gold(lang)).unwrap();
    }
    std::fs::write(gold.join("seg.txt"), "ab cd ef\ngh ij\n").unwrap();
    std::fs::create_dir_all(dir.join("lists")).unwrap();
    std::fs::write(dir.join("lists/ner.txt"), "PER\nLOC\n").unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(&c, CAMPAIGN).unwrap();
    (gold, c)
}

/// The `fairscore check` commands of the starting kit's README, as argument lists without
/// the program.
fn readme_checks(readme: &str) -> Vec<Vec<String>> {
    readme
        .lines()
        .filter_map(|l| l.strip_prefix("./fairscore "))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Runs a README command in `kit` (the public data beside it), `--pred` replaced by `pred`
/// when given; returns (exit code, stdout).
fn run_check(kit: &Path, args: &[String], pred: Option<&Path>) -> (i32, String) {
    let mut args = args.to_vec();
    for (i, a) in args.clone().iter().enumerate() {
        if a == "--gold" || a == "--labels" || (a == "--pred" && pred.is_none()) {
            args[i + 1] = kit.join(&args[i + 1]).display().to_string();
        }
        if a == "--pred" {
            if let Some(p) = pred {
                args[i + 1] = p.display().to_string();
            }
        }
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = fairscore(&refs);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Unpacks the starting kit's sample submission beside the public data, as a participant
/// does, and returns the kit's folder.
fn participant(worker: &Worker, dir: &Path) -> PathBuf {
    let kit = dir.join("participant");
    let _ = std::fs::remove_dir_all(&kit);
    copy_dir(&worker.root.join("starting_kit"), &kit);
    copy_dir(&worker.root.join("public_data"), &kit.join("public_data"));
    crate::common::worker::unzip(&kit.join("sample_submission.zip"), &kit);
    kit
}

#[test]
fn the_public_data_is_the_gold_blind_and_the_sample_submission_scores() {
    let dir = temp_dir("codabench_kit");
    let (gold, campaign) = write_fixture(&dir);
    let worker = Worker::new(&dir, &gold, &campaign);
    assert_eq!(
        worker.keys,
        ["ner__F1", "ents_de__F1", "ents_en__F1", "seg__F1"]
    );
    let root = &worker.root;
    // CoNLL: every line kept but the tag cell, which is O.
    let g = std::fs::read_to_string(gold.join("ner.conll")).unwrap();
    let b = std::fs::read_to_string(root.join("public_data/ner.conll")).unwrap();
    assert_eq!(g.lines().count(), b.lines().count());
    assert!(g.contains("B-PER") && !b.contains("B-") && !b.contains("I-"));
    for (gl, bl) in g.lines().zip(b.lines()) {
        let (gc, bc): (Vec<&str>, Vec<&str>) = (gl.split('\t').collect(), bl.split('\t').collect());
        assert_eq!(gc.len(), bc.len(), "{gl:?} / {bl:?}");
        if gc.len() == 3 {
            assert_eq!(gc[..2], bc[..2]);
            assert_eq!(bc[2], "O");
        }
    }
    // doccano: the same documents and texts, no span.
    for lang in ["de", "en"] {
        let name = format!("ents-{lang}.jsonl");
        let g = std::fs::read_to_string(gold.join(&name)).unwrap();
        let b = std::fs::read_to_string(root.join("public_data").join(&name)).unwrap();
        assert_eq!(g.lines().count(), b.lines().count());
        for (gl, bl) in g.lines().zip(b.lines()) {
            let (gv, bv): (serde_json::Value, serde_json::Value) = (
                serde_json::from_str(gl).unwrap(),
                serde_json::from_str(bl).unwrap(),
            );
            assert_eq!(gv["text"], bv["text"]);
            assert_eq!(gv["id"], bv["id"]);
            assert_eq!(gv["label"].as_array().unwrap().len(), 2);
            assert_eq!(bv["label"].as_array().unwrap().len(), 0, "{bl}");
        }
    }
    // Segmentation has no blind version: not in the public data, nor a sample run.
    assert!(!root.join("public_data/seg.txt").exists());
    // The competition names both folders in its phase; the label list goes with the program.
    let yaml = std::fs::read_to_string(root.join("competition.yaml")).unwrap();
    assert!(yaml.contains("    starting_kit: starting_kit\n"), "{yaml}");
    assert!(yaml.contains("    public_data: public_data\n"), "{yaml}");
    assert_eq!(
        std::fs::read_to_string(root.join("scoring_program/lists/ner.txt")).unwrap(),
        "PER\nLOC\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("starting_kit/labels/ner.txt")).unwrap(),
        "PER\nLOC\n"
    );
    // The evaluation page: no `--gold GOLD` participants cannot run, every checked format.
    let eval = std::fs::read_to_string(root.join("pages/evaluation.md")).unwrap();
    assert!(!eval.contains("--gold GOLD "), "{eval}");
    for f in [
        "conll",
        "conllu",
        "tsv",
        "text",
        "brat",
        "doccano",
        "labelstudio",
        "prodigy",
    ] {
        assert!(eval.contains(&format!("`{f}`")), "{f}: {eval}");
    }
    assert!(eval.contains("--gold public_data/GOLD"), "{eval}");

    // The sample submission is accepted and scores 0 everywhere.
    let (code, stderr, scores) =
        worker.score_zip("sample", &root.join("starting_kit/sample_submission.zip"));
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.expect("scores.json");
    for k in &worker.keys {
        assert_eq!(scores[k].as_f64(), Some(0.0), "{k}: {scores}");
    }
    let page = std::fs::read_to_string(dir.join("sample/output/detailed_results.html")).unwrap();
    assert!(
        page.contains("seg__F1: no run in the submission"),
        "seg has no sample run"
    );
    assert!(!page.contains("ner__F1: no run"), "ner has its sample run");

    // The README's checks pass on the sample runs, without the gold.
    let kit = participant(&worker, &dir);
    let readme = std::fs::read_to_string(kit.join("README.md")).unwrap();
    let checks = readme_checks(&readme);
    assert_eq!(checks.len(), 3, "{readme}");
    assert!(
        checks[0].join(" ")
            == "check --format conll --gold public_data/ner.conll --pred sample_1.conll --labels labels/ner.txt",
        "{checks:?}"
    );
    for c in &checks {
        let (code, out) = run_check(&kit, c, None);
        assert_eq!(code, 0, "{c:?}: {out}");
    }
    // A run with a label outside the list fails that check, and the submission.
    let bad = conll_gold().replace("B-LOC", "B-ORG");
    std::fs::write(dir.join("team_1.conll"), &bad).unwrap();
    let (code, out) = run_check(&kit, &checks[0], Some(&dir.join("team_1.conll")));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"ORG\" is not in the label list"), "{out}");
    let (code, stderr, _) = worker.score("bad_label", &[("team_1.conll", bad.as_str())]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("\"ORG\" is not in the label list"),
        "{stderr}"
    );
    // The same run, its labels those of the list, is scored.
    let good = conll_gold();
    let (code, stderr, scores) = worker.score("good_label", &[("team_1.conll", good.as_str())]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(scores.unwrap()["ner__F1"].as_f64(), Some(1.0));
}

#[test]
fn a_brat_campaigns_kit_and_label_list() {
    let Some(data) = shared_data("codabench_kit_brat") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("codabench_kit_brat");
    let gold = dir.join("gold");
    copy_dir(&project.join("Lisa"), &gold.join("test"));
    // Lisa's labels but MISC.
    std::fs::write(dir.join("labels.txt"), "LOC\nORG\nPER\n").unwrap();
    let campaign = dir.join("campaign.toml");
    let text = "name = \"brat-ner\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\nlabel_list = \"labels.txt\"\n";
    std::fs::write(&campaign, text).unwrap();
    let worker = Worker::new(&dir, &gold, &campaign);
    // The texts, each with an empty .ann.
    let mut n = 0;
    for e in std::fs::read_dir(gold.join("test")).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        let public = worker.root.join("public_data/test").join(&name);
        if name.ends_with(".txt") {
            assert_eq!(
                std::fs::read(e.path()).unwrap(),
                std::fs::read(&public).unwrap()
            );
            n += 1;
        } else if name.ends_with(".ann") {
            assert!(!std::fs::read(e.path()).unwrap().is_empty());
            assert_eq!(std::fs::read(&public).unwrap(), b"", "{name}");
        }
    }
    assert!(n > 3);
    // The sample submission (a brat folder sample_1/) is accepted and scores 0.
    let (code, stderr, scores) = worker.score_zip(
        "sample",
        &worker.root.join("starting_kit/sample_submission.zip"),
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(scores.unwrap()["ner__F1"].as_f64(), Some(0.0));
    // Maria's folder has MISC spans: the label list refuses them, in the program and in the
    // README's check against the blind gold.
    let maria = dir.join("maria_1");
    copy_dir(&project.join("Maria"), &maria);
    let files: Vec<(String, PathBuf)> = std::fs::read_dir(&maria)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                format!("maria_1/{}", e.file_name().into_string().unwrap()),
                e.path(),
            )
        })
        .collect();
    let zip = dir.join("maria.zip");
    zip_files(&zip, &files);
    let (code, stderr, _) = worker.score_zip("maria", &zip);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("\"MISC\" is not in the label list"),
        "{stderr}"
    );
    let kit = participant(&worker, &dir);
    let checks = readme_checks(&std::fs::read_to_string(kit.join("README.md")).unwrap());
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(
        checks[0].join(" "),
        "check --format brat --gold public_data/test --pred sample_1 --labels labels/ner.txt"
    );
    assert_eq!(run_check(&kit, &checks[0], None).0, 0);
    let (code, out) = run_check(&kit, &checks[0], Some(&maria));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"MISC\" is not in the label list"), "{out}");
    // Without the label list, Maria's run is scored.
    std::fs::write(&campaign, text.replace("label_list = \"labels.txt\"\n", "")).unwrap();
    let worker = Worker::new(&dir, &gold, &campaign);
    let (code, stderr, scores) = worker.score_zip("maria_free", &zip);
    assert_eq!(code, 0, "{stderr}");
    assert!(scores.unwrap()["ner__F1"].as_f64().unwrap() > 0.5);
}

#[test]
fn a_label_list_outside_the_campaigns_folder_is_refused_by_the_bundle() {
    let dir = temp_dir("codabench_kit_list_outside");
    let (gold, campaign) = write_fixture(&dir);
    let binary = env!("CARGO_BIN_EXE_fairscore");
    for bad in ["../lists/ner.txt", "/tmp/ner.txt", "fairscore"] {
        let text = CAMPAIGN.replace(
            "label_list = \"lists/ner.txt\"",
            &format!("label_list = {bad:?}"),
        );
        std::fs::write(&campaign, text).unwrap();
        let out = fairscore(&[
            "codabench-bundle",
            "--campaign",
            &campaign.display().to_string(),
            "--gold-dir",
            &gold.display().to_string(),
            "--binary",
            binary,
            &dir.join("b.zip").display().to_string(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{bad}: {err}");
        assert!(err.contains("task ner: label_list:"), "{bad}: {err}");
        assert!(!dir.join("b.zip").exists(), "{bad}: nothing written");
    }
}
