//! What the HIPE reader repairs or tolerates, as typed [`Notice`]s: a byte-order mark, CRLF
//! line ends, a carriage return inside a line, rows narrower or wider (by empty cells) than
//! the header, rows with no token, token rows starting with `#`, IOBES and lower-case tags.
//!
//! Frequent kinds are folded into one notice per file (or per column): the first occurrence
//! gives the line and message, later ones only raise the count. Nothing here changes what is
//! read; `check` maps every kind to a finding, `score` repeats a few as warnings.

use super::Parser;
use crate::corpus::{Notice, NoticeKind};
use crate::error::snippet;

/// The `folds` key of a notice about no particular column.
const NO_COLUMN: usize = usize::MAX;

impl Parser<'_> {
    /// Adds an occurrence of a folded kind: a new notice the first time for `(kind, col)`,
    /// else one more on its count.
    fn fold(
        &mut self,
        kind: NoticeKind,
        col: usize,
        line: usize,
        message: impl FnOnce(&Self) -> String,
    ) {
        if let Some(&(_, _, i)) = self.folds.iter().find(|f| f.0 == kind && f.1 == col) {
            if let Some(n) = self.notices.get_mut(i) {
                n.count += 1;
            }
            return;
        }
        let mut n = Notice::new(kind, line, message(self));
        n.column = self.columns.get(col).cloned();
        self.folds.push((kind, col, self.notices.len()));
        self.notices.push(n);
    }

    /// The byte-order mark the file starts with.
    pub(super) fn note_bom(&mut self) {
        self.notices.push(Notice::new(
            NoticeKind::Bom,
            1,
            "the file starts with a byte-order mark; fairscore ignores it",
        ));
    }

    /// A line without its line end (LF, or CRLF read as LF), noting CRLF ends and carriage
    /// returns left inside the line.
    pub(super) fn line_end<'t>(&mut self, raw: &'t str, line: usize) -> &'t str {
        if !self.any_cr {
            return raw;
        }
        let stripped = raw.strip_suffix('\r');
        if stripped.is_some() {
            self.fold(NoticeKind::Crlf, NO_COLUMN, line, |_| {
                "lines end with CRLF; fairscore reads them as LF".into()
            });
        }
        let text = stripped.unwrap_or(raw);
        if memchr::memchr(b'\r', text.as_bytes()).is_some() {
            self.fold(NoticeKind::CarriageReturn, NO_COLUMN, line, |_| {
                "a carriage return inside the line is kept as part of a cell".into()
            });
        }
        text
    }

    /// A row skipped because its first cell is empty: noted when other cells are not.
    pub(super) fn note_blank_row(&mut self, fields: &[&str], line: usize) {
        if fields.iter().skip(1).any(|c| !c.trim().is_empty()) {
            self.fold(NoticeKind::EmptyTokenRow, NO_COLUMN, line, |_| {
                "a row with an empty TOKEN cell is skipped (read as a blank line)".into()
            });
        }
    }

    /// A comment row (first cell starting with `#`): noted when it has further cells, as a
    /// token starting with `#` would.
    pub(super) fn note_comment_row(&mut self, fields: &[&str], line: usize) {
        if fields.iter().skip(1).any(|c| !c.trim().is_empty()) {
            let first = fields.first().copied().unwrap_or_default();
            self.notices.push(Notice::new(
                NoticeKind::CommentRow,
                line,
                format!(
                    "the row {} starts with `#` and is read as a comment: its token is dropped",
                    snippet(first)
                ),
            ));
        }
    }

    /// A token row of `cells` cells where the header has `ncol` (missing cells are read as
    /// `_`, empty extra cells are dropped).
    pub(super) fn note_row_width(&mut self, cells: usize, ncol: usize, line: usize) {
        if cells < ncol {
            self.fold(NoticeKind::MissingCells, NO_COLUMN, line, |_| {
                format!("{cells} cells but the header has {ncol} columns; missing cells are read as `_`")
            });
        } else {
            self.fold(NoticeKind::ExtraEmptyCells, NO_COLUMN, line, |_| {
                format!("{cells} cells but the header has {ncol} columns; the empty cells after the last column are ignored")
            });
        }
    }

    /// A raw cell of an `NE-` column that reading changes: lower-case letters, IOBES prefix.
    pub(super) fn note_tag(&mut self, raw: &str, col: usize, line: usize) {
        let lower = if raw.is_ascii() {
            raw.bytes().any(|b| b.is_ascii_lowercase())
        } else {
            raw.chars().any(char::is_lowercase)
        };
        if lower {
            self.fold(NoticeKind::LowerCase, col, line, |_| {
                format!(
                    "{} is upper-cased to {} when read",
                    snippet(raw),
                    snippet(&raw.to_uppercase())
                )
            });
        }
        let b = raw.as_bytes();
        if b.len() >= 2 && b[1] == b'-' && matches!(b[0], b'S' | b'E' | b's' | b'e') {
            self.fold(NoticeKind::Iobes, col, line, |p| {
                format!(
                    "IOBES tag {:?} in column {}: read as IOB (S- as B-, E- as I-)",
                    raw.to_uppercase(),
                    p.columns.get(col).map(String::as_str).unwrap_or_default()
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::corpus::{Notice, NoticeKind, ReadOptions};
    use std::path::Path;

    fn notices(text: &str) -> Vec<Notice> {
        crate::formats::hipe::parse(Path::new("t.tsv"), text.as_bytes(), &ReadOptions::default())
            .map(|c| c.notices)
            .unwrap_or_default()
    }

    fn kinds(n: &[Notice]) -> Vec<(NoticeKind, usize, Option<&str>, usize)> {
        n.iter()
            .map(|n| (n.kind, n.line, n.column.as_deref(), n.count))
            .collect()
    }

    #[test]
    fn repairs_are_noted_once_per_file_or_column_with_their_count() {
        use NoticeKind::*;
        let n = notices(
            "\u{feff}TOKEN\tNE-COARSE-LIT\tNE-FINE-LIT\r\n\
             a\tS-loc\tB-LOC\r\n\
             b\tE-LOC\tE-LOC\t\r\n\
             c\tO\r\n\
             # date = 19xx\r\n\
             \tO\tO\r\n\
             #x\tO\tO\r\n\
             d\tO\tO\r\r\n",
        );
        assert_eq!(
            kinds(&n),
            vec![
                (Bom, 1, None, 1),
                (Crlf, 1, None, 8),
                (LowerCase, 2, Some("NE-COARSE-LIT"), 1),
                (Iobes, 2, Some("NE-COARSE-LIT"), 2),
                (ExtraEmptyCells, 3, None, 1),
                (Iobes, 3, Some("NE-FINE-LIT"), 1),
                (MissingCells, 4, None, 1),
                (InvalidDate, 5, None, 1),
                (EmptyTokenRow, 6, None, 1),
                (CommentRow, 7, None, 1),
                (CarriageReturn, 8, None, 1),
            ]
        );
        // `score` repeats the first IOBES notice only, as before notices had kinds.
        let warned: Vec<NoticeKind> = Notice::scoring_warnings(&n).map(|n| n.kind).collect();
        assert_eq!(warned, vec![Iobes, MissingCells, InvalidDate]);
        assert_eq!(
            n[3].message,
            "IOBES tag \"S-LOC\" in column NE-COARSE-LIT: read as IOB (S- as B-, E- as I-)"
        );
    }

    #[test]
    fn a_clean_file_has_no_notices() {
        assert!(notices("TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n# segment\nx\tO\n").is_empty());
    }
}
