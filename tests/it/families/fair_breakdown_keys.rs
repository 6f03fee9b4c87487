//! The fair family's keys beyond label and length (docs/breakdown.md, "The fair family"): on a
//! HIPE-2022 run (HIPE TSV, with another HIPE gold as training file), the same run written as
//! CoNLL, and brat annotators of the brat example project, every bucket's ten counts equal a
//! computation written here from the `--errors` listing (one row per gold and run span with
//! its unit, first and last token, fair type and text), bucketed by this test's own rule for
//! each key: chars and capitalisation of the listed text, the listed unit as document, the
//! training keys from this test's own reading of the training file, and on CoNLL the sentence
//! keys from the sentence lengths of the CoNLL file.

use super::breakdown::{caps, read_hipe, train_set, write_conll, TrainSet};
use crate::common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One row of the `--errors` listing, with its key values.
pub(super) struct Row {
    pub(super) gold: bool,
    pub(super) kind: String,
    pub(super) text: BTreeMap<&'static str, String>,
    pub(super) num: BTreeMap<&'static str, f64>,
}

/// The column of a count: TP, FN/FP, LE, BE, LBE, gold side then run side.
fn slot(gold: bool, kind: &str) -> usize {
    let k = match kind {
        "TP" => 0,
        "FN" | "FP" => 1,
        "LE" => 2,
        "BES" | "BEL" | "BEO" => 3,
        "LBE" => 4,
        other => panic!("fair type {other}"),
    };
    k + if gold { 0 } else { 5 }
}

const COLUMNS: [&str; 10] = [
    "TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold", "TP-run", "FP", "LE-run", "BE-run",
    "LBE-run",
];

/// The listing's rows: (unit, gold?, begin, end, label, type, text); standoff listings name
/// their character offsets start and end.
pub(super) fn listing(path: &Path) -> Vec<(String, bool, usize, usize, String, String, String)> {
    let text = std::fs::read_to_string(path).expect("listing");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|c| *c == n).expect(n);
    let c = [
        col("unit"),
        col("side"),
        header
            .iter()
            .position(|c| *c == "begin" || *c == "start")
            .expect("begin"),
        col("end"),
        col("label"),
        col("type"),
        col("text"),
    ];
    lines
        .map(|l| {
            let x: Vec<&str> = l.split('\t').collect();
            let num = |i: usize| x[c[i]].parse::<usize>().expect("a number");
            (
                x[c[0]].to_string(),
                x[c[1]] == "target",
                num(2),
                num(3),
                x[c[4]].to_string(),
                x[c[5]].to_string(),
                unformula(x.get(c[6]).copied().unwrap_or("")).to_string(),
            )
        })
        .collect()
}

/// The positions of docs/standoff.md within characters `from..to` of a text: the pieces between
/// whitespace, further cut at every span boundary `cuts`; (first character, text) of each.
fn positions(doc: &[char], from: usize, to: usize, cuts: &BTreeSet<usize>) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (k, &ch) in doc.iter().enumerate().take(to).skip(from) {
        if ch.is_whitespace() {
            open = false;
            continue;
        }
        if !open || cuts.contains(&k) {
            out.push((k, String::new()));
            open = true;
        }
        if let Some(p) = out.last_mut() {
            p.1.push(ch);
        }
    }
    out
}

/// A brat directory as a training set: each document's positions (cut at its own span
/// boundaries) are its tokens, each `T` line's positions joined by a space an entity.
fn brat_train(dir: &Path) -> TrainSet {
    let mut t = TrainSet::default();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for ann in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ann"))
    {
        let doc: Vec<char> = std::fs::read_to_string(ann.with_extension("txt"))
            .expect("text")
            .chars()
            .collect();
        let spans: Vec<(String, usize, usize)> = std::fs::read_to_string(ann)
            .expect("ann")
            .lines()
            .filter(|l| l.starts_with('T'))
            .filter_map(|l| {
                let mid = l.split('\t').nth(1)?;
                let mut it = mid.split(' ');
                let label = it.next()?.to_string();
                Some((label, it.next()?.parse().ok()?, it.next()?.parse().ok()?))
            })
            .collect();
        let cuts: BTreeSet<usize> = spans.iter().flat_map(|s| [s.1, s.2]).collect();
        for (_, w) in positions(&doc, 0, doc.len(), &cuts) {
            t.vocab.insert(w);
        }
        for (label, s, e) in spans {
            let words: Vec<String> = positions(&doc, s, e, &cuts)
                .into_iter()
                .map(|p| p.1)
                .collect();
            *t.entities
                .entry(words.join(" "))
                .or_default()
                .entry(label)
                .or_default() += 1;
        }
    }
    t
}

