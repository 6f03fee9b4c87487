//! The one in-memory model every reader produces: a file's documents, their segments
//! (sentences) and tokens, each token with one cell per named column.
//!
//! Cell text lives in one arena string per file, the stored cells one after the other in
//! file order, and every token stores the same number of cells (`cells.rs`: a token costs
//! 4 bytes for where its cells end and 1 byte per further cell, plus the text; line numbers
//! are kept only where they jump), so a corpus is a handful of vectors rather than one
//! string per cell. A cell a
//! short row lacks is stored as `_`; columns the reader was told to skip
//! ([`ReadOptions::columns`]) are not stored at all and read as `_` too. Readers (in
//! [`crate::formats`]) fill it; everything above reads it by column name.

mod align;
mod cells;
pub(crate) mod standoff;

pub use align::{align, Alignment, TokenMismatch};
pub(crate) use cells::{Cells, TokenLines};

use std::path::PathBuf;
/// A calendar date (the document date of a token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year (1 or later in a valid date).
    pub year: i32,
    /// Month, 1 to 12.
    pub month: u32,
    /// Day of the month, 1-based.
    pub day: u32,
}

impl Date {
    /// The date the official scorer assigns when a date comment holds no `YYYY-MM-DD`.
    pub const DEFAULT: Date = Date {
        year: 2022,
        month: 1,
        day: 1,
    };
}

/// A document: a run of tokens, split into segments.
#[derive(Debug, Clone)]
pub struct Document {
    /// Identifier from a `document_id` comment, if any.
    pub id: Option<String>,
    /// 1-based line of the first token.
    pub first_line: usize,
    /// Index of the first token (see [`Corpus::n_tokens`]).
    pub start: usize,
    /// Number of tokens per segment (the official scorer's "lines").
    pub segments: Vec<usize>,
}

impl Document {
    /// Number of tokens (the sum of the segment lengths).
    pub fn len(&self) -> usize {
        self.segments.iter().sum()
    }

    /// Whether the document holds no token.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indices of the document's tokens (token indices of the [`Corpus`]) (`start..start + len`).
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len()
    }
}

/// What a reader (or the alignment) repaired or tolerated; `check` turns each kind into a
/// finding, `score` repeats some of them as warnings ([`Notice::scoring_warnings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoticeKind {
    /// A UTF-8 byte-order mark at the start of the file, dropped.
    Bom,
    /// Lines ending in CRLF, read as LF (one notice per file).
    Crlf,
    /// A carriage return inside a line, kept as part of a cell (one notice per file).
    CarriageReturn,
    /// Token rows with fewer cells than the header, read as `_` (one notice per file).
    MissingCells,
    /// Token rows with empty cells after the last column, dropped (one notice per file).
    ExtraEmptyCells,
    /// Rows with an empty first cell but other cells, skipped as blank lines (one per file).
    EmptyTokenRow,
    /// A row whose first cell starts with `#` and that has further cells: read as a comment,
    /// so its token is dropped (one notice per row).
    CommentRow,
    /// IOBES tags in an `NE-` column, read as IOB (one notice per column).
    Iobes,
    /// Lower-case tags in an `NE-` column, upper-cased (one notice per column).
    LowerCase,
    /// A date comment without a valid `YYYY-MM-DD` date (one notice per comment).
    InvalidDate,
    /// Alignment: a run without document markers, cut into the gold's documents.
    DocumentsReconstructed,
    /// Alignment: run tokens after the end of the gold's last document, ignored.
    LeftoverTokens,
    /// Alignment: a run without document markers but several segments; only the first is used.
    ExtraSegments,
    /// Alignment: a CoNLL run with the gold's tokens but other sentence breaks, read with the
    /// gold's breaks (as conlleval reads the columns of one file); one notice per run.
    SentenceBreaks,
}

/// A non-fatal observation made while reading or aligning: what was repaired or tolerated,
/// where it (first) occurred and how often.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What kind of repair or tolerance this is (check maps it to a finding).
    pub kind: NoticeKind,
    /// 1-based line of the (first) occurrence; 0 for the file as a whole.
    pub line: usize,
    /// The column concerned, if any.
    pub column: Option<String>,
    /// What was observed (one line, without file and line).
    pub message: String,
    /// Occurrences folded into this notice (kinds noted once per file or per column count
    /// every occurrence; the line and message are those of the first).
    pub count: usize,
}

impl Notice {
    /// A notice of one occurrence, about no particular column.
    pub fn new(kind: NoticeKind, line: usize, message: impl Into<String>) -> Self {
        Notice {
            kind,
            line,
            column: None,
            message: message.into(),
            count: 1,
        }
    }

