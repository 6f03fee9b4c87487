//! Every metric family behind one interface.
//!
//! A [`Family`] reads a gold and a run file, pairs them unit by unit (documents, or sentences
//! where a format has none) and returns per-unit sufficient statistics ([`Statistics`]: a
//! vector of numbers per unit that add up); from any sum of those it builds its result tables
//! ([`crate::table::Results`]). Everything else is written once against this interface:
//! [`evaluate`] (point scores and bootstrap intervals), [`compare`] (paired tests of two runs),
//! the campaign rankings (`crate::campaign::family`) and every renderer (`crate::report::table`).
//! Resampling never re-scores: it sums unit statistics.
//!
//! The families of the crate are in the submodules, listed in a registry ([`names`],
//! [`Registration`]); [`build`] makes one from its name and [`Options`] (the one parser of
//! option values, shared by the CLI, campaign files and Python). A family defined elsewhere (a
//! test, another crate) implements [`Family`], declares its own options and is [`register`]ed:
//! it then gets every output, interval, comparison, ranking and its signature without further
//! code.
//!
//! ```
//! use fairscore::family::{self, Options};
//! # fn main() -> fairscore::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # let (gold, run) = (dir.join("gold.conll"), dir.join("run.conll"));
//! # std::fs::write(&gold, "Paris B-LOC\nis O\nnice O\n\nAnna B-PER\nsings O\n").unwrap();
//! # std::fs::write(&run, "Paris B-LOC\nis O\nnice O\n\nAnna B-ORG\nsings O\n").unwrap();
//! // Two CoNLL files scored in the four span regimes (nervaluate's names), no HIPE type needed.
//! let spans = family::build("spans", &Options::default())?;
//! let results = family::evaluate(spans.as_ref(), &gold, &run, None)?;
//! let strict = results.table("strict").unwrap();
//! let f1 = strict.row(&["ALL"]).unwrap().values[strict.column("F1").unwrap()];
//! assert_eq!(f1.as_f64(), Some(0.5));
//! # Ok(()) }
//! ```

mod adequacy;
pub(crate) mod breakdown;
mod columns;
mod compare;
pub(crate) mod fair;
mod full;
mod hipe;
mod inputs;
mod mentions;
pub(crate) mod muc;
mod nel;
pub(crate) mod options;
mod parting;
mod registry;
pub(crate) mod segmentation;
pub(crate) mod sign;
mod spans;
pub(crate) mod tagging;

pub(crate) use adequacy::TABLE as ADEQUACY_TABLE;
pub use adequacy::{sparse as too_sparse, GoldMentions, MARKS as ADEQUACY_MARKS};
pub use breakdown::{
    parse_keys as parse_breakdown, Asked as BreakdownAsked, Breakdown, Key as BreakdownKey,
};
pub use columns::{prf, prf_columns, prf_values, totals_table};
pub use compare::{compare, compare_statistics, compare_table, on_same_labels};
pub use full::Full;
pub use inputs::Inputs;
pub(crate) use mentions::aligned_converter;
pub use mentions::MentionsFamily;
pub(crate) use mentions::RUN_OPTIONS as ALIGN_OPTIONS;
pub use muc::{
    evaluate_files as evaluate_muc_files, judgements_tsv, MucCounts, MucOptions, MucResult,
    JUDGEMENTS_HEADER,
};
pub use nel::{LABELS as NEL_LABELS, MEASURES as NEL_MEASURES};
pub use options::{Options, OPTION_NAMES};
pub use registry::{build, names, own_option_names, register, Registration};
pub use segmentation::SegmentationFormat;
pub use sign::{
    agree_hashes, agree_signature, file_hash, head as signature_head, input_fields,
    resampling_fields, signature, AgreeHashes, Resampled,
};
pub use tagging::{Function, TagScorer, Tagset, PRESETS as TAGSET_PRESETS};

use std::path::Path;

use crate::error::{Error, Result};
use crate::metrics::resample::{Resampler, Units};
use crate::table::{Column, ResamplingInfo, Results, Table, Unit, Value};

