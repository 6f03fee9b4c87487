//! The leaderboard view ([`crate::report::board::Board`]) of a campaign of family tasks: the
//! same page, Markdown and LaTeX as a HIPE campaign's, built from the rankings of
//! [`super::families`].
//!
//! One section per group of placeholder values (`dataset`, `lang`), one group per task in
//! it, one ranked table per group: the runs in ranking order with every score of the ranked
//! row (P, R, F1, accuracy, …) and then its counts (TP, FP, FN, a family's error types),
//! the best value of each score and error count marked. With resampling every row shows the
//! interval of the ranked score and its tests against the next and the top run. Each run's
//! drill-down shows the per-label rows of every table of its results keyed by label, and, for
//! the fair family, the label confusion as a heat map.

use indexmap::IndexMap;

use super::drill_part::{column_texts, part, shown};
use super::families::{insight, FamilyCampaign, FamilyReport, Pages, TaskRanking};
use super::family::RankedRun;
use crate::report::board::{
    fixed3, p_text, percent, slug, Board, Cell, Drill, FairView, GoldLabel, Group, Mark, Notice,
    RankingLink, Resampling, Row, Section, Summary, Table,
};
use crate::table::{Column, KeyKind, Kind, Results};

/// Builds the view of a family campaign; `pages`: the runs' `inspect` pages, linked from their
/// rows (a page that could not be made is a note of its section).
pub fn build(cfg: &FamilyCampaign, report: &FamilyReport, pages: &Pages) -> Board {
    let mut metrics: Vec<&str> = report
        .rankings
        .iter()
        .map(|r| r.ranking.headline.column.as_str())
        .collect();
    metrics.dedup();
    let metric = match metrics.as_slice() {
        [one] => one.to_string(),
        _ => "ranked score".to_string(),
    };
    let mut systems: Vec<&str> = report
        .rankings
        .iter()
        .flat_map(|r| r.ranking.runs.iter().map(|x| x.system.as_str()))
        .collect();
    systems.sort_unstable();
    systems.dedup();
    let mut board = Board {
        title: cfg.name.clone(),
        about: "each table ranks one task's runs as its ranking file does".to_string(),
        metric,
        summary: Summary {
            runs: systems.len(),
            jobs: report.rankings.iter().map(|r| r.ranking.runs.len()).sum(),
            failed: report.failed_runs(),
            failed_jobs: report.failed.len(),
            rejected: report.rejected.len(),
            not_evaluated: 0,
        },
        rankings: report
            .rankings
            .iter()
            .map(|r| RankingLink {
                file: format!("{}.tsv", r.stem()),
                rows: r.ranking.runs.len(),
            })
            .collect(),
        resampling: report.rankings.iter().find_map(|r| {
            let s = r.ranking.resampling?;
            Some(Resampling {
                samples: s.samples,
                seed: s.seed,
                level: super::board::short(s.confidence * 100.0),
                alpha: super::board::short(1.0 - s.confidence),
                units: units(report),
            })
        }),
        ..Board::default()
    };
    board.not_scored = report
        .failed
        .iter()
        .map(|f| Notice {
            subject: format!("{} (task {})", f.file, f.task),
            reason: format!("scoring failed: {}", f.reason),
        })
        .chain(report.rejected.iter().map(|(file, reason)| Notice {
            subject: file.clone(),
            reason: reason.clone(),
        }))
        .collect();
    let mut sections: IndexMap<(String, String), Section> = IndexMap::new();
    for r in &report.rankings {
        let lang = r
            .group
            .iter()
            .find(|(k, _)| k == "lang")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let rest: Vec<&str> = r
            .group
            .iter()
            .filter(|(k, _)| k != "lang")
            .map(|(_, v)| v.as_str())
            .collect();
        let dataset = match (rest.is_empty(), lang.is_empty()) {
            (false, _) => rest.join(" · "),
            (true, false) => "all data".to_string(),
            (true, true) => "results".to_string(),
        };
        let section = sections
            .entry((dataset.clone(), lang.clone()))
            .or_insert_with(|| Section {
                id: slug(&format!("s-{dataset}-{lang}")),
                dataset,
                lang,
                ..Section::default()
            });
        let group = group(r, &section.id, pages);
        section.groups.push(group);
        let stem = r.stem();
        for (_, system, why) in pages.failed.iter().filter(|(s, _, _)| *s == stem) {
            section
                .notes
                .push(format!("{}: no inspect page for {system}: {why}", r.task));
        }
    }
    for s in sections.values_mut() {
        let mut names: Vec<&str> = s
            .groups
            .iter()
            .flat_map(|g| g.tables.iter().flat_map(|t| &t.rows))
            .map(|r| r.system.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        s.runs = names.len();
    }
    board.sections = sections.into_values().collect();
    if report
        .rankings
        .iter()
        .any(|r| r.teams.values().any(|t| !t.is_empty()))
    {
        board.teams = super::board::team_cards(&board.sections);
    }
    board
}

/// What the rankings resample, plural: `documents`, or `documents or sentences` when tasks
/// differ (each table's signature names its own).
fn units(report: &FamilyReport) -> String {
    let mut names: Vec<&str> = Vec::new();
    for r in &report.rankings {
        let n = r.results.unit.name();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
        .iter()
        .map(|n| format!("{n}s"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// One task on one gold file: its ranked table and the drill-down of each run.
fn group(r: &TaskRanking, section: &str, pages: &Pages) -> Group {
    let h = &r.ranking.headline;
    let id = slug(&format!("{section}-{}", r.stem()));
    let head = r
        .ranking
        .runs
        .first()
        .and_then(|x| x.results.table(&h.table));
    let columns: Vec<Column> = head.map(|t| t.columns.clone()).unwrap_or_default();
    let shown = shown(&columns);
    let key: Vec<&str> = h.row.iter().map(String::as_str).collect();
    let values = |run: &RankedRun, i: usize| -> Option<f64> {
        run.results
            .table(&h.table)?
            .row(&key)?
            .values
            .get(i)?
            .as_f64()
    };
    let runs = &r.ranking.runs;
    let ranked_ratio = r.ranking.column.kind == Kind::Ratio;
    // A lowest error count is a merit only of a run that found something (a run that predicts
    // nothing has no false positives).
    let found: Vec<bool> = runs
        .iter()
        .map(|x| !ranked_ratio || r.ranking.column.lower_is_better || x.value > 0.0)
        .collect();
    let mut texts: Vec<Vec<String>> = Vec::new();
    let mut best: Vec<Option<f64>> = Vec::new();
    let mut raw: Vec<Vec<Option<f64>>> = Vec::new();
    for &i in &shown {
        let col = &columns[i];
        let vals: Vec<Option<f64>> = runs.iter().map(|x| values(x, i)).collect();
        texts.push(column_texts(col.kind, &vals));
        // Scores: the highest; error counts: the lowest; other counts are not judged.
        let judged = col.kind == Kind::Ratio || col.lower_is_better;
        let candidates = || {
            vals.iter()
                .zip(&found)
                .filter(|(_, &f)| !col.lower_is_better || f)
                .filter_map(|(v, _)| *v)
        };
        let lo = candidates().reduce(f64::min);
        let hi = candidates().reduce(f64::max);
        best.push(match (judged, lo, hi) {
            (true, Some(lo), Some(hi)) if lo != hi => {
                Some(if col.lower_is_better { lo } else { hi })
            }
            _ => None,
        });
        raw.push(vals);
    }
    let rows: Vec<Row> = runs
        .iter()
        .enumerate()
        .map(|(pos, run)| Row {
            rank: run.rank,
            system: run.system.clone(),
            system_parts: run.system.split('_').map(str::to_string).collect(),
            team: r.teams.get(&run.system).cloned().unwrap_or_default(),
            cells: shown
                .iter()
                .enumerate()
                .map(|(k, &i)| Cell {
                    text: texts[k][pos].clone(),
                    best: (!columns[i].lower_is_better || found[pos])
                        && matches!((raw[k][pos], best[k]), (Some(v), Some(b)) if v == b),
                })
                .collect(),
            bar: if ranked_ratio {
                percent(run.value)
            } else {
                0.0
            },
            mark: run.ci.map(|[lo, hi]| Mark {
                lo: fixed3(Some(lo)),
                hi: fixed3(Some(hi)),
                bar_lo: percent(lo),
                bar_hi: percent(hi),
                p_next: run.p_next.map(p_text).unwrap_or_default(),
                p_top: if pos == 0 {
                    "–".to_string()
                } else {
                    run.p_top.map(p_text).unwrap_or_default()
                },
                shares_first: run.shares_first,
            }),
            inspect: pages
                .link(&r.stem(), &run.system)
                .map(crate::escape::url_path),
        })
        .collect();
    let marked =
        r.ranking.resampling.is_some() && !rows.is_empty() && rows.iter().all(|x| x.mark.is_some());
    let names: Vec<String> = shown.iter().map(|&i| columns[i].name.clone()).collect();
    let regime = if h.row.iter().all(|k| k == "ALL") {
        h.table.clone()
    } else {
        format!("{} · {}", h.table, h.row.join(" "))
    };
    let table = Table {
        card_rows: crate::report::board::card_rows(names.len(), marked),
        id: slug(&format!("{id}-{}", h.table)),
        regime,
        bar: names
            .iter()
            .position(|c| *c == h.column)
            .filter(|_| ranked_ratio),
        columns: names,
        metric: h.column.clone(),
        ranking: format!("{}.tsv", r.stem()),
        evaluation: String::new(),
        rows,
        folded: Vec::new(),
        marked,
    };
    Group {
        id,
        title: r.task.clone(),
        output: r.family.clone(),
        scope: String::new(),
        signature: r.signature.to_string(),
        tables: vec![table],
        drill: runs.iter().map(drill).collect(),
        gold: runs.first().map(|x| gold(&x.results)).unwrap_or_default(),
        breakdowns: super::breakdown_grid::grids(&grid_runs(runs)),
    }
}

/// The ranked runs as the breakdown grids take them.
fn grid_runs(runs: &[RankedRun]) -> Vec<super::breakdown_grid::GridRun<'_>> {
    (runs.iter())
        .map(|r| super::breakdown_grid::GridRun {
            rank: r.rank,
            system: &r.system,
            results: &r.results,
        })
        .collect()
}

/// The gold's mentions per label and their flag, from a run's `adequacy` table (the same for
/// every run of a task: it counts the gold).
fn gold(results: &Results) -> Vec<GoldLabel> {
    let Some(t) = results.table("adequacy") else {
        return Vec::new();
    };
    let Some(n) = t.column("gold") else {
        return Vec::new();
    };
    t.rows
        .iter()
        .map(|r| {
            let mentions = r.values.get(n).and_then(|v| v.as_f64()).unwrap_or(0.0);
            GoldLabel::new(r.key.first().map_or("", |k| k.as_str()), mentions as u64)
        })
        .collect()
}

/// A run's per-label rows: every table of its results keyed by label alone, label `ALL` left
/// out; its breakdowns, one part per key; and the fair family's label confusion.
fn drill(run: &RankedRun) -> Drill {
    let parts = (run.results.tables.iter())
        .filter(|t| t.keys == [KeyKind::Label])
        .filter_map(|t| part(t, &t.name))
        .collect();
    let breakdowns = insight::breakdown_tables(&run.results)
        .into_iter()
        .filter_map(|(key, t)| part(t, key))
        .collect();
    Drill {
        system: run.system.clone(),
        parts,
        breakdowns,
        fair: fair(&run.results),
    }
}

/// The label confusion of a run's `confusion` table (gold label, run label, count) as a heat
/// map, with the error-type totals of its `fair` table's `ALL` row.
fn fair(results: &Results) -> Option<FairView> {
    let t = results.table("confusion")?;
    if t.keys != [KeyKind::Label, KeyKind::RunLabel] {
        return None;
    }
    let mut labels: Vec<String> = Vec::new();
    let mut sparse: std::collections::BTreeMap<String, std::collections::BTreeMap<String, u64>> =
        Default::default();
    for row in &t.rows {
        let (Some(g), Some(s)) = (row.key.first(), row.key.get(1)) else {
            continue;
        };
        let n = row.values.first().and_then(|v| v.as_f64()).unwrap_or(0.0);
        for l in [g, s] {
            if !labels.contains(l) {
                labels.push(l.clone());
            }
        }
        *sparse
            .entry(g.clone())
            .or_default()
            .entry(s.clone())
            .or_default() += n as u64;
    }
    labels.sort();
    let mut m = super::confusion::ConfusionMatrix::from_sparse(
        &labels,
        &sparse,
        None,
        super::confusion::TOP_LABELS,
    );
    if let Some(f) = results.table("fair") {
        if let Some(all) = f.row(&["ALL"]) {
            m.totals = f
                .columns
                .iter()
                .zip(&all.values)
                .filter(|(c, _)| c.kind == Kind::Count)
                .filter_map(|(c, v)| Some((c.name.clone(), v.as_f64()? as u64)))
                .collect();
        }
    }
    Some(super::tables::fair_view(&m))
}
