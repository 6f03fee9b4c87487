//! The leaderboard as plain data: what the Markdown ([`super::markdown`]) and HTML
//! ([`super::html`]) reports render. The campaign layer builds a [`Board`] from its rankings
//! and runs; this module knows nothing of campaigns, and every text in it is final (numbers
//! formatted, names relative to the campaign's directories), so both renderers show the same
//! rows in the same order.

use serde::Serialize;

/// The columns of a HIPE board's tables ([`Table::columns`], [`DrillPart::columns`]).
pub const COLUMNS: [&str; 6] = ["P", "R", "F1", "TP", "FP", "FN"];

/// The columns of a HIPE board as owned names.
pub fn hipe_columns() -> Vec<String> {
    COLUMNS.iter().map(|c| c.to_string()).collect()
}

/// A whole leaderboard.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Board {
    /// The campaign's name.
    pub title: String,
    /// The HIPE edition scored (empty for a campaign of family tasks).
    pub edition: String,
    /// What the tables show, in a sentence for the page header (e.g. "tables follow the
    /// ranking files (micro F1 of label ALL)").
    pub about: String,
    /// The ranked score, as the team cards head it (`F1`; `score` when tables rank by
    /// different metrics).
    pub metric: String,
    /// Counts for the page header.
    pub summary: Summary,
    /// One section per dataset and language, in campaign order.
    pub sections: Vec<Section>,
    /// Each team's best run in every table, one card per team (empty when the run names carry
    /// no team).
    pub teams: Vec<TeamCard>,
    /// Run files not scored, and files of the runs directory that are not runs, with the reason.
    pub not_scored: Vec<Notice>,
    /// Outputs not evaluated for a dataset and language because an input is missing.
    pub not_evaluated: Vec<Notice>,
    /// Tables left out because the gold has no entities of their kind.
    pub skipped: Vec<Notice>,
    /// The ranking files written.
    pub rankings: Vec<RankingLink>,
    /// The resampling behind the intervals and marks, when the board has them.
    pub resampling: Option<Resampling>,
    /// The campaign's signature (`fairscore|family:hipe|…`; empty when not known).
    pub signature: String,
}

/// How the intervals and significance marks of a board were computed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Resampling {
    /// Resamples per interval and per test.
    pub samples: usize,
    /// Seed of the random streams.
    pub seed: u64,
    /// Confidence level as a percentage, e.g. `95`.
    pub level: String,
    /// Significance level of the tests, 1 − confidence, e.g. `0.05`.
    pub alpha: String,
    /// What is resampled, plural (`documents`, `sentences`).
    pub units: String,
}

/// Counts shown in the page header.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Runs scored.
    pub runs: usize,
    /// Scorings of the runs scored (one per run and output or task).
    pub jobs: usize,
    /// Runs some scoring of which failed, each once.
    pub failed: usize,
    /// Scorings that failed.
    pub failed_jobs: usize,
    /// Files of the runs directory that are not runs.
    pub rejected: usize,
    /// Outputs not evaluated for some dataset and language.
    pub not_evaluated: usize,
}

/// Something left out, and why.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Notice {
    /// What is concerned (a file, a table, an output).
    pub subject: String,
    /// Why, in a sentence.
    pub reason: String,
}

/// A ranking file and its number of data rows.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RankingLink {
    /// File name in `rankings/`.
    pub file: String,
    /// Data rows (header excluded).
    pub rows: usize,
}

/// All tables of one dataset and language (of one group of a family campaign).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Section {
    /// HTML id.
    pub id: String,
    /// Dataset name, as in the campaign (a family campaign's group values).
    pub dataset: String,
    /// Language code, as in the campaign (empty when the section has none).
    pub lang: String,
    /// Runs scored for this dataset and language.
    pub runs: usize,
    /// One group per evaluated column, variant and ranking scope, in ranking-file order.
    pub groups: Vec<Group>,
    /// Short notes (tables skipped here, outputs not evaluated here).
    pub notes: Vec<String>,
}

