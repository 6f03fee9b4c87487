//! How the mentions family pairs a run with its gold and compares labels (issues 46.9, 47.3):
//! a brat document is named as every command names it (no `.ann`); a run none of whose ids
//! names a gold unit, and a gold unit id given twice, are input errors; run labels compare
//! with a HIPE gold's upper-cased as the standoff scorings do, and a run whose every label is
//! unknown says so; mentions without a place match whatever the order of the lists.

use serde_json::{json, Value};

use super::data::{brat_units, hipe_units, write_jsonl};
use super::{cell, scored};
use crate::common::{copy_dir, fairscore, shared_data, temp_dir};

fn counts(v: &Value) -> [f64; 3] {
    ["TP", "FP", "FN"].map(|c| cell(v, "micro", "ALL", c))
}

/// The gold's own mentions as `[text, type]` pairs, one record per unit, with `id(unit)`.
fn own_run(units: &[super::data::Unit], id: impl Fn(&str) -> String) -> Vec<Value> {
    units
        .iter()
        .map(|u| {
            let ents: Vec<Value> = u
                .mentions
                .iter()
                .map(|(t, ty, _, _)| json!([t, ty]))
                .collect();
            json!({"id": id(&u.id), "entities": ents})
        })
        .collect()
}

#[test]
fn brat_documents_are_named_without_ann_as_every_command_names_them() {
    let Some(data) = shared_data("mentions brat ids") else {
        return;
    };
    let lisa = data.join("brat/bratiaa-example/example-project/Lisa");
    let dir = temp_dir("mentions-brat-ids");
    // A project with a sub-folder: documents named `esp/esp.train-doc-100`, ….
    let gold = dir.join("gold");
    copy_dir(&lisa, &gold.join("esp"));
    let units = brat_units(&lisa);
    let n: usize = units.iter().map(|u| u.mentions.len()).sum();
    // A mention given twice in a document (two brat T lines) is one with sets.
    let distinct: usize = units
        .iter()
        .map(|u| {
            let mut m: Vec<(&str, &str)> = u
                .mentions
                .iter()
                .map(|x| (x.0.as_str(), x.1.as_str()))
                .collect();
            m.sort();
            m.dedup();
            m.len()
        })
        .sum();
    assert!(n > 100 && distinct > 100, "{n} {distinct}");
    for (what, suffix) in [("as other commands name them", ""), ("with .ann", ".ann")] {
        let pred = dir.join(format!("run{suffix}.jsonl"));
        write_jsonl(&pred, &own_run(&units, |id| format!("esp/{id}{suffix}")));
        let v = scored(&gold, &pred, &[]);
        assert_eq!(counts(&v), [distinct as f64, 0.0, 0.0], "{what}");
        // The spans family reads the same ids (the run placed on the gold's texts).
        let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
        let out = fairscore(&[
            "evaluate", "--family", "spans", "--gold", &g, "--pred", &p, "--align", "exact",
            "--table", "json",
        ]);
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_run_naming_no_gold_unit_is_an_input_error_showing_ids_of_both_sides() {
    let dir = temp_dir("mentions-no-ids");
    let gold = dir.join("gold.jsonl");
    let units: Vec<Value> = (1..=8)
        .map(|i| json!({"id": format!("doc-{i}"), "text": "Anna met Otto.", "entities": [["Anna", "PER"]]}))
        .collect();
    write_jsonl(&gold, &units);
    let pred = dir.join("run.jsonl");
    let recs: Vec<Value> = (1..=8)
        .map(|i| json!({"id": format!("d{i}.txt"), "entities": [["Anna", "PER"]]}))
        .collect();
    write_jsonl(&pred, &recs);
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    for family in ["mentions", "spans"] {
        let mut args = vec!["evaluate", "--family", family, "--gold", &g, "--pred", &p];
        if family == "spans" {
            args.extend(["--align", "exact"]);
        }
        let out = fairscore(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{family}: {err}");
        // The run's file and the line of its first record; a few ids of each side.
        assert!(err.contains("run.jsonl:1"), "{family}: {err}");
        for id in ["d1.txt", "d2.txt", "doc-1", "doc-2"] {
            assert!(err.contains(id), "{family}: no {id} in {err}");
        }
        assert!(
            !err.contains("doc-8"),
            "{family}: a few ids, not all: {err}"
        );
    }
}

#[test]
fn a_gold_unit_id_given_twice_is_refused_naming_both_lines() {
    let dir = temp_dir("mentions-gold-twice");
    let gold = dir.join("gold.jsonl");
    write_jsonl(
        &gold,
        &[
            json!({"id": "s1", "text": "Anna met Otto.", "entities": [["Anna", "PER"]]}),
            json!({"id": "s2", "text": "Rome.", "entities": [["Rome", "LOC"]]}),
            json!({"id": "s1", "text": "Otto met Anna.", "entities": [["Otto", "PER"]]}),
        ],
    );
    let pred = dir.join("run.jsonl");
    write_jsonl(&pred, &[json!({"id": "s1", "entities": [["Anna", "PER"]]})]);
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("gold.jsonl:3") && err.contains("line 1"),
        "{err}"
    );
    assert!(err.contains("\"s1\""), "{err}");
}

#[test]
fn run_labels_compare_with_a_hipe_gold_as_the_standoff_scorings_compare_them() {
    let Some(data) = shared_data("mentions hipe label case") else {
        return;
    };
    let gold = data.join("hipe2022/gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let dir = temp_dir("mentions-label-case");
    let units = hipe_units(&gold, false);
    let mut want = 0.0;
    for u in &units {
        let mut m: Vec<&(String, String, usize, usize)> = u.mentions.iter().collect();
        m.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        m.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        want += m.len() as f64;
    }
    assert!(want > 200.0, "{want}");
    // The file writes `pers`, `work`, …: as written, and upper-cased, both are the gold's.
    let g = gold.to_string_lossy();
    let mut strict = Vec::new();
    for case in ["written", "upper"] {
        let rows: Vec<Value> = units
            .iter()
            .map(|u| {
                let ents: Vec<Value> = u
                    .mentions
                    .iter()
                    .map(|(t, ty, _, _)| {
                        let ty = if case == "upper" {
                            ty.to_uppercase()
                        } else {
                            ty.clone()
                        };
                        json!([t, ty])
                    })
                    .collect();
                json!({"id": u.id, "entities": ents})
            })
            .collect();
        assert!(rows.iter().any(|r| r.to_string().contains("\"pers\"")) == (case == "written"));
        let pred = dir.join(format!("{case}.jsonl"));
        write_jsonl(&pred, &rows);
        let v = scored(&gold, &pred, &["--unit", "document"]);
        assert_eq!(counts(&v), [want, 0.0, 0.0], "labels {case}");
        // The run's labels aligned on the gold's texts: the spans family agrees.
        let p = pred.to_string_lossy();
        let out = fairscore(&[
            "evaluate", "--family", "spans", "--gold", &g, "--pred", &p, "--unit", "document",
            "--align", "exact", "--table", "json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        strict.push(crate::common::json_cell(&v, "strict", &["ALL"], "TP"));
    }
    assert_eq!(
        strict[0], strict[1],
        "spans: labels as written and upper-cased"
    );
    assert!(strict[0].unwrap_or(0.0) > 200.0, "{strict:?}");
}

#[test]
fn a_run_whose_every_label_is_unknown_is_told_so() {
    let dir = temp_dir("mentions-unknown-labels");
    let gold = dir.join("gold.conll");
    std::fs::write(
        &gold,
        "Anna\tB-PER\nmet\tO\nOtto\tB-PER\nin\tO\nRome\tB-LOC\n.\tO\n",
    )
    .unwrap();
    let pred = dir.join("run.jsonl");
    write_jsonl(
        &pred,
        &[json!({"id": "1", "entities": [["Anna", "per"], ["Otto", "per"], ["Rome", "loc"]]})],
    );
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // Against CoNLL, labels compare as written: every run label is unknown, and the warning
    // names them and the gold's.
    for l in ["\"per\"", "\"loc\"", "\"PER\"", "\"LOC\""] {
        assert!(err.contains(l), "no {l} in {err}");
    }
    // One label the gold knows: no warning.
    write_jsonl(
        &pred,
        &[json!({"id": "1", "entities": [["Anna", "PER"], ["Otto", "per"]]})],
    );
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("\"per\""), "{err}");
}

#[test]
fn mentions_without_a_place_match_whatever_the_order_of_the_lists() {
    let dir = temp_dir("mentions-unplaced-order");
    let gold = dir.join("gold.jsonl");
    // Gold mentions without offsets, two of them in no text: they have no place.
    write_jsonl(
        &gold,
        &[json!({"id": "1", "text": "Anna met Otto.", "entities": [
            ["Bob Smith", "PER"], ["Carl Jones", "PER"], ["Anna", "PER"], ["Dora", "LOC"]]})],
    );
    let lists = [
        json!([
            ["Bob Smith", "PER"],
            ["Carl Jones", "PER"],
            ["Anna", "PER"],
            ["Dora", "PER"],
            ["Eve", "PER"]
        ]),
        json!([
            ["Eve", "PER"],
            ["Dora", "PER"],
            ["Anna", "PER"],
            ["Carl Jones", "PER"],
            ["Bob Smith", "PER"]
        ]),
        json!([
            ["Anna", "PER"],
            ["Carl Jones", "PER"],
            ["Eve", "PER"],
            ["Bob Smith", "PER"],
            ["Dora", "PER"]
        ]),
    ];
    for align in ["exact", "fuzzy"] {
        for (k, list) in lists.iter().enumerate() {
            let pred = dir.join(format!("run{k}.jsonl"));
            write_jsonl(&pred, &[json!({"id": "1", "entities": list})]);
            // Anna placed; Bob Smith and Carl Jones without a place on both sides, of the same
            // type and text: the same mentions. Dora (retyped) and Eve are false positives.
            let v = scored(&gold, &pred, &["--align", align]);
            assert_eq!(counts(&v), [3.0, 2.0, 1.0], "{align}, list {k}");
            let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
            let out = fairscore(&[
                "evaluate", "--family", "spans", "--gold", &g, "--pred", &p, "--align", align,
                "--table", "json",
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            let got: Vec<Option<f64>> = ["TP", "FP", "FN"]
                .iter()
                .map(|c| crate::common::json_cell(&v, "strict", &["ALL"], c))
                .collect();
            assert_eq!(
                got,
                [Some(3.0), Some(2.0), Some(1.0)],
                "spans {align}, list {k}"
            );
        }
    }
}