/// A listed text as written: the listing prefixes with `'` a cell a spreadsheet would take as a
/// formula (`=`, `+`, `-`, `@` first, not a number; src/escape.rs).
fn unformula(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@']) && rest.parse::<f64>().is_err() => {
            rest
        }
        _ => s,
    }
}

/// Every key's value of every listed span. `sentences`: the tokens of every CoNLL sentence
/// unit by its name (`s1`, …), for the sentence keys; `train`: the training set; `texts`: the
/// directory of a brat gold's texts (spans are then read on their positions).
fn rows(
    path: &Path,
    sentences: Option<&BTreeMap<String, usize>>,
    train: Option<&TrainSet>,
    texts: Option<&Path>,
) -> Vec<Row> {
    let listed = listing(path);
    // Gold spans starting in each unit (a CoNLL unit is one sentence).
    let mut entities: BTreeMap<String, f64> = BTreeMap::new();
    for r in listed.iter().filter(|r| r.1) {
        *entities.entry(r.0.clone()).or_default() += 1.0;
    }
    // Standoff: every span boundary of the unit, both sides, and where the gold spans start
    // (character offsets).
    let mut cuts: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut gold_starts: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    if texts.is_some() {
        for r in &listed {
            cuts.entry(r.0.clone()).or_default().extend([r.2, r.3]);
            gold_starts
                .entry(r.0.clone())
                .or_default()
                .extend(r.1.then_some(r.2));
        }
    }
    listed
        .iter()
        .map(|(unit, gold, begin, end, label, kind, text)| {
            let mut n = BTreeMap::new();
            let pieces: Vec<String> = match texts {
                Some(dir) => {
                    let doc: Vec<char> = std::fs::read_to_string(dir.join(format!("{unit}.txt")))
                        .expect("the document's text")
                        .chars()
                        .collect();
                    let c = &cuts[unit];
                    // The span's sentence: the line its first character is on.
                    let ls = doc[..*begin]
                        .iter()
                        .rposition(|&x| x == '\n')
                        .map_or(0, |i| i + 1);
                    let le = doc[*begin..]
                        .iter()
                        .position(|&x| x == '\n')
                        .map_or(doc.len(), |i| begin + i);
                    let line = positions(&doc, ls, le, c);
                    let len = line.len() as f64;
                    let before = line.iter().filter(|p| p.0 < *begin).count() as f64;
                    let starting = gold_starts[unit]
                        .iter()
                        .filter(|&&g| g >= ls && g < le.max(ls + 1))
                        .count();
                    n.insert("sentence_length", len);
                    n.insert("position", before / len);
                    n.insert("density", starting as f64 / len);
                    positions(&doc, *begin, *end, c)
                        .into_iter()
                        .map(|p| p.1)
                        .collect()
                }
                None => text.split_whitespace().map(str::to_string).collect(),
            };
            n.insert(
                "length",
                if texts.is_some() {
                    pieces.len() as f64
                } else {
                    (*end + 1 - *begin) as f64
                },
            );
            let words: Vec<&str> = pieces.iter().map(String::as_str).collect();
            let joined = words.join(" ");
            let mut t = BTreeMap::new();
            t.insert("document", unit.clone());
            t.insert("capitalisation", caps(&words).to_string());
            n.insert("chars", joined.chars().count() as f64);
            if let Some(s) = sentences {
                let len = s[unit] as f64;
                n.insert("sentence_length", len);
                n.insert("density", entities.get(unit).copied().unwrap_or(0.0) / len);
                n.insert("position", (*begin - 1) as f64 / len);
            }
            if let Some(tr) = train {
                let oov = words.iter().any(|w| !tr.vocab.contains(*w));
                t.insert("oov", if oov { "yes" } else { "no" }.to_string());
                let (freq, same) = tr.entities.get(&joined).map_or((0, 0), |m| {
                    (m.values().sum::<u32>(), m.get(label).copied().unwrap_or(0))
                });
                n.insert("train_freq", f64::from(freq));
                n.insert(
                    "train_consistency",
                    if freq > 0 {
                        f64::from(same) / f64::from(freq)
                    } else {
                        0.0
                    },
                );
            }
            Row {
                gold: *gold,
                kind: kind.clone(),
                text: t,
                num: n,
            }
        })
        .collect()
}

