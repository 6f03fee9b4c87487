//! `muc --breakdown` on standoff files (docs/breakdown.md, "The muc family"): a hand-made brat
//! pair whose every judged token and bucket is worked out here from docs/muc.md's table (a
//! partial token on the gold side, incorrect tokens in two label buckets, a missing and a
//! spurious entity); on the brat example project (Lisa against Peter and Maria), every key's
//! buckets add up to the muc table's `ALL` row and have the spans family's bucket names (the
//! same entities, so the same buckets).

use crate::common::*;
use serde_json::Value;

const COUNTS: [&str; 8] = [
    "COR-gold", "INC-gold", "PAR-gold", "MIS", "COR-run", "INC-run", "PAR-run", "SPU",
];

/// bucket → its eight counts and P, R, F.
fn rows(v: &Value, key: &str) -> Vec<(String, Vec<f64>)> {
    json_table(v, &format!("breakdown:{key}"))["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = &r["scores"];
            let cells = COUNTS.iter().chain(&["P", "R", "F"]);
            let v = cells.map(|c| s[*c].as_f64().expect("number")).collect();
            (r["key"]["bucket"].as_str().expect("bucket").to_string(), v)
        })
        .collect()
}

#[test]
fn a_brat_pair_worked_out_by_hand() {
    let dir = temp_dir("muc-breakdown-brat");
    let text = "Jean Dupont visited New York City and Paris .\n";
    let (g, r) = (dir.join("gold"), dir.join("run"));
    for (d, ann) in [
        (
            &g,
            "T1\tPER 0 11\tJean Dupont\nT2\tLOC 20 33\tNew York City\nT3\tLOC 38 43\tParis\n",
        ),
        (
            &r,
            "T1\tPER 0 4\tJean\nT2\tORG 20 28\tNew York\nT3\tMISC 34 37\tand\n",
        ),
    ] {
        std::fs::create_dir_all(d).expect("dir");
        std::fs::write(d.join("a.txt"), text).expect("write");
        std::fs::write(d.join("a.ann"), ann).expect("write");
    }
    let (gs, rs) = (g.to_string_lossy(), r.to_string_lossy());
    let v = fairscore_json(&[
        "muc",
        "--gold",
        &gs,
        "--pred",
        &rs,
        "--breakdown",
        "label,length",
        "--json",
        "-",
    ]);
    // Jean correct; Dupont partial (gold PER overlaps the run's Jean); New, York incorrect
    // (gold LOC, run ORG); City partial; and spurious (MISC); Paris missing.
    let all = json_table(&v, "muc")["rows"][0]["scores"].clone();
    let n = |c: &str| all[c].as_f64().expect("count");
    assert_eq!(
        [n("COR"), n("INC"), n("PAR"), n("MIS"), n("SPU")],
        [1.0, 2.0, 2.0, 1.0, 1.0]
    );
    let want = |name: &str, c: [f64; 8], p: f64, r: f64| {
        let f = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        let mut v = c.to_vec();
        v.extend([p, r, f]);
        (name.to_string(), v)
    };
    assert_eq!(
        rows(&v, "label"),
        vec![
            // Gold New York City (INC 2, PAR 1) and Paris (MIS 1): R = 0.5 / 4.
            want("LOC", [0., 2., 1., 1., 0., 0., 0., 0.], 0.0, 0.125),
            want("MISC", [0., 0., 0., 0., 0., 0., 0., 1.], 0.0, 0.0),
            // The run's New York: two incorrect tokens on the run side of ORG.
            want("ORG", [0., 0., 0., 0., 0., 2., 0., 0.], 0.0, 0.0),
            // Gold Jean Dupont (COR 1, PAR 1): R = 1.5 / 2; the run's Jean: P = 1.
            want("PER", [1., 0., 1., 0., 1., 0., 0., 0.], 1.0, 0.75),
        ]
    );
    // Gold lengths 2, 3, 1: cuts 1 and 2.
    assert_eq!(
        rows(&v, "length"),
        vec![
            want("<= 1", [0., 0., 0., 1., 1., 0., 0., 1.], 0.5, 0.0),
            want("(1, 2]", [1., 0., 1., 0., 0., 2., 0., 0.], 0.0, 0.75),
            want("> 2", [0., 2., 1., 0., 0., 0., 0., 0.], 0.0, 0.5 / 3.0),
        ]
    );
}

#[test]
fn brat_buckets_add_up_and_are_the_spans_familys() {
    let Some(data) = shared_data("muc_breakdown_standoff") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let keys = "label,length,chars,sentence_length,density,capitalisation,position,document,oov";
    let p = |a: &str| project.join(a).to_string_lossy().into_owned();
    for run in ["Peter", "Maria"] {
        let args = |family: &str| {
            fairscore_json(&[
                "evaluate",
                "--family",
                family,
                "--gold",
                &p("Lisa"),
                "--pred",
                &p(run),
                "--breakdown",
                keys,
                "--train",
                &p("Max"),
                "--json",
                "-",
            ])
        };
        let (m, s) = (args("muc"), args("spans"));
        let all = json_table(&m, "muc")["rows"][0]["scores"].clone();
        let n = |c: &str| all[c].as_f64().expect("count");
        // Peter: 14 incorrect tokens, no partial one; Maria: 25 partial tokens.
        assert!(n("COR") > 100.0 && n("INC") + n("PAR") > 10.0, "{run}");
        for key in keys.split(',') {
            let got = rows(&m, key);
            let mut sums = [0.0; 8];
            for (_, v) in &got {
                for (a, x) in sums.iter_mut().zip(v) {
                    *a += x;
                }
            }
            assert_eq!(
                [
                    sums[0],
                    sums[4],
                    sums[1],
                    sums[5],
                    sums[2] + sums[6],
                    sums[3],
                    sums[7]
                ],
                [
                    n("COR"),
                    n("COR"),
                    n("INC"),
                    n("INC"),
                    n("PAR"),
                    n("MIS"),
                    n("SPU")
                ],
                "{run} {key}: buckets add up to the ALL row"
            );
            let names = |t: &Value| -> Vec<Value> {
                t["rows"]
                    .as_array()
                    .expect("rows")
                    .iter()
                    .map(|r| r["key"]["bucket"].clone())
                    .collect()
            };
            let name = format!("breakdown:{key}");
            assert_eq!(
                names(json_table(&m, &name)),
                names(json_table(&s, &name)),
                "{run} {key}: the spans family's buckets"
            );
        }
    }
}
