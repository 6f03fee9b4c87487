//! `fair --breakdown label,length` and `evaluate --family fair --breakdown …`
//! (docs/breakdown.md, "The fair family"): on FairEval's data (Ortmann 2022) and a HIPE-2022
//! run, every bucket's ten counts and fair P, R and F1 equal a computation written here from
//! the `--errors` listing (one row per gold and run span with its fair type), bucketed by this
//! test's own rule for each key (label; length in tokens, quantile buckets of the gold
//! lengths); TP, FN, FP and LE summed over the buckets equal the fair table's; the two commands
//! give the same tables; intervals come with `--bootstrap`; keys a file cannot give are
//! refused (fair_breakdown_keys checks the other keys).

use crate::common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One row of the `--errors` listing.
struct Row {
    gold: bool,
    len: usize,
    label: String,
    kind: String,
}

fn listing(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("listing");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|c| *c == n).expect(n);
    let (side, begin, end, label, kind) = (
        col("side"),
        col("begin"),
        col("end"),
        col("label"),
        col("type"),
    );
    lines
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let num = |i: usize| c[i].parse::<usize>().expect("a token index");
            Row {
                gold: c[side] == "target",
                len: num(end) - num(begin) + 1,
                label: c[label].to_string(),
                kind: c[kind].to_string(),
            }
        })
        .collect()
}

/// The quantile buckets of docs/breakdown.md over the gold values: (names, cuts).
fn quantile_buckets(gold: &[usize], n: usize) -> (Vec<String>, Vec<usize>) {
    let mut x = gold.to_vec();
    x.sort_unstable();
    let big_n = x.len();
    let mut cuts: Vec<usize> = Vec::new();
    for k in 1..n {
        // c_k = x_⌈k·N/n⌉ (1-based).
        let c = x[(k * big_n).div_ceil(n) - 1];
        if cuts.last().is_none_or(|&l| c > l) && c < x[big_n - 1] {
            cuts.push(c);
        }
    }
    let mut names = Vec::new();
    if cuts.is_empty() {
        names.push("all".to_string());
    } else {
        names.push(format!("<= {}", cuts[0]));
        for w in cuts.windows(2) {
            names.push(format!("({}, {}]", w[0], w[1]));
        }
        names.push(format!("> {}", cuts[cuts.len() - 1]));
    }
    (names, cuts)
}

/// Counts per bucket in the table's column order: TP-gold, FN, LE-gold, BE-gold, LBE-gold,
/// TP-run, FP, LE-run, BE-run, LBE-run.
fn count(rows: &[Row], bucket: impl Fn(&Row) -> String) -> BTreeMap<String, [f64; 10]> {
    let mut out: BTreeMap<String, [f64; 10]> = BTreeMap::new();
    for r in rows {
        let k = match r.kind.as_str() {
            "TP" => 0,
            "FN" | "FP" => 1,
            "LE" => 2,
            "BES" | "BEL" | "BEO" => 3,
            "LBE" => 4,
            other => panic!("unknown type {other}"),
        };
        out.entry(bucket(r)).or_default()[if r.gold { k } else { 5 + k }] += 1.0;
    }
    out
}

/// Fair P, R, F1 from a bucket's counts, LE, BE and LBE counted as half an error.
fn fair_prf(c: &[f64; 10]) -> [f64; 3] {
    let r_den = c[0] + c[1] + 0.5 * (c[2] + c[3] + c[4]);
    let p_den = c[5] + c[6] + 0.5 * (c[7] + c[8] + c[9]);
    let r = if r_den > 0.0 { c[0] / r_den } else { 0.0 };
    let p = if p_den > 0.0 { c[5] / p_den } else { 0.0 };
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    [p, r, f]
}

const COLUMNS: [&str; 10] = [
    "TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold", "TP-run", "FP", "LE-run", "BE-run",
    "LBE-run",
];

fn pairs(data: &Path) -> Vec<(PathBuf, PathBuf)> {
    let fe = data.join("faireval/ner");
    let h = data.join("hipe2022");
    vec![
        (
            fe.join("target_ner_spans.csv"),
            fe.join("system_ner_spans.csv"),
        ),
        (
            h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv"),
            h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv"),
        ),
    ]
}

