//! Leaderboard tables, the data both the Markdown and the HTML report render: per dataset and
//! language, per output and evaluated column, one ranked table per regime (strict, fuzzy) from
//! the micro rows of the per-run TSVs, with per-label rows for the drill-down, best values
//! marked, and the fair confusion matrix where the scorer gave one.

use indexmap::IndexMap;
use serde::Serialize;

use super::config::Campaign;
use super::ranking::data_rows;
use super::runner::{CampaignReport, ScoredRun};
use super::ConfusionMatrix;

/// All tables of one dataset and language.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub id: String,
    pub dataset: String,
    pub lang: String,
    pub runs: usize,
    pub groups: Vec<Group>,
}

/// One output and evaluated column (e.g. `nel_relaxed`, `NEL-LIT`, `relaxed … @1`), with one
/// table per regime.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub id: String,
    pub output: String,
    pub column: String,
    /// What follows the regime in Evaluation, shortened (`@1`, `relaxed @3`, `TIME-1900-1950 …`).
    pub variant: String,
    pub tables: Vec<Table>,
    /// Per-run drill-down, in the order of the last table (fuzzy).
    pub drill: Vec<Drill>,
}

/// One run's per-label results in every regime of a group, and its fair confusion matrix.
#[derive(Debug, Clone, Serialize)]
pub struct Drill {
    pub system: String,
    pub parts: Vec<DrillPart>,
    pub fair: Option<HeatMap>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DrillPart {
    pub regime: String,
    pub labels: Vec<LabelRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: String,
    /// `strict` or `fuzzy` (as in Evaluation).
    pub regime: String,
    pub rows: Vec<Row>,
}

/// One run in a table, ranked by F1 of label ALL.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub rank: usize,
    pub system: String,
    /// `system` split at `_`, so that a page can offer line breaks there.
    pub system_parts: Vec<String>,
    pub team: String,
    pub bundle: String,
    /// P, R, F1, TP, FP, FN.
    pub cells: Vec<Cell>,
    /// F1 as a percentage, for the bar.
    pub bar: f64,
    /// Moved to [`Group::drill`].
    #[serde(skip)]
    pub labels: Vec<LabelRow>,
    #[serde(skip)]
    pub fair: Option<HeatMap>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub text: String,
    pub best: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct LabelRow {
    pub label: String,
    /// P, R, F1, TP, FP, FN as written in the TSV.
    pub cells: Vec<String>,
}

/// A confusion matrix ready to draw: `alpha` in 0..=1 is the cell's share of the largest count.
#[derive(Debug, Clone, Serialize)]
pub struct HeatMap {
    pub cols: Vec<String>,
    pub rows: Vec<HeatRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HeatRow {
    pub label: String,
    pub cells: Vec<HeatCell>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HeatCell {
    pub count: u64,
    pub alpha: f64,
}

/// Column names of [`Row::cells`].
pub const COLUMNS: [&str; 6] = ["P", "R", "F1", "TP", "FP", "FN"];
/// Cell index in a per-run TSV row of each of [`COLUMNS`].
const TSV_INDEX: [usize; 6] = [3, 4, 5, 9, 10, 11];

/// Builds the sections of every dataset and language of the campaign, in campaign order.
/// Runs whose TSV cannot be read are skipped here (the ranking step reports them).
pub fn build_boards(cfg: &Campaign, report: &CampaignReport) -> Vec<Section> {
    let mut sections = Vec::new();
    for (dataset, ds) in &cfg.datasets {
        for lang in &ds.languages {
            // Only what is evaluated here: a ranking was written for it (gold or runs present).
            if !report
                .rankings
                .iter()
                .any(|r| &r.dataset == dataset && &r.lang == lang)
            {
                continue;
            }
            let runs: Vec<&ScoredRun> = report
                .scored
                .iter()
                .filter(|s| &s.run.dataset == dataset && &s.run.lang == lang)
                .collect();
            let id = slug(&format!("{dataset}-{lang}"));
            let groups = build_groups(&id, &runs);
            sections.push(Section {
                id,
                dataset: dataset.clone(),
                lang: lang.clone(),
                runs: runs.len(),
                groups,
            });
        }
    }
    sections
}

/// (output, column, variant) → regime → [(run, ALL cells, label rows)].
type Collected<'a> = IndexMap<(String, String, String), IndexMap<String, Vec<Entry<'a>>>>;

struct Entry<'a> {
    run: &'a ScoredRun,
    output: &'a str,
    all: Vec<String>,
    labels: Vec<LabelRow>,
}

fn build_groups(section_id: &str, runs: &[&ScoredRun]) -> Vec<Group> {
    let mut collected: Collected<'_> = IndexMap::new();
    for run in runs {
        for (output, text) in &run.outputs {
            let Ok(rows) = data_rows(text, std::path::Path::new(output)) else {
                continue;
            };
            for cells in rows {
                let Some((column, regime, variant)) = split_evaluation(cells[1]) else {
                    continue;
                };
                let per_regime = collected
                    .entry((output.clone(), column.to_string(), variant.to_string()))
                    .or_default()
                    .entry(regime.to_string())
                    .or_default();
                let values: Vec<String> = TSV_INDEX.iter().map(|&i| cells[i].to_string()).collect();
                let entry = match per_regime.last_mut() {
                    Some(e) if std::ptr::eq(e.run, *run) => e,
                    _ => {
                        per_regime.push(Entry {
                            run,
                            output,
                            all: Vec::new(),
                            labels: Vec::new(),
                        });
                        let n = per_regime.len() - 1;
                        &mut per_regime[n]
                    }
                };
                if cells[2] == "ALL" {
                    entry.all = values;
                } else {
                    entry.labels.push(LabelRow {
                        label: cells[2].to_string(),
                        cells: values,
                    });
                }
            }
        }
    }
    let mut groups = Vec::new();
    for ((output, column, variant), regimes) in collected {
        let gid = slug(&format!("{section_id}-{output}-{column}-{variant}"));
        let mut tables = Vec::new();
        for (regime, entries) in regimes {
            tables.push(Table {
                id: slug(&format!("{gid}-{regime}")),
                regime,
                rows: rank_rows(entries),
            });
        }
        tables.sort_by(|a, b| regime_order(&a.regime).cmp(&regime_order(&b.regime)));
        let drill = build_drill(&mut tables);
        groups.push(Group {
            id: gid,
            output,
            column,
            variant: short_variant(&variant),
            tables,
            drill,
        });
    }
    groups
}

/// Moves the per-label rows and heat maps out of the tables into one entry per run.
fn build_drill(tables: &mut [Table]) -> Vec<Drill> {
    let Some(last) = tables.last() else {
        return Vec::new();
    };
    let systems: Vec<String> = last.rows.iter().map(|r| r.system.clone()).collect();
    systems
        .into_iter()
        .map(|system| {
            let mut fair = None;
            let mut parts = Vec::new();
            for t in tables.iter_mut() {
                if let Some(row) = t.rows.iter_mut().find(|r| r.system == system) {
                    fair = fair.or(row.fair.take());
                    parts.push(DrillPart {
                        regime: t.regime.clone(),
                        labels: std::mem::take(&mut row.labels),
                    });
                }
            }
            Drill {
                system,
                parts,
                fair,
            }
        })
        .collect()
}

fn regime_order(r: &str) -> (u8, &str) {
    match r {
        "strict" => (0, r),
        "fuzzy" => (1, r),
        _ => (2, r),
    }
}

fn rank_rows(entries: Vec<Entry<'_>>) -> Vec<Row> {
    let num = |e: &Entry<'_>, i: usize| e.all.get(i).and_then(|t| t.parse::<f64>().ok());
    let mut entries: Vec<Entry<'_>> = entries.into_iter().filter(|e| e.all.len() == 6).collect();
    entries.sort_by(|a, b| {
        let (fa, fb) = (num(a, 2).unwrap_or(-1.0), num(b, 2).unwrap_or(-1.0));
        fb.total_cmp(&fa)
            .then_with(|| a.run.run.name.as_bytes().cmp(b.run.run.name.as_bytes()))
    });
    // Best per column: highest P, R, F1, TP; lowest FP, FN. Not marked when every run has
    // the same value (nothing to single out).
    let best: Vec<Option<f64>> = (0..6)
        .map(|i| {
            let vals: Vec<f64> = entries.iter().filter_map(|e| num(e, i)).collect();
            let lo = vals.iter().copied().reduce(f64::min)?;
            let hi = vals.iter().copied().reduce(f64::max)?;
            match (lo == hi, i >= 4) {
                (true, _) => None,
                (false, true) => Some(lo),
                (false, false) => Some(hi),
            }
        })
        .collect();
    let mut rows = Vec::with_capacity(entries.len());
    let mut prev: Option<(f64, usize)> = None;
    for (pos, e) in entries.into_iter().enumerate() {
        let f1 = num(&e, 2).unwrap_or(0.0);
        let rank = match prev {
            Some((p, r)) if p == f1 => r,
            _ => pos + 1,
        };
        prev = Some((f1, rank));
        let cells = (0..6)
            .map(|i| Cell {
                text: e.all[i].clone(),
                best: entries_best(num(&e, i), best[i]),
            })
            .collect();
        let fair = e
            .run
            .fair
            .iter()
            .find(|(o, _)| o == e.output)
            .map(|(_, m)| heat_map(m));
        rows.push(Row {
            rank,
            system: e.run.run.name.clone(),
            system_parts: e.run.run.name.split('_').map(str::to_string).collect(),
            team: e.run.run.team.clone(),
            bundle: e.run.run.bundle.clone(),
            cells,
            bar: (f1.clamp(0.0, 1.0) * 1000.0).round() / 10.0,
            labels: e.labels,
            fair,
        });
    }
    rows
}

fn entries_best(v: Option<f64>, best: Option<f64>) -> bool {
    matches!((v, best), (Some(v), Some(b)) if v == b)
}

/// Turns a confusion matrix into heat-map cells.
pub fn heat_map(m: &ConfusionMatrix) -> HeatMap {
    let max = m.counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    HeatMap {
        cols: m.cols.clone(),
        rows: m
            .rows
            .iter()
            .zip(&m.counts)
            .map(|(label, counts)| HeatRow {
                label: label.clone(),
                cells: counts
                    .iter()
                    .map(|&c| HeatCell {
                        count: c,
                        alpha: ((c as f64 / max) * 100.0).round() / 100.0,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Splits a micro Evaluation `COL-micro-REGIME-REST` into (COL, REGIME, REST); None for other
/// aggregations.
pub fn split_evaluation(ev: &str) -> Option<(&str, &str, &str)> {
    let (column, rest) = ev.split_once("-micro-")?;
    let (regime, variant) = rest.split_once('-').unwrap_or((rest, ""));
    Some((column, regime, variant))
}

/// `TIME-ALL-LED-ALL` is the whole data set: left out of the shown variant.
fn short_variant(v: &str) -> String {
    v.replace("TIME-ALL-LED-ALL", "")
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An HTML id: ASCII alphanumerics kept, everything else `-`.
pub fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_parts() {
        assert_eq!(
            split_evaluation("NEL-LIT-micro-fuzzy-relaxed-TIME-ALL-LED-ALL-@3"),
            Some(("NEL-LIT", "fuzzy", "relaxed-TIME-ALL-LED-ALL-@3"))
        );
        assert_eq!(
            split_evaluation("NE-COARSE-LIT-macro_doc-fuzzy-TIME-ALL-LED-ALL"),
            None
        );
        assert_eq!(short_variant("relaxed-TIME-ALL-LED-ALL-@3"), "relaxed @3");
        assert_eq!(short_variant("TIME-ALL-LED-ALL"), "");
        assert_eq!(slug("ajmc-de <x>"), "ajmc-de--x-");
    }

    #[test]
    fn heat_map_scales_to_largest() {
        let m = ConfusionMatrix {
            rows: vec!["PER".into(), "LOC".into()],
            cols: vec!["PER".into(), "O".into()],
            counts: vec![vec![8, 2], vec![0, 4]],
        };
        let h = heat_map(&m);
        assert_eq!(h.rows[0].cells[0].alpha, 1.0);
        assert_eq!(h.rows[0].cells[1].alpha, 0.25);
        assert_eq!(h.rows[1].cells[1].count, 4);
    }
}
