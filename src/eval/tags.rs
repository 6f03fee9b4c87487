//! Evaluation of tag sequences held in memory (one list of BIO tags per sentence or document),
//! for training loops and the Python package's `evaluate` and `classification_report`.
//!
//! The sequences are laid out as the CoNLL reader lays out a file of `TOKEN TAG` lines with a
//! blank line after each sequence (one document, one sentence per sequence), and scored as
//! `score --format conll` scores such files ([`crate::eval::score::evaluate`]): the four HIPE
//! regimes and the fair regime, with every run label evaluated (the evaluated labels are the
//! gold's and the run's, so that a run entity of a label the gold never uses is spurious, as in
//! seqeval). [`evaluate_tags`] also gives seqeval's per-type table (default mode: entities are
//! compared whole, each counted for its own type).
//!
//! Errors name `y_true` or `y_pred` as the file and the 1-based sequence as the line.

use crate::corpus::{Builder, Corpus};
use crate::error::{snippet, Error, Result};
use crate::eval::options::{Regime, ScoreOptions};
use crate::eval::score::evaluate;
use crate::hipe::{Edition, Task};
use crate::matching::fair::{FairCounts, Weights};
use crate::matching::span_count::Counts;
use crate::matching::SpanRegime;
use crate::metrics::prf::{fbeta, ratio};
use crate::metrics::py::pairwise_sum;
use crate::spans;
use crate::spans::seqeval::{Mode, TagIds, Vocab};
use std::collections::BTreeSet;
use std::path::Path;

/// Counts and scores of one label (or `ALL`) in one HIPE regime.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegimeRow {
    /// The official counts.
    pub counts: Counts,
    /// Precision: (correct, + half the partial matches in the partial regime) / actual.
    pub p: f64,
    /// Recall: the same numerator / possible.
    pub r: f64,
    /// F-beta of P and R.
    pub f: f64,
}

/// Counts and scores of one label (or `ALL`) in the fair regime (Ortmann 2022).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FairRow {
    /// TP, FP, FN and the error types LE, BES, BEL, BEO, LBE.
    pub counts: FairCounts,
    /// Fair TP, FP and FN (the error types weighted as half FP and half FN).
    pub tp: f64,
    /// See [`FairRow::tp`].
    pub fp: f64,
    /// See [`FairRow::tp`].
    pub fn_: f64,
    /// Fair precision.
    pub p: f64,
    /// Fair recall.
    pub r: f64,
    /// F-beta of the fair P and R.
    pub f: f64,
}

/// One row of seqeval's classification report.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportRow {
    /// The entity type, or `micro avg`, `macro avg`, `weighted avg`.
    pub name: String,
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F-beta.
    pub f: f64,
    /// Gold entities (of the type, or all).
    pub support: u64,
}

/// Everything [`evaluate_tags`] computes.
#[derive(Debug, Clone, PartialEq)]
pub struct TagEvaluation {
    /// Per HIPE regime (strict, ent_type, partial, exact): per label (sorted), then `ALL`.
    pub regimes: Vec<(SpanRegime, Vec<(String, RegimeRow)>)>,
    /// The fair regime: per label (sorted), then `ALL`.
    pub fair: Vec<(String, FairRow)>,
    /// seqeval's per-type rows (types sorted), as its `classification_report`.
    pub report: Vec<ReportRow>,
    /// seqeval's `micro avg`, `macro avg` and `weighted avg` rows.
    pub averages: Vec<ReportRow>,
}

/// Tag schemes accepted; all are chunked alike, as conlleval and seqeval's default mode chunk
/// them ([`chunked`]).
pub const SCHEMES: [&str; 5] = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES"];

