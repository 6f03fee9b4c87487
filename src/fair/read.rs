//! Input readers for fair evaluation: the reference implementation's span files, CoNLL-2000 BIO
//! files with stacked (`|`) annotation, and one or more tag columns of a HIPE TSV file.
//!
//! Every reader returns units (sentences for span and CoNLL files, documents for HIPE files)
//! with their spans (1-based token indices), the file line each span starts on, and the token
//! forms where the format has them. The HIPE reader here is deliberately small and
//! self-contained; the project's shared HIPE reader is meant to replace it.

use std::path::Path;

use crate::matching::fair::Span;
use crate::{Error, Result};

/// Input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `LABEL<TAB>begin<TAB>end<TAB>tok, tok, …` per line, units separated by blank lines.
    Spans,
    /// `FORM POS TAG` per line (TAG in BIO, stacked with `|`), units separated by blank lines.
    Conll,
    /// HIPE TSV with a header line; units are documents.
    Hipe,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Spans => "spans",
            Format::Conll => "conll",
            Format::Hipe => "hipe",
        }
    }
}

/// How to read an input file.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// `None`: detect from the first non-blank line.
    pub format: Option<Format>,
    /// HIPE tag columns, one annotation level each (e.g. `NE-COARSE-LIT`).
    pub columns: Vec<String>,
    /// CoNLL only: drop punctuation tokens (by POS tag) from spans, as the reference does.
    pub ignore_punct: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: None,
            columns: vec!["NE-COARSE-LIT".to_string()],
            ignore_punct: false,
        }
    }
}

/// One unit (sentence or document) of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// `s<n>` for the n-th sentence, or the HIPE document id (`d<n>` if the file gives none).
    pub id: String,
    /// File line where the unit starts (1-based).
    pub line: usize,
    pub spans: Vec<Span>,
    /// File line of each span (parallel to `spans`).
    pub span_lines: Vec<usize>,
    /// Token forms (token `i` is `tokens[i - 1]`), where the format has them.
    pub tokens: Option<Vec<String>>,
}

impl Unit {
    /// Keeps only the spans for which `keep` holds.
    pub fn retain_spans(&mut self, keep: impl Fn(&Span) -> bool) {
        let mut lines = Vec::with_capacity(self.span_lines.len());
        let mut spans = Vec::with_capacity(self.spans.len());
        for (s, l) in self.spans.drain(..).zip(self.span_lines.drain(..)) {
            if keep(&s) {
                spans.push(s);
                lines.push(l);
            }
        }
        self.spans = spans;
        self.span_lines = lines;
    }

    /// The forms of a span's tokens joined by spaces, if the tokens are known.
    pub fn text_of(&self, span: &Span) -> Option<String> {
        let toks = self.tokens.as_ref()?;
        let words: Vec<&str> = span
            .token_list()
            .into_iter()
            .filter_map(|i| i.checked_sub(1).and_then(|k| toks.get(k)))
            .map(String::as_str)
            .collect();
        Some(words.join(" "))
    }
}

/// Reads a file into units.
pub fn read_units(path: &Path, opts: &ReadOptions) -> Result<Vec<Unit>> {
    let bytes = crate::fsutil::read_input(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::input(
            path,
            line,
            format!("invalid UTF-8 (byte offset {at}); files must be UTF-8 encoded"),
        )
    })?;
    if text.trim().is_empty() {
        return Err(Error::input(path, 0, "the file is empty"));
    }
    let format = match opts.format {
        Some(f) => f,
        None => detect_format(path, &text)?,
    };
    match format {
        Format::Spans => read_span_text(path, &text),
        Format::Conll => read_conll_text(path, &text, opts.ignore_punct),
        Format::Hipe => read_hipe_text(path, &text, &opts.columns),
    }
}

