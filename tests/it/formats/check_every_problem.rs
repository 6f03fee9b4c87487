//! Issue 46.10: `check` reports every problem class with counts and its first places, bounded
//! in memory and output, and does not stop at the first problem: a run whose every offset is
//! wrong has as many errors counted; a missing document does not hide a bad label (standoff
//! and HIPE runs); the `--labels` hint is not given when `--labels` was; `check --json` stays
//! valid against docs/check.schema.json.

use std::path::Path;

use crate::common::schema::{assert_valid, validator};
use crate::common::{fairscore, temp_dir, write_file};

const TEXT: &str = "Anna reads in Paris";

fn check_json(args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let mut a = args.to_vec();
    a.extend(["--json", "-"]);
    let out = fairscore(&a);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_valid(&validator("check"), &format!("{args:?}"), &doc);
    (
        out.status.code(),
        doc,
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn finding<'a>(doc: &'a serde_json::Value, code: &str) -> &'a serde_json::Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
        .unwrap_or_else(|| panic!("no {code} finding: {doc:#}"))
}

fn brat_doc(dir: &Path, name: &str, ann: &str) {
    std::fs::create_dir_all(dir).unwrap();
    write_file(dir, &format!("{name}.txt"), TEXT);
    write_file(dir, &format!("{name}.ann"), ann);
}

