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

/// The entity being read: its label and its text so far.
struct Open {
    label: String,
    text: String,
}

/// The vocabulary and entities of the HIPE TSV `text` (a file's whole text) in the column
/// named `col` (`path` names the file in errors); `Ok(None)` when the lean pass gives up (see
/// the module's notes), an error naming line 1 when the column is missing.
pub fn hipe(path: &Path, text: &str, col: &str) -> Result<Option<Train>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (header, mut rest) = match text.find('\n') {
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
    let upper = !matches!(
        col.to_uppercase().as_str(),
        "TOKEN" | "LEVENSHTEIN" | "DATE"
    );
    let ne = col.starts_with("NE-");
    let last = token_col.max(tag_col);
    let mut t = Train::default();
    let mut open: Option<Open> = None;
    let mut seg_len = 0usize;
    let mut cells: Vec<&str> = Vec::with_capacity(last + 1);
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
        while cells.len() <= last {
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
                seg_len = 0;
            } else if (first.starts_with("# document")
                || first.starts_with("# hipe2022:document_id"))
                && seg_len > 0
            {
                close(&mut t, &mut open);
                seg_len = 0;
            }
        } else {
            // A row wider than the header: the full reader notes or refuses it.
            let fields = if ended {
                cells.len()
            } else {
                let after = bytes.get(from..).unwrap_or_default();
                cells.len() + 1 + tabs(after)
            };
            if fields > ncol {
                return Ok(None);
            }
            let token = cells.get(token_col).copied().unwrap_or(MISSING);
            let raw_tag = cells.get(tag_col).copied().unwrap_or(MISSING);
            let tag = read_tag(raw_tag, upper, ne);
            token_row(&mut t, &mut open, token, &tag);
            seg_len += 1;
        }
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    close(&mut t, &mut open);
    Ok(Some(t))
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
/// `conll_col`, else `TAG`). A HIPE TSV file is read by the lean pass ([`hipe`]) where it can.
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
    // Read once: hashed for the signature, then parsed.
    let bytes = crate::io::read_input(path)?;
    let hash = content_hash(&bytes);
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
            match (bytes.get(s), bytes.get(e)) {
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
            let text = super::join(covered.iter().map(|&k| word(k)));
            t.add_entity(&text, label);
        }
    }
    Ok(t)
}

/// The training file's content hash for the signature (`train:file-…`, docs/signatures.md): a
/// multiply-rotate hash over the bytes as little-endian 8-byte words (the last one padded
/// with zeros), then their length, mixed and folded to 32 bits, as 8 hexadecimal digits. Not
/// FNV-1a as the other hashes: a word at a time instead of a byte, about ten times faster on a
/// training file the size of the gold.
pub fn content_hash(bytes: &[u8]) -> String {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for c in chunks.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = step(h, u64::from_le_bytes(w));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = step(h, u64::from_le_bytes(w));
    }
    h = step(h, bytes.len() as u64);
    // Every input bit reaches every output bit (MurmurHash3's finaliser).
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