    /// The notices `score` repeats as warnings, in order: the first IOBES and missing-cells
    /// notices of the list, every invalid date and every ignored part of the run; the other
    /// kinds are harmless and only shown by `check`.
    pub fn scoring_warnings(notices: &[Notice]) -> impl Iterator<Item = &Notice> {
        Notice::scoring_warnings_in(notices, None)
    }

    /// [`Notice::scoring_warnings`] about the scored columns only: a notice about another
    /// column (IOBES tags in `NE-FINE-LIT` when `nerc_coarse` is scored) says nothing about
    /// the scores. `None`: every column.
    pub fn scoring_warnings_in<'a>(
        notices: &'a [Notice],
        columns: Option<&'a [&'a str]>,
    ) -> impl Iterator<Item = &'a Notice> {
        let mut seen = Vec::new();
        let scored = move |n: &&Notice| match (&n.column, columns) {
            (Some(c), Some(cols)) => cols.contains(&c.as_str()),
            _ => true,
        };
        notices.iter().filter(scored).filter(move |n| match n.kind {
            NoticeKind::Iobes | NoticeKind::MissingCells => {
                let first = !seen.contains(&n.kind);
                seen.push(n.kind);
                first
            }
            NoticeKind::InvalidDate
            | NoticeKind::LeftoverTokens
            | NoticeKind::ExtraSegments
            | NoticeKind::SentenceBreaks => true,
            _ => false,
        })
    }
}

/// Options that change how cells are read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// `--glue A+B` pairs: where B is not `O`, B becomes `IOB-<A label>.<B label>`.
    pub glue: Vec<(String, String)>,
    /// The columns to store, by name (`None`: all). The header still names every column;
    /// a column not listed (and not the token column) reads as `_` in every row. Scoring
    /// asks only for the columns its task reads; `check` reads all.
    pub columns: Option<Vec<String>>,
    /// A rewrite of token rows applied before their cells are stored (relaxed NEL's link
    /// normalization, `crate::normalize`).
    pub rewrite: Option<std::sync::Arc<dyn RowRewrite>>,
    /// A rewrite of a whole file's text once its format is known, before it is parsed (a
    /// run's tag repairs and type changes: `crate::convert::RunChanges`).
    pub text: Option<std::sync::Arc<dyn TextRewrite>>,
}

/// Rewrites a file's text before it is parsed, knowing its format (`conll`, `hipe`, …);
/// what it changed is kept for the caller ([`TextRewrite::log`]).
pub trait TextRewrite: Send + Sync + std::fmt::Debug {
    /// The new text of the file `path` in `format`, or an error (a format it cannot change, an
    /// invalid tag, …).
    fn rewrite(&self, path: &std::path::Path, format: &str, text: &str) -> crate::Result<String>;

    /// What the rewrites so far changed, one line each, in order (and forgotten).
    fn log(&self) -> Vec<String>;
}

/// Rewrites token rows while a file is read, before cells are stored (upper-cased, …): the
/// reader hands over the raw cells of each token line, as a text rewrite of the file would
/// see them.
pub trait RowRewrite: Send + Sync + std::fmt::Debug {
    /// Checks the header (column names in file order) and returns the column positions
    /// [`RowRewrite::row`] is then called with; an error message (about line 1) if the
    /// header does not suit the rewrite.
    fn header(&self, columns: &[String]) -> std::result::Result<Vec<Option<usize>>, String>;

    /// The row's cells after the rewrite, or `None` when it leaves the row unchanged.
    fn row(&self, columns: &[Option<usize>], cells: &[&str]) -> Option<Vec<String>>;
}

/// The most columns a header may name (an input error beyond): a row's cells are stored
/// by column, so a limit keeps a file's cost proportional to its size.
pub const MAX_COLUMNS: usize = 1000;

/// The text of a cell that is not stored (missing from a short row, or of a column not read).
pub const MISSING: &str = "_";

/// The slot of a column that is not stored.
pub(crate) const NOT_KEPT: u32 = u32::MAX;