/// One evaluated column and variant of one ranking scope (e.g. `NEL-LIT relaxed @1`, bundles
/// 1–4), with one table per regime and the per-run drill-down.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Group {
    /// HTML id.
    pub id: String,
    /// Column and variant, e.g. `NE-COARSE-LIT` or `NEL-LIT relaxed @1`.
    pub title: String,
    /// Output names the rows come from (`nerc_coarse`, …).
    pub output: String,
    /// Which runs are ranked, when not all (e.g. `bundle 5`).
    pub scope: String,
    /// The signature of this group's numbers when it has its own (a family campaign's task);
    /// empty when the board's signature covers it.
    pub signature: String,
    /// One table per regime, strict first.
    pub tables: Vec<Table>,
    /// Per-run details, in the order of the last table.
    pub drill: Vec<Drill>,
    /// The gold's mentions per label, each flagged when below the MUC-7 guide's 100
    /// (docs/breakdown.md): a family task's from its results' `adequacy` table, a HIPE NERC
    /// group's from the strict per-label TP + FN; empty when not counted (NEL).
    pub gold: Vec<GoldLabel>,
    /// The breakdowns of every ranked run side by side, one grid per key (empty when the
    /// task asks for none): what `leaderboard.tex` shows.
    pub breakdowns: Vec<BreakdownGrid>,
}

/// One breakdown key of a group for all its runs: the buckets as columns, the runs as rows
/// (in ranking order), each cell the run's score in that bucket.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BreakdownGrid {
    /// The key (`label`, `length`, …).
    pub key: String,
    /// The score shown in every cell (`F1`).
    pub metric: String,
    /// The buckets: every bucket of any run, in the runs' order.
    pub buckets: Vec<GridBucket>,
    /// One row per ranked run: its name and one cell per bucket (`–` when the run has no
    /// such bucket), the best of each bucket marked.
    pub rows: Vec<GridRow>,
}

/// A bucket of a [`BreakdownGrid`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct GridBucket {
    /// The bucket's name (a label, `<= 2`, …).
    pub name: String,
    /// The gold's mentions in the bucket (the same for every run: the gold side of the
    /// bucket), formatted.
    pub gold: String,
}

/// A run's row of a [`BreakdownGrid`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct GridRow {
    /// The run's rank, as in the group's table.
    pub rank: usize,
    /// The run's name.
    pub system: String,
    /// One cell per bucket of the grid.
    pub cells: Vec<Cell>,
}

/// One label of a task's gold: its mentions, and whether they are too few (below 100) to rank
/// systems on.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GoldLabel {
    /// The label.
    pub label: String,
    /// Its gold mentions.
    pub mentions: u64,
    /// Below 100 mentions.
    pub sparse: bool,
}

impl GoldLabel {
    /// A label of `mentions` gold mentions, flagged sparse below the MUC-7 guide's first mark
    /// ([`crate::family::too_sparse`], the `adequacy` table's rule): family and HIPE boards.
    pub fn new(label: &str, mentions: u64) -> GoldLabel {
        GoldLabel {
            label: label.to_string(),
            mentions,
            sparse: crate::family::too_sparse(mentions),
        }
    }
}

/// One ranked table: the rows and order of a ranking file (label ALL, one Evaluation).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Table {
    /// HTML id.
    pub id: String,
    /// `strict`, `fuzzy`, …
    pub regime: String,
    /// The names of [`Row::cells`]: scores first, then counts.
    pub columns: Vec<String>,
    /// The ranked column, in [`Table::columns`].
    pub metric: String,
    /// The position of the ranked column in [`Table::columns`] when it is a score drawn as a
    /// bar ([`Row::bar`]).
    pub bar: Option<usize>,
    /// The ranking file the rows come from.
    pub ranking: String,
    /// The Evaluation cell the rows share in that file.
    pub evaluation: String,
    /// The runs, in the ranking file's order.
    pub rows: Vec<Row>,
    /// Runs not listed because their results equal those of a run listed above (the ranking
    /// file keeps the first, as the official one does).
    pub folded: Vec<Notice>,
    /// Every row has an interval and marks ([`Row::mark`]).
    pub marked: bool,
    /// The lines of a row's card on a phone ([`card_rows`]), which the rank spans.
    pub card_rows: usize,
}

/// The lines of a ranked row's card on a phone: the name, the values three per line and,
/// when marked, the interval and the p-values.
pub fn card_rows(columns: usize, marked: bool) -> usize {
    1 + columns.div_ceil(3) + if marked { 2 } else { 0 }
}

