//! Scores from counts: precision, recall and F1 under traditional, fair and weighted sums, and
//! the weights of a weighted evaluation.

use super::{FairCounts, TraditionalCounts};

/// Precision, recall and F1 as fractions (0..1). Zero denominators give 0.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Prf {
    /// Precision: TP / (TP + FP).
    pub p: f64,
    /// Recall: TP / (TP + FN).
    pub r: f64,
    /// F1: 2PR / (P + R).
    pub f1: f64,
}

/// P, R and F1 from (possibly weighted) true positive, false positive and false negative sums.
pub fn prf(tp: f64, fp: f64, fn_: f64) -> Prf {
    let p = if tp + fp == 0.0 { 0.0 } else { tp / (tp + fp) };
    let r = if tp + fn_ == 0.0 {
        0.0
    } else {
        tp / (tp + fn_)
    };
    let f1 = if p + r == 0.0 {
        0.0
    } else {
        2.0 * (p * r) / (p + r)
    };
    Prf { p, r, f1 }
}

/// Traditional P/R/F1.
pub fn traditional_prf(c: &TraditionalCounts) -> Prf {
    prf(c.tp as f64, c.fp as f64, c.fn_ as f64)
}

/// How much one error of a category counts as TP, FP and FN.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Weight {
    /// Counted as this many TP.
    pub tp: f64,
    /// Counted as this many FP.
    pub fp: f64,
    /// Counted as this many FN.
    pub fn_: f64,
}

/// Weights per category, in the order given (which is also the column order of the weighted
/// table). Categories are named as in [`CATEGORY_NAMES`](super::CATEGORY_NAMES).
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// (category name, weight) pairs, in table order.
    pub entries: Vec<(String, Weight)>,
}

impl Weights {
    /// The fair weights: TP, FP and FN count as themselves; LE, BE and LBE as half FP and half
    /// FN.
    pub fn fair() -> Self {
        let one = |tp, fp, fn_| Weight { tp, fp, fn_ };
        Weights {
            entries: vec![
                ("TP".into(), one(1.0, 0.0, 0.0)),
                ("FP".into(), one(0.0, 1.0, 0.0)),
                ("FN".into(), one(0.0, 0.0, 1.0)),
                ("LE".into(), one(0.0, 0.5, 0.5)),
                ("BE".into(), one(0.0, 0.5, 0.5)),
                ("LBE".into(), one(0.0, 0.5, 0.5)),
            ],
        }
    }

    /// Category names in table order.
    pub fn categories(&self) -> Vec<&str> {
        self.entries.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// Weighted TP, FP and FN sums for these counts.
    pub fn sums(&self, c: &FairCounts) -> (f64, f64, f64) {
        let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
        for (name, w) in &self.entries {
            let n = c.get(name).unwrap_or(0) as f64;
            tp += w.tp * n;
            fp += w.fp * n;
            fn_ += w.fn_ * n;
        }
        (tp, fp, fn_)
    }

    /// The factor the weights are multiplied by in [`Weights::scaled_sums`]: a power of two
    /// that brings the largest weight into [0.5, 1] ([`crate::matching::unit_scale`]).
    pub fn scale(&self) -> f64 {
        let max = self
            .entries
            .iter()
            .flat_map(|(_, w)| [w.tp, w.fp, w.fn_])
            .fold(0.0, f64::max);
        crate::matching::unit_scale(max)
    }

    /// [`Weights::sums`] with every weight multiplied by [`Weights::scale`]: the sums scaled
    /// exactly by that power of two, so their ratios are those of the plain sums, but finite
    /// for any finite weights (each product is at most a count).
    pub fn scaled_sums(&self, c: &FairCounts) -> (f64, f64, f64) {
        let s = self.scale();
        let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
        for (name, w) in &self.entries {
            let n = c.get(name).unwrap_or(0) as f64;
            tp += w.tp * s * n;
            fp += w.fp * s * n;
            fn_ += w.fn_ * s * n;
        }
        (tp, fp, fn_)
    }

    /// P/R/F1 under these weights (from the scaled sums: the same for weights scaled alike).
    pub fn prf(&self, c: &FairCounts) -> Prf {
        let (tp, fp, fn_) = self.scaled_sums(c);
        prf(tp, fp, fn_)
    }
}

/// Fair P/R/F1 (LE, BE and LBE as half FP and half FN).
pub fn fair_prf(c: &FairCounts) -> Prf {
    Weights::fair().prf(c)
}
