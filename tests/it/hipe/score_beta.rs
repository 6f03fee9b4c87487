//! `--beta B` on `score` and `fair`: `F<β>` values beside the F1 ones, computed from the
//! counts, and every output byte for byte unchanged without it (or with β = 1).

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `score` on the bundled demo run (fuzzy, strict and fair rows) into a fresh directory
/// and returns the TSV and JSON texts.
fn score_demo(name: &str, extra: &[&str]) -> (String, String) {
    let out = temp_dir(name);
    let o = super::runs::score(&out, &[&["--regimes", "fuzzy,strict,fair"], extra].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |ext: &str| {
        std::fs::read_to_string(out.join(format!("{}.{ext}", super::runs::OUTPUT))).unwrap()
    };
    (read("tsv"), read("json"))
}

/// Every JSON object holding `F1_micro`, with its path.
fn micro_blocks<'a>(
    v: &'a Value,
    at: String,
    out: &mut Vec<(String, &'a serde_json::Map<String, Value>)>,
) {
    if let Value::Object(m) = v {
        if m.contains_key("F1_micro") {
            out.push((at.clone(), m));
        }
        for (k, x) in m {
            micro_blocks(x, format!("{at}/{k}"), out);
        }
    }
}

fn strip_key(v: &mut Value, key: &str) {
    if let Value::Object(m) = v {
        m.shift_remove(key);
        for x in m.values_mut() {
            strip_key(x, key);
        }
    }
}

#[test]
fn score_default_outputs_are_unchanged_and_beta_one_adds_nothing() {
    let (tsv, json) = score_demo("score_beta_default", &[]);
    let (tsv1, json1) = score_demo("score_beta_one", &["--beta", "1"]);
    assert_eq!(tsv, tsv1);
    assert_eq!(json, json1);
    assert!(!json.contains("F2_micro") && !json.contains("F0.5_micro"));
    // The official rows are still the reference ones.
    let expected = std::fs::read_to_string(
        root().join("reference_runs/expected/demo_bundle4_newseye_en_1_nerc_coarse.tsv"),
    )
    .unwrap();
    let official: Vec<&str> = tsv
        .split("\r\n")
        .filter(|l| l.contains("-fuzzy-") || l.contains("-strict-") || l.starts_with("System"))
        .collect();
    assert_eq!(official.join("\r\n") + "\r\n", expected);
}

#[test]
fn score_beta_adds_f_beta_from_the_counts_after_every_f1_micro() {
    let (tsv, json) = score_demo("score_beta_default2", &[]);
    for (beta, key) in [(2.0f64, "F2_micro"), (0.5, "F0.5_micro")] {
        let (tsv_b, json_b) =
            score_demo(&format!("score_beta_{key}"), &["--beta", &beta.to_string()]);
        // The TSV is the official layout whatever β.
        assert_eq!(tsv, tsv_b);
        let v: Value = serde_json::from_str(&json_b).unwrap();
        let mut blocks = Vec::new();
        micro_blocks(&v, String::new(), &mut blocks);
        assert!(blocks.len() >= 20, "{} blocks", blocks.len());
        let b2 = beta * beta;
        let mut from_counts = 0;
        for (at, m) in &blocks {
            let keys: Vec<&String> = m.keys().collect();
            let i = keys.iter().position(|k| *k == "F1_micro").unwrap();
            assert_eq!(
                keys.get(i + 1).map(|k| k.as_str()),
                Some(key),
                "{at}: {keys:?}"
            );
            let f = m[key].as_f64().unwrap();
            let (p, r) = (
                m["P_micro"].as_f64().unwrap(),
                m["R_micro"].as_f64().unwrap(),
            );
            let want = if p + r > 0.0 {
                (1.0 + b2) * p * r / (b2 * p + r)
            } else {
                0.0
            };
            assert!((f - want).abs() < 1e-12, "{at}: {f} vs {want}");
            // Strict and fuzzy (ent_type) blocks: TP = correct, so F-beta is
            // (1 + β²)·TP / (β²·possible + actual).
            if at.ends_with("/strict") || at.ends_with("/ent_type") {
                let n = |k: &str| m[k].as_f64().unwrap();
                let want = (1.0 + b2) * n("correct") / (b2 * n("possible") + n("actual"));
                let want = if want.is_finite() { want } else { 0.0 };
                assert!((f - want).abs() < 1e-12, "{at}: {f} vs counts {want}");
                from_counts += 1;
            }
        }
        assert!(from_counts >= 8, "{from_counts}");
        // The fair blocks have it too.
        assert!(blocks.iter().any(|(at, _)| at.ends_with("/fair")));
        // Without the F-beta keys the JSON is the default one.
        let mut stripped = v.clone();
        strip_key(&mut stripped, key);
        assert_eq!(stripped, serde_json::from_str::<Value>(&json).unwrap());
        // And an F-beta differs from F1 somewhere (β ≠ 1 matters).
        assert!(blocks
            .iter()
            .any(
                |(_, m)| (m[key].as_f64().unwrap() - m["F1_micro"].as_f64().unwrap()).abs() > 1e-6
            ));
    }
}

fn fair_fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/fair").join(name)
}