/// One run in a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Row {
    /// 1 for the best F1; runs with the same F1 share a rank.
    pub rank: usize,
    /// The run's name.
    pub system: String,
    /// `system` split at `_`, so that a page can offer line breaks there.
    pub system_parts: Vec<String>,
    /// The run's team (empty when the run pattern has no `{team}`).
    pub team: String,
    /// The values of [`Table::columns`], formatted alike down each column.
    pub cells: Vec<Cell>,
    /// The ranked score as a percentage, for the bar.
    pub bar: f64,
    /// The ranked score's interval and the tests against the next and the top run, with
    /// resampling.
    pub mark: Option<Mark>,
    /// The run's `inspect` page, a relative link already URL-encoded
    /// ([`crate::escape::url_path`]), when the campaign wrote one.
    pub inspect: Option<String>,
}

/// A row's interval of the ranked score and its significance marks, formatted.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Mark {
    /// Lower end of the interval (three decimals).
    pub lo: String,
    /// Upper end of the interval (three decimals).
    pub hi: String,
    /// The interval's ends as percentages, for the error bar.
    pub bar_lo: f64,
    /// See `bar_lo`.
    pub bar_hi: f64,
    /// p-value against the next run down (see [`p_text`]); empty on the last row.
    pub p_next: String,
    /// p-value against the top run; `–` on the top row.
    pub p_top: String,
    /// The top run, or not significantly different from it.
    pub shares_first: bool,
}

/// A formatted value and whether it is the best of its column.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Cell {
    /// The value as shown (see [`fixed3`] and [`counts_column`]).
    pub text: String,
    /// Best of its column (highest P, R, F1, TP; lowest FP, FN and other error counts); never
    /// set when all values are equal.
    pub best: bool,
}

/// One run's per-label results in every regime of a group, and its fair confusion matrix.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Drill {
    /// The run's name.
    pub system: String,
    /// One part per regime, strict first.
    pub parts: Vec<DrillPart>,
    /// One part per breakdown key (`regime`: the key; `labels`: its buckets), when the task
    /// asks for breakdowns.
    pub breakdowns: Vec<DrillPart>,
    /// The fair regime of the run's output, when the scorer gave one; only in the output's first
    /// group.
    pub fair: Option<FairView>,
}

/// The per-label rows of one regime.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DrillPart {
    /// `strict`, `fuzzy`, … (a family's table name)
    pub regime: String,
    /// The names of [`LabelRow::cells`].
    pub columns: Vec<String>,
    /// One row per label (label ALL excluded), in the per-run table's order.
    pub labels: Vec<LabelRow>,
}

/// One label's values, formatted.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LabelRow {
    /// The entity label.
    pub label: String,
    /// The values of [`DrillPart::columns`], formatted as in the tables.
    pub cells: Vec<String>,
}

/// The fair regime of one run: error-type totals and a (compact) confusion matrix.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FairView {
    /// TP, FP, FN, LE, BE, LBE.
    pub totals: Vec<Total>,
    /// The confusion matrix, compacted (see `docs/leaderboard.md`).
    pub heat: HeatMap,
    /// Labels summed into the `other` row and column.
    pub folded: usize,
}

/// A named count.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Total {
    /// Error type: TP, FP, FN, LE, BE or LBE.
    pub name: String,
    /// How many.
    pub count: u64,
}

/// A confusion matrix ready to draw. Columns are headed by short keys; rows show key and
/// label; `legend` names the column keys that are not row labels.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HeatMap {
    /// System labels, one per column.
    pub cols: Vec<HeatHead>,
    /// Gold labels, one row each.
    pub rows: Vec<HeatRow>,
    /// Column keys that are not row labels, with their labels.
    pub legend: Vec<HeatHead>,
}

/// A key and the label it stands for.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HeatHead {
    /// Short key (1-based number of the label).
    pub key: String,
    /// The label.
    pub label: String,
}

/// One gold label's row.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HeatRow {
    /// Short key (1-based number of the label).
    pub key: String,
    /// The gold label.
    pub label: String,
    /// One cell per column of [`HeatMap::cols`].
    pub cells: Vec<HeatCell>,
}

/// A count and its shade: `alpha` in 0..=1 is its share of the largest count.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HeatCell {
    /// The count (gold row label, system column label).
    pub count: u64,
    /// Shade in 0..=1: the count's share of the largest count, rounded to two decimals.
    pub alpha: f64,
}

