//! Standoff documents: a text and the spans annotated on it by character offsets (brat,
//! doccano, Label Studio, Prodigy). Offsets are stored as Unicode code points, as brat and
//! Python count them; readers of formats that count otherwise (Label Studio counts UTF-16
//! code units, as JavaScript does) convert through [`OffsetIndex`], which also refuses offsets
//! out of range, reversed, or inside a character.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// One annotated span: a label over one or more fragments of the text (several fragments:
/// a discontinuous span, brat's `start end;start end`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandoffSpan {
    /// The annotation's id in its file (`T3`), or its position for formats without ids.
    pub id: String,
    /// The label (entity type).
    pub label: String,
    /// Half-open `[start, end)` ranges in code points, sorted by position (brat's `16 21;0 4`
    /// is `0 4;16 21`, as brat compares them), sharing no character.
    pub fragments: Vec<(usize, usize)>,
    /// The 1-based line of the file that holds it.
    pub line: usize,
}

/// One document: its text and its spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandoffDoc {
    /// The document's name: its path relative to the directory read (brat), or its position
    /// or id in a JSONL file.
    pub name: String,
    /// The annotation file it was read from.
    pub path: PathBuf,
    /// The text the offsets refer to.
    pub text: String,
    /// The spans, in file order.
    pub spans: Vec<StandoffSpan>,
    /// The normalizations (brat's `N` lines: a knowledge-base id attached to an
    /// annotation), in file order; empty for the formats without them. Only the nel family
    /// reads them.
    pub norms: Vec<StandoffNorm>,
}

/// Both sides of a scoring as read by a caller's own reader: the gold's documents, the run's
/// (with the same names and texts) and warnings.
pub type ReadDocs = (Vec<StandoffDoc>, Vec<StandoffDoc>, Vec<String>);

/// A reader of both sides (gold path, run path) that replaces the standoff readers: the
/// family layer hands one down when the run is not standoff annotation but is placed on the
/// gold's texts first (a generative model's entity lists, `docs/generative.md`).
#[derive(Clone)]
pub struct DocsReader(pub std::sync::Arc<ReadFn>);

/// The function of a [`DocsReader`]: gold path, run path → both sides.
pub type ReadFn = dyn Fn(&Path, &Path) -> Result<ReadDocs> + Send + Sync;

impl std::fmt::Debug for DocsReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DocsReader")
    }
}

/// A normalization, brat's `N1<TAB>Reference T3 Wikidata:Q42<TAB>Douglas Adams`: the
/// knowledge-base reference `Wikidata:Q42` attached to the annotation `T3`. The reader keeps
/// the line as written (a part missing is an empty string); the reader of the links checks
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandoffNorm {
    /// The normalization's id (`N1`).
    pub id: String,
    /// The annotation it refers to (`T3`).
    pub target: String,
    /// The reference, `DB:ID` (`Wikidata:Q42`).
    pub reference: String,
    /// The 1-based line of the file that holds it.
    pub line: usize,
}

impl StandoffDoc {
    /// The document's id as every command names it: its name, a brat document's without
    /// `.ann` (so that a brat gold pairs with a JSON run).
    pub fn id(&self) -> &str {
        self.name.strip_suffix(".ann").unwrap_or(&self.name)
    }

    /// Number of characters (code points) of the text.
    pub fn n_chars(&self) -> usize {
        self.text.chars().count()
    }

    /// Removes every span that repeats an earlier one of the document (the same label over
    /// the same fragments: one annotation given twice, counted once) and returns them, each
    /// with the id and line of the span it repeats, in file order.
    pub fn remove_duplicates(&mut self) -> Vec<Duplicate> {
        let spans = &self.spans;
        let mut order: Vec<usize> = (0..spans.len()).collect();
        order.sort_by(|&a, &b| {
            let key = |i: usize| (&spans[i].label, &spans[i].fragments, i);
            key(a).cmp(&key(b))
        });
        // For each span given before: the span it repeats.
        let mut repeats: Vec<Option<usize>> = vec![None; spans.len()];
        let mut first = None;
        for w in order.windows(2) {
            let (a, b) = (w[0], w[1]);
            if spans[a].label == spans[b].label && spans[a].fragments == spans[b].fragments {
                let f = *first.get_or_insert(a);
                repeats[b] = Some(f);
            } else {
                first = None;
            }
        }
        if repeats.iter().all(Option::is_none) {
            return Vec::new();
        }
        let firsts: Vec<Option<(String, usize)>> = repeats
            .iter()
            .map(|r| r.map(|f| (spans[f].id.clone(), spans[f].line)))
            .collect();
        let mut out = Vec::new();
        let mut kept = Vec::with_capacity(spans.len());
        for (s, f) in std::mem::take(&mut self.spans).into_iter().zip(firsts) {
            match f {
                Some((id, line)) => out.push(Duplicate {
                    span: s,
                    first_id: id,
                    first_line: line,
                }),
                None => kept.push(s),
            }
        }
        self.spans = kept;
        out
    }
}