#[test]
fn fair_buckets_equal_a_computation_from_the_listing() {
    let Some(data) = shared_data("fair_breakdown") else {
        return;
    };
    let dir = temp_dir("fair-breakdown");
    for (i, (g, r)) in pairs(&data).into_iter().enumerate() {
        let errors = dir.join(format!("errors{i}.tsv"));
        let (gs, rs, es) = (
            g.to_string_lossy().to_string(),
            r.to_string_lossy().to_string(),
            errors.to_string_lossy().to_string(),
        );
        let v = fairscore_json(&[
            "fair",
            "--gold",
            &gs,
            "--pred",
            &rs,
            "--breakdown",
            "label,length",
            "--errors",
            &es,
            "--json",
            "-",
        ]);
        let rows = listing(&errors);
        let gold_lens: Vec<usize> = rows.iter().filter(|r| r.gold).map(|r| r.len).collect();
        let (names, cuts) = quantile_buckets(&gold_lens, 4);
        assert!(names.len() > 1, "{gs}: more than one length bucket");
        let by_label = count(&rows, |r| r.label.clone());
        let by_length = count(&rows, |r| {
            names[cuts.iter().position(|&c| r.len <= c).unwrap_or(cuts.len())].clone()
        });
        let order =
            |m: &BTreeMap<String, [f64; 10]>, names: &[String]| -> Vec<(String, [f64; 10])> {
                names
                    .iter()
                    .map(|n| (n.clone(), m.get(n).copied().unwrap_or_default()))
                    .collect()
            };
        let label_names: Vec<String> = by_label.keys().cloned().collect();
        assert!(label_names.len() < 20, "no (other) bucket here");
        for (key, want) in [
            ("label", order(&by_label, &label_names)),
            ("length", order(&by_length, &names)),
        ] {
            let t = json_table(&v, &format!("breakdown:{key}"));
            let got = t["rows"].as_array().expect("rows");
            assert_eq!(got.len(), want.len(), "{gs} {key}: buckets");
            for (row, (name, c)) in got.iter().zip(&want) {
                assert_eq!(row["key"]["bucket"], name.as_str(), "{gs} {key}");
                for (col, x) in COLUMNS.iter().zip(c) {
                    assert_eq!(
                        row["scores"][col].as_f64(),
                        Some(*x),
                        "{gs} {key} {name} {col}"
                    );
                }
                for (col, x) in ["P", "R", "F1"].iter().zip(fair_prf(c)) {
                    let y = row["scores"][col].as_f64().expect("ratio");
                    assert!((x - y).abs() < 1e-12, "{gs} {key} {name} {col}: {x} vs {y}");
                }
            }
            // The counts the fair table has once per error: TP, FN, FP and LE (one span
            // each side) summed over the buckets are the fair table's.
            let all = &json_table(&v, "fair")["rows"][0]["scores"];
            let sum = |col: &str| -> f64 {
                got.iter()
                    .map(|r| r["scores"][col].as_f64().expect("count"))
                    .sum()
            };
            for (ours, theirs) in [
                ("TP-gold", "TP"),
                ("TP-run", "TP"),
                ("FN", "FN"),
                ("FP", "FP"),
                ("LE-gold", "LE"),
                ("LE-run", "LE"),
            ] {
                assert_eq!(Some(sum(ours)), all[theirs].as_f64(), "{gs} {key} {ours}");
            }
            // Each span once per side: the recall side adds up to the gold's spans.
            let recall: f64 = COLUMNS[..5].iter().map(|c| sum(c)).sum();
            assert_eq!(recall, gold_lens.len() as f64, "{gs} {key}");
        }
        // evaluate --family fair gives the same breakdown tables.
        let e = fairscore_json(&[
            "evaluate",
            "--family",
            "fair",
            "--gold",
            &gs,
            "--pred",
            &rs,
            "--breakdown",
            "label,length",
            "--json",
            "-",
        ]);
        for key in ["label", "length"] {
            let name = format!("breakdown:{key}");
            assert_eq!(json_table(&e, &name), json_table(&v, &name), "{gs} {key}");
        }
    }
}

#[test]
fn fair_breakdown_intervals_and_refused_keys() {
    let Some(data) = shared_data("fair_breakdown") else {
        return;
    };
    let (g, r) = pairs(&data).swap_remove(1);
    let (gs, rs) = (g.to_string_lossy(), r.to_string_lossy());
    let v = fairscore_json(&[
        "fair",
        "--gold",
        &gs,
        "--pred",
        &rs,
        "--breakdown",
        "label",
        "--bootstrap",
        "200",
        "--json",
        "-",
    ]);
    let rows = json_table(&v, "breakdown:label")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    for row in &rows {
        for col in ["P", "R", "F1"] {
            let ci = row["ci"][col].as_array().expect("an interval");
            let (lo, hi) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
            assert!(0.0 <= lo && lo <= hi && hi <= 1.0, "{col}: [{lo}, {hi}]");
        }
    }
    assert!(rows
        .iter()
        .any(|r| r["ci"]["F1"][1].as_f64() > r["ci"]["F1"][0].as_f64()));
    // Refused: HIPE metadata keys on a gold without them (newseye has dates but no noise
    // level; span and standoff files have neither), text keys of span files, a training key
    // without a training file.
    let (fg, fr) = pairs(&data).swap_remove(0);
    let (fg, fr) = (fg.to_string_lossy(), fr.to_string_lossy());
    let brat = data.join("brat/bratiaa-example/example-project");
    let (bl, bm) = (brat.join("Lisa"), brat.join("Maria"));
    let (bg, br) = (bl.to_string_lossy(), bm.to_string_lossy());
    for (g, r, key, says) in [
        (&gs, &rs, "noise", "newseye-test-de.tsv does not carry"),
        (&fg, &fr, "period", "target_ner_spans.csv does not carry"),
        (&bg, &br, "noise", "standoff files do not carry"),
        (&fg, &fr, "chars", "span files"),
        (&gs, &rs, "oov", "train"),
    ] {
        let out = fairscore(&["fair", "--gold", g, "--pred", r, "--breakdown", key]);
        assert_eq!(out.status.code(), Some(2), "{key}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(key) && err.contains(says), "{err}");
    }
}
