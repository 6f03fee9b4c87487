//! The fair family's sentence keys and HIPE metadata keys on HIPE TSV (docs/breakdown.md, "The
//! fair family"): every bucket's ten counts equal a computation written here from the
//! `--errors` listing (each gold and run span with its document, first and last token and fair
//! type) and this test's own reading of the gold file: its sentences (cut after every token
//! whose MISC flags `EndOfSentence`, and at the end of each document: these golds have no
//! `# segment`), its noise levels (MISC `LED…`) and its documents' years (`# date`). On a
//! HIPE-2022 run (newseye-de neurbsl 3: sentences, density, position, period) and a HIPE-2020
//! synthetic run (noise, period, and the sentence keys of documents without sentence flags).
//! A small file with `# segment` comments checks that segments cut sentences too.

use super::breakdown::{hipe2020_iob_run, read_hipe, Doc};
use super::fair_breakdown_keys::{check, fair, listing, Row};
use crate::common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// A document's sentences: the sentence of every token, (first token, length) of each.
type Sentences = (Vec<usize>, Vec<(usize, usize)>);

/// The rows of the listing `errors` with the values of the sentence keys, `noise`, `period`
/// and `label`, read from the gold documents `gold` by this test's rules.
fn rows(errors: &Path, gold: &[Doc]) -> Vec<Row> {
    let listed = listing(errors);
    let docs: BTreeMap<&str, &Doc> = gold.iter().map(|d| (d.id.as_str(), d)).collect();
    // Per document: the sentence of every token (0-based), and each sentence's first token
    // and length.
    let mut sentences: BTreeMap<&str, Sentences> = BTreeMap::new();
    for d in gold {
        let (mut of, mut spans) = (Vec::new(), Vec::new());
        let mut from = 0;
        for (i, t) in d.toks.iter().enumerate() {
            of.push(spans.len());
            if t.eos || i + 1 == d.toks.len() {
                spans.push((from, i + 1 - from));
                from = i + 1;
            }
        }
        sentences.insert(d.id.as_str(), (of, spans));
    }
    // The gold spans starting in every sentence: (document, sentence) → count.
    let mut starting: BTreeMap<(String, usize), f64> = BTreeMap::new();
    for r in listed.iter().filter(|r| r.1) {
        let s = sentences[r.0.as_str()].0[r.2 - 1];
        *starting.entry((r.0.clone(), s)).or_default() += 1.0;
    }
    listed
        .iter()
        .map(|(unit, gold, begin, end, label, kind, _)| {
            let d = docs[unit.as_str()];
            let (of, spans) = &sentences[unit.as_str()];
            let s = of[begin - 1];
            let (first, len) = spans[s];
            let len = len as f64;
            let mut num = BTreeMap::new();
            num.insert("sentence_length", len);
            num.insert("position", (begin - 1 - first) as f64 / len);
            num.insert(
                "density",
                starting.get(&(unit.clone(), s)).copied().unwrap_or(0.0) / len,
            );
            let noise = d.toks[begin - 1..*end]
                .iter()
                .filter_map(|t| t.led)
                .fold(0.0, f64::max);
            num.insert("noise", noise);
            num.insert("period", d.year);
            let mut text = BTreeMap::new();
            text.insert("label", label.clone());
            Row {
                gold: *gold,
                kind: kind.clone(),
                text,
                num,
            }
        })
        .collect()
}

