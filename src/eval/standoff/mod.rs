//! Character-offset scoring of standoff documents (brat, doccano, Label Studio, Prodigy) in
//! the spans and fair families.
//!
//! Gold and run documents are paired by name (brat: the relative path; JSON: the `id`, else
//! the line) and must have the same text. Spans are scored over *positions*: the maximal runs
//! of non-whitespace characters of the text, cut again at every fragment boundary of either
//! side. A span covers the positions inside its fragments. Where every span starts and ends
//! on whitespace-token boundaries, the positions are the whitespace tokens, so the scores
//! equal those of the same spans as IOB tags over those tokens; a span boundary inside a
//! token cuts it, so such spans are still scored exactly (whitespace at a span's edges does
//! not count). Discontinuous spans: the spans family pairs spans by the range from their
//! first to their last position, and strict and exact correctness also require the same
//! positions (fragment by fragment); the fair family reads the span as its positions (the
//! fair algorithm's discontinuous span). A span given twice in a document (the same label over
//! the same characters) counts once, with a warning naming its file and line ([`Repeat`]).

mod align;
mod positions;
mod repeat;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::corpus::standoff::{DocsReader, StandoffDoc};
use crate::error::{snippet, Error, Result};
use crate::eval::fair::{evaluate_units, FairOptions, FairReport, Unit};
use crate::formats::{brat, jsonl, read_standoff, read_standoff_with, InputFormat, StandoffFormat};
use crate::matching::span_count::{count_fragments, Counts, Scratch};
use crate::matching::PerRegime;
use crate::spans::{LabeledSpan, Spans};

pub use align::{tokens_onto, Aligned};
use positions::covered;
pub use positions::{positions, Covered, Pos};
use repeat::repeats_of;
pub use repeat::Repeat;

/// How the gold and run of a standoff scoring are read.
#[derive(Debug, Clone, Default)]
pub struct StandoffRead {
    /// The standoff format of both sides (`None`: each side detected by content, and a side
    /// that is not standoff read as a token file aligned through the other side's texts).
    pub format: Option<StandoffFormat>,
    /// The scored column of a token side: CoNLL a name or 1-based number (default `TAG`), HIPE
    /// TSV a header name (default `NE-COARSE-LIT`).
    pub column: Option<String>,
    /// A reader of both sides replacing the above (a generative run placed on the gold's
    /// texts).
    pub docs: Option<DocsReader>,
}

/// Whether gold and run are scored as standoff files: `format` is a standoff format, or no
/// format is given and either file holds standoff annotation ([`is_standoff`]).
pub fn applies(gold: &Path, pred: &Path, format: Option<InputFormat>) -> bool {
    match format {
        Some(f) => f.standoff().is_some(),
        None => is_standoff(gold) || is_standoff(pred),
    }
}

/// Whether `path` holds standoff annotation: a directory of brat `.ann` files, an `.ann` file, a
/// file whose first line is a brat annotation, or a JSON export (an array of objects, or an
/// object a line with `text` and spans). Pipes and other non-regular files are never looked
/// into (they can be read once only).
pub fn is_standoff(path: &Path) -> bool {
    if path.is_dir() {
        // A brat directory: one with `.ann` files (any other is no input of any format).
        return brat::ann_files(path).is_ok_and(|v| !v.is_empty());
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if path.extension().is_some_and(|x| x == "ann") {
        return true;
    }
    // The head of the file decides (a large HIPE run is not read twice).
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') && !t.contains('\n') {
        // One JSON line longer than the head.
        return true;
    }
    if let Some(rest) = t.strip_prefix('[') {
        let rest = rest.trim_start();
        return rest.starts_with('{') || rest.starts_with(']');
    }
    brat::looks_like_ann(&text) || jsonl::detect(&text).is_some()
}

/// The paired documents of a gold and a run, in the gold's order, with a warning for each
/// span left out.
pub struct Pairs {
    /// (gold, run) documents with the same name and text, each span once.
    pub docs: Vec<(StandoffDoc, StandoffDoc)>,
    /// Per document pair, where a token side's tokens start and end (empty for two standoff
    /// sides): positions are cut there too.
    pub cuts: Vec<Vec<usize>>,
    /// Spans given twice in a document of either side, left out so that each counts once.
    pub repeats: Vec<Repeat>,
    /// Warnings (one line each).
    pub warnings: Vec<String>,
}

