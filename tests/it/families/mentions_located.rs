//! InstructUIE's `location` → `located` rewrite (its `_format`, docs/generative.md): the
//! `instructuie` preset rewrites types and names on both sides, as the project's scorer (the
//! oracle's re-implementation) does; the counts are also derived here by hand.

use serde_json::json;

use super::data::write_jsonl;
use super::{cell, oracle, python, scored};
use crate::common::temp_dir;

#[test]
fn instructuie_rewrites_location_as_located_on_both_sides() {
    let Some(script) = python() else {
        return;
    };
    let dir = temp_dir("mentions-located");
    let gold = dir.join("gold.jsonl");
    let pred = dir.join("pred.jsonl");
    let units = [
        // A type written `located` equals the gold's `location` once both are rewritten.
        (
            "1",
            "Paris is a location.",
            ("location", "Paris"),
            "located: Paris",
        ),
        // A name: `Location Street` and `Located Street` are one item.
        (
            "2",
            "Location Street is in Leeds.",
            ("location", "Location Street"),
            "location: Located Street",
        ),
        (
            "3",
            "Anna Location wrote.",
            ("person", "Anna Location"),
            "person: Anna Located",
        ),
        // Any other type stays a different item: one FP, one FN.
        ("4", "Rome.", ("location", "Rome"), "loc: Rome"),
    ];
    let g: Vec<_> = units
        .iter()
        .map(|(id, text, (ty, name), _)| {
            json!({"id": id, "text": text, "entities": [{"text": name, "type": ty}]})
        })
        .collect();
    let p: Vec<_> = units
        .iter()
        .map(|(id, _, _, out)| json!({"id": id, "output": out}))
        .collect();
    write_jsonl(&gold, &g);
    write_jsonl(&pred, &p);
    let got = scored(&gold, &pred, &["--mentions-preset", "instructuie"]);
    let want = oracle(&script, "instructuie", &gold, &pred);
    let (tp, fp, fn_) = (
        cell(&got, "micro", "ALL", "TP"),
        cell(&got, "micro", "ALL", "FP"),
        cell(&got, "micro", "ALL", "FN"),
    );
    // By hand: units 1 to 3 match only through the rewrite; unit 4 does not match.
    assert_eq!((tp, fp, fn_), (3.0, 1.0, 1.0));
    assert_eq!(Some(tp), want["TP"].as_f64());
    assert_eq!(Some(tp + fp), want["npred"].as_f64());
    assert_eq!(Some(tp + fn_), want["ngold"].as_f64());
    for k in ["P", "R", "F1"] {
        assert_eq!(Some(cell(&got, "micro", "ALL", k)), want[k].as_f64(), "{k}");
    }
    // Without the preset (fairscore's whitespace normalisation) nothing is rewritten.
    let plain = scored(&gold, &pred, &["--parser", "pairs"]);
    assert_eq!(cell(&plain, "micro", "ALL", "TP"), 0.0);
}
