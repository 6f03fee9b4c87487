//! Bundles of four campaigns through an emulation of Codabench (`scripts/codabench_emulate.py`,
//! written from a reading of Codabench's unpacker, models and compute worker): a brat gold (an
//! annotator's folder of the bratiaa project, with the README and `annotation.conf` a brat
//! corpus holds), a brat gold in sub-folders as brat's own CoNLL-ST_2002 corpus (`esp/`,
//! `ned/`), the HIPE-2022 preset on its real gold, and a campaign ranked by an error count
//! (`rank_by = "FP"`). Each bundle must pass the upload (names within Codabench's field
//! lengths, dates read as written, an automatic submission rule, detailed results not public)
//! and the worker (the scoring program run as the worker runs it on the starting kit's sample
//! submission: exit 0, every leaderboard column in `scores.json`, each value stored by
//! numeric(20,10)), the sample scoring on every column it has a run for; no participant-visible
//! file (public data, starting kit, pages, the scoring output and log) shows a gold annotation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::worker::unzip;
use crate::common::{fairscore, shared_data, temp_dir};

/// The phase's dates: a noon deadline must stay at noon.
const START: &str = "2026-03-01 12:00:00";
const END: &str = "2026-06-30 12:00:00";

/// The MISC flags that describe the layout of a HIPE text (docs/codabench.md, "Blind golds").
const LAYOUT: &[&str] = &[
    "NoSpaceAfter",
    "EndOfLine",
    "EndOfSentence",
    "EndOfParagraph",
    "PySBDSegment",
];

/// Writes the bundle of `args` (the campaign flags) with the test binary; returns the zip.
fn bundle(dir: &Path, args: &[String]) -> PathBuf {
    let zip = dir.join("bundle.zip");
    let mut all: Vec<String> = vec!["codabench-bundle".into()];
    all.extend(args.iter().cloned());
    for a in [
        "--binary",
        env!("CARGO_BIN_EXE_fairscore"),
        "--phase-start",
        START,
        "--phase-end",
        END,
    ] {
        all.push(a.into());
    }
    all.push(zip.display().to_string());
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = fairscore(&refs);
    assert!(
        out.status.success(),
        "codabench-bundle: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    zip
}

/// What the emulation made of the bundle and the starting kit's sample submission, with the
/// bundle unpacked under `dir/work/bundle`.
fn emulate(dir: &Path, zip: &Path) -> serde_json::Value {
    let kit = dir.join("kit");
    let _ = std::fs::remove_dir_all(&kit);
    unzip(zip, &kit);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/codabench_emulate.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(zip)
        .arg(kit.join("starting_kit/sample_submission.zip"))
        .arg(dir.join("work"))
        .output()
        .expect("python3 runs the emulation");
    assert!(
        out.status.success(),
        "the emulation failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the emulation prints JSON")
}

/// Every file under `dir`, as (path relative to it, path).
fn files_under(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push((rel, p));
            }
        }
    }
    out.sort();
    out
}

/// The gold's annotations as a participant-visible file would show them: brat `.ann` lines
/// (`TYPE START END`) and the lines of token files whose tag is not `O`; and the gold's
/// mentions of two words or more (the texts show them, the scoring's output must not).
fn gold_marks(gold: &Path) -> (Vec<String>, Vec<String>) {
    let (mut marks, mut mentions) = (BTreeSet::new(), BTreeSet::new());
    for (rel, p) in files_under(gold) {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if rel.ends_with(".ann") {
            for l in text.lines().filter(|l| l.starts_with('T')) {
                let cells: Vec<&str> = l.split('\t').collect();
                if cells.len() == 3 {
                    marks.insert(cells[1].to_string());
                    if cells[2].split_whitespace().count() > 1 {
                        mentions.insert(cells[2].to_string());
                    }
                }
            }
        } else if !rel.ends_with(".txt") {
            for l in text.lines() {
                let cells: Vec<&str> = l.split(['\t', ' ']).collect();
                if cells.len() > 1 && cells[1].len() > 2 && cells[1].as_bytes()[1] == b'-' {
                    marks.insert(l.trim_end().to_string());
                }
            }
        }
    }
    (marks.into_iter().collect(), mentions.into_iter().collect())
}

