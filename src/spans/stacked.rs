//! Labeled spans from a BIO tag column with stacked levels (`I-NC|B-NP`), per sentence: the
//! CoNLL reading of fair evaluation.
//!
//! Each `|`-separated level of a tag is read as BIO. Two rules decide what an `I-Y` continues:
//! - [`Continuation::Conlleval`] (the default): as conlleval and seqeval, an `I-Y` continues the
//!   open span of its level only when that span's label is `Y`; otherwise it closes it (and every
//!   deeper one) and opens a new `Y` span;
//! - [`Continuation::Reference`]: as Ortmann's reference implementation, an `I-` continues the
//!   open span of its level whatever its label (for reproducing the reference's tables).
//!
//! `I-` without an open span at its level opens one (the reference fails there). Spans are
//! listed in the order the reference produces them, which decides ties in the fair algorithm.

use super::labeled::Span;
use crate::corpus::Corpus;
use crate::error::{snippet, Error, Result};

/// What an `I-` tag continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Continuation {
    /// An `I-Y` after anything but an open `Y` span starts a new span (conlleval, seqeval).
    #[default]
    Conlleval,
    /// An `I-` continues the open span of its level whatever its label (FairEval).
    Reference,
}

/// POS tags treated as punctuation by `--ignore-punct` (the reference's list).
pub const PUNCT_TAGS: [&str; 18] = [
    "$.", "$,", "$(", "PUNCT", "PUNKT", "KOMMA", "COMMA", "KLAMMER", ".", ",", ":", "(", ")", "\"",
    "\u{2018}", "\u{201c}", "\u{2019}", "\u{201d}",
];

/// A span while reading: begin/end may be cleared by punctuation removal.
struct RawSpan {
    label: String,
    begin: Option<usize>,
    end: Option<usize>,
    toks: Vec<usize>,
    level: usize,
    line: usize,
}

/// The spans of tag column `col` over the tokens `range` of `corpus` (one sentence), with
/// 1-based positions and the file line each span starts on. `punct_col`: drop tokens whose
/// cell there is a punctuation tag from the spans (the reference's `ignore_punct`).
pub fn stacked_spans(
    corpus: &Corpus,
    col: usize,
    range: std::ops::Range<usize>,
    rule: Continuation,
    punct_col: Option<usize>,
) -> Result<Vec<(Span, usize)>> {
    let mut spans: Vec<RawSpan> = Vec::new();
    let mut stack: Vec<RawSpan> = Vec::new();
    let mut punct = Vec::new();
    for (t, tok) in range.clone().enumerate() {
        let idx = t + 1;
        let ln = corpus.line(tok);
        let tag = corpus.cell(tok, col);
        punct.push(punct_col.is_some_and(|pc| PUNCT_TAGS.contains(&corpus.cell(tok, pc))));
        if matches!(tag, "O" | "_" | "") {
            spans.append(&mut stack);
            continue;
        }
        let levels: Vec<&str> = tag.split('|').collect();
        for a in &levels {
            let ok = matches!(a.split_once('-'), Some(("B" | "I", ty)) if !ty.is_empty());
            if !ok {
                return Err(Error::input(
                    &corpus.path,
                    ln,
                    format!(
                        "tag {}: expected B-TYPE, I-TYPE or O on every |-separated level, found {}",
                        snippet(tag),
                        snippet(a)
                    ),
                ));
            }
        }
        while stack.len() > levels.len() {
            if let Some(s) = stack.pop() {
                spans.push(s);
            }
        }
        for (i, a) in levels.iter().enumerate() {
            let label = match rule {
                Continuation::Conlleval => a.get(2..).unwrap_or(""),
                Continuation::Reference => a.split('-').nth(1).unwrap_or(""),
            };
            let fresh = |level: usize| RawSpan {
                label: label.to_string(),
                begin: Some(idx),
                end: Some(idx),
                toks: vec![idx],
                level,
                line: ln,
            };
            let continues = a.starts_with("I-")
                && stack
                    .get(i)
                    .is_some_and(|s| rule == Continuation::Reference || s.label == label);
            if continues {
                if let Some(s) = stack.get_mut(i) {
                    s.end = Some(idx);
                    if !s.toks.contains(&idx) {
                        s.toks.push(idx);
                    }
                }
            } else {
                if i == 0 && !stack.is_empty() {
                    spans.append(&mut stack);
                } else {
                    while stack.len() > i {
                        if let Some(s) = stack.pop() {
                            spans.push(s);
                        }
                    }
                }
                stack.push(fresh(stack.len()));
            }
        }
    }
    spans.append(&mut stack);

    for (i, &is_punct) in punct.iter().enumerate() {
        if !is_punct {
            continue;
        }
        let idx = i + 1;
        for s in spans.iter_mut() {
            s.toks.retain(|&x| x != idx);
            if s.begin == Some(idx) {
                s.begin = match s.end {
                    Some(e) if e > idx => Some(idx + 1),
                    _ => None,
                };
            }
            if s.end == Some(idx) {
                s.end = match s.begin {
                    Some(b) if b < idx => Some(idx - 1),
                    _ => None,
                };
            }
        }
        spans.retain(|s| s.begin.is_some() && s.end.is_some() && !s.toks.is_empty());
    }

    Ok(spans
        .into_iter()
        .filter_map(|s| {
            let (b, e) = (s.begin?, s.end?);
            Some((
                Span::new(s.label, b, e)
                    .at_level(s.level)
                    .with_tokens(s.toks),
                s.line,
            ))
        })
        .collect())
}