/// Detects the format from the first non-blank line.
pub fn detect_format(path: &Path, text: &str) -> Result<Format> {
    let Some((n, line)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Ok(Format::Spans);
    };
    let fields: Vec<&str> = line.trim().split('\t').collect();
    if fields[0] == "TOKEN" {
        Ok(Format::Hipe)
    } else if fields.len() == 4 || fields.len() == 3 {
        Ok(Format::Spans)
    } else if line.split_whitespace().count() >= 2 {
        Ok(Format::Conll)
    } else {
        Err(Error::input(
            path,
            n + 1,
            "cannot tell the format: expected a span line (LABEL<TAB>begin<TAB>end<TAB>tokens), \
             a CoNLL line (FORM POS TAG) or a HIPE header starting with TOKEN; use --format",
        ))
    }
}

/// Groups non-blank lines into blank-line separated blocks of (line number, trimmed line).
fn blocks(text: &str) -> Vec<Vec<(usize, &str)>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push((i + 1, l));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Reads the reference implementation's span format.
pub fn read_span_text(path: &Path, text: &str) -> Result<Vec<Unit>> {
    let mut units = Vec::new();
    for (n, block) in blocks(text).into_iter().enumerate() {
        let mut unit = Unit {
            id: format!("s{}", n + 1),
            line: block[0].0,
            spans: Vec::new(),
            span_lines: Vec::new(),
            tokens: None,
        };
        for (ln, line) in block {
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.len() < 3 {
                return Err(Error::input(
                    path,
                    ln,
                    format!(
                        "expected LABEL<TAB>begin<TAB>end<TAB>tokens, found {} field(s)",
                        fields.len()
                    ),
                ));
            }
            let label = fields[0].trim();
            if label.is_empty() {
                return Err(Error::input(path, ln, "missing label in column 1"));
            }
            let index = |col: usize, what: &str| -> Result<usize> {
                let v = fields[col].trim();
                match v.parse::<usize>() {
                    Ok(x) if x >= 1 => Ok(x),
                    _ => Err(Error::input(
                        path,
                        ln,
                        format!(
                            "expected a token index >= 1 as {what} (column {}), found '{v}'",
                            col + 1
                        ),
                    )),
                }
            };
            let begin = index(1, "begin")?;
            let end = index(2, "end")?;
            let mut span = Span::new(label, begin, end);
            if fields.len() >= 4 {
                // As the reference: if any listed token is not an integer, use the whole range.
                let toks: std::result::Result<Vec<usize>, _> = fields[fields.len() - 1]
                    .split(',')
                    .map(|v| v.trim().parse::<usize>())
                    .collect();
                if let Ok(toks) = toks {
                    span = span.with_tokens(toks);
                }
            }
            unit.spans.push(span);
            unit.span_lines.push(ln);
        }
        units.push(unit);
    }
    Ok(units)
}

/// POS tags treated as punctuation by `--ignore-punct` (the reference's list).
const PUNCT_TAGS: [&str; 18] = [
    "$.", "$,", "$(", "PUNCT", "PUNKT", "KOMMA", "COMMA", "KLAMMER", ".", ",", ":", "(", ")", "\"",
    "\u{2018}", "\u{201c}", "\u{2019}", "\u{201d}",
];

/// A span while reading CoNLL: begin/end may be cleared by punctuation removal.
struct RawSpan {
    label: String,
    begin: Option<usize>,
    end: Option<usize>,
    toks: Vec<usize>,
    level: usize,
    line: usize,
}

