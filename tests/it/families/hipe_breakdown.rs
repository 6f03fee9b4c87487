//! `evaluate --family hipe --breakdown KEY,…` (docs/breakdown.md, "The hipe family"): on real
//! HIPE runs every bucket's counts, P, R and F1 equal the computation from the definitions in
//! `breakdown.rs` (the official entity reading, the strict regime, each key's rule), and the
//! buckets of every key add up to the hipe family's own `micro` strict `ALL` row; the NEL task
//! and the noise and period filters are refused, naming what is not supported, as is a
//! breakdown of the muc family (not yet).

use super::breakdown::{
    check_totals, hipe2020_iob_run, labels, read_hipe, spans, train_set, TrainSet, KEYS,
};
use crate::common::*;
use serde_json::Value;

/// TP, FN and FP of the `micro` table's strict `ALL` row of `column`.
fn strict_all(v: &Value, column: &str) -> [f64; 3] {
    let row = json_table(v, "micro")["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter().find(|r| {
                r["key"]["column"] == column
                    && r["key"]["regime"] == "strict"
                    && r["key"]["label"] == "ALL"
            })
        })
        .expect("the strict ALL row");
    let n = |c: &str| row["scores"][c].as_f64().expect("count");
    [n("TP"), n("FN"), n("FP")]
}

#[test]
fn every_key_equals_the_definitions_and_adds_up_to_the_micro_counts() {
    let Some(data) = shared_data("hipe_breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold_p = h.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let run_p = h.join("submissions/team1_bundle4_ajmc_en_1.tsv");
    let train_p = h.join("gold/HIPE-2022-v2.1-ajmc-test-de.tsv");
    let (gold, run, train) = (read_hipe(&gold_p), read_hipe(&run_p), read_hipe(&train_p));
    // The hipe family scores the gold's labels (the official scorer's tag set); the
    // computation here keeps those of gold and run: on this run they are the same.
    assert!(
        labels(&run).is_subset(&labels(&gold)),
        "no label the gold lacks"
    );
    let (gs, rs) = spans(&gold, &run, &train_set(&train));
    assert!(gs.len() > 300 && rs.len() > 300, "a real run");
    let keys = KEYS.join(",");
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "hipe",
        "--hipe-edition",
        "hipe-2022",
        "--gold",
        &gold_p.to_string_lossy(),
        "--pred",
        &run_p.to_string_lossy(),
        "--breakdown",
        &keys,
        "--train",
        &train_p.to_string_lossy(),
        "--json",
        "-",
    ]);
    let totals = strict_all(&v, "NE-COARSE-LIT");
    assert!(totals.iter().all(|x| *x > 0.0), "a run with TP, FN and FP");
    check_totals(&v, &gs, &rs, &KEYS, "hipe family", totals);
    // The signature names the breakdown and the training file.
    let sig = v["signature"].to_string();
    assert!(sig.contains("breakdown") && sig.contains("train"), "{sig}");
}

#[test]
fn noise_and_period_add_up_to_the_micro_counts_of_a_hipe_2020_gold() {
    let Some(data) = shared_data("hipe_breakdown") else {
        return;
    };
    let h = data.join("hipe2020-synth");
    let gold_p = h.join("gold/HIPE-data-v1.4-test-de.tsv");
    let gold = read_hipe(&gold_p);
    // A run in IOB (the decoding in breakdown.rs reads IOB, not IOBES).
    let (run_p, run) = hipe2020_iob_run(&h, |docs| labels(docs).is_subset(&labels(&gold)));
    let (gs, rs) = spans(&gold, &run, &TrainSet::default());
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "hipe",
        "--gold",
        &gold_p.to_string_lossy(),
        "--pred",
        &run_p.to_string_lossy(),
        "--breakdown",
        "noise,period,label",
        "--json",
        "-",
    ]);
    let totals = strict_all(&v, "NE-COARSE-LIT");
    check_totals(
        &v,
        &gs,
        &rs,
        &["noise", "period", "label"],
        "hipe-2020",
        totals,
    );
}

#[test]
fn nel_and_filters_are_refused_naming_what_is_not_supported() {
    let Some(data) = shared_data("hipe_breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let run = h.join("submissions/team1_bundle4_ajmc_en_1.tsv");
    let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
    let base = [
        "evaluate",
        "--family",
        "hipe",
        "--hipe-edition",
        "hipe-2022",
        "--gold",
        &g,
        "--pred",
        &r,
        "--breakdown",
        "label",
    ];
    for (extra, word) in [
        (&["--task", "nel"][..], "nel"),
        (&["--noise-level", "0.0-0.1"][..], "noise_level"),
    ] {
        let out = fairscore(&[&base[..], extra].concat());
        assert_eq!(out.status.code(), Some(2), "{extra:?}: a usage error");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("breakdown") && err.contains(word), "{err}");
    }
}

#[test]
fn compare_gives_each_runs_own_buckets_and_a_p_value() {
    let Some(data) = shared_data("hipe_breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let a = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let b = h.join("submissions/team4_bundle4_newseye_de_1.tsv");
    let (g, a, b) = (
        gold.to_string_lossy(),
        a.to_string_lossy(),
        b.to_string_lossy(),
    );
    let base = [
        "--family",
        "hipe",
        "--hipe-edition",
        "hipe-2022",
        "--gold",
        &g,
    ];
    let own = |run: &str| {
        let v = fairscore_json(
            &[
                &["evaluate"][..],
                &base,
                &["--pred", run, "--breakdown", "length,period", "--json", "-"],
            ]
            .concat(),
        );
        json_table(&v, "breakdown:period")["rows"]
            .as_array()
            .expect("rows")
            .clone()
    };
    let (oa, ob) = (own(&a), own(&b));
    assert!(oa.len() > 1, "several periods");
    let v = fairscore_json(
        &[
            &["compare"][..],
            &base,
            &[
                "--pred",
                &a,
                "--pred",
                &b,
                "--breakdown",
                "length,period",
                "--bootstrap",
                "200",
                "--json",
                "-",
            ],
        ]
        .concat(),
    );
    let rows = json_table(&v, "compare")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    for (ra, rb) in oa.iter().zip(&ob) {
        let bucket = ra["key"]["bucket"].as_str().expect("bucket");
        assert_eq!(
            rb["key"]["bucket"], bucket,
            "the gold's buckets for both runs"
        );
        for measure in ["P", "R", "F1"] {
            let row = rows
                .iter()
                .find(|r| {
                    r["key"]["table"] == "breakdown:period"
                        && r["key"]["level"] == bucket
                        && r["key"]["measure"] == measure
                })
                .unwrap_or_else(|| panic!("{bucket} {measure} compared"));
            let s = &row["scores"];
            let num = |x: &Value| x.as_f64().expect("number");
            let (ea, eb) = (num(&ra["scores"][measure]), num(&rb["scores"][measure]));
            assert!((num(&s["A"]) - ea).abs() < 1e-9, "{bucket} {measure} A");
            assert!((num(&s["B"]) - eb).abs() < 1e-9, "{bucket} {measure} B");
            assert!((num(&s["A-B"]) - (ea - eb)).abs() < 1e-9);
            assert!((0.0..=1.0).contains(&num(&s["p"])));
        }
    }
}
