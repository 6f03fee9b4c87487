//! Per-document sufficient statistics kept with every scoring (issue 14): for one label (or
//! ALL) and one regime, the TP, FP and FN of every document of the evaluation, so that
//! [`super::resample`] can resample documents without scoring anything again.
//!
//! A [`DocSeries`] covers every gold document of its evaluation, in gold order; a document in
//! which the label does not occur contributes zeros. Only the documents with a non-zero count
//! are stored (a link label of NEL occurs in few documents), so memory is at most proportional
//! to labels × documents; [`DocSeries::dense`] gives the full aligned vector.

use super::resample::DocCounts;
use crate::matching::span_count::Counts;
use crate::matching::SpanRegime;

/// The TP, FP and FN of one document under one HIPE regime, as [`super::prf()`] scores them:
/// TP = correct (+ ½·partial in the partial regime), FP = actual − TP, FN = possible − TP, so
/// that TP / (TP + FP) and TP / (TP + FN) are the official micro P and R (bit for bit, the
/// counts being whole or half numbers).
pub fn regime_doc_counts(c: &Counts, regime: SpanRegime) -> DocCounts {
    let tp = if regime == SpanRegime::Partial {
        c.correct as f64 + 0.5 * c.partial as f64
    } else {
        c.correct as f64
    };
    DocCounts::new(tp, c.actual() as f64 - tp, c.possible() as f64 - tp)
}

/// The per-document counts of one label (or ALL) and regime over all documents of an
/// evaluation, stored sparsely.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocSeries {
    /// Number of documents of the evaluation.
    len: usize,
    /// `(document index, counts)` of the documents with a non-zero count, by increasing index.
    nonzero: Vec<(usize, DocCounts)>,
}

impl DocSeries {
    /// A series of `len` documents whose counts are all zero.
    pub fn zeros(len: usize) -> Self {
        DocSeries {
            len,
            nonzero: Vec::new(),
        }
    }

    /// The series of these documents' counts, in order.
    pub fn from_dense(docs: &[DocCounts]) -> Self {
        let mut s = DocSeries::zeros(docs.len());
        for (i, c) in docs.iter().enumerate() {
            s.push(i, *c);
        }
        s
    }

    /// Records the counts of document `doc` (indices must increase from call to call); zero
    /// counts are not stored. The series grows to cover `doc`.
    pub fn push(&mut self, doc: usize, c: DocCounts) {
        if c != DocCounts::default() {
            debug_assert!(self.nonzero.last().is_none_or(|(d, _)| *d < doc));
            self.nonzero.push((doc, c));
        }
        self.len = self.len.max(doc + 1);
    }

    /// Extends the series to `len` documents (the later ones with zero counts); never shrinks.
    pub fn extend_to(&mut self, len: usize) {
        self.len = self.len.max(len);
    }

    /// Number of documents covered.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the series covers no document.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The documents with a non-zero count, as `(index, counts)` by increasing index.
    pub fn nonzero(&self) -> &[(usize, DocCounts)] {
        &self.nonzero
    }

    /// The counts of every document, aligned to the documents of the evaluation.
    pub fn dense(&self) -> Vec<DocCounts> {
        let mut out = vec![DocCounts::default(); self.len];
        for &(i, c) in &self.nonzero {
            if let Some(slot) = out.get_mut(i) {
                *slot = c;
            }
        }
        out
    }

    /// The summed counts, in document order.
    pub fn total(&self) -> DocCounts {
        let mut t = DocCounts::default();
        for (_, c) in &self.nonzero {
            t.add(c);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_and_dense_agree() {
        let d = [
            DocCounts::new(1.0, 0.0, 2.0),
            DocCounts::default(),
            DocCounts::new(0.5, 1.5, 0.0),
            DocCounts::default(),
        ];
        let s = DocSeries::from_dense(&d);
        assert_eq!(s.len(), 4);
        assert_eq!(s.nonzero().len(), 2);
        assert_eq!(s.dense(), d.to_vec());
        assert_eq!(s.total(), DocCounts::total(&d));
        let mut z = DocSeries::zeros(0);
        z.push(2, DocCounts::default());
        z.extend_to(5);
        assert_eq!(z.dense(), vec![DocCounts::default(); 5]);
    }

    #[test]
    fn partial_regime_counts_half() {
        let c = Counts {
            correct: 3,
            incorrect: 1,
            partial: 2,
            missed: 4,
            spurious: 5,
        };
        let d = regime_doc_counts(&c, SpanRegime::Partial);
        assert_eq!((d.tp, d.fp, d.fn_), (4.0, 7.0, 6.0));
        let d = regime_doc_counts(&c, SpanRegime::Strict);
        assert_eq!((d.tp, d.fp, d.fn_), (3.0, 8.0, 7.0));
    }
}