/// Sequences rewritten as IOB2 with the chunks seqeval's default mode (conlleval) reads in
/// them ([`crate::spans::seqeval`]): a chunk ends after `E-` or `S-`, before `B-`, `S-` or
/// `O`, and where the type changes; it starts at `B-` or `S-`, at `I-` or `E-` after `O`, `E-`
/// or `S-`, and where the type changes. For tags with `B-`, `I-` and `O` only this is the HIPE
/// reading too ([`crate::spans::entities`]), so the rewriting changes no chunk. Also the
/// vocabulary and the entities of the sequences as seqeval reads them.
fn chunked_seqs(seqs: &[Vec<String>]) -> Result<Vec<Vec<String>>> {
    let mut ids = TagIds::default();
    let id_seqs = ids.seqs(seqs);
    let vocab = Vocab::new(&ids.names, Mode::Default, false);
    let (entities, _) = vocab.entities(id_seqs.iter().map(Vec::as_slice), true)?;
    let mut out: Vec<Vec<String>> = seqs
        .iter()
        .map(|s| vec!["O".to_string(); s.len()])
        .collect();
    // Sentence k starts at offset `base` (one slot for the O after each sentence).
    let (mut k, mut base) = (0usize, 0usize);
    for e in entities {
        while k < out.len() && e.start > base + out[k].len() {
            base += out[k].len() + 1;
            k += 1;
        }
        let ty = vocab.type_name(e.ty);
        let Some(seq) = out.get_mut(k) else { break };
        // (Only malformed tags, which `validate` refuses, make a chunk cross sentences.)
        let end = e.end.min(base + seq.len());
        for at in e.start..end {
            if let Some(slot) = seq.get_mut(at - base) {
                *slot = format!("{}-{ty}", if at == e.start { "B" } else { "I" });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
/// One sequence rewritten as IOB2 with the chunks seqeval's default mode reads in it (see
/// `chunked_seqs`); a tag seqeval rejects (an empty one) leaves the sequence as it is.
pub fn chunked(seq: &[String]) -> Vec<String> {
    match chunked_seqs(std::slice::from_ref(&seq.to_vec())) {
        Ok(mut v) => v.pop().unwrap_or_default(),
        Err(_) => seq.to_vec(),
    }
}

/// Checks that every tag is `O`, `B-TYPE` or `I-TYPE` and that the two sides have the same
/// shape.
fn validate(y_true: &[Vec<String>], y_pred: &[Vec<String>]) -> Result<()> {
    let (t, p) = (Path::new("y_true"), Path::new("y_pred"));
    if y_true.len() != y_pred.len() {
        return Err(Error::input(
            p,
            0,
            format!(
                "{} sequences where y_true has {}: expected one list of tags per sentence of y_true",
                y_pred.len(),
                y_true.len()
            ),
        ));
    }
    for (i, (gs, ps)) in y_true.iter().zip(y_pred).enumerate() {
        if gs.len() != ps.len() {
            return Err(Error::input(
                p,
                i + 1,
                format!(
                    "{} tags where y_true's sequence {} has {}",
                    ps.len(),
                    i + 1,
                    gs.len()
                ),
            ));
        }
        for (path, seq) in [(t, gs), (p, ps)] {
            for (j, tag) in seq.iter().enumerate() {
                let ok = tag == "O"
                    || matches!(tag.split_once('-'), Some(("B" | "I" | "E" | "S", ty))
                        if !ty.is_empty() && !ty.chars().any(char::is_whitespace));
                if !ok {
                    return Err(Error::input(
                        path,
                        i + 1,
                        format!(
                            "tag {} (token {}): expected O, B-TYPE, I-TYPE, E-TYPE or S-TYPE",
                            snippet(tag),
                            j + 1
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The corpus of `TOKEN TAG` lines the sequences would be as a CoNLL file with a blank line
/// after each sequence (tokens `w`; token lines numbered as in that file).
pub fn corpus(name: &str, seqs: &[Vec<String>]) -> Corpus {
    let mut b = Builder::new(Path::new(name), vec!["TOKEN".into(), "TAG".into()]);
    let mut line = 1;
    for seq in seqs {
        for tag in seq {
            b.token(line, ["w", tag.as_str()]);
            line += 1;
        }
        b.close_segment();
        line += 1;
    }
    b.format("conll");
    b.finish()
}

fn regime_row(c: Counts, regime: SpanRegime, beta: f64) -> RegimeRow {
    let num = if regime == SpanRegime::Partial {
        c.correct as f64 + 0.5 * c.partial as f64
    } else {
        c.correct as f64
    };
    let p = ratio(num, c.actual() as f64);
    let r = ratio(num, c.possible() as f64);
    RegimeRow {
        counts: c,
        p,
        r,
        f: fbeta(p, r, beta),
    }
}

fn fair_row(c: FairCounts, beta: f64) -> FairRow {
    let (tp, fp, fn_) = Weights::fair().sums(&c);
    let p = ratio(tp, tp + fp);
    let r = ratio(tp, tp + fn_);
    FairRow {
        counts: c,
        tp,
        fp,
        fn_,
        p,
        r,
        f: fbeta(p, r, beta),
    }
}

/// seqeval's default-mode table: per type P, R, F-beta and support, then micro, macro and
/// support-weighted averages (NumPy's summation order), from the counts of
/// [`crate::spans::seqeval`].
fn seqeval_report(
    y_true: &[Vec<String>],
    y_pred: &[Vec<String>],
    beta: f64,
) -> Result<(Vec<ReportRow>, Vec<ReportRow>)> {
    let mut ids = TagIds::default();
    let (t, p) = (ids.seqs(y_true), ids.seqs(y_pred));
    let vocab = Vocab::new(&ids.names, Mode::Default, false);
    let c = vocab.counts(t.iter().map(Vec::as_slice), p.iter().map(Vec::as_slice))?;
    let row = |name: &str, tp: u64, npred: u64, ngold: u64| {
        let precision = ratio(tp as f64, npred as f64);
        let recall = ratio(tp as f64, ngold as f64);
        ReportRow {
            name: name.to_string(),
            precision,
            recall,
            f: fbeta(precision, recall, beta),
            support: ngold,
        }
    };
    let rows: Vec<ReportRow> = (0..c.types.len())
        .map(|k| row(&c.types[k], c.tp[k], c.pred[k], c.gold[k]))
        .collect();
    let (tp, np, ng) = (c.tp.iter().sum(), c.pred.iter().sum(), c.gold.iter().sum());
    let micro = row("micro avg", tp, np, ng);
    let mean = |f: fn(&ReportRow) -> f64| {
        let v: Vec<f64> = rows.iter().map(f).collect();
        ratio(pairwise_sum(&v), v.len() as f64)
    };
    let weighted = |f: fn(&ReportRow) -> f64| {
        let v: Vec<f64> = rows.iter().map(|r| f(r) * r.support as f64).collect();
        ratio(pairwise_sum(&v), ng as f64)
    };
    let avg = |name: &str, agg: &dyn Fn(fn(&ReportRow) -> f64) -> f64| ReportRow {
        name: name.to_string(),
        precision: agg(|r| r.precision),
        recall: agg(|r| r.recall),
        f: agg(|r| r.f),
        support: ng,
    };
    let averages = vec![
        micro,
        avg("macro avg", &mean),
        avg("weighted avg", &weighted),
    ];
    Ok((rows, averages))
}

/// Evaluates run tag sequences against gold ones in every regime and as seqeval's report.
/// Tags are first chunked as seqeval's default mode chunks them (`chunked`); `scheme` is one
/// of `SCHEMES` (all read alike); `beta` weighs recall in every F score (1: F1).
pub fn evaluate_tags(
    y_true: &[Vec<String>],
    y_pred: &[Vec<String>],
    scheme: &str,
    beta: f64,
) -> Result<TagEvaluation> {
    if !SCHEMES.contains(&scheme) {
        return Err(Error::usage(format!(
            "scheme {}: expected one of {} (tags are read as conlleval and seqeval's default mode read them)",
            snippet(scheme),
            SCHEMES.join(", ")
        )));
    }
    if !(beta.is_finite() && beta > 0.0 && beta <= 1e6) {
        return Err(Error::usage(format!(
            "beta {beta}: expected a number greater than 0 (at most 1e6)"
        )));
    }
    validate(y_true, y_pred)?;
    let (report, averages) = seqeval_report(y_true, y_pred, beta)?;
    let y_true = chunked_seqs(y_true)?;
    let y_pred = chunked_seqs(y_pred)?;
    let gold = corpus("y_true", &y_true);
    let pred = corpus("y_pred", &y_pred);
    let mut opts = ScoreOptions::new(Task::NercCoarse, Edition::Hipe2020);
    opts.format = crate::formats::Format::Conll;
    opts.regimes = vec![Regime::Strict, Regime::Fair];
    // Every run label is evaluated (a run entity of a label the gold lacks is spurious).
    let labels: BTreeSet<String> = y_pred
        .iter()
        .flatten()
        .filter(|t| *t != "O")
        .map(|t| spans::label_of(t, false).to_string())
        .collect();
    opts.tagset = Some(labels);
    let no_tokens = gold.n_tokens() == 0;
    let eval = if no_tokens {
        None
    } else {
        let res = evaluate(&gold, &pred, &opts)?;
        res.results
            .into_iter()
            .next()
            .and_then(|(_, cols)| cols.into_iter().next())
            .map(|c| c.eval)
    };
    let mut regimes = Vec::new();
    for regime in SpanRegime::ALL {
        let mut rows: Vec<(String, RegimeRow)> = Vec::new();
        let mut all = Counts::default();
        if let Some(e) = &eval {
            let mut labels: Vec<&String> = e.per_label.keys().collect();
            labels.sort();
            for l in labels {
                let c = e.per_label[l][regime].counts;
                rows.push((l.clone(), regime_row(c, regime, beta)));
            }
            all = e.all[regime].counts;
        }
        rows.push(("ALL".to_string(), regime_row(all, regime, beta)));
        regimes.push((regime, rows));
    }
    let mut fair = Vec::new();
    let fs = eval.as_ref().and_then(|e| e.fair.as_ref());
    if let Some(fs) = fs {
        for (l, s) in &fs.per_label {
            fair.push((l.clone(), fair_row(s.counts, beta)));
        }
    }
    let all = fs.map(|f| f.all.counts).unwrap_or_default();
    fair.push(("ALL".to_string(), fair_row(all, beta)));
    Ok(TagEvaluation {
        regimes,
        fair,
        report,
        averages,
    })
}

#[cfg(test)]
/// The same sequences as CoNLL text (what [`corpus`] reads them as).
pub fn conll_text(seqs: &[Vec<String>]) -> String {
    let mut out = String::new();
    for seq in seqs {
        for tag in seq {
            out.push_str("w ");
            out.push_str(tag);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(s: &[&str]) -> Vec<Vec<String>> {
        s.iter()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    }

    fn row<'a, T>(rows: &'a [(String, T)], label: &str) -> &'a T {
        &rows.iter().find(|(l, _)| l == label).expect("label").1
    }

    #[test]
    fn regimes_count_as_the_hipe_scorer_and_spurious_labels_count() {
        let t = seqs(&["B-PER I-PER O B-LOC", "O B-ORG I-ORG"]);
        let p = seqs(&["B-PER I-PER O B-ORG", "O O B-MISC"]);
        let e = evaluate_tags(&t, &p, "IOB2", 1.0).unwrap();
        let strict = &e.regimes[0].1;
        assert_eq!(e.regimes[0].0, SpanRegime::Strict);
        let all = row(strict, "ALL");
        assert_eq!(all.counts.correct, 1);
        assert_eq!(all.counts.possible(), 3);
        // B-MISC is a label the gold never uses; it still counts against precision.
        assert_eq!(all.counts.actual(), 3);
        assert_eq!((all.p, all.r), (1.0 / 3.0, 1.0 / 3.0));
        // Partial: the MISC span overlaps the ORG gold span.
        let partial = row(&e.regimes[2].1, "ALL");
        assert_eq!(partial.counts.partial, 1);
        assert_eq!(partial.p, 2.5 / 3.0);
        // Exact: the ORG-for-LOC span has the gold offsets.
        assert_eq!(row(&e.regimes[3].1, "ALL").counts.correct, 2);
        let fair = row(&e.fair, "ALL");
        assert_eq!(fair.counts.tp, 1);
        assert_eq!(fair.counts.le, 1);
        assert!(fair.counts.be() + fair.counts.lbe >= 1);
    }

    #[test]
    fn report_is_seqevals_default_mode() {
        // I- after O starts an entity; a type change starts one; sentences bound entities.
        let t = seqs(&["I-PER I-PER B-LOC", "B-LOC"]);
        let p = seqs(&["B-PER I-PER I-ORG", "I-LOC"]);
        let e = evaluate_tags(&t, &p, "IOB1", 1.0).unwrap();
        let names: Vec<&str> = e.report.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["LOC", "ORG", "PER"]);
        let loc = &e.report[0];
        assert_eq!((loc.precision, loc.recall, loc.support), (1.0, 0.5, 2));
        assert_eq!(e.report[1].support, 0);
        let micro = &e.averages[0];
        assert_eq!((micro.precision, micro.recall), (2.0 / 3.0, 2.0 / 3.0));
        let macro_ = &e.averages[1];
        assert_eq!(macro_.precision, (1.0 + 0.0 + 1.0) / 3.0);
        let weighted = &e.averages[2];
        assert_eq!(weighted.recall, (0.5 * 2.0 + 1.0) / 3.0);
        // Strict HIPE counts agree with the report's micro row.
        let strict = row(&e.regimes[0].1, "ALL");
        assert_eq!(strict.p, micro.precision);
        assert_eq!(strict.f, micro.f);
    }

    #[test]
    fn iobes_tags_are_chunked_as_seqeval_chunks_them() {
        let c = |s: &str| chunked(&seqs(&[s])[0]).join(" ");
        assert_eq!(c("S-PER S-PER"), "B-PER B-PER");
        assert_eq!(c("B-PER E-PER I-PER"), "B-PER I-PER B-PER");
        assert_eq!(c("I-PER E-PER O E-LOC"), "B-PER I-PER O B-LOC");
        assert_eq!(c("B-PER I-LOC E-LOC S-LOC"), "B-PER B-LOC I-LOC B-LOC");
        // B/I/O tags keep their chunks (IOB1 continuations become IOB2).
        assert_eq!(c("I-PER I-PER B-PER O I-LOC"), "B-PER I-PER B-PER O B-LOC");
        let e = evaluate_tags(
            &seqs(&["B-PER E-PER"]),
            &seqs(&["S-PER S-PER"]),
            "IOBES",
            1.0,
        )
        .unwrap();
        let strict = row(&e.regimes[0].1, "ALL");
        assert_eq!((strict.counts.correct, strict.counts.actual()), (0, 2));
    }

    #[test]
    fn beta_weighs_recall() {
        let t = seqs(&["B-PER O B-LOC"]);
        let p = seqs(&["B-PER O O"]);
        let e = evaluate_tags(&t, &p, "IOB2", 2.0).unwrap();
        let all = row(&e.regimes[0].1, "ALL");
        assert_eq!(all.f, 5.0 * 0.5 / (4.0 + 0.5));
        assert_eq!(e.averages[0].f, all.f);
    }

    #[test]
    fn bad_input_names_side_and_sequence() {
        let t = seqs(&["O", "B-PER"]);
        let err = evaluate_tags(&t, &seqs(&["O", "X-PER"]), "IOB2", 1.0).unwrap_err();
        match err {
            Error::Input { path, line, .. } => {
                assert_eq!((path.to_str(), line), (Some("y_pred"), 2));
            }
            other => panic!("{other:?}"),
        }
        let err = evaluate_tags(&t, &seqs(&["O", "B-PER O"]), "IOB2", 1.0).unwrap_err();
        assert!(matches!(err, Error::Input { line: 2, .. }));
        assert!(evaluate_tags(&t, &seqs(&["O"]), "IOB2", 1.0).is_err());
        let err = evaluate_tags(&t, &seqs(&["O", "U-PER"]), "IOB2", 1.0).unwrap_err();
        assert!(matches!(err, Error::Input { line: 2, .. }));
        let err = evaluate_tags(&t, &t, "BILOU", 1.0).unwrap_err();
        assert!(matches!(err, Error::Usage(_)));
        assert!(evaluate_tags(&t, &t, "IOB2", 0.0).is_err());
    }

    #[test]
    fn empty_input_gives_zero_scores() {
        let e = evaluate_tags(&[], &[], "IOB2", 1.0).unwrap();
        assert_eq!(row(&e.regimes[0].1, "ALL").f, 0.0);
        assert!(e.report.is_empty());
        assert_eq!(e.averages[1].precision, 0.0);
        let e = evaluate_tags(&seqs(&["O O"]), &seqs(&["O B-PER"]), "IOB2", 1.0).unwrap();
        assert_eq!(row(&e.regimes[0].1, "ALL").counts.spurious, 1);
    }

    #[test]
    fn the_corpus_is_the_conll_reading_of_the_text() {
        let t = seqs(&["B-PER I-PER", "", "O B-LOC O"]);
        let c = corpus("y_true", &t);
        let parsed = crate::formats::conll::parse(Path::new("y_true"), &conll_text(&t)).unwrap();
        assert_eq!(c.docs.len(), parsed.docs.len());
        assert_eq!(c.docs[0].segments, parsed.docs[0].segments);
        assert_eq!(c.docs[0].segments, vec![2, 3]);
        for tok in 0..c.n_tokens() {
            assert_eq!(c.cell(tok, 1), parsed.cell(tok, 1));
            assert_eq!(c.line(tok), parsed.line(tok));
        }
    }
}
