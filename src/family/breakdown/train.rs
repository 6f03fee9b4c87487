//! A lean reading of a HIPE TSV training file for the training keys: one pass over its lines
//! that looks at the token cell and the entity column's cell only, collecting the vocabulary
//! and the entities as it goes (no corpus is built, the other cells are not split).
//!
//! It reads what the HIPE reader ([`crate::formats::hipe`]) reads: the header names the
//! columns; a row whose first cell is empty is skipped; a first cell starting with `#` is a
//! comment, of which `# document…` and `# hipe2022:document_id…` start a new document when
//! the current segment holds tokens (entities never cross documents; `# segment` only starts
//! a segment); the entity cell is upper-cased unless its column is TOKEN, LEVENSHTEIN or DATE,
//! an `NE-` column's IOBES prefix is turned into IOB, and a missing cell reads as `_`. The
//! entities are those [`crate::spans::entities`] finds in each document. Whatever this pass does
//! not handle (a header the reader refuses, a row wider than the header) makes it give up
//! (`None`): the caller then reads the file with the full reader, which reports the error.
//! The test `lean_equals_full` checks both readings give the same [`Train`] on real files.

use std::borrow::Cow;
use std::path::Path;

use super::{one_word, Train};
use crate::corpus::{ReadOptions, MAX_COLUMNS, MISSING};
use crate::error::{Error, Result};
use crate::formats::Format;
use crate::spans::skip_chars;
use crate::table::signature::{short_hash, ContentHash};

/// The entity being read: its label and its text so far.
struct Open {
    label: String,
    text: String,
}

/// The vocabulary and entities of the HIPE TSV `text` (a file's whole text) in the column
/// named `col` (`path` names the file in errors); `Ok(None)` when the lean pass gives up (see
/// the module's notes), an error naming line 1 when the column is missing.
pub fn hipe(path: &Path, text: &str, col: &str) -> Result<Option<Train>> {
    let Some((mut lean, rest)) = Lean::new(path, text, col)? else {
        return Ok(None);
    };
    Ok(lean.lines(rest).map(|()| lean.finish()))
}

/// The lean pass under way: the header's layout, and what is read so far.
struct Lean {
    ncol: usize,
    token_col: usize,
    tag_col: usize,
    /// The last of the two cells read.
    last: usize,
    upper: bool,
    ne: bool,
    t: Train,
    open: Option<Open>,
    seg_len: usize,
}

