//! `fairscore tagging`: a tagger's run against the gold, segment by segment, under every
//! scoring function (exact, pos, positional, weighted), with the scored metrics of the tagging
//! paper's §3.1: P, R, F, weak (WC) and strong (SC) correctness. See `docs/tagging.md`.

use std::path::Path;

use super::score::{CellScorer, CellSide, TagTotals};
use super::tagset::Tagset;
use crate::family::parting::{count_error, Sentence};
use crate::formats::conllu::{Conllu, COLUMNS};
use crate::formats::tagged::Tagged;
use crate::{Error, Result};

/// Input format of both files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaggingFormat {
    /// CoNLL-U: the chosen column of the word lines (multiword token lines and empty nodes are
    /// not segments).
    Conllu,
    /// `token TAB tags`, a blank line between sentences (`formats::tagged`).
    Tsv,
}

impl TaggingFormat {
    /// `conllu` for a `.conllu` or `.conll` file name, else `tsv`.
    pub fn from_path(path: &Path) -> TaggingFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("conllu") || e.eq_ignore_ascii_case("conll") => {
                TaggingFormat::Conllu
            }
            _ => TaggingFormat::Tsv,
        }
    }
}

/// How the tagging family reads and scores.
#[derive(Debug, Clone)]
pub struct TaggingOptions {
    /// Format of both files.
    pub format: TaggingFormat,
    /// 0-based column of the tags: a CoNLL-U column (default XPOS, 4) or a TSV cell (default 1).
    pub column: usize,
    /// How tags split into components and are weighted; `None`: split on `:`, values keyed by
    /// position, no `weighted` function.
    pub tagset: Option<Tagset>,
}

impl TaggingOptions {
    /// XPOS for CoNLL-U, the second cell for TSV; no tagset.
    pub fn new(format: TaggingFormat) -> TaggingOptions {
        TaggingOptions {
            format,
            column: match format {
                TaggingFormat::Conllu => crate::formats::conllu::XPOS,
                TaggingFormat::Tsv => 1,
            },
            tagset: None,
        }
    }
}

/// The 0-based tags column named by `spec`: a CoNLL-U column name (`XPOS`, `UPOS`, …) or
/// number 1-10, or for TSV the 1-based number of the tags cell (2 or more; 1 is the token).
pub fn column_index(spec: &str, format: TaggingFormat) -> Result<usize> {
    match format {
        TaggingFormat::Conllu => crate::formats::conllu::column_index(spec).ok_or_else(|| {
            Error::usage(format!(
                "column {}: expected a CoNLL-U column name ({}) or a number 1-10",
                crate::error::snippet(spec),
                COLUMNS.join(", ")
            ))
        }),
        TaggingFormat::Tsv => match spec.trim().parse::<usize>() {
            Ok(n) if n >= 2 => Ok(n - 1),
            _ => Err(Error::usage(format!(
                "column {}: for TSV expected the number of the tags column (2 or more; 1 is the token)",
                crate::error::snippet(spec)
            ))),
        },
    }
}

/// One aligned segment: token forms, cells and lines on both sides.
struct Seg<'a> {
    gold_form: &'a str,
    gold_cell: &'a str,
    gold_line: usize,
    pred_form: &'a str,
    pred_cell: &'a str,
    pred_line: usize,
}

