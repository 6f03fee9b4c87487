//! `--repair`, `--map-types`, `--keep-types` and `--remove-types` on the scoring commands
//! (`evaluate` of spans, fair and muc, `score --format conll`, campaign task keys): scoring a
//! run with them gives exactly the numbers of `fairscore convert` with the same options
//! followed by scoring the converted run, and the signature names them.

use std::path::{Path, PathBuf};

use crate::common::{fairscore, temp_dir};

/// A gold and a run of two documents; the run has invalid BIO transitions (an `I-` after `O`,
/// after another type, at a sentence's start) and MISC, ORG, PER, LOC mentions.
const GOLD: &str = "-DOCSTART- O\n\nAda B-PER\nLovelace I-PER\nin O\nLondon B-LOC\n.\tO\n\nThe O\nRoyal B-ORG\nSociety I-ORG\nmet O\nBabbage B-PER\n\n-DOCSTART- O\n\nParis B-LOC\nand O\nthe O\nLouvre B-ORG\nmuseum I-ORG\n\nBerlin B-LOC\nWall I-MISC\nfell O\nin O\n1989 B-MISC\n";
const RUN: &str = "-DOCSTART- O\n\nAda I-PER\nLovelace I-PER\nin O\nLondon I-LOC\n.\tO\n\nThe O\nRoyal B-ORG\nSociety I-PER\nmet O\nBabbage B-PER\n\n-DOCSTART- O\n\nParis B-LOC\nand O\nthe O\nLouvre B-MISC\nmuseum I-MISC\n\nBerlin B-LOC\nWall I-MISC\nfell O\nin O\n1989 B-MISC\n";

