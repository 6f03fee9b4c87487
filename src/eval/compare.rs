//! `fairscore compare`: is run A better than run B on this gold, or could the difference be
//! chance? Both runs are scored as `score` scores them; their per-document counts (the same
//! gold documents, in the same order) are paired, and the difference A − B of the micro P, R
//! and F1 over all labels is tested per column and regime with the resampling core
//! ([`crate::metrics::resample`]): paired approximate randomization (the default) or paired
//! bootstrap for the p-value; the interval of the difference is always the paired-bootstrap
//! percentile interval. See `docs/statistics.md`.

use crate::corpus::Corpus;
use crate::error::{Error, Result};
use crate::eval::options::{Regime, ScoreOptions};
use crate::eval::score::{evaluate, sentence_series, ColumnResult, ScoreResult};
use crate::matching::SpanRegime;
use crate::metrics::docs::DocSeries;
use crate::metrics::resample::{ByMeasure, DocCounts, Paired, PairedTest, Resampler};
use crate::metrics::Evaluation;

/// A regime of a comparison: one of the four HIPE regimes, or fair evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareRegime {
    /// One of the four official counting regimes.
    Hipe(SpanRegime),
    /// Ortmann's fair counts (LE, BE, LBE as half FP and half FN).
    Fair,
    /// Fair counts under the `--weights` formula.
    Weighted,
}

impl CompareRegime {
    /// The default regimes: the four of the official JSON.
    pub const DEFAULT: [CompareRegime; 4] = [
        CompareRegime::Hipe(SpanRegime::Strict),
        CompareRegime::Hipe(SpanRegime::EntType),
        CompareRegime::Hipe(SpanRegime::Partial),
        CompareRegime::Hipe(SpanRegime::Exact),
    ];

    /// The JSON key: strict, ent_type, partial, exact, fair or weighted.
    pub fn name(self) -> &'static str {
        match self {
            CompareRegime::Hipe(r) => r.json_name(),
            CompareRegime::Fair => "fair",
            CompareRegime::Weighted => "weighted",
        }
    }

    /// Parses `--regimes strict,ent_type,partial,exact,fair,weighted` (`fuzzy` is
    /// `ent_type`), keeping the order given and dropping repeats.
    pub fn parse_list(s: &str) -> Result<Vec<CompareRegime>> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let r = match part {
                "strict" => CompareRegime::Hipe(SpanRegime::Strict),
                "ent_type" | "fuzzy" => CompareRegime::Hipe(SpanRegime::EntType),
                "partial" => CompareRegime::Hipe(SpanRegime::Partial),
                "exact" => CompareRegime::Hipe(SpanRegime::Exact),
                "fair" => CompareRegime::Fair,
                "weighted" => CompareRegime::Weighted,
                _ => {
                    return Err(Error::usage(format!(
                        "--regimes: unknown regime {part:?}; use strict, ent_type (fuzzy), partial, exact, fair, weighted"
                    )))
                }
            };
            if !out.contains(&r) {
                out.push(r);
            }
        }
        if out.is_empty() {
            return Err(Error::usage("--regimes: no regime given"));
        }
        Ok(out)
    }
}

/// How to compare.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareOptions {
    /// The significance test (the interval always comes from the paired bootstrap).
    pub test: PairedTest,
    /// Samples, seed and confidence level (of the interval of the difference).
    pub resampler: Resampler,
    /// Regimes, in the order of the outputs.
    pub regimes: Vec<CompareRegime>,
}

/// The comparison of one regime: micro P, R and F1 over all labels.
#[derive(Debug, Clone, PartialEq)]
pub struct RegimeComparison {
    /// The regime compared.
    pub regime: CompareRegime,
    /// Micro P, R and F1 over all labels.
    pub measures: ByMeasure<Paired>,
}

/// The comparisons of one column.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnComparison {
    /// The evaluated column.
    pub column: String,
    /// Number of paired units (documents, or sentences: see `unit`).
    pub documents: usize,
    /// The unit of resampling: `documents`, or `sentences` for a CoNLL file without
    /// document markers.
    pub unit: &'static str,
    /// One comparison per regime, in the order of the options.
    pub regimes: Vec<RegimeComparison>,
}

/// The typed result of `compare`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareResult {
    /// The options the comparison ran with.
    pub options: CompareOptions,
    /// The gold and the runs, as their paths were given (control characters escaped).
    pub gold: String,
    /// Run A as given.
    pub run_a: String,
    /// Run B as given.
    pub run_b: String,
    /// Columns in the order `score` evaluates them.
    pub columns: Vec<ColumnComparison>,
    /// Warnings of scoring run A, then of run B.
    pub warnings: Vec<String>,
}

/// The score options of both scorings: the all-data evaluation at the first n-best cutoff,
/// with the fair counts when a fair regime is compared.
fn scoring_options(opts: &ScoreOptions, copts: &CompareOptions) -> Result<ScoreOptions> {
    let mut o = opts.clone();
    o.bootstrap = None;
    o.errors = false;
    o.noise_levels.clear();
    o.time_periods.clear();
    o.n_best.truncate(1);
    if copts.regimes.contains(&CompareRegime::Fair) && !o.regimes.contains(&Regime::Fair) {
        o.regimes.push(Regime::Fair);
    }
    if copts.regimes.contains(&CompareRegime::Weighted) {
        if o.weights.is_none() {
            return Err(Error::usage("--regimes weighted needs --weights FORMULA"));
        }
        if !o.regimes.contains(&Regime::Weighted) {
            o.regimes.push(Regime::Weighted);
        }
    }
    Ok(o)
}