#[test]
fn a_standoff_run_has_every_problem_counted_with_its_places() {
    let dir = temp_dir("check_every_problem_standoff");
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    for d in ["d1", "d2", "d3"] {
        brat_doc(&gold, d, "T1\tPER 0 4\tAnna\nT2\tLOC 14 19\tParis\n");
    }
    // d1: every offset beyond the text; d2: a label the gold lacks; d3: missing.
    brat_doc(
        &run,
        "d1",
        "T1\tPER 0 40\tAnna\nT2\tLOC 14 90\tParis\nT3\tLOC 50 60\tx\n",
    );
    brat_doc(&run, "d2", "T1\tPERS 0 4\tAnna\nT2\tLOC 14 19\tParis\n");
    let (g, r) = (gold.to_str().unwrap(), run.to_str().unwrap());
    let (code, doc, _) = check_json(&["check", "--gold", g, "--pred", r]);
    assert_eq!(code, Some(1));
    let offsets = finding(&doc, "unreadable");
    assert_eq!(offsets["count"], 3, "every offset counted: {offsets:#}");
    let places: Vec<u64> = offsets["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["line"].as_u64().unwrap())
        .collect();
    assert_eq!(places, [1, 2, 3], "{offsets:#}");
    let missing = finding(&doc, "alignment");
    assert!(
        missing["message"].as_str().unwrap().contains("d3"),
        "{missing:#}"
    );
    let label = finding(&doc, "unknown-label");
    assert!(
        label["message"].as_str().unwrap().contains("PERS"),
        "{label:#}"
    );
    // The text report says the same, with the places.
    let out = fairscore(&["check", "--gold", g, "--pred", r]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(3 occurrences"), "{text}");
    assert!(text.contains("PERS") && text.contains("d3"), "{text}");
}

#[test]
fn a_hipe_run_missing_a_document_still_has_its_labels_checked() {
    let dir = temp_dir("check_every_problem_hipe");
    let head = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\tNEL-LIT\tNEL-METO\tMISC\n";
    let row = |t: &str, tag: &str| format!("{t}\t{tag}\tO\tO\tO\tO\tO\t_\t_\t_\n");
    let doc = |id: &str, tag: &str| {
        format!(
            "# hipe2022:document_id = {id}\n{}{}",
            row("Anna", tag),
            row("reads", "O")
        )
    };
    let gold = write_file(
        &dir,
        "gold.tsv",
        &format!("{head}{}{}", doc("a", "B-pers"), doc("b", "B-loc")),
    );
    let run = write_file(&dir, "run.tsv", &format!("{head}{}", doc("a", "B-perss")));
    let (code, doc, _) = check_json(&[
        "check",
        "--gold",
        &gold,
        "--pred",
        &run,
        "--skip-check",
        "--task",
        "nerc_coarse",
    ]);
    assert_eq!(code, Some(1));
    finding(&doc, "alignment");
    let label = finding(&doc, "unknown-label");
    assert!(
        label["message"].as_str().unwrap().contains("PERSS"),
        "{label:#}"
    );
}

#[test]
fn no_labels_hint_when_labels_was_given() {
    let dir = temp_dir("check_labels_hint");
    let head = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\tNEL-LIT\tNEL-METO\tMISC\n";
    let masked = write_file(
        &dir,
        "masked.tsv",
        &format!("{head}# hipe2022:document_id = a\nAnna\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"),
    );
    let run = write_file(
        &dir,
        "run.tsv",
        &format!("{head}# hipe2022:document_id = a\nAnna\tB-xx\tO\tO\tO\tO\tO\t_\t_\t_\n"),
    );
    let labels = write_file(&dir, "labels.txt", "pers\nloc\n");
    // A blind standoff gold: texts without annotations.
    let (bgold, brun) = (dir.join("bgold"), dir.join("brun"));
    brat_doc(&bgold, "d1", "");
    brat_doc(&brun, "d1", "T1\tPERS 0 4\tAnna\n");
    let blabels = write_file(&dir, "blabels.txt", "PER\nLOC\n");
    for args in [
        vec![
            "check",
            "--gold",
            &masked,
            "--pred",
            &run,
            "--skip-check",
            "--task",
            "nerc_coarse",
            "--labels",
            &labels,
        ],
        vec![
            "check",
            "--gold",
            bgold.to_str().unwrap(),
            "--pred",
            brun.to_str().unwrap(),
            "--labels",
            &blabels,
        ],
    ] {
        let out = fairscore(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("masked-gold") || text.contains("no annotations"),
            "{text}"
        );
        assert!(
            !text.contains("--labels FILE"),
            "{args:?}: the --labels hint after --labels: {text}"
        );
    }
}

/// A run of 20,000 distinct unknown labels and 20,000 bad offsets: a bounded report.
#[test]
fn the_report_is_bounded_whatever_the_run() {
    let dir = temp_dir("check_bounded");
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    brat_doc(&gold, "d1", "T1\tPER 0 4\tAnna\n");
    let mut ann = String::new();
    for i in 0..20_000 {
        ann.push_str(&format!("T{}\tL{i} 0 4\tAnna\n", 2 * i + 1));
        ann.push_str(&format!("T{}\tPER 0 {}\tx\n", 2 * i + 2, 100 + i));
    }
    brat_doc(&run, "d1", &ann);
    let (g, r) = (gold.to_str().unwrap(), run.to_str().unwrap());
    let out = fairscore(&["check", "--gold", g, "--pred", r]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.lines().count() < 100, "{} lines", text.lines().count());
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(
        text.contains("20000 occurrences"),
        "every bad offset counted: {text}"
    );
    let (_, doc, _) = check_json(&["check", "--gold", g, "--pred", r]);
    let labels: u64 = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "unknown-label")
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(labels, 20_000, "every unknown label counted");
    assert!(doc["findings"].as_array().unwrap().len() < 40);
}

/// A CoNLL run read fine (`_` is `O`, as the reader reads it) passes, and a run read with a
/// warning gets no hint naming another command (it was called "plain text … use fairscore
/// segmentation").
#[test]
fn a_conll_run_read_fine_gets_no_other_commands_hint() {
    let dir = temp_dir("check_conll_hint");
    let gold = write_file(&dir, "g.conll", "Anna B-PER\nsaw O\nBob B-PER\n");
    let under = write_file(&dir, "under.conll", "Anna B-PER\nsaw _\nBob B-PER\n");
    let out = fairscore(&["check", "--gold", &gold, "--pred", &under]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let warned = write_file(&dir, "warned.conll", "Anna B-PER\nsaw O\nBob B-ORG\n");
    let out = fairscore(&["check", "--gold", &gold, "--pred", &warned]);
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("unknown") || text.contains("ORG"), "{text}");
    assert!(!err.contains("hint:"), "no hint to another command: {err}");
}
