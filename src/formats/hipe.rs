//! Reading HIPE TSV files into a [`Corpus`].
//!
//! The reader follows the official HIPE scorer v2.0 (see `docs/compatibility.md`):
//! - the first line is a header of named columns, tab-separated, no quoting;
//! - a line whose first cell is empty is skipped; a first cell starting with `#` is a comment:
//!   `# segment…` starts a new segment, `# document…` / `# hipe2022:document_id…` a new
//!   document (only when the current segment already holds tokens), `# date…` /
//!   `# hipe2022:date…` sets the date of the following tokens;
//! - every value is upper-cased except in the TOKEN, LEVENSHTEIN and DATE columns, a missing
//!   cell reads as `_` (a short row is stored short), and in `NE-` columns IOBES tags are
//!   turned into IOB (`S-`→`B-`, `E-`→`I-`);
//! - MISC `LED<float>` gives the token's OCR noise level.
//!
//! Beyond the official reader it accepts a UTF-8 byte-order mark and CRLF line ends, and
//! reports malformed input (invalid UTF-8, ragged rows, missing header, a header of more than
//! [`MAX_COLUMNS`] columns) as typed errors with file and line. Only the columns
//! [`ReadOptions::columns`] names (and the token column) are stored; the others are still
//! checked for the notices `score` repeats.

use super::split::{split_tabs, ByteSplit};
use crate::corpus::{
    Cell, Corpus, Date, Document, Notice, ReadOptions, Token, MAX_COLUMNS, NOT_KEPT,
};
use crate::error::{Error, Result};
use std::path::Path;

mod notices;
mod values;

use values::find_date;
pub use values::parse_led;

/// Reads and parses a HIPE TSV file (through the input guard).
pub fn read(path: &Path, opts: &ReadOptions) -> Result<Corpus> {
    let bytes = crate::io::read_input(path)?;
    let text = crate::io::into_utf8(path, bytes)?;
    parse_owned(path, text, opts)
}

/// Parses the bytes of a HIPE TSV file; `path` is only used in messages and as the file's name.
pub fn parse(path: &Path, bytes: &[u8], opts: &ReadOptions) -> Result<Corpus> {
    let text = std::str::from_utf8(bytes).map_err(|e| crate::io::utf8_error(path, bytes, &e))?;
    parse_owned(path, text.to_string(), opts)
}

/// Parses a file's text, keeping it as the cells' storage: unchanged cells point into it,
/// changed ones (upper-cased, IOBES, glued) are appended after it. When only some columns
/// are read ([`ReadOptions::columns`]), their cells are copied out instead and the file text
/// is dropped: the corpus then holds what it was asked for, not the whole file.
pub fn parse_owned(path: &Path, text: String, opts: &ReadOptions) -> Result<Corpus> {
    let mut parser = Parser::new(path, opts);
    let mut file = parser.run(&text)?;
    let extra = std::mem::take(&mut file.text);
    if opts.columns.is_some() {
        file.text = compact(text, &extra, &mut file.cells);
        return Ok(file);
    }
    let mut text = text;
    text.reserve_exact(extra.len());
    text.push_str(&extra);
    file.text = text;
    Ok(file)
}