/// Per-unit statistics of one gold/run pair.
///
/// Each unit holds `fixed` numbers followed by `block` numbers per label of `labels`; units
/// are stored one after the other in `data`. Families without labels leave `labels` empty.
/// Two evaluations of the same gold can be put on the same labels with [`Statistics::relabel`],
/// so a comparison of two runs is defined even when they use different labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Statistics {
    /// What a unit is.
    pub unit: Unit,
    /// Numbers per unit before the label blocks.
    pub fixed: usize,
    /// Numbers per label.
    pub block: usize,
    /// The labels, in block order.
    pub labels: Vec<String>,
    /// `units × width` numbers, unit after unit.
    pub data: Vec<f64>,
    /// Warnings about the inputs (one line each).
    pub warnings: Vec<String>,
    /// Tables of the whole input that are not resampled (only counts: a confusion matrix),
    /// given after the family's tables in point results.
    pub details: Vec<Table>,
    /// The family's per-annotation listing (TSV with a header), when it was asked for
    /// ([`Options::listing`]): fair's error listing, muc's judgements.
    pub listing: Option<String>,
    /// The breakdown of the spans by keys (`breakdown`), when one was asked for: its
    /// numbers are part of the fixed ones, its tables follow the family's.
    pub breakdown: Option<Breakdown>,
    /// The family's own full result of the pair, for a renderer of its own layout (the `hipe`
    /// family: the `eval::score` result behind the official per-run files).
    pub full: Full,
    /// Units pushed while the width is 0 (no label in any unit and no fixed numbers: muc on
    /// documents without entities), which `data` cannot count.
    empty_units: usize,
}

impl Statistics {
    /// Empty statistics of units of `fixed` numbers plus `block` per label.
    pub fn new(unit: Unit, fixed: usize, block: usize, labels: Vec<String>) -> Self {
        Statistics {
            unit,
            fixed,
            block,
            labels,
            data: Vec::new(),
            warnings: Vec::new(),
            details: Vec::new(),
            listing: None,
            breakdown: None,
            full: Full::default(),
            empty_units: 0,
        }
    }

    /// Numbers per unit.
    pub fn width(&self) -> usize {
        self.fixed + self.block * self.labels.len()
    }

    /// Number of units (units of no numbers count too).
    pub fn len(&self) -> usize {
        self.data
            .len()
            .checked_div(self.width())
            .unwrap_or(self.empty_units)
    }

    /// Whether there are no units.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends one unit (padded with zeros or cut to the width).
    pub fn push_unit(&mut self, mut unit: Vec<f64>) {
        unit.resize(self.width(), 0.0);
        self.data.extend(unit);
        self.empty_units += usize::from(self.width() == 0);
    }

    /// The sum of all units.
    pub fn total(&self) -> Vec<f64> {
        let w = self.width();
        let mut sum = vec![0.0; w];
        if w == 0 {
            return sum;
        }
        for u in self.data.chunks_exact(w) {
            for (s, x) in sum.iter_mut().zip(u) {
                *s += x;
            }
        }
        sum
    }

    /// The label block of `label` within a unit or sum.
    pub fn label_block<'s>(&self, sums: &'s [f64], i: usize) -> &'s [f64] {
        let start = self.fixed + i * self.block;
        &sums[start..start + self.block]
    }

    /// The same statistics over `labels` (a superset of [`Statistics::labels`]): blocks of
    /// labels this evaluation did not have are zero.
    pub fn relabel(&self, labels: &[String]) -> Statistics {
        let mut out = Statistics::new(self.unit, self.fixed, self.block, labels.to_vec());
        out.warnings = self.warnings.clone();
        out.details = self.details.clone();
        out.breakdown = self.breakdown.clone();
        out.full = self.full.clone();
        let w = self.width();
        let map: Vec<Option<usize>> = labels
            .iter()
            .map(|l| self.labels.iter().position(|x| x == l))
            .collect();
        if w == 0 {
            // Units of no numbers: each becomes a unit of zeros (or stays empty).
            for _ in 0..self.empty_units {
                out.push_unit(Vec::new());
            }
            return out;
        }
        for u in self.data.chunks_exact(w) {
            let mut v = u[..self.fixed].to_vec();
            for m in &map {
                match m {
                    Some(i) => v.extend_from_slice(&u[self.fixed + i * self.block..][..self.block]),
                    None => v.extend(std::iter::repeat_n(0.0, self.block)),
                }
            }
            out.data.extend(v);
        }
        out
    }
}

/// The cell that ranks runs: a table, a row key and a metric column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headline {
    /// The table's name.
    pub table: String,
    /// The row's key.
    pub row: Vec<String>,
    /// The metric column.
    pub column: String,
}

/// A metric family: how a gold and a run are read, paired and scored.
pub trait Family: Send + Sync {
    /// The family's name, as in campaign files and outputs (`segmentation`).
    fn name(&self) -> &str;