impl Lean {
    /// The pass over a file's first piece of text `text` (whole lines): its header read, the
    /// pass and the text after the header; `Ok(None)` when the pass gives up on the header,
    /// an error naming line 1 when the column `col` is missing.
    fn new<'t>(path: &Path, text: &'t str, col: &str) -> Result<Option<(Lean, &'t str)>> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (header, rest) = match text.find('\n') {
            Some(i) => (&text[..i], &text[i + 1..]),
            None => (text, ""),
        };
        let header = header.strip_suffix('\r').unwrap_or(header);
        let ncol = memchr::memchr_iter(b'\t', header.as_bytes()).count() + 1;
        if ncol > MAX_COLUMNS
            || header.trim().is_empty()
            || header.contains('\r')
            || header.starts_with('#')
        {
            return Ok(None);
        }
        let columns: Vec<&str> = header.split('\t').collect();
        let token_col = columns.iter().position(|c| *c == "TOKEN").unwrap_or(0);
        let Some(tag_col) = columns.iter().position(|c| *c == col) else {
            return Err(Error::input(
                path,
                1,
                "train: the entity column of the gold is missing from the training file",
            ));
        };
        let lean = Lean {
            ncol,
            token_col,
            tag_col,
            last: token_col.max(tag_col),
            upper: !matches!(
                col.to_uppercase().as_str(),
                "TOKEN" | "LEVENSHTEIN" | "DATE"
            ),
            ne: col.starts_with("NE-"),
            t: Train::default(),
            open: None,
            seg_len: 0,
        };
        Ok(Some((lean, rest)))
    }

    /// Reads the whole lines of `text` (after the header); `None` when the pass gives up.
    fn lines(&mut self, mut rest: &str) -> Option<()> {
        let mut cells: Vec<&str> = Vec::with_capacity(self.last + 1);
        loop {
            let (raw, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
                // `\n` is ASCII: both sides are on character boundaries.
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            // The cells up to the last one read; the rest of the line is only counted.
            cells.clear();
            let mut from = 0;
            let mut ended = false;
            let bytes = line.as_bytes();
            while cells.len() <= self.last {
                // (Cells are short: a plain search beats memchr's set-up.)
                match bytes[from..].iter().position(|&b| b == b'\t') {
                    Some(i) => {
                        cells.push(&line[from..from + i]);
                        from += i + 1;
                    }
                    None => {
                        cells.push(&line[from..]);
                        ended = true;
                        break;
                    }
                }
            }
            let first = cells.first().copied().unwrap_or_default();
            if first.is_empty() {
                // A blank row, skipped.
            } else if first.starts_with('#') {
                if first.starts_with("# segment") {
                    self.seg_len = 0;
                } else if (first.starts_with("# document")
                    || first.starts_with("# hipe2022:document_id"))
                    && self.seg_len > 0
                {
                    close(&mut self.t, &mut self.open);
                    self.seg_len = 0;
                }
            } else {
                // A row wider than the header: the full reader notes or refuses it.
                let fields = if ended {
                    cells.len()
                } else {
                    let after = bytes.get(from..).unwrap_or_default();
                    cells.len() + 1 + tabs(after)
                };
                if fields > self.ncol {
                    return None;
                }
                let token = cells.get(self.token_col).copied().unwrap_or(MISSING);
                let raw_tag = cells.get(self.tag_col).copied().unwrap_or(MISSING);
                let tag = read_tag(raw_tag, self.upper, self.ne);
                token_row(&mut self.t, &mut self.open, token, &tag);
                self.seg_len += 1;
            }
            match next {
                Some(n) => rest = n,
                None => break,
            }
        }
        Some(())
    }

    /// The training set read: the last document closed.
    fn finish(mut self) -> Train {
        close(&mut self.t, &mut self.open);
        self.t
    }
}

/// The training set being read in a thread of its own ([`beside`]); [`Pending::wait`] gives it.
pub struct Pending<'s>(Option<std::thread::ScopedJoinHandle<'s, Result<Option<Train>>>>);

impl Pending<'_> {
    /// The training set once read (`None` when none was asked for), or the reading's error.
    pub fn wait(self) -> Result<Option<Train>> {
        match self.0 {
            None => Ok(None),
            Some(h) => h
                .join()
                .unwrap_or_else(|_| Err(Error::usage("train: the training file's reader stopped"))),
        }
    }
}

/// Runs `work` while `read` (when given) reads the training file in a thread of its own: the
/// training file's reading is most of what the training keys cost (docs/performance.md), and
/// it needs nothing of the gold's and the run's. `work` takes the reading's [`Pending`] and
/// waits for it where it needs the training set (after the gold and the run, so that their
/// errors come first).
pub fn beside<'env, R>(
    read: Option<impl FnOnce() -> Result<Option<Train>> + Send + 'env>,
    work: impl for<'s> FnOnce(Pending<'s>) -> R,
) -> R {
    std::thread::scope(|sc| work(Pending(read.map(|f| sc.spawn(f)))))
}

