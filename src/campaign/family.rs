//! Rankings of any family's runs (written once against [`crate::family::Family`]): every run
//! scored on the same gold, ordered by a headline cell (by default the family's own), with
//! bootstrap intervals of that cell, paired randomization tests against the next and the top
//! run and the runs that share first place, as the HIPE rankings have them
//! (`crate::campaign::marks`). The ranking is a [`Results`] table, so every renderer writes
//! it.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::family::{
    headline_column, headline_value, results_of, scored, Family, Headline, Statistics,
};
use crate::metrics::resample::{PairedTest, Resampler, Units};
use crate::table::{Column, KeyKind, Kind, ResamplingInfo, Results, Table, Value};

/// One ranked run.
#[derive(Debug, Clone)]
pub struct RankedRun {
    /// 1-based rank; runs with equal values share a rank.
    pub rank: usize,
    /// The run's name.
    pub system: String,
    /// The headline value.
    pub value: f64,
    /// Its bootstrap interval, when resampled.
    pub ci: Option<[f64; 2]>,
    /// p-value of the paired test against the next run (none for the last).
    pub p_next: Option<f64>,
    /// p-value of the paired test against the top run (1 for the top run).
    pub p_top: Option<f64>,
    /// Whether the run is not significantly worse than the top run.
    pub shares_first: bool,
    /// The run's full results.
    pub results: Results,
}

/// A ranking of runs by one cell.
#[derive(Debug, Clone)]
pub struct FamilyRanking {
    /// The cell ranked by.
    pub headline: Headline,
    /// Its column as the family's table has it: its kind, and whether lower is better (an
    /// error count: the runs are then ranked from the lowest value up).
    pub column: Column,
    /// The runs, best first.
    pub runs: Vec<RankedRun>,
    /// The resampling, if any.
    pub resampling: Option<ResamplingInfo>,
}

/// Scores `runs` (name, file) against `gold` with `fam` and ranks them by `headline` (the
/// family's own when `None`), best first; ties keep name order and share a rank. With a
/// resampler, every run gets the bootstrap interval of the cell, paired randomization tests
/// against the next and the top run, and the "shares first place" mark (p ≥ 1 − confidence
/// against the top run).
pub fn rank_runs(
    fam: &dyn Family,
    gold: &Path,
    runs: &[(String, PathBuf)],
    headline: Option<Headline>,
    resampler: Option<&Resampler>,
) -> Result<FamilyRanking> {
    // The gold is parsed once for all runs (by families that read through `Inputs`).
    let shared = crate::family::Inputs::new();
    shared.expect(gold, runs.len());
    let stats: Vec<(String, Statistics)> = runs
        .par_iter()
        .map(|(name, path)| {
            let st = fam.statistics_in(gold, path, &shared);
            shared.done(gold);
            Ok((name.clone(), st?))
        })
        .collect::<Result<Vec<_>>>()?;
    rank_statistics(fam, stats, headline, resampler)
}

/// A run scored for a ranking: its name, its results and, when the ranking is resampled, its
/// statistics (the paired tests need them; without resampling they are dropped as soon as
/// the results are made, so a ranking holds no per-unit numbers).
#[derive(Debug)]
pub struct RunScores {
    /// The run's name.
    pub system: String,
    /// Its results (with intervals when resampled).
    pub results: Results,
    /// Its statistics, kept only when resampled.
    pub stats: Option<Statistics>,
}

impl RunScores {
    /// A run's results from its statistics, with intervals when resampled (the statistics
    /// then kept).
    pub fn new(
        fam: &dyn Family,
        system: String,
        stats: Statistics,
        resampler: Option<&Resampler>,
    ) -> Result<Self> {
        let results = scored(fam, &stats, resampler)?;
        Ok(RunScores {
            system,
            results,
            stats: resampler.map(|_| stats),
        })
    }
}

/// [`rank_runs`] on statistics already made (name, statistics of the run on the gold).
pub fn rank_statistics(
    fam: &dyn Family,
    stats: Vec<(String, Statistics)>,
    headline: Option<Headline>,
    resampler: Option<&Resampler>,
) -> Result<FamilyRanking> {
    let runs = stats
        .into_par_iter()
        .map(|(name, s)| RunScores::new(fam, name, s, resampler))
        .collect::<Result<Vec<_>>>()?;
    rank_scored(fam, runs, headline, resampler)
}

