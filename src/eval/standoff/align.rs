//! A token file (CoNLL or HIPE TSV) read onto the texts of standoff documents: its tokens are
//! found in order in the texts, whitespace skipped between them, and its IOB entities become
//! character-offset spans of the document they fall in.

use std::path::Path;

use crate::corpus::standoff::{is_py_space, StandoffDoc, StandoffSpan};
use crate::corpus::Corpus;
use crate::error::{snippet, Error, Result};
use crate::formats::Format;
use crate::spans::Spans;

/// The scored column of a token file: CoNLL `column` by name or 1-based number (default the
/// tag column, `TAG`); HIPE a header name (default `NE-COARSE-LIT`).
fn tag_column(path: &Path, c: &Corpus, column: Option<&str>) -> Result<usize> {
    let hipe = c.format == Format::Hipe.as_str();
    let name = column.unwrap_or(if hipe { "NE-COARSE-LIT" } else { "TAG" });
    let by_number = if hipe {
        None
    } else {
        name.parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|&i| i < c.columns.len())
    };
    by_number.or_else(|| c.column(name)).ok_or_else(|| {
        Error::input(
            path,
            0,
            format!(
                "no column {}; the columns are {}",
                snippet(name),
                c.columns.join(", ")
            ),
        )
    })
}

/// A token file read onto standoff texts.
pub struct Aligned {
    /// One document per text, in the same order, with the token file's entities.
    pub docs: Vec<StandoffDoc>,
    /// Per document, the character offsets where a token starts or ends: scoring positions
    /// are cut there too, so spans are scored over the token file's tokens.
    pub cuts: Vec<Vec<usize>>,
    /// Whether the token file is HIPE TSV, whose reader upper-cases labels (as the official
    /// scorer does): the other side's labels are then compared upper-cased too.
    pub upper_case: bool,
}

/// Reads the token file `path` (CoNLL or HIPE TSV, detected) onto the texts of `texts`, in
/// their order. Every token must be found where the text continues after whitespace; the first
/// that is not is an error naming its line, and so is text left over after the last token.
/// The entities of `column` (the tag column: named, or the last of a CoNLL file) become spans of the document they fall in:
/// CoNLL entities within a sentence, HIPE entities within a document (as the HIPE scorer reads
/// them). The documents returned have the names and texts of `texts`.
pub fn tokens_onto(path: &Path, texts: &[StandoffDoc], column: Option<&str>) -> Result<Aligned> {
    // A HIPE file keeps only the scored column (CoNLL readers keep all).
    let opts = crate::corpus::ReadOptions {
        columns: Some(vec![column.unwrap_or("NE-COARSE-LIT").to_string()]),
        ..Default::default()
    };
    let c = crate::formats::read(path, None, &opts)?;
    if c.format == Format::Spans.as_str() {
        return Err(Error::input(
            path,
            0,
            "a span file has no text to align with the other side's: give CoNLL or HIPE TSV",
        ));
    }
    let col = tag_column(path, &c, column)?;
    let at = locate(path, &c, texts)?;
    let mut out: Vec<StandoffDoc> = texts
        .iter()
        .map(|x| StandoffDoc {
            name: x.id().to_string(),
            path: path.to_path_buf(),
            text: x.text.clone(),
            spans: Vec::new(),
            norms: Vec::new(),
        })
        .collect();
    let hipe = c.format == Format::Hipe.as_str();
    let mut ents = Spans::default();
    let mut seq: Vec<usize> = Vec::new();
    for doc in &c.docs {
        let units: Vec<std::ops::Range<usize>> = if hipe {
            vec![doc.range()]
        } else {
            let mut start = doc.start;
            doc.segments
                .iter()
                .map(|&n| {
                    start += n;
                    start - n..start
                })
                .collect()
        };
        for unit in units {
            seq.clear();
            seq.extend(unit);
            crate::spans::entities(&c, col, &seq, &mut ents);
            for e in &ents.spans {
                let label = ents.label(e);
                if label.is_empty() {
                    continue; // `_` cells: no entity type
                }
                let (a, b) = (seq[e.start as usize], seq[e.end as usize]);
                let (da, sa, _) = at[a];
                let (db, _, eb) = at[b];
                if db != da {
                    return Err(Error::input(
                        path,
                        c.line(a),
                        "an entity runs across two documents of the text",
                    ));
                }
                out[da].spans.push(StandoffSpan {
                    id: format!("line {}", c.line(a)),
                    label: label.to_string(),
                    fragments: vec![(sa, eb)],
                    line: c.line(a),
                });
            }
        }
    }
    let mut cuts: Vec<Vec<usize>> = vec![Vec::new(); texts.len()];
    for &(d, a, b) in &at {
        cuts[d].extend([a, b]);
    }
    Ok(Aligned {
        docs: out,
        cuts,
        upper_case: hipe,
    })
}

