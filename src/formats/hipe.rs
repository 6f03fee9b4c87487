//! Reading HIPE TSV files into a [`Corpus`].
//!
//! The reader follows the official HIPE scorer v2.0 (see `docs/compatibility.md`):
//! - the first line is a header of named columns, tab-separated, no quoting;
//! - a line whose first cell is empty is skipped; a first cell starting with `#` is a comment:
//!   `# segment…` starts a new segment, `# document…` / `# hipe2022:document_id…` a new
//!   document (only when the current segment already holds tokens), `# date…` /
//!   `# hipe2022:date…` sets the date of the following tokens;
//! - every value is upper-cased except in the TOKEN, LEVENSHTEIN and DATE columns, a missing
//!   cell reads as `_`, and in `NE-` columns IOBES tags are turned into IOB (`S-`→`B-`,
//!   `E-`→`I-`);
//! - MISC `LED<float>` gives the token's OCR noise level.
//!
//! Beyond the official reader it accepts a UTF-8 byte-order mark and CRLF line ends, and
//! reports malformed input (invalid UTF-8, ragged rows, missing header, a header of more than
//! [`MAX_COLUMNS`] columns) as typed errors with file and line. Only the columns
//! [`ReadOptions::columns`] names (and the token column) are stored; the others are still
//! checked for the notices `score` repeats.
//!
//! A file is read in pieces of whole lines ([`crate::io::read_lines`]) and each stored cell
//! is copied into the corpus's arena as its line is read, so reading holds one piece of the
//! file, never the whole of it.

use super::split::split_tabs;
use crate::corpus::{
    Cells, Corpus, Date, Document, Notice, ReadOptions, TokenLines, MAX_COLUMNS, NOT_KEPT,
};
use crate::error::{Error, Result};
use std::path::Path;

mod notices;
mod row;
mod values;

pub use values::parse_led;

/// Reads and parses a HIPE TSV file (through the input guard), a piece at a time.
pub fn read(path: &Path, opts: &ReadOptions) -> Result<Corpus> {
    let mut parser = Parser::new(path, opts);
    crate::io::read_lines(path, |piece| {
        if piece.first_line == 1 {
            parser.size_hint(piece.file_len as usize, piece.text);
        }
        parser.piece(piece.text, piece.first_line, piece.last)
    })?;
    parser.finish()
}

/// Parses the bytes of a HIPE TSV file; `path` is only used in messages and as the file's name.
pub fn parse(path: &Path, bytes: &[u8], opts: &ReadOptions) -> Result<Corpus> {
    let text = std::str::from_utf8(bytes).map_err(|e| crate::io::utf8_error(path, bytes, &e))?;
    let mut parser = Parser::new(path, opts);
    parser.size_hint(text.len(), text);
    parser.piece(text, 1, true)?;
    parser.finish()
}

/// Parses a file's text (as [`parse`]; the text is not kept: stored cells are copied).
pub fn parse_owned(path: &Path, text: String, opts: &ReadOptions) -> Result<Corpus> {
    parse(path, text.as_bytes(), opts)
}

struct Parser<'a> {
    path: &'a Path,
    opts: &'a ReadOptions,
    /// Whether the header line has been read.
    started: bool,
    columns: Vec<String>,
    token_col: usize,
    upper: Vec<bool>,
    ne: Vec<bool>,
    misc: Option<usize>,
    /// The stored columns, ascending: every token stores one cell for each.
    kept: Vec<usize>,
    /// Per column, its place in `kept` ([`NOT_KEPT`] if not stored).
    slots: Vec<u32>,
    /// The columns of [`ReadOptions::rewrite`], from its `header`.
    rewrite_cols: Vec<Option<usize>>,
    glue: Vec<(usize, usize)>,
    docs: Vec<Document>,
    lines: TokenLines,
    notices: Vec<Notice>,
    /// The stored cells ([`Corpus::cells`]), made once the header gives their number.
    cells: Cells,
    /// See [`Corpus::led`]: empty until a token has a noise level.
    leds: Vec<Option<f64>>,
    sentence_ends: Vec<u32>,
    /// See [`Corpus::date`]: (first token, date) per date comment.
    dates: Vec<(u32, Date)>,
    doc: Document,
    seg_len: usize,
    pending_id: Option<String>,
    /// See [`Corpus::dialect`].
    dialect: Option<&'static str>,
    /// Notices folded per file or column: (kind, column or `usize::MAX`, index in `notices`).
    folds: Vec<(crate::corpus::NoticeKind, usize, usize)>,
    /// Whether the current piece holds a carriage return at all (else no line needs looking at).
    any_cr: bool,
    /// The file's length (a hint), for sizing the vectors once the first lines are read.
    file_len: usize,
}

