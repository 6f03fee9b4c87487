//! Fair-regime scores for `score --regimes …,fair[,weighted]`: Ortmann's counts accumulated
//! over documents, micro P/R/F1 from the (fair or weighted) TP/FP/FN sums, and document macro
//! means with population standard deviation, per label and overall.
//!
//! A document enters the macro precision when its weighted TP + FP is positive, the macro
//! recall when TP + FN is, and the macro F1 when both are (the analogue of the official
//! actual/possible rule).

use super::docs::DocSeries;
use super::py::{np_mean, np_std, PyNum};
use super::resample::{ByMeasure, DocCounts, Interval};
use crate::matching::fair::{prf, FairCounts, Tally, Weights};
use std::collections::BTreeMap;

/// Per-document score lists and counts of one label (or overall) under one weighting.
#[derive(Debug, Clone, Default)]
struct DocLists {
    p: Vec<f64>,
    r: Vec<f64>,
    f1: Vec<f64>,
    /// Weighted TP, FP, FN of every document.
    series: DocSeries,
}

impl DocLists {
    fn add(&mut self, doc: usize, c: &FairCounts, w: &Weights) {
        let (tp, fp, fn_) = w.scaled_sums(c);
        self.series.push(doc, DocCounts::new(tp, fp, fn_));
        let s = prf(tp, fp, fn_);
        if tp + fp > 0.0 {
            self.p.push(s.p);
        }
        if tp + fn_ > 0.0 {
            self.r.push(s.r);
        }
        if tp + fp > 0.0 && tp + fn_ > 0.0 {
            self.f1.push(s.f1);
        }
    }
}

/// Accumulates fair counts over documents.
#[derive(Debug, Clone)]
pub struct FairAccumulator {
    /// The tallies of all documents added, merged.
    pub tally: Tally,
    weights: Option<Weights>,
    fair_docs: (DocLists, BTreeMap<String, DocLists>),
    weighted_docs: (DocLists, BTreeMap<String, DocLists>),
    /// Number of documents added.
    n_docs: usize,
}

/// Scores under one weighting (fair or weighted).
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedScores {
    /// Weighted TP sum.
    pub tp: f64,
    /// Weighted FP sum.
    pub fp: f64,
    /// Weighted FN sum.
    pub fn_: f64,
    /// Micro precision of the weighted sums (0 when TP + FP is 0).
    pub p_micro: f64,
    /// Micro recall of the weighted sums (0 when TP + FN is 0).
    pub r_micro: f64,
    /// Micro F1 from `p_micro` and `r_micro` (0 when both are 0).
    pub f1_micro: f64,
    /// Mean precision over the documents with weighted TP + FP > 0 (`None` if there are none).
    pub p_macro_doc: PyNum,
    /// Mean recall over the documents with weighted TP + FN > 0 (`None` if there are none).
    pub r_macro_doc: PyNum,
    /// Mean F1 over the documents that enter both means above (`None` if there are none).
    pub f1_macro_doc: PyNum,
    /// Population standard deviation of the document precisions of `p_macro_doc`.
    pub p_macro_doc_std: PyNum,
    /// Population standard deviation of the document recalls of `r_macro_doc`.
    pub r_macro_doc_std: PyNum,
    /// Population standard deviation of the document F1 scores of `f1_macro_doc`.
    pub f1_macro_doc_std: PyNum,
    /// Weighted TP, FP, FN of every document of the evaluation (zeros where the label does
    /// not occur), with the weights at their unit scale ([`Weights::scale`]: the fair
    /// weights as they are), so that no resampled sum overflows.
    pub docs: DocSeries,
    /// Bootstrap intervals of the micro P, R and F1, when asked for (`score --bootstrap`).
    pub ci: Option<ByMeasure<Interval>>,
}

/// Fair (and optionally weighted) scores of one label or overall.
#[derive(Debug, Clone, PartialEq)]
pub struct FairLabelScores {
    /// Ortmann's counts (TP, FP, FN, LE, BES, BEL, BEO, LBE) summed over documents.
    pub counts: FairCounts,
    /// Scores under the fair weights.
    pub fair: WeightedScores,
    /// Scores under the `--weights` formula, when the weighted regime was asked for.
    pub weighted: Option<WeightedScores>,
}

/// Fair scores of one evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct FairScores {
    /// Over all labels.
    pub all: FairLabelScores,
    /// Per label seen in a gold or run span, sorted.
    pub per_label: BTreeMap<String, FairLabelScores>,
    /// Confusion counts, gold label → run label (`_` for none); boundary errors on the
    /// diagonal, TP not counted (as Ortmann's reference implementation).
    pub confusion: BTreeMap<String, BTreeMap<String, u64>>,
    /// Labels of the confusion matrix, sorted.
    pub confusion_labels: Vec<String>,
}

