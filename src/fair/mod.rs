//! Fair evaluation (Ortmann 2022) of whole files: reading target and system files
//! ([`read`]), pairing their units, running [`crate::matching::fair::evaluate`] on each pair,
//! accumulating a [`Tally`], and writing tables, JSON and a per-span error listing ([`output`]).
//! Weight formulas are parsed by [`weights`].

pub mod output;
pub mod read;
pub mod weights;

use std::path::Path;

use crate::matching::fair::{evaluate, FairOutcome, Focus, Tally, Weights};
use crate::{Error, Result};

pub use read::{Format, ReadOptions, Unit};
pub use weights::parse_weights;

/// Labels of dummy spans that are always excluded (the reference's `NONE` and `EMPTY`).
pub const DUMMY_LABELS: [&str; 2] = ["NONE", "EMPTY"];

/// Options of a fair evaluation run.
#[derive(Debug, Clone)]
pub struct FairOptions {
    pub read: ReadOptions,
    pub focus: Focus,
    /// Weights for the weighted scores; `None` means the fair weights.
    pub weights: Option<Weights>,
    /// Evaluate only these labels (`None`: all).
    pub labels: Option<Vec<String>>,
    /// Labels to leave out, in addition to [`DUMMY_LABELS`].
    pub exclude: Vec<String>,
}

impl Default for FairOptions {
    fn default() -> Self {
        FairOptions {
            read: ReadOptions::default(),
            focus: Focus::Target,
            weights: None,
            labels: None,
            exclude: Vec::new(),
        }
    }
}

impl FairOptions {
    /// Whether spans with this label take part.
    pub fn keeps(&self, label: &str) -> bool {
        !DUMMY_LABELS.contains(&label)
            && !self.exclude.iter().any(|x| x == label)
            && self
                .labels
                .as_ref()
                .is_none_or(|ls| ls.iter().any(|x| x == label))
    }
}

/// One evaluated pair of units.
#[derive(Debug, Clone)]
pub struct UnitResult {
    pub target: Unit,
    pub system: Unit,
    pub outcome: FairOutcome,
}

/// The result of a fair evaluation run.
#[derive(Debug, Clone)]
pub struct FairReport {
    pub tally: Tally,
    pub focus: Focus,
    /// The weights of the weighted scores (the fair weights unless others were given).
    pub weights: Weights,
    /// Whether weights were given explicitly.
    pub weights_given: bool,
    pub units: Vec<UnitResult>,
}

/// Reads and evaluates a target and a system file.
pub fn evaluate_files(target: &Path, system: &Path, opts: &FairOptions) -> Result<FairReport> {
    let t_units = read::read_units(target, &opts.read)?;
    let s_units = read::read_units(system, &opts.read)?;
    evaluate_units(target, t_units, system, s_units, opts)
}

/// Pairs the units of two files in order and evaluates them. The files must have the same
/// number of units; where both give tokens, paired units must have the same number of tokens.
pub fn evaluate_units(
    target_path: &Path,
    target: Vec<Unit>,
    system_path: &Path,
    system: Vec<Unit>,
    opts: &FairOptions,
) -> Result<FairReport> {
    if target.len() != system.len() {
        let (path, unit) = if target.len() < system.len() {
            (system_path, &system[target.len()])
        } else {
            (target_path, &target[system.len()])
        };
        return Err(Error::input(
            path,
            unit.line,
            format!(
                "expected the same number of units (sentences/documents) in target and system: \
                 target has {}, system has {}",
                target.len(),
                system.len()
            ),
        ));
    }
    let mut tally = Tally::new();
    let mut units = Vec::with_capacity(target.len());
    for (mut t, mut s) in target.into_iter().zip(system) {
        if let (Some(a), Some(b)) = (&t.tokens, &s.tokens) {
            if a.len() != b.len() {
                return Err(Error::input(
                    system_path,
                    s.line,
                    format!(
                        "unit {} has {} tokens in the system file but {} in the target file ({}:{}); \
                         expected aligned tokens",
                        s.id,
                        b.len(),
                        a.len(),
                        target_path.display(),
                        t.line
                    ),
                ));
            }
        }
        t.retain_spans(|sp| opts.keeps(&sp.label));
        s.retain_spans(|sp| opts.keeps(&sp.label));
        let outcome = evaluate(&t.spans, &s.spans, opts.focus);
        tally.add(&t.spans, &s.spans, &outcome);
        units.push(UnitResult {
            target: t,
            system: s,
            outcome,
        });
    }
    Ok(FairReport {
        tally,
        focus: opts.focus,
        weights: opts.weights.clone().unwrap_or_else(Weights::fair),
        weights_given: opts.weights.is_some(),
        units,
    })
}
