//! `fairscore muc`: MUC-7 token-by-token evaluation of a NERC run (the vendor guide in
//! `../shared/seeds/004_…`, Appendix B). Entities are read as `score` reads them (HIPE TSV or
//! CoNLL, IOB/IOBES); every token inside a gold or a run entity is judged
//! ([`crate::matching::muc`]) and counted per unit and type; the muc family
//! (`crate::family`) turns the counts into P = (correct + partial/2) / actual,
//! R = (correct + partial/2) / possible and F-beta. See `docs/muc.md`.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::judge::{judge, Judgement, MucCounts, Scratch};
use crate::corpus::{align, Corpus, ReadOptions};
use crate::error::{Error, Result};
use crate::family::breakdown::muc::{MucSpans, UnitSpans};
use crate::formats::Format;
use crate::hipe::{Edition, Task};
use crate::spans::{self, Spans};

/// How `fairscore muc` reads and scores.
#[derive(Debug, Clone, PartialEq)]
pub struct MucOptions {
    /// Input format of both files: [`Format::Hipe`] or [`Format::Conll`].
    pub format: Format,
    /// The tag column (default: `NE-COARSE-LIT` for HIPE, `TAG` for CoNLL); for CoNLL also a
    /// 1-based column number.
    pub column: Option<String>,
    /// Keep every judged token ([`MucResult::judgements`]).
    pub judgements: bool,
}

impl Default for MucOptions {
    fn default() -> Self {
        MucOptions {
            format: Format::Hipe,
            column: None,
            judgements: false,
        }
    }
}

/// One judged token, for the `--judgements` listing.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedToken {
    /// The document: its id, or `#LINE` of its first token when it has none.
    pub document: String,
    /// 1-based line of the token in the gold file.
    pub line: usize,
    /// The gold token text.
    pub token: String,
    /// The gold tag cell.
    pub gold_tag: String,
    /// The run tag cell.
    pub run_tag: String,
    /// The judgement.
    pub judgement: Judgement,
    /// The type it counts for.
    pub counted_type: String,
}

/// The judgements of one MUC evaluation, as counts per unit and type (the muc family scores
/// them: `crate::family`).
#[derive(Debug, Clone, PartialEq)]
pub struct MucResult {
    /// The column scored.
    pub column: String,
    /// Documents compared.
    pub documents: usize,
    /// Tokens compared.
    pub tokens: usize,
    /// Every judged token in file order, when asked for.
    pub judgements: Option<Vec<JudgedToken>>,
    /// Warnings about the run (one line each, naming file and line), as `score` gives them.
    pub warnings: Vec<String>,
    /// Counts per type of every resampling unit, in file order: documents, or sentences when
    /// the gold is a single CoNLL document.
    pub units: Vec<BTreeMap<String, MucCounts>>,
    /// Whether [`MucResult::units`] are sentences.
    pub units_are_sentences: bool,
    /// The gold's entities per type of every unit of [`MucResult::units`].
    pub gold_entities: Vec<BTreeMap<String, u64>>,
}

/// Reads both files and evaluates.
pub fn evaluate_files(gold: &Path, pred: &Path, opts: &MucOptions) -> Result<MucResult> {
    evaluate_files_with(gold, pred, opts, &ReadOptions::default())
}

/// Reads both files, the run with `run_read` (its tag changes), and evaluates.
pub fn evaluate_files_with(
    gold: &Path,
    pred: &Path,
    opts: &MucOptions,
    run_read: &ReadOptions,
) -> Result<MucResult> {
    let (g, p) = read_both(gold, pred, opts.format, run_read)?;
    evaluate(&g, &p, opts)
}

/// Reads the gold and the run (with `run_read`, its tag changes) in `format`, HIPE TSV or
/// CoNLL (a usage error for another).
pub(super) fn read_both(
    gold: &Path,
    pred: &Path,
    format: Format,
    run_read: &ReadOptions,
) -> Result<(Corpus, Corpus)> {
    if !matches!(format, Format::Hipe | Format::Conll) {
        return Err(Error::usage(format!(
            "--format {}: muc reads hipe or conll",
            format.as_str()
        )));
    }
    let g = crate::formats::read(gold, Some(format), &ReadOptions::default())?;
    let p = crate::formats::read(pred, Some(format), run_read)?;
    Ok((g, p))
}

