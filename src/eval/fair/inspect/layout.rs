//! The text of `inspect`'s documents read in place: where each position of a unit and the
//! text between positions come from (a standoff document's text, token forms and their
//! separators, or a span file's token numbers), and the short text of a span for the error
//! lists ([`SNIPPET`]). No copy per position: a document of millions of tokens costs its
//! pieces, not a string per token.

use std::borrow::Cow;

use crate::eval::fair::{CharText, Unit};
use crate::matching::fair::Span;

/// A mark's text ([`crate::eval::fair::Mark::text`], quoted in the error lists) is cut after this many
/// characters: nested spans would otherwise repeat the document's text once per level.
pub const SNIPPET: usize = 80;

/// What follows a token in the rebuilt text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sep {
    None,
    Space,
    Line,
}

/// A run of positions a span covers: first and last (inclusive), in the document.
pub(super) type Run = (usize, usize);

/// The runs of 1-based token indices a span covers (consecutive tokens merged).
pub(super) fn token_runs(span: &Span) -> Vec<Run> {
    match &span.tokens {
        None => vec![(span.begin, span.end)],
        Some(t) => {
            let mut out: Vec<Run> = Vec::new();
            for &i in t {
                match out.last_mut() {
                    Some(r) if r.1 + 1 == i => r.1 = i,
                    _ => out.push((i, i)),
                }
            }
            out
        }
    }
}

/// Where the positions of one unit and the text between them come from, read in place (no
/// copy per position): a standoff document's text, token forms with their separators, or
/// (span files, no text) the token numbers between span boundaries.
pub(super) enum Layout<'a> {
    Chars(&'a CharText),
    Tokens(&'a [String], Option<&'a Vec<Sep>>),
    /// The boundaries of the elementary intervals (token numbers).
    Numbers(Vec<usize>),
}

pub(super) fn layout<'a>(unit: &'a Unit, other: &Unit, breaks: Option<&'a Vec<Sep>>) -> Layout<'a> {
    if let Some(c) = &unit.chars {
        return Layout::Chars(c);
    }
    if let Some(toks) = &unit.tokens {
        return Layout::Tokens(toks, breaks);
    }
    let mut bounds: Vec<usize> = unit
        .spans
        .iter()
        .chain(&other.spans)
        .flat_map(token_runs)
        .flat_map(|(a, b)| [a, b.saturating_add(1)])
        .collect();
    bounds.sort_unstable();
    bounds.dedup();
    Layout::Numbers(bounds)
}

impl Layout<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Layout::Chars(c) => c.len(),
            Layout::Tokens(t, _) => t.len(),
            Layout::Numbers(b) => b.len().saturating_sub(1),
        }
    }

    pub(super) fn has_text(&self) -> bool {
        !matches!(self, Layout::Numbers(_))
    }

    /// The text before the first position.
    pub(super) fn lead(&self) -> &str {
        match self {
            Layout::Chars(c) => {
                let end = c.bytes(0).map_or(c.text.len(), |b| b.0);
                c.text.get(..end).unwrap_or("")
            }
            _ => "",
        }
    }

    /// The text of position `i`.
    pub(super) fn word(&self, i: usize) -> Cow<'_, str> {
        match self {
            Layout::Chars(c) => {
                let (s, e) = c.bytes(i).unwrap_or((0, 0));
                Cow::Borrowed(c.text.get(s..e).unwrap_or(""))
            }
            Layout::Tokens(t, _) => Cow::Borrowed(t.get(i).map_or("", String::as_str)),
            Layout::Numbers(b) => match (b.get(i), b.get(i + 1)) {
                (Some(&x), Some(&y)) if y == x + 1 => Cow::Owned(format!("#{x}")),
                (Some(&x), Some(&y)) => Cow::Owned(format!("#{x}–#{}", y - 1)),
                _ => Cow::Borrowed(""),
            },
        }
    }

    /// The text after position `i` (none after a unit's last token or number).
    pub(super) fn after(&self, i: usize) -> &str {
        let last = i + 1 >= self.len();
        match self {
            Layout::Chars(c) => {
                let s = c.bytes(i).map_or(c.text.len(), |b| b.1);
                let e = c.bytes(i + 1).map_or(c.text.len(), |n| n.0);
                c.text.get(s..e).unwrap_or("")
            }
            _ if last => "",
            Layout::Tokens(_, breaks) => match breaks.and_then(|b| b.get(i)) {
                Some(Sep::None) => "",
                Some(Sep::Line) => "\n",
                _ => " ",
            },
            Layout::Numbers(_) => " ",
        }
    }

    /// The positions (unit-local, 0-based) of a run of 1-based tokens, if it has any.
    pub(super) fn positions(&self, (a, b): Run) -> Option<Run> {
        let n = self.len();
        let (x, y) = match self {
            Layout::Numbers(bounds) => {
                let x = bounds.binary_search(&a).ok()?;
                let y = bounds
                    .binary_search(&b.saturating_add(1))
                    .ok()?
                    .checked_sub(1)?;
                (x, y)
            }
            _ => (a.checked_sub(1)?, b.checked_sub(1)?.min(n.checked_sub(1)?)),
        };
        (x <= y && y < n).then_some((x, y))
    }
}

/// A span's text for the error list: read up to [`SNIPPET`] characters, a longer one cut
/// there and ended by `…` (the marked text shows it whole; nested spans would otherwise repeat
/// the text once per level). The flag: it was cut.
pub(super) fn snippet(unit: &Unit, sp: &Span, has_text: bool) -> (String, bool) {
    let full: Cow<'_, str> = match (&sp.tokens, &unit.chars, &unit.tokens) {
        _ if !has_text => match (sp.begin, sp.end) {
            (a, b) if a == b => Cow::Owned(format!("#{a}")),
            (a, b) => Cow::Owned(format!("#{a}–#{b}")),
        },
        (None, Some(c), _) => {
            let at = |i: usize| i.checked_sub(1).and_then(|k| c.bytes(k));
            match (at(sp.begin), at(sp.end)) {
                (Some(a), Some(b)) => Cow::Borrowed(c.text.get(a.0..b.1).unwrap_or("")),
                _ => Cow::Borrowed(""),
            }
        }
        (None, None, Some(toks)) => {
            let mut s = String::new();
            let from = sp.begin.saturating_sub(1);
            for t in toks.iter().take(sp.end).skip(from) {
                if s.len() > 4 * SNIPPET {
                    break;
                }
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(t);
            }
            Cow::Owned(s)
        }
        _ => Cow::Owned(unit.text_of(sp).unwrap_or_default()),
    };
    match full.char_indices().nth(SNIPPET) {
        Some((at, _)) => (format!("{}…", &full[..at]), true),
        None => (full.into_owned(), false),
    }
}
