//! The options of one scoring and the parsers of their command-line spellings.

use crate::corpus::{Date, ReadOptions};
use crate::error::{snippet, Error, Result};
use crate::hipe::{Edition, Task};
use std::collections::BTreeSet;
use std::path::Path;

/// A regime of `score`'s TSV rows (`--regimes`): one of the two official countings, or fair
/// evaluation (see `docs/fair.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Regime {
    /// The official `ent_type` regime.
    Fuzzy,
    /// The official `strict` regime.
    Strict,
    /// Ortmann's fair counting (LE, BE, LBE as half FP and half FN).
    Fair,
    /// Fair counting with the `--weights` formula.
    Weighted,
}

impl Regime {
    /// The HIPE counting regime of the row, for the official regimes.
    pub fn counting(self) -> Option<crate::matching::SpanRegime> {
        match self {
            Regime::Fuzzy => Some(crate::matching::SpanRegime::EntType),
            Regime::Strict => Some(crate::matching::SpanRegime::Strict),
            Regime::Fair | Regime::Weighted => None,
        }
    }

    /// The name in `--regimes` and in the TSV's Evaluation cells.
    pub fn as_str(self) -> &'static str {
        match self {
            Regime::Fuzzy => "fuzzy",
            Regime::Strict => "strict",
            Regime::Fair => "fair",
            Regime::Weighted => "weighted",
        }
    }

    /// Parses `--regimes fuzzy,strict,fair,weighted`.
    pub fn parse_list(s: &str) -> Result<Vec<Regime>> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let r = match part {
                // `ent_type` is the word of `evaluate` (nervaluate's) for the same regime.
                "fuzzy" | "ent_type" | "ent-type" | "type" => Regime::Fuzzy,
                "strict" => Regime::Strict,
                "fair" => Regime::Fair,
                "weighted" => Regime::Weighted,
                _ => {
                    return Err(Error::usage(format!(
                        "--regimes: unknown regime {part:?}; use fuzzy (also ent_type), strict, fair, weighted"
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

/// Everything that shapes one scoring.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    /// The task scored.
    pub task: Task,
    /// The HIPE edition: the columns scored and the file-name convention.
    pub edition: Edition,
    /// Upper-cased lines of a `--tagset` file.
    pub tagset: Option<BTreeSet<String>>,
    /// `--n_best` cutoffs (NEL).
    pub n_best: Vec<usize>,
    /// `--noise-level` ranges (the all-data evaluation is added first).
    pub noise_levels: Vec<(f64, f64)>,
    /// `--time-period` ranges (the all-data evaluation is added first).
    pub time_periods: Vec<(Date, Date)>,
    /// `--glue` column pairs.
    pub glue: Vec<(String, String)>,
    /// `--suffix`, appended to file names and Evaluation keys.
    pub suffix: Option<String>,
    /// `--skip-check`: no file-name check; System is the `--pred` argument as given.
    pub skip_check: bool,
    /// `--original_nel`: consecutive-link grouping instead of NE-bounded.
    pub original_nel: bool,
    /// Regimes of the TSV rows, in order (default fuzzy, strict: the official outputs). `Fair`
    /// and `Weighted` also add blocks to the JSON.
    pub regimes: Vec<Regime>,
    /// Weights of the `weighted` regime (Ortmann's formula syntax).
    pub weights: Option<crate::matching::fair::Weights>,
    /// Collect a per-span error listing (`--errors`).
    pub errors: bool,
    /// Keep the entities of each column's documents as scored (NERC of HIPE TSV, whose
    /// documents are scored whole), in the scoring result's `entities`, for a breakdown.
    pub keep_entities: bool,
    /// Input format of gold and run (HIPE TSV or CoNLL).
    pub format: crate::formats::Format,
    /// The tag column scored for CoNLL input (`TAG` when `None`).
    pub column: Option<String>,
    /// `--relaxed MAP`: normalize the gold (`--norm-histo`) and the run (`--norm-time
    /// --norm-histo`) with this QID map before scoring.
    pub relaxed_map: Option<std::collections::HashMap<String, String>>,
    /// `--bootstrap N [--seed S] [--confidence C]`: percentile bootstrap intervals of every
    /// micro score (added to the JSON); `None` leaves the official outputs untouched.
    pub bootstrap: Option<crate::metrics::resample::Resampler>,
    /// `--beta B`: also give `F<β>_micro` beside every `F1_micro` of the JSON (never in the
    /// official TSV); `None` (or 1) leaves the outputs as they are.
    pub beta: Option<f64>,
    /// How run spans are paired with gold spans: the HIPE scorer's first overlap (the
    /// official outputs) or nervaluate's closest overlap (the spans family's `attribution`).
    pub attribution: crate::matching::span_count::Attribution,
    /// A rewrite of the run's text before it is parsed: its tag repairs and type changes
    /// (`--repair`, `--map-types`, `--keep-types`, `--remove-types`, CoNLL runs).
    pub run_text: Option<std::sync::Arc<dyn crate::corpus::TextRewrite>>,
}

impl ScoreOptions {
    /// The official CLI's defaults for `task` and `edition`: n-best 1, no filters, HIPE TSV
    /// input, fuzzy and strict rows, no fair scores, no error listing.
    pub fn new(task: Task, edition: Edition) -> Self {
        ScoreOptions {
            task,
            edition,
            tagset: None,
            n_best: vec![1],
            noise_levels: Vec::new(),
            time_periods: Vec::new(),
            glue: Vec::new(),
            suffix: None,
            skip_check: false,
            original_nel: false,
            relaxed_map: None,
            format: crate::formats::Format::Hipe,
            column: None,
            regimes: vec![Regime::Fuzzy, Regime::Strict],
            weights: None,
            errors: false,
            keep_entities: false,
            bootstrap: None,
            beta: None,
            attribution: crate::matching::span_count::Attribution::Hipe,
            run_text: None,
        }
    }

    /// Refuses lists that give an entry twice (a usage error naming it): `--n_best 1,1`,
    /// a noise level or time period repeated. A repeated entry would be evaluated, stored
    /// and written again; see `docs/errors.md` ("Repeated entries"). Also refuses a cutoff 0.
    pub fn validate(&self) -> Result<()> {
        if let Some(n) = first_repeat(self.n_best.iter().copied()) {
            return Err(Error::usage(format!(
                "--n_best: {n} is given twice; give each cutoff once"
            )));
        }
        if self.n_best.contains(&0) {
            return Err(Error::usage("--n_best: cutoffs are whole numbers ≥ 1"));
        }
        let noise = self
            .noise_levels
            .iter()
            .map(|(a, b)| (a.to_bits(), b.to_bits()));
        if let Some((a, b)) = first_repeat(noise) {
            return Err(Error::usage(format!(
                "--noise-level: {}-{} is given twice; give each range once",
                f64::from_bits(a),
                f64::from_bits(b)
            )));
        }
        if let Some((a, b)) = first_repeat(self.time_periods.iter().copied()) {
            let d = |d: Date| format!("{}/{:02}/{:02}", d.year, d.month, d.day);
            return Err(Error::usage(format!(
                "--time-period: {}-{} is given twice; give each range once",
                d(a),
                d(b)
            )));
        }
        Ok(())
    }

    /// The options the readers need (the `--glue` pairs).
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            glue: self.glue.clone(),
            ..ReadOptions::default()
        }
    }
}

/// The first item that occurs a second time (in linear time).
pub fn first_repeat<T: Eq + std::hash::Hash>(items: impl IntoIterator<Item = T>) -> Option<T> {
    let mut seen = std::collections::HashSet::new();
    for x in items {
        if seen.contains(&x) {
            return Some(x);
        }
        seen.insert(x);
    }
    None
}

/// Reads a tag-set file as the official scorer: every line, upper-cased.
pub fn read_tagset(path: &Path) -> Result<BTreeSet<String>> {
    let text = crate::io::read_text(path)?;
    Ok(text
        .to_uppercase()
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect())
}

/// Parses `--n_best 1,3,5`: whole numbers ≥ 1, each once (a usage error naming the option).
pub fn parse_n_best(s: &str) -> Result<Vec<usize>> {
    let mut cutoffs: Vec<usize> = Vec::new();
    for part in s.split(',') {
        let k = part
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&k| k >= 1)
            .ok_or_else(|| {
                Error::usage(format!(
                    "n_best: {} is not a positive whole number",
                    snippet(part)
                ))
            })?;
        if cutoffs.contains(&k) {
            return Err(Error::usage(format!("n_best: {k} is given twice")));
        }
        cutoffs.push(k);
    }
    Ok(cutoffs)
}

/// Parses `--glue COL_A+COL_B,…`: pairs of columns whose labels are glued.
pub fn parse_glue(s: &str) -> Result<Vec<(String, String)>> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('+')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| {
                    Error::usage(format!("glue: {} is not a pair COL_A+COL_B", snippet(p)))
                })
        })
        .collect()
}