fn fair_run(name: &str, extra: &[&str]) -> (String, Value) {
    let out = temp_dir(name);
    let json = out.join("fair.json");
    let mut args = vec![
        "fair".to_string(),
        "--target".into(),
        fair_fixture("target.conll").to_string_lossy().into_owned(),
        "--system".into(),
        fair_fixture("system.conll").to_string_lossy().into_owned(),
        "--json".into(),
        json.to_string_lossy().into_owned(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = fairscore(&argv);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&json).unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        serde_json::from_str(&text).unwrap(),
    )
}

/// Removes column `name` from every table of a family JSON: its column entry and its cells.
fn strip_column(v: &mut Value, name: &str) {
    for t in v["tables"].as_array_mut().unwrap() {
        t["columns"]
            .as_array_mut()
            .unwrap()
            .retain(|c| c["name"] != name);
        for r in t["rows"].as_array_mut().unwrap() {
            strip_key(&mut r["scores"], name);
        }
    }
}

#[test]
fn fair_beta_adds_a_column_and_keys_and_nothing_without_it() {
    for weights in [&[][..], &["--weights", WEIGHTS][..]] {
        let with = |extra: &[&'static str]| [weights, extra].concat();
        let (tables, json) = fair_run("fair_beta_default", &with(&[]));
        let (tables1, json1) = fair_run("fair_beta_one", &with(&["--beta", "1"]));
        assert_eq!((&tables, &json), (&tables1, &json1));
        assert!(!tables.contains("F2"));
        let (tables2, json2) = fair_run("fair_beta_two", &with(&["--beta", "2"]));
        // Every table of scores: an F2 column right after F1, in the JSON and the text.
        let names = if weights.is_empty() {
            vec!["traditional", "fair"]
        } else {
            vec!["traditional", "fair", "weighted"]
        };
        let got: Vec<&str> = json2["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .filter(|n| *n != "confusion" && *n != "adequacy")
            .collect();
        assert_eq!(got, names);
        let f2_last = tables2
            .lines()
            .filter(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() > 4 && w[w.len() - 4..] == ["F1", "%", "F2", "%"]
            })
            .count();
        assert_eq!(f2_last, names.len(), "{tables2}");
        let mut checked = 0;
        for name in &names {
            let t = json_table(&json2, name);
            let cols: Vec<&str> = t["columns"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|c| c["name"].as_str())
                .collect();
            assert_eq!(cols[cols.len() - 2..], ["F1", "F2"], "{name}: {cols:?}");
            for row in t["rows"].as_array().unwrap() {
                let s = &row["scores"];
                let keys: Vec<&String> = s.as_object().unwrap().keys().collect();
                assert_eq!(keys.last().map(|k| k.as_str()), Some("F2"), "{keys:?}");
                let n = |k: &str| s[k].as_f64().unwrap();
                if *name == "traditional" {
                    // F2 = 5·TP / (4·(TP + FN) + (TP + FP)).
                    let den = 4.0 * (n("TP") + n("FN")) + n("TP") + n("FP");
                    let want = if den > 0.0 { 5.0 * n("TP") / den } else { 0.0 };
                    assert!((n("F2") - want).abs() < 1e-12, "{} vs {want}", n("F2"));
                }
                let (p, r) = (n("P"), n("R"));
                let want = if p + r > 0.0 {
                    5.0 * p * r / (4.0 * p + r)
                } else {
                    0.0
                };
                assert!((n("F2") - want).abs() < 1e-12, "{name}: {row}");
                if *name == "traditional" {
                    checked += 1;
                }
            }
        }
        // ALL and every label.
        assert!(checked >= 3, "{checked}");
        let mut stripped = json2.clone();
        strip_column(&mut stripped, "F2");
        // The signature says beta, so it differs; nothing else does.
        assert_ne!(stripped["signature"], json["signature"]);
        let mut json = json;
        for k in ["signature", "signature_fields"] {
            strip_key(&mut stripped, k);
            strip_key(&mut json, k);
        }
        assert_eq!(stripped, json);
    }
}

#[test]
fn bad_beta_is_a_usage_error() {
    let out = temp_dir("score_beta_bad");
    let gold = root().join("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = root().join("reference_runs/demo_bundle4_newseye_en_1.tsv");
    for b in [
        "--beta=0",
        "--beta=-1",
        "--beta=nan",
        "--beta=inf",
        "--beta=x",
    ] {
        let o = fairscore(&[
            "score",
            "-r",
            gold.to_str().unwrap(),
            "-p",
            run.to_str().unwrap(),
            "-t",
            "nerc_coarse",
            "-e",
            "hipe-2022",
            "-o",
            out.to_str().unwrap(),
            b,
        ]);
        assert_eq!(o.status.code(), Some(2), "score {b}");
        let o = fairscore(&[
            "fair",
            "--target",
            fair_fixture("target.conll").to_str().unwrap(),
            "--system",
            fair_fixture("system.conll").to_str().unwrap(),
            b,
        ]);
        assert_eq!(o.status.code(), Some(2), "fair {b}");
        assert!(o.stdout.is_empty());
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}