/// [`rank_runs`] on runs already scored ([`RunScores::new`], with the same resampler).
pub fn rank_scored(
    fam: &dyn Family,
    mut runs: Vec<RunScores>,
    headline: Option<Headline>,
    resampler: Option<&Resampler>,
) -> Result<FamilyRanking> {
    let headline = headline.unwrap_or_else(|| fam.headline());
    let column = match runs.first() {
        Some(r) => match headline_column(&r.results, &headline) {
            Some(c) => c.clone(),
            None => {
                return Err(Error::usage(format!(
                    "rank_by: the {} family has no column {} in table {}",
                    fam.name(),
                    headline.column,
                    headline.table
                )))
            }
        },
        None => Column::new(headline.column.clone(), Kind::Ratio),
    };
    let value = |r: &Results| headline_value(r, &headline);
    // Best first: the highest value, or the lowest of a column that counts errors.
    runs.sort_by(|a, b| {
        let (x, y) = (value(&a.results), value(&b.results));
        let best = if column.lower_is_better {
            x.total_cmp(&y)
        } else {
            y.total_cmp(&x)
        };
        best.then_with(|| a.system.cmp(&b.system))
    });
    let ci_of = |r: &Results| -> Option<[f64; 2]> {
        let key: Vec<&str> = headline.row.iter().map(String::as_str).collect();
        let t = r.table(&headline.table)?;
        let c = t.column(&headline.column)?;
        t.row(&key)?.ci.get(c).copied().flatten()
    };
    let marks = match resampler {
        None => None,
        Some(rs) => {
            let p = |a: &RunScores, b: &RunScores| -> Result<f64> {
                let (Some(a), Some(b)) = (&a.stats, &b.stats) else {
                    return Err(Error::usage(
                        "rank: a resampled ranking needs every run's statistics",
                    ));
                };
                // The ranked cell of a family table needs no bucket: the breakdowns are left
                // out (runs whose buckets differ pair unit by unit, and the tests do not
                // rebuild the buckets' tables); a cell of a breakdown table pairs the runs on
                // the union of their buckets, as `compare` does.
                let (a, b) = if headline.table.starts_with("breakdown:") {
                    crate::family::breakdown::same_buckets(a, b)?
                } else {
                    (
                        crate::family::breakdown::without(a),
                        crate::family::breakdown::without(b),
                    )
                };
                let (a, b) = crate::family::on_same_labels(&a, &b);
                let score = |sums: &[f64], o: &mut [f64]| {
                    o[0] = headline_value(&results_of(fam, &a, sums), &headline);
                };
                let ua = Units::new(&a.data, a.width())?;
                let ub = Units::new(&b.data, b.width())?;
                Ok(rs.paired_p(PairedTest::Permutation, ua, ub, 1, &score)?[0])
            };
            Some(super::marks::order_marks(&runs, rs.confidence, p)?)
        }
    };
    let mut out: Vec<RankedRun> = Vec::with_capacity(runs.len());
    for (i, run) in runs.into_iter().enumerate() {
        let v = value(&run.results);
        let rank = match out.last() {
            Some(prev) if prev.value == v => prev.rank,
            _ => i + 1,
        };
        let m = marks.as_ref().and_then(|m| m.get(i));
        out.push(RankedRun {
            rank,
            system: run.system,
            value: v,
            ci: ci_of(&run.results),
            p_next: m.and_then(|m| m.p_next),
            p_top: m.map(|m| m.p_top),
            shares_first: m.map_or(i == 0, |m| m.shares_first),
            results: run.results,
        });
    }
    Ok(FamilyRanking {
        headline,
        column,
        runs: out,
        resampling: resampler.map(|rs| ResamplingInfo {
            samples: rs.samples,
            seed: rs.seed,
            confidence: rs.confidence,
        }),
    })
}

/// The ranking as a result table (rank, system, the headline value with its interval, the
/// p-values and the shares-first mark), for any renderer.
pub fn ranking_results(fam: &dyn Family, r: &FamilyRanking) -> Results {
    let unit = r.runs.first().map(|x| (x.results.unit, x.results.units));
    let (unit, units) = unit.unwrap_or((crate::table::Unit::Document, 0));
    let mut out = Results::new(fam.name(), unit, units);
    out.resampling = r.resampling;
    out.notes.push(format!(
        "ranked by {} of {} {} (table {}){}",
        r.headline.column,
        r.headline.row.join(" "),
        fam.name(),
        r.headline.table,
        if r.column.lower_is_better {
            ", lowest first: it counts errors"
        } else {
            ""
        }
    ));
    if let Some(s) = r.resampling {
        out.notes.push(format!(
            "p_next, p_top: paired approximate randomization over {}s ({} resamples); first: not significantly worse than the top run at p < {:.2}",
            unit.name(),
            s.samples,
            1.0 - s.confidence
        ));
    }
    let mut cols = vec![Column::new("rank", Kind::Count), r.column.clone()];
    if r.resampling.is_some() {
        cols.push(Column::new("p_next", Kind::PValue));
        cols.push(Column::new("p_top", Kind::PValue));
        cols.push(Column::new("first", Kind::Count));
    }
    let mut t = Table::new("ranking", "Ranking", vec![KeyKind::System], cols);
    for run in &r.runs {
        let mut v = vec![Value::Count(run.rank as u64), ranked_value(r, run.value)];
        if r.resampling.is_some() {
            v.push(run.p_next.map_or(Value::Missing, Value::amount));
            v.push(run.p_top.map_or(Value::Missing, Value::amount));
            v.push(Value::Count(u64::from(run.shares_first)));
        }
        t.push(vec![run.system.clone()], v);
        if let Some(ci) = run.ci {
            if let Some(last) = t.rows.last_mut() {
                last.ci[1] = Some(ci);
            }
        }
    }
    out.tables.push(t);
    out
}

/// A ranked value as a cell of the ranked column's kind (a count stays a count).
pub fn ranked_value(r: &FamilyRanking, x: f64) -> Value {
    match r.column.kind {
        Kind::Count if x.is_finite() && x >= 0.0 => Value::Count(x as u64),
        Kind::Count | Kind::Amount => Value::amount(x),
        Kind::Ratio | Kind::PValue => Value::ratio(x),
    }
}
