//! Strings glued to their neighbours (issue 46.14): OCR text joins words at line ends
//! (`laFrance`, `Zollvereinallemand`, `Siegfriedcompte`), so a mention's string may occur only
//! inside a longer word. A string is placed at an unused occurrence at word boundaries when
//! there is one, else at the first unused occurrence anywhere (docs/generative.md,
//! "Alignment"). Checked on a small text and on a real HIPE-2022 run's own spans placed on
//! the gold's text as it was printed (`NoSpaceAfter` respected), against a placement made here.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{json, Value};

use super::data::write_jsonl;
use super::{cell, scored};
use crate::common::{shared_data, temp_dir};

fn counts(v: &Value) -> [f64; 4] {
    [
        cell(v, "micro", "ALL", "TP"),
        cell(v, "micro", "ALL", "FP"),
        cell(v, "micro", "ALL", "FN"),
        cell(v, "diagnostics", "unaligned", "n"),
    ]
}

/// The character offsets of the `k`-th occurrence of `s` in `text`.
fn at(text: &str, s: &str, k: usize) -> (usize, usize) {
    let b = text.match_indices(s).nth(k).expect("occurs").0;
    let a = text[..b].chars().count();
    (a, a + s.chars().count())
}

#[test]
fn a_glued_string_is_placed_inside_its_word_when_no_word_holds_it_alone() {
    let dir = temp_dir("mentions-glued");
    let text = "Les Parisiens de laFrance et du Zollvereinallemand: M. Siegfriedcompte à Paris.";
    let gold = dir.join("gold.jsonl");
    let ents: Vec<Value> = [
        ("France", "LOC", 0),
        ("Zollverein", "ORG", 0),
        ("M. Siegfried", "PER", 0),
        // `Paris` at word boundaries (its second occurrence; the first is in `Parisiens`).
        ("Paris", "LOC", 1),
    ]
    .iter()
    .map(|&(s, ty, k)| {
        let (a, b) = at(text, s, k);
        json!({"text": s, "type": ty, "start": a, "end": b})
    })
    .collect();
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    let pred = dir.join("run.jsonl");
    // `Paris` first: its word-boundary occurrence wins over the earlier one in `Parisiens`.
    let run = json!([
        ["Paris", "LOC"],
        ["France", "LOC"],
        ["Zollverein", "ORG"],
        ["M. Siegfried", "PER"]
    ]);
    write_jsonl(&pred, &[json!({"id": "1", "entities": run})]);
    for align in ["exact", "case", "fuzzy"] {
        let v = scored(&gold, &pred, &["--align", align]);
        assert_eq!(counts(&v), [4.0, 0.0, 0.0, 0.0], "{align}");
    }
    // Ignoring case, the glued occurrence too.
    let upper = json!([["FRANCE", "LOC"], ["zollverein", "ORG"]]);
    write_jsonl(&pred, &[json!({"id": "1", "entities": upper})]);
    for align in ["case", "fuzzy"] {
        let v = scored(&gold, &pred, &["--align", align]);
        assert_eq!(counts(&v), [2.0, 0.0, 2.0, 0.0], "{align}, other case");
    }
    let v = scored(&gold, &pred, &["--align", "exact"]);
    assert_eq!(
        counts(&v),
        [0.0, 2.0, 4.0, 2.0],
        "exact, other case: found nowhere"
    );
}

/// A HIPE TSV file's tokens: (document, token, NE-COARSE-LIT tag, MISC cell); `docs`: the
/// documents to give tokens without a document comment (a run's), by position.
fn tokens(path: &Path, docs: Option<&[String]>) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(path).expect("read the TSV");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let tag = header
        .iter()
        .position(|c| *c == "NE-COARSE-LIT")
        .expect("NE-COARSE-LIT");
    let mut doc = String::new();
    let mut out = Vec::new();
    for l in lines {
        if let Some(c) = l.strip_prefix('#') {
            if c.contains("document_id") {
                doc = c.split_once('=').map_or("", |x| x.1).trim().to_string();
            }
            continue;
        }
        if l.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        let d = docs.map_or(doc.clone(), |d| d[out.len()].clone());
        let misc = c.last().copied().unwrap_or("").to_string();
        out.push((
            d,
            c[0].to_string(),
            c.get(tag).unwrap_or(&"O").to_string(),
            misc,
        ));
    }
    out
}

