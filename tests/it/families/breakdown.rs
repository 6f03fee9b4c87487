//! `evaluate --family spans --breakdown KEY,…` (docs/breakdown.md): on a real HIPE-2022 run,
//! as HIPE TSV and as CoNLL written from it, every bucket's TP-gold, FN, TP-run, FP, P, R and
//! F1 equal a computation written here from the definitions (the official entity reading, the
//! strict regime, each key's rule, the quantile buckets of the gold values, the cap of
//! discrete values), for every key, the training keys with another HIPE gold as training
//! file; intervals are present and ordered; an unknown key is a usage error naming the keys.

use crate::common::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

pub(super) struct Tok {
    pub(super) text: String,
    pub(super) tag: String,
    pub(super) eos: bool,
    /// The noise level of MISC's `LED…` flag.
    pub(super) led: Option<f64>,
}

pub(super) struct Doc {
    pub(super) id: String,
    /// The year of the document's `# date` (or `# hipe2022:date`); 0 without one.
    pub(super) year: f64,
    pub(super) toks: Vec<Tok>,
}

/// A HIPE TSV file's documents: tokens with their NE-COARSE-LIT tag (upper-cased, as the
/// scorer reads it) and whether MISC flags the end of a sentence.
pub(super) fn read_hipe(path: &Path) -> Vec<Doc> {
    let text = std::fs::read_to_string(path).expect("read");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|c| *c == n).expect(n);
    let (tok_c, tag_c, misc_c) = (col("TOKEN"), col("NE-COARSE-LIT"), col("MISC"));
    let mut docs: Vec<Doc> = Vec::new();
    let mut pending_id: Option<String> = None;
    let mut year = 0.0;
    for l in lines {
        let cells: Vec<&str> = l.split('\t').collect();
        if cells[0].is_empty() {
            continue;
        }
        if cells[0].starts_with('#') {
            if cells[0].contains("document_id") {
                pending_id = cells[0].split_once('=').map(|x| x.1.trim().to_string());
            }
            if cells[0].starts_with("# date") || cells[0].starts_with("# hipe2022:date") {
                let v = cells[0].split_once('=').map_or("", |x| x.1.trim());
                year = v.get(..4).and_then(|y| y.parse().ok()).unwrap_or(0.0);
            }
            continue;
        }
        if let Some(id) = pending_id.take() {
            docs.push(Doc {
                id,
                year,
                toks: Vec::new(),
            });
        }
        let cell = |i: usize| cells.get(i).copied().unwrap_or("_");
        docs.last_mut().expect("a document").toks.push(Tok {
            text: cell(tok_c).to_string(),
            tag: cell(tag_c).to_uppercase(),
            eos: cell(misc_c)
                .split('|')
                .any(|f| f.eq_ignore_ascii_case("EndOfSentence")),
            led: cell(misc_c)
                .split('|')
                .find_map(|f| f.strip_prefix("LED")?.parse().ok()),
        });
    }
    docs
}

/// Writes documents as CoNLL (`-DOCSTART-`, a blank line after each sentence end).
pub(super) fn write_conll(docs: &[Doc], path: &Path) {
    let mut out = String::new();
    for d in docs {
        out.push_str("-DOCSTART- O\n\n");
        for (i, t) in d.toks.iter().enumerate() {
            out.push_str(&format!("{} {}\n", t.text, t.tag));
            if t.eos || i + 1 == d.toks.len() {
                out.push('\n');
            }
        }
    }
    std::fs::write(path, out).expect("write");
}

