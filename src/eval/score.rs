//! Scoring one run against the gold as the official HIPE scorer's `clef_evaluation.py`: the
//! evaluation loop over columns, n-best cutoffs, periods and noise levels, giving typed
//! results (the official layouts are written by [`crate::report::official`]).

use crate::corpus::{align, Alignment, Corpus, Date};
use crate::error::{Error, Result};
use crate::eval::options::{Regime, ScoreOptions};
use crate::hipe::Task;
use crate::matching::fair::{ErrorType, FairOutcome, Span as FairSpan};
use crate::matching::hipe::{self, Scratch};
use crate::metrics::{Accumulator, Evaluation};
use crate::spans::{self, Spans};
use std::collections::BTreeSet;

/// The evaluation of one column for one period and noise level.
#[derive(Debug, Clone)]
pub struct ColumnResult {
    /// The scored column, e.g. `NE-COARSE-LIT`.
    pub column: String,
    /// The period: `TIME-ALL` or `TIME-<from year>-<to year>`.
    pub time: String,
    /// The noise level: `LED-ALL` or `LED-<lower>-<upper>` (bounds as Python prints floats).
    pub noise: String,
    /// The scores.
    pub eval: Evaluation,
}

fn noise_label(n: Option<(f64, f64)>) -> String {
    match n {
        None => "LED-ALL".to_string(),
        Some((lo, hi)) => format!(
            "LED-{}-{}",
            crate::metrics::py::py_float_repr(lo),
            crate::metrics::py::py_float_repr(hi)
        ),
    }
}

fn time_label(t: Option<(Date, Date)>) -> String {
    match t {
        None => "TIME-ALL".to_string(),
        Some((a, b)) => format!("TIME-{}-{}", a.year, b.year),
    }
}

/// The evaluated labels of a column (see `docs/metrics.md`).
pub fn evaluation_tags(
    gold: &Corpus,
    gcol: usize,
    pred: &Corpus,
    pcol: usize,
    task: Task,
    tagset: Option<&BTreeSet<String>>,
) -> BTreeSet<String> {
    let collect = |f: &Corpus, col: usize| -> BTreeSet<String> {
        let mut set: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut last = None;
        for t in 0..f.n_tokens() {
            let cell = f.cell(t, col);
            // Most cells repeat the previous one (`O`, `_`, inside entities).
            if last != Some(cell) {
                set.insert(spans::tag_of(cell));
                last = Some(cell);
            }
        }
        set.into_iter()
            .filter(|t| !matches!(*t, "_" | "-" | "O"))
            .map(|t| t.to_string())
            .collect()
    };
    let true_tags = collect(gold, gcol);
    let pred_tags = collect(pred, pcol);
    // The official CLI passes the tag set to NERC evaluations only: NEL always evaluates
    // gold ∪ run links.
    match (task, tagset) {
        (Task::Nel, _) => {
            let mut tags = true_tags;
            tags.extend(pred_tags);
            tags
        }
        (_, Some(ts)) => {
            let mut tags = true_tags;
            tags.extend(pred_tags.into_iter().filter(|t| ts.contains(t)));
            tags
        }
        (_, None) => true_tags,
    }
}

fn column_index(f: &Corpus, name: &str, other: &Corpus) -> Result<usize> {
    f.column(name).ok_or_else(|| {
        Error::input(
            &f.path,
            1,
            format!(
                "column {name} is missing from the header ({}); it is needed for this task and present in {}: {}",
                f.columns.join(", "),
                other.path.display(),
                if other.column(name).is_some() { "yes" } else { "no" }
            ),
        )
    })
}

struct ColumnSpec {
    name: String,
    g: usize,
    p: usize,
    /// NE columns bounding the links (NEL, unless --original_nel).
    ne: Option<(usize, usize)>,
    tags: BTreeSet<String>,
}

/// What varies between the evaluations of one column.
#[derive(Debug, Clone, Copy)]
struct EvalParams<'w> {
    task: Task,
    n_best: usize,
    noise: Option<(f64, f64)>,
    time: Option<(Date, Date)>,
    merge_lines: bool,
    /// Count the fair regime too (with these weights for `weighted`).
    fair: Option<&'w Option<crate::matching::fair::Weights>>,
}

/// The scored column of CoNLL input: `TAG` (the last) unless `--column` names another, by
/// name or 1-based number.
fn conll_column(gold: &Corpus, column: Option<&str>) -> Result<String> {
    let Some(c) = column else {
        return Ok("TAG".to_string());
    };
    if let Ok(n) = c.parse::<usize>() {
        return match n.checked_sub(1).and_then(|i| gold.columns.get(i)) {
            Some(name) => Ok(name.clone()),
            None => Err(Error::usage(format!(
                "--column {n}: the file has {} columns ({})",
                gold.columns.len(),
                gold.columns.join(", ")
            ))),
        };
    }
    Ok(c.to_string())
}

