//! CoNLL files read into sentences of mentions (validated, repaired, types changed) and
//! written in a tag encoding, as seqscore writes them (`write_docs_using_encoding` and
//! `write_doc_raw` in `seqscore/conll.py`): each token line's cells joined by a tab with the
//! tag replaced, a blank line after every sentence, and, when the file has more than one
//! document, a `-DOCSTART-` line (its other cells `-X-`, its tag `O`) and a blank line before
//! each.

use std::path::Path;

use super::types::TypeChanges;
use crate::corpus::{Corpus, ReadOptions};
use crate::error::{snippet, Error, Result};
use crate::formats::Format;
use crate::spans::encoding::{Encoding, Mention, Repair, OUTSIDE};

/// One token line: its cells and its line in the input (0: made here).
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// The cells, the token first.
    pub cells: Vec<String>,
    /// The 1-based line of the input.
    pub line: usize,
}

/// A sentence: its token lines and its mentions (token indices within the sentence).
#[derive(Debug, Clone, Default)]
pub struct Sentence {
    /// The token lines.
    pub rows: Vec<Row>,
    /// The mentions, in order, not overlapping.
    pub mentions: Vec<Mention>,
}

/// A document of sentences.
#[derive(Debug, Clone, Default)]
pub struct TokenDoc {
    /// The sentences.
    pub sentences: Vec<Sentence>,
}

/// Token documents with the cell that holds the tag.
#[derive(Debug, Clone, Default)]
pub struct Tagged {
    /// The documents, in order (empty ones included; they are not written).
    pub docs: Vec<TokenDoc>,
    /// The index of the tag cell.
    pub tag: usize,
    /// One line per repaired label: `FILE:LINE: OLD -> NEW (REPAIR)`.
    pub repairs: Vec<String>,
    /// The types of the mentions read, before the type changes.
    pub types: std::collections::BTreeSet<String>,
}

/// The tag column of a CoNLL corpus: a name or a 1-based number (default the last).
fn tag_column(c: &Corpus, column: Option<&str>) -> Result<usize> {
    let last = c.columns.len().saturating_sub(1);
    let Some(name) = column else {
        return Ok(last);
    };
    let by_number = name
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < c.columns.len());
    match by_number.or_else(|| c.column(name)) {
        Some(0) => Err(Error::usage(format!(
            "column: {} is the token column, not a tag column",
            snippet(name)
        ))),
        Some(i) => Ok(i),
        None => Err(Error::input(
            &c.path,
            0,
            format!(
                "no column {}; the columns are {} (or give a number from 2 to {})",
                snippet(name),
                c.columns.join(", "),
                c.columns.len()
            ),
        )),
    }
}

/// Reads a CoNLL file: every sentence's tags validated in `from` (invalid transitions repaired
/// with `repair`, each repair logged), decoded, and the type changes applied to the mentions.
pub fn read(
    path: &Path,
    column: Option<&str>,
    from: Encoding,
    repair: Option<Repair>,
    types: &TypeChanges,
) -> Result<Tagged> {
    let c = crate::formats::read(path, Some(Format::Conll), &ReadOptions::default())?;
    from_corpus(&c, path, column, from, repair, types)
}

/// The sentences of the CoNLL corpus `c` read from `path`, as [`read`] has them.
pub fn from_corpus(
    c: &Corpus,
    path: &Path,
    column: Option<&str>,
    from: Encoding,
    repair: Option<Repair>,
    types: &TypeChanges,
) -> Result<Tagged> {
    let tag = tag_column(c, column)?;
    let shown = crate::io::show_path(path);
    let mut out = Tagged {
        tag,
        ..Default::default()
    };
    let mut labels: Vec<&str> = Vec::new();
    for doc in &c.docs {
        let mut d = TokenDoc::default();
        let mut start = doc.start;
        for &n in &doc.segments {
            let range = start..start + n;
            start += n;
            labels.clear();
            labels.extend(range.clone().map(|t| c.cell(t, tag)));
            let decoded = from
                .read(&labels, repair)
                .map_err(|e| Error::input(path, c.line(range.start + e.token), e.message))?;
            for (i, old, new) in &decoded.repairs {
                let how = repair.map_or("", Repair::name);
                out.repairs.push(format!(
                    "{shown}:{}: {old} -> {new} ({how})",
                    c.line(range.start + i)
                ));
            }
            for m in &decoded.mentions {
                if !out.types.contains(&m.label) {
                    out.types.insert(m.label.clone());
                }
            }
            let mentions = changed(decoded.mentions, types);
            let rows = range
                .map(|t| Row {
                    cells: (0..c.columns.len())
                        .map(|k| c.cell(t, k).to_string())
                        .collect(),
                    line: c.line(t),
                })
                .collect();
            d.sentences.push(Sentence { rows, mentions });
        }
        out.docs.push(d);
    }
    Ok(out)
}

/// The mentions after the type changes.
pub fn changed(mentions: Vec<Mention>, types: &TypeChanges) -> Vec<Mention> {
    if types.is_empty() {
        return mentions;
    }
    mentions
        .into_iter()
        .filter_map(|mut m| {
            let t = types.apply(&m.label)?.to_string();
            m.label = t;
            Some(m)
        })
        .collect()
}

/// The CoNLL text of `t` with its mentions encoded in `to`.
pub fn write(t: &Tagged, to: Encoding) -> String {
    let docs: Vec<&TokenDoc> = t
        .docs
        .iter()
        .filter(|d| d.sentences.iter().any(|s| !s.rows.is_empty()))
        .collect();
    let docstart = docs.len() > 1;
    let mut out = String::new();
    for d in docs {
        if docstart {
            let width = d
                .sentences
                .first()
                .and_then(|s| s.rows.first())
                .map_or(2, |r| r.cells.len())
                .max(t.tag + 1);
            let mut cells = vec!["-X-"; width];
            cells[0] = "-DOCSTART-";
            cells[t.tag] = OUTSIDE;
            out.push_str(&cells.join("\t"));
            out.push_str("\n\n");
        }
        for s in &d.sentences {
            let labels = to.encode(&s.mentions, s.rows.len());
            for (row, label) in s.rows.iter().zip(&labels) {
                for (k, cell) in row.cells.iter().enumerate() {
                    if k > 0 {
                        out.push('\t');
                    }
                    out.push_str(if k == t.tag { label } else { cell });
                }
                out.push('\n');
            }
            out.push('\n');
        }
    }
    out
}
