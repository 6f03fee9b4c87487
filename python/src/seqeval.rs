//! The counting core of `fairscore.seqeval`: per-type TP, predicted and true entity counts as
//! seqeval 1.2.2 finds entities, in its default (conlleval-like) mode or in strict mode with a
//! scheme, on tags interned once (`crate::intern`): what a tag means (prefix, type, whether
//! seqeval warns about it) is worked out once per distinct tag, then each token costs a table
//! lookup, and the entities of gold and run are paired by a merge (both come out in order).
//! docs/seqeval.md describes the reading. Input that seqeval rejects (a tag with no first
//! character, a prefix outside `IOBESUL`, a prefix the scheme does not allow) gives `None`:
//! the Python code then reads it itself and raises seqeval's exact error.

use crate::intern::{label_table, read_ids, read_lists, IdsError, Seqs, Vocab};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::collections::HashMap;

/// Entity types interned as ids.
#[derive(Default)]
struct Types {
    ids: HashMap<String, u32>,
    names: Vec<String>,
}

impl Types {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&k) = self.ids.get(name) {
            return k;
        }
        let k = self.names.len() as u32;
        self.ids.insert(name.to_string(), k);
        self.names.push(name.to_string());
        k
    }
}

/// An entity: (start, end, type), offsets over all tokens of one side.
type Entity = (usize, usize, u32);

/// Prefix and type of a tag in the default mode (`None`: an empty tag).
fn default_split(tag: &str, suffix: bool) -> Option<(char, &str)> {
    let (prefix, ty) = if suffix {
        let p = tag.chars().next_back()?;
        let body = &tag[..tag.len() - p.len_utf8()];
        (p, body.rsplit_once('-').map_or(body, |(a, _)| a))
    } else {
        let p = tag.chars().next()?;
        let body = &tag[p.len_utf8()..];
        (p, body.split_once('-').map_or(body, |(_, b)| b))
    };
    Some((prefix, if ty.is_empty() { "_" } else { ty }))
}

/// Whether the default mode warns that the tag "seems not to be NE tag".
fn odd_tag(tag: &str, suffix: bool) -> bool {
    if matches!(tag, "O" | "B" | "I" | "E" | "S") {
        return false;
    }
    if suffix {
        !["-B", "-I", "-E", "-S"].iter().any(|s| tag.ends_with(s))
    } else {
        !["B-", "I-", "E-", "S-"].iter().any(|s| tag.starts_with(s))
    }
}

/// What the default mode reads in each distinct tag: (prefix, type), `None` for an empty tag;
/// and whether seqeval warns about it.
struct DefaultTags {
    read: Vec<Option<(char, u32)>>,
    odd: Vec<bool>,
}

fn default_tags(vocab: &Vocab, suffix: bool, types: &mut Types) -> DefaultTags {
    let read = vocab
        .names
        .iter()
        .map(|t| default_split(t, suffix).map(|(p, ty)| (p, types.id(ty))))
        .collect();
    let odd = vocab.names.iter().map(|t| odd_tag(t, suffix)).collect();
    DefaultTags { read, odd }
}

/// seqeval's `get_entities` over the sentences read as one list with `O` after each; the tags
/// seqeval warns about are added to `odd` in order of first appearance.
fn default_entities(
    seqs: &Seqs,
    tags: &DefaultTags,
    outside: u32,
    warned: &mut [bool],
    odd: &mut Vec<u32>,
) -> Option<Vec<Entity>> {
    let mut out = Vec::new();
    let (mut prev_tag, mut prev_type, mut begin) = ('O', u32::MAX, 0usize);
    let mut step = |tag: char, ty: u32, i: usize, out: &mut Vec<Entity>| {
        let end = matches!(prev_tag, 'E' | 'S')
            || (matches!(prev_tag, 'B' | 'I') && matches!(tag, 'B' | 'S' | 'O'))
            || (prev_tag != 'O' && prev_tag != '.' && prev_type != ty);
        if end {
            out.push((begin, i - 1, prev_type));
        }
        let start = matches!(tag, 'B' | 'S')
            || (matches!(prev_tag, 'E' | 'S' | 'O') && matches!(tag, 'E' | 'I'))
            || (tag != 'O' && tag != '.' && prev_type != ty);
        if start {
            begin = i;
        }
        (prev_tag, prev_type) = (tag, ty);
    };
    let mut i = 0usize;
    for seq in seqs.sentences() {
        for &tag in seq {
            let k = tag as usize;
            if tags.odd[k] && !warned[k] {
                warned[k] = true;
                odd.push(tag);
            }
            let (p, ty) = tags.read[k]?;
            step(p, ty, i, &mut out);
            i += 1;
        }
        step('O', outside, i, &mut out);
        i += 1;
    }
    // The O seqeval appends to close the last chunk.
    step('O', outside, i, &mut out);
    Some(out)
}

