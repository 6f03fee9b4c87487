//! Where a CoNLL run's tokens stop reproducing the texts of a standoff gold, told with the codes
//! a CoNLL gold gives (`missing-tokens`, `extra-tokens`, `alignment`): the run's tokens are
//! walked over the gold's non-whitespace characters, and after a place where they part, the
//! walk looks a bounded distance ahead, in the run (extra tokens) and in the text (missing
//! text), for the place where they agree again, as the column check does token by token.

use std::path::Path;

use super::code::Code;
use super::findings::{at, Findings};
use crate::corpus::standoff::{is_py_space, StandoffDoc};
use crate::corpus::Corpus;
use crate::error::snippet;

/// How many tokens (run) or words (text) the walk looks ahead after a place where they part.
const MAX_GAP: usize = 64;

/// After this many places where they part, the walk stops looking ahead (bounding its work on
/// a run of another text).
const MAX_SEARCHES: usize = 1000;

/// Tokens in a row that must agree for the walk to take a place as where they meet again
/// (fewer where both end together).
const WINDOW: usize = 4;

/// One non-whitespace character of the gold's texts.
struct Ch {
    c: char,
    doc: usize,
    /// Its offset in characters in its document's text.
    at: usize,
    /// It starts a word (whitespace or the text's start before it).
    word: bool,
}

struct Walk<'a> {
    g: Vec<Ch>,
    toks: Vec<Vec<char>>,
    c: &'a Corpus,
    texts: &'a [StandoffDoc],
}

impl Walk<'_> {
    /// Where token `t` ends if it is the text from `i`.
    fn fits(&self, t: usize, i: usize) -> Option<usize> {
        let tok = &self.toks[t];
        let end = i + tok.len();
        (!tok.is_empty()
            && end <= self.g.len()
            && self.g[i..end].iter().zip(tok).all(|(a, &b)| a.c == b))
        .then_some(end)
    }

    /// `WINDOW` tokens from `t` are the text from `i` (fewer where both end together).
    fn agree_from(&self, t: usize, i: usize) -> bool {
        let mut i = i;
        for k in 0..WINDOW {
            if t + k == self.toks.len() {
                return k > 0 && i == self.g.len();
            }
            match self.fits(t + k, i) {
                Some(e) => i = e,
                None => return false,
            }
        }
        true
    }

    /// The gold's place of character `i`: its document and offset.
    fn place(&self, i: usize) -> String {
        match self.g.get(i) {
            Some(ch) => {
                let d = &self.texts[ch.doc];
                let name = d.name.strip_suffix(".ann").unwrap_or(&d.name);
                format!(
                    "document {} of {}, character {}",
                    snippet(name),
                    d.path.display(),
                    ch.at
                )
            }
            None => "the end of the gold's texts".to_string(),
        }
    }

    /// Up to 20 characters of the gold's text from `i` (without whitespace).
    fn text(&self, i: usize, end: usize) -> String {
        let s: String = self.g[i.min(self.g.len())..end.min(self.g.len())]
            .iter()
            .map(|c| c.c)
            .take(20)
            .collect();
        snippet(&s)
    }

    fn line(&self, t: usize) -> usize {
        if t < self.c.n_tokens() {
            self.c.line(t)
        } else {
            self.c
                .n_tokens()
                .checked_sub(1)
                .map_or(0, |k| self.c.line(k))
        }
    }
}

