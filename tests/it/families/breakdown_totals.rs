//! Issue 46.13: summed over its buckets, every breakdown key gives the regime table's `ALL`
//! counts, whatever the format. HIPE-2022 runs written as CoNLL with a blank line at every
//! `EndOfSentence` flag cut some entities at a sentence end: the scoring decodes entities
//! sentence by sentence there (CoNLL sentences bound entities), and the breakdown buckets the
//! same entities (before the fix it decoded each document whole, joining the two halves: on
//! newseye-fi neurbsl 3 the label buckets summed to FP 310 where the strict `ALL` row has 313).

use super::breakdown::{read_hipe, write_conll, KEYS};
use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// TP, FN and FP of the `ALL` row of `table`.
fn all_row(v: &Value, table: &str) -> [f64; 3] {
    let row = json_table(v, table)["rows"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["key"]["label"] == "ALL"))
        .expect("ALL");
    let n = |c: &str| row["scores"][c].as_f64().expect("count");
    [n("TP"), n("FN"), n("FP")]
}

/// Checks that every key's buckets of `v` add up to `totals` (TP, FN, FP): TP-gold and TP-run
/// each the TP, FN the FN, FP the FP.
fn sums_are(v: &Value, keys: &[&str], totals: [f64; 3], what: &str) {
    for key in keys {
        let rows = json_table(v, &format!("breakdown:{key}"))["rows"]
            .as_array()
            .expect("rows")
            .clone();
        assert!(!rows.is_empty(), "{what} {key}: buckets");
        let sum = |c: &str| -> f64 {
            rows.iter()
                .map(|r| r["scores"][c].as_f64().expect("count"))
                .sum()
        };
        assert_eq!(
            [sum("TP-gold"), sum("FN"), sum("FP")],
            totals,
            "{what} {key}: the buckets add up to the ALL row (TP, FN, FP)"
        );
        assert_eq!(sum("TP-run"), totals[0], "{what} {key}: TP-run");
    }
}

/// The number of entities crossing a sentence end in the documents of `path`.
fn cut_by_sentence_ends(path: &Path) -> usize {
    let mut n = 0;
    for d in read_hipe(path) {
        for w in d.toks.windows(2) {
            if w[0].eos && w[1].tag.starts_with("I-") && w[0].tag != "O" {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn every_key_adds_up_to_the_all_row_on_conll_cut_at_sentence_ends_and_on_hipe_tsv() {
    let Some(data) = shared_data("breakdown_totals") else {
        return;
    };
    let h = data.join("hipe2022");
    let dir = temp_dir("breakdown-totals");
    let train_p = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let train_c = dir.join("train.conll");
    write_conll(&read_hipe(&train_p), &train_c);
    let keys = KEYS.join(",");
    for lang in ["fi", "sv"] {
        let gold_p = h.join(format!("gold/HIPE-2022-v2.1-newseye-test-{lang}.tsv"));
        let run_p = h.join(format!("submissions/neurbsl_bundle3_newseye_{lang}_1.tsv"));
        assert!(
            cut_by_sentence_ends(&run_p) > 0,
            "{lang}: run entities cross a sentence end"
        );
        let (gc, rc) = (
            dir.join(format!("g-{lang}.conll")),
            dir.join(format!("r-{lang}.conll")),
        );
        write_conll(&read_hipe(&gold_p), &gc);
        write_conll(&read_hipe(&run_p), &rc);
        let evaluate = |family: &str, g: &Path, r: &Path, t: &Path, extra: &[&str]| {
            let (g, r, t) = (
                g.to_string_lossy(),
                r.to_string_lossy(),
                t.to_string_lossy(),
            );
            let mut args = vec![
                "evaluate", "--family", family, "--gold", &g, "--pred", &r, "--train", &t,
                "--json", "-",
            ];
            args.extend_from_slice(extra);
            fairscore_json(&args)
        };
        // CoNLL, strict and exact regimes (exact: labels ignored in the matching).
        let with_keys = ["--breakdown", keys.as_str()];
        let v = evaluate("spans", &gc, &rc, &train_c, &with_keys);
        let totals = all_row(&v, "strict");
        assert!(totals.iter().all(|x| *x > 0.0), "{lang}: TP, FN and FP");
        sums_are(&v, &KEYS, totals, &format!("{lang} conll strict"));
        let exact = [&with_keys[..], &["--regimes", "exact"]].concat();
        let v = evaluate("spans", &gc, &rc, &train_c, &exact);
        sums_are(
            &v,
            &KEYS,
            all_row(&v, "exact"),
            &format!("{lang} conll exact"),
        );
        // HIPE TSV: the spans family, and the hipe family's micro strict ALL row.
        let tsv_keys = format!("{keys},period");
        let with_tsv = ["--breakdown", tsv_keys.as_str()];
        let mut all_keys = KEYS.to_vec();
        all_keys.push("period");
        let v = evaluate("spans", &gold_p, &run_p, &train_p, &with_tsv);
        sums_are(
            &v,
            &all_keys,
            all_row(&v, "strict"),
            &format!("{lang} hipe tsv"),
        );
        let v = evaluate("hipe", &gold_p, &run_p, &train_p, &with_tsv);
        let row = json_table(&v, "micro")["rows"]
            .as_array()
            .and_then(|rows| {
                rows.iter().find(|r| {
                    r["key"]["column"] == "NE-COARSE-LIT"
                        && r["key"]["regime"] == "strict"
                        && r["key"]["label"] == "ALL"
                })
            })
            .expect("the strict ALL row");
        let n = |c: &str| row["scores"][c].as_f64().expect("count");
        let micro = [n("TP"), n("FN"), n("FP")];
        sums_are(&v, &all_keys, micro, &format!("{lang} hipe family"));
    }
}
