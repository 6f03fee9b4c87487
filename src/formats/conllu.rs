//! CoNLL-U reading (<https://universaldependencies.org/format.html>) into a plain data model.
//!
//! A file is a sequence of sentences separated by blank lines. A sentence is a block of comment
//! lines (`#`) followed by word lines of ten tab-separated columns (ID, FORM, LEMMA, UPOS, XPOS,
//! FEATS, HEAD, DEPREL, DEPS, MISC). Three kinds of ID:
//!
//! * `k`: a (syntactic) word; IDs of a sentence run 1, 2, 3, … without gaps;
//! * `k-m` (k < m): a multiword token, the surface form of words k…m, which must follow it;
//! * `k.m`: an empty node (enhanced dependencies only), checked for form and skipped.
//!
//! Cells are `&str` slices of the file text (nothing is copied). Every word, multiword token
//! and sentence keeps its 1-based line number. Errors name the file and line and say what was
//! expected: a wrong column count, an empty cell (CoNLL-U writes `_` for none), a bad or
//! out-of-order ID, a multiword token without its words, a comment inside a sentence, a
//! sentence of comments only.
//!
//! Leniencies: a missing blank line at the end of the file and several blank lines in a row are
//! accepted; `\r\n` line ends are read as `\n`.

use std::ops::Range;
use std::path::Path;

use crate::error::snippet;
use crate::{Error, Result};

/// 0-based index of the ID column in [`Word::cells`] (likewise the constants below).
pub const ID: usize = 0;
/// 0-based index of the FORM column: the word form.
pub const FORM: usize = 1;
/// 0-based index of the XPOS column: the language-specific part-of-speech tag.
pub const XPOS: usize = 4;

/// The column names, in file order.
pub const COLUMNS: [&str; 10] = [
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
];

/// The 0-based index of a column given by name (any case) or by 1-based number (`"5"`).
pub fn column_index(spec: &str) -> Option<usize> {
    if let Ok(n) = spec.parse::<usize>() {
        return (1..=10).contains(&n).then(|| n - 1);
    }
    COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(spec))
}

/// A word line (integer ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The ID (1-based within the sentence).
    pub id: u32,
    /// The ten cells, indexed by [`ID`], [`FORM`], ….
    pub cells: [&'a str; 10],
}

impl<'a> Word<'a> {
    /// The FORM cell.
    pub fn form(&self) -> &'a str {
        self.cells[FORM]
    }
    /// The cell of a 0-based column ([`ID`] … [`MISC`]); panics when `column` ≥ 10.
    pub fn cell(&self, column: usize) -> &'a str {
        self.cells[column]
    }
}

/// A multiword token line (`first-last`): the surface form of words `first..=last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultiwordToken<'a> {
    /// 1-based line number.
    pub line: usize,
    /// ID of its first word.
    pub first: u32,
    /// ID of its last word (inclusive; greater than `first`).
    pub last: u32,
    /// The ten cells, indexed by [`ID`], [`FORM`], ….
    pub cells: [&'a str; 10],
}

impl<'a> MultiwordToken<'a> {
    /// The FORM cell: the surface form of its words.
    pub fn form(&self) -> &'a str {
        self.cells[FORM]
    }
}

/// A comment line of a sentence, without the leading `#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'a> {
    /// 1-based line number.
    pub line: usize,
    /// Everything after the `#` (a leading space is kept, a final `\r` is not).
    pub text: &'a str,
}

/// One sentence: ranges into the file's flat lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// 1-based line number of the sentence's first line (a comment, word, multiword token or
    /// empty node line).
    pub line: usize,
    /// Its comments: a range into [`Conllu::comments`].
    pub comments: Range<usize>,
    /// Its words: a range into [`Conllu::words`] (never empty).
    pub words: Range<usize>,
    /// Its multiword tokens: a range into [`Conllu::multiword`].
    pub multiword: Range<usize>,
}

/// A surface token: a multiword token, or a word outside any multiword token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// 1-based line number of the word or multiword token line.
    pub line: usize,
    /// Its FORM cell.
    pub form: &'a str,
}

/// A whole CoNLL-U file. Words, multiword tokens and comments of all sentences are kept in flat
/// lists (few allocations); each [`Sentence`] holds ranges into them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conllu<'a> {
    /// The sentences, in file order.
    pub sentences: Vec<Sentence>,
    /// The words of all sentences, in file order (empty nodes are not kept).
    pub words: Vec<Word<'a>>,
    /// The multiword tokens of all sentences, in file order.
    pub multiword: Vec<MultiwordToken<'a>>,
    /// The comment lines of all sentences, in file order.
    pub comments: Vec<Comment<'a>>,
}