fn scores(c: &FairCounts, w: &Weights, docs: &DocLists, n_docs: usize) -> WeightedScores {
    // Scores from the sums at the weights' unit scale (finite, and the same for weights
    // scaled alike); the counts reported are the plain sums (exactly the scaled ones divided
    // by a power of two), which [`FairScores::overflow`] finds when they are not finite.
    let (tp, fp, fn_) = w.scaled_sums(c);
    let s = prf(tp, fp, fn_);
    let unscale = w.scale();
    let mut series = docs.series.clone();
    series.extend_to(n_docs);
    WeightedScores {
        tp: tp / unscale,
        fp: fp / unscale,
        fn_: fn_ / unscale,
        p_micro: s.p,
        r_micro: s.r,
        f1_micro: s.f1,
        p_macro_doc: np_mean(&docs.p),
        r_macro_doc: np_mean(&docs.r),
        f1_macro_doc: np_mean(&docs.f1),
        p_macro_doc_std: np_std(&docs.p),
        r_macro_doc_std: np_std(&docs.r),
        f1_macro_doc_std: np_std(&docs.f1),
        docs: series,
        ci: None,
    }
}

impl FairScores {
    /// Names the first weighted count (TP, FP or FN sum, overall or of a label) that is not
    /// a finite number: weights so large that the count overflows. The scores themselves are
    /// always finite.
    pub fn overflow(&self) -> Option<String> {
        let all = std::iter::once(("overall", &self.all));
        let labels = self.per_label.iter().map(|(l, s)| (l.as_str(), s));
        for (label, s) in all.chain(labels) {
            for (regime, w) in [("fair", Some(&s.fair)), ("weighted", s.weighted.as_ref())] {
                let Some(w) = w else { continue };
                for (name, x) in [("TP", w.tp), ("FP", w.fp), ("FN", w.fn_)] {
                    if !x.is_finite() {
                        return Some(format!(
                            "the {regime} {name} count of {label} overflows (it is beyond {:e})",
                            f64::MAX
                        ));
                    }
                }
            }
        }
        None
    }
}

impl FairAccumulator {
    /// `weights`: the weighted regime's weights, if asked for.
    pub fn new(weights: Option<Weights>) -> Self {
        FairAccumulator {
            tally: Tally::new(),
            weights,
            fair_docs: Default::default(),
            weighted_docs: Default::default(),
            n_docs: 0,
        }
    }

    /// Adds one document's tally (every document of the evaluation, in gold order).
    pub fn add_doc(&mut self, doc: &Tally) {
        let i = self.n_docs;
        self.n_docs += 1;
        let fair = Weights::fair();
        self.fair_docs.0.add(i, &doc.overall.fair, &fair);
        for (label, c) in &doc.per_label {
            self.fair_docs
                .1
                .entry(label.clone())
                .or_default()
                .add(i, &c.fair, &fair);
        }
        if let Some(w) = &self.weights {
            self.weighted_docs.0.add(i, &doc.overall.fair, w);
            for (label, c) in &doc.per_label {
                self.weighted_docs
                    .1
                    .entry(label.clone())
                    .or_default()
                    .add(i, &c.fair, w);
            }
        }
        self.tally.merge(doc);
    }

    /// The scores of the documents added so far.
    pub fn finish(&self) -> FairScores {
        let fair = Weights::fair();
        let empty = DocLists::default();
        let n = self.n_docs;
        let label_scores = |c: &FairCounts, fd: &DocLists, wd: &DocLists| FairLabelScores {
            counts: *c,
            fair: scores(c, &fair, fd, n),
            weighted: self.weights.as_ref().map(|w| scores(c, w, wd, n)),
        };
        let all = label_scores(
            &self.tally.overall.fair,
            &self.fair_docs.0,
            &self.weighted_docs.0,
        );
        let per_label = self
            .tally
            .per_label
            .iter()
            .map(|(label, c)| {
                (
                    label.clone(),
                    label_scores(
                        &c.fair,
                        self.fair_docs.1.get(label).unwrap_or(&empty),
                        self.weighted_docs.1.get(label).unwrap_or(&empty),
                    ),
                )
            })
            .collect();
        FairScores {
            all,
            per_label,
            confusion: self.tally.confusion.clone(),
            confusion_labels: self.tally.confusion_labels.iter().cloned().collect(),
        }
    }
}