/// [`content_hash`] of the training file at `path` (a standoff file or directory by the hash the
/// gold's would have: FNV-1a, a brat `.ann` with its `.txt`).
pub fn file_hash(path: &Path) -> Result<String> {
    if crate::eval::standoff::is_standoff(path) {
        return crate::family::sign::file_hash(path);
    }
    Ok(content_hash(&crate::io::read_input(path)?))
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
    if tag == "O" {
        if let Some(o) = open.take() {
            t.add_entity(&o.text, &o.label);
        }
        return;
    }
    let ty = skip_chars(tag, 2);
    match open {
        Some(o) if o.label == ty && !tag.starts_with('B') => push_words(&mut o.text, token),
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
mod tests {
    use super::*;

    /// The full reading: the HIPE reader, then the vocabulary and entities of its corpus.
    fn full(text: &str, col: &str) -> Train {
        let path = Path::new("train.tsv");
        let opts = ReadOptions {
            columns: Some(vec![col.to_string()]),
            ..ReadOptions::default()
        };
        let c = crate::formats::hipe::parse(path, text.as_bytes(), &opts).expect("parses");
        let k = c.column(col).expect("column");
        super::super::tokens::train(&c, k)
    }

    fn lean(text: &str, col: &str) -> Option<Train> {
        hipe(Path::new("train.tsv"), text, col).expect("reads")
    }

    #[test]
    fn lean_equals_full_on_edge_cases() {
        let text = "\u{feff}TOKEN\tNE-COARSE-LIT\tMISC\r\n\
            # hipe2022:document_id = a\r\n\
            # segment 1\n\
            New\tb-loc\t_\n\
            York\tI-LOC\n\
            \t\t\n\
            # segment 2\n\
            City\tI-LOC\t_\n\
            x y\tS-per\t_\n\
            Zürich\tB-lôc\tLED0.2\n\
            is\tE-LÔC\t_\n\
            a\t_\t_\n\
            b\t_\t_\n\
            c\tO\t_\n\
            # document_id = b\n\
            Paris\tI-LOC\t_\n\
            # hipe2022:document_id = c\n\
            Rome\tI-LOC\t_\n\
            end\t_\t_\n\
            # segment 3\n\
            # document = d\n\
            more\tI-LOC\n\
            Rome\tB-ORG\t_\n";
        let l = lean(text, "NE-COARSE-LIT").expect("lean pass");
        assert_eq!(l, full(text, "NE-COARSE-LIT"));
        // Entities that end at a document change are counted apart.
        assert_eq!(l.entities.get("Paris"), Some(&vec![("LOC".to_string(), 1)]));
        assert!(l.entities.contains_key("New York City"));
        assert!(l.entities.contains_key("Zürich is"), "{:?}", l.entities);
        assert!(l.vocabulary.contains("x") && l.vocabulary.contains("y"));
        // The token column needs no name in first place; a missing column is an error.
        let moved = "NE-COARSE-LIT\tTOKEN\nB-LOC\tBern\nI-LOC\tOst\n";
        assert_eq!(
            lean(moved, "NE-COARSE-LIT"),
            Some(full(moved, "NE-COARSE-LIT"))
        );
        assert!(hipe(Path::new("t"), moved, "NE-FINE-LIT").is_err());
        // A row wider than the header, and a comment header: the lean pass gives up.
        assert_eq!(
            lean("TOKEN\tNE-COARSE-LIT\nA\tO\tx\n", "NE-COARSE-LIT"),
            None
        );
        assert_eq!(lean("# x\tNE-COARSE-LIT\n", "NE-COARSE-LIT"), None);
        assert_eq!(
            lean("TOKEN\tNE-COARSE-LIT\nA\tO\t\n", "NE-COARSE-LIT"),
            None
        );
        let three = "TOKEN\tNE-COARSE-LIT\tMISC\nA\tB-LOC\t\nB\tI-LOC\n";
        assert_eq!(
            lean(three, "NE-COARSE-LIT"),
            Some(full(three, "NE-COARSE-LIT"))
        );
    }

    #[test]
    fn tabs_are_counted_as_one_by_one() {
        let line = "a\tb\t\t\tc\u{9}é\t\u{89}\t\t\t\t\t\t\t\t\t\tx\ty";
        for from in 0..line.len() {
            let b = &line.as_bytes()[from..];
            assert_eq!(tabs(b), b.iter().filter(|&&x| x == b'\t').count(), "{from}");
        }
        assert_eq!(
            tabs(&[0x89, 0x09, 0x08, 0x0a, 0x19, 0x49, 0x09, 0x89, 0x09]),
            3
        );
    }

    #[test]
    fn content_hash_sees_every_byte_and_the_length() {
        let base = content_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n");
        assert_eq!(base.len(), 8);
        assert!(base.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(base, content_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n"));
        assert_ne!(base, content_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOD\n"));
        assert_ne!(
            base,
            content_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n\0")
        );
        assert_ne!(content_hash(b""), content_hash(b"\0"));
        // One flipped bit anywhere changes the hash.
        let text = b"abcdefghijklmnopqrstuvwxyz".to_vec();
        for i in 0..text.len() * 8 {
            let mut t = text.clone();
            t[i / 8] ^= 1 << (i % 8);
            assert_ne!(content_hash(&t), content_hash(&text), "bit {i}");
        }
    }

    #[test]
    fn lean_equals_full_on_shared_golds() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hipe2022/gold");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "../shared is absent but required under CI"
            );
            return;
        };
        let mut n = 0;
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "tsv") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("utf-8");
            for col in ["NE-COARSE-LIT", "NE-FINE-LIT", "NE-NESTED"] {
                let l = lean(&text, col).expect("lean pass");
                assert_eq!(l, full(&text, col), "{} {col}", p.display());
                n += 1;
            }
        }
        assert!(n >= 3, "{n} files read");
    }
}