/// Reads CoNLL-2000 style BIO files with stacked annotations (`I-NC|B-NP`). Spans are listed in
/// the order the reference implementation produces them (this order decides ties).
pub fn read_conll_text(path: &Path, text: &str, ignore_punct: bool) -> Result<Vec<Unit>> {
    let mut units = Vec::new();
    for (n, block) in blocks(text).into_iter().enumerate() {
        let mut spans: Vec<RawSpan> = Vec::new();
        let mut stack: Vec<RawSpan> = Vec::new();
        let mut tokens = Vec::with_capacity(block.len());
        let mut punct = Vec::with_capacity(block.len());
        for (t, &(ln, line)) in block.iter().enumerate() {
            let idx = t + 1;
            let fields: Vec<&str> = line.split_whitespace().collect();
            let tag = fields.last().copied().unwrap_or("");
            tokens.push(fields.first().copied().unwrap_or("").to_string());
            punct.push(fields.len() >= 3 && PUNCT_TAGS.contains(&fields[1]));
            if fields.len() < 2 {
                return Err(Error::input(
                    path,
                    ln,
                    "expected FORM POS TAG (space-separated), found one field",
                ));
            }
            if matches!(tag, "O" | "_" | "") {
                spans.append(&mut stack);
                continue;
            }
            let annotations: Vec<&str> = tag.split('|').collect();
            while stack.len() > annotations.len() {
                if let Some(s) = stack.pop() {
                    spans.push(s);
                }
            }
            for (i, a) in annotations.iter().enumerate() {
                let label = a.split('-').nth(1).unwrap_or("").to_string();
                let fresh = |level: usize| RawSpan {
                    label: label.clone(),
                    begin: Some(idx),
                    end: Some(idx),
                    toks: vec![idx],
                    level,
                    line: ln,
                };
                if a.starts_with("B-") {
                    if i == 0 && !stack.is_empty() {
                        spans.append(&mut stack);
                    } else {
                        while stack.len() > i {
                            if let Some(s) = stack.pop() {
                                spans.push(s);
                            }
                        }
                    }
                    stack.push(fresh(stack.len()));
                } else if a.starts_with("I-") {
                    if let Some(s) = stack.get_mut(i) {
                        s.end = Some(idx);
                        if !s.toks.contains(&idx) {
                            s.toks.push(idx);
                        }
                    } else {
                        // No open span at this level (the reference fails here): start one.
                        stack.push(fresh(stack.len()));
                    }
                }
            }
        }
        spans.append(&mut stack);

        if ignore_punct {
            for (i, &is_punct) in punct.iter().enumerate() {
                if !is_punct {
                    continue;
                }
                let idx = i + 1;
                for s in spans.iter_mut() {
                    s.toks.retain(|&x| x != idx);
                    if s.begin == Some(idx) {
                        s.begin = match s.end {
                            Some(e) if e > idx => Some(idx + 1),
                            _ => None,
                        };
                    }
                    if s.end == Some(idx) {
                        s.end = match s.begin {
                            Some(b) if b < idx => Some(idx - 1),
                            _ => None,
                        };
                    }
                }
                spans.retain(|s| s.begin.is_some() && s.end.is_some() && !s.toks.is_empty());
            }
        }

        let mut unit = Unit {
            id: format!("s{}", n + 1),
            line: block[0].0,
            spans: Vec::with_capacity(spans.len()),
            span_lines: Vec::with_capacity(spans.len()),
            tokens: Some(tokens),
        };
        for s in spans {
            if let (Some(b), Some(e)) = (s.begin, s.end) {
                unit.spans.push(
                    Span::new(s.label, b, e)
                        .at_level(s.level)
                        .with_tokens(s.toks),
                );
                unit.span_lines.push(s.line);
            }
        }
        units.push(unit);
    }
    Ok(units)
}

/// True for a comment line that starts a HIPE document (`# document_id = …`,
/// `# hipe2022:document_id = …`).
fn document_marker(line: &str) -> Option<String> {
    let rest = line.strip_prefix('#')?.trim_start();
    if rest.starts_with("document") || rest.starts_with("hipe2022:document_id") {
        let id = match rest.split_once('=') {
            Some((_, v)) => v.trim().to_string(),
            None => String::new(),
        };
        Some(id)
    } else {
        None
    }
}

/// Open span of one HIPE tag column.
struct Open {
    label: String,
    begin: usize,
    line: usize,
}

