//! The spans family's `attribution` option: `evaluate --family spans --attribution nervaluate`
//! counts as nervaluate 1.2.x (each regime and each label attributed on its own, ent_type's
//! closest overlapping gold entity of the same label, a minimum overlap), the default as the
//! HIPE scorer (the first overlapping gold entity, per-label counts a breakdown of the
//! overall ones). The expected counts are derived by hand below; the two attributions give
//! different numbers on the same files, so a mix-up fails.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// Writes a one-sentence CoNLL gold and run (one tag per token) and returns their paths.
fn files(dir: &Path, gold: &[&str], run: &[&str]) -> (String, String) {
    let write = |name: &str, tags: &[&str]| {
        let text: String = tags.iter().map(|t| format!("w {t}\n")).collect();
        let p = dir.join(name);
        std::fs::write(&p, text + "\n").expect("write");
        p.to_string_lossy().into_owned()
    };
    (write("gold.conll", gold), write("run.conll", run))
}

/// TP, FP, FN of `label` in the table of `regime`.
fn counts(v: &Value, regime: &str, label: &str) -> (f64, f64, f64) {
    let t = json_table(v, regime);
    let row = t["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["key"]["label"] == label))
        .unwrap_or_else(|| panic!("no row {label} in {regime}"));
    let s = &row["scores"];
    let n = |k: &str| s[k].as_f64().unwrap_or_else(|| panic!("{k} of {label}"));
    (n("TP"), n("FP"), n("FN"))
}

fn evaluate(gold: &str, run: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "evaluate", "--family", "spans", "--gold", gold, "--pred", run, "--json",
    ];
    args.extend_from_slice(extra);
    fairscore_json(&args)
}

#[test]
fn nervaluate_attribution_takes_the_closest_gold_entity_and_counts_each_label_on_its_own() {
    let dir = temp_dir("spans_attribution_closest");
    // gold LOC(0,0) PER(1,2); run PER(0,2), overlapping both.
    let (g, r) = files(
        &dir,
        &["B-LOC", "B-PER", "I-PER"],
        &["B-PER", "I-PER", "I-PER"],
    );
    let hipe = evaluate(&g, &r, &[]);
    let nerv = evaluate(&g, &r, &["--attribution", "nervaluate"]);

    // HIPE: no gold span has the run span's offsets; the first gold span it overlaps is
    // LOC(0,0), another label: strict, ent_type and exact incorrect, partial partial, all
    // charged to LOC; PER(1,2) is missed. TP = correct (+ partial / 2), FP = actual - TP,
    // FN = possible - TP, with actual 1 and possible 2.
    assert_eq!(counts(&hipe, "strict", "ALL"), (0.0, 1.0, 2.0));
    assert_eq!(counts(&hipe, "ent_type", "ALL"), (0.0, 1.0, 2.0));
    assert_eq!(counts(&hipe, "partial", "ALL"), (0.5, 0.5, 1.5));
    assert_eq!(counts(&hipe, "exact", "ALL"), (0.0, 1.0, 2.0));
    assert_eq!(counts(&hipe, "strict", "LOC"), (0.0, 1.0, 1.0));
    assert_eq!(counts(&hipe, "strict", "PER"), (0.0, 0.0, 1.0));

    // nervaluate, overall: strict, exact and partial take the first gold span overlapping
    // enough, LOC(0,0) (as HIPE); ent_type takes the closest gold span of its label among
    // those, PER(1,2): correct, LOC missed.
    assert_eq!(counts(&nerv, "strict", "ALL"), (0.0, 1.0, 2.0));
    assert_eq!(counts(&nerv, "ent_type", "ALL"), (1.0, 0.0, 1.0));
    assert_eq!(counts(&nerv, "partial", "ALL"), (0.5, 0.5, 1.5));
    assert_eq!(counts(&nerv, "exact", "ALL"), (0.0, 1.0, 2.0));
    // Per label, each label's spans alone: PER(0,2) against PER(1,2) is strict and exact
    // incorrect, ent_type correct, partial partial; LOC(0,0) has no run span: missed.
    assert_eq!(counts(&nerv, "strict", "PER"), (0.0, 1.0, 1.0));
    assert_eq!(counts(&nerv, "ent_type", "PER"), (1.0, 0.0, 0.0));
    assert_eq!(counts(&nerv, "partial", "PER"), (0.5, 0.5, 0.5));
    assert_eq!(counts(&nerv, "exact", "PER"), (0.0, 1.0, 1.0));
    for regime in ["strict", "ent_type", "partial", "exact"] {
        assert_eq!(counts(&nerv, regime, "LOC"), (0.0, 0.0, 1.0), "{regime}");
    }
    // The signature names the attribution, and only when it is not the default.
    assert!(nerv["signature"]
        .as_str()
        .is_some_and(|s| s.contains("|attribution:nervaluate|") && !s.contains("min-overlap")));
    assert!(hipe["signature"]
        .as_str()
        .is_some_and(|s| !s.contains("attribution")));
}