/// The scored column's name.
pub(super) fn column_name(gold: &Corpus, opts: &MucOptions) -> Result<String> {
    match (&opts.column, opts.format) {
        (None, Format::Conll) => Ok("TAG".to_string()),
        (None, _) => Ok(Edition::Hipe2020
            .columns(Task::NercCoarse)
            .first()
            .map_or("NE-COARSE-LIT", |c| c.0)
            .to_string()),
        (Some(c), Format::Conll) => match c.parse::<usize>() {
            Ok(n) => n
                .checked_sub(1)
                .and_then(|i| gold.columns.get(i))
                .cloned()
                .ok_or_else(|| {
                    Error::usage(format!(
                        "--column {n}: the file has {} columns ({})",
                        gold.columns.len(),
                        gold.columns.join(", ")
                    ))
                }),
            Err(_) => Ok(c.clone()),
        },
        (Some(c), _) => Ok(c.clone()),
    }
}

fn column_index(f: &Corpus, name: &str) -> Result<usize> {
    f.column(name).ok_or_else(|| {
        Error::input(
            &f.path,
            1,
            format!(
                "no column {name} (the columns are {}); choose one with --column",
                f.columns.join(", ")
            ),
        )
    })
}

/// Evaluates a parsed run against the parsed gold.
pub fn evaluate(gold: &Corpus, pred: &Corpus, opts: &MucOptions) -> Result<MucResult> {
    evaluate_gathering(gold, pred, opts, None)
}

/// The breakdown's slot of a judgement (`crate::family::breakdown::muc::Slot`).
pub(super) fn slot(j: Judgement) -> usize {
    match j {
        Judgement::Correct => 0,
        Judgement::Incorrect => 1,
        Judgement::Partial => 2,
        Judgement::Missing | Judgement::Spurious => 3,
    }
}