/// Parses `--noise-level 0.0-0.1,0.1-1.0`.
pub fn parse_noise_levels(s: &str) -> Result<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let bad = || {
            Error::usage(format!(
                "--noise-level: {part:?} is not a range LOWER-UPPER like 0.0-0.1"
            ))
        };
        let (a, b) = part.split_once('-').ok_or_else(bad)?;
        if b.contains('-') {
            return Err(bad());
        }
        // Plain decimals only: Rust's parser would also take `nan`, `inf` and exponents.
        let plain = |x: &str| {
            let x = x.trim();
            !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit() || c == b'.')
        };
        if !plain(a) || !plain(b) {
            return Err(bad());
        }
        let lo: f64 = a.trim().parse().map_err(|_| bad())?;
        let hi: f64 = b.trim().parse().map_err(|_| bad())?;
        if lo > hi {
            return Err(Error::usage(format!(
                "--noise-level: in {part:?} the lower bound is above the upper one"
            )));
        }
        out.push((lo, hi));
    }
    if out.is_empty() {
        return Err(Error::usage("--noise-level: no range given"));
    }
    Ok(out)
}

/// Parses `--time-period 1900-1950,…` (years) or `1900/01/01-1950/12/31,…` (dates).
pub fn parse_time_periods(s: &str) -> Result<Vec<(Date, Date)>> {
    let bad = || {
        Error::usage(format!(
            "--time-period: {s:?} is not a list of ranges like 1900-1950 or 1900/01/01-1950/12/31"
        ))
    };
    // Exactly one `-` a range: `2020-13-01-2021-01-01` is refused, not read as 2020-13.
    let parts: Vec<(&str, &str)> = s
        .split(',')
        .map(|p| match p.split_once('-') {
            Some((a, b)) if !b.contains('-') => Ok((a, b)),
            _ => Err(bad()),
        })
        .collect::<Result<_>>()?;
    let year = |y: &str| -> Option<Date> {
        if y.is_empty() || y.len() > 4 || !y.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let year: i32 = y.parse().ok()?;
        (year >= 1).then_some(Date {
            year,
            month: 1,
            day: 1,
        })
    };
    let ymd = |s: &str| -> Option<Date> {
        let mut it = s.split('/');
        let y: i32 = it.next()?.parse().ok()?;
        let m: u32 = it.next()?.parse().ok()?;
        let d: u32 = it.next()?.parse().ok()?;
        if it.next().is_some() {
            return None;
        }
        let date = Date {
            year: y,
            month: m,
            day: d,
        };
        crate::corpus::valid_date(date).then_some(date)
    };
    // As the official CLI: all ranges as years, or else all as Y/m/d dates.
    let as_years: Option<Vec<(Date, Date)>> = parts
        .iter()
        .map(|(a, b)| Some((year(a)?, year(b)?)))
        .collect();
    let periods = match as_years {
        Some(v) => v,
        None => parts
            .iter()
            .map(|(a, b)| Some((ymd(a)?, ymd(b)?)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?,
    };
    match periods.iter().zip(&parts).find(|((a, b), _)| a > b) {
        Some((_, (a, b))) => Err(Error::usage(format!(
            "--time-period: in {a}-{b} the lower bound is above the upper one"
        ))),
        None => Ok(periods),
    }
}
