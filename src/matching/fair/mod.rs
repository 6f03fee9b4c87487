//! Ortmann's (2022) fair evaluation of labeled spans: the error-type assignment over one unit
//! (sentence or document), its accumulation over many units, and traditional / fair / weighted
//! precision, recall and F1.
//!
//! This module owns the algorithm only; it does no I/O. Reading and pairing units live in
//! [`crate::eval::fair`] (through [`crate::formats`]), the weights-formula parser in
//! `crate::eval::weights`, the tables in the fair family (`crate::family`) and the `--errors`
//! listing in [`crate::eval::fair::errors_tsv`]. See `docs/fair.md`.
//!
//! Every target (gold) and system span is counted once, as one of
//! TP, FP, FN, LE (labeling error), BES / BEL / BEO (boundary errors: system span smaller, larger
//! or overlapping) or LBE (labeling-boundary error). The assignment follows the reference
//! implementation (FairEval, `compare_spans`) step by step, including its order of iteration, so
//! that the counts agree with it exactly:
//!
//! 1. identical spans (TP), then same range with another label (LE);
//! 2. both lists are sorted by span length (stable); boundary errors: (a) each remaining target
//!    against the remaining system spans, (b) each remaining target against already matched system
//!    spans that still have unmatched tokens, (c) each remaining system span against already
//!    matched target spans; tokens shared by a matched pair are removed from both spans;
//! 3. the same three passes for labeling-boundary errors (other label, overlapping range);
//! 4. remaining target spans are FN, remaining system spans FP.
//!
//! Where several candidates qualify, the most similar one is taken (most shared tokens, fewest
//! tokens only in the first span, fewest only in the candidate, shortest; then the first in list
//! order). A pass walks its list by position and stays at the same position after removing the
//! current span (the reference's `while i < len(...)` loops; an older reference version iterated
//! with `for` and skipped the span after each match, which gives different counts than the
//! published evaluation files). Spans are compared by value (label, begin, end, token set), as in
//! the reference.
//!
//! Work and memory are bounded by the number of spans, never by token offsets: contiguous spans
//! are ranges, token sets are runs of indices (issue 11), and large units search candidates
//! with an interval index instead of scanning every span (issue 13).
//!
//! Layout: this file holds the public types of spans and outcomes; `algorithm` the steps and
//! passes of [`evaluate`]; `side` one side's working spans and the candidate search; `index`
//! the interval index; `tokens` token sets as runs; `overlap`
//! the range relations; `tally` the counts and their accumulation; `scores` precision, recall,
//! F1 and weights. Everything public is re-exported here.

mod algorithm;
mod index;
mod overlap;
mod scores;
mod side;
mod tally;
mod tokens;

pub use algorithm::{assignments_by_id, evaluate, evaluate_with, Search, INDEX_MIN_PAIRS};
pub use overlap::{overlap, Overlap};
pub use scores::{fair_prf, prf, traditional_prf, Prf, Weight, Weights};
pub use tally::{FairCounts, LabelCounts, Tally, TraditionalCounts, CATEGORY_NAMES, NO_LABEL};

pub use crate::spans::labeled::Span;

/// Which annotation's label a labeling error (LE) or labeling-boundary error (LBE) is counted
/// for in the per-label tables. Overall counts do not depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    /// The target span's label (the default).
    #[default]
    Target,
    /// The system span's label.
    System,
}

impl Focus {
    /// The name, as in `--focus` and the JSON output: `target` or `system`.
    pub fn as_str(self) -> &'static str {
        match self {
            Focus::Target => "target",
            Focus::System => "system",
        }
    }
}

/// The error type of one counted annotation (or pair of annotations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorType {
    /// True positive: identical spans (label and range).
    TP,
    /// False positive: a system span left over.
    FP,
    /// False negative: a target span left over.
    FN,
    /// Labeling error: same range, other label.
    LE,
    /// Boundary error, system span smaller: same label, its range within the target's.
    BES,
    /// Boundary error, system span larger: same label, its range containing the target's.
    BEL,
    /// Boundary error, overlapping: same label, ranges that cross (no shared boundary,
    /// neither contains the other).
    BEO,
    /// Labeling-boundary error: other label, overlapping but not identical ranges.
    LBE,
}