/// Each token's document and `[start, end)` in characters of that document's text.
///
/// When every document of the token file has an id (HIPE `document_id`) naming a standoff
/// document, each is aligned with the document it names. Otherwise the tokens run through the
/// documents in turn: at each document boundary the next document is the first one not yet
/// used, in the standoff side's order, whose whole text the following tokens reproduce (so a
/// brat directory read in name order still aligns with a token file in another order).
fn locate(path: &Path, c: &Corpus, texts: &[StandoffDoc]) -> Result<Vec<(usize, usize, usize)>> {
    let chars: Vec<Vec<char>> = texts.iter().map(|d| d.text.chars().collect()).collect();
    let names: std::collections::HashMap<&str, usize> =
        texts.iter().enumerate().map(|(i, d)| (d.id(), i)).collect();
    let named: Option<Vec<usize>> = c
        .docs
        .iter()
        .map(|d| d.id.as_deref().and_then(|id| names.get(id).copied()))
        .collect();
    let mut at: Vec<(usize, usize, usize)> = Vec::with_capacity(c.n_tokens());
    let mut used = vec![false; texts.len()];
    if let Some(named) = named.filter(|n| !n.is_empty()) {
        for (doc, &k) in c.docs.iter().zip(&named) {
            if std::mem::replace(&mut used[k], true) {
                return Err(Error::input(
                    path,
                    doc.first_line,
                    format!("document {} is given twice", snippet(texts[k].id())),
                ));
            }
            let end = match fit(c, doc.start, doc.start + doc.len(), &chars[k], k, &mut at) {
                Ok(end) => end,
                Err(m) => return Err(mismatch(path, c, texts, &chars, k, m)),
            };
            if end < doc.start + doc.len() {
                return Err(Error::input(
                    path,
                    c.line(end),
                    format!(
                        "token {}: the text of document {} ends before the document's tokens do",
                        snippet(c.token_text(end)),
                        snippet(texts[k].id())
                    ),
                ));
            }
        }
    } else {
        let n = c.n_tokens();
        let mut t = 0;
        while t < n || used.iter().any(|u| !u) {
            let mut furthest = None;
            let mut found = None;
            for k in (0..texts.len()).filter(|&k| !used[k]) {
                let mark = at.len();
                match fit(c, t, n, &chars[k], k, &mut at) {
                    Ok(end) => {
                        found = Some((k, end));
                        break;
                    }
                    Err(m) => {
                        at.truncate(mark);
                        // The error names the document the tokens went furthest in.
                        if furthest
                            .as_ref()
                            .is_none_or(|(_, f): &(usize, Miss)| m.token > f.token)
                        {
                            furthest = Some((k, m));
                        }
                    }
                }
            }
            match (found, furthest) {
                (Some((k, end)), _) => {
                    used[k] = true;
                    t = end;
                }
                (None, Some((k, m))) => return Err(mismatch(path, c, texts, &chars, k, m)),
                (None, None) => {
                    return Err(Error::input(
                        path,
                        c.line(t),
                        format!(
                            "token {}: the tokens go on after the text of every document",
                            snippet(c.token_text(t))
                        ),
                    ))
                }
            }
        }
    }
    if let Some(k) = used.iter().position(|u| !u) {
        return Err(Error::input(
            path,
            0,
            format!("no tokens for document {}", snippet(texts[k].id())),
        ));
    }
    Ok(at)
}

/// Where tokens stop matching a text: the token and the character of the text.
struct Miss {
    token: usize,
    at: usize,
}

/// Matches tokens `from..to` against the whole of `text` (whitespace skipped between them),
/// pushing each token's place; returns the first token after the text, or where they differ.
/// The text is done when only whitespace is left, so a text of whitespace takes no token.
fn fit(
    c: &Corpus,
    from: usize,
    to: usize,
    text: &[char],
    doc: usize,
    at: &mut Vec<(usize, usize, usize)>,
) -> std::result::Result<usize, Miss> {
    let mut i = 0;
    let mut t = from;
    loop {
        while i < text.len() && is_py_space(text[i]) {
            i += 1;
        }
        if i >= text.len() {
            return Ok(t);
        }
        if t >= to {
            return Err(Miss { token: t, at: i });
        }
        let tok = c.token_text(t);
        let mut j = i;
        for ch in tok.chars() {
            if text.get(j) != Some(&ch) {
                return Err(Miss { token: t, at: i });
            }
            j += 1;
        }
        if tok.is_empty() {
            return Err(Miss { token: t, at: i });
        }
        at.push((doc, i, j));
        i = j;
        t += 1;
    }
}

/// The error for tokens that do not reproduce the text of document `k`.
fn mismatch(
    path: &Path,
    c: &Corpus,
    texts: &[StandoffDoc],
    chars: &[Vec<char>],
    k: usize,
    m: Miss,
) -> Error {
    let found: String = chars[k][m.at..].iter().take(20).collect();
    let name = snippet(texts[k].id());
    if m.token >= c.n_tokens() {
        return Error::input(
            path,
            0,
            format!(
                "the tokens end before the text of document {name} does (character {}: {})",
                m.at,
                snippet(&found)
            ),
        );
    }
    Error::input(
        path,
        c.line(m.token),
        format!(
            "token {} does not match the text of document {name} at character {} (the text has {})",
            snippet(c.token_text(m.token)),
            m.at,
            snippet(&found)
        ),
    )
}
