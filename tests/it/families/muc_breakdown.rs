//! `muc --breakdown KEY,…` and `evaluate --family muc --breakdown` (docs/breakdown.md, "The
//! muc family"): on a real HIPE-2022 run, as HIPE TSV and as CoNLL written from it, every
//! bucket's eight counts, P, R and F equal a computation written here: the entities read by
//! the test's own rules (IOBES as IOB, CoNLL sentences bounding entities), every judged token
//! of the `--judgements` listing checked against a judgement made here by docs/muc.md's table
//! and then put on the gold side in its gold entity's bucket and on the run side in its run
//! entity's, each key's value by the spans family's rules, the quantile buckets of the gold
//! entities' values; each key's buckets add up to the muc table's `ALL` counts. Intervals are
//! present and ordered; keys the input cannot give are usage errors (standoff files:
//! `muc_breakdown_standoff`).

use super::breakdown::{
    read_hipe, sentences, train_set, write_conll, Buckets, Doc, Place, TrainSet, Valued,
};
use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The judged-token columns of a bucket: gold side, then run side.
const COUNTS: [&str; 8] = [
    "COR-gold", "INC-gold", "PAR-gold", "MIS", "COR-run", "INC-run", "PAR-run", "SPU",
];

/// The keys tested on both formats; the training keys and `period` are added on HIPE TSV.
const KEYS: [&str; 8] = [
    "label",
    "length",
    "chars",
    "sentence_length",
    "density",
    "capitalisation",
    "position",
    "document",
];

/// An entity of gold or run: its key values and its judged tokens (correct, incorrect,
/// partial, missing or spurious).
struct Ent {
    text: BTreeMap<&'static str, String>,
    num: BTreeMap<&'static str, f64>,
    counts: [f64; 4],
}

impl Valued for Ent {
    fn text(&self) -> &BTreeMap<&'static str, String> {
        &self.text
    }
    fn num(&self) -> &BTreeMap<&'static str, f64> {
        &self.num
    }
}

/// Entities of a tag sequence: a new entity at `B-` or a change of type, `I-` after `O`,
/// `O` ends one; (start, end, type), entities without a type left out.
fn decode(tags: &[&str]) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    let mut cur: Option<(String, usize)> = None;
    for (i, t) in tags.iter().enumerate() {
        if *t == "O" {
            if let Some((ty, s)) = cur.take() {
                out.push((s, i - 1, ty));
            }
            continue;
        }
        let ty: String = t.chars().skip(2).collect();
        match &cur {
            Some((cty, s)) if *cty != ty || t.starts_with('B') => {
                out.push((*s, i - 1, cty.clone()));
                cur = Some((ty, i));
            }
            Some(_) => {}
            None => cur = Some((ty, i)),
        }
    }
    if let Some((ty, s)) = cur {
        out.push((s, tags.len() - 1, ty));
    }
    out.retain(|e| !e.2.is_empty());
    out
}

/// The judgement of a position inside a gold entity `g` and/or a run entity `r` (their
/// types, and whether each overlaps an entity of the other side), docs/muc.md's table.
fn judgement(g: Option<(&str, bool)>, r: Option<(&str, bool)>) -> Option<(&'static str, usize)> {
    Some(match (g, r) {
        (None, None) => return None,
        (Some((a, _)), Some((b, _))) if a == b => ("correct", 0),
        (Some(_), Some(_)) => ("incorrect", 1),
        (Some((_, true)), None) | (None, Some((_, true))) => ("partial", 2),
        (Some(_), None) => ("missing", 3),
        (None, Some(_)) => ("spurious", 3),
    })
}