/// Entities as the official reader reads tags: a new entity at `B-` or a change of type,
/// `I-` after `O` starts one, `O` ends one; (start, end, type).
fn decode(toks: &[Tok]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, usize)> = None;
    for (i, t) in toks.iter().enumerate() {
        if t.tag == "O" {
            if let Some((ty, s)) = cur.take() {
                out.push((s, i - 1, ty));
            }
            continue;
        }
        let ty: String = t.tag.chars().skip(2).collect();
        match &cur {
            Some((cty, s)) if *cty != ty || t.tag.starts_with('B') => {
                out.push((*s, i - 1, cty.clone()));
                cur = Some((ty, i));
            }
            Some(_) => {}
            None => cur = Some((ty, i)),
        }
    }
    if let Some((ty, s)) = cur {
        if !ty.is_empty() {
            out.push((s, toks.len() - 1, ty));
        }
    }
    out
}
/// The first run of the HIPE-2020 synthetic data `h` (file-name order) in IOB with the gold's
/// documents and accepted by `fits`: the decoding here does not read IOBES (which the scorer
/// reads as IOB: S- as B-, E- as I-) and pairs documents by their ids.
pub(super) fn hipe2020_iob_run(
    h: &Path,
    fits: impl Fn(&[Doc]) -> bool,
) -> (std::path::PathBuf, Vec<Doc>) {
    let mut runs: Vec<_> = std::fs::read_dir(h.join("submissions"))
        .expect("submissions")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.lines().nth(1).is_some_and(|l| l.starts_with('#')))
        })
        .collect();
    runs.sort();
    runs.into_iter()
        .map(|p| {
            let docs = read_hipe(&p);
            (p, docs)
        })
        .find(|(_, docs)| {
            docs.iter()
                .flat_map(|d| &d.toks)
                .all(|t| !t.tag.starts_with("E-") && !t.tag.starts_with("S-"))
                && fits(docs)
        })
        .expect("a run in IOB")
}

/// The labels a tag column shows (`x.split('|')[0].split('-')[-1]`, not O, _ or -).
pub(super) fn labels(docs: &[Doc]) -> HashSet<String> {
    let mut out = HashSet::new();
    for t in docs.iter().flat_map(|d| &d.toks) {
        let first = t.tag.split('|').next().unwrap_or("");
        let l = first.rsplit('-').next().unwrap_or("");
        if !matches!(l, "O" | "_" | "-" | "") {
            out.insert(l.to_string());
        }
    }
    out
}

pub(super) fn caps(words: &[&str]) -> &'static str {
    let letters: Vec<char> = words
        .iter()
        .flat_map(|w| w.chars())
        .filter(|c| c.is_alphabetic())
        .collect();
    if letters.is_empty() {
        "no letters"
    } else if letters.iter().all(|c| c.is_uppercase()) {
        "upper"
    } else if letters.iter().all(|c| c.is_lowercase()) {
        "lower"
    } else if words.iter().all(|w| {
        let l: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
        l.is_empty() || (l[0].is_uppercase() && l[1..].iter().all(|c| c.is_lowercase()))
    }) {
        "title"
    } else {
        "mixed"
    }
}

#[derive(Default)]
pub(super) struct TrainSet {
    pub(super) vocab: HashSet<String>,
    pub(super) entities: HashMap<String, HashMap<String, u32>>,
}

pub(super) fn train_set(docs: &[Doc]) -> TrainSet {
    let mut t = TrainSet::default();
    for d in docs {
        for tok in &d.toks {
            t.vocab.insert(tok.text.clone());
        }
        for (s, e, l) in decode(&d.toks) {
            let text: Vec<&str> = d.toks[s..=e].iter().map(|t| t.text.as_str()).collect();
            *t.entities
                .entry(text.join(" "))
                .or_default()
                .entry(l)
                .or_default() += 1;
        }
    }
    t
}

/// A document's sentences: the sentence of each position, and each sentence's start and
/// length.
pub(super) type Sentences = (Vec<usize>, Vec<(usize, usize)>);

/// The sentences of a document whose tokens are `toks`.
pub(super) fn sentences(toks: &[Tok]) -> Sentences {
    let (mut sent, mut bounds) = (Vec::new(), Vec::new());
    let mut from = 0;
    for (i, t) in toks.iter().enumerate() {
        sent.push(bounds.len());
        if t.eos || i + 1 == toks.len() {
            bounds.push((from, i + 1 - from));
            from = i + 1;
        }
    }
    (sent, bounds)
}

/// An entity of one side: tokens `span.0..=span.1` of that side's `toks`, labelled `span.2`,
/// in the gold document `doc` (whose `sentences` these are).
pub(super) struct Place<'a> {
    pub(super) doc: &'a Doc,
    pub(super) toks: &'a [Tok],
    pub(super) span: (usize, usize, &'a str),
    pub(super) sentences: &'a Sentences,
}

