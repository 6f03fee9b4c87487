//! Turning tag columns into spans: IOB entities (NERC) and link objects (NEL).
//!
//! A document is scored as one sequence of tokens (the official `merge_lines=True`), possibly
//! filtered by noise level or date; offsets are positions in that (filtered) sequence, given as
//! a slice of token indices into the [`Corpus`].
//!
//! Each span carries its candidate labels ("alternatives"): one entity type for NERC, the first
//! `n_best` links of a `Q1|Q2|Q3` cell for NEL.

use crate::corpus::Corpus;

pub(crate) mod encoding;
pub(crate) mod labeled;
pub mod seqeval;
pub(crate) mod stacked;

pub use encoding::{Decoded, Encoding, LabelError, Mention, Repair};
pub use labeled::Span as LabeledSpan;

/// A span over positions `start..=end` of a token sequence, with its candidate labels
/// `alts` (a range into the owning [`Spans::labels`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First position (0-based) in the token sequence.
    pub start: u32,
    /// Last position (inclusive).
    pub end: u32,
    alt_start: u32,
    alt_len: u32,
}

impl Span {
    /// The span's identity within its [`Spans`] (the index of its first label there): spans
    /// pushed one label each are keyed 0, 1, 2, … in push order.
    #[inline]
    pub fn key(&self) -> u32 {
        self.alt_start
    }

    /// Whether the two spans share at least one position.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}

/// The spans of one sequence, with their labels stored side by side.
#[derive(Debug, Clone, Default)]
pub struct Spans<'a> {
    /// The spans, in the order they start.
    pub spans: Vec<Span>,
    /// The candidate labels of all spans, each span's own a contiguous run (see [`Spans::alts`]).
    pub labels: Vec<&'a str>,
}

impl<'a> Spans<'a> {
    /// Empties both lists, keeping their capacity for the next sequence.
    pub fn clear(&mut self) {
        self.spans.clear();
        self.labels.clear();
    }

    /// The candidate labels of a span, best first.
    #[inline]
    pub fn alts(&self, s: &Span) -> &[&'a str] {
        &self.labels[s.alt_start as usize..(s.alt_start + s.alt_len) as usize]
    }

    /// The first (primary) label of a span.
    #[inline]
    pub fn label(&self, s: &Span) -> &'a str {
        self.labels[s.alt_start as usize]
    }

    /// Makes these spans those of `from` with at most `n` candidates each (the spans of a
    /// lower n-best cutoff), reusing this list's capacity.
    pub fn cut_from(&mut self, from: &Spans<'a>, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        self.spans.clear();
        self.spans.extend(from.spans.iter().map(|s| Span {
            alt_len: s.alt_len.min(n),
            ..*s
        }));
        self.labels.clear();
        self.labels.extend_from_slice(&from.labels);
    }

    /// Appends a span over `start..=end` with one label (callers keep the spans in the order
    /// they start).
    pub fn push_labeled(&mut self, start: usize, end: usize, label: &'a str) {
        self.push(start, end, std::iter::once(label));
    }

    /// Appends a span over `start..=end` with its candidate labels, best first (callers
    /// keep the spans in the order they start).
    pub fn push_alts(&mut self, start: usize, end: usize, alts: impl Iterator<Item = &'a str>) {
        self.push(start, end, alts);
    }

    fn push(&mut self, start: usize, end: usize, alts: impl Iterator<Item = &'a str>) {
        let alt_start = self.labels.len() as u32;
        self.labels.extend(alts);
        let alt_len = self.labels.len() as u32 - alt_start;
        self.spans.push(Span {
            start: start as u32,
            end: end as u32,
            alt_start,
            alt_len,
        });
    }
}