/// The `--judgements` listing: its rows' cells (document, line, token, gold, run, judgement,
/// type).
fn listing(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("judgements");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("document\tline\ttoken\tgold\trun\tjudgement\ttype")
    );
    lines
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Every gold and run entity with its values and judged tokens. Sequences are documents,
/// or sentences with `by_sentence` (CoNLL); the listing's rows are the judged positions in
/// order, each checked against the judgement made here; a document's name is its rows'.
fn entities(
    gold: &[Doc],
    run: &[Doc],
    by_sentence: bool,
    train: &TrainSet,
    rows: &[Vec<String>],
) -> (Vec<Ent>, Vec<Ent>) {
    let mut rows = rows.iter();
    let (mut gs, mut rs) = (Vec::new(), Vec::new());
    for (gd, rd) in gold.iter().zip(run) {
        assert_eq!(gd.toks.len(), rd.toks.len(), "aligned documents");
        let sentences = sentences(&gd.toks);
        let seqs: Vec<(usize, usize)> = if by_sentence {
            sentences.1.iter().map(|&(s, n)| (s, s + n)).collect()
        } else {
            vec![(0, gd.toks.len())]
        };
        let mut name: Option<String> = None;
        for (a, b) in seqs {
            let tags = |d: &Doc| -> Vec<(usize, usize, String)> {
                let t: Vec<&str> = d.toks[a..b].iter().map(|t| t.tag.as_str()).collect();
                decode(&t)
                    .into_iter()
                    .map(|(s, e, l)| (s + a, e + a, l))
                    .collect()
            };
            let (ge, re) = (tags(gd), tags(rd));
            let mut dens = BTreeMap::new();
            for g in &ge {
                *dens.entry(sentences.0[g.0]).or_insert(0u32) += 1;
            }
            let cover = |es: &[(usize, usize, String)]| {
                let mut at = vec![None; gd.toks.len()];
                for (k, e) in es.iter().enumerate() {
                    for x in &mut at[e.0..=e.1] {
                        *x = Some(k);
                    }
                }
                at
            };
            let (gat, rat) = (cover(&ge), cover(&re));
            let (mut gov, mut rov) = (vec![false; ge.len()], vec![false; re.len()]);
            for i in a..b {
                if let (Some(g), Some(r)) = (gat[i], rat[i]) {
                    gov[g] = true;
                    rov[r] = true;
                }
            }
            let (mut gc, mut rc) = (vec![[0.0; 4]; ge.len()], vec![[0.0; 4]; re.len()]);
            for i in a..b {
                let g = gat[i].map(|k| (ge[k].2.as_str(), gov[k]));
                let r = rat[i].map(|k| (re[k].2.as_str(), rov[k]));
                let Some((j, slot)) = judgement(g, r) else {
                    continue;
                };
                let row = rows.next().expect("a listing row per judged token");
                // A cell that could start a formula is written behind a quote.
                let shown = row[2].strip_prefix('\'').filter(|t| *t == gd.toks[i].text);
                assert_eq!(shown.unwrap_or(&row[2]), gd.toks[i].text, "listing token");
                assert_eq!(row[5], j, "judgement of {row:?}");
                let counted = g.or(r).map_or("", |x| x.0);
                assert_eq!(row[6], counted, "counted type of {row:?}");
                match &name {
                    Some(n) => assert_eq!(*n, row[0], "one name per document"),
                    None => name = Some(row[0].clone()),
                }
                if let Some(k) = gat[i] {
                    gc[k][slot] += 1.0;
                }
                if let Some(k) = rat[i] {
                    rc[k][slot] += 1.0;
                }
            }
            for (own, counts, toks, out) in
                [(&ge, gc, &gd.toks, &mut gs), (&re, rc, &rd.toks, &mut rs)]
            {
                for ((s, e, l), counts) in own.iter().zip(counts) {
                    let at = Place {
                        doc: gd,
                        toks,
                        span: (*s, *e, l),
                        sentences: &sentences,
                    };
                    let density = dens.get(&sentences.0[*s]).copied().unwrap_or(0);
                    let document = name.clone().expect("judged tokens");
                    let (text, num) = at.values(density, document, train);
                    out.push(Ent { text, num, counts });
                }
            }
        }
    }
    assert!(rows.next().is_none(), "every listing row is a judged token");
    (gs, rs)
}

/// The expected rows of a key: bucket name (`None` for quantile buckets, named by the cuts)
/// and the eight counts.
fn expected(key: &str, gold: &[Ent], run: &[Ent]) -> Vec<(Option<String>, [f64; 8])> {
    let buckets = Buckets::of(key, gold, run);
    let mut rows = buckets.rows();
    for (side, ents) in [gold, run].into_iter().enumerate() {
        for s in ents {
            let b = buckets.of_value(key, s);
            for (slot, n) in s.counts.iter().enumerate() {
                rows[b].1[side * 4 + slot] += n;
            }
        }
    }
    rows
}

