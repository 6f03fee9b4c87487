//! The breakdowns of a task's ranked runs side by side ([`BreakdownGrid`]), one grid per key:
//! the buckets as columns, the runs as rows in ranking order, each cell the run's F1 in the
//! bucket (muc: its F; the first score of a bucket table without either), the best of each bucket marked, and
//! each bucket's gold mentions. `leaderboard.tex` shows them; the page and the Markdown show
//! each run's full bucket tables in its drill-down instead.

use super::families::insight::breakdown_tables;
use crate::report::board::{counts_column, fixed3, BreakdownGrid, Cell, GridBucket, GridRow};
use crate::table::{Kind, Results, Table};

/// A ranked run of a grid: its rank, name and the results holding its breakdown tables (a
/// family task's ranked run, a HIPE campaign's run of one output).
pub(super) struct GridRun<'a> {
    pub rank: usize,
    pub system: &'a str,
    pub results: &'a Results,
}

/// The grids of a task's runs, keys in the order of the runs' tables.
pub(super) fn grids(runs: &[GridRun<'_>]) -> Vec<BreakdownGrid> {
    let mut keys: Vec<&str> = Vec::new();
    for run in runs {
        for (key, _) in breakdown_tables(run.results) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys.into_iter().map(|key| grid(runs, key)).collect()
}

/// The score a bucket table's cells show: `F1`, else `F` (the muc family's F-beta), else its
/// first score.
fn metric(t: &Table) -> Option<usize> {
    t.column("F1")
        .or_else(|| t.column("F"))
        .or_else(|| t.columns.iter().position(|c| c.kind == Kind::Ratio))
}

/// A bucket's gold in a run's table: its gold-side counts (`FN`, `MIS` and every `…-gold`
/// column: `TP-gold`; the fair family's `LE-gold`, `BE-gold`, `LBE-gold`; the muc family's
/// `COR-gold`, `INC-gold`, `PAR-gold`), each gold span (muc: each judged gold token) counted
/// once, in its bucket; `None` in a table without them.
fn gold(t: &Table, row: &crate::table::Row) -> Option<f64> {
    let cols: Vec<usize> = (t.columns.iter().enumerate())
        .filter(|(_, c)| c.name == "FN" || c.name == "MIS" || c.name.ends_with("-gold"))
        .map(|(i, _)| i)
        .collect();
    if cols.is_empty() {
        return None;
    }
    Some(
        cols.iter()
            .filter_map(|&i| row.values.get(i).and_then(|v| v.as_f64()))
            .sum(),
    )
}

fn grid(runs: &[GridRun<'_>], key: &str) -> BreakdownGrid {
    let tables: Vec<Option<&Table>> = runs
        .iter()
        .map(|run| {
            breakdown_tables(run.results)
                .into_iter()
                .find(|(k, _)| *k == key)
                .map(|(_, t)| t)
        })
        .collect();
    // Every run's buckets, merged in their order: a bucket new to the list goes after the
    // bucket that precedes it in its run's table.
    let mut buckets: Vec<String> = Vec::new();
    for t in tables.iter().flatten() {
        let mut at = 0;
        for row in &t.rows {
            let Some(b) = row.key.first() else { continue };
            match buckets.iter().position(|x| x == b) {
                Some(i) => at = i + 1,
                None => {
                    buckets.insert(at, b.clone());
                    at += 1;
                }
            }
        }
    }
    let name = tables
        .iter()
        .flatten()
        .find_map(|t| metric(t).map(|i| t.columns[i].name.clone()))
        .unwrap_or_default();
    // values[run][bucket]: the run's score in the bucket.
    let mut golds: Vec<Option<f64>> = vec![None; buckets.len()];
    let values: Vec<Vec<Option<f64>>> = tables
        .iter()
        .map(|t| {
            buckets
                .iter()
                .enumerate()
                .map(|(b, bucket)| {
                    let t = (*t)?;
                    let row = t.rows.iter().find(|r| r.key.first() == Some(bucket))?;
                    if golds[b].is_none() {
                        golds[b] = gold(t, row);
                    }
                    row.values.get(metric(t)?)?.as_f64()
                })
                .collect()
        })
        .collect();
    // The best of a bucket: the highest score, when not all are equal.
    let best: Vec<Option<f64>> = (0..buckets.len())
        .map(|b| {
            let vals = || values.iter().filter_map(|v| v[b]);
            match (vals().reduce(f64::min), vals().reduce(f64::max)) {
                (Some(lo), Some(hi)) if lo != hi => Some(hi),
                _ => None,
            }
        })
        .collect();
    let gold_texts = counts_column(&golds);
    BreakdownGrid {
        key: key.to_string(),
        metric: name,
        buckets: buckets
            .into_iter()
            .zip(gold_texts)
            .map(|(name, gold)| GridBucket { name, gold })
            .collect(),
        rows: runs
            .iter()
            .zip(&values)
            .map(|(run, vals)| GridRow {
                rank: run.rank,
                system: run.system.to_string(),
                cells: vals
                    .iter()
                    .zip(&best)
                    .map(|(v, b)| Cell {
                        text: fixed3(*v),
                        best: matches!((v, b), (Some(v), Some(b)) if v == b),
                    })
                    .collect(),
            })
            .collect(),
    }
}