impl<'a> Conllu<'a> {
    /// The words (integer IDs) of a sentence.
    pub fn words_of(&self, s: &Sentence) -> &[Word<'a>] {
        &self.words[s.words.clone()]
    }

    /// The multiword tokens of a sentence.
    pub fn multiword_of(&self, s: &Sentence) -> &[MultiwordToken<'a>] {
        &self.multiword[s.multiword.clone()]
    }

    /// The comment lines of a sentence.
    #[cfg(test)]
    pub fn comments_of(&self, s: &Sentence) -> &[Comment<'a>] {
        &self.comments[s.comments.clone()]
    }

    /// The surface tokens of a sentence in order: each multiword token once (its words are left
    /// out), every other word as itself.
    pub fn tokens_of<'s>(&'s self, s: &Sentence) -> impl Iterator<Item = Token<'a>> + 's {
        Tokens {
            words: self.words_of(s),
            multiword: self.multiword_of(s),
            wi: 0,
            mi: 0,
        }
    }

    /// Reads CoNLL-U text; `path` is only used in error messages. Errs on the first problem
    /// listed in the module docs, naming its line.
    pub fn parse(path: &Path, text: &'a str) -> Result<Conllu<'a>> {
        let bytes = text.as_bytes();
        // One pass finds every tab and line end; cells are slices between them.
        let n_lines = memchr::memchr_iter(b'\n', bytes).count() + 1;
        let mut doc = Conllu {
            words: Vec::with_capacity(n_lines),
            ..Conllu::default()
        };
        let mut cur: Option<Open> = None;
        let mut line_no = 0usize;
        let (mut line_start, mut cell_start) = (0usize, 0usize);
        let mut cells = [""; 10];
        let mut n = 0usize;
        let mut seps = memchr::memchr2_iter(b'\t', b'\n', bytes);
        loop {
            let pos = seps.next();
            let end = match pos {
                Some(p) if bytes[p] == b'\t' => {
                    if n < 10 {
                        cells[n] = slice(text, cell_start, p);
                    }
                    n += 1;
                    cell_start = p + 1;
                    continue;
                }
                Some(p) => p,
                // The piece after the final '\n' is not a line.
                None if line_start >= bytes.len() => break,
                None => bytes.len(),
            };
            line_no += 1;
            let raw = slice(text, line_start, end);
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let last = slice(text, cell_start, end);
            if n < 10 {
                cells[n] = last.strip_suffix('\r').unwrap_or(last);
            }
            let n_cells = n + 1;
            n = 0;
            line_start = end + 1;
            cell_start = end + 1;

            if line.is_empty() {
                if let Some(open) = cur.take() {
                    open.close(path, line_no, &mut doc)?;
                }
            } else if let Some(rest) = line.strip_prefix('#') {
                let open = cur.get_or_insert_with(|| Open::new(line_no, &doc));
                if doc.words.len() > open.words_start || open.has_empty_nodes {
                    return Err(Error::input(
                        path,
                        line_no,
                        "a comment inside a sentence: comments go before the word lines (or a blank line is missing)",
                    ));
                }
                doc.comments.push(Comment {
                    line: line_no,
                    text: rest,
                });
            } else {
                check_cells(path, line_no, line, &cells, n_cells)?;
                let open = cur.get_or_insert_with(|| Open::new(line_no, &doc));
                open.word_line(path, line_no, cells, &mut doc)?;
            }
            if pos.is_none() {
                break;
            }
        }
        if let Some(open) = cur.take() {
            open.close(path, line_no + 1, &mut doc)?;
        }
        Ok(doc)
    }
}

/// `text[a..b]`; `a` and `b` are always positions of ASCII bytes (or the ends), so the slice
/// never fails, but an empty cell is returned rather than a panic if it did.
fn slice(text: &str, a: usize, b: usize) -> &str {
    text.get(a..b).unwrap_or_default()
}

struct Tokens<'s, 'a> {
    words: &'s [Word<'a>],
    multiword: &'s [MultiwordToken<'a>],
    wi: usize,
    mi: usize,
}