fn ok(args: &[&str]) -> std::process::Output {
    let out = fairscore(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The tables of `evaluate --family F --json -`.
fn tables(family: &str, gold: &Path, run: &Path, more: &[&str]) -> serde_json::Value {
    let (g, r) = (gold.display().to_string(), run.display().to_string());
    let mut args = vec![
        "evaluate", "--family", family, "--gold", &g, "--pred", &r, "--json", "-",
    ];
    args.extend_from_slice(more);
    let v: serde_json::Value = serde_json::from_slice(&ok(&args).stdout).unwrap();
    v["tables"].clone()
}

/// `score --format conll --task nerc_coarse` of `run` into `out`: the text of the output file
/// `file` written.
fn score(gold: &Path, run: &Path, out: &Path, more: &[&str], file: &str) -> String {
    let (g, r, o) = (
        gold.display().to_string(),
        run.display().to_string(),
        out.display().to_string(),
    );
    let mut args = vec![
        "score",
        "--format",
        "conll",
        "--task",
        "nerc_coarse",
        "--gold",
        &g,
        "--pred",
        &r,
        "--outdir",
        &o,
    ];
    args.extend_from_slice(more);
    ok(&args);
    std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn scoring_with_read_changes_is_scoring_the_converted_run() {
    let dir = temp_dir("read_changes");
    let gold = dir.join("gold.conll");
    std::fs::write(&gold, GOLD).unwrap();
    // The run, and the same name in another folder for the converted one (score's outputs
    // are named by the run).
    let run = dir.join("as-read/run.conll");
    std::fs::create_dir_all(run.parent().unwrap()).unwrap();
    std::fs::write(&run, RUN).unwrap();
    let map = dir.join("map.json");
    std::fs::write(&map, r#"{"ENT": ["PER", "ORG"]}"#).unwrap();
    let map_s = map.display().to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec!["--repair", "discard"],
        vec!["--repair", "conlleval", "--remove-types", "MISC"],
        vec!["--repair", "conlleval", "--map-types", &map_s],
        vec!["--repair", "discard", "--keep-types", "PER,LOC"],
    ];
    let plain = tables("spans", &gold, &run, &[]);
    for (k, opts) in cases.iter().enumerate() {
        let fixed: PathBuf = dir.join(format!("converted{k}/run.conll"));
        std::fs::create_dir_all(fixed.parent().unwrap()).unwrap();
        let (r, f) = (run.display().to_string(), fixed.display().to_string());
        let mut args = vec!["convert", "--in", &r, "--out", &f];
        args.extend_from_slice(opts);
        ok(&args);
        for family in ["spans", "fair", "muc"] {
            let changed = tables(family, &gold, &run, opts);
            let converted = tables(family, &gold, &fixed, &[]);
            assert_eq!(changed, converted, "{family} {opts:?}");
        }
        // Not the run's numbers as given: the changes changed something.
        assert_ne!(tables("spans", &gold, &run, opts), plain, "{opts:?}");
        let json = "run_nerc_coarse.json";
        let a = score(&gold, &run, &dir.join(format!("score-a{k}")), opts, json);
        let b = score(&gold, &fixed, &dir.join(format!("score-b{k}")), &[], json);
        assert_eq!(a, b, "score {opts:?}");
    }
    // The signature names the changes; without them it does not.
    let sig = |more: &[&str]| {
        let (g, r) = (gold.display().to_string(), run.display().to_string());
        let mut args = vec![
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &g,
            "--pred",
            &r,
            "--signature",
        ];
        args.extend_from_slice(more);
        String::from_utf8(ok(&args).stdout).unwrap()
    };
    let s = sig(&[
        "--repair",
        "discard",
        "--map-types",
        &map_s,
        "--keep-types",
        "ENT",
    ]);
    assert!(
        s.contains("|repair:discard|map-types:ORG>ENT,PER>ENT|keep-types:ENT|"),
        "{s}"
    );
    assert!(!sig(&[]).contains("repair"), "no changes, no field");
    // Without a repair an invalid transition is an input error naming its line, as in
    // convert (seqscore's validation).
    let (g, r) = (gold.display().to_string(), run.display().to_string());
    let bad = fairscore(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &r,
        "--map-types",
        &map_s,
    ]);
    assert_eq!(bad.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("run.conll:3: invalid BIO transition"));
    // The repairs are reported, one line each, as convert logs them.
    let out = ok(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &r,
        "--repair",
        "conlleval",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("run.conll:3: I-PER -> B-PER (conlleval)"),
        "{err}"
    );
}

#[test]
fn campaign_tasks_take_the_changes_and_other_runs_refuse_them() {
    let dir = temp_dir("read_changes_campaign");
    let gold = dir.join("gold");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(gold.join("ner.conll"), GOLD).unwrap();
    std::fs::write(runs.join("alpha_1.conll"), RUN).unwrap();
    let campaign = dir.join("c.toml");
    std::fs::write(
        &campaign,
        "name = \"c\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
         gold = \"ner.conll\"\nruns = \"{team}_{run}.conll\"\nrepair = \"discard\"\n\
         remove_types = \"MISC\"\n",
    )
    .unwrap();
    let site = dir.join("site");
    ok(&[
        "leaderboard",
        "--campaign",
        &campaign.display().to_string(),
        "--gold-dir",
        &gold.display().to_string(),
        "--runs-dir",
        &runs.display().to_string(),
        "--outdir",
        &site.display().to_string(),
        "--quiet",
    ]);
    let lb: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("leaderboard.json")).unwrap())
            .unwrap();
    let f1 = lb["tables"][0]["rows"][0]["scores"]["F1"].as_f64().unwrap();
    let fixed = dir.join("fixed.conll");
    let run = runs.join("alpha_1.conll");
    ok(&[
        "convert",
        "--in",
        &run.display().to_string(),
        "--out",
        &fixed.display().to_string(),
        "--repair",
        "discard",
        "--remove-types",
        "MISC",
    ]);
    let t = tables("spans", &gold.join("ner.conll"), &fixed, &[]);
    let want = t
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "strict")
        .and_then(|x| {
            x["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["key"]["label"] == "ALL")
                .map(|r| r["scores"]["F1"].as_f64().unwrap())
        });
    assert_eq!(Some(f1), want, "{t}");
    // A HIPE run to score, a standoff run, a family that reads no tags: usage errors (exit 2).
    let g = gold.join("ner.conll").display().to_string();
    let r = run.display().to_string();
    let hipe = fairscore(&[
        "score",
        "--task",
        "nerc_coarse",
        "--gold",
        &g,
        "--pred",
        &r,
        "--repair",
        "discard",
    ]);
    assert_eq!(hipe.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&hipe.stderr).contains("CoNLL run"));
    let doc = dir.join("run.jsonl");
    std::fs::write(&doc, "{\"text\": \"Ada\", \"label\": [[0, 3, \"PER\"]]}\n").unwrap();
    let gdoc = dir.join("gold.jsonl");
    std::fs::write(&gdoc, "{\"text\": \"Ada\", \"label\": [[0, 3, \"PER\"]]}\n").unwrap();
    let standoff = fairscore(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &gdoc.display().to_string(),
        "--pred",
        &doc.display().to_string(),
        "--remove-types",
        "PER",
    ]);
    assert_eq!(standoff.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&standoff.stderr).contains("fairscore convert"),
        "{}",
        String::from_utf8_lossy(&standoff.stderr)
    );
    let seg = fairscore(&[
        "evaluate",
        "--family",
        "segmentation",
        "--gold",
        &g,
        "--pred",
        &r,
        "--repair",
        "discard",
    ]);
    assert_eq!(seg.status.code(), Some(2));
}

#[test]
fn conll_rows_have_conll_names() {
    let dir = temp_dir("conll_row_names");
    let gold = dir.join("gold.conll");
    std::fs::write(&gold, GOLD).unwrap();
    let run = dir.join("as-read/run.conll");
    std::fs::create_dir_all(run.parent().unwrap()).unwrap();
    std::fs::write(&run, RUN).unwrap();
    let out = dir.join("out");
    let tsv = score(
        &gold,
        &run,
        &out,
        &["--suffix", "demo"],
        "run_nerc_coarse_demo.tsv",
    );
    let mut names: Vec<&str> = tsv
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names,
        [
            "TAG-macro_doc-fuzzy-demo",
            "TAG-macro_doc-strict-demo",
            "TAG-micro-fuzzy-demo",
            "TAG-micro-strict-demo"
        ],
        "{tsv}"
    );
    assert!(!tsv.contains("TIME-ALL") && !tsv.contains("LED-ALL"));
    // The JSON keeps the HIPE layout.
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("run_nerc_coarse_demo.json")).unwrap(),
    )
    .unwrap();
    assert!(json["TAG"]["TIME-ALL"]["LED-ALL"]["ALL"]["strict"]["TP"].is_number());
}