/// `s[n:]` in Python: drop the first `n` characters (not bytes). When `s` is shorter, the
/// result is the empty tail of `s` (not a `""` literal: comparing with a slice that points
/// into the same text stays cheap).
#[inline]
pub fn skip_chars(s: &str, n: usize) -> &str {
    // Tags start with an ASCII prefix (`B-`, `I-`): when the first `n` bytes are ASCII they
    // are the first `n` characters.
    if let Some(head) = s.as_bytes().get(..n) {
        if head.is_ascii() {
            return &s[n..];
        }
    } else if s.is_ascii() {
        return &s[s.len()..];
    }
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[i..],
        None => &s[s.len()..],
    }
}

/// The tag-set entry of a tag cell: HIPE's own files ([`tag_of`], the official scorer's
/// rule) when `hipe`, else the entity type the IOB readers read (the tag without its prefix,
/// `B-creative-work` → `creative-work`), so that a type with a hyphen is one label.
#[inline]
pub fn label_of(cell: &str, hipe: bool) -> &str {
    match hipe {
        true => tag_of(cell),
        false => skip_chars(cell, 2),
    }
}

/// The tag-set entry of a label: `label.split("|")[0].split("-")[-1]`.
#[inline]
pub fn tag_of(label: &str) -> &str {
    // A byte loop: cells are short, and `|` and `-` are ASCII (slice ends stay on character
    // boundaries).
    let b = label.as_bytes();
    let first_end = b.iter().position(|&c| c == b'|').unwrap_or(b.len());
    let start = b[..first_end]
        .iter()
        .rposition(|&c| c == b'-')
        .map_or(0, |i| i + 1);
    &label[start..first_end]
}

/// NERC entities of column `col` over the token sequence `seq`, as the official reader:
/// a new entity starts at a tag whose type differs from the current one or at `B-` (or
/// `S-`); `I-x` (or `E-x`) after `O` starts one; `O` and `_` end one. The type is the tag
/// without its first two characters.
///
/// IOB1, IOB2 and IOBES are all read right by this one rule: `S-` starts a mention as `B-`
/// does and `E-` continues one as `I-` does (the HIPE reader's IOBES mapping, so two adjacent
/// `S-X` are two mentions). `_` (no annotation) is `O`: the official scorer made an entity of
/// no type of it, which no tag set holds, so its scores do not change; conlleval and seqeval
/// read `_` as a tag of its own that opens a chunk after a typed tag but not after `O`.
pub fn entities<'a>(file: &'a Corpus, col: usize, seq: &[usize], out: &mut Spans<'a>) {
    out.clear();
    let mut cur: Option<(&'a str, usize)> = None;
    for (off, &tok) in seq.iter().enumerate() {
        let tag = file.cell(tok, col);
        if tag == "O" || tag == "_" {
            if let Some((ty, start)) = cur.take() {
                out.push(start, off - 1, std::iter::once(ty));
            }
            continue;
        }
        let ty = skip_chars(tag, 2);
        match cur {
            None => cur = Some((ty, off)),
            Some((cty, start)) => {
                if cty != ty || tag.starts_with('B') || tag.starts_with('S') {
                    out.push(start, off - 1, std::iter::once(cty));
                    cur = Some((ty, off));
                }
            }
        }
    }
    if let Some((ty, start)) = cur {
        if !ty.is_empty() {
            out.push(start, seq.len() - 1, std::iter::once(ty));
        }
    }
}

fn is_empty_link(l: &str) -> bool {
    l == "_" || l == "-"
}

fn push_link<'a>(out: &mut Spans<'a>, start: usize, end: usize, link: &'a str, n_best: usize) {
    out.push(start, end, link.split('|').take(n_best.max(1)));
}