impl ErrorType {
    /// Every type, in declaration order.
    pub const ALL: [ErrorType; 8] = [
        ErrorType::TP,
        ErrorType::FP,
        ErrorType::FN,
        ErrorType::LE,
        ErrorType::BES,
        ErrorType::BEL,
        ErrorType::BEO,
        ErrorType::LBE,
    ];

    /// The abbreviation: `TP`, `FP`, `FN`, `LE`, `BES`, `BEL`, `BEO` or `LBE`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::TP => "TP",
            ErrorType::FP => "FP",
            ErrorType::FN => "FN",
            ErrorType::LE => "LE",
            ErrorType::BES => "BES",
            ErrorType::BEL => "BEL",
            ErrorType::BEO => "BEO",
            ErrorType::LBE => "LBE",
        }
    }

    /// True for BES, BEL and BEO.
    pub fn is_boundary(self) -> bool {
        matches!(self, ErrorType::BES | ErrorType::BEL | ErrorType::BEO)
    }
}

/// One counted error: its type and the target and/or system span (indices into the slices given
/// to [`evaluate`]). TP, LE, BE* and LBE have both; FN only a target; FP only a system span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assignment {
    /// The error type.
    pub kind: ErrorType,
    /// 0-based index of the target span, if any.
    pub target: Option<usize>,
    /// 0-based index of the system span, if any.
    pub system: Option<usize>,
}

/// The result of [`evaluate`] for one unit.
#[derive(Debug, Clone, PartialEq)]
pub struct FairOutcome {
    /// The focus given to [`evaluate`], applied by [`Tally::add`].
    pub focus: Focus,
    /// Every counted error, in the order the algorithm counted them. Their number lies between
    /// `max(n, m)` and `n + m` for `n` target and `m` system spans.
    pub assignments: Vec<Assignment>,
    /// For each target span, the type it was first counted with.
    pub target_types: Vec<ErrorType>,
    /// For each system span, the type it was first counted with.
    pub system_types: Vec<ErrorType>,
    /// Traditional evaluation: whether each target span has an identical system span.
    pub target_traditional_tp: Vec<bool>,
    /// Traditional evaluation: whether each system span has an identical target span.
    pub system_traditional_tp: Vec<bool>,
}

impl FairOutcome {
    /// The system spans a target span was paired with, in counting order. This walks all
    /// assignments; for every span of a large unit use [`FairOutcome::partner_lists`].
    pub fn target_partners(&self, target: usize) -> Vec<usize> {
        self.assignments
            .iter()
            .filter(|a| a.target == Some(target))
            .filter_map(|a| a.system)
            .collect()
    }

    /// The target spans a system span was paired with, in counting order. This walks all
    /// assignments; for every span of a large unit use [`FairOutcome::partner_lists`].
    pub fn system_partners(&self, system: usize) -> Vec<usize> {
        self.assignments
            .iter()
            .filter(|a| a.system == Some(system))
            .filter_map(|a| a.target)
            .collect()
    }

    /// The partners of every span in one walk over the assignments: for each target span the
    /// system spans it was paired with, and for each system span the target spans, in
    /// counting order (`[i]` equals `target_partners(i)` and `system_partners(i)`).
    pub fn partner_lists(&self) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let mut t = vec![Vec::new(); self.target_types.len()];
        let mut s = vec![Vec::new(); self.system_types.len()];
        for a in &self.assignments {
            if let (Some(ti), Some(si)) = (a.target, a.system) {
                if let Some(list) = t.get_mut(ti) {
                    list.push(si);
                }
                if let Some(list) = s.get_mut(si) {
                    list.push(ti);
                }
            }
        }
        (t, s)
    }
}