impl<'a> Iterator for Tokens<'_, 'a> {
    type Item = Token<'a>;
    fn next(&mut self) -> Option<Token<'a>> {
        let w = self.words.get(self.wi)?;
        if let Some(m) = self.multiword.get(self.mi) {
            if m.first == w.id {
                self.mi += 1;
                // Skip the words of the multiword token.
                while self.words.get(self.wi).is_some_and(|w| w.id <= m.last) {
                    self.wi += 1;
                }
                return Some(Token {
                    line: m.line,
                    form: m.form(),
                });
            }
        }
        self.wi += 1;
        Some(Token {
            line: w.line,
            form: w.form(),
        })
    }
}

/// The sentence being read.
struct Open {
    line: usize,
    comments_start: usize,
    words_start: usize,
    multiword_start: usize,
    /// The ID the next word must have.
    next_id: u32,
    /// Last word ID of the open multiword token, with its line.
    mwt_until: Option<(u32, usize)>,
    has_empty_nodes: bool,
}

impl Open {
    fn new(line: usize, doc: &Conllu) -> Open {
        Open {
            line,
            comments_start: doc.comments.len(),
            words_start: doc.words.len(),
            multiword_start: doc.multiword.len(),
            next_id: 1,
            mwt_until: None,
            has_empty_nodes: false,
        }
    }

    fn word_line<'a>(
        &mut self,
        path: &Path,
        line: usize,
        cells: [&'a str; 10],
        doc: &mut Conllu<'a>,
    ) -> Result<()> {
        let id = cells[ID];
        if let Some((a, b)) = id.split_once('-') {
            let (first, last) = match (parse_id(a), parse_id(b)) {
                (Some(f), Some(l)) if f < l => (f, l),
                _ => {
                    return Err(Error::input(
                        path,
                        line,
                        format!(
                            "bad multiword token ID {}: expected FIRST-LAST with FIRST < LAST",
                            snippet(id)
                        ),
                    ))
                }
            };
            if let Some((until, mline)) = self.mwt_until {
                if self.next_id <= until {
                    return Err(Error::input(
                        path,
                        line,
                        format!(
                            "multiword token {} starts before the words of the multiword token of line {mline} ended (expected word {})",
                            snippet(id),
                            self.next_id
                        ),
                    ));
                }
            }
            if first != self.next_id {
                return Err(Error::input(
                    path,
                    line,
                    format!(
                        "multiword token {} out of order: expected it to start at word {}",
                        snippet(id),
                        self.next_id
                    ),
                ));
            }
            self.mwt_until = Some((last, line));
            doc.multiword.push(MultiwordToken {
                line,
                first,
                last,
                cells,
            });
            return Ok(());
        }
        if let Some((a, b)) = id.split_once('.') {
            let ok = parse_id_or_zero(a) == Some(self.next_id - 1) && parse_id(b).is_some();
            if !ok {
                return Err(Error::input(
                    path,
                    line,
                    format!(
                        "bad empty node ID {}: expected {}.N (N ≥ 1) after word {}",
                        snippet(id),
                        self.next_id - 1,
                        self.next_id - 1
                    ),
                ));
            }
            self.has_empty_nodes = true;
            return Ok(());
        }
        match parse_id(id) {
            Some(n) if n == self.next_id => {}
            _ => {
                return Err(Error::input(
                    path,
                    line,
                    format!("bad word ID {}: expected {}", snippet(id), self.next_id),
                ))
            }
        }
        doc.words.push(Word {
            line,
            id: self.next_id,
            cells,
        });
        self.next_id += 1;
        Ok(())
    }

    fn close(self, path: &Path, line: usize, doc: &mut Conllu) -> Result<()> {
        if doc.words.len() == self.words_start {
            return Err(Error::input(
                path,
                self.line,
                "a sentence without word lines (comments or empty nodes only)",
            ));
        }
        if let Some((until, mline)) = self.mwt_until {
            if self.next_id <= until {
                return Err(Error::input(
                    path,
                    line,
                    format!(
                        "the sentence ends before word {until} of the multiword token of line {mline}"
                    ),
                ));
            }
        }
        doc.sentences.push(Sentence {
            line: self.line,
            comments: self.comments_start..doc.comments.len(),
            words: self.words_start..doc.words.len(),
            multiword: self.multiword_start..doc.multiword.len(),
        });
        Ok(())
    }
}

