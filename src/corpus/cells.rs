//! The storage of a corpus's cells: every token stores the same number of cells (`stride`),
//! their text one after the other in one arena string, in file order. Per token, the offset
//! where its cells end (4 bytes) and, for each of its cells but the last, where it ends
//! within the token's text (1 byte each; an offset of 255 or more is looked up in a short
//! side table). A token of two stored cells (a token and one tag) thus costs 5 bytes plus
//! its text, and a cell is found without a loop.

/// The cells of a corpus, token by token (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct Cells {
    text: String,
    /// Where each token's cells start in `text` and, last, where the last token's end: one
    /// entry more than there are tokens (token `t` spans `bounds[t]..bounds[t + 1]`).
    bounds: Vec<u32>,
    /// Per token, where each of its cells but the last ends, counted from the token's first
    /// cell (`stride - 1` each); `LONG` for an offset of 255 or more.
    offs: Vec<u8>,
    /// (index in `offs`, offset) of every `LONG` entry, ascending.
    long: Vec<(u32, u32)>,
    stride: u32,
    /// `stride - 1` (0 for no cells): the offsets stored per token.
    last: usize,
    /// While a row is written: where it starts in `text` and how many cells it has.
    row_start: usize,
    row_cells: u32,
}

const LONG: u8 = u8::MAX;

impl Cells {
    /// Empty storage for tokens of `stride` cells each.
    pub(crate) fn new(stride: usize) -> Self {
        Cells {
            stride: stride as u32,
            last: stride.saturating_sub(1),
            bounds: vec![0],
            ..Cells::default()
        }
    }

    /// Cells per token.
    #[cfg(test)]
    pub(crate) fn stride(&self) -> usize {
        self.stride as usize
    }

    /// Reserves room for `tokens` more tokens.
    pub(crate) fn reserve_tokens(&mut self, tokens: usize) {
        self.bounds.reserve_exact(tokens);
        self.offs.reserve_exact(tokens.saturating_mul(self.last));
    }

    /// The arena, to append the current cell's text to (then [`Cells::end_cell`]).
    #[inline]
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.text
    }

    /// Bytes of cell text stored so far.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Appends a whole cell.
    #[inline(always)]
    pub(crate) fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.end_cell();
    }

    /// Ends the cell whose text was appended since the previous one ended; the row's
    /// `stride`-th cell ends the row.
    #[inline(always)]
    pub(crate) fn end_cell(&mut self) {
        self.row_cells += 1;
        if self.row_cells < self.stride {
            let off = self.text.len() - self.row_start;
            if off < LONG as usize {
                self.offs.push(off as u8);
            } else {
                self.long.push((self.offs.len() as u32, off as u32));
                self.offs.push(LONG);
            }
        } else {
            // Readers cap the arena well below 4 GiB; saturate rather than wrap.
            self.bounds
                .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
            self.row_cells = 0;
            self.row_start = self.text.len();
        }
    }

    /// Frees unused capacity once reading is done.
    pub(crate) fn shrink(&mut self) {
        self.text.shrink_to_fit();
        self.bounds.shrink_to_fit();
        self.offs.shrink_to_fit();
        self.long.shrink_to_fit();
    }

    /// Entry `i` of `offs`, looked up in `long` when it does not fit a byte (0 out of range).
    #[inline(always)]
    fn off(&self, i: usize) -> usize {
        match self.offs.get(i) {
            Some(&LONG) => self.long_off(i),
            Some(&o) => o as usize,
            None => 0,
        }
    }

    #[cold]
    fn long_off(&self, i: usize) -> usize {
        let k = self.long.partition_point(|&(j, _)| (j as usize) < i);
        self.long.get(k).map_or(0, |&(_, o)| o as usize)
    }

    /// The text of cell `slot` (below `stride`) of token `tok` ([`super::MISSING`] for a
    /// token or slot out of range). Called for every token of every scored column: no loop,
    /// no call on the common path.
    #[inline(always)]
    pub(crate) fn get(&self, tok: usize, slot: usize) -> &str {
        let (Some(&row_start), Some(&row_end)) = (self.bounds.get(tok), self.bounds.get(tok + 1))
        else {
            return super::MISSING;
        };
        let (row_start, row_end) = (row_start as usize, row_end as usize);
        let base = tok * self.last;
        let start = match slot {
            0 => row_start,
            _ => row_start + self.off(base + slot - 1),
        };
        let end = if slot >= self.last {
            row_end
        } else {
            row_start + self.off(base + slot)
        };
        self.text.get(start..end).unwrap_or(super::MISSING)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_back_as_written_short_long_and_empty() {
        let long = "x".repeat(300);
        let rows: Vec<Vec<&str>> = vec![
            vec!["Paris", "B-LOC", "_"],
            vec!["", &long, "O"],
            vec!["é", "O", &long],
            vec![&long, "", ""],
        ];
        let mut c = Cells::new(3);
        for r in &rows {
            for s in r {
                c.push(s);
            }
        }
        c.shrink();
        for (t, r) in rows.iter().enumerate() {
            for (k, s) in r.iter().enumerate() {
                assert_eq!(c.get(t, k), *s, "token {t} cell {k}");
            }
        }
        let mut one = Cells::new(1);
        one.push("a");
        one.push("bc");
        assert_eq!((one.get(0, 0), one.get(1, 0)), ("a", "bc"));
    }
}

/// The line numbers of a corpus's tokens, kept sparse: one entry where a token's line is
/// not the line after the previous token's (the first token, after comments and blank
/// lines), so a file of consecutive token lines costs a few entries, not 4 bytes a token.
#[derive(Debug, Clone, Default)]
pub(crate) struct TokenLines {
    /// (token, line) where the run of consecutive lines restarts, ascending.
    jumps: Vec<(u32, u32)>,
    n: u32,
    last: u32,
}

impl TokenLines {
    /// Appends the next token's 1-based line.
    #[inline]
    pub(crate) fn push(&mut self, line: u32) {
        if self.n == 0 || line != self.last.wrapping_add(1) {
            self.jumps.push((self.n, line));
        }
        self.last = line;
        self.n += 1;
    }

    /// The number of tokens.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.n as usize
    }

    /// The line of token `tok` (0 beyond the last token).
    #[inline]
    pub(crate) fn get(&self, tok: usize) -> usize {
        if tok >= self.n as usize {
            return 0;
        }
        let k = self.jumps.partition_point(|&(t, _)| t as usize <= tok);
        match k.checked_sub(1).and_then(|k| self.jumps.get(k)) {
            Some(&(t, line)) => line as usize + (tok - t as usize),
            None => 0,
        }
    }

    pub(crate) fn shrink(&mut self) {
        self.jumps.shrink_to_fit();
    }
}

#[cfg(test)]
mod line_tests {
    use super::TokenLines;

    #[test]
    fn lines_read_back_as_pushed() {
        let lines = [2u32, 3, 4, 7, 8, 10, 11, 12, 13, 20];
        let mut l = TokenLines::default();
        for &x in &lines {
            l.push(x);
        }
        assert_eq!(l.len(), lines.len());
        assert_eq!(l.jumps.len(), 4);
        for (t, &x) in lines.iter().enumerate() {
            assert_eq!(l.get(t), x as usize);
        }
        assert_eq!(l.get(lines.len()), 0);
    }
}
