//! The mentions family's knowledge-base ids (`--mentions-kb`, docs/generative.md): HIPE-2022
//! gold with its NEL-LIT column, JSON records with `kb`/`qid`/`link` and triples, brat N
//! lines; each against a count made here from the data.

use serde_json::{json, Value};

use super::data::{hipe_units, write_jsonl, Rng};
use super::{cell, scored};
use crate::common::{shared_data, temp_dir};

fn row(v: &Value) -> [f64; 3] {
    [
        cell(v, "micro", "ALL", "TP"),
        cell(v, "micro", "ALL", "FP"),
        cell(v, "micro", "ALL", "FN"),
    ]
}

#[test]
fn hipe_links_are_compared_when_asked() {
    let Some(data) = shared_data("mentions kb") else {
        return;
    };
    let dir = temp_dir("mentions-kb-hipe");
    let gold = data.join("hipe2022/gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let text = std::fs::read_to_string(&gold).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let nel = lines[0].split('\t').position(|c| c == "NEL-LIT").unwrap();
    let units = hipe_units(&gold, false);
    let mut rng = Rng(0x4B_1D5);
    let (mut rows, mut same, mut all) = (Vec::new(), 0.0, 0.0);
    for u in &units {
        let mut ents = Vec::new();
        for ((t, ty, _, _), (la, _)) in u.mentions.iter().zip(&u.lines) {
            // The link of a mention: its first token's NEL-LIT cell; `_` is none (NIL).
            let link = lines[*la].split('\t').nth(nel).unwrap_or("_");
            let link = if link == "_" { "NIL" } else { link };
            all += 1.0;
            let ty = ty.to_uppercase();
            match rng.below(5) {
                // A wrong id; no id at all (NIL); the same id in an object's `qid`.
                0 => ents.push(json!([t, ty, "Q0"])),
                1 => {
                    same += f64::from(u8::from(link == "NIL"));
                    ents.push(json!({"text": t, "type": ty}));
                }
                2 => {
                    same += 1.0;
                    ents.push(json!({"text": t, "type": ty, "qid": link}));
                }
                _ => {
                    same += 1.0;
                    ents.push(json!([t, ty, link]));
                }
            }
        }
        rows.push(json!({"id": u.id, "entities": ents}));
    }
    let pred = dir.join("run.jsonl");
    write_jsonl(&pred, &rows);
    let base = ["--unit", "document", "--align", "exact"];
    let v = scored(&gold, &pred, &base);
    assert_eq!(row(&v), [all, 0.0, 0.0]);
    let mut with = base.to_vec();
    with.extend(["--mentions-kb", "true"]);
    let v = scored(&gold, &pred, &with);
    assert_eq!(row(&v), [same, all - same, all - same]);
    assert!(all - same > 20.0 && same > 100.0, "{same} of {all}");
    let sig = v["signature"].as_str().unwrap_or_default();
    assert!(sig.contains("|kb:true|"), "{sig}");
    // The same gold as CoNLL `TOKEN NE LINK` (a `-DOCSTART-` line a document): its last
    // column is read as the links, its documents numbered; the same counts.
    let ne = lines[0]
        .split('\t')
        .position(|c| c == "NE-COARSE-LIT")
        .unwrap();
    let mut conll = String::new();
    for l in &lines[1..] {
        if l.starts_with("# hipe2022:document_id") {
            conll.push_str("-DOCSTART- O _\n\n");
        }
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        // Types upper-cased, as the HIPE reader reads them (the run's are).
        conll.push_str(&format!("{} {} {}\n", c[0], c[ne].to_uppercase(), c[nel]));
    }
    let cgold = dir.join("gold.conll");
    std::fs::write(&cgold, conll).unwrap();
    let numbered: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"id": (i + 1).to_string(), "entities": r["entities"]}))
        .collect();
    let cpred = dir.join("run-numbered.jsonl");
    write_jsonl(&cpred, &numbered);
    let v = scored(&cgold, &cpred, &with);
    assert_eq!(row(&v), [same, all - same, all - same]);
}

#[test]
fn json_and_brat_ids_are_read_from_each_documented_field() {
    let dir = temp_dir("mentions-kb-json");
    let gold = dir.join("gold.jsonl");
    let text = "Paris is not Paris Hilton, said Douglas Adams in Paris.";
    let ents = json!([
        {"text": "Paris", "type": "LOC", "kb": "Q90"},
        {"text": "Paris Hilton", "type": "PER", "kb": "Q47899"},
        {"text": "Douglas Adams", "type": "PER", "link": "Q42"},
        {"text": "Paris", "type": "LOC", "kb_id": "Q830149"}
    ]);
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    let pred = dir.join("pred.jsonl");
    // Right, right (triple), wrong, none (NIL, the gold has an id): 2 TP with ids.
    write_jsonl(
        &pred,
        &[json!({"id": "1", "entities": [
            {"text": "Paris", "type": "LOC", "qid": "Q90"},
            ["Paris Hilton", "PER", "Q47899"],
            {"text": "Douglas Adams", "type": "PER", "link": "Q5"},
            ["Paris", "LOC"]
        ]})],
    );
    let flags = ["--align", "exact", "--mentions-kb", "true"];
    assert_eq!(row(&scored(&gold, &pred, &flags)), [2.0, 2.0, 2.0]);
    assert_eq!(
        row(&scored(&gold, &pred, &["--align", "exact"])),
        [4.0, 0.0, 0.0]
    );
    // brat: N lines give the gold's ids (`Wikidata:Q90` read as Q90; the first of two).
    let brat = dir.join("brat");
    std::fs::create_dir_all(&brat).unwrap();
    std::fs::write(brat.join("d.txt"), text).unwrap();
    std::fs::write(
        brat.join("d.ann"),
        "T1\tLOC 0 5\tParis\nT2\tPER 13 25\tParis Hilton\nT3\tPER 32 45\tDouglas Adams\n\
         T4\tLOC 49 54\tParis\nN1\tReference T1 Wikidata:Q90\tParis\n\
         N2\tReference T2 Wikidata:Q47899\tParis Hilton\nN3\tReference T3 Wikidata:Q42\tDA\n\
         N4\tReference T3 Wikidata:Q5\tDA\n",
    )
    .unwrap();
    let bpred = dir.join("bpred.jsonl");
    let mut r = scored_pred(&pred, "d.ann");
    // The last Paris has no N line: NIL, as the prediction without an id.
    r[0]["entities"][2] = json!(["Douglas Adams", "PER", "Q42"]);
    write_jsonl(&bpred, &r);
    assert_eq!(row(&scored(&brat, &bpred, &flags)), [4.0, 0.0, 0.0]);
    let out = crate::common::fairscore(&[
        "evaluate",
        "--family",
        "mentions",
        "--gold",
        &gold.to_string_lossy(),
        "--pred",
        &pred.to_string_lossy(),
        "--mentions-kb",
        "true",
        "--mentions-preset",
        "instructuie",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("kb"), "{err}");
}

/// The records of `pred` with their id replaced by `id`.
fn scored_pred(pred: &std::path::Path, id: &str) -> Vec<Value> {
    std::fs::read_to_string(pred)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["id"] = json!(id);
            v
        })
        .collect()
}