/// Reads both sides and pairs their documents by name; every gold document needs its run
/// document and the reverse, with the same text.
pub fn pair(gold: &Path, pred: &Path, read: &StandoffRead) -> Result<Pairs> {
    pair_sides(pred, read_sides(gold, pred, read)?)
}

/// The documents of gold and run as read, before they are paired.
pub struct Sides {
    /// The gold's documents, in its order.
    pub gold: Vec<StandoffDoc>,
    /// The run's documents.
    pub run: Vec<StandoffDoc>,
    /// Where a token side's tokens start and end, by document name.
    cuts: BTreeMap<String, Vec<usize>>,
    /// Warnings of the reading.
    pub warnings: Vec<String>,
}

/// Reads gold and run (a token side aligned through the other side's texts).
pub fn read_sides(gold: &Path, pred: &Path, read: &StandoffRead) -> Result<Sides> {
    read_sides_with(gold, pred, read, &mut Err)
}

/// [`read_sides`], the refused lines and documents of a brat run given to `on_error` (the
/// check reports them all and checks the rest).
pub fn read_sides_with(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
    on_error: brat::OnError<'_>,
) -> Result<Sides> {
    if let Some(r) = &read.docs {
        let (gold, run, warnings) = (r.0)(gold, pred)?;
        return Ok(Sides {
            gold,
            run,
            cuts: BTreeMap::new(),
            warnings,
        });
    }
    let column = read.column.as_deref();
    // Without a format, one side may be a token file (CoNLL, HIPE TSV): its tokens are
    // aligned through the other side's texts.
    let mut cuts: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut upper_case = false;
    // The documents of a token side; its tokens cut the positions.
    let mut take = |a: Aligned| {
        upper_case = a.upper_case;
        for (d, c) in a.docs.iter().zip(a.cuts) {
            cuts.insert(d.name.clone(), c);
        }
        a.docs
    };
    let (mut g, mut p_docs) = match read.format {
        Some(f) => (
            read_standoff(gold, Some(f))?,
            read_standoff_with(pred, Some(f), on_error)?,
        ),
        None if is_standoff(gold) => {
            let g = read_standoff(gold, None)?;
            let p = if is_standoff(pred) {
                read_standoff_with(pred, None, on_error)?
            } else {
                take(tokens_onto(pred, &g, column)?)
            };
            (g, p)
        }
        None => {
            let p = read_standoff_with(pred, None, on_error)?;
            (take(tokens_onto(gold, &p, column)?), p)
        }
    };
    // Against HIPE TSV, whose reader upper-cases labels, labels compare upper-cased.
    if upper_case {
        for d in g.iter_mut().chain(p_docs.iter_mut()) {
            for s in &mut d.spans {
                s.label = s.label.to_uppercase();
            }
        }
    }
    Ok(Sides {
        gold: g,
        run: p_docs,
        cuts,
        warnings: Vec::new(),
    })
}

