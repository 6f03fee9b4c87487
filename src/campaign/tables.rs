//! The ranked tables of one dataset and language (see [`super::board`]): one table per
//! ranking, evaluated column and regime, with the rows and order of the ranking file; tables
//! whose gold has no entities left out with a note; runs folded into an identical earlier run
//! named; and the per-run drill-down (per-label rows of every regime, fair confusion matrix).

use std::collections::HashSet;

use indexmap::IndexMap;

use super::config::{Campaign, RankingSpec};
use super::confusion::ConfusionMatrix;
use super::marks::Marks;
use super::outcome::{CampaignReport, RankingFile};
use super::ranking::{cells, takes_bundle, Ranked};
use super::rows::{Aggregation, ScoreRow};
use crate::eval::options::Regime;
use crate::report::board::{
    counts_column, fixed3, p_text, percent, slug, Cell, Drill, DrillPart, FairView, Group, HeatMap,
    LabelRow, Mark, Notice, Row, Section, Table, Total, COLUMNS,
};

/// Group key: column, variant, outputs, bundle scope.
type GroupKey = (String, String, String, String);

/// A group being built: its view, its column and variant, and the (run, output) of each
/// listed row per table, in table order.
struct GroupAcc {
    group: Group,
    column: String,
    variant: String,
    listed: Vec<(Regime, Vec<(usize, usize)>)>,
}