impl Place<'_> {
    /// The entity's key values, text and numeric, by the definitions of docs/breakdown.md:
    /// `density` is the number of gold entities in its sentence, `document` the name its
    /// document bucket takes.
    pub(super) fn values(
        &self,
        density: u32,
        document: String,
        train: &TrainSet,
    ) -> (BTreeMap<&'static str, String>, BTreeMap<&'static str, f64>) {
        let (s, e, l) = self.span;
        let words: Vec<&str> = self.toks[s..=e].iter().map(|t| t.text.as_str()).collect();
        let joined = words.join(" ");
        let (start, len) = self.sentences.1[self.sentences.0[s]];
        let (freq, same) = train.entities.get(&joined).map_or((0, 0), |m| {
            (m.values().sum::<u32>(), m.get(l).copied().unwrap_or(0))
        });
        let oov = words.iter().any(|w| !train.vocab.contains(*w));
        let text = BTreeMap::from([
            ("label", l.to_string()),
            ("capitalisation", caps(&words).to_string()),
            ("document", document),
            ("oov", if oov { "yes" } else { "no" }.to_string()),
        ]);
        let consistency = if freq > 0 {
            f64::from(same) / f64::from(freq)
        } else {
            0.0
        };
        // The largest noise level of the gold's tokens at its positions (0 without).
        let noise = self.doc.toks[s..=e]
            .iter()
            .filter_map(|t| t.led)
            .fold(0.0, f64::max);
        let num = BTreeMap::from([
            ("length", (e - s + 1) as f64),
            ("chars", joined.chars().count() as f64),
            ("sentence_length", len as f64),
            ("density", f64::from(density) / len as f64),
            ("position", (s - start) as f64 / len as f64),
            ("train_freq", f64::from(freq)),
            ("train_consistency", consistency),
            ("noise", noise),
            ("period", self.doc.year),
        ]);
        (text, num)
    }
}

/// A span's key values (text or number) and whether it is a true positive.
pub(super) struct Span {
    correct: bool,
    text: BTreeMap<&'static str, String>,
    num: BTreeMap<&'static str, f64>,
}

/// Every gold and run span with its values, from the definitions of docs/breakdown.md.
pub(super) fn spans(gold: &[Doc], run: &[Doc], train: &TrainSet) -> (Vec<Span>, Vec<Span>) {
    let mut keep = labels(gold);
    keep.extend(labels(run));
    let (mut gs, mut rs) = (Vec::new(), Vec::new());
    for (gd, rd) in gold.iter().zip(run) {
        assert_eq!(gd.toks.len(), rd.toks.len(), "aligned documents");
        let sentences = sentences(&gd.toks);
        let ge: Vec<_> = decode(&gd.toks)
            .into_iter()
            .filter(|x| keep.contains(&x.2))
            .collect();
        let re: Vec<_> = decode(&rd.toks)
            .into_iter()
            .filter(|x| keep.contains(&x.2))
            .collect();
        let mut dens = vec![0u32; sentences.1.len()];
        for g in &ge {
            dens[sentences.0[g.0]] += 1;
        }
        for (own, other, toks, out) in
            [(&ge, &re, &gd.toks, &mut gs), (&re, &ge, &rd.toks, &mut rs)]
        {
            for (s, e, l) in own.iter() {
                let at = Place {
                    doc: gd,
                    toks,
                    span: (*s, *e, l),
                    sentences: &sentences,
                };
                let (text, num) = at.values(dens[sentences.0[*s]], gd.id.clone(), train);
                out.push(Span {
                    // Same offsets and label, and the same token text (a run that changed a
                    // token cannot match there).
                    correct: other.iter().any(|o| o.0 == *s && o.1 == *e && o.2 == *l)
                        && (*s..=*e).all(|i| gd.toks[i].text == rd.toks[i].text),
                    text,
                    num,
                });
            }
        }
    }
    (gs, rs)
}

/// An entity's key values: text values and numeric values, by key.
pub(super) trait Valued {
    fn text(&self) -> &BTreeMap<&'static str, String>;
    fn num(&self) -> &BTreeMap<&'static str, f64>;
}

impl Valued for Span {
    fn text(&self) -> &BTreeMap<&'static str, String> {
        &self.text
    }
    fn num(&self) -> &BTreeMap<&'static str, f64> {
        &self.num
    }
}

/// How a key's values fall into buckets (docs/breakdown.md): a numeric key's quartile cuts
/// of the gold values, or a text key's bucket names (the closed lists' values too, in the
/// documented order for capitalisation; beyond 20 values the gold's 19 most frequent and
/// `(other)`).
pub(super) enum Buckets {
    Cuts(Vec<f64>),
    Names(Vec<String>),
}