/// A whole input file: documents, segments and tokens with named columns.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The file read, as given (for messages).
    pub path: PathBuf,
    /// Header names in file order (BOM removed).
    pub columns: Vec<String>,
    /// Documents in file order.
    pub docs: Vec<Document>,
    /// The 1-based file line of every token, in file order (none for span files): see
    /// [`Corpus::line`], [`Corpus::n_tokens`].
    pub(crate) lines: TokenLines,
    /// Things the official scorer would silently accept: IOBES tags, missing cells, …
    pub notices: Vec<Notice>,
    /// Spans a file gives directly instead of as tag columns (span files), in file order.
    pub annotations: Vec<Annotation>,
    /// The column holding the token text (`TOKEN` where the header names one, else the first).
    pub token_col: usize,
    /// The reader's format name (`hipe`, `conll`, `spans`, …): a corpus records where it comes
    /// from, so nothing above has to guess it again.
    pub format: &'static str,
    /// The convention the file's comments follow, when its reader tells one (HIPE TSV:
    /// `hipe-2022` for `# hipe2022:…` comments, `hipe-2020` for `# document_id`, `# language`,
    /// … without the prefix; `None` when the file has neither).
    pub dialect: Option<&'static str>,
    /// The stored cells, the same number per token.
    pub(crate) cells: Cells,
    /// Per column, its place among a token's stored cells ([`NOT_KEPT`] if not stored).
    pub(crate) slots: Vec<u32>,
    /// Per token, its noise level (`LED<float>` in MISC); empty when no token has one.
    pub(crate) leds: Vec<Option<f64>>,
    /// The tokens a reader flagged as ending a sentence, ascending (HIPE TSV: `EndOfSentence`
    /// among the `|`-separated flags of the MISC cell); empty for other formats.
    pub(crate) sentence_ends: Vec<u32>,
    /// Where the document date changes: (first token, date) for every date comment followed
    /// by tokens, ascending; tokens before the first have none.
    pub(crate) dates: Vec<(u32, Date)>,
}

/// A labeled span given directly by a file (a span-file line): positions are 1-based and
/// inclusive within its document; `tokens` lists the covered positions when the span is
/// discontinuous.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Index of the document in [`Corpus::docs`].
    pub doc: usize,
    /// The span's label.
    pub label: String,
    /// First position (1-based).
    pub begin: usize,
    /// Last position (inclusive).
    pub end: usize,
    /// The covered positions, ascending, when not every position from `begin` to `end`.
    pub tokens: Option<Vec<usize>>,
    /// 1-based file line.
    pub line: usize,
}

/// Builds a [`Corpus`] token by token, for readers whose input is not laid out as the arena
/// already (CoNLL, span files). Documents and segments are closed when the next one starts.
#[derive(Debug)]
pub struct Builder {
    corpus: Corpus,
    seg_len: usize,
}

impl Builder {
    /// An empty corpus of the given file with the given column names.
    pub fn new(path: &std::path::Path, columns: Vec<String>) -> Self {
        let token_col = columns.iter().position(|c| c == "TOKEN").unwrap_or(0);
        let columns_len = columns.len();
        Builder {
            corpus: Corpus {
                path: path.to_path_buf(),
                columns,
                docs: Vec::new(),
                lines: TokenLines::default(),
                notices: Vec::new(),
                annotations: Vec::new(),
                token_col,
                format: "",
                dialect: None,
                cells: Cells::new(columns_len),
                slots: (0..columns_len as u32).collect(),
                leds: Vec::new(),
                sentence_ends: Vec::new(),
                dates: Vec::new(),
            },
            seg_len: 0,
        }
    }

    /// Names the columns (before the first token).
    pub fn set_columns(&mut self, columns: Vec<String>) {
        self.corpus.token_col = columns.iter().position(|c| c == "TOKEN").unwrap_or(0);
        self.corpus.slots = (0..columns.len() as u32).collect();
        self.corpus.cells = Cells::new(columns.len());
        self.corpus.columns = columns;
    }

    /// Starts a new document (closing the current one) at `line`.
    pub fn document(&mut self, id: Option<String>, line: usize) {
        self.close_segment();
        let n = self.corpus.docs.len();
        let annotated = self
            .corpus
            .annotations
            .last()
            .is_some_and(|a| a.doc + 1 == n);
        if let Some(d) = self.corpus.docs.last_mut() {
            if d.segments.is_empty() && !annotated {
                // The open document is still empty: it becomes the new one.
                d.id = id;
                d.first_line = line;
                return;
            }
        }
        let start = self.corpus.lines.len();
        self.corpus.docs.push(Document {
            id,
            first_line: line,
            start,
            segments: Vec::new(),
        });
    }

    /// Ends the current segment (sentence), if it holds tokens.
    pub fn close_segment(&mut self) {
        if self.seg_len > 0 {
            if let Some(d) = self.corpus.docs.last_mut() {
                d.segments.push(self.seg_len);
            }
            self.seg_len = 0;
        }
    }