pub(super) fn build_section(
    cfg: &Campaign,
    report: &CampaignReport,
    dataset: &str,
    lang: &str,
    skipped: &mut Vec<Notice>,
    marks: &Marks,
) -> Section {
    let id = slug(&format!("{dataset}-{lang}"));
    let runs = report
        .scored
        .iter()
        .filter(|s| s.run.dataset == dataset && s.run.lang == lang)
        .count();
    let mut groups: IndexMap<GroupKey, GroupAcc> = IndexMap::new();
    // Tables whose gold has no entities: (title, outputs, scope) → (column, regimes, files).
    type Left = (String, Vec<&'static str>, Vec<String>);
    let mut left_out: IndexMap<(String, String, String), Left> = IndexMap::new();
    for (fi, file) in report
        .rankings
        .iter()
        .enumerate()
        .filter(|(_, r)| r.dataset == dataset && r.lang == lang)
    {
        let Some(spec) = cfg.rankings.get(file.spec) else {
            continue;
        };
        // Label-ALL micro rows by (column, variant, regime), in ranking order.
        type Key = (String, String, u8);
        let mut tables: IndexMap<Key, (Regime, Vec<&Ranked>)> = IndexMap::new();
        for r in &file.rows {
            let Some(sr) = report.ranked_row(r) else {
                continue;
            };
            if sr.is_all() && sr.key.aggregation == Aggregation::Micro {
                let k = (
                    sr.key.column.clone(),
                    sr.key.variant.clone(),
                    regime_order(sr.key.regime),
                );
                tables
                    .entry(k)
                    .or_insert_with(|| (sr.key.regime, Vec::new()))
                    .1
                    .push(r);
            }
        }
        tables.sort_by(|a, _, b, _| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let outputs: Vec<&str> = spec.outputs.iter().map(|o| o.as_str()).collect();
        let scope = match &spec.bundles {
            Some(b) if b.len() == 1 => format!("bundle {}", b[0]),
            Some(b) => format!(
                "bundles {}",
                b.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ")
            ),
            None => String::new(),
        };
        for ((column, variant, _), (regime, ranked)) in tables {
            let title = title(&column, &variant);
            let key = (
                column.clone(),
                variant.clone(),
                outputs.join(", "),
                scope.clone(),
            );
            let gid = slug(&format!("{id}-{}-{}-{}", key.2, title, key.3));
            let table = build_table(report, (fi, file), &ranked, regime, &gid, marks);
            if table.rows.iter().all(no_gold_entities) {
                let (_, regimes, files) = left_out
                    .entry((title.clone(), outputs.join(", "), scope.clone()))
                    .or_insert_with(|| (column.clone(), Vec::new(), Vec::new()));
                regimes.push(regime.as_str());
                files.push(file.file_name.clone());
                continue;
            }
            let mut table = table;
            table.folded = folded(report, spec, dataset, lang, &ranked);
            // A note already under an earlier table of the section (the same run, the same
            // reason) is not repeated under this one.
            table.folded.retain(|n| {
                !groups
                    .values()
                    .flat_map(|g| &g.group.tables)
                    .any(|t| t.folded.contains(n))
            });
            let acc = groups.entry(key).or_insert_with(|| GroupAcc {
                group: Group {
                    id: gid.clone(),
                    title: title.clone(),
                    output: outputs.join(", "),
                    scope: scope.clone(),
                    ..Group::default()
                },
                column: column.clone(),
                variant: variant.clone(),
                listed: Vec::new(),
            });
            acc.group.tables.push(table);
            acc.listed
                .push((regime, ranked.iter().map(|r| (r.run, r.output)).collect()));
        }
    }
    let mut notes = Vec::new();
    for ((title, output, scope), (column, mut regimes, files)) in left_out {
        regimes.sort_by_key(|r| match *r {
            "strict" => 0,
            "fuzzy" => 1,
            _ => 2,
        });
        let scope = if scope.is_empty() {
            String::new()
        } else {
            format!(", {scope}")
        };
        notes.push(format!(
            "{title} ({output}{scope}; {}) left out: the gold has no {column} entities.",
            regimes.join(", ")
        ));
        skipped.push(Notice {
            subject: format!(
                "{dataset} · {lang} · {title} ({output}{scope}; {})",
                regimes.join(", ")
            ),
            reason: format!(
                "the gold has no {column} entities (TP = FN = 0 for every run); ranking files {}",
                files.join(", ")
            ),
        });
    }
    let mut attached: HashSet<(usize, usize)> = HashSet::new();
    let groups = groups
        .into_values()
        .map(|g| finish_group(g, report, &mut attached))
        .collect();
    Section {
        id,
        dataset: dataset.to_string(),
        lang: lang.to_string(),
        runs,
        groups,
        notes,
    }
}

/// The name of the output a ranked entry comes from.
fn output_of(report: &CampaignReport, r: &Ranked) -> String {
    report
        .scored
        .get(r.run)
        .and_then(|s| s.outputs.get(r.output))
        .map(|o| o.0.clone())
        .unwrap_or_default()
}

fn no_gold_entities(r: &Row) -> bool {
    // Cells 3 (TP) and 5 (FN) are whole counts here.
    r.cells.get(3).is_some_and(|c| c.text == "0") && r.cells.get(5).is_some_and(|c| c.text == "0")
}

/// Column and variant for a title: `TIME-ALL-LED-ALL` (the whole data set) left out.
fn title(column: &str, variant: &str) -> String {
    let v = variant
        .replace("TIME-ALL-LED-ALL", "")
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if v.is_empty() {
        column.to_string()
    } else {
        format!("{column} {v}")
    }
}

/// A table's rows: rank (shared by equal F1 text), formatted cells, best values marked, and
/// the F1 interval and significance marks where the campaign has them.
fn build_table(
    report: &CampaignReport,
    (fi, file): (usize, &RankingFile),
    ranked: &[&Ranked],
    regime: Regime,
    gid: &str,
    marks: &Marks,
) -> Table {
    let srs: Vec<(&Ranked, &ScoreRow)> = ranked
        .iter()
        .filter_map(|r| Some((*r, report.ranked_row(r)?)))
        .collect();
    let nums = |f: fn(&ScoreRow) -> Option<f64>| srs.iter().map(|(_, r)| f(r)).collect::<Vec<_>>();
    let columns: [Vec<Option<f64>>; 6] = [
        nums(|r| r.p.value()),
        nums(|r| r.r.value()),
        nums(|r| r.f1.value()),
        nums(|r| r.tp.value()),
        nums(|r| r.fp.value()),
        nums(|r| r.fn_.value()),
    ];
    let texts: Vec<Vec<String>> = columns
        .iter()
        .enumerate()
        .map(|(i, vals)| {
            if i < 3 {
                vals.iter().map(|v| fixed3(*v)).collect()
            } else {
                counts_column(vals)
            }
        })
        .collect();
    // Best per column: highest P, R, F1, TP; lowest FP, FN. Not marked when every run has
    // the same value (nothing to single out). The lowest FP or FN is a merit only of a run
    // that found something: a run with F1 0 (e.g. one that predicted nothing, FP 0) is not a
    // candidate for them.
    let found: Vec<bool> = columns[2]
        .iter()
        .map(|f| f.is_some_and(|f| f > 0.0))
        .collect();
    let best: Vec<Option<f64>> = columns
        .iter()
        .enumerate()
        .map(|(i, vals)| {
            let candidates = || {
                vals.iter()
                    .zip(&found)
                    .filter(move |(_, &f)| i < 4 || f)
                    .filter_map(|(v, _)| *v)
            };
            let lo = candidates().reduce(f64::min)?;
            let hi = candidates().reduce(f64::max)?;
            match (lo == hi, i >= 4) {
                (true, _) => None,
                (false, true) => Some(lo),
                (false, false) => Some(hi),
            }
        })
        .collect();
    let mut rows = Vec::with_capacity(srs.len());
    let mut prev: Option<(&str, usize)> = None;
    for (pos, (r, sr)) in srs.iter().enumerate() {
        let rank = match prev {
            Some((f1, rank)) if f1 == sr.f1.text() => rank,
            _ => pos + 1,
        };
        prev = Some((sr.f1.text(), rank));
        let run = &report.scored[r.run].run;
        rows.push(Row {
            rank,
            system: run.name.clone(),
            system_parts: run.name.split('_').map(str::to_string).collect(),
            team: run.team.clone(),
            cells: (0..6)
                .map(|i| Cell {
                    text: texts[i][pos].clone(),
                    best: (i < 4 || found[pos])
                        && matches!((columns[i][pos], best[i]), (Some(v), Some(b)) if v == b),
                })
                .collect(),
            bar: (sr.f1.value().unwrap_or(0.0).clamp(0.0, 1.0) * 1000.0).round() / 10.0,
            mark: marks.get(fi, r).map(|m| Mark {
                lo: fixed3(Some(m.ci.lo)),
                hi: fixed3(Some(m.ci.hi)),
                bar_lo: percent(m.ci.lo),
                bar_hi: percent(m.ci.hi),
                p_next: m.p_next.map(p_text).unwrap_or_default(),
                p_top: if pos == 0 {
                    "–".to_string()
                } else {
                    p_text(m.p_top)
                },
                shares_first: m.shares_first,
            }),
            inspect: report
                .inspect
                .links
                .get(&(
                    run.name.clone(),
                    output_of(report, r),
                    sr.key.column.clone(),
                ))
                .map(|p| crate::escape::url_path(p)),
        });
    }
    let marked = !rows.is_empty() && rows.iter().all(|r| r.mark.is_some());
    Table {
        id: slug(&format!("{gid}-{}", regime.as_str())),
        regime: regime.as_str().to_string(),
        columns: crate::report::board::hipe_columns(),
        metric: "F1".to_string(),
        bar: Some(2),
        ranking: file.file_name.clone(),
        evaluation: srs
            .first()
            .map(|(_, r)| r.evaluation.clone())
            .unwrap_or_default(),
        rows,
        folded: Vec::new(),
        marked,
        card_rows: crate::report::board::card_rows(COLUMNS.len(), marked),
    }
}

/// Runs of the section that the ranking takes and that have the table's row, but are not
/// listed: their results equal a listed run's (the ranking file keeps the first).
fn folded(
    report: &CampaignReport,
    spec: &RankingSpec,
    dataset: &str,
    lang: &str,
    ranked: &[&Ranked],
) -> Vec<Notice> {
    let Some(first) = ranked.first().and_then(|r| report.ranked_row(r)) else {
        return Vec::new();
    };
    let listed: Vec<(usize, Vec<String>)> = ranked
        .iter()
        .filter_map(|r| {
            let sr = report.ranked_row(r)?;
            Some((
                r.run,
                cells(sr)[1..].iter().map(|c| c.to_string()).collect(),
            ))
        })
        .collect();
    let mut out = Vec::new();
    for (i, s) in report.scored.iter().enumerate() {
        if s.run.dataset != dataset
            || s.run.lang != lang
            || !takes_bundle(spec, &s.run.bundle)
            || listed.iter().any(|(run, _)| *run == i)
        {
            continue;
        }
        let own = s
            .outputs
            .iter()
            .filter(|(o, _)| spec.outputs.iter().any(|x| *x == o.as_str()))
            .flat_map(|(_, rows)| rows)
            .find(|r| r.is_all() && r.evaluation == first.evaluation);
        let Some(own) = own else { continue };
        let key: Vec<String> = cells(own)[1..].iter().map(|c| c.to_string()).collect();
        let reason = match listed.iter().find(|(_, k)| *k == key) {
            Some((run, _)) => format!(
                "same results as {}; listed once, as in the ranking file",
                report.scored[*run].run.name
            ),
            None => "not in the ranking file".to_string(),
        };
        out.push(Notice {
            subject: s.run.name.clone(),
            reason,
        });
    }
    out
}

fn regime_order(r: Regime) -> u8 {
    match r {
        Regime::Strict => 0,
        Regime::Fuzzy => 1,
        Regime::Fair => 2,
        Regime::Weighted => 3,
    }
}

/// Orders the tables by regime and adds the drill-down (each run once, in the order of the
/// last table; the fair matrix of a run's output with its first group).
fn finish_group(
    mut acc: GroupAcc,
    report: &CampaignReport,
    attached: &mut HashSet<(usize, usize)>,
) -> Group {
    let mut order: Vec<usize> = (0..acc.listed.len()).collect();
    order.sort_by_key(|&i| regime_order(acc.listed[i].0));
    let mut tables: Vec<Option<Table>> = acc.group.tables.drain(..).map(Some).collect();
    acc.group.tables = order.iter().filter_map(|&i| tables[i].take()).collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in order.iter().rev() {
        for ro in &acc.listed[i].1 {
            if !runs.contains(ro) {
                runs.push(*ro);
            }
        }
    }
    acc.group.drill = runs
        .into_iter()
        .filter_map(|(run, output)| {
            let scored = report.scored.get(run)?;
            let (name, rows) = scored.outputs.get(output)?;
            let fair = if attached.insert((run, output)) {
                scored
                    .fair
                    .iter()
                    .find(|(o, _)| o == name)
                    .map(|(_, m)| fair_view(m))
            } else {
                None
            };
            Some(Drill {
                system: scored.run.name.clone(),
                parts: drill_parts(rows, &acc.column, &acc.variant),
                breakdowns: super::hipe_breakdowns::drill(scored, name, &acc.column),
                fair,
            })
        })
        .collect();
    // The runs' buckets side by side, in the order of the first table (strict: the regime
    // the breakdowns judge spans in).
    if let (Some(t), Some(&first)) = (acc.group.tables.first(), order.first()) {
        let listed = &acc.listed[first].1;
        acc.group.breakdowns = super::hipe_breakdowns::grids(report, t, listed, &acc.column);
        acc.group.gold = gold(report, listed, &acc.column, &acc.variant);
    }
    acc.group
}

/// The gold's mentions per label of a NERC column (NEL has none: the HIPE scorer counts its
/// links over `ALL` only, and a link's label would be its QID, not an entity type): the strict
/// TP + FN of the per-label micro rows of the first listed run that has them, the same for
/// every run since they count the gold; labels the gold lacks (TP + FN = 0) left out.
fn gold(
    report: &CampaignReport,
    listed: &[(usize, usize)],
    column: &str,
    variant: &str,
) -> Vec<crate::report::board::GoldLabel> {
    if !column.starts_with("NE-") {
        return Vec::new();
    }
    let per_label = |rows: &[ScoreRow]| -> Vec<crate::report::board::GoldLabel> {
        rows.iter()
            .filter(|r| {
                !r.is_all()
                    && r.key.aggregation == Aggregation::Micro
                    && r.key.regime == Regime::Strict
                    && r.key.column == column
                    && r.key.variant == variant
            })
            .filter_map(|r| {
                let n = r.tp.value()? + r.fn_.value()?;
                (n > 0.0).then(|| crate::report::board::GoldLabel::new(&r.label, n.round() as u64))
            })
            .collect()
    };
    listed
        .iter()
        .filter_map(|&(run, output)| report.scored.get(run)?.outputs.get(output))
        .map(|(_, rows)| per_label(rows))
        .find(|g| !g.is_empty())
        .unwrap_or_default()
}

/// Per-label micro rows of one column and variant, one part per regime.
fn drill_parts(rows: &[ScoreRow], column: &str, variant: &str) -> Vec<DrillPart> {
    let mut by_regime: Vec<(Regime, Vec<&ScoreRow>)> = Vec::new();
    for r in rows.iter().filter(|r| {
        !r.is_all()
            && r.key.aggregation == Aggregation::Micro
            && r.key.column == column
            && r.key.variant == variant
    }) {
        match by_regime.iter_mut().find(|(g, _)| *g == r.key.regime) {
            Some((_, v)) => v.push(r),
            None => by_regime.push((r.key.regime, vec![r])),
        }
    }
    by_regime.sort_by_key(|(g, _)| regime_order(*g));
    by_regime
        .into_iter()
        .map(|(regime, rs)| {
            let counts = |f: fn(&ScoreRow) -> Option<f64>| {
                counts_column(&rs.iter().map(|r| f(r)).collect::<Vec<_>>())
            };
            let (tp, fp, fn_) = (
                counts(|r| r.tp.value()),
                counts(|r| r.fp.value()),
                counts(|r| r.fn_.value()),
            );
            DrillPart {
                regime: regime.as_str().to_string(),
                columns: crate::report::board::hipe_columns(),
                labels: rs
                    .iter()
                    .enumerate()
                    .map(|(i, r)| LabelRow {
                        label: r.label.clone(),
                        cells: vec![
                            fixed3(r.p.value()),
                            fixed3(r.r.value()),
                            fixed3(r.f1.value()),
                            tp[i].clone(),
                            fp[i].clone(),
                            fn_[i].clone(),
                        ],
                    })
                    .collect(),
            }
        })
        .collect()
}

pub(super) fn fair_view(m: &ConfusionMatrix) -> FairView {
    let m = m.compact(super::confusion::TOP_LABELS);
    FairView {
        totals: m
            .totals
            .iter()
            .map(|(name, count)| Total {
                name: name.clone(),
                count: *count,
            })
            .collect(),
        heat: HeatMap::new(&m.rows, &m.cols, &m.counts),
        folded: m.folded,
    }
}