/// Keeps the positions of a unit's tokens that pass the noise and period filters (judged on
/// the gold tokens, as the official scorer).
fn filter_unit(
    gold: &Corpus,
    units: (std::ops::Range<usize>, std::ops::Range<usize>),
    params: &EvalParams,
    gseq: &mut Vec<usize>,
    pseq: &mut Vec<usize>,
) -> Result<()> {
    gseq.clear();
    pseq.clear();
    for (g, p) in units.0.zip(units.1) {
        if let Some((lo, hi)) = params.noise {
            let keep = match gold.led(g) {
                None => true,
                Some(l) => (lo <= l && l < hi) || (lo == l && l == hi),
            };
            if !keep {
                continue;
            }
        }
        if let Some((a, b)) = params.time {
            let d = gold.date(g).ok_or_else(|| {
                Error::input(
                    &gold.path,
                    gold.line(g),
                    "token without a document date, needed by --time-period; add a `# date = YYYY-MM-DD` (or `# hipe2022:date = …`) comment before it",
                )
            })?;
            if !(a <= d && d < b) {
                continue;
            }
        }
        gseq.push(g);
        pseq.push(p);
    }
    Ok(())
}

/// Scores one column of an aligned run.
fn evaluate_column(
    gold: &Corpus,
    pred: &Corpus,
    al: &Alignment,
    spec: &ColumnSpec,
    params: &EvalParams,
    mut errors: Option<&mut Vec<SpanRecord>>,
) -> Result<Evaluation> {
    use crate::matching::fair as ofair;
    let mut acc = Accumulator::default();
    let mut fair_acc = params
        .fair
        .map(|w| crate::metrics::fair::FairAccumulator::new(w.clone()));
    let mut gseq: Vec<usize> = Vec::new();
    let mut pseq: Vec<usize> = Vec::new();
    let mut gsp = Spans::default();
    let mut psp = Spans::default();
    let mut scratch = Scratch::default();
    let mut units: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for (gd, pd) in gold.docs.iter().zip(&al.pred_docs) {
        units.clear();
        if params.merge_lines {
            units.push((gd.range(), pd.range()));
        } else {
            let (mut g, mut p) = (gd.start, pd.start);
            for &n in &gd.segments {
                units.push((g..g + n, p..p + n));
                g += n;
                p += n;
            }
        }
        let mut doc = hipe::UnitCounts::default();
        let mut doc_tally = ofair::Tally::new();
        for unit in units.drain(..) {
            filter_unit(gold, unit, params, &mut gseq, &mut pseq)?;
            match (params.task, spec.ne) {
                (Task::Nel, Some((gne, pne))) => {
                    spans::links_ne_bounded(gold, spec.g, gne, &gseq, 1, true, &mut gsp);
                    spans::links_ne_bounded(
                        pred,
                        spec.p,
                        pne,
                        &pseq,
                        params.n_best,
                        false,
                        &mut psp,
                    );
                }
                (Task::Nel, None) => {
                    spans::links_consecutive(gold, spec.g, &gseq, 1, &mut gsp);
                    spans::links_consecutive(pred, spec.p, &pseq, params.n_best, &mut psp);
                }
                _ => {
                    spans::entities(gold, spec.g, &gseq, &mut gsp);
                    spans::entities(pred, spec.p, &pseq, &mut psp);
                }
            }
            let unit = hipe::count(
                &gsp,
                &psp,
                &spec.tags,
                |s, e| spans::same_text(gold, &gseq, pred, &pseq, s, e),
                &mut scratch,
            );
            doc.add(&unit);
            if fair_acc.is_some() || errors.is_some() {
                let t = fair_spans(&gsp, &spec.tags, true);
                let sys = fair_spans(&psp, &spec.tags, false);
                let outcome = ofair::evaluate(&t, &sys, ofair::Focus::Target);
                doc_tally.add(&t, &sys, &outcome);
                if let Some(out) = errors.as_deref_mut() {
                    let ctx = ErrorContext {
                        column: &spec.name,
                        doc: gd
                            .id
                            .clone()
                            .unwrap_or_else(|| format!("#{}", gd.first_line)),
                        gold,
                        pred,
                        gseq: &gseq,
                        pseq: &pseq,
                    };
                    push_span_records(out, &ctx, &t, &sys, &outcome);
                }
            }
        }
        acc.add_doc(&doc);
        if let Some(fa) = fair_acc.as_mut() {
            fa.add_doc(&doc_tally);
        }
    }
    let mut eval = acc.finish();
    eval.fair = fair_acc.map(|fa| fa.finish());
    Ok(eval)
}