/// A span given again in its document (the same label over the same fragments as an earlier
/// one), left out so that it counts once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The span left out.
    pub span: StandoffSpan,
    /// The id of the span it repeats (kept).
    pub first_id: String,
    /// The line of the span it repeats.
    pub first_line: usize,
}

/// How a format counts offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetUnit {
    /// Unicode code points (brat, doccano, Prodigy: Python string indices).
    CodePoint,
    /// UTF-16 code units (Label Studio: JavaScript string indices).
    Utf16,
}

/// Checks and converts offsets of one text.
#[derive(Debug, Clone)]
pub struct OffsetIndex {
    unit: OffsetUnit,
    n_chars: usize,
    /// For UTF-16: the code unit offset where each character starts, then the total.
    utf16: Vec<usize>,
}

impl OffsetIndex {
    /// The index of `text` for offsets counted in `unit`.
    pub fn new(text: &str, unit: OffsetUnit) -> Self {
        let n_chars = text.chars().count();
        let utf16 = match unit {
            OffsetUnit::CodePoint => Vec::new(),
            OffsetUnit::Utf16 => {
                let mut v = Vec::with_capacity(n_chars + 1);
                let mut at = 0;
                for c in text.chars() {
                    v.push(at);
                    at += c.len_utf16();
                }
                v.push(at);
                v
            }
        };
        OffsetIndex {
            unit,
            n_chars,
            utf16,
        }
    }

    /// The text's length in the unit.
    pub fn len(&self) -> usize {
        match self.unit {
            OffsetUnit::CodePoint => self.n_chars,
            OffsetUnit::Utf16 => self.utf16.last().copied().unwrap_or(0),
        }
    }

    /// The code point offset of `off`, or None when it is not on a character boundary.
    fn to_char(&self, off: usize) -> Option<usize> {
        match self.unit {
            OffsetUnit::CodePoint => Some(off),
            OffsetUnit::Utf16 => self.utf16.binary_search(&off).ok(),
        }
    }

    /// `[start, end)` in code points, or an input error at `path:line` saying what is wrong:
    /// an end before its start, an offset beyond the text, an offset inside a character.
    pub fn check(
        &self,
        path: &Path,
        line: usize,
        start: usize,
        end: usize,
    ) -> Result<(usize, usize)> {
        if end < start {
            return Err(Error::input(
                path,
                line,
                format!("span end {end} is before its start {start}"),
            ));
        }
        if end > self.len() {
            return Err(Error::input(
                path,
                line,
                format!(
                    "span {start}-{end} is beyond the end of the text ({} characters)",
                    self.len()
                ),
            ));
        }
        let conv = |o: usize| {
            self.to_char(o).ok_or_else(|| {
                Error::input(
                    path,
                    line,
                    format!(
                        "offset {o} is inside a character (offsets count UTF-16 code units here)"
                    ),
                )
            })
        };
        Ok((conv(start)?, conv(end)?))
    }
}

/// Slices of a text by code point offsets: the byte offset of every [`SLICER_STEP`]-th
/// character is computed once (nothing for an ASCII text), so a look-up walks fewer than
/// that many characters and the index takes an eighth of a byte per character of the text.
#[derive(Debug, Clone)]
pub struct CharSlicer<'a> {
    text: &'a str,
    /// Byte offset of every [`SLICER_STEP`]-th character (empty for ASCII text).
    marks: Vec<usize>,
}

/// The characters between two marks of a [`CharSlicer`].
pub const SLICER_STEP: usize = 64;

impl<'a> CharSlicer<'a> {
    /// The slicer of `text`.
    pub fn new(text: &'a str) -> Self {
        let marks = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices()
                .step_by(SLICER_STEP)
                .map(|(i, _)| i)
                .collect()
        };
        CharSlicer { text, marks }
    }

    /// The byte offset of code point `i` (the text's length when out of range).
    pub fn byte(&self, i: usize) -> usize {
        if self.marks.is_empty() {
            return i.min(self.text.len());
        }
        let Some(&mark) = self.marks.get(i / SLICER_STEP) else {
            return self.text.len();
        };
        let rest = self.text.get(mark..).unwrap_or("");
        rest.char_indices()
            .nth(i % SLICER_STEP)
            .map_or(self.text.len(), |(b, _)| mark + b)
    }

    /// The text of `[start, end)` in code points (empty when out of range or reversed).
    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        let (a, b) = (self.byte(start), self.byte(end));
        self.text.get(a..b.max(a)).unwrap_or("")
    }
}