/// Pairs the documents of both sides by name: every gold document needs its run document
/// and the reverse, with the same text (`pred` names the run in messages).
pub fn pair_sides(pred: &Path, sides: Sides) -> Result<Pairs> {
    let Sides {
        gold: g,
        run: p_docs,
        mut cuts,
        warnings: read_warnings,
    } = sides;
    let mut p: BTreeMap<String, StandoffDoc> = BTreeMap::new();
    for d in p_docs {
        if p.contains_key(d.id()) {
            return Err(Error::input(
                &d.path,
                0,
                format!("document {} is given twice", snippet(d.id())),
            ));
        }
        p.insert(d.id().to_string(), d);
    }
    let mut docs = Vec::with_capacity(g.len());
    let mut doc_cuts = Vec::with_capacity(g.len());
    let mut repeats = Vec::new();
    let mut seen = BTreeSet::new();
    for mut gd in g {
        let name = gd.id().to_string();
        if !seen.insert(name.clone()) {
            return Err(Error::input(
                &gd.path,
                0,
                format!("document {} is given twice", snippet(&name)),
            ));
        }
        let Some(mut pd) = p.remove(&name) else {
            return Err(Error::input(
                pred,
                0,
                format!(
                    "the run has no document {} (the gold's {})",
                    snippet(&name),
                    gd.path.display()
                ),
            ));
        };
        if pd.text != gd.text {
            let at = gd
                .text
                .chars()
                .zip(pd.text.chars())
                .take_while(|(a, b)| a == b)
                .count();
            return Err(Error::input(
                &pd.path,
                0,
                format!(
                    "document {}: the run's text differs from the gold's ({}) from character {at}",
                    snippet(&name),
                    gd.path.display()
                ),
            ));
        }
        repeats_of(&mut gd, false, &mut repeats);
        repeats_of(&mut pd, true, &mut repeats);
        docs.push((gd, pd));
        doc_cuts.push(cuts.remove(&name).unwrap_or_default());
    }
    if let Some((name, d)) = p.into_iter().next() {
        return Err(Error::input(
            &d.path,
            0,
            format!("document {} of the run is not in the gold", snippet(&name)),
        ));
    }
    let mut warnings = read_warnings;
    warnings.extend(repeats.iter().map(Repeat::warning));
    Ok(Pairs {
        docs,
        cuts: doc_cuts,
        warnings,
        repeats,
    })
}

/// A span over positions: label, covered positions, file line.
pub type PosSpan<'a> = (&'a str, Covered, usize);

/// The spans of one side over `pos`, by first position, then last, then label; spans that
/// cover no position (empty, or only whitespace) are left out with a warning.
pub fn on_positions<'a>(
    doc: &'a StandoffDoc,
    pos: &[Pos],
    warnings: &mut Vec<String>,
) -> Vec<PosSpan<'a>> {
    let mut out = Vec::with_capacity(doc.spans.len());
    for s in &doc.spans {
        let Some(c) = covered(s, pos) else {
            warnings.push(format!(
                "{}:{}: span {} ({}) covers no character but whitespace: not scored",
                doc.path.display(),
                s.line,
                snippet(&s.id),
                snippet(&s.label)
            ));
            continue;
        };
        out.push((s.label.as_str(), c, s.line));
    }
    out.sort_by(|a, b| {
        let key = |x: &PosSpan| (x.1.first(), x.1.last());
        key(a).cmp(&key(b)).then_with(|| a.0.cmp(b.0))
    });
    out
}

/// The spans of one side over the range from their first to their last position; each
/// pushed with one label, so its [`crate::spans::Span::key`] is its index in `v`.
fn build<'a>(v: &[PosSpan<'a>]) -> Spans<'a> {
    let mut spans = Spans::default();
    for (label, c, _) in v {
        spans.push_labeled(c.first(), c.last(), label);
    }
    spans
}

/// The counts of the four span regimes of one document: over all labels and per label.
#[derive(Debug, Clone, Default)]
pub struct DocCounts {
    /// Over all labels.
    pub all: PerRegime<Counts>,
    /// Per label (labels never touched in the document are absent).
    pub per_label: BTreeMap<String, PerRegime<Counts>>,
}

/// Span-regime counts of standoff documents, one entry per document.
pub struct SpanCounts {
    /// Every label of gold and run, sorted.
    pub labels: Vec<String>,
    /// Per document, in the gold's order.
    pub docs: Vec<DocCounts>,
    /// Warnings (one line each).
    pub warnings: Vec<String>,
}