/// The checks every bundle must pass; `expected` gives the value of each column the sample
/// submission has a run for (`None`: every column has one, scoring 0). Returns the
/// emulation's report.
fn passes(
    dir: &Path,
    zip: &Path,
    gold: &Path,
    expected: Option<&[(&str, f64)]>,
) -> serde_json::Value {
    let r = emulate(dir, zip);
    let root = dir.join("work/bundle");
    assert_eq!(
        r["violations"],
        serde_json::json!([]),
        "Codabench's rules broken; scoring log:\n{}",
        r["stderr"].as_str().unwrap_or("")
    );
    let facts = &r["facts"];
    // The docs promise that a submission's scores appear on the leaderboard.
    let rule = facts["leaderboards"][0]["submission_rule"]
        .as_str()
        .unwrap();
    assert!(
        ["Force_Last", "Force_Latest_Multiple", "Force_Best"].contains(&rule),
        "submission rule {rule}: scores wait for each participant to add them"
    );
    assert_eq!(facts["show_detailed_results_in_leaderboard"], false);
    assert_eq!(facts["phases"][0]["start"], START);
    assert_eq!(facts["phases"][0]["end"], END);
    assert_eq!(facts["docker_image"], "codalab/codalab-legacy:py37");
    // The sample scores on every column it has a run for.
    let scores = &r["scores"];
    let stderr = r["stderr"].as_str().unwrap();
    let every: Vec<(&str, f64)> = facts["leaderboards"][0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap(), 0.0))
        .collect();
    for (key, want) in expected.unwrap_or(&every) {
        assert_eq!(scores[key].as_f64(), Some(*want), "{key}: {scores}");
        assert!(
            !stderr.contains(&format!("{key}: no run in the submission")),
            "{key}: the sample's run was not found: {stderr}"
        );
    }
    // No gold annotation in what participants see (the sample submission unpacked), no gold
    // mention in what the scoring program shows them.
    let (marks, mentions) = gold_marks(gold);
    assert!(!marks.is_empty());
    let sample = dir.join("sample");
    unzip(&root.join("starting_kit/sample_submission.zip"), &sample);
    let mut visible: Vec<(String, String)> = Vec::new();
    for (folder, at) in [
        ("starting_kit", root.join("starting_kit")),
        ("public_data", root.join("public_data")),
        ("pages", root.join("pages")),
        ("the sample submission", sample),
    ] {
        for (rel, p) in files_under(&at)
            .into_iter()
            .filter(|(r, _)| !r.ends_with(".zip"))
        {
            let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
            visible.push((format!("{folder}/{rel}"), text));
        }
    }
    let from_scoring = visible.len();
    let out = PathBuf::from(r["output_dir"].as_str().unwrap());
    for (rel, p) in files_under(&out) {
        visible.push((format!("output/{rel}"), std::fs::read_to_string(p).unwrap()));
    }
    visible.push(("the scoring log".into(), stderr.to_string()));
    visible.push((
        "the scoring output".into(),
        r["stdout"].as_str().unwrap().into(),
    ));
    for (i, (name, text)) in visible.iter().enumerate() {
        if let Some(m) = marks.iter().find(|m| text.contains(m.as_str())) {
            panic!("{name} shows the gold annotation {m:?}");
        }
        if let Some(m) = mentions
            .iter()
            .find(|m| i >= from_scoring && text.contains(m.as_str()))
        {
            panic!("{name} shows the gold mention {m:?}");
        }
    }
    r
}

