//! The one result model every metric family produces: [`Results`], a list of [`Table`]s whose
//! rows are keyed by typed keys ([`KeyKind`]: label, column, regime, function, …) and whose
//! metric columns hold typed values ([`Value`]: counts, weighted amounts, ratios), each ratio
//! with an optional confidence interval.
//!
//! Renderers in `report::table` turn any [`Results`] into text, JSON, CSV/TSV, Markdown or HTML;
//! the bootstrap, `compare` and campaign rankings of `family` work on it without knowing which
//! family made it. Values are always finite: [`Value::ratio`] and [`Value::amount`] turn a
//! non-finite number into [`Value::Missing`], so no output can hold NaN or Infinity.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

pub(crate) mod signature;
pub use signature::Signature;

/// What a row key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// An entity type or tag label (`ALL` for all labels together); the gold side's label
    /// beside [`KeyKind::RunLabel`].
    Label,
    /// The run's label of a pair of labels (a confusion matrix).
    RunLabel,
    /// A scored column of the input (`NE-COARSE-LIT`).
    Column,
    /// A filter of the data (time period, noise level).
    Filter,
    /// A counting regime (`strict`, `partial`, …).
    Regime,
    /// An n-best cutoff (`@1`).
    Cutoff,
    /// A scoring function or level (`words`, `boundaries`, `exact`, `micro`).
    Level,
    /// A metric (in comparisons).
    Measure,
    /// A table's name (in comparisons over several tables).
    Table,
    /// A run (in rankings).
    System,
    /// A participating team (in rankings of teams).
    Team,
    /// A document (agreement per document).
    Document,
    /// An annotator (agreement between annotators).
    Annotator,
    /// The second annotator of a pair (beside [`KeyKind::Annotator`]).
    OtherAnnotator,
    /// The second label of a pair of labels (beside [`KeyKind::Label`]; agreement confusion).
    OtherLabel,
    /// A bucket of a breakdown (a value or a range of values of a span property).
    Bucket,
}

impl KeyKind {
    /// The key's name in headers and JSON (`label`, `regime`, …).
    pub fn name(self) -> &'static str {
        match self {
            KeyKind::Label => "label",
            KeyKind::RunLabel => "run_label",
            KeyKind::Column => "column",
            KeyKind::Filter => "filter",
            KeyKind::Regime => "regime",
            KeyKind::Cutoff => "cutoff",
            KeyKind::Level => "level",
            KeyKind::Measure => "measure",
            KeyKind::Table => "table",
            KeyKind::System => "system",
            KeyKind::Team => "team",
            KeyKind::Document => "document",
            KeyKind::Annotator => "annotator",
            KeyKind::OtherAnnotator => "other_annotator",
            KeyKind::OtherLabel => "other_label",
            KeyKind::Bucket => "bucket",
        }
    }
}

/// What a metric column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A whole number of things (TP, gold words).
    Count,
    /// A possibly fractional amount (weighted counts, partial credit).
    Amount,
    /// A fraction in [0, 1] for scores (P, R, F1, accuracy), or a signed difference of two
    /// such fractions in comparisons; resampled when intervals are asked for.
    Ratio,
    /// A p-value.
    PValue,
}

/// One metric column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The column's name (`P`, `F1`, `TP`, …), unique within its table.
    pub name: String,
    /// What it holds.
    pub kind: Kind,
    /// Whether it counts errors (FP, FN, a fair error type, a MUC miss), so that lower is
    /// better: a ranking by it puts the lowest value first. Every other column ranks the
    /// highest first.
    pub lower_is_better: bool,
}

impl Column {
    /// A column named `name` holding `kind`.
    pub fn new(name: impl Into<String>, kind: Kind) -> Self {
        Column {
            name: name.into(),
            kind,
            lower_is_better: false,
        }
    }

    /// A column named `name` counting errors (`kind`): lower is better.
    pub fn errors(name: impl Into<String>, kind: Kind) -> Self {
        Column {
            lower_is_better: true,
            ..Column::new(name, kind)
        }
    }
}