impl HeatMap {
    /// Heat-map cells of a matrix (`counts[i][j]`: gold `rows[i]`, system `cols[j]`).
    pub fn new(rows: &[String], cols: &[String], counts: &[Vec<u64>]) -> HeatMap {
        let max = counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
        // One key per label, rows first, so that a square matrix numbers both axes alike.
        let mut labels: Vec<&str> = Vec::new();
        for l in rows.iter().chain(cols) {
            if !labels.contains(&l.as_str()) {
                labels.push(l);
            }
        }
        let key = |l: &str| {
            labels
                .iter()
                .position(|x| *x == l)
                .map_or_else(String::new, |i| (i + 1).to_string())
        };
        let head = |l: &String| HeatHead {
            key: key(l),
            label: l.clone(),
        };
        HeatMap {
            cols: cols.iter().map(head).collect(),
            legend: cols
                .iter()
                .filter(|c| !rows.contains(c))
                .map(head)
                .collect(),
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, label)| HeatRow {
                    key: key(label),
                    label: label.clone(),
                    cells: (0..cols.len())
                        .map(|j| {
                            let c = counts.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
                            HeatCell {
                                count: c,
                                alpha: ((c as f64 / max) * 100.0).round() / 100.0,
                            }
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// One team's best runs.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TeamCard {
    /// The team's name.
    pub team: String,
    /// HTML id.
    pub id: String,
    /// The team's best run in every table, in section and table order.
    pub entries: Vec<TeamEntry>,
}

/// A team's best run in one table, and the team's rank among the teams of that table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TeamEntry {
    /// `dataset · lang`.
    pub section: String,
    /// The group's title and regime, e.g. `NE-COARSE-LIT fuzzy`.
    pub table: String,
    /// The team's best run in that table.
    pub system: String,
    /// The ranked score ([`Board::metric`]), formatted as in the tables.
    pub score: String,
    /// Rank among the teams' best runs (teams with the same F1 share a rank).
    pub rank: usize,
    /// Number of teams in the table.
    pub teams: usize,
}

/// A score with three decimals (`–` when there is none), so that every score of a table has
/// the same form.
pub fn fixed3(v: Option<f64>) -> String {
    match v {
        Some(v) => format!("{v:.3}"),
        None => "–".to_string(),
    }
}

/// A p-value with three decimals, `<0.001` below that.
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "<0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

/// A percentage for a bar: `x` in 0..=1 as 0..=100 with one decimal.
pub fn percent(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 1000.0).round() / 10.0
}

/// Counts of one column formatted alike: whole numbers when all are, else two decimals
/// (weighted counts); `–` when there is none.
pub fn counts_column(values: &[Option<f64>]) -> Vec<String> {
    let whole = values.iter().flatten().all(|v| v.fract() == 0.0);
    values
        .iter()
        .map(|v| match (v, whole) {
            (None, _) => "–".to_string(),
            (Some(v), true) => format!("{v:.0}"),
            (Some(v), false) => format!("{v:.2}"),
        })
        .collect()
}

/// An HTML id: ASCII alphanumerics kept (lower-cased), everything else `-`.
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
    fn heat_map_scales_to_largest_and_keys_labels() {
        let rows = vec!["PER".to_string(), "LOC".to_string()];
        let cols = vec!["PER".to_string(), "O".to_string()];
        let h = HeatMap::new(&rows, &cols, &[vec![8, 2], vec![0, 4]]);
        assert_eq!(h.rows[0].cells[0].alpha, 1.0);
        assert_eq!(h.rows[0].cells[1].alpha, 0.25);
        assert_eq!(h.rows[1].cells[1].count, 4);
        assert_eq!(h.cols[0].key, "1");
        assert_eq!(h.cols[1].key, "3");
        assert_eq!(h.legend.len(), 1);
        assert_eq!(h.legend[0].label, "O");
    }

    #[test]
    fn numbers_have_one_form_per_column() {
        assert_eq!(fixed3(Some(0.0)), "0.000");
        assert_eq!(fixed3(Some(0.8)), "0.800");
        assert_eq!(counts_column(&[Some(3.0), Some(0.0)]), vec!["3", "0"]);
        assert_eq!(
            counts_column(&[Some(3.0), Some(0.5), None]),
            vec!["3.00", "0.50", "–"]
        );
        assert_eq!(slug("ajmc-de <x>"), "ajmc-de--x-");
    }
}
