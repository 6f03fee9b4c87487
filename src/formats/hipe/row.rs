//! The HIPE reader's handling of one line after the header: comments (documents, segments,
//! dates) and token rows, whose stored cells are copied into the arena (upper-cased, IOBES
//! turned into IOB, glued) as the official reader would see them.

use super::values::{ends_sentence, find_date, parse_led};
use super::Parser;
use crate::corpus::{Date, Document, Notice, MISSING, NOT_KEPT};
use crate::error::Result;

impl Parser<'_> {
    /// A token row: its width checked (empty extra cells dropped, a short row noted), then
    /// stored.
    pub(super) fn row(&mut self, fields: &mut Vec<&str>, lineno: usize) -> Result<()> {
        let ncol = self.columns.len();
        let first = fields.first().copied().unwrap_or_default();
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
        self.token(fields, lineno)
    }

    pub(super) fn comment(&mut self, first: &str, lineno: usize) {
        if first.starts_with("# hipe2022:") {
            self.dialect = Some("hipe-2022");
        } else if self.dialect.is_none()
            && ["# document_id", "# language", "# newspaper", "# date"]
                .iter()
                .any(|p| first.starts_with(p))
        {
            self.dialect = Some("hipe-2020");
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
            let from = self.lines.len() as u32;
            match self.dates.last_mut() {
                Some(last) if last.0 == from => last.1 = date,
                _ => self.dates.push((from, date)),
            }
        }
    }

    pub(super) fn close_doc(&mut self) {
        if self.seg_len > 0 {
            self.doc.segments.push(self.seg_len);
            self.seg_len = 0;
        }
        if !self.doc.segments.is_empty() {
            let next_start = self.lines.len();
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

    fn token(&mut self, fields: &[&str], lineno: usize) -> Result<()> {
        if self.doc.segments.is_empty() && self.seg_len == 0 {
            self.doc.first_line = lineno;
            self.doc.start = self.lines.len();
            if let Some(id) = self.pending_id.take() {
                self.doc.id = Some(id);
            }
        }
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
            // A cell the row lacks reads as `_`.
            let field = fields.get(col).copied().unwrap_or(MISSING);
            let glue = glued
                .iter()
                .find(|(c, _)| *c == col)
                .map(|(_, g)| g.as_str());
            let raw: &str = glue.unwrap_or(field);
            if !self.changes(col, raw) {
                self.cells.push(raw);
                continue;
            }
            if self.ne[col] {
                self.note_tag(raw, col, lineno);
            }
            let iobes = self.ne[col] && {
                let b = raw.as_bytes();
                b.len() >= 2 && b[1] == b'-' && matches!(b[0], b'S' | b'E' | b's' | b'e')
            };
            if raw.is_ascii() {
                // Upper-case straight into the arena, IOBES prefix mapped on the way.
                let text = self.cells.text_mut();
                for (i, &b) in raw.as_bytes().iter().enumerate() {
                    let u = match (i, b.to_ascii_uppercase()) {
                        (0, b'S') if iobes => b'B',
                        (0, b'E') if iobes => b'I',
                        (_, u) => u,
                    };
                    text.push(u as char);
                }
            } else {
                let mut value = raw.to_uppercase();
                if iobes {
                    // The prefix is ASCII (checked above): swap its first byte.
                    let first = if value.starts_with('S') { "B" } else { "I" };
                    value.replace_range(..1, first);
                }
                self.cells.text_mut().push_str(&value);
            }
            self.cells.end_cell();
        }
        let misc = self.misc.and_then(|m| fields.get(m)).copied();
        let led = misc.and_then(parse_led);
        if led.is_some() || !self.leds.is_empty() {
            self.leds.resize(self.lines.len(), None);
            self.leds.push(led);
        }
        if misc.is_some_and(ends_sentence) {
            self.sentence_ends.push(self.lines.len() as u32);
        }
        self.lines.push(lineno as u32);
        self.seg_len += 1;
        Ok(())
    }

    /// Whether reading changes a raw cell of column `col` (upper-casing, IOBES prefix).
    #[inline]
    pub(super) fn changes(&self, col: usize, raw: &str) -> bool {
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
