//! From counts to scores: precision, recall and F1, micro over all documents, macro over
//! documents (mean and population standard deviation, NumPy-compatible) and macro over labels,
//! with the official scorer's int/float/None distinctions kept (see [`py::PyNum`]).

pub(crate) mod agreement;
pub(crate) mod docs;
pub(crate) mod fair;
pub(crate) mod prf;
pub(crate) mod py;
pub(crate) mod resample;

use crate::matching::span_count::{Counts, UnitCounts};
use crate::matching::{PerRegime, SpanRegime};
use docs::DocSeries;
use indexmap::IndexMap;
pub use py::PyNum;
pub use resample::{
    micro, ByMeasure, DocCounts, Interval, Measure, PairedTest, Resampler, Xoshiro256, TIE_EPSILON,
};

/// P, R and F1 of one set of counts. The partial regime rewards half of each partial match.
pub fn prf(c: &Counts, regime: SpanRegime) -> (PyNum, PyNum, PyNum) {
    let actual = c.actual();
    let possible = c.possible();
    let partial = regime == SpanRegime::Partial && c.partial > 0;
    let num = if partial {
        c.correct as f64 + 0.5 * c.partial as f64
    } else {
        c.correct as f64
    };
    let p = if actual > 0 {
        PyNum::Float(num / actual as f64)
    } else {
        PyNum::Int(0)
    };
    let r = if possible > 0 {
        PyNum::Float(num / possible as f64)
    } else {
        PyNum::Int(0)
    };
    let (pf, rf) = (p.as_f64(), r.as_f64());
    let f = if pf + rf > 0.0 {
        PyNum::Float(2.0 * (pf * rf) / (pf + rf))
    } else {
        PyNum::Int(0)
    };
    (p, r, f)
}

/// Accumulated counts, per-document scores and per-document counts of one regime.
#[derive(Debug, Clone, Default)]
pub struct RegimeAcc {
    /// Counts summed over the documents added.
    pub counts: Counts,
    /// Precision of each document with `actual > 0`, in document order.
    pub p_doc: Vec<f64>,
    /// Recall of each document with `possible > 0`, in document order.
    pub r_doc: Vec<f64>,
    /// F1 of each document with both `actual > 0` and `possible > 0`, in document order.
    pub f1_doc: Vec<f64>,
    /// TP, FP, FN of every document (see `docs::regime_doc_counts`).
    pub docs: DocSeries,
}

impl RegimeAcc {
    fn add_doc(&mut self, doc: usize, c: &Counts, regime: SpanRegime) {
        self.counts.add(c);
        self.docs.push(doc, docs::regime_doc_counts(c, regime));
        let (p, r, f) = prf(c, regime);
        let (actual, possible) = (c.actual(), c.possible());
        if actual != 0 {
            self.p_doc.push(p.as_f64());
        }
        if possible != 0 {
            self.r_doc.push(r.as_f64());
        }
        if actual != 0 && possible != 0 {
            self.f1_doc.push(f.as_f64());
        }
    }
}

/// Accumulation over the documents of one evaluation (one column, period and noise level).
#[derive(Debug, Clone, Default)]
pub struct Accumulator<'a> {
    /// Over all evaluated labels.
    pub all: PerRegime<RegimeAcc>,
    /// Labels in the order the official scorer first meets them.
    pub per_label: IndexMap<&'a str, PerRegime<RegimeAcc>>,
    /// Number of documents added.
    pub n_docs: usize,
}

impl<'a> Accumulator<'a> {
    /// Adds the counts of one document (every document of the evaluation, in gold order, also
    /// one without entities: the per-document counts are aligned to the documents).
    pub fn add_doc(&mut self, unit: &UnitCounts<'a>) {
        let doc = self.n_docs;
        self.n_docs += 1;
        for (regime, acc) in self.all.iter_mut() {
            acc.add_doc(doc, &unit.all[regime], regime);
        }
        for (label, rc) in &unit.per_label {
            let accs = self.per_label.entry(label).or_default();
            for (regime, acc) in accs.iter_mut() {
                acc.add_doc(doc, &rc[regime], regime);
            }
        }
    }