/// Checks every key's table of `v` against the computation, and that each key's buckets add
/// up to the muc table's `ALL` row.
fn check(v: &Value, gold: &[Ent], run: &[Ent], keys: &[&str], what: &str) {
    let all = json_table(v, "muc")["rows"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["key"]["label"] == "ALL"))
        .expect("ALL");
    let n = |c: &str| all["scores"][c].as_f64().expect("count");
    let (cor, inc, par, mis, spu) = (n("COR"), n("INC"), n("PAR"), n("MIS"), n("SPU"));
    assert!(
        cor > 100.0 && par > 10.0 && mis > 10.0 && spu > 10.0,
        "{what}: a real run"
    );
    for key in keys {
        let t = json_table(v, &format!("breakdown:{key}"));
        let rows = t["rows"].as_array().expect("rows");
        let want = expected(key, gold, run);
        assert_eq!(rows.len(), want.len(), "{what} {key}: number of buckets");
        assert!(rows.len() > 1, "{what} {key}: more than one bucket");
        let mut sums = [0.0; 8];
        for (row, (name, c)) in rows.iter().zip(&want) {
            let b = row["key"]["bucket"].as_str().expect("bucket");
            if let Some(n) = name {
                assert_eq!(b, n, "{what} {key}: bucket name");
            }
            let s = &row["scores"];
            let got: Vec<f64> = COUNTS
                .iter()
                .map(|c| s[c].as_f64().expect("count"))
                .collect();
            assert_eq!(got, c.to_vec(), "{what} {key} {b}: counts");
            let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
            let r = ratio(c[0] + c[2] / 2.0, c[0] + c[1] + c[2] + c[3]);
            let p = ratio(c[4] + c[6] / 2.0, c[4] + c[5] + c[6] + c[7]);
            let f = ratio(2.0 * p * r, p + r);
            for (col, x) in [("P", p), ("R", r), ("F", f)] {
                let y = s[col].as_f64().expect("ratio");
                assert!(
                    (x - y).abs() < 1e-12,
                    "{what} {key} {b} {col}: {y}, expected {x}"
                );
            }
            for (a, x) in sums.iter_mut().zip(c) {
                *a += x;
            }
        }
        // Every judged token once per side it is inside an entity of: the muc table's counts.
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
            [cor, cor, inc, inc, par, mis, spu],
            "{what} {key}: buckets add up to the ALL row"
        );
    }
}

/// HIPE TSV read by the test: IOBES read as IOB (`S-` as `B-`, `E-` as `I-`), as muc reads it.
fn read_iob(path: &Path) -> Vec<Doc> {
    let mut docs = read_hipe(path);
    for t in docs.iter_mut().flat_map(|d| d.toks.iter_mut()) {
        if let Some(rest) = t.tag.strip_prefix("S-") {
            t.tag = format!("B-{rest}");
        } else if let Some(rest) = t.tag.strip_prefix("E-") {
            t.tag = format!("I-{rest}");
        }
    }
    docs
}

/// `fairscore muc` (or `evaluate --family muc`) with `extra` arguments, the JSON and the
/// judgements listing.
fn muc(
    command: &[&str],
    gold: &Path,
    run: &Path,
    extra: &[&str],
    dir: &Path,
) -> (Value, Vec<Vec<String>>) {
    let l = dir.join("judgements.tsv");
    let (g, r, ls) = (
        gold.to_string_lossy(),
        run.to_string_lossy(),
        l.to_string_lossy(),
    );
    let base = [
        "--gold",
        &g,
        "--pred",
        &r,
        "--judgements",
        &ls,
        "--json",
        "-",
    ];
    let v = fairscore_json(&[command, &base[..], extra].concat());
    (v, listing(&l))
}

