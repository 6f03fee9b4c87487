//! The counting core of `fairscore.seqeval`: per-type TP, predicted and true entity counts as
//! seqeval 1.2.2 finds entities, in its default (conlleval-like) mode or in strict mode with a
//! scheme, in one pass per side with types interned. docs/seqeval.md describes the reading.
//! Input that seqeval rejects (a tag with no first character, a prefix outside `IOBESUL`, a
//! prefix the scheme does not allow) gives `None`: the Python code then reads it itself and
//! raises seqeval's exact error.

use pyo3::prelude::*;
use std::collections::{HashMap, HashSet};

/// Types interned as ids (`u32::MAX`: no type yet).
#[derive(Default)]
struct Types<'a> {
    ids: HashMap<&'a str, u32>,
    names: Vec<&'a str>,
}

impl<'a> Types<'a> {
    fn id(&mut self, name: &'a str) -> u32 {
        if let Some(&k) = self.ids.get(name) {
            return k;
        }
        let k = self.names.len() as u32;
        self.ids.insert(name, k);
        self.names.push(name);
        k
    }
}

/// An entity: (type, sentence, start, end); `sentence` is 0 in the default mode, whose offsets
/// run over all sentences.
type Entity = (u32, usize, usize, usize);

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

/// seqeval's `get_entities` over the sentences read as one list with `O` after each.
fn default_entities<'a>(
    seqs: &'a [Vec<String>],
    suffix: bool,
    types: &mut Types<'a>,
    odd: &mut Vec<&'a str>,
    seen: &mut HashSet<&'a str>,
) -> Option<Vec<Entity>> {
    let mut out = Vec::new();
    let (mut prev_tag, mut prev_type, mut begin) = ('O', u32::MAX, 0usize);
    let outside = types.id("_");
    let mut i = 0usize;
    let mut step = |tag: char, ty: u32, i: usize, out: &mut Vec<Entity>| {
        let end = matches!(prev_tag, 'E' | 'S')
            || (matches!(prev_tag, 'B' | 'I') && matches!(tag, 'B' | 'S' | 'O'))
            || (prev_tag != 'O' && prev_tag != '.' && prev_type != ty);
        if end {
            out.push((prev_type, 0, begin, i - 1));
        }
        let start = matches!(tag, 'B' | 'S')
            || (matches!(prev_tag, 'E' | 'S' | 'O') && matches!(tag, 'E' | 'I'))
            || (tag != 'O' && tag != '.' && prev_type != ty);
        if start {
            begin = i;
        }
        (prev_tag, prev_type) = (tag, ty);
    };
    for seq in seqs {
        for tag in seq {
            if odd_tag(tag, suffix) && seen.insert(tag) {
                odd.push(tag);
            }
            let (p, ty) = default_split(tag, suffix)?;
            step(p, types.id(ty), i, &mut out);
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

/// seqeval's strict-mode entities of every sentence (`end` exclusive); `None` on a token it
/// rejects.
fn strict_entities<'a>(
    seqs: &'a [Vec<String>],
    s: &Scheme,
    suffix: bool,
    types: &mut Types<'a>,
) -> Option<Vec<Entity>> {
    let outside: Token = (mask("O"), types.id("_"));
    let mut out = Vec::new();
    let mut toks: Vec<Token> = Vec::new();
    for (k, seq) in seqs.iter().enumerate() {
        toks.clear();
        for tag in seq {
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
            toks.push((bit, types.id(if ty.is_empty() { "_" } else { ty })));
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
                    out.push((tok.1, k, i, end));
                }
                i = end;
            } else {
                i += 1;
            }
            prev = toks[i - 1];
        }
    }
    Some(out)
}

/// Per-type counts: (types sorted, TP, predicted, true, odd tags warned about in the default
/// mode, in order of first appearance); `None` when the Python code must read the input.
#[allow(clippy::type_complexity)]
fn counts(
    y_true: &[Vec<String>],
    y_pred: &[Vec<String>],
    suffix: bool,
    scheme_name: Option<&str>,
) -> Option<(Vec<String>, Vec<u64>, Vec<u64>, Vec<u64>, Vec<String>)> {
    let mut types = Types::default();
    let mut odd = Vec::new();
    let (t, p) = match scheme_name {
        None => {
            let mut seen = HashSet::new();
            let t = default_entities(y_true, suffix, &mut types, &mut odd, &mut seen)?;
            let p = default_entities(y_pred, suffix, &mut types, &mut odd, &mut seen)?;
            (t, p)
        }
        Some(name) => {
            let s = scheme(name)?;
            let t = strict_entities(y_true, &s, suffix, &mut types)?;
            let p = strict_entities(y_pred, &s, suffix, &mut types)?;
            (t, p)
        }
    };
    let n = types.names.len();
    let (mut tp, mut np, mut nt) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let mut present = vec![false; n];
    let gold: HashSet<Entity> = t.iter().copied().collect();
    for e in &gold {
        nt[e.0 as usize] += 1;
        present[e.0 as usize] = true;
    }
    let pred: HashSet<Entity> = p.iter().copied().collect();
    for e in &pred {
        np[e.0 as usize] += 1;
        present[e.0 as usize] = true;
        if gold.contains(e) {
            tp[e.0 as usize] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&k| present[k]).collect();
    order.sort_by(|&a, &b| types.names[a].cmp(types.names[b]));
    Some((
        order.iter().map(|&k| types.names[k].to_string()).collect(),
        order.iter().map(|&k| tp[k]).collect(),
        order.iter().map(|&k| np[k]).collect(),
        order.iter().map(|&k| nt[k]).collect(),
        odd.into_iter().map(str::to_string).collect(),
    ))
}

/// `fairscore.seqeval`'s counting core (see the module's documentation).
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, suffix, scheme = None))]
#[allow(clippy::type_complexity)]
fn _seqeval_counts(
    py: Python<'_>,
    y_true: Vec<Vec<String>>,
    y_pred: Vec<Vec<String>>,
    suffix: bool,
    scheme: Option<&str>,
) -> Option<(Vec<String>, Vec<u64>, Vec<u64>, Vec<u64>, Vec<String>)> {
    py.allow_threads(|| counts(&y_true, &y_pred, suffix, scheme))
}

/// Adds the counting core to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_seqeval_counts, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(s: &[&str]) -> Vec<Vec<String>> {
        s.iter()
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect()
    }

    #[test]
    fn default_mode_counts_each_predicted_entity_for_its_own_type() {
        let t = seqs(&["B-PER I-PER O B-LOC", "I-ORG"]);
        let p = seqs(&["B-PER I-PER O B-ORG", "B-ORG"]);
        let (names, tp, np, nt, odd) = counts(&t, &p, false, None).unwrap();
        assert_eq!(names, ["LOC", "ORG", "PER"]);
        assert_eq!((tp, np, nt), (vec![0, 1, 1], vec![0, 2, 1], vec![1, 1, 1]));
        assert!(odd.is_empty());
    }

    #[test]
    fn strict_iob2_drops_an_i_without_b_and_rejects_s() {
        let t = seqs(&["I-PER I-PER O B-LOC"]);
        let (names, _, _, nt, _) = counts(&t, &t, false, Some("IOB2")).unwrap();
        assert_eq!((names, nt), (vec!["LOC".to_string()], vec![1]));
        assert!(counts(&seqs(&["S-PER"]), &seqs(&["O"]), false, Some("IOB2")).is_none());
        assert!(counts(&seqs(&["XPER"]), &seqs(&["O"]), false, Some("IOBES")).is_none());
    }
}