impl Buckets {
    /// The buckets of `key` over the gold's and the run's values.
    pub(super) fn of<T: Valued>(key: &str, gold: &[T], run: &[T]) -> Buckets {
        if gold.first().is_some_and(|s| s.num().contains_key(key)) {
            let mut gv: Vec<f64> = gold.iter().map(|s| s.num()[key]).collect();
            gv.sort_by(f64::total_cmp);
            let n = gv.len();
            let mut cuts: Vec<f64> = Vec::new();
            for k in 1..4 {
                let c = gv[(k * n).div_ceil(4) - 1];
                if cuts.last().is_none_or(|l| c > *l) && c < gv[n - 1] {
                    cuts.push(c);
                }
            }
            return Buckets::Cuts(cuts);
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
        for s in run {
            count.entry(s.text()[key].clone()).or_default();
        }
        for s in gold {
            *count.entry(s.text()[key].clone()).or_default() += 1;
        }
        let mut names: Vec<String> = count.keys().cloned().collect();
        let other = names.len() > 20;
        if other {
            let mut by: Vec<(String, usize)> = count.into_iter().collect();
            by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            names = by[..19].iter().map(|x| x.0.clone()).collect();
            names.sort();
        }
        if key == "capitalisation" {
            let order = ["upper", "title", "lower", "mixed", "no letters"];
            names.sort_by_key(|n| order.iter().position(|o| o == n));
        }
        if other {
            names.push("(other)".into());
        }
        Buckets::Names(names)
    }

    /// A row of zero counts per bucket, named (`None` for quantile buckets, named by cuts).
    pub(super) fn rows<const N: usize>(&self) -> Vec<(Option<String>, [f64; N])> {
        match self {
            Buckets::Cuts(cuts) => vec![(None, [0.0; N]); cuts.len() + 1],
            Buckets::Names(names) => names.iter().map(|n| (Some(n.clone()), [0.0; N])).collect(),
        }
    }

    /// The bucket of a value of `key`.
    pub(super) fn of_value(&self, key: &str, v: &impl Valued) -> usize {
        match self {
            Buckets::Cuts(cuts) => cuts.iter().filter(|c| **c < v.num()[key]).count(),
            Buckets::Names(names) => names
                .iter()
                .position(|n| *n == v.text()[key])
                .unwrap_or(names.len() - 1),
        }
    }
}

/// The expected rows of a key: bucket name (discrete keys; `None` for quantile buckets) and
/// [TP-gold, FN, TP-run, FP].
fn expected(key: &str, gold: &[Span], run: &[Span]) -> Vec<(Option<String>, [f64; 4])> {
    let buckets = Buckets::of(key, gold, run);
    let mut rows = buckets.rows();
    for (side, spans) in [gold, run].into_iter().enumerate() {
        for s in spans {
            let b = buckets.of_value(key, s);
            rows[b].1[side * 2 + usize::from(!s.correct)] += 1.0;
        }
    }
    rows
}

pub(super) const KEYS: [&str; 11] = [
    "label",
    "length",
    "chars",
    "sentence_length",
    "density",
    "capitalisation",
    "position",
    "document",
    "oov",
    "train_freq",
    "train_consistency",
];

/// Checks every key's table of `v` against the computation from the definitions.
fn check(v: &Value, gold: &[Span], run: &[Span], keys: &[&str], what: &str) {
    let strict = json_table(v, "strict");
    let all = strict["rows"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["key"]["label"] == "ALL"))
        .expect("ALL");
    let n = |c: &str| all["scores"][c].as_f64().expect("count");
    check_totals(v, gold, run, keys, what, [n("TP"), n("FN"), n("FP")]);
}

