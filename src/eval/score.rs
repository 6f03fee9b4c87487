//! Scoring one run against the gold as the official HIPE scorer's `clef_evaluation.py`: the
//! evaluation loop over columns, n-best cutoffs, periods and noise levels, giving typed
//! results (the official layouts are written by [`crate::report::official`]).

use crate::corpus::{align, Alignment, Corpus, Date};
use crate::error::{Error, Result};
use crate::eval::options::{Regime, ScoreOptions};
use crate::hipe::Task;
use crate::matching::span_count::{self, Scratch};
use crate::matching::SpanRegime;
use crate::metrics::{Accumulator, Evaluation};
use crate::spans::{self, Spans};
use std::collections::BTreeSet;

pub use super::entities::Entities;
pub use super::listing::SpanRecord;
use super::listing::{fair_spans, push_span_records, ErrorContext};

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

/// The evaluated labels of a column (see `docs/metrics.md`); `hipe`: the files are HIPE TSV,
/// whose tag set takes the last `-` part of a tag as the official scorer does; other formats
/// take the entity type ([`spans::label_of`]).
pub fn evaluation_tags(
    gold: &Corpus,
    gcol: usize,
    pred: &Corpus,
    pcol: usize,
    task: Task,
    tagset: Option<&BTreeSet<String>>,
) -> BTreeSet<String> {
    let hipe = gold.format == crate::formats::Format::Hipe.as_str();
    let collect = |f: &Corpus, col: usize| -> BTreeSet<String> {
        let mut set: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut last = None;
        for t in 0..f.n_tokens() {
            let cell = f.cell(t, col);
            // Most cells are `O` or `_`, which are not labels: no comparison with the
            // previous cell, no lookup.
            if matches!(cell.as_bytes(), b"O" | b"_" | b"-") {
                continue;
            }
            // Most others repeat the previous one (inside entities).
            if last != Some(cell) {
                last = Some(cell);
                let tag = spans::label_of(cell, hipe);
                // Not labels: left out before hashing (most cells of a link column).
                if !matches!(tag, "_" | "-" | "O" | "") {
                    set.insert(tag);
                }
            }
        }
        set.into_iter().map(|t| t.to_string()).collect()
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
    /// The n-best cutoffs, each evaluated from the same spans (a single 1 for NERC).
    n_bests: &'w [usize],
    noise: Option<(f64, f64)>,
    time: Option<(Date, Date)>,
    merge_lines: bool,
    /// Count the fair regime too (with these weights for `weighted`).
    fair: Option<&'w Option<crate::matching::fair::Weights>>,
    /// How run spans are paired with gold spans.
    attribution: span_count::Attribution,
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

/// Scores one column of an aligned run, once per n-best cutoff of `params` (in that order).
/// The spans of a unit are built once, the run's with the largest cutoff's candidates, and
/// each cutoff counts them with its candidates cut to it: a span's extent never depends on
/// the cutoff, only its candidate list.
fn evaluate_column(
    gold: &Corpus,
    pred: &Corpus,
    al: &Alignment,
    spec: &ColumnSpec,
    params: &EvalParams,
    mut errors: Option<&mut Vec<SpanRecord>>,
    mut kept: Option<&mut Entities>,
) -> Result<Vec<Evaluation>> {
    use crate::matching::fair as ofair;
    // Never empty: `evaluate` passes `[1]` for NERC, `evaluate_one` its one cutoff.
    let cutoffs = params.n_bests;
    let max_n = cutoffs.iter().copied().max().unwrap_or(1);
    let mut accs: Vec<Accumulator> = cutoffs.iter().map(|_| Accumulator::default()).collect();
    let mut fair_accs: Vec<Option<crate::metrics::fair::FairAccumulator>> = cutoffs
        .iter()
        .map(|_| {
            params
                .fair
                .map(|w| crate::metrics::fair::FairAccumulator::new(w.clone()))
        })
        .collect();
    let mut gseq: Vec<usize> = Vec::new();
    let mut pseq: Vec<usize> = Vec::new();
    let mut gsp = Spans::default();
    let mut psp = Spans::default();
    let mut psp_cut = Spans::default();
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
        let mut docs: Vec<span_count::UnitCounts> = cutoffs
            .iter()
            .map(|_| span_count::UnitCounts::default())
            .collect();
        let mut doc_tallies: Vec<ofair::Tally> =
            cutoffs.iter().map(|_| ofair::Tally::new()).collect();
        for unit in units.drain(..) {
            // The unit's first position in its document, where its kept entities start.
            let offset = unit.0.start - gd.start;
            filter_unit(gold, unit, params, &mut gseq, &mut pseq)?;
            match (params.task, spec.ne) {
                (Task::Nel, Some((gne, pne))) => {
                    spans::links_ne_bounded(gold, spec.g, gne, &gseq, 1, true, &mut gsp);
                    spans::links_ne_bounded(pred, spec.p, pne, &pseq, max_n, false, &mut psp);
                }
                (Task::Nel, None) => {
                    spans::links_consecutive(gold, spec.g, &gseq, 1, &mut gsp);
                    spans::links_consecutive(pred, spec.p, &pseq, max_n, &mut psp);
                }
                _ => {
                    spans::entities(gold, spec.g, &gseq, &mut gsp);
                    spans::entities(pred, spec.p, &pseq, &mut psp);
                    if let Some(k) = kept.as_deref_mut() {
                        k.push_unit(&gsp, &psp, offset);
                    }
                }
            }
            for (k, &n) in cutoffs.iter().enumerate() {
                let psp_n = if n.max(1) >= max_n {
                    &psp
                } else {
                    psp_cut.cut_from(&psp, n.max(1));
                    &psp_cut
                };
                let unit = span_count::count_attributed(
                    &gsp,
                    psp_n,
                    &spec.tags,
                    |s, e| spans::same_text(gold, &gseq, pred, &pseq, s, e),
                    params.attribution,
                    &mut scratch,
                )
                .map_err(|e| Error::input(&gold.path, 0, e.to_string()))?;
                docs[k].add(&unit);
                // The error listing covers the first cutoff.
                let sink = if k == 0 { errors.as_deref_mut() } else { None };
                if fair_accs[k].is_some() || sink.is_some() {
                    let t = fair_spans(&gsp, &spec.tags, true);
                    let sys = fair_spans(psp_n, &spec.tags, false);
                    let outcome = ofair::evaluate(&t, &sys, ofair::Focus::Target);
                    doc_tallies[k].add(&t, &sys, &outcome);
                    if let Some(out) = sink {
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
        }
        if let Some(k) = kept.as_deref_mut() {
            k.end_doc();
        }
        for (k, doc) in docs.iter().enumerate() {
            accs[k].add_doc(doc);
            if let Some(fa) = fair_accs[k].as_mut() {
                fa.add_doc(&doc_tallies[k]);
            }
        }
    }
    accs.iter()
        .zip(fair_accs)
        .map(|(acc, fa)| {
            let mut eval = acc.finish();
            eval.fair = fa.map(|fa| fa.finish());
            if let Some(what) = eval.fair.as_ref().and_then(|f| f.overflow()) {
                return Err(Error::usage(format!(
                    "--weights: {what}; divide every weight by the same number (the scores do not change)"
                )));
            }
            Ok(eval)
        })
        .collect()
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
        n_bests: &[n_best],
        noise: None,
        time: None,
        merge_lines,
        fair: None,
        attribution: span_count::Attribution::Hipe,
    };
    evaluate_column(gold, pred, &al, &spec, &params, None, None)?
        .pop()
        .ok_or_else(|| Error::usage("no evaluation"))
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
    /// With [`ScoreOptions::keep_entities`], NERC: each column's entities as scored (a CoNLL
    /// document's sentence by sentence, as sentences bound entities), in column order; else
    /// empty.
    pub entities: Vec<Entities>,
}

/// For a CoNLL gold of one document ([`super::units::sentence_units`]): replaces the
/// per-document counts of `results` (a scoring of `gold` and `pred` with `opts`, which must
/// not resample) by per-sentence ones, the units of resampling. Otherwise does nothing.
pub(crate) fn sentence_series(
    gold: &Corpus,
    pred: &Corpus,
    opts: &ScoreOptions,
    results: &mut [(usize, Vec<ColumnResult>)],
) -> Result<()> {
    if let Some((g, p)) = super::units::sentence_units(gold, pred, opts) {
        let by_sentence = evaluate(&g, &p, opts)?;
        for ((_, cols), (_, ucols)) in results.iter_mut().zip(&by_sentence.results) {
            for (c, u) in cols.iter_mut().zip(ucols) {
                super::units::use_series_of(&mut c.eval, &u.eval);
            }
        }
    }
    Ok(())
}

/// Aligns and scores a parsed run against the parsed gold.
pub fn evaluate(gold: &Corpus, pred: &Corpus, opts: &ScoreOptions) -> Result<ScoreResult> {
    opts.validate()?;
    evaluate_aligned(gold, pred, opts, &align(gold, pred)?)
}

/// [`evaluate`] with the alignment of the run to the gold made already (`al`, of
/// [`align`]), for a caller that reads it too (the hipe family's breakdowns).
pub fn evaluate_aligned(
    gold: &Corpus,
    pred: &Corpus,
    opts: &ScoreOptions,
    al: &crate::corpus::Alignment,
) -> Result<ScoreResult> {
    opts.validate()?;
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
    // Warnings concern the columns scored (and the NE columns that bound NEL link objects).
    let nel_bounds = opts.task == Task::Nel && !opts.original_nel;
    let scored: Vec<&str> = columns
        .iter()
        .flat_map(|(n, ne)| [Some(n.as_str()), nel_bounds.then_some(*ne)])
        .flatten()
        .collect();
    let mut warnings = al.scoring_warnings_in(
        pred,
        "entities over them cannot be exact matches",
        Some(&scored),
    );

    // A file written for the other edition is scored with that edition's columns: say so.
    for f in [gold, pred] {
        match f.dialect.and_then(|d| crate::hipe::Edition::parse(d).ok()) {
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
    let keep = opts.keep_entities && opts.task != Task::Nel;
    let mut entities: Vec<Entities> = Vec::new();
    // Per cutoff, the evaluations in the official order: columns, then noise levels, then
    // periods. Each column, noise level and period is evaluated for every cutoff at once.
    let mut results: Vec<(usize, Vec<ColumnResult>)> =
        n_bests.iter().map(|&n| (n, Vec::new())).collect();
    for spec in &specs {
        for &noise in &noises {
            for &time in &times {
                let params = EvalParams {
                    task: opts.task,
                    n_bests: &n_bests,
                    noise,
                    time,
                    // CoNLL sentences bound entities (as conlleval); HIPE documents are one
                    // sequence (the official `merge_lines`).
                    merge_lines: !conll,
                    fair: wants_fair.then_some(&weights),
                    attribution: opts.attribution,
                };
                // The error listing covers the all-data evaluation at the first cutoff.
                let sink = if noise.is_none() && time.is_none() {
                    errors.as_mut()
                } else {
                    None
                };
                // The entities of the all-data evaluation.
                let kept = (keep && noise.is_none() && time.is_none()).then(|| {
                    entities.push(Entities::new(&spec.tags));
                    entities.last_mut()
                });
                let evals = evaluate_column(gold, pred, al, spec, &params, sink, kept.flatten())?;
                for ((_, cols), eval) in results.iter_mut().zip(evals) {
                    cols.push(ColumnResult {
                        column: spec.name.to_string(),
                        time: time_label(time),
                        noise: noise_label(noise),
                        eval,
                    });
                }
            }
        }
    }
    if let Some(resampler) = &opts.bootstrap {
        // A CoNLL file without document markers is resampled by sentences (its scores, the
        // document averages included, stay those of its one document).
        let mut o = opts.clone();
        o.bootstrap = None;
        o.errors = false;
        o.keep_entities = false;
        sentence_series(gold, pred, &o, &mut results)?;
        let units = results
            .first()
            .and_then(|(_, cols)| cols.first())
            .map_or(0, |c| c.eval.all[SpanRegime::Strict].docs.len());
        if units < 2 {
            warnings.push(format!(
                "{}: resampling needs at least two {}; the gold has {units}: no interval is given",
                gold.path.display(),
                super::units::unit_name(gold, opts)
            ));
        } else {
            let evals = results
                .iter_mut()
                .flat_map(|(_, cols)| cols.iter_mut().map(|c| &mut c.eval));
            crate::eval::bootstrap::add_intervals(evals, resampler)?;
        }
    }

    Ok(ScoreResult {
        results,
        warnings,
        errors,
        entities,
    })
}