/// Reads the training file at `path` for the training keys: its content hash (for the
/// signature) and its vocabulary and entities, as CoNLL or HIPE TSV (`format`, detected when
/// `None`): `col` the HIPE entity column (`None`: CoNLL's tag column, named or numbered by
/// `conll_col`, else `TAG`). A HIPE TSV file is read by the lean pass ([`hipe`]) where it can,
/// piece by piece ([`crate::io::read_lines`]: a quarter of a megabyte at a time, not the whole
/// file), and hashed as it is read ([`ContentHash`]).
pub fn read(
    path: &Path,
    format: Option<Format>,
    col: Option<&str>,
    conll_col: Option<&str>,
) -> Result<(String, Train)> {
    if crate::eval::standoff::is_standoff(path) {
        let hash = crate::family::sign::file_hash(path)?;
        return Ok((hash, standoff(path)?));
    }
    // A HIPE TSV file (given, or told by its first line) by one lean pass over its pieces,
    // hashed as they are read: the file is never held whole.
    if let Some(name) = col.filter(|_| format.is_none_or(|f| f == Format::Hipe)) {
        if let Some(done) = hipe_pieces(path, format.is_none(), name)? {
            return Ok(done);
        }
    }
    // Read once: hashed for the signature, then parsed.
    let bytes = crate::io::read_input(path)?;
    let hash = short_hash(&bytes);
    let text = crate::io::into_utf8(path, bytes)?;
    let format = match format {
        Some(f) => f,
        None => crate::formats::detect(path, &text)?,
    };
    // A HIPE TSV file by one lean pass over its token and entity cells.
    if let (Format::Hipe, Some(name)) = (format, col) {
        if let Some(t) = hipe(path, &text, name)? {
            return Ok((hash, t));
        }
    }
    // Only the entity column (and the tokens) of a HIPE TSV training file.
    let ropts = ReadOptions {
        columns: col.map(|c| vec![c.to_string()]),
        ..ReadOptions::default()
    };
    let t = crate::formats::parse_text(path, text, Some(format), &ropts)?;
    let tcol = match col {
        Some(name) => t.column(name),
        None => super::tokens::conll_tag_column(&t, conll_col),
    }
    .ok_or_else(|| {
        Error::input(
            path,
            1,
            "train: the entity column of the gold is missing from the training file",
        )
    })?;
    Ok((hash, super::tokens::train(&t, tcol)))
}

/// [`read`] of a HIPE TSV file by the lean pass over the pieces [`crate::io::read_lines`] hands
/// over (`detect`: the format is told by the first piece, which must be HIPE TSV): its hash
/// and training set, or `None` when the pass gives up or the file is not HIPE TSV (the
/// caller reads it whole, which reports any error as before).
fn hipe_pieces(path: &Path, detect: bool, col: &str) -> Result<Option<(String, Train)>> {
    let mut hash = ContentHash::default();
    let mut lean: Option<Lean> = None;
    let mut gave_up = false;
    crate::io::read_lines(path, |piece| {
        hash.add(piece.text.as_bytes());
        if gave_up {
            return Ok(());
        }
        let mut text = piece.text;
        if lean.is_none() {
            let hipe =
                !detect || crate::formats::detect(path, text).is_ok_and(|f| f == Format::Hipe);
            match hipe
                .then(|| Lean::new(path, text, col))
                .transpose()?
                .flatten()
            {
                Some((l, rest)) => {
                    lean = Some(l);
                    text = rest;
                }
                None => {
                    gave_up = true;
                    return Ok(());
                }
            }
        }
        if let Some(l) = lean.as_mut() {
            gave_up = l.lines(text).is_none();
        }
        Ok(())
    })?;
    Ok(match lean {
        Some(l) if !gave_up => Some((hash.finish(), l.finish())),
        _ => None,
    })
}