    /// Appends a token with its cells, one per column (missing cells are stored as `_`,
    /// extra ones are dropped). Starts a document when none is open.
    pub fn token<'c>(&mut self, line: usize, cells: impl IntoIterator<Item = &'c str>) {
        if self.corpus.docs.is_empty() {
            self.document(None, line);
        }
        let n = self.corpus.columns.len();
        let mut stored = 0;
        for c in cells.into_iter().take(n) {
            self.push_cell(c);
            stored += 1;
        }
        for _ in stored..n {
            self.push_cell(MISSING);
        }
        self.corpus
            .lines
            .push(u32::try_from(line).unwrap_or(u32::MAX));
        self.seg_len += 1;
    }

    fn push_cell(&mut self, c: &str) {
        self.corpus.cells.push(c);
    }

    /// Adds a span given directly by the file to the current document.
    pub fn annotation(&mut self, mut a: Annotation) {
        if self.corpus.docs.is_empty() {
            self.document(None, a.line);
        }
        a.doc = self.corpus.docs.len() - 1;
        self.corpus.annotations.push(a);
    }

    /// The number of bytes of cell text so far (readers cap it).
    pub fn text_len(&self) -> usize {
        self.corpus.cells.text_len()
    }

    /// Records the reader's format name (see [`Corpus::format`]).
    pub fn format(&mut self, name: &'static str) {
        self.corpus.format = name;
    }

    /// The finished corpus.
    pub fn finish(mut self) -> Corpus {
        self.close_segment();
        self.corpus
    }
}

impl Corpus {
    /// Index of a column by name.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The text of cell `col` of token `tok`, as the reader stored it (the HIPE reader
    /// upper-cases every column but TOKEN, LEVENSHTEIN and DATE; CoNLL cells are as written);
    /// [`MISSING`] (`_`) for a cell the row lacks or a column not read.
    #[inline(always)]
    pub fn cell(&self, tok: usize, col: usize) -> &str {
        match self.slots.get(col) {
            Some(&slot) if slot != NOT_KEPT => self.cells.get(tok, slot as usize),
            _ => MISSING,
        }
    }

    /// Whether column `col`'s cells were read (else every one reads as `_`).
    pub fn is_kept(&self, col: usize) -> bool {
        self.slots.get(col).is_some_and(|&s| s != NOT_KEPT)
    }

    /// The token text (the `TOKEN` column, whatever its position).
    #[inline]
    pub fn token_text(&self, tok: usize) -> &str {
        self.cell(tok, self.token_col)
    }

    /// Number of tokens in the file.
    pub fn n_tokens(&self) -> usize {
        self.lines.len()
    }

    /// Splits a corpus of one document into one document per sentence: its own sentences, or
    /// `like` (another corpus's sentence lengths, e.g. the gold's) when they cover exactly its
    /// tokens (a run read with the gold's sentence breaks, as the alignment reads it). Sentences
    /// are then the units of resampling, for formats without document markers. A corpus of
    /// several documents is left as it is.
    pub fn sentences_as_documents(&mut self, like: Option<&[usize]>) {
        if self.docs.len() != 1 {
            return;
        }
        let doc = self.docs.remove(0);
        let segments = match like {
            Some(l) if l.iter().sum::<usize>() == doc.len() => l.to_vec(),
            _ => doc.segments.clone(),
        };
        let mut start = doc.start;
        for n in segments {
            self.docs.push(Document {
                id: None,
                first_line: if n > 0 {
                    self.line(start)
                } else {
                    doc.first_line
                },
                start,
                segments: vec![n],
            });
            start += n;
        }
    }

    /// The 1-based file line of token `tok` (0 for a token index beyond the last).
    #[inline]
    pub fn line(&self, tok: usize) -> usize {
        self.lines.get(tok)
    }

    /// The noise level of token `tok` (`LED<float>` in its MISC cell), if any.
    #[inline]
    pub fn led(&self, tok: usize) -> Option<f64> {
        self.leds.get(tok).copied().flatten()
    }

    /// The tokens flagged as ending a sentence, ascending (HIPE TSV's MISC `EndOfSentence`,
    /// read whether or not the MISC column is kept; empty for other formats).
    #[inline]
    pub fn sentence_ends(&self) -> &[u32] {
        &self.sentence_ends
    }

    /// The date of the document token `tok` is in (the last date comment before it), if any.
    pub fn date(&self, tok: usize) -> Option<Date> {
        let after = self.dates.partition_point(|&(t, _)| t as usize <= tok);
        after.checked_sub(1).map(|i| self.dates[i].1)
    }
}
/// Whether `d` is a real date of the (proleptic) Gregorian calendar with a year of 1 or later.
pub fn valid_date(d: Date) -> bool {
    if d.year < 1 || !(1..=12).contains(&d.month) || d.day < 1 {
        return false;
    }
    let leap = (d.year % 4 == 0 && d.year % 100 != 0) || d.year % 400 == 0;
    let days = match d.month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if leap => 29,
        _ => 28,
    };
    d.day <= days
}
