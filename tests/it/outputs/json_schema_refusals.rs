//! Each schema published beside `docs/results.schema.json` (whose own refusals are in
//! tests/it/outputs/results_schema.rs) refuses malformed documents: the validations of
//! tests/it/outputs/json_schemas.rs and tests/it/outputs/json_schema_files.rs could fail. For each schema, a small
//! valid document, then copies broken one way each (NaN written as text, a count that is not
//! whole, a key the writer never writes, a required key missing, an unknown code or task).

use crate::common::schema;

use schema::{errors, validator};
use serde_json::{json, Value};

/// `doc` with `f` applied: a copy to break.
fn broken(doc: &Value, f: impl FnOnce(&mut Value)) -> Value {
    let mut d = doc.clone();
    f(&mut d);
    d
}

#[test]
fn each_schema_refuses_malformed_documents() {
    let refuses = |name: &str, good: Value, bad: Vec<(&str, Value)>| {
        let v = validator(name);
        assert!(
            errors(&v, &good).is_empty(),
            "{name}: {:?}",
            errors(&v, &good)
        );
        for (what, doc) in bad {
            assert!(!errors(&v, &doc).is_empty(), "{name} accepts {what}: {doc}");
        }
    };
    let finding = json!({"severity": "warning", "code": "iobes", "file": "r.tsv", "line": 3,
        "column": "NE-COARSE-LIT", "message": "m", "hint": "", "count": 2,
        "places": [{"file": "r.tsv", "line": 3}, {"file": "r.tsv", "line": 5}]});
    let check = json!({"gold": "g.tsv", "run": "r.tsv", "tasks": ["nerc_coarse"], "ok": false,
        "errors": 0, "warnings": 1, "notes": 0, "summary": "s", "findings": [finding]});
    refuses(
        "check",
        check.clone(),
        vec![
            (
                "an unknown code",
                broken(&check, |d| d["findings"][0]["code"] = json!("made-up")),
            ),
            (
                "a line as text",
                broken(&check, |d| d["findings"][0]["line"] = json!("3")),
            ),
            ("an extra key", broken(&check, |d| d["extra"] = json!(1))),
            (
                "no summary",
                broken(&check, |d| {
                    d.as_object_mut().unwrap().remove("summary");
                }),
            ),
            (
                "an unknown task",
                broken(&check, |d| d["tasks"][0] = json!("ner")),
            ),
            (
                "a count of 0",
                broken(&check, |d| d["findings"][0]["count"] = json!(0)),
            ),
            (
                "a finding without places",
                broken(&check, |d| d["findings"][0]["places"] = json!([])),
            ),
        ],
    );
    let regime = json!({"correct": 1, "incorrect": 0, "partial": 0, "missed": 0, "spurious": 1,
        "possible": 1, "actual": 2, "TP": 1, "FP": 1, "FN": 0, "P_micro": 0.5, "R_micro": 1.0,
        "F1_micro": 0.6666666666666666, "P_macro_doc": 0.5, "R_macro_doc": 1.0,
        "F1_macro_doc": 0.6666666666666666, "P_macro_doc_std": 0.0, "R_macro_doc_std": 0.0,
        "F1_macro_doc_std": null});
    let label = json!({"partial": regime, "strict": regime, "ent_type": regime, "exact": regime});
    let hipe = json!({"NE-COARSE-LIT": {"TIME-ALL": {"LED-ALL": {"LOC": label, "ALL": label}}}});
    let lbl = |d: &mut Value| d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"].take();
    refuses(
        "hipe-score",
        hipe.clone(),
        vec![
            (
                "NaN as text",
                broken(&hipe, |d| {
                    let mut l = lbl(d);
                    l["strict"]["P_micro"] = json!("NaN");
                    d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"] = l;
                }),
            ),
            (
                "a fractional count",
                broken(&hipe, |d| {
                    let mut l = lbl(d);
                    l["strict"]["TP"] = json!(1.5);
                    d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"] = l;
                }),
            ),
            (
                "a score above 1",
                broken(&hipe, |d| {
                    let mut l = lbl(d);
                    l["exact"]["R_micro"] = json!(1.5);
                    d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"] = l;
                }),
            ),
            (
                "an unknown regime key",
                broken(&hipe, |d| {
                    let mut l = lbl(d);
                    l["strict"]["F1_mikro"] = json!(0.5);
                    d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"] = l;
                }),
            ),
            (
                "no ALL",
                broken(&hipe, |d| {
                    lbl(d);
                    d["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]
                        .as_object_mut()
                        .unwrap()
                        .remove("ALL");
                }),
            ),
            (
                "a level missing",
                json!({"NE-COARSE-LIT": {"TIME-ALL": {"LOC": label, "ALL": label}}}),
            ),
            ("a cutoff of 0", json!({"0": hipe})),
        ],
    );
    let board = json!({"name": "c", "tables": [{"task": "ner", "family": "spans", "metric": "F1",
        "row": "ALL", "unit": "sentence", "group": {}, "gold": "g.conll",
        "signature": "fairscore|family:spans", "signature_fields": {"family": "spans"},
        "rows": [{"rank": 1, "system": "a_1", "run_hash": "0123abcd", "scores": {"F1": 0.5},
            "ci": {}}],
        "teams": [{"rank": 1, "team": "a", "system": "a_1", "score": 0.5}]}],
        "not_scored": [{"file": "b_1.txt", "kind": "failed", "reason": "r"}]});
    refuses(
        "leaderboard",
        board.clone(),
        vec![
            (
                "a p-value without resampling",
                broken(&board, |d| d["tables"][0]["rows"][0]["p_next"] = json!(0.5)),
            ),
            (
                "a rank of 0",
                broken(&board, |d| d["tables"][0]["rows"][0]["rank"] = json!(0)),
            ),
            (
                "no list of the files not ranked",
                broken(&board, |d| {
                    d.as_object_mut().unwrap().remove("not_scored");
                }),
            ),
            (
                "a file not ranked of an unknown kind",
                broken(&board, |d| d["not_scored"][0]["kind"] = json!("lost")),
            ),
            (
                "a score as text",
                broken(&board, |d| {
                    d["tables"][0]["rows"][0]["scores"]["F1"] = json!("0.5")
                }),
            ),
            (
                "no teams",
                broken(&board, |d| {
                    d["tables"][0].as_object_mut().unwrap().remove("teams");
                }),
            ),
            (
                "resampling without tests",
                broken(&board, |d| {
                    d["tables"][0]["resampling"] = json!({"method":
            "percentile bootstrap", "samples": 10, "seed": 1, "confidence": 0.95, "unit": "sentence",
            "test": "paired approximate randomization"})
                }),
            ),
        ],
    );
    let scores = json!({"ner__F1": 0.5, "seg_de__F1": 0.25});
    refuses(
        "codabench-scores",
        scores.clone(),
        vec![
            ("NaN as text", json!({"ner__F1": "NaN"})),
            ("null", json!({"ner__F1": null})),
            ("beyond numeric(20,10)", json!({"ner__FP": f64::MAX})),
            ("10^10", json!({"ner__FP": 1e10})),
            ("a key without a metric", json!({"ner": 0.5})),
            ("nothing", json!({})),
        ],
    );
}