    /// Final scores.
    pub fn finish(&self) -> Evaluation {
        let n = self.n_docs;
        let per_label: IndexMap<String, PerRegime<RegimeScores>> = self
            .per_label
            .iter()
            .map(|(l, accs)| (l.to_string(), RegimeScores::from_accs(accs, n)))
            .collect();
        let mut all = RegimeScores::from_accs(&self.all, n);
        for (regime, scores) in all.iter_mut() {
            scores.type_macro = Some(type_macro(&per_label, regime));
        }
        Evaluation {
            per_label,
            all,
            fair: None,
        }
    }
}

/// Means over labels of the per-label micro P, R, F1 (the official "P_macro" etc.), summed in
/// label order as Python does; and F1 recomputed from the mean P and R.
fn type_macro(
    per_label: &IndexMap<String, PerRegime<RegimeScores>>,
    regime: SpanRegime,
) -> [PyNum; 4] {
    let n = per_label.len();
    if n == 0 {
        return [PyNum::Int(0); 4];
    }
    let (mut ps, mut rs, mut fs) = (0.0f64, 0.0f64, 0.0f64);
    for s in per_label.values() {
        ps += s[regime].p_micro.as_f64();
        rs += s[regime].r_micro.as_f64();
        fs += s[regime].f1_micro.as_f64();
    }
    let (p, r, f) = (ps / n as f64, rs / n as f64, fs / n as f64);
    let recomputed = if p + r > 0.0 {
        PyNum::Float(2.0 * (p * r) / (p + r))
    } else {
        PyNum::Int(0)
    };
    [
        PyNum::Float(p),
        PyNum::Float(r),
        PyNum::Float(f),
        recomputed,
    ]
}

/// Scores of one regime.
#[derive(Debug, Clone, PartialEq)]
pub struct RegimeScores {
    /// Counts summed over all documents.
    pub counts: Counts,
    /// Micro precision of the summed counts (`Int(0)` when `actual` is 0).
    pub p_micro: PyNum,
    /// Micro recall of the summed counts (`Int(0)` when `possible` is 0).
    pub r_micro: PyNum,
    /// Micro F1 from `p_micro` and `r_micro` (`Int(0)` when both are 0).
    pub f1_micro: PyNum,
    /// Mean precision over the documents with `actual > 0` (`None` if there are none).
    pub p_macro_doc: PyNum,
    /// Mean recall over the documents with `possible > 0` (`None` if there are none).
    pub r_macro_doc: PyNum,
    /// Mean F1 over the documents with both `actual > 0` and `possible > 0` (`None` if none).
    pub f1_macro_doc: PyNum,
    /// Population standard deviation of the document precisions of `p_macro_doc`.
    pub p_macro_doc_std: PyNum,
    /// Population standard deviation of the document recalls of `r_macro_doc`.
    pub r_macro_doc_std: PyNum,
    /// Population standard deviation of the document F1 scores of `f1_macro_doc`.
    pub f1_macro_doc_std: PyNum,
    /// For ALL only: P_macro, R_macro, F1_macro, F1 recomputed from P and R.
    pub type_macro: Option<[PyNum; 4]>,
    /// TP, FP, FN of every document of the evaluation (zeros where the label does not
    /// occur); their sums give the micro scores.
    pub docs: DocSeries,
    /// Bootstrap intervals of the micro P, R and F1, when asked for (`score --bootstrap`).
    pub ci: Option<ByMeasure<Interval>>,
}

impl RegimeScores {
    fn from_accs(accs: &PerRegime<RegimeAcc>, n_docs: usize) -> PerRegime<RegimeScores> {
        PerRegime::from_fn(|regime| RegimeScores::from_acc(&accs[regime], regime, n_docs))
    }