/// The expected rows of a key: bucket name (discrete keys; `None` for quantile buckets) and
/// the ten counts.
fn expected(key: &str, rows: &[Row]) -> Vec<(Option<String>, [f64; 10])> {
    let gold: Vec<&Row> = rows.iter().filter(|r| r.gold).collect();
    if rows.first().is_some_and(|r| r.num.contains_key(key)) {
        let mut gv: Vec<f64> = gold.iter().map(|r| r.num[key]).collect();
        gv.sort_by(f64::total_cmp);
        let n = gv.len();
        let mut cuts: Vec<f64> = Vec::new();
        for k in 1..4 {
            let c = gv[(k * n).div_ceil(4) - 1];
            if cuts.last().is_none_or(|l| c > *l) && c < gv[n - 1] {
                cuts.push(c);
            }
        }
        let mut out = vec![(None, [0.0; 10]); cuts.len() + 1];
        for r in rows {
            let b = cuts.iter().filter(|c| **c < r.num[key]).count();
            out[b].1[slot(r.gold, &r.kind)] += 1.0;
        }
        return out;
    }
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let closed: &[&str] = match key {
        "capitalisation" => &["upper", "title", "lower", "mixed", "no letters"],
        "oov" => &["no", "yes"],
        _ => &[],
    };
    for c in closed {
        count.insert(c.to_string(), 0);
    }
    for r in rows {
        *count.entry(r.text[key].clone()).or_default() += usize::from(r.gold);
    }
    let mut names: Vec<String> = count.keys().cloned().collect();
    assert!(names.len() <= 20, "{key}: no (other) bucket in these data");
    if key == "capitalisation" {
        names.sort_by_key(|n| closed.iter().position(|o| o == n));
    }
    let mut out: Vec<(Option<String>, [f64; 10])> =
        names.iter().map(|n| (Some(n.clone()), [0.0; 10])).collect();
    for r in rows {
        let b = names
            .iter()
            .position(|n| *n == r.text[key])
            .expect("a bucket");
        out[b].1[slot(r.gold, &r.kind)] += 1.0;
    }
    out
}

pub(super) fn check(v: &Value, rows: &[Row], keys: &[&str], what: &str) {
    for key in keys {
        let want = expected(key, rows);
        let got = json_table(v, &format!("breakdown:{key}"))["rows"]
            .as_array()
            .expect("rows")
            .clone();
        assert_eq!(got.len(), want.len(), "{what} {key}: buckets");
        // Every key discriminates here but the brat training consistency: Max annotated the
        // same documents, so more than three quarters of the gold spans have consistency 1,
        // the largest value, and the quantile rule leaves one bucket.
        if !(what == "brat train" && *key == "train_consistency") {
            assert!(want.len() > 1, "{what} {key}: more than one bucket");
        }
        for (row, (name, c)) in got.iter().zip(&want) {
            if let Some(n) = name {
                assert_eq!(row["key"]["bucket"], n.as_str(), "{what} {key}");
            }
            for (col, x) in COLUMNS.iter().zip(c) {
                assert_eq!(
                    row["scores"][col].as_f64(),
                    Some(*x),
                    "{what} {key} {} {col}",
                    row["key"]["bucket"]
                );
            }
        }
    }
}