/// A brat public data: an empty `.ann` beside each document's `.txt`, nothing else.
fn brat_public_is_blind(public: &Path, gold: &Path) {
    let docs: BTreeSet<String> = files_under(gold)
        .into_iter()
        .filter_map(|(rel, _)| rel.strip_suffix(".ann").map(str::to_string))
        .collect();
    let mut seen = BTreeSet::new();
    for (rel, p) in files_under(public) {
        if let Some(stem) = rel.strip_suffix(".ann") {
            assert_eq!(std::fs::read(&p).unwrap(), b"", "{rel}");
            assert!(docs.contains(stem), "{rel}: no document of the gold");
        } else {
            let stem = rel
                .strip_suffix(".txt")
                .unwrap_or_else(|| panic!("{rel}: published, but no document of the gold"));
            assert!(docs.contains(stem), "{rel}: no document of the gold");
            assert_eq!(
                std::fs::read(&p).unwrap(),
                std::fs::read(gold.join(&rel)).unwrap()
            );
            seen.insert(stem.to_string());
        }
    }
    assert_eq!(seen, docs, "every document's text published");
}

/// A brat gold as a brat corpus holds it: an annotator's documents of the bratiaa project,
/// under `sub` folders (none: at the top), with a README and the configuration files.
fn brat_gold(data: &Path, gold: &Path, subs: &[&str]) {
    let project = data.join("brat/bratiaa-example/example-project");
    let mut docs: Vec<String> = std::fs::read_dir(project.join("Lisa"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".ann").map(str::to_string))
        .collect();
    docs.sort();
    for (i, d) in docs.iter().enumerate() {
        let to = match subs {
            [] => gold.to_path_buf(),
            _ => gold.join(subs[i % subs.len()]),
        };
        std::fs::create_dir_all(&to).unwrap();
        for ext in ["ann", "txt"] {
            let name = format!("{d}.{ext}");
            std::fs::copy(project.join("Lisa").join(&name), to.join(&name)).unwrap();
        }
    }
    std::fs::copy(project.join("README"), gold.join("README.txt")).unwrap();
    std::fs::copy(
        project.join("annotation.conf"),
        gold.join("annotation.conf"),
    )
    .unwrap();
    for s in subs {
        std::fs::copy(project.join("tools.conf"), gold.join(s).join("tools.conf")).unwrap();
    }
}

#[test]
fn a_brat_corpus_bundle_passes_codabench() {
    let Some(data) = shared_data("a_brat_corpus_bundle_passes_codabench") else {
        return;
    };
    let dir = temp_dir("codabench_emulation_brat");
    let gold = dir.join("gold");
    brat_gold(&data, &gold.join("test"), &[]);
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"brat-ner\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n",
    )
    .unwrap();
    let zip = bundle(
        &dir,
        &[
            "--campaign".into(),
            campaign.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
        ],
    );
    passes(&dir, &zip, &gold, Some(&[("ner__F1", 0.0)]));
    brat_public_is_blind(
        &dir.join("work/bundle/public_data/test"),
        &gold.join("test"),
    );
}

#[test]
fn a_brat_corpus_in_folders_passes_codabench() {
    let Some(data) = shared_data("a_brat_corpus_in_folders_passes_codabench") else {
        return;
    };
    let dir = temp_dir("codabench_emulation_brat_tree");
    let gold = dir.join("gold");
    brat_gold(&data, &gold.join("test"), &["esp", "ned"]);
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"brat-ner\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n\
         [[task]]\nname = \"fair\"\nfamily = \"fair\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n",
    )
    .unwrap();
    let zip = bundle(
        &dir,
        &[
            "--campaign".into(),
            campaign.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
        ],
    );
    passes(
        &dir,
        &zip,
        &gold,
        Some(&[("ner__F1", 0.0), ("fair__F1", 0.0)]),
    );
    brat_public_is_blind(
        &dir.join("work/bundle/public_data/test"),
        &gold.join("test"),
    );
}