#[test]
fn the_minimum_overlap_is_a_share_of_the_gold_entity() {
    let dir = temp_dir("spans_attribution_min_overlap");
    // gold PER(0,3); run PER(0,0): it covers 1 of the gold span's 4 tokens, 25 %.
    let (g, r) = files(
        &dir,
        &["B-PER", "I-PER", "I-PER", "I-PER"],
        &["B-PER", "O", "O", "O"],
    );
    // 25 % ≥ 1 % (the default) and ≥ 25 %: paired. strict incorrect (TP 0, FP 1, FN 1),
    // ent_type correct (1, 0, 0), partial partial (0.5, 0.5, 0.5).
    for extra in [&[][..], &["--min-overlap", "25"][..]] {
        let mut args = vec!["--attribution", "nervaluate"];
        args.extend_from_slice(extra);
        let v = evaluate(&g, &r, &args);
        assert_eq!(counts(&v, "strict", "ALL"), (0.0, 1.0, 1.0), "{extra:?}");
        assert_eq!(counts(&v, "ent_type", "ALL"), (1.0, 0.0, 0.0), "{extra:?}");
        assert_eq!(counts(&v, "partial", "ALL"), (0.5, 0.5, 0.5), "{extra:?}");
    }
    // 25 % < 26 %: not paired; the run span is spurious and the gold span missed in every
    // regime (TP 0, FP 1, FN 1).
    let v = evaluate(
        &g,
        &r,
        &["--attribution", "nervaluate", "--min-overlap", "26"],
    );
    for regime in ["strict", "ent_type", "partial", "exact"] {
        assert_eq!(counts(&v, regime, "ALL"), (0.0, 1.0, 1.0), "{regime}");
    }
    assert!(v["signature"]
        .as_str()
        .is_some_and(|s| s.contains("|attribution:nervaluate|min-overlap:26|")));
}

#[test]
fn bad_attribution_options_are_usage_errors() {
    let dir = temp_dir("spans_attribution_errors");
    let (g, r) = files(&dir, &["B-PER"], &["B-PER"]);
    for extra in [
        &["--attribution", "closest"][..],
        &["--min-overlap", "50"][..],
        &["--attribution", "nervaluate", "--min-overlap", "0.5"][..],
        &["--attribution", "nervaluate", "--min-overlap", "NaN"][..],
        &["--attribution", "nervaluate", "--min-overlap", "101"][..],
    ] {
        let mut args = vec!["evaluate", "--family", "spans", "--gold", &g, "--pred", &r];
        args.extend_from_slice(extra);
        let out = fairscore(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("attribution") || err.contains("min-overlap"),
            "{extra:?}: {err}"
        );
    }
    // Another family does not take them.
    let out = fairscore(&[
        "evaluate",
        "--family",
        "fair",
        "--gold",
        &g,
        "--pred",
        &r,
        "--attribution",
        "nervaluate",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