    /// The input formats the family reads (`--format` names).
    fn formats(&self) -> &[&'static str];

    /// Reads both files and pairs them: the per-unit statistics.
    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics>;

    /// [`Family::statistics`] with the content hashes of `gold` and `pred` for the signature
    /// ([`sign::file_hash`]), in that order: made from the bytes read for scoring where the
    /// family can (each file read once), else by reading the files again.
    fn statistics_hashed(&self, gold: &Path, pred: &Path) -> Result<(Statistics, [String; 2])> {
        let s = self.statistics(gold, pred)?;
        Ok((s, [sign::file_hash(gold)?, sign::file_hash(pred)?]))
    }

    /// [`Family::statistics`] reading through parses shared between scorings ([`Inputs`]).
    fn statistics_in(&self, gold: &Path, pred: &Path, _shared: &Inputs) -> Result<Statistics> {
        self.statistics(gold, pred)
    }

    /// The result tables of summed statistics. For the same [`Statistics::labels`] the tables
    /// must have the same shape whatever the sums (resampling relies on it).
    fn tables(&self, stats: &Statistics, sums: &[f64]) -> Vec<Table>;

    /// The cell that ranks runs by default.
    fn headline(&self) -> Headline;

    /// Lines saying how the numbers are computed (options, conventions).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// The options as this family applies them, by name, for its signature
    /// ([`sign::signature`]): what changes the numbers, defaults written out where the family
    /// has one, in a fixed order. `sign::option_fields` gives the common options.
    fn signature_fields(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The setting that asks for the family's per-annotation listing and names its file
    /// (`errors`, `judgements`), when the family has one; built with [`Options::listing`],
    /// its statistics then carry the listing ([`Statistics::listing`]).
    fn listing_name(&self) -> Option<&'static str> {
        None
    }

    /// The gold's mentions per label in `sums` and where each label's F1 is, for the
    /// `adequacy` table (docs/breakdown.md), when the family counts labeled mentions.
    fn gold_mentions(&self, _stats: &Statistics, _sums: &[f64]) -> Option<GoldMentions> {
        None
    }
}

/// The results of summed statistics: the family's tables with provenance.
pub fn results_of(fam: &dyn Family, stats: &Statistics, sums: &[f64]) -> Results {
    let mut r = Results::new(fam.name(), stats.unit, stats.len());
    r.notes = fam.notes();
    r.warnings = stats.warnings.clone();
    r.tables = fam.tables(stats, sums);
    if let Some(b) = &stats.breakdown {
        r.tables.extend(b.tables(sums));
    }
    r
}

/// The ratio cells of [`results_of`] in the order of [`Results::ratios`], without the notes
/// and with the breakdown's ratios computed from the sums, not from tables (resampling's
/// inner loop).
fn ratios_of(fam: &dyn Family, stats: &Statistics, sums: &[f64], out: &mut Vec<f64>) {
    let mut r = Results::new(fam.name(), stats.unit, 0);
    r.tables = fam.tables(stats, sums);
    r.ratios(out);
    if let Some(b) = &stats.breakdown {
        b.ratios(sums, out);
    }
}

/// Scores a run: the family's tables, and with `resampler` a percentile bootstrap interval
/// for every ratio cell (units resampled with replacement). Fewer than two units with a
/// resampler is a usage error naming the unit.
pub fn evaluate(
    fam: &dyn Family,
    gold: &Path,
    pred: &Path,
    resampler: Option<&Resampler>,
) -> Result<Results> {
    let stats = fam.statistics(gold, pred)?;
    scored(fam, &stats, resampler)
}

/// [`evaluate`] on statistics already made.
pub fn scored(
    fam: &dyn Family,
    stats: &Statistics,
    resampler: Option<&Resampler>,
) -> Result<Results> {
    let total = stats.total();
    let mut r = results_of(fam, stats, &total);
    if let Some(rs) = resampler {
        // Units of no numbers (muc on documents without entities): nothing to resample, no
        // cell with a value to give an interval.
        if let Some(units) = units_of(stats)? {
            intervals(fam, stats, units, rs, &mut r)?;
        }
        r.resampling = Some(ResamplingInfo {
            samples: rs.samples,
            seed: rs.seed,
            confidence: rs.confidence,
        });
    }
    if let Some(g) = fam.gold_mentions(stats, &total) {
        r.tables.push(adequacy::table(&g, &r));
    }
    r.tables.extend(stats.details.iter().cloned());
    Ok(r)
}

/// Sets the percentile bootstrap interval of every ratio cell of `r` (a cell without value
/// has none).
fn intervals(
    fam: &dyn Family,
    stats: &Statistics,
    units: Units<'_>,
    rs: &Resampler,
    r: &mut Results,
) -> Result<()> {
    set_intervals(r, units, rs, &|sums, v| ratios_of(fam, stats, sums, v))
}

/// Sets the interval of every ratio cell of `r` from `ratios`, its ratio cells of resampled
/// sums in the order of [`Results::ratios`] (a cell without value has none).
fn set_intervals(
    r: &mut Results,
    units: Units<'_>,
    rs: &Resampler,
    ratios: &(dyn Fn(&[f64], &mut Vec<f64>) + Sync),
) -> Result<()> {
    let mut probe = Vec::new();
    r.ratios(&mut probe);
    let k = probe.len();
    let score = |sums: &[f64], out: &mut [f64]| {
        let mut v = Vec::with_capacity(k);
        ratios(sums, &mut v);
        for (o, x) in out.iter_mut().zip(v) {
            *o = x;
        }
    };
    let cis = rs.bootstrap_vec(units, k, &score)?;
    for (slot, ci) in r.ratio_slots().into_iter().zip(cis) {
        *slot = Some([ci.lo, ci.hi]);
    }
    // A cell with no value has no interval.
    for t in &mut r.tables {
        for row in &mut t.rows {
            for (v, ci) in row.values.iter().zip(row.ci.iter_mut()) {
                if *v == Value::Missing {
                    *ci = None;
                }
            }
        }
    }
    Ok(())
}

/// The breakdown of a run alone: the `breakdown:KEY` tables of `stats` and their examples,
/// with `resampler` every bucket's P, R and F1 with the interval [`scored`] gives it (the
/// same units resampled with the same seed); `None` without a breakdown. (A HIPE campaign's
/// boards take the rest of a run's numbers from its official rows.)
pub fn breakdown_scored(
    fam: &dyn Family,
    stats: &Statistics,
    resampler: Option<&Resampler>,
) -> Result<Option<Results>> {
    let Some(b) = &stats.breakdown else {
        return Ok(None);
    };
    let mut r = Results::new(fam.name(), stats.unit, stats.len());
    r.tables = b.tables(&stats.total());
    if let Some(rs) = resampler {
        if let Some(units) = units_of(stats)? {
            set_intervals(&mut r, units, rs, &|sums, v| b.ratios(sums, v))?;
        }
        r.resampling = Some(ResamplingInfo {
            samples: rs.samples,
            seed: rs.seed,
            confidence: rs.confidence,
        });
    }
    let examples = stats
        .details
        .iter()
        .filter(|t| t.name.starts_with("breakdown:"));
    r.tables.extend(examples.cloned());
    Ok(Some(r))
}

/// The units of `stats` for resampling: at least two are needed (a usage error naming the
/// count); units of no numbers give `None`, nothing to resample.
fn units_of(stats: &Statistics) -> Result<Option<Units<'_>>> {
    if stats.len() < 2 {
        return Err(Error::usage(format!(
            "resampling needs at least two {}s; the input has {}: no interval can be given",
            stats.unit.name(),
            stats.len()
        )));
    }
    if stats.width() == 0 {
        return Ok(None);
    }
    Units::new(&stats.data, stats.width()).map(Some)
}