pub(super) fn fair(
    gold: &str,
    run: &str,
    keys: &[&str],
    train: Option<&str>,
    errors: &Path,
) -> Value {
    let breakdown = keys.join(",");
    let es = errors.to_string_lossy().to_string();
    let mut args = vec![
        "fair",
        "--gold",
        gold,
        "--pred",
        run,
        "--breakdown",
        &breakdown,
    ];
    args.extend(["--errors", &es, "--json", "-"]);
    if let Some(t) = train {
        args.extend(["--train", t]);
    }
    fairscore_json(&args)
}

#[test]
fn fair_keys_equal_a_computation_from_the_listing() {
    let Some(data) = shared_data("fair_breakdown_keys") else {
        return;
    };
    let dir = temp_dir("fair-breakdown-keys");
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let train = h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let tset = train_set(&read_hipe(&train));
    let (g, r, t) = (
        gold.to_string_lossy().to_string(),
        run.to_string_lossy().to_string(),
        train.to_string_lossy().to_string(),
    );
    // HIPE TSV: the text keys, document and the training keys.
    let keys = [
        "chars",
        "capitalisation",
        "document",
        "oov",
        "train_freq",
        "train_consistency",
    ];
    let errors = dir.join("hipe.tsv");
    let v = fair(&g, &r, &keys, Some(&t), &errors);
    check(&v, &rows(&errors, None, Some(&tset), None), &keys, "hipe");
    // The same files as CoNLL: sentence units, so the sentence keys too.
    let (gd, rd) = (read_hipe(&gold), read_hipe(&run));
    let (gc, rc) = (dir.join("gold.conll"), dir.join("run.conll"));
    write_conll(&gd, &gc);
    write_conll(&rd, &rc);
    let mut lens: BTreeMap<String, usize> = BTreeMap::new();
    let conll = std::fs::read_to_string(&gc).expect("conll");
    let mut n = 0;
    for block in conll.split("\n\n") {
        let toks = block
            .lines()
            .filter(|l| !l.starts_with("-DOCSTART-") && !l.is_empty())
            .count();
        if toks > 0 {
            n += 1;
            lens.insert(format!("s{n}"), toks);
        }
    }
    let keys = [
        "chars",
        "capitalisation",
        "sentence_length",
        "density",
        "position",
        "oov",
    ];
    let errors = dir.join("conll.tsv");
    // The training file is read in the gold's format: the training gold as CoNLL too.
    let tc = dir.join("train.conll");
    write_conll(&read_hipe(&train), &tc);
    let v2 = fair(
        &gc.to_string_lossy(),
        &rc.to_string_lossy(),
        &keys,
        Some(&tc.to_string_lossy()),
        &errors,
    );
    check(
        &v2,
        &rows(&errors, Some(&lens), Some(&tset), None),
        &keys,
        "conll",
    );
    // brat: two annotators of the example project, document by document.
    let brat = data.join("brat/bratiaa-example/example-project");
    let keys = [
        "length",
        "chars",
        "capitalisation",
        "document",
        "sentence_length",
        "density",
        "position",
    ];
    let errors = dir.join("brat.tsv");
    let v = fair(
        &brat.join("Lisa").to_string_lossy(),
        &brat.join("Maria").to_string_lossy(),
        &keys,
        None,
        &errors,
    );
    check(
        &v,
        &rows(&errors, None, None, Some(&brat.join("Lisa"))),
        &keys,
        "brat",
    );
    // A brat training file (another annotator, Max): its positions and spans.
    let keys = ["oov", "train_freq", "train_consistency"];
    let max = brat.join("Max");
    let v = fair(
        &brat.join("Lisa").to_string_lossy(),
        &brat.join("Maria").to_string_lossy(),
        &keys,
        Some(&max.to_string_lossy()),
        &errors,
    );
    let tset = brat_train(&max);
    assert!(tset.entities.len() > 10);
    let listed = rows(&errors, None, Some(&tset), Some(&brat.join("Lisa")));
    assert!(listed.iter().any(|r| r.num["train_freq"] > 0.0));
    check(&v, &listed, &keys, "brat train");
}