/// The per-document counts of one regime over all labels.
fn series(eval: &Evaluation, regime: CompareRegime) -> Option<&DocSeries> {
    match regime {
        CompareRegime::Hipe(r) => Some(&eval.all[r].docs),
        CompareRegime::Fair => eval.fair.as_ref().map(|f| &f.all.fair.docs),
        CompareRegime::Weighted => eval
            .fair
            .as_ref()
            .and_then(|f| f.all.weighted.as_ref())
            .map(|w| &w.docs),
    }
}

/// Tests A − B on paired per-document counts: the micro P, R and F1 of both runs, their
/// difference, its paired-bootstrap interval and the p-value of `test`.
pub fn compare_counts(
    a: &[DocCounts],
    b: &[DocCounts],
    test: PairedTest,
    resampler: &Resampler,
) -> Result<ByMeasure<Paired>> {
    resampler.micro_paired(test, a, b)
}

fn column_results(results: &[(usize, Vec<ColumnResult>)]) -> &[ColumnResult] {
    results.first().map_or(&[], |(_, cols)| cols.as_slice())
}

/// Scores runs `a` and `b` against `gold` with `opts` (as `score`, without noise levels,
/// periods or further n-best cutoffs) and compares them per column and regime.
pub fn compare(
    gold: &Corpus,
    a: &Corpus,
    b: &Corpus,
    opts: &ScoreOptions,
    copts: &CompareOptions,
) -> Result<CompareResult> {
    let o = scoring_options(opts, copts)?;
    // A CoNLL file without document markers is compared sentence by sentence (the micro
    // scores are the same; the units of resampling are the sentences).
    let unit = crate::eval::units::unit_name(gold, &o);
    // Each run is scored as it is (checked and aligned as `score` does), then, for a file of
    // one document, its per-sentence counts replace the per-document ones.
    let scored = |run: &Corpus| -> Result<ScoreResult> {
        let mut r = evaluate(gold, run, &o)?;
        sentence_series(gold, run, &o, &mut r.results)?;
        Ok(r)
    };
    let ra = scored(a)?;
    let rb = scored(b)?;
    let (cols_a, cols_b) = (column_results(&ra.results), column_results(&rb.results));
    let mut columns = Vec::new();
    for (ca, cb) in cols_a.iter().zip(cols_b) {
        if ca.column != cb.column {
            return Err(Error::usage(format!(
                "compare: column {} of run A is paired with column {} of run B",
                ca.column, cb.column
            )));
        }
        let mut regimes = Vec::new();
        let mut documents = 0;
        for &regime in &copts.regimes {
            let (Some(sa), Some(sb)) = (series(&ca.eval, regime), series(&cb.eval, regime)) else {
                return Err(Error::usage(format!(
                    "compare: no {} counts for column {}",
                    regime.name(),
                    ca.column
                )));
            };
            documents = sa.len();
            if documents < 2 {
                return Err(Error::usage(format!(
                    "compare: a paired test resamples {unit}, and {} has {documents}: at least two are needed",
                    crate::io::show_path(&gold.path)
                )));
            }
            let measures = compare_counts(&sa.dense(), &sb.dense(), copts.test, &copts.resampler)?;
            regimes.push(RegimeComparison { regime, measures });
        }
        columns.push(ColumnComparison {
            column: ca.column.clone(),
            documents,
            unit,
            regimes,
        });
    }
    let mut warnings = ra.warnings;
    warnings.extend(rb.warnings);
    Ok(CompareResult {
        options: copts.clone(),
        gold: crate::io::show_path(&gold.path),
        run_a: crate::io::show_path(&a.path),
        run_b: crate::io::show_path(&b.path),
        columns,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regimes_parse() {
        assert_eq!(
            CompareRegime::parse_list("fuzzy, strict,fair,strict").unwrap(),
            vec![
                CompareRegime::Hipe(SpanRegime::EntType),
                CompareRegime::Hipe(SpanRegime::Strict),
                CompareRegime::Fair
            ]
        );
        assert!(CompareRegime::parse_list("loose").is_err());
        assert!(CompareRegime::parse_list(",").is_err());
    }

    #[test]
    fn a_run_against_itself() {
        let docs: Vec<DocCounts> = (0..20)
            .map(|i| DocCounts::new(i as f64, (i % 3) as f64, (i % 5) as f64))
            .collect();
        for test in [PairedTest::Permutation, PairedTest::Bootstrap] {
            let c = compare_counts(&docs, &docs, test, &Resampler::new(500, 7)).unwrap();
            for (_, m) in c.iter() {
                assert_eq!(m.diff, 0.0);
                assert_eq!(m.p, 1.0);
                assert_eq!(
                    m.ci,
                    crate::metrics::resample::Interval { lo: 0.0, hi: 0.0 }
                );
            }
        }
    }
}
