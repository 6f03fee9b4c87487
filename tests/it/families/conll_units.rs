//! The unit of resampling of a CoNLL file without `-DOCSTART-`: its sentences. `score
//! --bootstrap` gives intervals of non-zero width and `compare` tests over the sentences; the
//! reported scores (document averages included) stay those of the file's one document; with
//! fewer than two units both say so instead of giving an interval or a p-value.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// A CoNLL gold of `n` sentences, each `Anna lebt in Berlin .` with PER and LOC, and a run
/// that misses the LOC of every third sentence and labels the PER of every fifth as ORG.
fn files(dir: &Path, n: usize, docstart: bool) -> (String, String) {
    let (mut g, mut r) = (String::new(), String::new());
    if docstart {
        g.push_str("-DOCSTART- O\n\n");
        r.push_str("-DOCSTART- O\n\n");
    }
    for i in 0..n {
        let per = if i % 5 == 0 { "B-ORG" } else { "B-PER" };
        let loc = if i % 3 == 0 { "O" } else { "B-LOC" };
        g.push_str("Anna B-PER\nlebt O\nin O\nBerlin B-LOC\n. O\n\n");
        r.push_str(&format!("Anna {per}\nlebt O\nin O\nBerlin {loc}\n. O\n\n"));
    }
    let gp = dir.join("gold.conll");
    let rp = dir.join("run.conll");
    std::fs::write(&gp, g).unwrap();
    std::fs::write(&rp, r).unwrap();
    (
        gp.to_string_lossy().into_owned(),
        rp.to_string_lossy().into_owned(),
    )
}

fn score_json(dir: &Path, gold: &str, run: &str) -> (Value, String) {
    let out = fairscore(&[
        "score",
        "--format",
        "conll",
        "--task",
        "nerc_coarse",
        "--gold",
        gold,
        "--pred",
        run,
        "--bootstrap",
        "2000",
        "--outdir",
        &dir.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(dir.join("run_nerc_coarse.json")).unwrap();
    (
        serde_json::from_str(&json).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The strict micro F1 of ALL and its interval.
fn strict_f1(v: &Value) -> (f64, Option<(f64, f64)>, f64) {
    // {TAG: {"TIME-ALL": {"LED-ALL": {"ALL": {regime: …}}}}} for CoNLL's one tag column.
    let all = &v["TAG"]["TIME-ALL"]["LED-ALL"]["ALL"];
    let s = &all["strict"];
    let ci = s["F1_micro_ci"]
        .as_array()
        .map(|a| (a[0].as_f64().unwrap(), a[1].as_f64().unwrap()));
    (
        s["F1_micro"].as_f64().unwrap(),
        ci,
        s["F1_macro_doc"].as_f64().unwrap_or(f64::NAN),
    )
}

#[test]
fn a_file_without_documents_is_resampled_by_sentences() {
    let dir = temp_dir("conll_units_sentences");
    let (gold, run) = files(&dir, 40, false);
    let (v, stderr) = score_json(&dir, &gold, &run);
    let (f1, ci, macro_doc) = strict_f1(&v);
    let (lo, hi) = ci.expect("an interval over the 40 sentences");
    assert!(lo < f1 && f1 < hi, "{lo} < {f1} < {hi}");
    assert!(hi - lo > 0.02, "the interval has width: [{lo}, {hi}]");
    // One document: its average is the micro score, as before.
    assert!((macro_doc - f1).abs() < 1e-12, "{macro_doc} vs {f1}");
    assert!(!stderr.contains("no interval"), "{stderr}");

    // With document markers (one document) the same file has one unit: no interval, a warning.
    let dir1 = temp_dir("conll_units_one_doc");
    let (gold1, run1) = files(&dir1, 1, true);
    let (v1, stderr1) = score_json(&dir1, &gold1, &run1);
    assert!(strict_f1(&v1).1.is_none(), "no interval over one unit");
    assert!(
        stderr1.contains("resampling needs at least two sentences")
            && stderr1.contains("gold.conll"),
        "{stderr1}"
    );
}

#[test]
fn compare_pairs_the_sentences_of_a_file_without_documents() {
    let dir = temp_dir("conll_units_compare");
    let (gold, run) = files(&dir, 40, false);
    let out = fairscore(&[
        "compare",
        "--format",
        "conll",
        "--task",
        "nerc_coarse",
        "--gold",
        &gold,
        "--pred",
        &run,
        "--pred",
        &gold,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(40 sentences)"), "{text}");
    // The run is clearly worse than the gold itself: over 40 sentences the test sees it.
    let strict_f1 = text
        .lines()
        .find(|l| l.trim_start().starts_with("F1"))
        .unwrap_or_default()
        .to_string();
    let p: f64 = strict_f1
        .split_whitespace()
        .last()
        .filter(|s| !s.starts_with('*'))
        .or_else(|| strict_f1.split_whitespace().rev().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    assert!(p < 0.01, "p of strict F1: {strict_f1}");

    let dir1 = temp_dir("conll_units_compare_one");
    let (gold1, run1) = files(&dir1, 1, false);
    let out = fairscore(&[
        "compare",
        "--format",
        "conll",
        "--task",
        "nerc_coarse",
        "--gold",
        &gold1,
        "--pred",
        &run1,
        "--pred",
        &gold1,
    ]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("at least two are needed") && err.contains("has 1"),
        "{err}"
    );
}

/// `compare` checks each run as `score` does before it resamples sentences: a run whose tokens
/// differ, or with a token more, is refused, not cut to the gold's sentences.
#[test]
fn compare_checks_the_runs_as_score_does() {
    let dir = temp_dir("conll_units_compare_checks");
    let gold = dir.join("g.conll");
    std::fs::write(&gold, "A B-PER\nb O\n\nc O\nd B-LOC\n").unwrap();
    let g = gold.to_string_lossy().into_owned();
    for (name, text) in [
        ("other.conll", "A B-PER\nX O\nc O\nd B-LOC\n"),
        ("longer.conll", "A B-PER\nb O\n\nc O\nd B-LOC\ne O\n"),
    ] {
        let run = dir.join(name);
        std::fs::write(&run, text).unwrap();
        let r = run.to_string_lossy().into_owned();
        let out = fairscore(&[
            "compare",
            "--format",
            "conll",
            "--task",
            "nerc_coarse",
            "--gold",
            &g,
            "--pred",
            &r,
            "--pred",
            &g,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{name}: {err}");
        assert!(
            err.contains(name) && err.contains("does not line up"),
            "{name}: {err}"
        );
    }
}
