//! The nel family's token files: HIPE TSV (read as `fairscore score` reads it) and CoNLL with
//! an NE tag column and a link column (`docs/nel.md`), both grouped into link mentions as the
//! official HIPE scorer groups links (`spans::links_ne_bounded`, or `links_consecutive` with
//! `original_nel`).

use std::fmt::Write as _;
use std::path::Path;

use super::super::Statistics;
use super::read::{no_link, Mention, NelOptions, Side, Tally};
use crate::corpus::{align, Builder, Corpus, ReadOptions};
use crate::error::{snippet, Error, Result};
use crate::eval::read::read_hipe;
use crate::formats::{conll, Format, InputFormat};
use crate::hipe::Edition;
use crate::spans::{links_consecutive, links_ne_bounded, skip_chars};

/// The column names of the corpus a CoNLL file is turned into.
const NE: &str = "NE";
const LINK: &str = "LINK";

/// The link mentions of `range` in `file` into `side` (columns `link` and `ne`).
fn read_side<'a>(
    side: &mut Side<'a>,
    file: &'a Corpus,
    (link, ne): (usize, usize),
    range: std::ops::Range<usize>,
    o: &NelOptions,
    max_n: usize,
    gold: bool,
) {
    side.seq.clear();
    side.seq.extend(range);
    if o.original_nel {
        links_consecutive(file, link, &side.seq, max_n, &mut side.spans);
    } else {
        links_ne_bounded(file, link, ne, &side.seq, max_n, gold, &mut side.spans);
    }
    side.mentions.clear();
    for s in &side.spans.spans {
        if no_link(side.spans.label(s)) {
            continue;
        }
        let tag = file.cell(side.seq[s.start as usize], ne);
        let ty = if matches!(tag, "O" | "_" | "-") {
            "O"
        } else {
            skip_chars(tag, 2)
        };
        side.mentions.push(Mention {
            span: *s,
            ty,
            at: 0,
        });
    }
}

fn column_of(f: &Corpus, name: &str) -> Result<usize> {
    f.column(name).ok_or_else(|| {
        Error::input(
            &f.path,
            1,
            format!(
                "column {name} is missing from the header ({}); the nel family needs it",
                f.columns.join(", ")
            ),
        )
    })
}

/// The line of a CoNLL file's first token (where messages about its columns point).
fn first_line(c: &Corpus) -> usize {
    if c.n_tokens() > 0 {
        c.line(0)
    } else {
        1
    }
}

/// A CoNLL column by name (`TOKEN`, `POS`, `COL3`, …, `TAG`) or 1-based number.
fn conll_column(c: &Corpus, what: &str, given: &str) -> Result<usize> {
    let at = match given.parse::<usize>() {
        Ok(n) => n.checked_sub(1).filter(|&i| i < c.columns.len()),
        Err(_) => c.column(given),
    };
    at.ok_or_else(|| {
        Error::input(
            &c.path,
            first_line(c),
            format!(
                "{what} {}: not a column of this file, whose lines have {} cells ({}); give a name or a 1-based number",
                snippet(given),
                c.columns.len(),
                c.columns.join(", ")
            ),
        )
    })
}

