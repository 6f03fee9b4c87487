//! `compare --breakdown` of two runs whose discrete keys list different values (a label only
//! one run uses): both runs are compared on the union of their buckets, and a bucket one run
//! lacks has zero counts there (docs/breakdown.md). Each run's column equals that run's own
//! `evaluate --breakdown`, or 0 in a bucket the run's own breakdown does not have; for the
//! spans, fair and muc families.

use crate::common::*;
use serde_json::Value;

/// Three documents; run A adds ORG spans the gold lacks, run B MISC spans.
const GOLD: &str =
    "-DOCSTART- O\n\nParis B-LOC\nis O\nbig O\n\nJean B-PER\nDupont I-PER\nsaid O\n\n\
-DOCSTART- O\n\nRome B-LOC\nand O\nBern B-LOC\n\nAnna B-PER\nleft O\n\n\
-DOCSTART- O\n\nOslo B-LOC\nwas O\ncold O\n\nPeter B-PER\nran O\n\n";
const RUN_A: &str =
    "-DOCSTART- O\n\nParis B-LOC\nis O\nbig B-ORG\n\nJean B-PER\nDupont I-PER\nsaid O\n\n\
-DOCSTART- O\n\nRome B-ORG\nand O\nBern B-LOC\n\nAnna B-PER\nleft O\n\n\
-DOCSTART- O\n\nOslo B-LOC\nwas O\ncold O\n\nPeter O\nran B-ORG\n\n";
const RUN_B: &str =
    "-DOCSTART- O\n\nParis B-LOC\nis O\nbig O\n\nJean B-PER\nDupont O\nsaid B-MISC\n\n\
-DOCSTART- O\n\nRome B-LOC\nand O\nBern B-MISC\n\nAnna B-PER\nleft O\n\n\
-DOCSTART- O\n\nOslo B-LOC\nwas O\ncold O\n\nPeter B-PER\nran O\n\n";

/// bucket → (P, R, F1) of a run's own `breakdown:label` table (`f1` the name of its F column).
fn own(v: &Value, f1: &str) -> Vec<(String, [f64; 3])> {
    json_table(v, "breakdown:label")["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = &r["scores"];
            let f = |m: &str| s[m].as_f64().expect("ratio");
            (
                r["key"]["bucket"].as_str().expect("bucket").to_string(),
                [f("P"), f("R"), f(f1)],
            )
        })
        .collect()
}

#[test]
fn compare_reads_both_runs_on_the_union_of_their_buckets() {
    let dir = temp_dir("breakdown_compare");
    let g = write_file(&dir, "gold.conll", GOLD);
    let a = write_file(&dir, "a.conll", RUN_A);
    let b = write_file(&dir, "b.conll", RUN_B);
    for family in ["spans", "fair", "muc"] {
        // The muc family's F is F-beta (beta 1 here).
        let f1 = if family == "muc" { "F" } else { "F1" };
        let evaluate = |run: &str| {
            fairscore_json(&[
                "evaluate",
                "--family",
                family,
                "--gold",
                &g,
                "--pred",
                run,
                "--breakdown",
                "label,length",
                "--json",
                "-",
            ])
        };
        let (oa, ob) = (own(&evaluate(&a), f1), own(&evaluate(&b), f1));
        let names = |o: &[(String, [f64; 3])]| o.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        // The runs' own breakdowns differ: A has ORG, B has MISC.
        assert!(
            names(&oa).contains(&"ORG".to_string()) && !names(&ob).contains(&"ORG".to_string())
        );
        assert!(
            names(&ob).contains(&"MISC".to_string()) && !names(&oa).contains(&"MISC".to_string())
        );
        let v = fairscore_json(&[
            "compare",
            "--family",
            family,
            "--gold",
            &g,
            "--pred",
            &a,
            "--pred",
            &b,
            "--breakdown",
            "label,length",
            "--bootstrap",
            "200",
            "--json",
            "-",
        ]);
        let rows = json_table(&v, "compare")["rows"]
            .as_array()
            .expect("rows")
            .clone();
        let mut union: Vec<String> = names(&oa).into_iter().chain(names(&ob)).collect();
        union.sort();
        union.dedup();
        assert_eq!(union, ["LOC", "MISC", "ORG", "PER"], "{family}");
        for bucket in &union {
            for (m, measure) in ["P", "R", f1].into_iter().enumerate() {
                let row = rows
                    .iter()
                    .find(|r| {
                        r["key"]["table"] == "breakdown:label"
                            && r["key"]["level"] == bucket.as_str()
                            && r["key"]["measure"] == measure
                    })
                    .unwrap_or_else(|| panic!("{family} {bucket} {measure} compared"));
                let s = &row["scores"];
                let side = |o: &[(String, [f64; 3])]| {
                    o.iter().find(|x| &x.0 == bucket).map_or(0.0, |x| x.1[m])
                };
                let (ea, eb) = (side(&oa), side(&ob));
                let close = |x: &Value, e: f64| (x.as_f64().expect("number") - e).abs() < 1e-9;
                assert!(
                    close(&s["A"], ea),
                    "{family} {bucket} {measure} A {} {ea}",
                    s["A"]
                );
                assert!(
                    close(&s["B"], eb),
                    "{family} {bucket} {measure} B {} {eb}",
                    s["B"]
                );
                assert!(close(&s["A-B"], ea - eb), "{family} {bucket} {measure} A-B");
                let p = s["p"].as_f64().expect("p");
                assert!((0.0..=1.0).contains(&p));
            }
        }
        // A spurious-only bucket: precision 0 for its run, 0 (no spans) for the other.
        let orgp = rows.iter().find(|r| {
            r["key"]["table"] == "breakdown:label"
                && r["key"]["level"] == "ORG"
                && r["key"]["measure"] == "P"
        });
        assert_eq!(orgp.map(|r| r["scores"]["B"].as_f64()), Some(Some(0.0)));
    }
}