/// The vocabulary and entities of standoff documents (brat, doccano, Label Studio, Prodigy):
/// each document's positions (the pieces between whitespace of its text, further cut at every
/// boundary of its spans, as docs/standoff.md reads a gold) are its tokens; each span the text
/// of its positions joined by one space, with its label as written.
pub fn standoff(path: &Path) -> Result<Train> {
    use crate::eval::standoff::{on_positions, positions};
    let mut t = Train::default();
    let mut ignored = Vec::new();
    for d in crate::formats::read_standoff(path, None)? {
        let pos = positions(&d.text, &d.spans, &[], &[]);
        // Byte offset of every character.
        let bytes: Vec<usize> = d
            .text
            .char_indices()
            .map(|(b, _)| b)
            .chain([d.text.len()])
            .collect();
        let word = |k: usize| -> &str {
            let (s, e) = pos[k];
            match (bytes.get(s as usize), bytes.get(e as usize)) {
                (Some(&a), Some(&b)) => d.text.get(a..b).unwrap_or_default(),
                _ => "",
            }
        };
        for k in 0..pos.len() {
            let w = word(k);
            if !t.vocabulary.contains(w) {
                t.vocabulary.insert(w.to_string());
            }
        }
        for (label, covered, _) in on_positions(&d, &pos, &mut ignored) {
            let text = super::join(covered.iter().map(word));
            t.add_entity(&text, label);
        }
    }
    Ok(t)
}

/// The tabs in `bytes`, eight bytes at a time (lines are short: no set-up).
fn tabs(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut n = 0;
    for c in chunks.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        // A byte of `x` is 0 where a tab was; its high bit set in `zero` exactly there.
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\t'));
        let zero = !(((x & !HIGH) + !HIGH) | x) & HIGH;
        n += zero.count_ones() as usize;
    }
    n + chunks.remainder().iter().filter(|&&b| b == b'\t').count()
}

/// A tag cell as the HIPE reader stores it: upper-cased (when `upper`), an IOBES prefix turned
/// into IOB (in an `NE-` column, `ne`).
fn read_tag(raw: &str, upper: bool, ne: bool) -> Cow<'_, str> {
    let changes = upper
        && (raw.bytes().any(|b| b.is_ascii_lowercase() || b >= 0x80)
            || (ne && (raw.starts_with("S-") || raw.starts_with("E-"))));
    if !changes {
        return Cow::Borrowed(raw);
    }
    let b = raw.as_bytes();
    let iobes = ne && b.len() >= 2 && b[1] == b'-' && matches!(b[0], b'S' | b'E' | b's' | b'e');
    let mut value = raw.to_uppercase();
    if iobes {
        // The prefix is ASCII (checked above): swap its first byte.
        let first = if value.starts_with('S') { "B" } else { "I" };
        value.replace_range(..1, first);
    }
    Cow::Owned(value)
}

/// One token row: its words into the vocabulary, its tag into the entities (as
/// [`crate::spans::entities`] reads tags).
fn token_row(t: &mut Train, open: &mut Option<Open>, token: &str, tag: &str) {
    if one_word(token) {
        if !t.vocabulary.contains(token) {
            t.vocabulary.insert(token.to_string());
        }
    } else {
        for w in token.split_whitespace() {
            if !t.vocabulary.contains(w) {
                t.vocabulary.insert(w.to_string());
            }
        }
    }
    if tag == "O" || tag == "_" {
        if let Some(o) = open.take() {
            t.add_entity(&o.text, &o.label);
        }
        return;
    }
    let ty = skip_chars(tag, 2);
    let opens = tag.starts_with('B') || tag.starts_with('S');
    match open {
        Some(o) if o.label == ty && !opens => push_words(&mut o.text, token),
        _ => {
            if let Some(o) = open.take() {
                t.add_entity(&o.text, &o.label);
            }
            let mut text = String::new();
            push_words(&mut text, token);
            *open = Some(Open {
                label: ty.to_string(),
                text,
            });
        }
    }
}

/// Appends a token's words to an entity's text, one space between words.
fn push_words(text: &mut String, token: &str) {
    if one_word(token) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(token);
        return;
    }
    for w in token.split_whitespace() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(w);
    }
}

/// Ends a document: its open entity is counted unless its label is empty (as at the end of
/// [`crate::spans::entities`]' sequence).
fn close(t: &mut Train, open: &mut Option<Open>) {
    if let Some(o) = open.take() {
        if !o.label.is_empty() {
            t.add_entity(&o.text, &o.label);
        }
    }
}

#[cfg(test)]
mod tests;
