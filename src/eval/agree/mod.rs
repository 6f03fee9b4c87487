//! Inter-annotator agreement of two or more annotators on the same documents, as tables of
//! the one result model (`agree`):
//! - pairwise F1 agreement (Hripcsak and Rothschild 2005), instance- and token-based, per
//!   document, per label and overall: the mean and population SD over annotator pairs, as
//!   bratiaa reports them, and the annotator × annotator matrix of overall F1;
//! - chance-corrected coefficients over token labels: Cohen's kappa (averaged over pairs),
//!   Fleiss' kappa, Davies and Fleiss' kappa and Krippendorff's alpha;
//! - Ortmann's error types between each pair on character ranges, and the token label
//!   confusion matrix summed over pairs.

pub(crate) mod project;

use std::collections::HashMap;

use rayon::prelude::*;

use crate::corpus::standoff::{whitespace_tokens, StandoffSpan};
use crate::matching::agreement::{
    counts, token_label_codes, Agreement, LabelCounts, Labels, Pieces, TokenCodes, TokenKey,
    TokenLabelNames,
};
use crate::matching::fair::{assignments_by_id, ErrorType};
use crate::metrics::agreement::{coefficients, f1, mean_sd, Coefficients};
use crate::spans::labeled::Span;
use crate::table::{Column, KeyKind, Kind, Results, Table, Unit, Value};

pub use project::Project;
pub use project::{annotator_dirs, annotator_files, brat_project};

/// Pair counts of one mode: `[pair][document]`, `None` where one of the two lacks the
/// document.
struct Counts {
    how: Agreement,
    per: Vec<Vec<Option<LabelCounts>>>,
}

/// The annotator pairs `(a, b)` with `a < b`, in order.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}

fn spans_of(p: &Project, d: usize, a: usize) -> Option<&[StandoffSpan]> {
    p.docs[d][a].as_ref().map(|x| x.spans.as_slice())
}

/// Every annotator's pieces of every document: `[document][annotator]`.
type AllPieces<'a> = Vec<Vec<Option<Pieces<'a>>>>;

fn all_pieces<'a>(
    p: &'a Project,
    tokens: &[Vec<(usize, usize)>],
    labels: &Labels,
) -> AllPieces<'a> {
    (0..p.documents.len())
        .into_par_iter()
        .map(|d| {
            (0..p.annotators.len())
                .map(|a| spans_of(p, d, a).map(|s| Pieces::new(s, &tokens[d], labels)))
                .collect()
        })
        .collect()
}