/// [`evaluate`], gathering the entities of gold and run and their judged tokens into `spans`
/// when given (for a breakdown).
pub(super) fn evaluate_gathering(
    gold: &Corpus,
    pred: &Corpus,
    opts: &MucOptions,
    mut spans: Option<&mut MucSpans<'_>>,
) -> Result<MucResult> {
    let column = column_name(gold, opts)?;
    let gcol = column_index(gold, &column)?;
    let pcol = column_index(pred, &column)?;
    if opts.format == Format::Hipe && !column.starts_with("NE-") {
        let tags: Vec<&str> = gold
            .columns
            .iter()
            .map(String::as_str)
            .filter(|c| c.starts_with("NE-"))
            .collect();
        return Err(Error::usage(format!(
            "--column {}: muc judges entity tags, expected a HIPE NE- column ({})",
            crate::error::snippet(&column),
            if tags.is_empty() {
                "the gold has none".to_string()
            } else {
                tags.join(", ")
            }
        )));
    }
    // One-level IOB/IOBES tags, as `score --format conll` demands (the HIPE reader has
    // upper-cased the cells and read IOBES as IOB already).
    crate::formats::conll::check_iob(gold, gcol)?;
    crate::formats::conll::check_iob(pred, pcol)?;
    let al = align(gold, pred)?;
    let warnings = al.scoring_warnings_in(pred, "they are judged by position", Some(&[&column]));
    // CoNLL sentences bound entities (as `score --format conll`); a HIPE document is one
    // sequence (the official `merge_lines`).
    let by_sentence = opts.format == Format::Conll;
    let mut listing = opts.judgements.then(Vec::new);
    let (mut gsp, mut psp) = (Spans::default(), Spans::default());
    let mut scratch = Scratch::default();
    let mut gseq: Vec<usize> = Vec::new();
    let mut pseq: Vec<usize> = Vec::new();
    let mut tokens = 0usize;
    let sentence_units = by_sentence && gold.docs.len() == 1;
    let mut unit_counts: Vec<BTreeMap<String, MucCounts>> = Vec::new();
    let mut cur: HashMap<&str, MucCounts> = HashMap::new();
    let mut entities: Vec<BTreeMap<String, u64>> = Vec::new();
    let mut cur_entities: BTreeMap<String, u64> = BTreeMap::new();
    for (gd, pd) in gold.docs.iter().zip(&al.pred_docs) {
        let document = gd
            .id
            .clone()
            .unwrap_or_else(|| format!("#{}", gd.first_line));
        let mut units: Vec<(usize, usize, usize)> = Vec::new();
        if by_sentence {
            let (mut g, mut p) = (gd.start, pd.start);
            for &n in &gd.segments {
                units.push((g, p, n));
                g += n;
                p += n;
            }
        } else {
            units.push((gd.start, pd.start, gd.len()));
        }
        if let Some(s) = spans.as_deref_mut() {
            s.document(gold, gd);
        }
        for (g0, p0, n) in units {
            gseq.clear();
            gseq.extend(g0..g0 + n);
            pseq.clear();
            pseq.extend(p0..p0 + n);
            tokens += n;
            spans::entities(gold, gcol, &gseq, &mut gsp);
            spans::entities(pred, pcol, &pseq, &mut psp);
            for x in &gsp.spans {
                let l = gsp.label(x);
                if !l.is_empty() {
                    match cur_entities.get_mut(l) {
                        Some(n) => *n += 1,
                        None => {
                            cur_entities.insert(l.to_string(), 1);
                        }
                    }
                }
            }
            if let Some(s) = spans.as_deref_mut() {
                // A sentence unit is named by its first line, as a file without documents is.
                let name = sentence_units.then(|| format!("#{}", gold.line(g0)));
                let u = UnitSpans {
                    unit: unit_counts.len(),
                    document: name.as_deref().unwrap_or(&document),
                    offset: g0 - gd.start,
                    gold: (gold, &gseq),
                    run: (pred, &pseq),
                };
                s.unit(&u, &gsp, &psp);
            }
            judge(&gsp, &psp, n, &mut scratch, |t| {
                cur.entry(t.counted_type()).or_default().add(t.judgement);
                if let Some(s) = spans.as_deref_mut() {
                    s.judged(t.gold_span, t.run_span, slot(t.judgement));
                }
                if let Some(out) = listing.as_mut() {
                    let (g, p) = (gseq[t.pos], pseq[t.pos]);
                    out.push(JudgedToken {
                        document: document.clone(),
                        line: gold.line(g),
                        token: gold.token_text(g).to_string(),
                        gold_tag: gold.cell(g, gcol).to_string(),
                        run_tag: pred.cell(p, pcol).to_string(),
                        judgement: t.judgement,
                        counted_type: t.counted_type().to_string(),
                    });
                }
            });
            if sentence_units {
                unit_counts.push(owned(&mut cur));
                entities.push(std::mem::take(&mut cur_entities));
            }
        }
        if !sentence_units {
            unit_counts.push(owned(&mut cur));
            entities.push(std::mem::take(&mut cur_entities));
        }
    }
    Ok(MucResult {
        column,
        documents: gold.docs.len(),
        tokens,
        judgements: listing,
        warnings,
        units: unit_counts,
        units_are_sentences: sentence_units,
        gold_entities: entities,
    })
}

/// The counts of one unit with owned type names; empties `cur`.
fn owned(cur: &mut HashMap<&str, MucCounts>) -> BTreeMap<String, MucCounts> {
    cur.drain().map(|(t, c)| (t.to_string(), c)).collect()
}

/// Header of the `--judgements` listing.
pub const JUDGEMENTS_HEADER: &str = "document\tline\ttoken\tgold\trun\tjudgement\ttype";

/// The `--judgements` TSV: a header, then one line per judged token in file order (only the
/// header when the result kept no judgements).
pub fn judgements_tsv(r: &MucResult) -> String {
    use std::fmt::Write as _;
    let cell = crate::escape::cell;
    let mut out = String::new();
    let _ = writeln!(out, "{JUDGEMENTS_HEADER}");
    for j in r.judgements.iter().flatten() {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            cell(&j.document),
            j.line,
            cell(&j.token),
            cell(&j.gold_tag),
            cell(&j.run_tag),
            j.judgement.as_str(),
            cell(&j.counted_type)
        );
    }
    out
}