#[test]
fn the_hipe_2022_bundle_passes_codabench() {
    let Some(data) = shared_data("the_hipe_2022_bundle_passes_codabench") else {
        return;
    };
    let dir = temp_dir("codabench_emulation_hipe");
    let gold = data.join("hipe2022/gold");
    let zip = bundle(
        &dir,
        &[
            "--preset".into(),
            "hipe-2022".into(),
            "--resources".into(),
            data.join("hipe2022/resources").display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
        ],
    );
    // Every column has a sample run (each gold has its blind version): all score 0.
    let r = passes(&dir, &zip, &gold, None);
    let cols = r["facts"]["leaderboards"][0]["columns"].as_array().unwrap();
    assert!(cols.len() > 20, "{cols:?}");
    // The public data: each gold blind, MISC keeping only the layout flags that annotations
    // do not place.
    for (rel, p) in files_under(&dir.join("work/bundle/public_data")) {
        let text = std::fs::read_to_string(&p).unwrap();
        let g = std::fs::read_to_string(gold.join(&rel)).unwrap();
        assert_eq!(text.lines().count(), g.lines().count(), "{rel}");
        let header: Vec<&str> = text.lines().next().unwrap().split('\t').collect();
        for l in text.lines().skip(1) {
            if l.starts_with('#') || l.trim().is_empty() {
                continue;
            }
            for (h, c) in header.iter().zip(l.split('\t')) {
                match *h {
                    "TOKEN" => {}
                    "MISC" => {
                        for flag in c.split('|').filter(|f| *f != "_") {
                            assert!(LAYOUT.contains(&flag), "{rel}: MISC {flag:?} kept");
                        }
                    }
                    h if h.starts_with("NE-") => assert_eq!(c, "O", "{rel}: {h}"),
                    h => assert_eq!(c, "_", "{rel}: {h}"),
                }
            }
        }
    }
}

/// CoNLL gold lines: three sentences of tokens, some entities.
const CONLL: &str = "-DOCSTART- O\n\nAda B-PER\nLovelace I-PER\nmet O\nBabbage B-PER\n\nin O\nLondon B-LOC\n. O\n\nThe O\nRoyal B-ORG\nSociety I-ORG\nlistened O\n";

#[test]
fn a_campaign_ranked_by_fp_passes_codabench() {
    let dir = temp_dir("codabench_emulation_fp");
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("ner.conll"), CONLL).unwrap();
    // A span file has no blind version: its column has no sample run.
    std::fs::write(
        gold.join("spans.tsv"),
        "PER\t1\t2\nPER\t4\t4\n\nLOC\t2\t2\n",
    )
    .unwrap();
    let campaign = dir.join("campaign.toml");
    std::fs::write(
        &campaign,
        "name = \"errors\"\n\
         [[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"ner.conll\"\nruns = \"{team}_{run}.conll\"\nrank_by = \"FP\"\n\
         [[task]]\nname = \"nerf\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"ner.conll\"\nruns = \"{team}_{run}.conll\"\n\
         [[task]]\nname = \"spans\"\nfamily = \"fair\"\ngold = \"spans.tsv\"\nruns = \"{team}_{run}.tsv\"\nrank_by = \"FP\"\n",
    )
    .unwrap();
    let zip = bundle(
        &dir,
        &[
            "--campaign".into(),
            campaign.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
        ],
    );
    let r = passes(
        &dir,
        &zip,
        &gold,
        Some(&[("ner__FP", 0.0), ("nerf__F1", 0.0)]),
    );
    let cols = &r["facts"]["leaderboards"][0]["columns"];
    assert_eq!(cols[0]["sorting"], "asc");
    assert_eq!(cols[1]["sorting"], "desc");
    assert_eq!(cols[2]["sorting"], "asc");
    // The column without a run ranks last, within numeric(20,10).
    let last = r["scores"]["spans__FP"].as_f64().unwrap();
    assert!(last > 1e6, "{last}");
    let public = std::fs::read_to_string(dir.join("work/bundle/public_data/ner.conll")).unwrap();
    for (g, p) in CONLL.lines().zip(public.lines()) {
        match g.split_once(' ') {
            Some((w, _)) if w != "-DOCSTART-" => assert_eq!(p, format!("{w} O")),
            _ => assert_eq!(p, g),
        }
    }
}