fn count(p: &Project, how: Agreement, pieces: &AllPieces, labels: &Labels) -> Counts {
    let per = pairs(p.annotators.len())
        .into_par_iter()
        .map(|(a, b)| {
            (0..p.documents.len())
                .map(|d| match (&pieces[d][a], &pieces[d][b]) {
                    (Some(x), Some(y)) => Some(counts(x, y, how, labels)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    Counts { how, per }
}

/// Sums the counts of one pair over the documents `docs` and all labels.
fn sum(c: &[Option<LabelCounts>], docs: &[usize]) -> Option<[u64; 3]> {
    let mut out = [0u64; 3];
    let mut any = false;
    for &d in docs {
        let Some(lc) = &c[d] else { continue };
        any = true;
        for v in lc.values() {
            for i in 0..3 {
                out[i] += v[i];
            }
        }
    }
    any.then_some(out)
}

/// Mean and SD of the pairs' F1 over the pairs where it is defined, and how many.
fn summary(c: &Counts, docs: &[usize]) -> (u64, Value, Value) {
    let f: Vec<f64> = c
        .per
        .iter()
        .filter_map(|p| sum(p, docs))
        .filter_map(|[tp, fp, fn_]| f1(tp, fp, fn_))
        .collect();
    spread(&f)
}

/// How many F1 values, their mean and SD.
fn spread(f: &[f64]) -> (u64, Value, Value) {
    match mean_sd(f) {
        Some((m, s)) => (f.len() as u64, Value::ratio(m), Value::ratio(s)),
        None => (0, Value::Missing, Value::Missing),
    }
}

fn summary_columns() -> Vec<Column> {
    vec![
        Column::new("pairs", Kind::Count),
        Column::new("mean F1", Kind::Ratio),
        Column::new("SD F1", Kind::Ratio),
    ]
}

fn f1_tables(p: &Project, c: &Counts, out: &mut Vec<Table>) {
    let how = c.how.name();
    let all: Vec<usize> = (0..p.documents.len()).collect();
    let mut t = Table::new(
        &format!("{how}-documents"),
        &format!("{how}-based F1 agreement per document (mean and SD over pairs)"),
        vec![KeyKind::Document],
        summary_columns(),
    );
    for (d, name) in p.documents.iter().enumerate() {
        let (n, m, s) = summary(c, &[d]);
        t.push(vec![name.clone()], vec![Value::Count(n), m, s]);
    }
    out.push(t);
    let mut t = Table::new(
        &format!("{how}-labels"),
        &format!("{how}-based F1 agreement per label (mean and SD over pairs)"),
        vec![KeyKind::Label],
        summary_columns(),
    );
    // Each pair's counts per label over all documents, summed once (summing them again for
    // every label cost labels × counts).
    let per_label: Vec<Option<HashMap<&str, [u64; 3]>>> = c
        .per
        .iter()
        .map(|docs| {
            let mut any = false;
            let mut by: HashMap<&str, [u64; 3]> = HashMap::new();
            for lc in docs.iter().flatten() {
                any = true;
                for (l, v) in lc {
                    let e = by.entry(l.as_str()).or_default();
                    for i in 0..3 {
                        e[i] += v[i];
                    }
                }
            }
            any.then_some(by)
        })
        .collect();
    for l in &p.labels {
        let f: Vec<f64> = per_label
            .iter()
            .flatten()
            .filter_map(|by| {
                let [tp, fp, fn_] = by.get(l.as_str()).copied().unwrap_or([0; 3]);
                f1(tp, fp, fn_)
            })
            .collect();
        let (n, m, s) = spread(&f);
        t.push(vec![l.clone()], vec![Value::Count(n), m, s]);
    }
    let (n, m, s) = summary(c, &all);
    t.push(vec!["ALL".into()], vec![Value::Count(n), m, s]);
    out.push(t);
    // Pairs and the annotator × annotator matrix.
    let names = &p.annotators;
    let mut cols = vec![
        Column::new("TP", Kind::Count),
        Column::new("FP", Kind::Count),
        Column::new("FN", Kind::Count),
        Column::new("F1", Kind::Ratio),
    ];
    let mut t = Table::new(
        &format!("{how}-pairs"),
        &format!("{how}-based F1 agreement per pair (the first annotator as gold)"),
        vec![KeyKind::Annotator, KeyKind::OtherAnnotator],
        std::mem::take(&mut cols),
    );
    let mut matrix = vec![vec![Value::Missing; names.len()]; names.len()];
    for (i, (a, b)) in pairs(names.len()).into_iter().enumerate() {
        let s = sum(&c.per[i], &all);
        let f = s.and_then(|[tp, fp, fn_]| f1(tp, fp, fn_));
        let v = f.map_or(Value::Missing, Value::ratio);
        matrix[a][b] = v;
        matrix[b][a] = v;
        let [tp, fp, fn_] = s.unwrap_or([0; 3]);
        t.push(
            vec![names[a].clone(), names[b].clone()],
            vec![Value::Count(tp), Value::Count(fp), Value::Count(fn_), v],
        );
    }
    out.push(t);
    let mut t = Table::new(
        &format!("matrix-{how}"),
        &format!("{how}-based F1 agreement, annotator × annotator"),
        vec![KeyKind::Annotator],
        names.iter().map(|n| Column::new(n, Kind::Ratio)).collect(),
    );
    for (a, row) in matrix.into_iter().enumerate() {
        let mut row = row;
        row[a] = Value::Ratio(1.0);
        t.push(vec![names[a].clone()], row);
    }
    out.push(t);
}

/// The token label matrix, items × annotators flattened (row `i` is
/// `[i * annotators, (i + 1) * annotators)`), and the label names; ids are given in order of
/// first appearance (documents, tokens, annotators).
pub fn label_matrix(
    p: &Project,
    tokens: &[Vec<(usize, usize)>],
    labels: &Labels,
) -> (Vec<String>, Vec<Option<u32>>) {
    // Ids of `O` and of single labels by code in a table (most tokens), of label sets in a
    // map; `NEW`: no id yet.
    const NEW: u32 = u32::MAX;
    let mut one_ids: Vec<u32> = vec![NEW; labels.len() + 1];
    let mut many_ids: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut order: Vec<TokenKey> = Vec::new();
    let mut rows =
        Vec::with_capacity(tokens.iter().map(Vec::len).sum::<usize>() * p.annotators.len());
    // Every document's codes side by side, then ids in order of first appearance; the codes
    // take 4 bytes a token and annotator, the rows they become 8.
    let n = p.annotators.len();
    let all: Vec<Option<TokenCodes>> = (0..tokens.len() * n)
        .into_par_iter()
        .map(|i| spans_of(p, i / n, i % n).map(|s| token_label_codes(s, &tokens[i / n], labels)))
        .collect();
    for (toks, per) in tokens.iter().zip(all.chunks_exact(n.max(1))) {
        for t in 0..toks.len() {
            for codes in per {
                let Some(codes) = codes else {
                    rows.push(None);
                    continue;
                };
                let c = codes.codes[t] as usize;
                let id = match one_ids.get_mut(c) {
                    Some(&mut id) if id != NEW => id,
                    Some(slot) => {
                        *slot = order.len() as u32;
                        order.push(codes.key(t));
                        *slot
                    }
                    None => {
                        let key = codes.key(t);
                        let TokenKey::Many(set) = &key else {
                            rows.push(None);
                            continue;
                        };
                        let next = order.len() as u32;
                        let id = *many_ids.entry(set.clone()).or_insert(next);
                        if id == next {
                            order.push(key);
                        }
                        id
                    }
                };
                rows.push(Some(id));
            }
        }
    }
    let mut names = TokenLabelNames::new(labels);
    let names = order.iter().map(|k| names.name(k).to_string()).collect();
    (names, rows)
}

fn coefficient_table(c: &Coefficients) -> Table {
    let mut t = Table::new(
        "coefficients",
        "Chance-corrected agreement on token labels",
        vec![KeyKind::Measure],
        vec![
            Column::new("value", Kind::Ratio),
            Column::new("items", Kind::Count),
        ],
    );
    let v = |x: Option<f64>| x.map_or(Value::Missing, Value::ratio);
    let complete = Value::Count(c.complete_items as u64);
    t.push(
        vec!["observed agreement".into()],
        vec![v(c.observed), complete],
    );
    t.push(
        vec!["Cohen's kappa (mean over pairs)".into()],
        vec![v(c.cohen), complete],
    );
    t.push(vec!["Fleiss' kappa".into()], vec![v(c.fleiss), complete]);
    t.push(
        vec!["Davies and Fleiss' kappa".into()],
        vec![v(c.davies_fleiss), complete],
    );
    t.push(
        vec!["Krippendorff's alpha".into()],
        vec![v(c.alpha), Value::Count(c.pairable_items as u64)],
    );
    t
}

/// A hasher for integer keys (a pair of label ids in one `u64`): one multiplication, where
/// SipHash cost more than the counting (every token of every annotator pair is counted).
#[derive(Default)]
struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The token label confusion, summed over ordered annotator pairs: one row per pair of
/// labels that occurs (label, other label, tokens), labels in name order with `O` last. Only
/// the pairs that occur are counted and written, so memory and output grow with the tokens,
/// not with the square of the labels (a dense matrix of 4,000 labels took 3.4 GB).
fn confusion_table(labels: &[String], m: &[Option<u32>], n: usize) -> Table {
    // Unordered pairs of labels, counted once (the ordered pairs are then (x, y) and (y, x)
    // with that count each; (x, x) twice): in a dense table while labels × labels stays
    // within the matrix's size (linear in the input), else keyed by one integer.
    let k = labels.len();
    let dense = k.saturating_mul(k) <= m.len();
    let mut table: Vec<u64> = if dense { vec![0; k * k] } else { Vec::new() };
    let mut once: HashMap<u64, u64, std::hash::BuildHasherDefault<PairHasher>> = HashMap::default();
    let pairs = pairs(n);
    let mut add = |x: u32, y: u32, by: u64| {
        let (lo, hi) = (x.min(y), x.max(y));
        match table.get_mut(lo as usize * k + hi as usize) {
            Some(c) if dense && (hi as usize) < k => *c += by,
            _ => {
                *once
                    .entry((u64::from(lo) << 32) | u64::from(hi))
                    .or_default() += by
            }
        }
    };
    for row in m.chunks_exact(n.max(1)) {
        // Most tokens: one label from every annotator, every pair (x, x).
        if let Some(x) = row[0] {
            if row.iter().all(|y| *y == Some(x)) {
                if !pairs.is_empty() {
                    add(x, x, pairs.len() as u64);
                }
                continue;
            }
        }
        for &(a, b) in &pairs {
            if let (Some(x), Some(y)) = (row[a], row[b]) {
                add(x, y, 1);
            }
        }
    }
    let dense_cells = table
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(i, &c)| {
            let (lo, hi) = ((i / k.max(1)) as u32, (i % k.max(1)) as u32);
            ((u64::from(lo) << 32) | u64::from(hi), c)
        });
    let mut cells: Vec<((u32, u32), u64)> = Vec::with_capacity(2 * once.len());
    for (key, c) in once.into_iter().chain(dense_cells) {
        let (lo, hi) = ((key >> 32) as u32, key as u32);
        if lo == hi {
            cells.push(((lo, lo), 2 * c));
        } else {
            cells.push(((lo, hi), c));
            cells.push(((hi, lo), c));
        }
    }
    // Labels in name order, `O` last: each label's place in that order.
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by_key(|&i| (labels[i] == "O", labels[i].as_str()));
    let mut place = vec![0usize; labels.len()];
    for (p, &i) in order.iter().enumerate() {
        place[i] = p;
    }
    let at = |l: u32| place.get(l as usize).copied().unwrap_or(usize::MAX);
    let mut rows = cells;
    rows.sort_unstable_by_key(|&((x, y), _)| (at(x), at(y)));
    let name = |l: u32| labels.get(l as usize).cloned().unwrap_or_default();
    let mut t = Table::new(
        "confusion",
        "Token label confusion, summed over ordered annotator pairs (pairs that occur)",
        vec![KeyKind::Label, KeyKind::OtherLabel],
        vec![Column::new("tokens", Kind::Count)],
    );
    for ((x, y), c) in rows {
        t.push(vec![name(x), name(y)], vec![Value::Count(c)]);
    }
    t
}

/// A span as Ortmann's algorithm reads it: its label's id, character positions, inclusive,
/// fragments as the list of covered positions (the label's text is not needed: an empty
/// `String` allocates nothing).
fn char_span(s: &StandoffSpan, labels: &Labels) -> (u32, Span) {
    let begin = s.fragments.iter().map(|f| f.0).min().unwrap_or(0);
    let end = s.fragments.iter().map(|f| f.1).max().unwrap_or(0);
    let span = Span::new(String::new(), begin, end.saturating_sub(1).max(begin));
    let span = if s.fragments.len() > 1 {
        span.with_tokens(s.fragments.iter().flat_map(|&(a, b)| a..b))
    } else {
        span
    };
    (labels.id(&s.label).unwrap_or(u32::MAX), span)
}

fn error_table(p: &Project, labels: &Labels) -> Table {
    let mut cols: Vec<Column> = ErrorType::ALL
        .iter()
        .map(|e| Column::new(e.as_str(), Kind::Count))
        .collect();
    cols.push(Column::new("disagreements", Kind::Count));
    let mut t = Table::new(
        "errors",
        "Ortmann's error types between each pair on character ranges (first annotator as gold)",
        vec![KeyKind::Annotator, KeyKind::OtherAnnotator],
        cols,
    );
    let counts = error_counts(p, labels);
    for ((a, b), n) in pairs(p.annotators.len()).into_iter().zip(counts) {
        let mut v: Vec<Value> = n.iter().map(|&c| Value::Count(c)).collect();
        v.push(Value::Count(n[1..].iter().sum()));
        t.push(vec![p.annotators[a].clone(), p.annotators[b].clone()], v);
    }
    t
}

/// Ortmann's error counts between each pair of annotators (the first as target), in the order
/// of [`pairs`], over every document. Each annotator's spans of a document are made once for
/// the pairs it is in, one document at a time (memory of one document's spans).
fn error_counts(p: &Project, labels: &Labels) -> Vec<[u64; 8]> {
    let pairs = pairs(p.annotators.len());
    let per_doc: Vec<Vec<[u64; 8]>> = (0..p.documents.len())
        .into_par_iter()
        .map(|d| {
            let spans: Vec<Option<Vec<(u32, Span)>>> = (0..p.annotators.len())
                .map(|a| {
                    spans_of(p, d, a).map(|x| x.iter().map(|s| char_span(s, labels)).collect())
                })
                .collect();
            pairs
                .par_iter()
                .map(|&(a, b)| {
                    let mut n = [0u64; 8];
                    if let (Some(xs), Some(ys)) = (&spans[a], &spans[b]) {
                        for asg in assignments_by_id(xs, ys) {
                            if let Some(i) = ErrorType::ALL.iter().position(|e| *e == asg.kind) {
                                n[i] += 1;
                            }
                        }
                    }
                    n
                })
                .collect()
        })
        .collect();
    let mut total = vec![[0u64; 8]; pairs.len()];
    for doc in per_doc {
        for (t, n) in total.iter_mut().zip(doc) {
            for (x, y) in t.iter_mut().zip(n) {
                *x += y;
            }
        }
    }
    total
}

/// Every agreement table of a project.
pub fn agreement(p: &Project) -> Results {
    let tokens: Vec<Vec<(usize, usize)>> = (0..p.documents.len())
        .into_par_iter()
        .map(|d| whitespace_tokens(p.text(d)))
        .collect();
    let mut r = Results::new("agree", Unit::Document, p.documents.len());
    r.warnings = p.warnings.clone();
    r.notes.push(format!(
        "{} annotators: {}; {} documents; {} labels: {}",
        p.annotators.len(),
        p.annotators.join(", "),
        p.documents.len(),
        p.labels.len(),
        p.labels.join(", ")
    ));
    r.notes.push(
        "F1 agreement: 2TP / (2TP + FP + FN) per annotator pair; mean and population SD over \
         the pairs where it is defined (as bratiaa); tokens: whitespace-separated"
            .into(),
    );
    let span_labels = Labels::new(
        p.docs
            .iter()
            .flatten()
            .flatten()
            .flat_map(|d| d.spans.iter()),
    );
    // Three independent parts, run side by side; the tables keep their order.
    let n = p.annotators.len();
    let (f1, (token_tables, errors)) = rayon::join(
        || {
            let pieces = all_pieces(p, &tokens, &span_labels);
            let mut out = Vec::new();
            for how in [Agreement::Instance, Agreement::Token] {
                f1_tables(p, &count(p, how, &pieces, &span_labels), &mut out);
            }
            out
        },
        || {
            rayon::join(
                || {
                    let (labels, m) = label_matrix(p, &tokens, &span_labels);
                    let (c, confusion) =
                        rayon::join(|| coefficients(&m, n), || confusion_table(&labels, &m, n));
                    (coefficient_table(&c), confusion)
                },
                || error_table(p, &span_labels),
            )
        },
    );
    r.tables.extend(f1);
    let (coefficients, confusion) = token_tables;
    r.tables.push(coefficients);
    r.tables.push(errors);
    r.tables.push(confusion);
    r
}