/// The evaluated spans of one side as fair-evaluation spans (the system's first candidate as
/// its label), filtered as the official counting filters them.
fn fair_spans(sp: &Spans<'_>, tags: &BTreeSet<String>, gold: bool) -> Vec<FairSpan> {
    sp.spans
        .iter()
        .filter(|s| {
            if gold {
                tags.contains(sp.label(s))
            } else {
                sp.alts(s).iter().any(|a| tags.contains(*a))
            }
        })
        .map(|s| FairSpan::new(sp.label(s), s.start as usize, s.end as usize))
        .collect()
}

/// One gold or run span of the `--errors` listing: where it is, its text, its label, the labels
/// of the spans it was paired with, and its fair error type.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanRecord {
    /// The evaluated column.
    pub column: String,
    /// Document id (`#LINE` when the file gives none).
    pub document: String,
    /// `gold` or `run`.
    pub side: &'static str,
    /// File line of the span's first token.
    pub line: usize,
    /// First position (0-based) in the unit's filtered token sequence (the document for HIPE
    /// input, the sentence for CoNLL).
    pub start: usize,
    /// Last position (inclusive).
    pub end: usize,
    /// The span's tokens joined by spaces.
    pub text: String,
    /// The span's label.
    pub label: String,
    /// Labels of the spans it was paired with.
    pub partners: Vec<String>,
    /// Fair error type.
    pub error: ErrorType,
}

struct ErrorContext<'a> {
    column: &'a str,
    doc: String,
    gold: &'a Corpus,
    pred: &'a Corpus,
    gseq: &'a [usize],
    pseq: &'a [usize],
}

/// One record per gold and run span.
fn push_span_records(
    out: &mut Vec<SpanRecord>,
    ctx: &ErrorContext,
    target: &[FairSpan],
    system: &[FairSpan],
    outcome: &FairOutcome,
) {
    let mut record =
        |side: &'static str, file: &Corpus, seq: &[usize], sp: &FairSpan, partners, kind| {
            let text: Vec<&str> = (sp.begin..=sp.end)
                .map(|i| file.token_text(seq[i]))
                .collect();
            out.push(SpanRecord {
                column: ctx.column.to_string(),
                document: ctx.doc.clone(),
                side,
                line: file.line(seq[sp.begin]),
                start: sp.begin,
                end: sp.end,
                text: text.join(" "),
                label: sp.label.clone(),
                partners,
                error: kind,
            });
        };
    let (t_partners, s_partners) = outcome.partner_lists();
    for (i, sp) in target.iter().enumerate() {
        let partners = t_partners
            .get(i)
            .into_iter()
            .flatten()
            .filter_map(|&j| system.get(j))
            .map(|s| s.label.clone())
            .collect();
        record(
            "gold",
            ctx.gold,
            ctx.gseq,
            sp,
            partners,
            outcome.target_types[i],
        );
    }
    for (j, sp) in system.iter().enumerate() {
        let partners = s_partners
            .get(j)
            .into_iter()
            .flatten()
            .filter_map(|&i| target.get(i))
            .map(|t| t.label.clone())
            .collect();
        record(
            "run",
            ctx.pred,
            ctx.pseq,
            sp,
            partners,
            outcome.system_types[j],
        );
    }
}

/// Evaluates one column of a run with the official `Evaluator.evaluate` semantics, for tests
/// and tools that need the raw per-label results. `merge_lines == false` scores each segment
/// on its own (the official library default; the CLI merges).
pub fn evaluate_one(
    gold: &Corpus,
    pred: &Corpus,
    column: &str,
    task: Task,
    tagset: Option<&BTreeSet<String>>,
    n_best: usize,
    merge_lines: bool,
) -> Result<Evaluation> {
    let al = align(gold, pred)?;
    let g = column_index(gold, column, pred)?;
    let p = column_index(pred, column, gold)?;
    let spec = ColumnSpec {
        name: String::new(),
        g,
        p,
        ne: None,
        tags: evaluation_tags(gold, g, pred, p, task, tagset),
    };
    let params = EvalParams {
        task,
        n_best,
        noise: None,
        time: None,
        merge_lines,
        fair: None,
    };
    evaluate_column(gold, pred, &al, &spec, &params, None)
}

/// The typed result of one scoring: per n-best cutoff (a single `1` for NERC) the evaluations
/// of every column, period and noise level, what the official scorer would have silently
/// patched, and the per-span listing when asked for.
#[derive(Debug, Clone)]
pub struct ScoreResult {
    /// Results per n-best cutoff, in the order given.
    pub results: Vec<(usize, Vec<ColumnResult>)>,
    /// Warnings about the run (one line each, naming file and line).
    pub warnings: Vec<String>,
    /// The `--errors` listing, when [`ScoreOptions::errors`] is set.
    pub errors: Option<Vec<SpanRecord>>,
}