/// The arena holding the cells that point into `text`, moved down in place (in order), then
/// `extra` (the changed cells, whose offsets were counted from the end of `text`); the cells
/// are moved to their new offsets. Done in the file's own buffer, so reading never holds
/// the file text and a copy of its kept cells at once.
fn compact(text: String, extra: &str, cells: &mut [Cell]) -> String {
    let base = text.len() as u32;
    // Cells in the file text are distinct non-empty slices in ascending order: together at
    // most `base` bytes, and each moves down (or stays).
    let from_text: u32 = cells.iter().filter(|c| c.start < base).map(|c| c.len).sum();
    let shift = base - from_text;
    let mut bytes = text.into_bytes();
    let mut len = 0usize;
    for c in cells.iter_mut() {
        if c.start < base {
            let start = c.start as usize;
            bytes.copy_within(start..start + c.len as usize, len);
            c.start = len as u32;
            len += c.len as usize;
        } else {
            // Cells after the file text move down by what is dropped.
            c.start -= shift;
        }
    }
    bytes.truncate(len);
    bytes.extend_from_slice(extra.as_bytes());
    bytes.shrink_to_fit();
    // Whole cells of UTF-8 text, moved whole: still UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

struct Parser<'a> {
    /// Start and length of the file text: cells inside it are stored as offsets into it.
    base: usize,
    base_len: usize,
    /// Per column, the previous raw value and its cell: runs of equal values (`O`, `_`) share
    /// one cell instead of being copied and upper-cased again.
    prev: Vec<(String, Option<Cell>)>,
    path: &'a Path,
    opts: &'a ReadOptions,
    columns: Vec<String>,
    upper: Vec<bool>,
    ne: Vec<bool>,
    misc: Option<usize>,
    /// The stored columns, ascending (a token stores a prefix of them: those its row has).
    kept: Vec<usize>,
    /// Per column, its place in `kept` ([`NOT_KEPT`] if not stored).
    slots: Vec<u32>,
    /// The columns of [`ReadOptions::rewrite`], from its `header`.
    rewrite_cols: Vec<Option<usize>>,
    glue: Vec<(usize, usize)>,
    docs: Vec<Document>,
    tokens: Vec<Token>,
    notices: Vec<Notice>,
    text: String,
    cells: Vec<Cell>,
    /// See [`Corpus::led`]: empty until a token has a noise level.
    leds: Vec<Option<f64>>,
    /// See [`Corpus::date`]: (first token, date) per date comment.
    dates: Vec<(u32, Date)>,
    doc: Document,
    seg_len: usize,
    pending_id: Option<String>,
    /// See [`Corpus::comment_edition`].
    comment_edition: Option<crate::hipe::Edition>,
    /// Notices folded per file or column: (kind, column or `usize::MAX`, index in `notices`).
    folds: Vec<(crate::corpus::NoticeKind, usize, usize)>,
    /// Whether the file holds a carriage return at all (else no line needs looking at).
    any_cr: bool,
}