/// Tells where the tokens of the CoNLL run `c` stop reproducing the gold's `texts` (in their
/// order); false when they reproduce them (the run parts from the texts in another way, e.g.
/// documents in another order, or a token running across whitespace).
pub(super) fn diagnose(pred: &Path, c: &Corpus, texts: &[StandoffDoc], f: &mut Findings) -> bool {
    let mut g = Vec::new();
    for (doc, d) in texts.iter().enumerate() {
        let mut space = true;
        for (at, ch) in d.text.chars().enumerate() {
            if is_py_space(ch) {
                space = true;
                continue;
            }
            g.push(Ch {
                c: ch,
                doc,
                at,
                word: space,
            });
            space = false;
        }
    }
    let toks = (0..c.n_tokens())
        .map(|t| {
            c.token_text(t)
                .chars()
                .filter(|&ch| !is_py_space(ch))
                .collect()
        })
        .collect();
    let w = Walk { g, toks, c, texts };
    let (n, len) = (w.toks.len(), w.g.len());
    let (mut t, mut i) = (0usize, 0usize);
    let mut searches = 0usize;
    // (token, character, how many) of each gap and substitution.
    let (mut missing, mut extra, mut differ) = (Vec::new(), Vec::new(), Vec::new());
    while t < n && i < len {
        if let Some(e) = w.fits(t, i) {
            t += 1;
            i = e;
            continue;
        }
        searches += 1;
        let mut found = None;
        if searches <= MAX_SEARCHES {
            // The d-th word ahead in the text bounds the characters tried at step d.
            let mut k = i + 1;
            'ahead: for d in 1..=MAX_GAP {
                if t + d < n && w.agree_from(t + d, i) {
                    found = Some((false, d, t + d));
                    break;
                }
                let mut words = 0;
                while k < len {
                    if w.g[k].word {
                        words += 1;
                        if words > 1 {
                            break;
                        }
                    }
                    if w.agree_from(t, k) {
                        let n_words = w.g[i..k].iter().filter(|c| c.word).count().max(1);
                        found = Some((true, n_words, k));
                        break 'ahead;
                    }
                    k += 1;
                }
            }
        }
        match found {
            Some((true, n_words, k)) => {
                missing.push((t, i, k, n_words));
                i = k;
            }
            Some((false, d, to)) => {
                extra.push((t, i, d));
                t = to;
            }
            None => {
                differ.push((t, i));
                i = (i + w.toks[t].len().max(1)).min(len);
                t += 1;
            }
        }
    }
    let tok = |t: usize| snippet(c.token_text(t));
    if let Some(&(t, i, k, _)) = missing.first() {
        let words: usize = missing.iter().map(|m| m.3).sum();
        f.push(
            Code::MissingTokens,
            at(pred, w.line(t))
                .message(format!(
                    "the gold's text {} ({}) is missing from the run before this line",
                    w.text(i, k),
                    w.place(i)
                ))
                .count(words),
        );
    }
    if let Some(&(t, i, d)) = extra.first() {
        let n_extra: usize = extra.iter().map(|e| e.2).sum();
        f.push(
            Code::ExtraTokens,
            at(pred, w.line(t))
                .message(format!(
                    "the run's token {} ({}){} not in the gold; the gold's text goes on with {} ({})",
                    t + 1,
                    tok(t),
                    if d > 1 { format!(" and the {} after it are", d - 1) } else { " is".to_string() },
                    w.text(i, i + 20),
                    w.place(i)
                ))
                .count(n_extra),
        );
    }
    if let Some(&(t, i)) = differ.first() {
        f.push(
            Code::Alignment,
            at(pred, w.line(t))
                .message(format!(
                    "token {} of the run is {}, the gold's text ({}) has {}",
                    t + 1,
                    tok(t),
                    w.place(i),
                    w.text(i, i + w.toks[t].len().max(1))
                ))
                .count(differ.len()),
        );
    }
    if i < len {
        f.push(
            Code::MissingTokens,
            at(pred, w.line(n)).message(format!(
                "the run ends after {n} tokens; the gold's text goes on at {} with {}",
                w.place(i),
                w.text(i, i + 20)
            )),
        );
    }
    if t < n {
        f.push(
            Code::ExtraTokens,
            at(pred, w.line(t)).message(format!(
                "the run goes on with {} after the end of the gold's texts ({} more tokens)",
                tok(t),
                n - t
            )),
        );
    }
    !(missing.is_empty() && extra.is_empty() && differ.is_empty() && i >= len && t >= n)
}