/// Aligns and scores a parsed run against the parsed gold.
pub fn evaluate(gold: &Corpus, pred: &Corpus, opts: &ScoreOptions) -> Result<ScoreResult> {
    let al = align(gold, pred)?;
    let mut warnings = al.scoring_warnings(pred, "entities over them cannot be exact matches");

    // A file written for the other edition is scored with that edition's columns: say so.
    for f in [gold, pred] {
        match f.comment_edition {
            Some(e) if e != opts.edition && opts.format == crate::formats::Format::Hipe => {
                warnings.push(format!(
                    "{}: this looks like a {} file (its comments are written for it), but it is scored as {}: add --hipe_edition {}",
                    f.path.display(),
                    e.name(),
                    opts.edition.name(),
                    e.name()
                ));
            }
            _ => {}
        }
    }
    let mut specs = Vec::new();
    let conll = opts.format == crate::formats::Format::Conll;
    let columns: Vec<(String, &str)> = if conll {
        vec![(conll_column(gold, opts.column.as_deref())?, "")]
    } else {
        opts.edition
            .columns(opts.task)
            .iter()
            .map(|&(n, ne)| (n.to_string(), ne))
            .collect()
    };
    for (name, ne) in columns {
        let name = name.as_str();
        let g = column_index(gold, name, pred)?;
        let p = column_index(pred, name, gold)?;
        let ne = if opts.task == Task::Nel && !opts.original_nel {
            Some((column_index(gold, ne, pred)?, column_index(pred, ne, gold)?))
        } else {
            None
        };
        if conll {
            crate::formats::conll::check_iob(gold, g)?;
            crate::formats::conll::check_iob(pred, p)?;
        }
        let tags = evaluation_tags(gold, g, pred, p, opts.task, opts.tagset.as_ref());
        if opts.task != Task::Nel {
            let known_by = match opts.tagset {
                Some(_) => "the gold nor the tag set",
                None => "the gold",
            };
            warnings.extend(super::labels::unknown_run_labels(
                pred,
                p,
                &al.pred_docs,
                &tags,
                name,
                known_by,
            ));
        }
        specs.push(ColumnSpec {
            name: name.to_string(),
            g,
            p,
            ne,
            tags,
        });
    }

    let noises: Vec<Option<(f64, f64)>> = std::iter::once(None)
        .chain(opts.noise_levels.iter().copied().map(Some))
        .collect();
    let times: Vec<Option<(Date, Date)>> = std::iter::once(None)
        .chain(opts.time_periods.iter().copied().map(Some))
        .collect();
    let n_bests: Vec<usize> = if opts.task == Task::Nel && !opts.n_best.is_empty() {
        opts.n_best.clone()
    } else {
        vec![1]
    };

    let wants_fair = opts
        .regimes
        .iter()
        .any(|r| matches!(r, Regime::Fair | Regime::Weighted));
    let weights = opts.weights.clone();
    let mut errors = opts.errors.then(Vec::new);
    let mut results = Vec::new();
    for &n in &n_bests {
        let mut cols = Vec::new();
        for spec in &specs {
            // Official loop order: noise levels outside, periods inside.
            for &noise in &noises {
                for &time in &times {
                    let params = EvalParams {
                        task: opts.task,
                        n_best: n,
                        noise,
                        time,
                        // CoNLL sentences bound entities (as conlleval); HIPE documents
                        // are one sequence (the official `merge_lines`).
                        merge_lines: !conll,
                        fair: wants_fair.then_some(&weights),
                    };
                    // The error listing covers the all-data evaluation at the first cutoff.
                    let sink = if noise.is_none() && time.is_none() && n == n_bests[0] {
                        errors.as_mut()
                    } else {
                        None
                    };
                    let eval = evaluate_column(gold, pred, &al, spec, &params, sink)?;
                    cols.push(ColumnResult {
                        column: spec.name.to_string(),
                        time: time_label(time),
                        noise: noise_label(noise),
                        eval,
                    });
                }
            }
        }
        results.push((n, cols));
    }
    if let Some(resampler) = &opts.bootstrap {
        let evals = results
            .iter_mut()
            .flat_map(|(_, cols)| cols.iter_mut().map(|c| &mut c.eval));
        crate::eval::bootstrap::add_intervals(evals, resampler)?;
    }

    Ok(ScoreResult {
        results,
        warnings,
        errors,
    })
}