/// Link objects bounded by the named entities of `ne_col` (the official default grouping).
///
/// An object spans an NE entity and takes the link of its first token; a token outside
/// entities with a link is a one-token object. In a run (`gold == false`), a change of link
/// on an `I-` token of the same entity splits the object; the gold keeps the first link.
pub fn links_ne_bounded<'a>(
    file: &'a Corpus,
    link_col: usize,
    ne_col: usize,
    seq: &[usize],
    n_best: usize,
    gold: bool,
    out: &mut Spans<'a>,
) {
    out.clear();
    // (link, ne type, start)
    let mut cur: Option<(&'a str, &'a str, usize)> = None;
    for (off, &tok) in seq.iter().enumerate() {
        let link = file.cell(tok, link_col);
        let ne = file.cell(tok, ne_col);
        if ne == "O" {
            if let Some((l, _, start)) = cur.take() {
                push_link(out, start, off - 1, l, n_best);
            }
            if !is_empty_link(link) {
                push_link(out, off, off, link, n_best);
            }
            continue;
        }
        let ty = skip_chars(ne, 2);
        match cur {
            None => cur = Some((link, ty, off)),
            Some((l, cty, start)) => {
                if cty == ty && ne.starts_with('I') && l != link {
                    if !gold {
                        push_link(out, start, off - 1, l, n_best);
                        cur = Some((link, ty, off));
                    }
                } else if cty != ty || ne.starts_with('B') {
                    push_link(out, start, off - 1, l, n_best);
                    cur = Some((link, ty, off));
                }
            }
        }
    }
    if let Some((l, _, start)) = cur {
        if !l.is_empty() {
            push_link(out, start, seq.len() - 1, l, n_best);
        }
    }
}