/// Per document (in order): its text as printed (a space after each token but where the
/// gold's MISC says `NoSpaceAfter`) and the spans of `tags` (type, start, end in characters).
type Doc = (String, String, Vec<(String, usize, usize)>);
fn documents(gold: &[(String, String, String, String)], tags: &[String]) -> Vec<Doc> {
    let mut out: Vec<Doc> = Vec::new();
    let mut open: Option<(String, usize, usize)> = None;
    for (k, (doc, tok, _, _)) in gold.iter().enumerate() {
        if out.last().is_none_or(|d| &d.0 != doc) {
            if let (Some(o), Some(d)) = (open.take(), out.last_mut()) {
                d.2.push(o);
            }
            out.push((doc.clone(), String::new(), Vec::new()));
        }
        let d = out.last_mut().unwrap();
        let glued = k > 0 && gold[k - 1].3.contains("NoSpaceAfter") && &gold[k - 1].0 == doc;
        if !d.1.is_empty() && !glued {
            d.1.push(' ');
        }
        let start = d.1.chars().count();
        d.1.push_str(tok);
        let end = d.1.chars().count();
        let tag = tags[k].as_str();
        let ty = tag.get(2..).unwrap_or("");
        match (tag.chars().next(), &mut open) {
            (Some('I'), Some((t, _, e))) if t == ty => *e = end,
            (Some('B' | 'I'), _) if !ty.is_empty() => {
                if let Some(o) = open.take() {
                    d.2.push(o);
                }
                open = Some((ty.to_string(), start, end));
            }
            _ => {
                if let Some(o) = open.take() {
                    d.2.push(o);
                }
            }
        }
    }
    if let (Some(o), Some(d)) = (open, out.last_mut()) {
        d.2.push(o);
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The documented exact placement, made here: each string in turn takes the first unused
/// occurrence from where the previous one ended (then from the start) whose edges are word
/// boundaries; when there is none, the first unused occurrence anywhere in the same order.
fn place(text: &[char], strings: &[Vec<char>]) -> Vec<Option<(usize, usize)>> {
    let mut used = HashSet::new();
    let mut from = 0;
    let mut out = Vec::new();
    for s in strings {
        let (n, m) = (text.len(), s.len());
        let order: Vec<usize> = if m == 0 || m > n {
            Vec::new()
        } else {
            (from.min(n - m + 1)..=n - m)
                .chain(0..from.min(n - m + 1))
                .collect()
        };
        let hits: Vec<(usize, usize)> = order
            .into_iter()
            .filter(|&a| text[a..a + m] == s[..] && !used.contains(&(a, a + m)))
            .map(|a| (a, a + m))
            .collect();
        let bounded = |&&(a, b): &&(usize, usize)| {
            (a == 0 || !(is_word(text[a - 1]) && is_word(s[0])))
                && (b == n || !(is_word(text[b]) && is_word(s[m - 1])))
        };
        let p = hits.iter().find(bounded).or(hits.first()).copied();
        if let Some(p) = p {
            used.insert(p);
            from = p.1;
        }
        out.push(p);
    }
    out
}

#[test]
fn a_real_runs_own_spans_are_all_placed_on_the_printed_text() {
    let Some(data) = shared_data("mentions glued HIPE-2022") else {
        return;
    };
    let dir = temp_dir("mentions-glued-hipe");
    let gold_tsv = data.join("hipe2022/gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let run_tsv = data.join("hipe2022/submissions/team4_bundle4_newseye_fr_1.tsv");
    let g = tokens(&gold_tsv, None);
    let names: Vec<String> = g.iter().map(|t| t.0.clone()).collect();
    let r = tokens(&run_tsv, Some(&names));
    assert_eq!(g.len(), r.len(), "the run has the gold's tokens");
    let gold_docs = documents(&g, &g.iter().map(|t| t.2.clone()).collect::<Vec<_>>());
    let run_docs = documents(&g, &r.iter().map(|t| t.2.clone()).collect::<Vec<_>>());
    let (mut gold_rows, mut run_rows) = (Vec::new(), Vec::new());
    let (mut tp, mut npred, mut ngold, mut glued) = (0usize, 0usize, 0usize, 0usize);
    for ((id, text, gspans), (_, _, rspans)) in gold_docs.iter().zip(&run_docs) {
        let chars: Vec<char> = text.chars().collect();
        let cut = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
        let ents: Vec<Value> = gspans
            .iter()
            .map(|(ty, a, b)| json!({"text": cut(*a, *b), "type": ty, "start": a, "end": b}))
            .collect();
        gold_rows.push(json!({"id": id, "text": text, "entities": ents}));
        // The run's spans as strings, each (string, type) once, in text order.
        let mut said: Vec<(String, String)> = Vec::new();
        for (ty, a, b) in rspans {
            let p = (cut(*a, *b), ty.clone());
            if !said.contains(&p) {
                said.push(p);
            }
        }
        let strings: Vec<Vec<char>> = said.iter().map(|(s, _)| s.chars().collect()).collect();
        let placed = place(&chars, &strings);
        let gset: HashSet<(&str, usize, usize)> = gspans
            .iter()
            .map(|(t, a, b)| (t.as_str(), *a, *b))
            .collect();
        for ((s, ty), p) in said.iter().zip(&placed) {
            let (a, b) = p.expect("a run's own string occurs in its text");
            let boundary = |i: usize| {
                i == 0 || i == chars.len() || !(is_word(chars[i - 1]) && is_word(chars[i]))
            };
            glued += usize::from(!(boundary(a) && boundary(b)));
            tp += usize::from(gset.contains(&(ty.as_str(), a, b)));
            assert_eq!(&cut(a, b), s);
        }
        npred += said.len();
        ngold += gspans.len();
        let list: Vec<Value> = said.iter().map(|(s, ty)| json!([s, ty])).collect();
        run_rows.push(json!({"id": id, "entities": list}));
    }
    // Enough glued strings to test (on main they were all left unplaced).
    assert!(
        npred > 1500 && glued > 100,
        "{npred} strings, {glued} glued"
    );
    let (gold, pred) = (dir.join("gold.jsonl"), dir.join("run.jsonl"));
    write_jsonl(&gold, &gold_rows);
    write_jsonl(&pred, &run_rows);
    let v = scored(&gold, &pred, &["--align", "exact"]);
    let want = [tp as f64, (npred - tp) as f64, (ngold - tp) as f64, 0.0];
    assert_eq!(counts(&v), want, "exact");
    let v = scored(&gold, &pred, &["--align", "case"]);
    assert_eq!(counts(&v)[3], 0.0, "case: every string placed");
    // Fuzzy: a string whose one place a window of an earlier string took stays unplaced (a
    // handful: `Jean de la Hire`, `JohnPhelan`); every other is placed.
    let v = scored(&gold, &pred, &["--align", "fuzzy"]);
    assert!(
        counts(&v)[3] * 100.0 < npred as f64,
        "fuzzy: {:?}",
        counts(&v)
    );
}