/// One cell of a metric column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A whole number.
    Count(u64),
    /// A finite amount.
    Amount(f64),
    /// A finite fraction (or difference of fractions).
    Ratio(f64),
    /// Not defined for this row (rendered empty; `null` in JSON).
    Missing,
}

impl Value {
    /// A ratio; non-finite values become [`Value::Missing`].
    pub fn ratio(x: f64) -> Value {
        if x.is_finite() {
            Value::Ratio(x)
        } else {
            Value::Missing
        }
    }

    /// An amount; non-finite values become [`Value::Missing`]. Whole amounts stay amounts.
    pub fn amount(x: f64) -> Value {
        if x.is_finite() {
            Value::Amount(x)
        } else {
            Value::Missing
        }
    }

    /// The value as a number (`None` when missing).
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Value::Count(n) => Some(n as f64),
            Value::Amount(x) | Value::Ratio(x) => Some(x),
            Value::Missing => None,
        }
    }
}

/// A confidence interval `[lo, hi]` (finite, lo ≤ hi).
pub type Interval = [f64; 2];

/// One row: its key (one string per key column) and one value per metric column.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// One entry per [`Table::keys`].
    pub key: Vec<String>,
    /// One entry per [`Table::columns`].
    pub values: Vec<Value>,
    /// One entry per [`Table::columns`]: the interval of a ratio column, when resampled.
    pub ci: Vec<Option<Interval>>,
}

/// One table of results.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Short name, unique within its [`Results`] (`words`, `per-type`); file names and JSON.
    pub name: String,
    /// A title for people (`Word segmentation`).
    pub title: String,
    /// What each part of a row key names.
    pub keys: Vec<KeyKind>,
    /// The metric columns.
    pub columns: Vec<Column>,
    /// The rows, in report order.
    pub rows: Vec<Row>,
}

impl Table {
    /// An empty table.
    pub fn new(name: &str, title: &str, keys: Vec<KeyKind>, columns: Vec<Column>) -> Self {
        Table {
            name: name.to_string(),
            title: title.to_string(),
            keys,
            columns,
            rows: Vec::new(),
        }
    }

    /// Appends a row; `key` and `values` must have one entry per key and per column (a
    /// shorter `values` is padded with [`Value::Missing`], a longer one cut).
    pub fn push(&mut self, key: Vec<String>, mut values: Vec<Value>) {
        values.resize(self.columns.len(), Value::Missing);
        let ci = vec![None; self.columns.len()];
        self.rows.push(Row { key, values, ci });
    }

    /// The index of the column named `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The row whose key is `key`.
    pub fn row(&self, key: &[&str]) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.key.len() == key.len() && r.key.iter().zip(key).all(|(a, b)| a == b))
    }
}

/// What a resampling unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Documents (`-DOCSTART-`, `# document_id`, a blank-line unit of a span file).
    Document,
    /// Sentences (formats without documents).
    Sentence,
}

impl Unit {
    /// `document` or `sentence`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Document => "document",
            Unit::Sentence => "sentence",
        }
    }
}

/// How intervals were computed, for the outputs to say.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResamplingInfo {
    /// Number of resamples.
    pub samples: usize,
    /// Seed of the random streams.
    pub seed: u64,
    /// Confidence level of the intervals.
    pub confidence: f64,
}

/// Everything one evaluation produced: the tables and how they were computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// The family that made them (`segmentation`).
    pub family: String,
    /// The resampling unit of the family's statistics.
    pub unit: Unit,
    /// How many units were compared.
    pub units: usize,
    /// Set when the ratio cells carry bootstrap intervals.
    pub resampling: Option<ResamplingInfo>,
    /// Lines that say how the numbers were computed (options, conventions).
    pub notes: Vec<String>,
    /// Warnings about the inputs (one line each).
    pub warnings: Vec<String>,
    /// The tables, in report order.
    pub tables: Vec<Table>,
    /// What the numbers depend on, as one line (`fairscore|family:…`), when known.
    pub signature: Option<Signature>,
}