/// The sums of every sentence, in file order (the units a resampling draws), whether the tag
/// set has weights (the `weighted` function), and warnings about the tag set. The paths are
/// only used in messages. Errs with a usage error on a CoNLL-U `column` ≥ 10 or a TSV
/// `column` 0, and with an input error on a file that cannot be read as its format (a TSV line
/// without that cell included), different sentences, token counts or token forms, or a bad
/// tags cell ([`crate::family::tagging::CellError`]).
pub fn sentence_totals<'a>(
    gold_path: &Path,
    gold: &'a str,
    pred_path: &Path,
    pred: &'a str,
    opts: &TaggingOptions,
) -> Result<(Vec<TagTotals>, bool, Vec<String>)> {
    // A bare CR would make one line of the file (as in `segmentation` and the HIPE readers).
    crate::formats::plain::check_line_ends(gold_path, gold)?;
    crate::formats::plain::check_line_ends(pred_path, pred)?;
    let mut scorer = CellScorer::new(opts.tagset.as_ref());
    let mut totals = TagTotals::default();
    let mut units: Vec<TagTotals> = Vec::new();
    // Tokens whose tags are outside the tag set, per side: how many, and the first (line, cell).
    let mut outside: [(usize, Option<(usize, &'a str)>); 2] = [(0, None), (0, None)];
    let mut add = |totals: &mut TagTotals, s: Seg<'a>| -> Result<()> {
        if s.gold_form != s.pred_form {
            return Err(Error::input(
                pred_path,
                s.pred_line,
                format!(
                    "token {:?} does not align with the gold {}:{} token {:?}: gold and run must have the same tokens",
                    s.pred_form,
                    gold_path.display(),
                    s.gold_line,
                    s.gold_form
                ),
            ));
        }
        match scorer.segment(s.gold_cell, s.pred_cell) {
            Ok(seg) => {
                totals.add(&seg);
                let (go, po) = scorer.last_outside();
                for (side, (out, line, cell)) in [
                    (go, s.gold_line, s.gold_cell),
                    (po, s.pred_line, s.pred_cell),
                ]
                .into_iter()
                .enumerate()
                {
                    if out {
                        outside[side].0 += 1;
                        outside[side].1.get_or_insert((line, cell));
                    }
                }
                Ok(())
            }
            Err((CellSide::Gold, e)) => Err(Error::input(gold_path, s.gold_line, e.to_string())),
            Err((CellSide::Pred, e)) => Err(Error::input(pred_path, s.pred_line, e.to_string())),
        }
    };
    let files = (gold_path, pred_path);
    match opts.format {
        TaggingFormat::Conllu => {
            if opts.column >= COLUMNS.len() {
                return Err(Error::usage(format!(
                    "--column: CoNLL-U has 10 columns, not {}",
                    opts.column + 1
                )));
            }
            let g = Conllu::parse(gold_path, gold)?;
            let p = Conllu::parse(pred_path, pred)?;
            if g.sentences.len() != p.sentences.len() {
                let keys = |c: &Conllu| -> Vec<Sentence> {
                    c.sentences
                        .iter()
                        .map(|s| Sentence {
                            key: c
                                .words_of(s)
                                .iter()
                                .map(|w| w.form())
                                .collect::<Vec<_>>()
                                .join(" "),
                            line: s.line,
                        })
                        .collect()
                };
                return Err(count_error(gold_path, pred_path, &keys(&g), &keys(&p)));
            }
            for (k, (gs, ps)) in g.sentences.iter().zip(&p.sentences).enumerate() {
                let (gw, pw) = (g.words_of(gs), p.words_of(ps));
                for (a, b) in gw.iter().zip(pw) {
                    add(
                        &mut totals,
                        Seg {
                            gold_form: a.form(),
                            gold_cell: a.cell(opts.column),
                            gold_line: a.line,
                            pred_form: b.form(),
                            pred_cell: b.cell(opts.column),
                            pred_line: b.line,
                        },
                    )?;
                }
                check_length(files, k, gw.len(), pw.len(), gs.line, ps.line)?;
                units.push(std::mem::take(&mut totals));
            }
        }
        TaggingFormat::Tsv => {
            if opts.column == 0 {
                return Err(Error::usage(
                    "--column: the first TSV cell is the token; tags are in column 2 or later",
                ));
            }
            let g = Tagged::parse(gold_path, gold, opts.column)?;
            let p = Tagged::parse(pred_path, pred, opts.column)?;
            if g.sentences.len() != p.sentences.len() {
                let keys = |t: &Tagged| -> Vec<Sentence> {
                    t.sentences
                        .iter()
                        .map(|s| Sentence {
                            key: t
                                .rows_of(s)
                                .iter()
                                .map(|w| w.token)
                                .collect::<Vec<_>>()
                                .join(" "),
                            line: s.line,
                        })
                        .collect()
                };
                return Err(count_error(gold_path, pred_path, &keys(&g), &keys(&p)));
            }
            for (k, (gs, ps)) in g.sentences.iter().zip(&p.sentences).enumerate() {
                let (gw, pw) = (g.rows_of(gs), p.rows_of(ps));
                for (a, b) in gw.iter().zip(pw) {
                    add(
                        &mut totals,
                        Seg {
                            gold_form: a.token,
                            gold_cell: a.tags,
                            gold_line: a.line,
                            pred_form: b.token,
                            pred_cell: b.tags,
                            pred_line: b.line,
                        },
                    )?;
                }
                check_length(files, k, gw.len(), pw.len(), gs.line, ps.line)?;
                units.push(std::mem::take(&mut totals));
            }
        }
    }
    let weighted = scorer.tags.has_weights();
    let mut warnings = Vec::new();
    let (values, listed) = scorer.tags.values_listed();
    // (A tag set whose categories list none of the values gets the one warning below.)
    let lists_none = values > 0 && listed == 0;
    let wrong_categories = |ts: &&Tagset| lists_none && !ts.categories.is_empty();
    if let Some(ts) = opts.tagset.as_ref().filter(|ts| !wrong_categories(ts)) {
        for ((n, first), path) in outside.iter().zip([gold_path, pred_path]) {
            if let Some((line, cell)) = first {
                let piece = cell
                    .split('|')
                    .find_map(|t| ts.outside(t).map(|o| (t, o)))
                    .map_or_else(String::new, |(t, o)| format!(": {o} of tag {t:?}"));
                warnings.push(format!(
                    "{}:{line}: {n} token(s) have tags outside the tag set, the first here{piece}; \
                     their parts of speech and values are scored as written (docs/tagging.md, \"Tagsets\")",
                    path.display()
                ));
            }
        }
    }
    if opts.tagset.is_some() && lists_none {
        warnings.push(format!(
            "the tagset lists none of the {values} values of the distinct tags of {} and {}: every value \
             is keyed by itself, not by its position or a category, so two tags agree on a value \
             wherever both have it (docs/tagging.md, \"Tags and components\"); check the tagset",
            gold_path.display(),
            pred_path.display()
        ));
    }
    Ok((units, weighted, warnings))
}

fn check_length(
    files: (&Path, &Path),
    k: usize,
    gold: usize,
    pred: usize,
    gold_line: usize,
    pred_line: usize,
) -> Result<()> {
    if gold == pred {
        return Ok(());
    }
    Err(Error::input(
        files.1,
        pred_line,
        format!(
            "sentence {} has {pred} tokens, the gold {}:{gold_line} has {gold}: gold and run must have the same tokens",
            k + 1,
            files.0.display()
        ),
    ))
}
