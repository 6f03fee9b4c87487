//! How sure a leaderboard's order is (issue 14): with `bootstrap = N` in the campaign (or
//! `leaderboard --bootstrap N`), every ranked row (label `ALL`, micro, one Evaluation of one
//! ranking file) gets the percentile bootstrap interval of its F1 over documents, each run is
//! tested against the next run down and against the top run with the paired approximate
//! randomization test, and the runs whose difference to the top run is not significant at
//! 1 − confidence share first place. Everything resamples the per-document counts the scorer
//! kept ([`super::rows::ScoreRow::docs`]); nothing is scored again. See `docs/statistics.md`.
//!
//! The marks are written next to each ranking file as `<ranking>.ci.tsv` ([`ci_text`]); the
//! official ranking files are not touched.

use std::collections::HashMap;
use std::path::Path;

use indexmap::IndexMap;

use super::outcome::CampaignReport;
use super::ranking::Ranked;
use super::rows::{Aggregation, ScoreRow};
use crate::io::write_atomic;
use crate::metrics::resample::{micro, DocCounts, Interval, PairedTest, Resampler};
use crate::report::tsv::cell;
use crate::{Error, Result};

/// Header of every `.ci.tsv` file.
pub const CI_HEADER: &str = "System\tEvaluation\tF1\tF1_lo\tF1_hi\tp_next\tp_top\tshares_first";

/// The marks of one ranked row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowMark {
    /// Micro F1 of the summed per-document counts (the official F1, unrounded).
    pub f1: f64,
    /// Percentile bootstrap interval of F1 over documents.
    pub ci: Interval,
    /// p-value of the paired randomization test of F1 against the next row down (none for
    /// the last row).
    pub p_next: Option<f64>,
    /// p-value of the paired randomization test of F1 against the top row (1 for the top row).
    pub p_top: f64,
    /// The top row, or not significantly different from it (`p_top ≥ 1 − confidence`).
    pub shares_first: bool,
}

/// The marks of one table: the rows of one Evaluation of one ranking file, in ranking order.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkedTable {
    /// Index of the ranking file in [`CampaignReport::rankings`].
    pub file: usize,
    /// The Evaluation cell the rows share.
    pub evaluation: String,
    /// The rows and their marks, in ranking order.
    pub rows: Vec<(Ranked, RowMark)>,
}

/// The marks of a whole campaign (empty without bootstrap).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    /// The settings used (samples, seed, confidence), when marks were computed.
    pub settings: Option<Resampler>,
    /// Every marked table, in ranking-file and ranking order.
    pub tables: Vec<MarkedTable>,
    index: HashMap<(usize, Ranked), (usize, usize)>,
}

impl Marks {
    /// The marks of a row of ranking file `file`, if it has any.
    pub fn get(&self, file: usize, row: &Ranked) -> Option<&RowMark> {
        let &(t, r) = self.index.get(&(file, *row))?;
        Some(&self.tables.get(t)?.rows.get(r)?.1)
    }
}

/// The significance marks of runs in ranking order, for any family and for HIPE: each run's
/// p-value against the next run down (none for the last) and against the top run (1 for the
/// top; the second run's is the top's `p_next`, the paired tests being symmetric in their two
/// runs, bit for bit), and whether it shares first place (the top, or `p_top ≥ 1 −
/// confidence`). `p(a, b)` is the paired test of two runs; the tests run in parallel and the
/// marks do not depend on the thread count.
pub fn order_marks<T: Sync>(
    rows: &[T],
    confidence: f64,
    p: impl Fn(&T, &T) -> Result<f64> + Sync,
) -> Result<Vec<OrderMark>> {
    use rayon::prelude::*;
    let n = rows.len();
    let p_next: Vec<Option<f64>> = (0..n)
        .into_par_iter()
        .map(|i| (i + 1 < n).then(|| p(&rows[i], &rows[i + 1])).transpose())
        .collect::<Result<_>>()?;
    let p_top: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|i| match i {
            0 => Ok(1.0),
            1 => Ok(p_next[0].unwrap_or(1.0)),
            _ => p(&rows[i], &rows[0]),
        })
        .collect::<Result<_>>()?;
    let alpha = 1.0 - confidence;
    Ok((0..n)
        .map(|i| OrderMark {
            p_next: p_next[i],
            p_top: p_top[i],
            // The tolerance keeps p = 0.05 from being split by 1 − 0.95 = 0.050000000000000044.
            shares_first: i == 0 || p_top[i] >= alpha - 1e-12,
        })
        .collect())
}

/// The marks [`order_marks`] gives a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrderMark {
    /// p-value of the paired test against the next run down (none for the last).
    pub p_next: Option<f64>,
    /// p-value of the paired test against the top run (1 for the top run).
    pub p_top: f64,
    /// The top run, or not significantly different from it.
    pub shares_first: bool,
}

/// Marks of one table from the per-document counts of its rows, in ranking order (every
/// series over the same documents): [`order_marks`] of the paired randomization of micro F1,
/// with each row's F1 and its bootstrap interval.
pub fn table_marks(rows: &[Vec<DocCounts>], rs: &Resampler) -> Result<Vec<RowMark>> {
    let order = order_marks(rows, rs.confidence, |a, b| {
        Ok(rs.micro_p(PairedTest::Permutation, a, b)?.f1)
    })?;
    rows.iter()
        .zip(order)
        .map(|(docs, m)| {
            Ok(RowMark {
                f1: micro(&DocCounts::total(docs), 1.0).f1,
                ci: rs.micro_ci(docs)?.f1,
                p_next: m.p_next,
                p_top: m.p_top,
                shares_first: m.shares_first,
            })
        })
        .collect()
}