/// Whitespace as Python's `str.split()` and `re` `\s` see it: Unicode `White_Space` and the
/// four information separators U+001C–U+001F.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Whether two texts are the same but for whitespace: runs of whitespace compare as one space
/// and whitespace at either end is ignored (how a tool's copy of a span's text is checked
/// against the text it covers: brat writes a line break inside a span as a space).
pub fn same_words(a: &str, b: &str) -> bool {
    let words = |s| str::split(s, is_py_space).filter(|w: &&str| !w.is_empty());
    words(a).eq(words(b))
}

/// The whitespace-separated tokens of `text` as code point ranges (`\S+`, as bratiaa
/// tokenizes).
pub fn whitespace_tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut n = 0;
    for (i, c) in text.chars().enumerate() {
        n = i + 1;
        match (is_py_space(c), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_checked_and_converted() {
        let p = Path::new("x");
        let ix = OffsetIndex::new("a😀b", OffsetUnit::Utf16);
        assert_eq!(ix.len(), 4);
        assert_eq!(ix.check(p, 1, 0, 3).ok(), Some((0, 2)));
        assert!(ix.check(p, 1, 0, 2).is_err());
        assert!(ix.check(p, 1, 3, 1).is_err());
        assert!(ix.check(p, 1, 0, 5).is_err());
        let ix = OffsetIndex::new("a😀b", OffsetUnit::CodePoint);
        assert_eq!(ix.check(p, 1, 1, 2).ok(), Some((1, 2)));
        assert_eq!(CharSlicer::new("a😀bc").slice(1, 3), "😀b");
        assert_eq!(CharSlicer::new("abc").slice(1, 1), "");
        assert_eq!(CharSlicer::new("abc").slice(2, 9), "c");
        assert_eq!(CharSlicer::new("a😀bc").slice(3, 1), "");
        let s = CharSlicer::new("a😀bc");
        assert_eq!((s.slice(0, 2), s.slice(2, 4), s.byte(2)), ("a😀", "bc", 5));
        // Past the marks of a long text: every slice as the characters give it.
        let long: String = (0..300)
            .map(|i| if i % 7 == 0 { 'ü' } else { 'a' })
            .collect();
        let (s, chars) = (CharSlicer::new(&long), long.chars().collect::<Vec<_>>());
        for (a, b) in [
            (0, 300),
            (63, 64),
            (64, 130),
            (127, 299),
            (299, 300),
            (250, 400),
        ] {
            let want: String = chars[a.min(300)..b.min(300)].iter().collect();
            assert_eq!(s.slice(a, b), want, "{a}..{b}");
        }
        assert!(same_words(" lives\r\nin  Paris ", "lives in Paris"));
        assert!(!same_words("Anna", "Ann a") && !same_words("", "x"));
        assert_eq!(
            whitespace_tokens(" ab  c\u{1f}d"),
            vec![(1, 3), (5, 6), (7, 8)]
        );
    }

    #[test]
    fn a_span_given_twice_is_removed_once_per_repeat() {
        let span = |id: &str, label: &str, f: &[(usize, usize)], line| StandoffSpan {
            id: id.into(),
            label: label.into(),
            fragments: f.to_vec(),
            line,
        };
        let mut d = StandoffDoc {
            name: "d".into(),
            path: PathBuf::from("d.ann"),
            text: "Anna met Carl".into(),
            spans: vec![
                span("T1", "PER", &[(0, 4)], 1),
                span("T2", "LOC", &[(0, 4)], 2),
                span("T3", "PER", &[(0, 4)], 3),
                span("T4", "PER", &[(0, 4), (9, 13)], 4),
                span("T5", "PER", &[(0, 4)], 5),
            ],
            norms: Vec::new(),
        };
        let dups = d.remove_duplicates();
        let ids: Vec<&str> = d.spans.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["T1", "T2", "T4"]);
        let said: Vec<(&str, &str, usize)> = dups
            .iter()
            .map(|x| (x.span.id.as_str(), x.first_id.as_str(), x.first_line))
            .collect();
        assert_eq!(said, [("T3", "T1", 1), ("T5", "T1", 1)]);
        assert!(d.remove_duplicates().is_empty());
    }
}