#[test]
fn fair_hipe_sentence_and_metadata_keys_equal_a_computation_from_the_listing() {
    let Some(data) = shared_data("fair_breakdown_hipe") else {
        return;
    };
    let dir = temp_dir("fair-breakdown-hipe");
    // HIPE-2022: sentences from EndOfSentence flags, dates, no noise levels.
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let text = std::fs::read_to_string(&gold).expect("gold");
    assert!(!text.lines().any(|l| l.starts_with("# segment")));
    let docs = read_hipe(&gold);
    assert!(docs.iter().flat_map(|d| &d.toks).filter(|t| t.eos).count() > 1000);
    let keys = ["sentence_length", "density", "position", "period"];
    let errors = dir.join("hipe2022.tsv");
    let v = fair(
        &gold.to_string_lossy(),
        &run.to_string_lossy(),
        &keys,
        None,
        &errors,
    );
    let listed = rows(&errors, &docs);
    assert!(listed.len() > 4000, "{} spans", listed.len());
    check(&v, &listed, &keys, "hipe-2022");
    // HIPE-2020 (synthetic runs): noise levels and dates.
    let h = data.join("hipe2020-synth");
    let gold = h.join("gold/HIPE-data-v1.4-test-de.tsv");
    let text = std::fs::read_to_string(&gold).expect("gold");
    assert!(!text.lines().any(|l| l.starts_with("# segment")));
    let docs = read_hipe(&gold);
    let (run, _) = hipe2020_iob_run(&h, |_| true);
    let keys = [
        "noise",
        "period",
        "label",
        "sentence_length",
        "density",
        "position",
    ];
    let errors = dir.join("hipe2020.tsv");
    let v = fair(
        &gold.to_string_lossy(),
        &run.to_string_lossy(),
        &keys,
        None,
        &errors,
    );
    let listed = rows(&errors, &docs);
    assert!(listed.iter().any(|r| r.num["noise"] > 0.0));
    check(&v, &listed, &keys, "hipe-2020");
}

#[test]
fn fair_hipe_segments_cut_sentences() {
    let dir = temp_dir("fair-breakdown-segments");
    // One document: a segment of 4 tokens, then one of 7 whose second token ends a sentence:
    // sentences of 4, 2 and 5 tokens, a gold LOC starting each (at its 1st, 1st and 2nd
    // token). The run finds the first two.
    let tags = [
        ("B-LOC", ""),
        ("O", ""),
        ("O", ""),
        ("O", ""),
        ("B-LOC", ""),
        ("O", "EndOfSentence"),
        ("O", ""),
        ("B-LOC", ""),
        ("I-LOC", ""),
        ("O", ""),
        ("O", ""),
    ];
    let write = |path: &Path, run: bool| {
        let mut out = String::from("TOKEN\tNE-COARSE-LIT\tMISC\n# hipe2022:document_id = d1\n");
        out.push_str("# hipe2022:date = 1900-01-01\n# segment_iiif_link = _\n");
        for (i, (tag, misc)) in tags.iter().enumerate() {
            if i == 4 {
                out.push_str("# segment_iiif_link = _\n");
            }
            let tag = if run && i >= 7 { "O" } else { tag };
            out.push_str(&format!("w{i}\t{tag}\t{misc}\n"));
        }
        std::fs::write(path, out).expect("write");
    };
    let (g, r) = (dir.join("gold.tsv"), dir.join("run.tsv"));
    write(&g, false);
    write(&r, true);
    let v = fairscore_json(&[
        "fair",
        "--gold",
        &g.to_string_lossy(),
        "--pred",
        &r.to_string_lossy(),
        "--breakdown",
        "sentence_length:3,position:3,density:3",
        "--json",
        "-",
    ]);
    let buckets = |key: &str| -> Vec<(String, f64, f64)> {
        json_table(&v, &format!("breakdown:{key}"))["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let n = |c: &str| r["scores"][c].as_f64().expect(c);
                let name = r["key"]["bucket"].as_str().expect("bucket").to_string();
                (name, n("TP-gold"), n("FN"))
            })
            .collect()
    };
    let s = |n: &str, tp: f64, fn_: f64| (n.to_string(), tp, fn_);
    assert_eq!(
        buckets("sentence_length"),
        [
            s("<= 2", 1.0, 0.0),
            s("(2, 4]", 1.0, 0.0),
            s("> 4", 0.0, 1.0)
        ]
    );
    // Positions 0/4, 0/2 and 1/5; densities 1/4, 1/2 and 1/5.
    assert_eq!(
        buckets("position"),
        [s("<= 0", 2.0, 0.0), s("> 0", 0.0, 1.0)]
    );
    assert_eq!(
        buckets("density"),
        [
            s("<= 0.2", 0.0, 1.0),
            s("(0.2, 0.25]", 1.0, 0.0),
            s("> 0.25", 1.0, 0.0)
        ]
    );
}