impl<'a> Parser<'a> {
    fn new(path: &'a Path, opts: &'a ReadOptions) -> Self {
        Parser {
            path,
            opts,
            started: false,
            columns: Vec::new(),
            token_col: 0,
            upper: Vec::new(),
            ne: Vec::new(),
            misc: None,
            kept: Vec::new(),
            slots: Vec::new(),
            rewrite_cols: Vec::new(),
            glue: Vec::new(),
            docs: Vec::new(),
            lines: TokenLines::default(),
            notices: Vec::new(),
            cells: Cells::new(0),
            leds: Vec::new(),
            sentence_ends: Vec::new(),
            dates: Vec::new(),
            doc: Document {
                id: None,
                first_line: 0,
                start: 0,
                segments: Vec::new(),
            },
            seg_len: 0,
            pending_id: None,
            dialect: None,
            folds: Vec::new(),
            any_cr: false,
            file_len: 0,
        }
    }

    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error::input(self.path, line, msg)
    }

    /// Remembers the file's length, to size the token and cell vectors from the first piece.
    fn size_hint(&mut self, file_len: usize, first: &str) {
        self.file_len = file_len.max(first.len());
    }

    /// Reads a piece of whole lines ([`crate::io::Lines`]): `first_line` is the number of its
    /// first line; in the `last` piece the text after the final line end is a line too.
    fn piece(&mut self, text: &str, first_line: usize, last: bool) -> Result<()> {
        let mut text = text;
        if first_line == 1 {
            if let Some(rest) = text.strip_prefix('\u{feff}') {
                self.note_bom();
                text = rest;
            }
            if last && text.is_empty() && self.opts.rewrite.is_some() {
                return Err(self.err(1, "empty file; expected a header line"));
            }
        }
        self.any_cr = memchr::memchr(b'\r', text.as_bytes()).is_some();
        let mut fields: Vec<&str> = Vec::with_capacity(self.columns.len().max(16));
        let mut lineno = first_line;
        let mut rest = text;
        loop {
            let (raw, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
                // `\n` is ASCII: both sides are on character boundaries.
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None if last => (rest, None),
                None => break,
            };
            let line = self.line_end(raw, lineno);
            if !self.started {
                self.header(line)?;
                self.reserve(next.unwrap_or(""));
            } else {
                split_tabs(line, &mut fields);
                self.line(&mut fields, lineno)?;
            }
            lineno += 1;
            match next {
                Some(n) => rest = n,
                None => break,
            }
        }
        if self.cells.text_len() > u32::MAX as usize / 2 {
            return Err(self.err(lineno, "the stored cells exceed 2 GiB"));
        }
        Ok(())
    }

    /// Sizes the vectors for the whole file from `sample` (the rest of the first piece after
    /// the header): its lines per byte, times the file's length, so that they are not grown
    /// by doubling. Only a reservation, bounded by the file's size.
    fn reserve(&mut self, sample: &str) {
        if self.file_len == 0 || sample.is_empty() {
            return;
        }
        let lines = memchr::memchr_iter(b'\n', sample.as_bytes()).count() + 1;
        let estimate = (lines as u128 * self.file_len as u128 / sample.len() as u128) as usize;
        let tokens = (estimate + estimate / 8 + 16).min(self.file_len / 2 + 16);
        self.cells.reserve_tokens(tokens);
    }

    /// Reads the header line: column names, the stored columns, glue pairs, the rewrite.
    fn header(&mut self, header: &str) -> Result<()> {
        self.started = true;
        // Counted before anything is made per column.
        let ncol = memchr::memchr_iter(b'\t', header.as_bytes()).count() + 1;
        if ncol > MAX_COLUMNS {
            return Err(self.err(
                1,
                format!(
                    "the header has {ncol} columns; at most {MAX_COLUMNS} are read (a HIPE file has about 10)"
                ),
            ));
        }
        if let Some(rw) = &self.opts.rewrite {
            let names: Vec<String> = header.split('\t').map(|s| s.to_string()).collect();
            self.rewrite_cols = rw.header(&names).map_err(|m| self.err(1, m))?;
        }
        if header.trim().is_empty() {
            return Err(self.err(
                1,
                "empty file or empty first line; expected a header line like TOKEN<TAB>NE-COARSE-LIT<TAB>…",
            ));
        }
        if header.contains('\r') {
            return Err(self.err(
                1,
                "the header line holds a carriage return: lines end with a bare CR (old Mac style); convert line ends to LF",
            ));
        }
        self.columns = header.split('\t').map(|s| s.to_string()).collect();
        if self.columns[0].starts_with('#') {
            return Err(self.err(
                1,
                "the first line is a comment; expected a header line like TOKEN<TAB>NE-COARSE-LIT<TAB>…",
            ));
        }
        self.upper = self
            .columns
            .iter()
            .map(|c| !matches!(c.to_uppercase().as_str(), "TOKEN" | "LEVENSHTEIN" | "DATE"))
            .collect();
        self.ne = self.columns.iter().map(|c| c.starts_with("NE-")).collect();
        self.misc = self.columns.iter().position(|c| c == "MISC");
        self.token_col = self.columns.iter().position(|c| c == "TOKEN").unwrap_or(0);
        self.slots = vec![NOT_KEPT; self.columns.len()];
        for (i, name) in self.columns.iter().enumerate() {
            let wanted = match &self.opts.columns {
                None => true,
                Some(w) => i == self.token_col || w.iter().any(|c| c == name),
            };
            if wanted {
                self.slots[i] = self.kept.len() as u32;
                self.kept.push(i);
            }
        }
        self.cells = Cells::new(self.kept.len());
        for (a, b) in &self.opts.glue {
            let ia = self.columns.iter().position(|c| c == a);
            let ib = self.columns.iter().position(|c| c == b);
            match (ia, ib) {
                (Some(ia), Some(ib)) => self.glue.push((ia, ib)),
                _ => {
                    return Err(self.err(
                        1,
                        format!(
                            "--glue {a}+{b}: column not in header ({})",
                            self.columns.join(", ")
                        ),
                    ))
                }
            }
        }
        Ok(())
    }

    /// A line after the header: skipped when blank, a comment, or a token row.
    fn line(&mut self, fields: &mut Vec<&str>, lineno: usize) -> Result<()> {
        let first = fields[0];
        if first.is_empty() {
            self.note_blank_row(fields, lineno);
            return Ok(());
        }
        if first.starts_with('#') {
            self.note_comment_row(fields, lineno);
            self.comment(first, lineno);
            return Ok(());
        }
        let rewritten = match &self.opts.rewrite {
            Some(rw) => rw.row(&self.rewrite_cols, fields),
            None => None,
        };
        match rewritten {
            None => self.row(fields, lineno),
            Some(cells) => {
                let mut row: Vec<&str> = cells.iter().map(String::as_str).collect();
                self.row(&mut row, lineno)
            }
        }
    }

    /// The corpus, once every piece is read.
    fn finish(mut self) -> Result<Corpus> {
        if !self.started {
            return Err(self.err(
                1,
                "empty file or empty first line; expected a header line like TOKEN<TAB>NE-COARSE-LIT<TAB>…",
            ));
        }
        self.close_doc();
        if self.lines.len() > u32::MAX as usize / 2 {
            return Err(self.err(0, "too many tokens"));
        }
        self.lines.shrink();
        self.cells.shrink();
        Ok(Corpus {
            path: self.path.to_path_buf(),
            token_col: self.token_col,
            format: "hipe",
            dialect: self.dialect,
            annotations: Vec::new(),
            columns: self.columns,
            docs: self.docs,
            lines: self.lines,
            notices: self.notices,
            cells: self.cells,
            slots: self.slots,
            leds: self.leds,
            sentence_ends: self.sentence_ends,
            dates: self.dates,
        })
    }
}

#[cfg(test)]
mod tests;