/// Checks every key's table of `v` against the computation from the definitions, and that
/// each key's buckets add up to `totals` (TP, FN, FP).
pub(super) fn check_totals(
    v: &Value,
    gold: &[Span],
    run: &[Span],
    keys: &[&str],
    what: &str,
    totals: [f64; 3],
) {
    for key in keys {
        let t = json_table(v, &format!("breakdown:{key}"));
        let rows = t["rows"].as_array().expect("rows");
        let want = expected(key, gold, run);
        assert_eq!(rows.len(), want.len(), "{what} {key}: number of buckets");
        let mut sums = [0.0; 4];
        for (row, (name, c)) in rows.iter().zip(&want) {
            let b = row["key"]["bucket"].as_str().expect("bucket");
            if let Some(n) = name {
                assert_eq!(b, n, "{what} {key}: bucket name");
            }
            let s = &row["scores"];
            let got: Vec<f64> = ["TP-gold", "FN", "TP-run", "FP"]
                .iter()
                .map(|c| s[c].as_f64().expect("count"))
                .collect();
            assert_eq!(got, c.to_vec(), "{what} {key} {b}: counts");
            let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
            let p = ratio(c[2], c[2] + c[3]);
            let r = ratio(c[0], c[0] + c[1]);
            let f1 = ratio(2.0 * p * r, p + r);
            for (col, x) in [("P", p), ("R", r), ("F1", f1)] {
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
        // The buckets hold every span once: the strict regime's totals.
        assert_eq!(sums[0], sums[2], "{what} {key}: one TP per matched pair");
        assert_eq!(
            [sums[0], sums[1], sums[3]],
            totals,
            "{what} {key}: buckets add up to the strict counts"
        );
    }
}

#[test]
fn every_key_equals_the_definitions_on_a_real_run_as_hipe_tsv_and_conll() {
    let Some(data) = shared_data("breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold_p = h.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let run_p = h.join("submissions/team1_bundle4_ajmc_en_1.tsv");
    let train_p = h.join("gold/HIPE-2022-v2.1-ajmc-test-de.tsv");
    let (gold, run, train) = (read_hipe(&gold_p), read_hipe(&run_p), read_hipe(&train_p));
    let t = train_set(&train);
    let (gs, rs) = spans(&gold, &run, &t);
    assert!(gs.len() > 300 && rs.len() > 300, "a real run");
    assert!(
        gs.iter().any(|s| s.num["train_freq"] > 0.0),
        "some gold spans occur in the training file"
    );
    let keys = KEYS.join(",");
    let (g, r, tr) = (
        gold_p.to_string_lossy(),
        run_p.to_string_lossy(),
        train_p.to_string_lossy(),
    );
    let args = |g: &str, r: &str, tr: &str| {
        fairscore_json(&[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            g,
            "--pred",
            r,
            "--breakdown",
            &keys,
            "--train",
            tr,
            "--json",
            "-",
        ])
    };
    let v = args(&g, &r, &tr);
    check(&v, &gs, &rs, &KEYS, "hipe");
    // Examples: missed gold spans and spurious run spans only, at most 3 per bucket and side.
    let ex = json_table(&v, "breakdown:length:examples")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    assert!(!ex.is_empty());
    let mut per: BTreeMap<(String, String), usize> = BTreeMap::new();
    for row in &ex {
        let side = row["key"]["level"].as_str().expect("level").to_string();
        assert!(side == "FN" || side == "FP");
        *per.entry((row["key"]["bucket"].to_string(), side))
            .or_default() += 1;
    }
    assert!(per.values().all(|n| *n <= 3));

    // The same run as CoNLL: sentences from blank lines; every key but the document (a CoNLL
    // document has no name) gives the same buckets.
    let dir = temp_dir("breakdown-conll");
    let (gc, rc, tc) = (
        dir.join("gold.conll"),
        dir.join("run.conll"),
        dir.join("train.conll"),
    );
    write_conll(&gold, &gc);
    write_conll(&run, &rc);
    write_conll(&train, &tc);
    let c = args(
        &gc.to_string_lossy(),
        &rc.to_string_lossy(),
        &tc.to_string_lossy(),
    );
    let no_doc: Vec<&str> = KEYS.iter().copied().filter(|k| *k != "document").collect();
    check(&c, &gs, &rs, &no_doc, "conll");
    for k in &no_doc {
        let name = format!("breakdown:{k}");
        assert_eq!(
            json_table(&c, &name)["rows"],
            json_table(&v, &name)["rows"],
            "{k}"
        );
    }
}

#[test]
fn intervals_are_present_and_ordered() {
    let Some(data) = shared_data("breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let g = h.join("gold/HIPE-2022-v2.1-newseye-test-fi.tsv");
    let r = h.join("submissions/team4_bundle4_newseye_fi_1.tsv");
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g.to_string_lossy(),
        "--pred",
        &r.to_string_lossy(),
        "--breakdown",
        "label,length:3,position",
        "--bootstrap",
        "300",
        "--json",
        "-",
    ]);
    assert_eq!(
        json_table(&v, "breakdown:length")["rows"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
    intervals_within_bounds(&v, &["label", "length", "position"], &["P", "R", "F1"]);
    // Some bucket's interval has a width: the documents differ.
    let t = json_table(&v, "breakdown:length");
    assert!(t["rows"].as_array().expect("rows").iter().any(|r| {
        let ci = &r["ci"]["F1"];
        ci[1].as_f64() > ci[0].as_f64()
    }));
}

#[test]
fn an_unknown_key_is_a_usage_error_naming_the_keys() {
    let dir = temp_dir("breakdown-usage");
    let (g, r) = (dir.join("g.conll"), dir.join("r.conll"));
    std::fs::write(&g, "Paris B-LOC\nis O\n\n").expect("write");
    std::fs::write(&r, "Paris B-LOC\nis O\n\n").expect("write");
    let (g, r) = (g.to_string_lossy(), r.to_string_lossy());
    let base = ["evaluate", "--family", "spans", "--gold", &g, "--pred", &r];
    let out = fairscore(&[&base[..], &["--breakdown", "label,lenght"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("lenght"), "{err}");
    for k in KEYS {
        assert!(err.contains(k), "{k} not named: {err}");
    }
    // A training key without a training file, and a bucket count on a discrete key.
    for bad in ["oov", "label:3", "length:0"] {
        let out = fairscore(&[&base[..], &["--breakdown", bad]].concat());
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn compare_gives_every_bucket_a_paired_test_when_the_buckets_agree() {
    let Some(data) = shared_data("breakdown") else {
        return;
    };
    let h = data.join("hipe2022");
    let g = h.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let a = h.join("submissions/team1_bundle4_ajmc_en_1.tsv");
    let b = h.join("submissions/team2_bundle1_ajmc_en_1.tsv");
    let (g, a, b) = (
        g.to_string_lossy(),
        a.to_string_lossy(),
        b.to_string_lossy(),
    );
    let v = fairscore_json(&[
        "compare",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &a,
        "--pred",
        &b,
        "--regimes",
        "strict",
        "--breakdown",
        "length,capitalisation",
        "--bootstrap",
        "200",
        "--json",
        "-",
    ]);
    let rows = json_table(&v, "compare")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    // Run A's and B's own breakdowns give the A and B columns.
    let one = |run: &str| {
        fairscore_json(&[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &g,
            "--pred",
            run,
            "--regimes",
            "strict",
            "--breakdown",
            "length,capitalisation",
            "--json",
            "-",
        ])
    };
    let (va, vb) = (one(&a), one(&b));
    let mut n = 0;
    for key in ["length", "capitalisation"] {
        let name = format!("breakdown:{key}");
        for (ra, rb) in json_table(&va, &name)["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .zip(json_table(&vb, &name)["rows"].as_array().expect("rows"))
        {
            let bucket = ra["key"]["bucket"].as_str().expect("bucket");
            assert_eq!(rb["key"]["bucket"], ra["key"]["bucket"], "same buckets");
            let row = rows
                .iter()
                .find(|r| {
                    r["key"]["table"] == name.as_str()
                        && r["key"]["level"] == bucket
                        && r["key"]["measure"] == "F1"
                })
                .unwrap_or_else(|| panic!("{name} {bucket} F1 compared"));
            let s = &row["scores"];
            assert_eq!(s["A"], ra["scores"]["F1"]);
            assert_eq!(s["B"], rb["scores"]["F1"]);
            let p = s["p"].as_f64().expect("p");
            assert!((0.0..=1.0).contains(&p));
            n += 1;
        }
    }
    assert!(n >= 6);
}

/// (label, offsets) of every text-bound annotation of a brat `.ann` file.
fn brat_spans(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("read");
    text.lines()
        .filter(|l| l.starts_with('T'))
        .filter_map(|l| {
            let mid = l.split('\t').nth(1)?;
            let (label, offsets) = mid.split_once(' ')?;
            Some((label.to_string(), offsets.to_string()))
        })
        .collect()
}

#[test]
fn standoff_files_are_broken_down_by_their_own_spans() {
    let Some(data) = shared_data("breakdown") else {
        return;
    };
    let p = data.join("brat/bratiaa-example/example-project");
    let (g, r) = (p.join("Lisa"), p.join("Maria"));
    let keys = "label,length,chars,sentence_length,density,capitalisation,position,document";
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g.to_string_lossy(),
        "--pred",
        &r.to_string_lossy(),
        "--breakdown",
        keys,
        "--json",
        "-",
    ]);
    // Label buckets from the .ann files: a span is matched when the other side has one with
    // the same label and offsets.
    let mut want: BTreeMap<String, [f64; 4]> = BTreeMap::new();
    let mut docs = 0;
    for e in std::fs::read_dir(&g).expect("dir") {
        let path = e.expect("entry").path();
        if path.extension().is_none_or(|x| x != "ann") {
            continue;
        }
        docs += 1;
        let gs = brat_spans(&path);
        let rs = brat_spans(&r.join(path.file_name().expect("name")));
        for (side, (own, other)) in [(&gs, &rs), (&rs, &gs)].into_iter().enumerate() {
            for s in own.iter() {
                let hit = other.contains(s);
                want.entry(s.0.clone()).or_default()[side * 2 + usize::from(!hit)] += 1.0;
            }
        }
    }
    assert_eq!(docs, 7);
    let rows = json_table(&v, "breakdown:label")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    let got: BTreeMap<String, [f64; 4]> = rows
        .iter()
        .map(|row| {
            let s = &row["scores"];
            let n = |c: &str| s[c].as_f64().expect("count");
            (
                row["key"]["bucket"].as_str().expect("bucket").to_string(),
                [n("TP-gold"), n("FN"), n("TP-run"), n("FP")],
            )
        })
        .collect();
    assert_eq!(got, want);
    // Every key's buckets add up to the strict counts.
    let strict = json_table(&v, "strict");
    let all = strict["rows"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["key"]["label"] == "ALL"))
        .expect("ALL");
    let n = |c: &str| all["scores"][c].as_f64().expect("count");
    for key in keys.split(',') {
        let mut sums = [0.0; 4];
        for row in json_table(&v, &format!("breakdown:{key}"))["rows"]
            .as_array()
            .expect("rows")
        {
            for (a, c) in sums.iter_mut().zip(["TP-gold", "FN", "TP-run", "FP"]) {
                *a += row["scores"][c].as_f64().expect("count");
            }
        }
        assert_eq!(sums, [n("TP"), n("FN"), n("TP"), n("FP")], "{key}");
    }
}

#[test]
fn noise_and_period_follow_the_golds_hipe_metadata() {
    let Some(data) = shared_data("breakdown") else {
        return;
    };
    let h = data.join("hipe2020-synth");
    let gold_p = h.join("gold/HIPE-data-v1.4-test-de.tsv");
    let (run_p, run) = hipe2020_iob_run(&h, |_| true);
    let gold = read_hipe(&gold_p);
    let (gs, rs) = spans(&gold, &run, &TrainSet::default());
    assert!(
        gs.iter().any(|s| s.num["noise"] > 0.0),
        "some gold entities are noisy"
    );
    let years: HashSet<u64> = gs.iter().map(|s| s.num["period"] as u64).collect();
    assert!(years.len() > 3, "documents of several years");
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &gold_p.to_string_lossy(),
        "--pred",
        &run_p.to_string_lossy(),
        "--breakdown",
        "noise,period",
        "--json",
        "-",
    ]);
    check(&v, &gs, &rs, &["noise", "period"], "hipe-2020");
    // A gold without the metadata (CoNLL) refuses the keys, naming them.
    let dir = temp_dir("breakdown-no-metadata");
    let g = write_file(&dir, "g.conll", "Paris B-LOC\nis O\n\nAnna B-PER\n");
    for key in ["noise", "period"] {
        let out = fairscore(&[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &g,
            "--pred",
            &g,
            "--breakdown",
            key,
        ]);
        assert_eq!(out.status.code(), Some(2), "{key}: a usage error");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(key), "{key}: {err}");
    }
}

/// Asserts that every bucket of the breakdown tables `keys` in the JSON `v` has an interval
/// for each ratio column of `cols`, with 0 ≤ lo ≤ hi ≤ 1; returns whether some has a width.
pub(super) fn intervals_within_bounds(v: &Value, keys: &[&str], cols: &[&str]) -> bool {
    let mut wide = false;
    for key in keys {
        for row in json_table(v, &format!("breakdown:{key}"))["rows"]
            .as_array()
            .expect("rows")
        {
            for col in cols {
                let ci = row["ci"][col]
                    .as_array()
                    .unwrap_or_else(|| panic!("{key} {col}: no interval"));
                let (lo, hi) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
                assert!(
                    0.0 <= lo && lo <= hi && hi <= 1.0,
                    "{key} {col}: [{lo}, {hi}]"
                );
                wide |= hi > lo;
            }
        }
    }
    wide
}