/// Reads HIPE TSV: a header line naming the columns, comment lines (`#`), one token per line.
/// Each requested column is one annotation level, with IOB or IOBES tags.
pub fn read_hipe_text(path: &Path, text: &str, columns: &[String]) -> Result<Vec<Unit>> {
    let mut lines = text.lines().enumerate();
    let header = loop {
        match lines.next() {
            None => return Ok(Vec::new()),
            Some((_, l)) if l.trim().is_empty() || l.starts_with('#') => continue,
            Some((i, l)) => break (i + 1, l),
        }
    };
    let names: Vec<&str> = header
        .1
        .trim_end_matches(['\r', '\n'])
        .split('\t')
        .collect();
    let token_col = names.iter().position(|&c| c == "TOKEN");
    let mut cols = Vec::with_capacity(columns.len());
    for c in columns {
        match names.iter().position(|n| n == c) {
            Some(i) => cols.push(i),
            None => {
                return Err(Error::input(
                    path,
                    header.0,
                    format!(
                        "expected a header with column '{c}'; columns are: {}",
                        names.join(", ")
                    ),
                ))
            }
        }
    }

    let mut units: Vec<Unit> = Vec::new();
    let mut cur = Unit {
        id: String::new(),
        line: header.0 + 1,
        spans: Vec::new(),
        span_lines: Vec::new(),
        tokens: Some(Vec::new()),
    };
    let mut open: Vec<Option<Open>> = (0..cols.len()).map(|_| None).collect();

    fn close(unit: &mut Unit, level: usize, open: &mut Option<Open>, last: usize) {
        if let Some(o) = open.take() {
            unit.spans
                .push(Span::new(o.label, o.begin, last).at_level(level));
            unit.span_lines.push(o.line);
        }
    }
    fn finish(units: &mut Vec<Unit>, cur: &mut Unit, open: &mut [Option<Open>]) {
        let n = cur.tokens.as_ref().map_or(0, Vec::len);
        for (level, o) in open.iter_mut().enumerate() {
            close(cur, level, o, n);
        }
        if n > 0 {
            // Stable order: by begin, then level.
            let mut order: Vec<usize> = (0..cur.spans.len()).collect();
            order.sort_by_key(|&i| (cur.spans[i].begin, cur.spans[i].level));
            cur.spans = order.iter().map(|&i| cur.spans[i].clone()).collect();
            cur.span_lines = order.iter().map(|&i| cur.span_lines[i]).collect();
            if cur.id.is_empty() {
                cur.id = format!("d{}", units.len() + 1);
            }
            units.push(std::mem::replace(
                cur,
                Unit {
                    id: String::new(),
                    line: 0,
                    spans: Vec::new(),
                    span_lines: Vec::new(),
                    tokens: Some(Vec::new()),
                },
            ));
        }
    }

    for (i, raw) in lines {
        let ln = i + 1;
        let line = raw.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with('#') {
            if let Some(id) = document_marker(line) {
                finish(&mut units, &mut cur, &mut open);
                cur.id = id;
                cur.line = ln;
            }
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() > names.len() && fields[names.len()..].iter().any(|f| !f.is_empty()) {
            return Err(Error::input(
                path,
                ln,
                format!(
                    "{} cells but the header has {} columns; remove the extra cells (a tab inside a token splits the row)",
                    fields.len(),
                    names.len()
                ),
            ));
        }
        let toks = cur.tokens.get_or_insert_with(Vec::new);
        if toks.is_empty() && cur.line == 0 {
            cur.line = ln;
        }
        toks.push(
            token_col
                .and_then(|c| fields.get(c))
                .copied()
                .unwrap_or("")
                .to_string(),
        );
        let idx = toks.len();
        for (level, &c) in cols.iter().enumerate() {
            let Some(tag) = fields.get(c).map(|t| t.trim()) else {
                return Err(Error::input(
                    path,
                    ln,
                    format!(
                        "expected a value in column '{}' (field {}), the line has {} field(s)",
                        columns[level],
                        c + 1,
                        fields.len()
                    ),
                ));
            };
            if matches!(tag, "O" | "_" | "" | "-") {
                close(&mut cur, level, &mut open[level], idx - 1);
                continue;
            }
            let Some((prefix, label)) = tag.split_once('-') else {
                return Err(Error::input(
                    path,
                    ln,
                    format!(
                        "expected an IOB/IOBES tag (B-x, I-x, E-x, S-x or O) in column '{}', \
                         found '{tag}'",
                        columns[level]
                    ),
                ));
            };
            let same = open[level].as_ref().is_some_and(|o| o.label == label);
            let start = |open: &mut Option<Open>| {
                *open = Some(Open {
                    label: label.to_string(),
                    begin: idx,
                    line: ln,
                })
            };
            match prefix {
                "B" => {
                    close(&mut cur, level, &mut open[level], idx - 1);
                    start(&mut open[level]);
                }
                "I" => {
                    if !same {
                        close(&mut cur, level, &mut open[level], idx - 1);
                        start(&mut open[level]);
                    }
                }
                "E" => {
                    if !same {
                        close(&mut cur, level, &mut open[level], idx - 1);
                        start(&mut open[level]);
                    }
                    close(&mut cur, level, &mut open[level], idx);
                }
                "S" => {
                    close(&mut cur, level, &mut open[level], idx - 1);
                    start(&mut open[level]);
                    close(&mut cur, level, &mut open[level], idx);
                }
                _ => {
                    return Err(Error::input(
                        path,
                        ln,
                        format!(
                            "expected an IOB/IOBES tag (B-x, I-x, E-x, S-x or O) in column '{}', \
                             found '{tag}'",
                            columns[level]
                        ),
                    ))
                }
            }
        }
    }
    finish(&mut units, &mut cur, &mut open);
    Ok(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("test")
    }

    #[test]
    fn span_lines_and_blank_separated_units() {
        let u = read_span_text(
            p(),
            "PER\t2\t3\t2, 3\nLOC\t5\t5\t5\n\n\nNONE\t999\t999\t999\n",
        )
        .unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!(
            u[0].spans,
            vec![Span::new("PER", 2, 3), Span::new("LOC", 5, 5)]
        );
        assert_eq!(u[0].span_lines, vec![1, 2]);
        assert_eq!(u[1].id, "s2");
        assert_eq!(u[1].span_lines, vec![5]);
    }

    #[test]
    fn span_errors_name_line_and_expectation() {
        let e = read_span_text(p(), "PER\t2\t3\t2, 3\nLOC\tx\t5\t5\n").unwrap_err();
        assert_eq!(
            e,
            Error::input(
                p(),
                2,
                "expected a token index >= 1 as begin (column 2), found 'x'"
            )
        );
    }

    #[test]
    fn conll_stacked_spans_in_reference_order() {
        let text = "a X B-NP\nb X I-NP|B-AP\nc X I-NP|I-AP\nd X O\n";
        let u = read_conll_text(p(), text, false).unwrap();
        assert_eq!(
            u[0].spans,
            vec![Span::new("NP", 1, 3), Span::new("AP", 2, 3).at_level(1)]
        );
        assert_eq!(u[0].text_of(&u[0].spans[1]).as_deref(), Some("b c"));
    }

    #[test]
    fn conll_ignore_punct_trims_spans() {
        let text = "a X B-NP\nb X I-NP\n, $, I-NP\n. $. B-NP\n";
        let u = read_conll_text(p(), text, true).unwrap();
        assert_eq!(u[0].spans, vec![Span::new("NP", 1, 2)]);
    }

    #[test]
    fn hipe_documents_and_iobes() {
        let text = "TOKEN\tNE-COARSE-LIT\tNE-NESTED\n# hipe2022:document_id = A\nx\tB-loc\tO\ny\tI-loc\tS-pers\nz\tO\tO\n\
                    # hipe2022:document_id = B\nw\tS-org\tO\nv\tI-org\tO\n";
        let cols = vec!["NE-COARSE-LIT".to_string(), "NE-NESTED".to_string()];
        let u = read_hipe_text(p(), text, &cols).unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].id, "A");
        assert_eq!(
            u[0].spans,
            vec![Span::new("loc", 1, 2), Span::new("pers", 2, 2).at_level(1)]
        );
        assert_eq!(
            u[1].spans,
            vec![Span::new("org", 1, 1), Span::new("org", 2, 2)]
        );
        assert_eq!(u[1].span_lines, vec![7, 8]);
    }

    #[test]
    fn hipe_missing_column_is_an_input_error() {
        let e =
            read_hipe_text(p(), "TOKEN\tMISC\nx\t_\n", &["NE-COARSE-LIT".to_string()]).unwrap_err();
        assert!(e.to_string().contains("NE-COARSE-LIT"));
    }
}