const PREFIXES: &str = "IOBESUL";

/// A scheme: allowed prefixes, then start, inside and end patterns as (previous prefixes,
/// current prefixes, type condition), prefixes as bit masks over [`PREFIXES`].
struct Scheme {
    allowed: u8,
    start: Vec<(u8, u8, Cond)>,
    inside: Vec<(u8, u8, Cond)>,
    end: Vec<(u8, u8, Cond)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Cond {
    Same,
    Diff,
    Any,
}

fn mask(prefixes: &str) -> u8 {
    prefixes
        .chars()
        .map(|c| 1u8 << PREFIXES.find(c).expect("a prefix"))
        .fold(0, |a, b| a | b)
}

fn scheme(name: &str) -> Option<Scheme> {
    use Cond::{Any, Diff, Same};
    let all = PREFIXES;
    let p = |v: &[(&str, &str, Cond)]| -> Vec<(u8, u8, Cond)> {
        v.iter().map(|&(a, b, c)| (mask(a), mask(b), c)).collect()
    };
    let (allowed, start, inside, end) = match name {
        "IOB1" => (
            "IOB",
            p(&[
                ("O", "I", Any),
                ("I", "I", Diff),
                ("B", "I", Any),
                ("I", "B", Same),
                ("B", "B", Same),
            ]),
            p(&[("B", "I", Same), ("I", "I", Same)]),
            p(&[
                ("I", "I", Diff),
                ("I", "O", Any),
                ("I", "B", Any),
                ("B", "O", Any),
                ("B", "I", Diff),
                ("B", "B", Same),
            ]),
        ),
        "IOE1" => (
            "IOE",
            p(&[
                ("O", "I", Any),
                ("I", "I", Diff),
                ("E", "I", Any),
                ("E", "E", Same),
            ]),
            p(&[("I", "I", Same), ("I", "E", Same)]),
            p(&[
                ("I", "I", Diff),
                ("I", "O", Any),
                ("I", "E", Diff),
                ("E", "I", Same),
                ("E", "E", Same),
            ]),
        ),
        "IOB2" => (
            "IOB",
            p(&[(all, "B", Any)]),
            p(&[("B", "I", Same), ("I", "I", Same)]),
            p(&[
                ("I", "O", Any),
                ("I", "I", Diff),
                ("I", "B", Any),
                ("B", "O", Any),
                ("B", "I", Diff),
                ("B", "B", Any),
            ]),
        ),
        "IOE2" => (
            "IOE",
            p(&[
                ("O", "I", Any),
                ("O", "E", Any),
                ("E", "I", Any),
                ("E", "E", Any),
                ("I", "I", Diff),
                ("I", "E", Diff),
            ]),
            p(&[("I", "E", Same), ("I", "I", Same)]),
            p(&[("E", all, Any)]),
        ),
        "IOBES" => (
            "IOBES",
            p(&[(all, "B", Any), (all, "S", Any)]),
            p(&[
                ("B", "I", Same),
                ("B", "E", Same),
                ("I", "I", Same),
                ("I", "E", Same),
            ]),
            p(&[("S", all, Any), ("E", all, Any)]),
        ),
        "BILOU" => (
            "BILOU",
            p(&[(all, "B", Any), (all, "U", Any)]),
            p(&[
                ("B", "I", Same),
                ("B", "L", Same),
                ("I", "I", Same),
                ("I", "L", Same),
            ]),
            p(&[("U", all, Any), ("L", all, Any)]),
        ),
        _ => return None,
    };
    Some(Scheme {
        allowed: mask(allowed),
        start,
        inside,
        end,
    })
}

/// A token as strict mode reads it: prefix bit and type id.
type Token = (u8, u32);

fn matches(patterns: &[(u8, u8, Cond)], prev: Token, cur: Token) -> bool {
    patterns.iter().any(|&(pp, cp, cond)| {
        prev.0 & pp != 0
            && cur.0 & cp != 0
            && match cond {
                Cond::Any => true,
                Cond::Same => prev.1 == cur.1,
                Cond::Diff => prev.1 != cur.1,
            }
    })
}

/// What strict mode reads in a tag: (prefix bit, type), `None` when seqeval rejects it.
fn strict_token(tag: &str, suffix: bool, types: &mut Types) -> Option<Token> {
    let p = if suffix {
        tag.chars().next_back()?
    } else {
        tag.chars().next()?
    };
    let bit = 1u8 << PREFIXES.find(p)?;
    let body = if suffix {
        &tag[..tag.len() - p.len_utf8()]
    } else {
        &tag[p.len_utf8()..]
    };
    let ty = body.trim_matches('-');
    Some((bit, types.id(if ty.is_empty() { "_" } else { ty })))
}

/// seqeval's strict-mode entities of every sentence (`end` exclusive, offsets over all tokens
/// of the side); `None` on a token it rejects.
fn strict_entities(
    seqs: &Seqs,
    read: &[Option<Token>],
    s: &Scheme,
    outside: Token,
) -> Option<Vec<Entity>> {
    let mut out = Vec::new();
    let mut toks: Vec<Token> = Vec::new();
    let mut base = 0usize;
    for seq in seqs.sentences() {
        toks.clear();
        for &tag in seq {
            toks.push(read[tag as usize]?);
        }
        toks.push(outside);
        let (mut i, mut prev) = (0usize, outside);
        while i < toks.len() {
            let tok = toks[i];
            if tok.0 & s.allowed == 0 {
                return None;
            }
            if matches(&s.start, prev, tok) {
                let mut end = i + 1;
                while end < toks.len() && matches(&s.inside, toks[end - 1], toks[end]) {
                    end += 1;
                }
                // The closing O is inside no entity, so `end` is a token.
                if matches(&s.end, toks[end - 1], toks[end]) {
                    out.push((base + i, base + end, tok.1));
                }
                i = end;
            } else {
                i += 1;
            }
            prev = toks[i - 1];
        }
        base += seq.len();
    }
    Some(out)
}

/// Per-type counts: (types sorted, TP, predicted, true, tags warned about in the default
/// mode in order of first appearance).
pub(crate) type Counts = (Vec<String>, Vec<u64>, Vec<u64>, Vec<u64>, Vec<String>);

/// Entities of both sides paired: an entity is found when one of the same extent and type
/// is on the other side. Both lists are in order of start (at most one entity starts at a
/// token), so a merge pairs them.
fn tally(t: &[Entity], p: &[Entity], types: &Types) -> (Vec<usize>, Vec<u64>, Vec<u64>, Vec<u64>) {
    let n = types.names.len();
    let (mut tp, mut np, mut nt) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let mut present = vec![false; n];
    for e in t {
        nt[e.2 as usize] += 1;
        present[e.2 as usize] = true;
    }
    for e in p {
        np[e.2 as usize] += 1;
        present[e.2 as usize] = true;
    }
    let (mut i, mut j) = (0, 0);
    while i < t.len() && j < p.len() {
        match t[i].0.cmp(&p[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if t[i] == p[j] {
                    tp[t[i].2 as usize] += 1;
                }
                i += 1;
                j += 1;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&k| present[k]).collect();
    order.sort_by(|&a, &b| types.names[a].cmp(&types.names[b]));
    (order, tp, np, nt)
}

/// Per-type counts of two sides read into one vocabulary; `None` when the Python code must
/// read the input (seqeval rejects a tag).
pub(crate) fn counts(
    vocab: &Vocab,
    y_true: &Seqs,
    y_pred: &Seqs,
    suffix: bool,
    scheme_name: Option<&str>,
) -> Option<Counts> {
    let mut types = Types::default();
    let mut odd = Vec::new();
    let (t, p) = match scheme_name {
        None => {
            let tags = default_tags(vocab, suffix, &mut types);
            let outside = types.id("_");
            let mut warned = vec![false; vocab.len()];
            let t = default_entities(y_true, &tags, outside, &mut warned, &mut odd)?;
            let p = default_entities(y_pred, &tags, outside, &mut warned, &mut odd)?;
            (t, p)
        }
        Some(name) => {
            let s = scheme(name)?;
            let read: Vec<Option<Token>> = vocab
                .names
                .iter()
                .map(|t| strict_token(t, suffix, &mut types))
                .collect();
            let outside: Token = (mask("O"), types.id("_"));
            let t = strict_entities(y_true, &read, &s, outside)?;
            let p = strict_entities(y_pred, &read, &s, outside)?;
            (t, p)
        }
    };
    let (order, tp, np, nt) = tally(&t, &p, &types);
    Some((
        order.iter().map(|&k| types.names[k].clone()).collect(),
        order.iter().map(|&k| tp[k]).collect(),
        order.iter().map(|&k| np[k]).collect(),
        order.iter().map(|&k| nt[k]).collect(),
        odd.iter().map(|&k| vocab.names[k as usize].to_string()).collect(),
    ))
}

/// Token tallies of two sides of one shape: (equal tags, tokens, then seqeval's
/// `performance_measure` TP, FP, FN, TN).
pub(crate) fn token_tally(vocab: &Vocab, y_true: &Seqs, y_pred: &Seqs) -> [u64; 6] {
    let o = vocab.names.iter().position(|n| &**n == "O").map(|k| k as u32);
    let mut c = [0u64; 6];
    for (&a, &b) in y_true.tags.iter().zip(&y_pred.tags) {
        let (ao, bo) = (Some(a) == o, Some(b) == o);
        c[0] += u64::from(a == b);
        c[2] += u64::from(a == b && !ao);
        c[3] += u64::from(a != b && !bo);
        c[4] += u64::from(!ao && bo);
        c[5] += u64::from(a == b && ao);
    }
    c[1] = y_true.tags.len() as u64;
    c
}

/// Both sides read as lists of lists of `str` of the same shape (seqeval's consistency
/// check), or `None` for the Python code to read and reject as seqeval does.
fn read_pair(y_true: &Bound<'_, PyAny>, y_pred: &Bound<'_, PyAny>) -> Option<(Vocab, Seqs, Seqs)> {
    let mut vocab = Vocab::default();
    let t = read_lists(y_true, &mut vocab)?;
    let p = read_lists(y_pred, &mut vocab)?;
    if !t.shape().eq(p.shape()) {
        return None;
    }
    Some((vocab, t, p))
}

/// `fairscore.seqeval`'s counting core (see the module's documentation): the counts, or None
/// when Python must read the input.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, suffix, scheme = None))]
fn _seqeval_counts(
    py: Python<'_>,
    y_true: &Bound<'_, PyAny>,
    y_pred: &Bound<'_, PyAny>,
    suffix: bool,
    scheme: Option<&str>,
) -> Option<Counts> {
    let (vocab, t, p) = read_pair(y_true, y_pred)?;
    py.allow_threads(|| counts(&vocab, &t, &p, suffix, scheme))
}

/// Token tallies (see [`token_tally`]) of two lists of tag lists of one shape, or None.
#[pyfunction]
fn _seqeval_tokens(
    py: Python<'_>,
    y_true: &Bound<'_, PyAny>,
    y_pred: &Bound<'_, PyAny>,
) -> Option<[u64; 6]> {
    let (vocab, t, p) = read_pair(y_true, y_pred)?;
    py.allow_threads(|| Some(token_tally(&vocab, &t, &p)))
}

/// Label ids of one grid: the little-endian `int64` bytes of a row-major array (NumPy's
/// `tobytes()`), in order.
fn grid(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect()
}

/// Two grids of label ids (little-endian `int64` bytes, `cols` columns) read as tag ids,
/// positions whose gold id is `ignore_index` left out; a grid of another size or a label id
/// `id2label` lacks is a ValueError naming the grid, row and column.
fn read_grids(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
) -> PyResult<(Vocab, Seqs, Seqs)> {
    let (pb, gb) = (predictions.as_bytes(), label_ids.as_bytes());
    if pb.len() != gb.len() || pb.len() % 8 != 0 || (cols > 0 && gb.len() / 8 % cols != 0) {
        return Err(PyValueError::new_err(format!(
            "predictions and label_ids: expected two int64 grids of one shape ({} and {} bytes, {cols} columns)",
            pb.len(),
            gb.len()
        )));
    }
    let mut vocab = Vocab::default();
    let table = label_table(id2label, &mut vocab)?;
    let (pred, gold) = (grid(pb), grid(gb));
    let read = py.allow_threads(|| read_ids(&pred, &gold, cols, ignore_index, &table));
    let (t, p) = read.map_err(|e| match e {
        IdsError::Unknown { pred, row, col, id } => PyValueError::new_err(format!(
            "{}[{row}][{col}]: label id {id} is not in id2label (nor the ignore index {ignore_index})",
            if pred { "predictions" } else { "label_ids" }
        )),
    })?;
    Ok((vocab, t, p))
}

/// The counts and token tallies of two grids of label ids (predictions already argmaxed),
/// read by [`read_grids`]: (counts, token tallies), or None when Python must read the tags
/// (seqeval rejects one).
#[pyfunction]
#[pyo3(signature = (predictions, label_ids, cols, id2label, ignore_index, suffix, scheme = None))]
#[allow(clippy::too_many_arguments)]
fn _ids_counts(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
    suffix: bool,
    scheme: Option<&str>,
) -> PyResult<Option<(Counts, [u64; 6])>> {
    let (vocab, t, p) = read_grids(py, predictions, label_ids, cols, id2label, ignore_index)?;
    Ok(py.allow_threads(|| {
        let c = counts(&vocab, &t, &p, suffix, scheme)?;
        Some((c, token_tally(&vocab, &t, &p)))
    }))
}

/// Tag lists of two grids of label ids, as the `compute_metrics` boilerplate builds them.
#[pyfunction]
fn _ids_tags(
    py: Python<'_>,
    predictions: &Bound<'_, PyBytes>,
    label_ids: &Bound<'_, PyBytes>,
    cols: usize,
    id2label: &Bound<'_, PyAny>,
    ignore_index: i64,
) -> PyResult<(Vec<Vec<String>>, Vec<Vec<String>>)> {
    let (vocab, t, p) = read_grids(py, predictions, label_ids, cols, id2label, ignore_index)?;
    let lists = |s: &Seqs| -> Vec<Vec<String>> {
        s.sentences()
            .map(|seq| seq.iter().map(|&k| vocab.names[k as usize].to_string()).collect())
            .collect()
    };
    Ok((lists(&t), lists(&p)))
}

/// Adds the counting core to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_seqeval_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_seqeval_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(_ids_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_ids_tags, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(vocab: &mut Vocab, s: &[&str]) -> Seqs {
        let mut out = Seqs::default();
        for l in s {
            for t in l.split_whitespace() {
                out.tags.push(vocab.id(t));
            }
            out.ends.push(out.tags.len());
        }
        out
    }

    #[test]
    fn default_mode_counts_each_predicted_entity_for_its_own_type() {
        let mut v = Vocab::default();
        let t = seqs(&mut v, &["B-PER I-PER O B-LOC", "I-ORG"]);
        let p = seqs(&mut v, &["B-PER I-PER O B-ORG", "B-ORG"]);
        let (names, tp, np, nt, odd) = counts(&v, &t, &p, false, None).unwrap();
        assert_eq!(names, ["LOC", "ORG", "PER"]);
        assert_eq!((tp, np, nt), (vec![0, 1, 1], vec![0, 2, 1], vec![1, 1, 1]));
        assert!(odd.is_empty());
    }

    #[test]
    fn strict_iob2_drops_an_i_without_b_and_rejects_s() {
        let mut v = Vocab::default();
        let t = seqs(&mut v, &["I-PER I-PER O B-LOC"]);
        let (names, _, _, nt, _) = counts(&v, &t, &t, false, Some("IOB2")).unwrap();
        assert_eq!((names, nt), (vec!["LOC".to_string()], vec![1]));
        let mut v = Vocab::default();
        let (s, o) = (seqs(&mut v, &["S-PER"]), seqs(&mut v, &["O"]));
        assert!(counts(&v, &s, &o, false, Some("IOB2")).is_none());
        let mut v = Vocab::default();
        let (s, o) = (seqs(&mut v, &["XPER"]), seqs(&mut v, &["O"]));
        assert!(counts(&v, &s, &o, false, Some("IOBES")).is_none());
    }

    #[test]
    fn token_tallies_follow_performance_measure() {
        let mut v = Vocab::default();
        let t = seqs(&mut v, &["B-PER O O B-LOC"]);
        let p = seqs(&mut v, &["B-PER B-ORG O O"]);
        // equal 2 of 4; TP 1 (B-PER), FP 1 (B-ORG), FN 1 (B-LOC), TN 1.
        assert_eq!(token_tally(&v, &t, &p), [2, 4, 1, 1, 1, 1]);
    }
}