impl<'a> Parser<'a> {
    fn new(path: &'a Path, opts: &'a ReadOptions) -> Self {
        Parser {
            base: 0,
            base_len: 0,
            prev: Vec::new(),
            path,
            opts,
            columns: Vec::new(),
            upper: Vec::new(),
            ne: Vec::new(),
            misc: None,
            kept: Vec::new(),
            slots: Vec::new(),
            rewrite_cols: Vec::new(),
            glue: Vec::new(),
            docs: Vec::new(),
            tokens: Vec::new(),
            notices: Vec::new(),
            text: String::new(),
            cells: Vec::new(),
            leds: Vec::new(),
            dates: Vec::new(),
            doc: Document {
                id: None,
                first_line: 0,
                start: 0,
                segments: Vec::new(),
            },
            seg_len: 0,
            pending_id: None,
            comment_edition: None,
            folds: Vec::new(),
            any_cr: false,
        }
    }

    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error::input(self.path, line, msg)
    }

    fn run(&mut self, full: &str) -> Result<Corpus> {
        self.base = full.as_ptr() as usize;
        self.base_len = full.len();
        let content = full;
        let content = content.strip_prefix('\u{feff}').unwrap_or(content);
        self.note_start(full, content);
        if content.len() > u32::MAX as usize / 2 {
            return Err(self.err(0, "file too large (over 2 GiB)"));
        }
        let mut lines = ByteSplit::new(content, b'\n').enumerate();
        if self.opts.rewrite.is_some() && content.is_empty() {
            return Err(self.err(1, "empty file; expected a header line"));
        }
        // Header: the first line.
        let header = match lines.next() {
            Some((_, h)) => self.line_end(h, 1),
            None => "",
        };
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
        let token_col = self.columns.iter().position(|c| c == "TOKEN").unwrap_or(0);
        self.slots = vec![NOT_KEPT; self.columns.len()];
        for (i, name) in self.columns.iter().enumerate() {
            let wanted = match &self.opts.columns {
                None => true,
                Some(w) => i == token_col || w.iter().any(|c| c == name),
            };
            if wanted {
                self.slots[i] = self.kept.len() as u32;
                self.kept.push(i);
            }
        }
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
        // Lines bound the tokens: reserved once rather than grown by doubling.
        let n_lines = memchr::memchr_iter(b'\n', content.as_bytes()).count() + 1;
        self.tokens.reserve_exact(n_lines);
        // Every stored cell but a line's first follows a tab: at most one per byte.
        let max_cells = n_lines
            .saturating_mul(self.kept.len())
            .min(content.len() + 1);
        self.cells.reserve_exact(max_cells);
        let mut fields: Vec<&str> = Vec::with_capacity(ncol);
        for (idx, raw) in lines {
            let lineno = idx + 1;
            let line = self.line_end(raw, lineno);
            split_tabs(line, &mut fields);
            let first = fields[0];
            if first.is_empty() {
                self.note_blank_row(&fields, lineno);
                continue;
            }
            if first.starts_with('#') {
                self.note_comment_row(&fields, lineno);
                self.comment(first, lineno);
                continue;
            }
            let rewritten = match &self.opts.rewrite {
                Some(rw) => rw.row(&self.rewrite_cols, &fields),
                None => None,
            };
            match rewritten {
                None => self.row(&mut fields, lineno)?,
                Some(cells) => {
                    let mut row: Vec<&str> = cells.iter().map(String::as_str).collect();
                    self.row(&mut row, lineno)?;
                }
            }
        }
        self.close_doc();
        if self.tokens.len() > u32::MAX as usize / 2 {
            return Err(self.err(0, "too many tokens"));
        }
        Ok(Corpus {
            path: self.path.to_path_buf(),
            token_col,
            comment_edition: self.comment_edition,
            annotations: Vec::new(),
            columns: std::mem::take(&mut self.columns),
            docs: std::mem::take(&mut self.docs),
            tokens: std::mem::take(&mut self.tokens),
            notices: std::mem::take(&mut self.notices),
            text: std::mem::take(&mut self.text),
            cells: std::mem::take(&mut self.cells),
            slots: std::mem::take(&mut self.slots),
            leds: std::mem::take(&mut self.leds),
            dates: std::mem::take(&mut self.dates),
        })
    }

    /// A token row: its width checked (empty extra cells dropped, a short row noted), then
    /// stored.
    fn row(&mut self, fields: &mut Vec<&str>, lineno: usize) -> Result<()> {
        let ncol = self.columns.len();
        let first = fields.first().copied().unwrap_or_default();
        {
            if fields.len() > ncol {
                if fields[ncol..].iter().all(|f| f.is_empty()) {
                    self.note_row_width(fields.len(), ncol, lineno);
                    fields.truncate(ncol);
                } else {
                    return Err(self.err(
                        lineno,
                        format!(
                            "{} cells but the header has {} columns (token {:?}); remove the extra cells or fix the header",
                            fields.len(),
                            ncol,
                            first
                        ),
                    ));
                }
            }
            if fields.len() < ncol {
                self.note_row_width(fields.len(), ncol, lineno);
            }
        }
        self.token(fields, lineno)
    }

    fn comment(&mut self, first: &str, lineno: usize) {
        use crate::hipe::Edition;
        if first.starts_with("# hipe2022:") {
            self.comment_edition = Some(Edition::Hipe2022);
        } else if self.comment_edition.is_none()
            && ["# document_id", "# language", "# newspaper", "# date"]
                .iter()
                .any(|p| first.starts_with(p))
        {
            self.comment_edition = Some(Edition::Hipe2020);
        }
        if first.starts_with("# segment") {
            if self.seg_len > 0 {
                self.doc.segments.push(self.seg_len);
                self.seg_len = 0;
            }
        } else if first.starts_with("# document") || first.starts_with("# hipe2022:document_id") {
            if self.seg_len > 0 {
                self.close_doc();
            }
            if let Some((_, v)) = first.split_once('=') {
                self.pending_id = Some(v.trim().to_string());
            }
        } else if first.starts_with("# date") || first.starts_with("# hipe2022:date") {
            let date = match find_date(first) {
                Some(d) => d,
                None => {
                    self.notices.push(Notice::new(
                        crate::corpus::NoticeKind::InvalidDate,
                        lineno,
                        format!(
                            "date comment without a valid YYYY-MM-DD date; the official scorer uses {}-01-01",
                            Date::DEFAULT.year
                        ),
                    ));
                    Date::DEFAULT
                }
            };
            // The date holds from the next token on; a later comment before any token
            // replaces it.
            let from = self.tokens.len() as u32;
            match self.dates.last_mut() {
                Some(last) if last.0 == from => last.1 = date,
                _ => self.dates.push((from, date)),
            }
        }
    }

    fn close_doc(&mut self) {
        if self.seg_len > 0 {
            self.doc.segments.push(self.seg_len);
            self.seg_len = 0;
        }
        if !self.doc.segments.is_empty() {
            let next_start = self.tokens.len();
            let doc = std::mem::replace(
                &mut self.doc,
                Document {
                    id: None,
                    first_line: 0,
                    start: next_start,
                    segments: Vec::new(),
                },
            );
            self.docs.push(doc);
        }
    }

    /// Stores a cell: a slice of the file text by its offset, anything else appended to the
    /// extra text (offsets after the file text).
    fn push_cell(&mut self, s: &str) {
        let p = s.as_ptr() as usize;
        let start = if p >= self.base && p + s.len() <= self.base + self.base_len && !s.is_empty() {
            (p - self.base) as u32
        } else {
            let start = (self.base_len + self.text.len()) as u32;
            self.text.push_str(s);
            start
        };
        self.cells.push(Cell {
            start,
            len: s.len() as u32,
        });
    }

    /// Stores a value that is not in the file text.
    fn push_owned(&mut self, s: &str) {
        let start = (self.base_len + self.text.len()) as u32;
        self.text.push_str(s);
        self.cells.push(Cell {
            start,
            len: s.len() as u32,
        });
    }

    fn token(&mut self, fields: &[&str], lineno: usize) -> Result<()> {
        if self.doc.segments.is_empty() && self.seg_len == 0 {
            self.doc.first_line = lineno;
            self.doc.start = self.tokens.len();
            if let Some(id) = self.pending_id.take() {
                self.doc.id = Some(id);
            }
        }
        let first_cell = self.cells.len() as u32;
        let glued = if self.glue.is_empty() {
            Vec::new()
        } else {
            self.apply_glue(fields, lineno)?
        };
        // Cells of columns not stored are only looked at for the notices `score` repeats.
        if self.kept.len() < self.columns.len() {
            for (col, &raw) in fields.iter().enumerate() {
                if self.slots[col] == NOT_KEPT && self.ne[col] && self.changes(col, raw) {
                    self.note_tag(raw, col, lineno);
                }
            }
        }
        for k in 0..self.kept.len() {
            let col = self.kept[k];
            // A short row is stored short: its missing cells read as `_`.
            let Some(&field) = fields.get(col) else {
                break;
            };
            let glue = glued
                .iter()
                .find(|(c, _)| *c == col)
                .map(|(_, g)| g.as_str());
            // Glued values are not in the file text: `push_cell` appends them.
            let raw: &str = glue.unwrap_or(field);
            if !self.changes(col, raw) {
                self.push_cell(raw);
                continue;
            }
            if self.ne[col] {
                self.note_tag(raw, col, lineno);
            }
            if glue.is_none() {
                if let Some((prev_raw, Some(cell))) = self.prev.get(col) {
                    if prev_raw == raw {
                        self.cells.push(*cell);
                        continue;
                    }
                }
            }
            let iobes = self.ne[col] && {
                let b = raw.as_bytes();
                b.len() >= 2 && b[1] == b'-' && matches!(b[0], b'S' | b'E' | b's' | b'e')
            };
            if raw.is_ascii() {
                // Upper-case straight into the arena, IOBES prefix mapped on the way.
                let start = (self.base_len + self.text.len()) as u32;
                for (i, &b) in raw.as_bytes().iter().enumerate() {
                    let u = match (i, b.to_ascii_uppercase()) {
                        (0, b'S') if iobes => b'B',
                        (0, b'E') if iobes => b'I',
                        (_, u) => u,
                    };
                    self.text.push(u as char);
                }
                self.cells.push(Cell {
                    start,
                    len: raw.len() as u32,
                });
            } else {
                let mut value = raw.to_uppercase();
                if iobes {
                    // The prefix is ASCII (checked above): swap its first byte.
                    let first = if value.starts_with('S') { "B" } else { "I" };
                    value.replace_range(..1, first);
                }
                self.push_owned(&value);
            }
            if glue.is_none() {
                if self.prev.len() < self.columns.len() {
                    self.prev.resize(self.columns.len(), (String::new(), None));
                }
                let slot = &mut self.prev[col];
                slot.0.clear();
                slot.0.push_str(raw);
                slot.1 = self.cells.last().copied();
            }
        }
        let led = self
            .misc
            .and_then(|m| fields.get(m))
            .and_then(|m| parse_led(m));
        if led.is_some() || !self.leds.is_empty() {
            if self.leds.is_empty() {
                self.leds.reserve_exact(self.tokens.capacity());
            }
            self.leds.resize(self.tokens.len(), None);
            self.leds.push(led);
        }
        self.tokens.push(Token {
            line: lineno as u32,
            first_cell,
        });
        self.seg_len += 1;
        Ok(())
    }

    /// Whether reading changes a raw cell of column `col` (upper-casing, IOBES prefix).
    #[inline]
    fn changes(&self, col: usize, raw: &str) -> bool {
        self.upper[col]
            && (raw.bytes().any(|b| b.is_ascii_lowercase() || b >= 0x80)
                || (self.ne[col] && (raw.starts_with("S-") || raw.starts_with("E-"))))
    }

    /// The glued values of a row, by column.
    fn apply_glue(&self, fields: &[&str], lineno: usize) -> Result<Vec<(usize, String)>> {
        let mut out: Vec<(usize, String)> = Vec::new();
        for &(a, b) in &self.glue {
            let vb = fields.get(b).copied().unwrap_or("_");
            if vb == "O" {
                continue;
            }
            let va = fields.get(a).copied().unwrap_or("_");
            let split2 = |v: &str| -> Option<(String, String)> {
                let mut it = v.split('-');
                let x = it.next()?;
                let y = it.next()?;
                if it.next().is_some() {
                    return None;
                }
                Some((x.to_string(), y.to_string()))
            };
            let (_, la) = split2(va).ok_or_else(|| {
                self.err(
                    lineno,
                    format!(
                        "--glue: cell {va:?} of column {} is not of the form IOB-LABEL",
                        self.columns[a]
                    ),
                )
            })?;
            let (iob, lb) = split2(vb).ok_or_else(|| {
                self.err(
                    lineno,
                    format!(
                        "--glue: cell {vb:?} of column {} is not of the form IOB-LABEL",
                        self.columns[b]
                    ),
                )
            })?;
            out.retain(|(c, _)| *c != b);
            out.push((b, format!("{iob}-{la}.{lb}")));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