/// Counts gold against run in the four regimes of the spans family, document by document.
pub fn span_counts(gold: &Path, pred: &Path, read: &StandoffRead) -> Result<SpanCounts> {
    let Pairs {
        mut docs,
        cuts,
        mut warnings,
        ..
    } = pair(gold, pred, read)?;
    drop_run_texts(&mut docs);
    let tags: BTreeSet<String> = docs
        .iter()
        .flat_map(|(g, p)| g.spans.iter().chain(&p.spans))
        .map(|s| s.label.clone())
        .collect();
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(docs.len());
    // Each pair is dropped once counted.
    for ((g, p), cuts) in docs.into_iter().zip(&cuts) {
        let pos = positions(&g.text, &g.spans, &p.spans, cuts);
        let gs = on_positions(&g, &pos, &mut warnings);
        let ps = on_positions(&p, &pos, &mut warnings);
        let (gspans, pspans) = (build(&gs), build(&ps));
        // Same range: correct in strict and exact only with the same positions.
        let same = |g: &crate::spans::Span, p: &crate::spans::Span| match (
            gs.get(g.key() as usize),
            ps.get(p.key() as usize),
        ) {
            (Some(x), Some(y)) => x.1 == y.1,
            _ => false,
        };
        let uc = count_fragments(&gspans, &pspans, &tags, same, &mut scratch);
        out.push(DocCounts {
            all: uc.all,
            per_label: uc
                .per_label
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        });
    }
    Ok(SpanCounts {
        labels: tags.into_iter().collect(),
        docs: out,
        warnings,
    })
}

/// Frees the run's copy of each paired document's text (pairing found it the gold's), for a
/// scoring that reads the gold's.
pub fn drop_run_texts(docs: &mut [(StandoffDoc, StandoffDoc)]) {
    for (_, p) in docs {
        p.text = String::new();
    }
}

/// Whether the fair family reads gold and run as standoff files ([`fair_report`]): a standoff format is given,
/// or no format is and either file holds standoff annotation.
pub fn fair_applies(gold: &Path, pred: &Path, opts: &FairOptions) -> bool {
    opts.read.standoff.is_some()
        || opts.read.docs.is_some()
        || (opts.read.format.is_none() && (is_standoff(gold) || is_standoff(pred)))
}

/// The fair evaluation of standoff documents: one unit per document, the positions as its
/// tokens.
pub fn fair_report(gold: &Path, pred: &Path, opts: &FairOptions) -> Result<FairReport> {
    if opts.read.ignore_punct {
        return Err(Error::usage(
            "ignore-punct: not available for standoff files (brat, doccano, Label Studio, Prodigy)",
        ));
    }
    if opts.read.columns.len() > 1 {
        return Err(Error::usage(
            "column: standoff files have one annotation level; give one column for the token side",
        ));
    }
    // The fair family's columns are HIPE columns, NE-COARSE-LIT unless given; a CoNLL side
    // is then read by its tag column.
    let default = crate::eval::fair::ReadOptions::default().columns;
    let read = StandoffRead {
        docs: opts.read.docs.clone(),
        format: opts.read.standoff,
        column: (opts.read.columns != default)
            .then(|| opts.read.columns.first().cloned())
            .flatten(),
    };
    let Pairs {
        mut docs,
        cuts,
        mut warnings,
        ..
    } = pair(gold, pred, &read)?;
    drop_run_texts(&mut docs);
    let mut t_units = Vec::with_capacity(docs.len());
    let mut s_units = Vec::with_capacity(docs.len());
    // Each pair is dropped once its units are made, its text moved into them.
    for ((mut g, p), cuts) in docs.into_iter().zip(&cuts) {
        let pos = positions(&g.text, &g.spans, &p.spans, cuts);
        let text = std::mem::take(&mut g.text);
        let chars = std::sync::Arc::new(crate::eval::fair::CharText::new(text, pos));
        for (doc, units) in [(&g, &mut t_units), (&p, &mut s_units)] {
            let v = on_positions(doc, &chars.offsets, &mut warnings);
            let mut spans = Vec::with_capacity(v.len());
            let mut lines = Vec::with_capacity(v.len());
            for (label, c, line) in v {
                let span = LabeledSpan::new(label, c.first() + 1, c.last() + 1);
                spans.push(match c {
                    Covered::One(_) => span,
                    Covered::Many(_) => span.with_tokens(c.iter().map(|x| x + 1)),
                });
                lines.push(line);
            }
            units.push(Unit {
                id: doc.id().to_string(),
                line: 0,
                spans,
                span_lines: lines,
                // The listing reads spans from the text (`chars`), not from token forms.
                tokens: None,
                chars: Some(chars.clone()),
            });
        }
    }
    let mut report = evaluate_units(gold, t_units, pred, s_units, opts)?;
    warnings.append(&mut report.warnings);
    report.warnings = warnings;
    Ok(report)
}