/// The marks of every ranked table of a campaign: per ranking file, its label-`ALL` micro
/// rows grouped by Evaluation (in ranking order). A table some row of which has no
/// per-document counts (a replayed table) gets no marks. Empty without `settings`.
pub fn compute(report: &CampaignReport, settings: Option<&Resampler>) -> Result<Marks> {
    let mut marks = Marks::default();
    let Some(b) = settings else {
        return Ok(marks);
    };
    marks.settings = Some(*b);
    for (fi, file) in report.rankings.iter().enumerate() {
        let mut tables: IndexMap<&str, Vec<(Ranked, &ScoreRow)>> = IndexMap::new();
        for r in &file.rows {
            let Some(sr) = report.ranked_row(r) else {
                continue;
            };
            if sr.is_all() && sr.key.aggregation == Aggregation::Micro {
                tables.entry(&sr.evaluation).or_default().push((*r, sr));
            }
        }
        for (evaluation, rows) in tables {
            let Some(series): Option<Vec<Vec<DocCounts>>> = rows
                .iter()
                .map(|(_, sr)| sr.docs.as_ref().map(|d| d.dense()))
                .collect()
            else {
                continue;
            };
            let table = table_marks(&series, b).map_err(|e| {
                Error::usage(format!(
                    "{}, {evaluation}: cannot resample: {e}",
                    file.file_name
                ))
            })?;
            let t = marks.tables.len();
            for (i, (r, _)) in rows.iter().enumerate() {
                marks.index.insert((fi, *r), (t, i));
            }
            marks.tables.push(MarkedTable {
                file: fi,
                evaluation: evaluation.to_string(),
                rows: rows.iter().map(|(r, _)| *r).zip(table).collect(),
            });
        }
    }
    Ok(marks)
}

/// `ranking-….ci.tsv` for `ranking-….tsv`.
pub fn ci_file_name(ranking_file: &str) -> String {
    let stem = ranking_file.strip_suffix(".tsv").unwrap_or(ranking_file);
    format!("{stem}.ci.tsv")
}

/// Is `name` a file [`write()`] writes?
pub fn is_ci_file(name: &str) -> bool {
    name.starts_with("ranking-") && name.ends_with("-all.ci.tsv")
}

/// The text of the `.ci.tsv` of ranking file `file`: one line per marked row, in ranking
/// order (System and Evaluation as in the ranking file; F1, its interval and the p-values
/// unrounded; `p_next` empty on a table's last row; `shares_first` `yes` or `no`). LF line ends.
pub fn ci_text(report: &CampaignReport, marks: &Marks, file: usize) -> String {
    let mut out = String::from(CI_HEADER);
    out.push('\n');
    for t in marks.tables.iter().filter(|t| t.file == file) {
        for (r, m) in &t.rows {
            let Some(sr) = report.ranked_row(r) else {
                continue;
            };
            let p_next = m.p_next.map(|p| p.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{p_next}\t{}\t{}\n",
                cell(&sr.system),
                cell(&sr.evaluation),
                m.f1,
                m.ci.lo,
                m.ci.hi,
                m.p_top,
                if m.shares_first { "yes" } else { "no" }
            ));
        }
    }
    out
}

/// Writes the `.ci.tsv` of every ranking file into `dir` (atomically) when there are marks,
/// and removes the `.ci.tsv` files of earlier invocations that this one did not write (all of
/// them without bootstrap). Returns the names written.
pub fn write(dir: &Path, report: &CampaignReport, marks: &Marks) -> Result<Vec<String>> {
    let mut written = Vec::new();
    if marks.settings.is_some() {
        for (fi, file) in report.rankings.iter().enumerate() {
            let name = ci_file_name(&file.file_name);
            write_atomic(&dir.join(&name), ci_text(report, marks, fi).as_bytes())?;
            written.push(name);
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if is_ci_file(&name)
                && !written.contains(&name)
                && entry.file_type().is_ok_and(|t| t.is_file())
            {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| {
                    Error::output(&path, format!("cannot remove a stale output: {e}"))
                })?;
            }
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(v: &[(f64, f64, f64)]) -> Vec<DocCounts> {
        v.iter().map(|&(a, b, c)| DocCounts::new(a, b, c)).collect()
    }

    #[test]
    fn duplicate_shares_first_and_empty_run_does_not() {
        let top: Vec<DocCounts> = (0..20)
            .map(|i| DocCounts::new(5.0 + (i % 3) as f64, 1.0, 1.0 + (i % 2) as f64))
            .collect();
        let empty = docs(&vec![(0.0, 0.0, 7.0); 20]);
        let b = Resampler::new(2000, 42);
        let m = table_marks(&[top.clone(), top.clone(), empty], &b).unwrap();
        assert_eq!(m[0].p_top, 1.0);
        assert_eq!(m[1].p_top, 1.0);
        assert_eq!(m[0].p_next, Some(1.0));
        assert!(m[0].shares_first && m[1].shares_first && !m[2].shares_first);
        assert!(m[2].p_top < 0.001, "{:?}", m[2]);
        assert_eq!(m[2].p_next, None);
        for r in &m {
            assert!(r.ci.contains(r.f1), "{r:?}");
        }
        assert_eq!(m[2].ci, Interval { lo: 0.0, hi: 0.0 });
        assert!(table_marks(&[top], &Resampler::new(0, 42)).is_err());
    }

    #[test]
    fn ci_names() {
        assert_eq!(
            ci_file_name("ranking-ajmc-de-coarse-micro-fuzzy-all.tsv"),
            "ranking-ajmc-de-coarse-micro-fuzzy-all.ci.tsv"
        );
        assert!(is_ci_file("ranking-ajmc-de-coarse-micro-fuzzy-all.ci.tsv"));
        assert!(!is_ci_file("ranking-ajmc-de-coarse-micro-fuzzy-all.tsv"));
    }
}
