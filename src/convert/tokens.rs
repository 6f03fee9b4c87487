//! Standoff texts ↔ token sentences.
//!
//! Standoff → tokens (whitespace tokenisation): the tokens are the text's runs of
//! non-whitespace characters (whitespace as Python's `str.split` sees it), each further cut
//! where a span starts or ends, so that every span is a whole number of tokens. A sentence
//! ends at a line break, except inside a span. A span must be one fragment, cover at least one
//! token and share no character with another span (a flat tag column holds one chunk a token):
//! otherwise the conversion is refused, naming the file, line and both spans.
//!
//! Tokens → standoff: each document's text is its sentences, one a line, their tokens
//! joined by a space; a mention is the characters of its tokens.

use std::path::Path;

use super::tags::{Row, Sentence, Tagged, TokenDoc};
use crate::corpus::standoff::{is_py_space, StandoffDoc, StandoffSpan};
use crate::error::{snippet, Error, Result};
use crate::spans::encoding::{Mention, OUTSIDE};

fn describe(s: &StandoffSpan) -> String {
    let (a, b) = s.fragments.first().copied().unwrap_or((0, 0));
    format!("{} {} {a}-{b}", s.id, snippet(&s.label))
}

/// The token sentences of a standoff document, its spans as mentions.
pub fn tokenize(doc: &StandoffDoc) -> Result<TokenDoc> {
    let mut spans: Vec<(usize, usize, &StandoffSpan)> = Vec::with_capacity(doc.spans.len());
    for s in &doc.spans {
        let [(a, b)] = s.fragments[..] else {
            return Err(Error::input(
                &doc.path,
                s.line,
                format!(
                    "span {} has {} fragments: a discontinuous span cannot be written as tags",
                    describe(s),
                    s.fragments.len()
                ),
            ));
        };
        if s.label.contains(is_py_space) || s.label.is_empty() {
            return Err(Error::input(
                &doc.path,
                s.line,
                format!(
                    "span {}: a label with white space cannot be a CoNLL tag",
                    describe(s)
                ),
            ));
        }
        spans.push((a, b, s));
    }
    spans.sort_by_key(|&(a, b, s)| (a, b, s.line));
    for w in spans.windows(2) {
        let ((_, b1, s1), (a2, _, s2)) = (w[0], w[1]);
        if a2 < b1 {
            return Err(Error::input(
                &doc.path,
                s2.line,
                format!(
                    "spans {} and {} (line {}) overlap: a flat tag column holds one chunk a \
                     token; keep one of them (--keep-types, --remove-types) or convert to a \
                     standoff format",
                    describe(s2),
                    describe(s1),
                    s1.line
                ),
            ));
        }
    }
    let chars: Vec<char> = doc.text.chars().collect();
    let mut cut = vec![false; chars.len() + 1];
    for &(a, b, _) in &spans {
        cut[a.min(chars.len())] = true;
        cut[b.min(chars.len())] = true;
    }
    // Tokens as [start, end) in characters.
    let mut toks: Vec<(usize, usize)> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &c) in chars.iter().enumerate() {
        if let Some(s) = start {
            if is_py_space(c) || cut[i] {
                toks.push((s, i));
                start = None;
            }
        }
        if start.is_none() && !is_py_space(c) {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        toks.push((s, chars.len()));
    }
    // Each token's span (spans are sorted and disjoint).
    let mut owner: Vec<Option<usize>> = vec![None; toks.len()];
    let mut k = 0;
    for (t, &(a, b)) in toks.iter().enumerate() {
        while k < spans.len() && spans[k].1 <= a {
            k += 1;
        }
        if k < spans.len() && spans[k].0 <= a && b <= spans[k].1 {
            owner[t] = Some(k);
        }
    }
    let mut covered = vec![false; spans.len()];
    for o in owner.iter().flatten() {
        covered[*o] = true;
    }
    if let Some(i) = covered.iter().position(|c| !c) {
        let s = spans[i].2;
        return Err(Error::input(
            &doc.path,
            s.line,
            format!(
                "span {} covers no token (it is empty or only white space)",
                describe(s)
            ),
        ));
    }
    let mut out = TokenDoc::default();
    let mut sent = Sentence::default();
    let mut open: Option<(usize, usize)> = None; // (span, first token in sentence)
    for (t, &(a, b)) in toks.iter().enumerate() {
        let broken = t > 0
            && chars[toks[t - 1].1..a].contains(&'\n')
            && (owner[t].is_none() || owner[t] != owner[t - 1]);
        if broken {
            close(&mut open, &mut sent, &spans);
            out.sentences.push(std::mem::take(&mut sent));
        }
        if owner[t] != open.map(|o| o.0) {
            close(&mut open, &mut sent, &spans);
            open = owner[t].map(|o| (o, sent.rows.len()));
        }
        sent.rows.push(Row {
            cells: vec![chars[a..b].iter().collect(), OUTSIDE.to_string()],
            line: 0,
        });
    }
    close(&mut open, &mut sent, &spans);
    if !sent.rows.is_empty() {
        out.sentences.push(sent);
    }
    Ok(out)
}

fn close(
    open: &mut Option<(usize, usize)>,
    sent: &mut Sentence,
    spans: &[(usize, usize, &StandoffSpan)],
) {
    if let Some((k, first)) = open.take() {
        sent.mentions.push(Mention {
            start: first,
            end: sent.rows.len(),
            label: spans[k].2.label.clone(),
        });
    }
}

/// The standoff documents of token documents: named after the input file (`NAME`, or
/// `NAME-1`, `NAME-2`, … when there are several), each text the sentences one a line.
pub fn to_standoff(path: &Path, t: &Tagged) -> Vec<StandoffDoc> {
    let stem = path
        .file_stem()
        .map_or_else(|| "doc".to_string(), |s| s.to_string_lossy().into_owned());
    let docs: Vec<&TokenDoc> = t
        .docs
        .iter()
        .filter(|d| d.sentences.iter().any(|s| !s.rows.is_empty()))
        .collect();
    let width = docs.len().to_string().len();
    let mut out = Vec::with_capacity(docs.len());
    for (n, d) in docs.iter().enumerate() {
        let name = if docs.len() == 1 {
            stem.clone()
        } else {
            format!("{stem}-{:0width$}", n + 1)
        };
        let mut text = String::new();
        let mut at = 0usize; // characters of `text`
        let mut spans = Vec::new();
        for s in &d.sentences {
            let mut starts = Vec::with_capacity(s.rows.len() + 1);
            for (i, r) in s.rows.iter().enumerate() {
                if i > 0 {
                    text.push(' ');
                    at += 1;
                }
                starts.push(at);
                let tok = r.cells.first().map_or("", String::as_str);
                text.push_str(tok);
                at += tok.chars().count();
            }
            starts.push(at + 1);
            for m in &s.mentions {
                let line = s.rows.get(m.start).map_or(0, |r| r.line);
                spans.push(StandoffSpan {
                    id: format!("T{}", spans.len() + 1),
                    label: m.label.clone(),
                    fragments: vec![(starts[m.start], starts[m.end] - 1)],
                    line,
                });
            }
            text.push('\n');
            at += 1;
        }
        out.push(StandoffDoc {
            name,
            path: path.to_path_buf(),
            text,
            spans,
            norms: Vec::new(),
        });
    }
    out
}