/// Link objects as consecutive tokens with the same link (`--original_nel`); `_`/`-` end one.
pub fn links_consecutive<'a>(
    file: &'a Corpus,
    link_col: usize,
    seq: &[usize],
    n_best: usize,
    out: &mut Spans<'a>,
) {
    out.clear();
    let mut cur: Option<(&'a str, usize)> = None;
    for (off, &tok) in seq.iter().enumerate() {
        let link = file.cell(tok, link_col);
        if is_empty_link(link) {
            if let Some((l, start)) = cur.take() {
                push_link(out, start, off - 1, l, n_best);
            }
            continue;
        }
        match cur {
            None => cur = Some((link, off)),
            Some((l, start)) => {
                if l != link {
                    push_link(out, start, off - 1, l, n_best);
                    cur = Some((link, off));
                }
            }
        }
    }
    if let Some((l, start)) = cur {
        if !l.is_empty() {
            push_link(out, start, seq.len() - 1, l, n_best);
        }
    }
}

/// Whether the covered token texts of two equal-offset spans are equal (the official scorer
/// compares the concatenated token texts).
pub fn same_text(
    a: &Corpus,
    a_seq: &[usize],
    b: &Corpus,
    b_seq: &[usize],
    start: u32,
    end: u32,
) -> bool {
    let r = start as usize..=end as usize;
    let ta = a_seq[r.clone()].iter().map(|&t| a.token_text(t));
    let tb = b_seq[r].iter().map(|&t| b.token_text(t));
    // Fast path: token by token.
    if ta.clone().zip(tb.clone()).all(|(x, y)| x == y) {
        return true;
    }
    let ca = ta.flat_map(|s| s.bytes());
    let cb = tb.flat_map(|s| s.bytes());
    ca.eq(cb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::ReadOptions;
    use std::path::Path;

    fn file(rows: &str) -> Corpus {
        let text = format!("TOKEN\tNE\tNEL\n{rows}");
        crate::formats::hipe::parse(Path::new("t.tsv"), text.as_bytes(), &ReadOptions::default())
            .unwrap()
    }

    fn list(s: &Spans) -> Vec<(u32, u32, Vec<String>)> {
        s.spans
            .iter()
            .map(|sp| {
                (
                    sp.start,
                    sp.end,
                    s.alts(sp).iter().map(|x| x.to_string()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn iob_entities() {
        let f = file("a\tB-PER\t_\nb\tI-PER\t_\nc\tI-LOC\t_\nd\tO\t_\ne\tI-ORG\t_\nf\tB-ORG\t_\n");
        let seq: Vec<usize> = (0..f.n_tokens()).collect();
        let mut s = Spans::default();
        entities(&f, 1, &seq, &mut s);
        let v = list(&s);
        assert_eq!(
            v,
            vec![
                (0, 1, vec!["PER".to_string()]),
                (2, 2, vec!["LOC".to_string()]),
                (4, 4, vec!["ORG".to_string()]),
                (5, 5, vec!["ORG".to_string()]),
            ]
        );
    }

    #[test]
    fn iobes_and_blank_cells() {
        // Read as written (CoNLL): `S-` opens a mention, `E-` continues one, `_` is `O`.
        let text = "a S-LOC\nb S-LOC\nc B-PER\nd E-PER\ne S-PER\nf _\ng I-PER\nh _\n";
        let f = crate::formats::conll::parse(Path::new("t.conll"), text).unwrap();
        let seq: Vec<usize> = (0..f.n_tokens()).collect();
        let mut s = Spans::default();
        entities(&f, 1, &seq, &mut s);
        let l = |ty: &str| vec![ty.to_string()];
        assert_eq!(
            list(&s),
            vec![
                (0, 0, l("LOC")),
                (1, 1, l("LOC")),
                (2, 3, l("PER")),
                (4, 4, l("PER")),
                (6, 6, l("PER")),
            ]
        );
    }

    #[test]
    fn ne_bounded_links_split_in_runs_only() {
        let f = file("a\tB-PER\tQ1|Q9\nb\tI-PER\tQ2\nc\tO\tQ3\nd\tO\t_\n");
        let seq: Vec<usize> = (0..f.n_tokens()).collect();
        let mut s = Spans::default();
        links_ne_bounded(&f, 2, 1, &seq, 3, false, &mut s);
        assert_eq!(
            list(&s),
            vec![
                (0, 0, vec!["Q1".into(), "Q9".into()]),
                (1, 1, vec!["Q2".into()]),
                (2, 2, vec!["Q3".into()])
            ]
        );
        links_ne_bounded(&f, 2, 1, &seq, 1, true, &mut s);
        assert_eq!(
            list(&s),
            vec![(0, 1, vec!["Q1".into()]), (2, 2, vec!["Q3".into()])]
        );
        links_consecutive(&f, 2, &seq, 1, &mut s);
        assert_eq!(
            list(&s),
            vec![
                (0, 0, vec!["Q1".into()]),
                (1, 1, vec!["Q2".into()]),
                (2, 2, vec!["Q3".into()])
            ]
        );
    }

    #[test]
    fn python_slicing_and_tags() {
        assert_eq!(skip_chars("B-PERS", 2), "PERS");
        assert_eq!(skip_chars("é", 2), "");
        assert_eq!(skip_chars("éé-x", 2), "-x");
        for s in [
            "", "O", "_", "B-LOC", "Q1|Q2", "B-x|y-z", "|", "-", "a-b-c|d", "é-ü|x", "Q1",
        ] {
            let first = s.split('|').next().unwrap_or(s);
            assert_eq!(
                tag_of(s),
                first.rsplit('-').next().unwrap_or(first),
                "{s:?}"
            );
        }
        for s in [
            "", "O", "B-", "B-PERS", "Bé-x", "é", "éé-x", "I-é", "ab", "a", "aé",
        ] {
            let by_chars: String = s.chars().skip(2).collect();
            assert_eq!(skip_chars(s, 2), by_chars, "{s:?}");
            assert_eq!(skip_chars(s, 0), s);
        }
        assert_eq!(tag_of("B-PERS.AUTHOR"), "PERS.AUTHOR");
        assert_eq!(tag_of("Q1|Q2"), "Q1");
        assert_eq!(tag_of("I-LOC-ADM"), "ADM");
        assert_eq!(tag_of("_"), "_");
    }
}