/// A positive decimal integer without sign or leading zeros (at most 9 digits).
fn parse_id(s: &str) -> Option<u32> {
    match parse_id_or_zero(s) {
        Some(0) | None => None,
        n => n,
    }
}

fn parse_id_or_zero(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 9 || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    let mut n = 0u32;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(c - b'0');
    }
    Some(n)
}

/// Checks a word line's cells: ten, none empty.
fn check_cells(
    path: &Path,
    line_no: usize,
    line: &str,
    cells: &[&str; 10],
    n: usize,
) -> Result<()> {
    if line.trim().is_empty() {
        return Err(Error::input(
            path,
            line_no,
            "a line of only whitespace: expected a blank line or ten tab-separated columns",
        ));
    }
    if n != 10 {
        return Err(Error::input(
            path,
            line_no,
            format!("expected 10 tab-separated columns (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC), found {n}"),
        ));
    }
    if let Some(i) = cells.iter().position(|c| c.is_empty()) {
        return Err(Error::input(
            path,
            line_no,
            format!("empty {} cell (CoNLL-U writes _ for none)", COLUMNS[i]),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Conllu<'_>> {
        Conllu::parse(Path::new("t.conllu"), text)
    }

    fn line(w: &str) -> String {
        let mut c = ["_"; 10];
        let parts: Vec<&str> = w.split(' ').collect();
        c[0] = parts[0];
        c[1] = parts[1];
        c.join("\t")
    }

    #[test]
    fn sentences_words_tokens_and_lines() {
        let text = format!(
            "# sent_id = 1\n{}\n{}\n{}\n{}\n{}\n\n{}\n",
            line("1 A"),
            line("2-3 BC"),
            line("2 B"),
            line("3 C"),
            line("3.1 X"),
            line("1 D")
        );
        let d = parse(&text).unwrap();
        assert_eq!(d.sentences.len(), 2);
        let s = &d.sentences[0];
        assert_eq!(s.line, 1);
        let forms: Vec<&str> = d.words_of(s).iter().map(|w| w.form()).collect();
        assert_eq!(forms, ["A", "B", "C"]);
        let toks: Vec<(usize, &str)> = d.tokens_of(s).map(|t| (t.line, t.form)).collect();
        assert_eq!(toks, [(2, "A"), (3, "BC")]);
        assert_eq!(d.comments_of(s)[0].text, " sent_id = 1");
        assert_eq!(d.sentences[1].line, 8);
        assert_eq!(d.words_of(&d.sentences[1])[0].line, 8);
    }

    #[test]
    fn no_final_blank_line_and_crlf() {
        let text = format!("{}\r\n{}", line("1 A"), line("2 B"));
        let d = parse(&text).unwrap();
        assert_eq!(d.words.len(), 2);
        assert_eq!(d.words[0].cells[9], "_");
        assert!(parse("").unwrap().sentences.is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            (
                format!("{}\n{}\n", line("1 A"), "2\tB"),
                2,
                "10 tab-separated",
            ),
            (
                format!("{}\n{}\n", line("1 A"), line("3 B")),
                2,
                "expected 2",
            ),
            (
                format!("{}\n{}\n", line("1 A"), line("x B")),
                2,
                "bad word ID",
            ),
            (
                format!("{}\n{}\n\n", line("1-2 AB"), line("1 A")),
                3,
                "ends before",
            ),
            (format!("{}\n# c\n", line("1 A")), 2, "comment inside"),
            ("# only\n\n".to_string(), 1, "without word lines"),
            (
                format!("{}\n{}\n", line("1 A"), line("2.1 A")),
                2,
                "empty node",
            ),
            (format!("{}\n", line("2-1 AB")), 1, "FIRST < LAST"),
            ("1\t\t_\t_\t_\t_\t_\t_\t_\t_\n".to_string(), 1, "empty FORM"),
            (format!("{}\n \n", line("1 A")), 2, "whitespace"),
        ];
        for (text, want_line, frag) in cases {
            match parse(&text) {
                Err(Error::Input { line, message, .. }) => {
                    assert_eq!(line, want_line, "{text:?}: {message}");
                    assert!(message.contains(frag), "{text:?}: {message}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn columns_by_name_or_number() {
        assert_eq!(column_index("xpos"), Some(XPOS));
        assert_eq!(column_index("4"), Some(3));
        assert_eq!(column_index("11"), None);
        assert_eq!(column_index("0"), None);
        assert_eq!(column_index("FOO"), None);
    }
}