impl Results {
    /// Results of `family` over `units` units, with no tables yet.
    pub fn new(family: &str, unit: Unit, units: usize) -> Self {
        Results {
            family: family.to_string(),
            unit,
            units,
            resampling: None,
            notes: Vec::new(),
            warnings: Vec::new(),
            tables: Vec::new(),
            signature: None,
        }
    }

    /// The table named `name`.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// Every ratio cell in table, row and column order (the values a resampling follows).
    pub fn ratios(&self, out: &mut Vec<f64>) {
        for t in &self.tables {
            for r in &t.rows {
                for (c, v) in t.columns.iter().zip(&r.values) {
                    if c.kind == Kind::Ratio {
                        out.push(v.as_f64().unwrap_or(0.0));
                    }
                }
            }
        }
    }

    /// Visits every ratio cell's interval slot in the order of [`Results::ratios`].
    pub fn ratio_slots(&mut self) -> Vec<&mut Option<Interval>> {
        let mut out = Vec::new();
        for t in &mut self.tables {
            let kinds: Vec<Kind> = t.columns.iter().map(|c| c.kind).collect();
            for r in &mut t.rows {
                for (k, slot) in kinds.iter().zip(r.ci.iter_mut()) {
                    if *k == Kind::Ratio {
                        out.push(slot);
                    }
                }
            }
        }
        out
    }
}

/// An output format for [`Results`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableFormat {
    /// Aligned plain text, scores in percent.
    Text,
    /// JSON, scores as fractions.
    Json,
    /// Comma-separated values, one file of all tables (a `table` column first).
    Csv,
    /// Tab-separated values, as CSV.
    Tsv,
    /// GitHub Markdown tables.
    Markdown,
    /// A standalone HTML page.
    Html,
    /// LaTeX tables (booktabs) in a standalone document.
    Latex,
}

impl TableFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [TableFormat; 7] = [
        TableFormat::Text,
        TableFormat::Json,
        TableFormat::Csv,
        TableFormat::Tsv,
        TableFormat::Markdown,
        TableFormat::Html,
        TableFormat::Latex,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Text => "text",
            TableFormat::Json => "json",
            TableFormat::Csv => "csv",
            TableFormat::Tsv => "tsv",
            TableFormat::Markdown => "markdown",
            TableFormat::Html => "html",
            TableFormat::Latex => "latex",
        }
    }
}

impl fmt::Display for TableFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TableFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        let name = match lower.as_str() {
            "md" => "markdown",
            "txt" => "text",
            "tex" => "latex",
            other => other,
        };
        TableFormat::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                Error::usage(format!(
                    "table: unknown format {}; use text, json, csv, tsv, markdown, html or latex",
                    crate::error::snippet(s)
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_are_missing_and_ratio_slots_follow_ratios() {
        assert_eq!(Value::ratio(f64::NAN), Value::Missing);
        assert_eq!(Value::amount(f64::INFINITY), Value::Missing);
        let mut t = Table::new(
            "t",
            "T",
            vec![KeyKind::Label],
            vec![
                Column::new("TP", Kind::Count),
                Column::new("F1", Kind::Ratio),
            ],
        );
        t.push(vec!["A".into()], vec![Value::Count(1), Value::ratio(0.5)]);
        t.push(vec!["B".into()], vec![Value::Count(2)]);
        let mut r = Results::new("x", Unit::Sentence, 2);
        r.tables.push(t);
        let mut v = Vec::new();
        r.ratios(&mut v);
        assert_eq!(v, vec![0.5, 0.0]);
        assert_eq!(r.ratio_slots().len(), 2);
        assert_eq!(
            "MD".parse::<TableFormat>().ok(),
            Some(TableFormat::Markdown)
        );
        assert!("xls".parse::<TableFormat>().is_err());
    }
}