/// The column of the headline cell in `results` (its kind, whether lower is better), if any.
pub fn headline_column<'r>(results: &'r Results, h: &Headline) -> Option<&'r Column> {
    let t = results.table(&h.table)?;
    t.columns.get(t.column(&h.column)?)
}

/// The value of the headline cell of `results` (0 when the cell is missing).
pub fn headline_value(results: &Results, h: &Headline) -> f64 {
    let key: Vec<&str> = h.row.iter().map(String::as_str).collect();
    results
        .table(&h.table)
        .and_then(|t| Some((t, t.column(&h.column)?)))
        .and_then(|(t, c)| t.row(&key).and_then(|r| r.values.get(c).copied()))
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
}

/// Refuses standoff files (brat, doccano, Label Studio, Prodigy) given to a family that
/// reads token files without a format: they would be misread (a brat `.ann` as text). The
/// `segmentation` and `tagging` commands call it too.
pub fn refuse_standoff(family: &str, gold: &Path, pred: &Path) -> Result<()> {
    for p in [gold, pred] {
        if crate::eval::standoff::is_standoff(p) {
            return Err(Error::input(
                p,
                0,
                format!(
                    "this is standoff annotation (brat, doccano, Label Studio or Prodigy): the \
                     {family} family reads token files; standoff files are scored by the spans, \
                     fair and muc families (docs/standoff.md)"
                ),
            ));
        }
    }
    Ok(())
}