/// Reads a CoNLL file with a link column as a corpus of columns `TOKEN`, `NE` (IOB tags,
/// `S-`/`E-` read as `B-`/`I-`, `_` as `O`) and `LINK` (`O`, `_`, `-` read as no link).
fn read_conll(path: &Path, o: &NelOptions) -> Result<Corpus> {
    let c = crate::formats::read(path, Some(Format::Conll), &ReadOptions::default())?;
    let n = c.columns.len();
    let link = match o.column.as_deref() {
        Some(name) => conll_column(&c, "column", name)?,
        None => n - 1,
    };
    let ne = match o.ne_column.as_deref() {
        Some(name) => conll_column(&c, "ne_column", name)?,
        None if link >= 2 => link - 1,
        None => {
            return Err(Error::input(
                path,
                first_line(&c),
                format!(
                    "expected a token, an NE tag and a link on every line (TOKEN … NE LINK), found {n} cells: the nel family needs a link column"
                ),
            ))
        }
    };
    if link == c.token_col || ne == c.token_col || link == ne {
        return Err(Error::input(
            path,
            first_line(&c),
            format!(
                "the link column ({}) and the NE column ({}) must be two columns other than the token",
                c.columns[link], c.columns[ne]
            ),
        ));
    }
    conll::check_iob(&c, ne)?;
    // A link column of IOB tags is a NER file without links (CoNLL-2003: TOKEN POS CHUNK
    // TAG), not a file whose every mention is linked to `B-PER`.
    let tag_like = |t: &str| {
        t == "O" || matches!(t.split_once('-'), Some(("B" | "I" | "E" | "S", ty)) if !ty.is_empty())
    };
    if (0..c.n_tokens()).all(|t| tag_like(c.cell(t, link))) {
        let at = (0..c.n_tokens()).find(|&t| c.cell(t, link) != "O");
        if let Some(t) = at {
            return Err(Error::input(
                path,
                c.line(t),
                format!(
                    "column {}: expected links (KB ids, NIL, _), found only IOB tags ({}); the link column is the last unless `column` names it",
                    c.columns[link],
                    snippet(c.cell(t, link))
                ),
            ));
        }
    }
    let names = vec!["TOKEN".to_string(), NE.to_string(), LINK.to_string()];
    let mut b = Builder::new(path, names);
    for d in &c.docs {
        b.document(d.id.clone(), d.first_line);
        let mut tok = d.start;
        for &len in &d.segments {
            for t in tok..tok + len {
                let tag = c.cell(t, ne);
                let tag = match tag.split_once('-') {
                    Some(("S", _)) => format!("B{}", &tag[1..]),
                    Some(("E", _)) => format!("I{}", &tag[1..]),
                    _ if tag == "_" => "O".to_string(),
                    _ => tag.to_string(),
                };
                let l = c.cell(t, link);
                let l = if matches!(l, "O" | "_" | "-") { "_" } else { l };
                b.token(c.line(t), [c.token_text(t), tag.as_str(), l]);
            }
            tok += len;
            b.close_segment();
        }
    }
    b.format("conll");
    Ok(b.finish())
}

/// A mention's place and text in the listing: first line, last line, covered tokens.
fn place(file: &Corpus, side: &Side, m: &Mention, out: &mut String) {
    let (s, e) = (m.span.start as usize, m.span.end as usize);
    let _ = write!(
        out,
        "{}\t{}\t",
        file.line(side.seq[s]),
        file.line(side.seq[e])
    );
    for (n, &t) in side.seq[s..=e].iter().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(&crate::escape::terminal(file.token_text(t)));
    }
}

/// Reads and counts `gold` and `pred`, token files of `format` (HIPE or CoNLL): per gold
/// document, the numbers of [`Tally`].
pub fn statistics(
    o: &NelOptions,
    format: InputFormat,
    gold: &Path,
    pred: &Path,
) -> Result<(Statistics, Vec<String>)> {
    let (g, p, cols) = if format == InputFormat::Conll {
        let cols = (LINK.to_string(), NE.to_string());
        (read_conll(gold, o)?, read_conll(pred, o)?, cols)
    } else {
        let (link, ne) = o.hipe_columns()?;
        let columns = Some(vec![link.clone(), ne.clone()]);
        // The edition only matters to link normalization, which the family does not do.
        let read =
            |f: &Path, columns| read_hipe(f, Edition::Hipe2022, Default::default(), columns, None);
        (
            read(gold, columns.clone())?,
            read(pred, columns)?,
            (link, ne),
        )
    };
    let gcols = (column_of(&g, &cols.0)?, column_of(&g, &cols.1)?);
    let pcols = (column_of(&p, &cols.0)?, column_of(&p, &cols.1)?);
    let al = align(&g, &p)?;
    let max_n = o.max_n();
    let mut tally = Tally::new(o);
    for w in al.scoring_warnings(&p, "mentions are matched by position only") {
        tally.warn(w);
    }
    let (mut gs, mut rs) = (Side::default(), Side::default());
    for (gd, pd) in g.docs.iter().zip(&al.pred_docs) {
        let id = gd
            .id
            .clone()
            .unwrap_or_else(|| format!("#{}", gd.first_line));
        read_side(&mut gs, &g, gcols, gd.range(), o, 1, true);
        read_side(&mut rs, &p, pcols, pd.range(), o, max_n, false);
        tally.document(o, id, &mut gs, &mut rs, |gold, side, m, out| {
            place(if gold { &g } else { &p }, side, m, out)
        });
    }
    Ok(tally.finish(o, &p.path.display().to_string()))
}
