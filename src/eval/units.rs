//! The units of resampling of a `score` or `compare`: documents, or the sentences of a CoNLL
//! gold of one document (a file without `-DOCSTART-`, or with a single one): that document is
//! split for the resampling only; the scores, document averages included, stay those of the
//! file, and the files are checked and aligned as they are.

use super::options::ScoreOptions;
use crate::corpus::Corpus;
use crate::matching::SpanRegime;
use crate::metrics::Evaluation;

/// The resampling unit of a scoring: `sentences` for a CoNLL gold of one document, else
/// `documents`.
pub fn unit_name(gold: &Corpus, opts: &ScoreOptions) -> &'static str {
    if opts.format == crate::formats::Format::Conll && gold.docs.len() == 1 {
        "sentences"
    } else {
        "documents"
    }
}

fn by_sentences(gold: &Corpus, opts: &ScoreOptions) -> bool {
    opts.format == crate::formats::Format::Conll
        && gold.docs.len() == 1
        && gold.docs.first().is_some_and(|d| d.segments.len() > 1)
}

/// For a CoNLL gold of one document with several sentences, copies of gold and run whose
/// documents are the gold's sentences (the run read with the gold's breaks): the units of
/// resampling. Only for the per-unit counts of a pair already scored as it is.
pub fn sentence_units(
    gold: &Corpus,
    pred: &Corpus,
    opts: &ScoreOptions,
) -> Option<(Corpus, Corpus)> {
    if !by_sentences(gold, opts) || pred.docs.len() > 1 {
        return None;
    }
    let like = gold.docs.first().map(|d| d.segments.clone());
    let mut g = gold.clone();
    g.sentences_as_documents(None);
    let mut p = pred.clone();
    p.sentences_as_documents(like.as_deref());
    Some((g, p))
}

/// Gives the evaluation `e` the per-unit counts of `ue` (the same evaluation over other
/// units), for every label, regime and fair score.
pub fn use_series_of(e: &mut Evaluation, ue: &Evaluation) {
    for (label, per) in e.per_label.iter_mut() {
        if let Some(up) = ue.per_label.get(label) {
            for r in SpanRegime::ALL {
                per[r].docs = up[r].docs.clone();
            }
        }
    }
    for r in SpanRegime::ALL {
        e.all[r].docs = ue.all[r].docs.clone();
    }
    if let (Some(f), Some(uf)) = (e.fair.as_mut(), ue.fair.as_ref()) {
        let pairs = std::iter::once((&mut f.all, &uf.all)).chain(
            f.per_label
                .iter_mut()
                .filter_map(|(l, s)| uf.per_label.get(l).map(|us| (s, us))),
        );
        for (s, us) in pairs {
            s.fair.docs = us.fair.docs.clone();
            if let (Some(w), Some(uw)) = (s.weighted.as_mut(), us.weighted.as_ref()) {
                w.docs = uw.docs.clone();
            }
        }
    }
}