    fn from_acc(acc: &RegimeAcc, regime: SpanRegime, n_docs: usize) -> RegimeScores {
        let (p_micro, r_micro, f1_micro) = prf(&acc.counts, regime);
        let mut docs = acc.docs.clone();
        docs.extend_to(n_docs);
        RegimeScores {
            counts: acc.counts,
            p_micro,
            r_micro,
            f1_micro,
            p_macro_doc: py::np_mean(&acc.p_doc),
            r_macro_doc: py::np_mean(&acc.r_doc),
            f1_macro_doc: py::np_mean(&acc.f1_doc),
            p_macro_doc_std: py::np_std(&acc.p_doc),
            r_macro_doc_std: py::np_std(&acc.r_doc),
            f1_macro_doc_std: py::np_std(&acc.f1_doc),
            type_macro: None,
            docs,
            ci: None,
        }
    }

    /// The TSV's TP: `correct`.
    pub fn tp(&self) -> u64 {
        self.counts.correct
    }
    /// The TSV's FP: `actual − correct` (incorrect + partial + spurious).
    pub fn fp(&self) -> u64 {
        self.counts.actual() - self.counts.correct
    }
    /// The TSV's FN: `possible − correct` (incorrect + partial + missed).
    pub fn fn_(&self) -> u64 {
        self.counts.possible() - self.counts.correct
    }
}

/// The result of one evaluation: per label and over all labels (`ALL`), per regime.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Scores per label, in the order the official scorer first meets them.
    pub per_label: IndexMap<String, PerRegime<RegimeScores>>,
    /// Scores over all labels (`ALL`), with [`RegimeScores::type_macro`] set.
    pub all: PerRegime<RegimeScores>,
    /// Fair (Ortmann 2022) scores, when asked for.
    pub fair: Option<fair::FairScores>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulator_keeps_aligned_counts_that_sum_to_the_micro_scores() {
        use resample::{micro, DocCounts};
        let c = |correct, partial, missed, spurious| Counts {
            correct,
            incorrect: 1,
            partial,
            missed,
            spurious,
        };
        let unit = |label: &'static str, counts: Counts| {
            let rc = PerRegime::from_fn(|r| {
                if r == SpanRegime::Partial {
                    counts
                } else {
                    Counts {
                        partial: 0,
                        ..counts
                    }
                }
            });
            let mut u = UnitCounts {
                all: rc,
                ..Default::default()
            };
            u.per_label.insert(label, rc);
            u
        };
        let mut acc = Accumulator::default();
        acc.add_doc(&unit("LOC", c(3, 1, 2, 0)));
        acc.add_doc(&UnitCounts::default());
        acc.add_doc(&unit("PER", c(1, 3, 0, 4)));
        let eval = acc.finish();
        for (regime, s) in eval.all.iter() {
            assert_eq!(s.docs.len(), 3);
            let m = micro(&s.docs.total(), 1.0);
            assert_eq!(m.p.to_bits(), s.p_micro.as_f64().to_bits(), "{regime:?}");
            assert_eq!(m.r.to_bits(), s.r_micro.as_f64().to_bits(), "{regime:?}");
            assert_eq!(m.f1.to_bits(), s.f1_micro.as_f64().to_bits(), "{regime:?}");
        }
        let loc = eval.per_label["LOC"].strict.docs.dense();
        assert_eq!(loc.len(), 3);
        assert_eq!(loc[0], DocCounts::new(3.0, 1.0, 3.0));
        assert_eq!(
            (loc[1], loc[2]),
            (DocCounts::default(), DocCounts::default())
        );
        let per = eval.per_label["PER"].partial.docs.dense();
        assert_eq!(per[2], DocCounts::new(2.5, 6.5, 2.5));
        assert_eq!(per[0], DocCounts::default());
    }
}