#[test]
fn every_bucket_equals_a_computation_from_the_judgements_as_hipe_tsv_and_conll() {
    let Some(data) = shared_data("muc_breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold_p = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let run_p = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let train_p = h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let (gold, run, train) = (read_iob(&gold_p), read_iob(&run_p), read_iob(&train_p));
    let t = train_set(&train);
    let dir = temp_dir("muc-breakdown");
    let mut keys: Vec<&str> = KEYS.to_vec();
    keys.extend(["oov", "train_freq", "train_consistency", "period"]);
    let tr = train_p.to_string_lossy();
    let (v, rows) = muc(
        &["muc"],
        &gold_p,
        &run_p,
        &["--breakdown", &keys.join(","), "--train", &tr],
        &dir,
    );
    let (gs, rs) = entities(&gold, &run, false, &t, &rows);
    assert!(gs.len() > 1000 && rs.len() > 1000, "a real run");
    assert!(
        gs.iter().any(|s| s.num["train_freq"] > 0.0),
        "some gold entities occur in the training file"
    );
    check(&v, &gs, &rs, &keys, "hipe");
    // The same through `evaluate --family muc`.
    let g = gold_p.to_string_lossy();
    let r = run_p.to_string_lossy();
    let e = fairscore_json(&[
        "evaluate",
        "--family",
        "muc",
        "--gold",
        &g,
        "--pred",
        &r,
        "--breakdown",
        &keys.join(","),
        "--train",
        &tr,
        "--json",
        "-",
    ]);
    for k in &keys {
        let name = format!("breakdown:{k}");
        assert_eq!(json_table(&e, &name), json_table(&v, &name), "{k}");
    }

    // As CoNLL: sentences bound entities, documents are named `#LINE` (the listing's).
    let (gc, rc) = (dir.join("gold.conll"), dir.join("run.conll"));
    write_conll(&gold, &gc);
    write_conll(&run, &rc);
    let (c, rows) = muc(
        &["muc", "--format", "conll"],
        &gc,
        &rc,
        &["--breakdown", &KEYS.join(",")],
        &dir,
    );
    let (gs, rs) = entities(&gold, &run, true, &TrainSet::default(), &rows);
    check(&c, &gs, &rs, &KEYS, "conll");

    // noise, on a HIPE-2022 gold with noise levels (ajmc).
    let gold_p = h.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let run_p = h.join("submissions/team1_bundle4_ajmc_en_1.tsv");
    let (gold, run) = (read_iob(&gold_p), read_iob(&run_p));
    let keys = ["noise", "label", "length"];
    let (v, rows) = muc(
        &["muc"],
        &gold_p,
        &run_p,
        &["--breakdown", &keys.join(",")],
        &dir,
    );
    let (gs, rs) = entities(&gold, &run, false, &TrainSet::default(), &rows);
    assert!(gs.iter().any(|s| s.num["noise"] > 0.0), "noise levels");
    check(&v, &gs, &rs, &keys, "ajmc");
}

#[test]
fn intervals_and_refused_keys() {
    let Some(data) = shared_data("muc_breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let g = h.join("gold/HIPE-2022-v2.1-newseye-test-fi.tsv");
    let r = h.join("submissions/team4_bundle4_newseye_fi_1.tsv");
    let (g, r) = (g.to_string_lossy(), r.to_string_lossy());
    let v = fairscore_json(&[
        "muc",
        "--gold",
        &g,
        "--pred",
        &r,
        "--breakdown",
        "label,length:3",
        "--bootstrap",
        "300",
        "--json",
        "-",
    ]);
    let wide =
        super::breakdown::intervals_within_bounds(&v, &["label", "length"], &["P", "R", "F"]);
    assert!(wide, "some interval has a width");

    // noise: a HIPE-2022 gold has no noise levels; period on CoNLL; noise on standoff files.
    let refused = |args: &[&str], named: &str| {
        let out = fairscore(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{named} not named: {err}");
    };
    refused(
        &[
            "muc",
            "--gold",
            &g,
            "--pred",
            &r,
            "--breakdown",
            "label,noise",
        ],
        "noise",
    );
    let dir = temp_dir("muc-breakdown-refused");
    let (gc, rc) = (dir.join("g.conll"), dir.join("r.conll"));
    std::fs::write(&gc, "Paris B-LOC\nis O\n\n").expect("write");
    std::fs::write(&rc, "Paris B-LOC\nis O\n\n").expect("write");
    let (gc, rc) = (gc.to_string_lossy(), rc.to_string_lossy());
    refused(
        &["muc", "--gold", &gc, "--pred", &rc, "--breakdown", "period"],
        "period",
    );
    refused(
        &["muc", "--gold", &gc, "--pred", &rc, "--breakdown", "oov"],
        "train",
    );
    let (ga, ra) = (dir.join("g.ann"), dir.join("r.ann"));
    for (ann, txt) in [(&ga, dir.join("g.txt")), (&ra, dir.join("r.txt"))] {
        std::fs::write(txt, "Paris is\n").expect("write");
        std::fs::write(ann, "T1\tLOC 0 5\tParis\n").expect("write");
    }
    let (ga, ra) = (ga.to_string_lossy(), ra.to_string_lossy());
    refused(
        &["muc", "--gold", &ga, "--pred", &ra, "--breakdown", "noise"],
        "standoff",
    );
}
