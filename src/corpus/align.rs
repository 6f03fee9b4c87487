//! Aligning a run with the gold standard: same documents, segments and token counts.
//!
//! As the official scorer: a run with a single document where the gold has several is cut
//! into the gold's documents by token counts (only the run's first segment is used). Token
//! text that differs at equal counts is reported (the official scorer logs it as "patched",
//! but its patch does not reach the scoring: entity texts keep the run's tokens). When cutting,
//! more than [`MAX_CONFUSION_PAIRS`] distinct (run token, gold token) pairs, or a run too short
//! for the gold, is an error; run tokens left after the gold's last document are ignored with
//! a notice. Otherwise documents and segments must match exactly, and any difference in counts
//! is an error naming both files, lines, the document and the tokens on both sides.

use super::{Corpus, Document, Notice, NoticeKind};
use crate::error::{Error, Result};
use std::collections::HashSet;

/// Most distinct (run token, gold token) pairs tolerated when cutting a run into documents.
pub const MAX_CONFUSION_PAIRS: usize = 20;

/// A token whose text differs between gold and run at the same position.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenMismatch {
    /// 1-based line of the token in the gold file.
    pub gold_line: usize,
    /// 1-based line of the token in the run file.
    pub pred_line: usize,
    /// The gold token text.
    pub gold: String,
    /// The run token text.
    pub pred: String,
}

/// How the run's tokens map onto the gold documents.
#[derive(Debug, Clone)]
pub struct Alignment {
    /// The run's documents, one per gold document, with the gold's segmentation.
    pub pred_docs: Vec<Document>,
    /// The run had no document markers and was cut into the gold's documents.
    pub reconstructed: bool,
    /// Tokens whose text differs (scored with the run's text, as the official scorer).
    pub mismatches: Vec<TokenMismatch>,
    /// Other observations (e.g. run tokens left over after the last gold document).
    pub notices: Vec<Notice>,
}

impl Alignment {
    /// The warning lines a scoring repeats about a run: the reader's and the alignment's
    /// scoring notices, then one line for tokens whose text differs from the gold, ending in
    /// `consequence` (what the scoring does with them).
    pub fn scoring_warnings(&self, pred: &Corpus, consequence: &str) -> Vec<String> {
        self.scoring_warnings_in(pred, consequence, None)
    }

    /// [`Alignment::scoring_warnings`] about the scored `columns` only (`None`: all).
    pub fn scoring_warnings_in(
        &self,
        pred: &Corpus,
        consequence: &str,
        columns: Option<&[&str]>,
    ) -> Vec<String> {
        let mut out: Vec<String> = Notice::scoring_warnings_in(&pred.notices, columns)
            .chain(Notice::scoring_warnings_in(&self.notices, columns))
            .map(|n| format!("{}:{}: {}", pred.path.display(), n.line, n.message))
            .collect();
        if let Some(m) = self.mismatches.first() {
            out.push(format!(
                "{}:{}: {} token(s) differ from the gold (first: {:?} where gold line {} has {:?}); {consequence}",
                pred.path.display(),
                m.pred_line,
                self.mismatches.len(),
                m.pred,
                m.gold_line,
                m.gold
            ));
        }
        out
    }
}

fn doc_label(gold: &Corpus, i: usize) -> String {
    let d = &gold.docs[i];
    match &d.id {
        Some(id) => format!("document {} ({id})", i + 1),
        None => format!("document {}", i + 1),
    }
}

fn context(file: &Corpus, at: usize, lo: usize, hi: usize) -> String {
    let from = at.saturating_sub(3).max(lo);
    let to = (at + 4).min(hi);
    let toks: Vec<&str> = (from..to).map(|t| file.token_text(t)).collect();
    format!("{toks:?}")
}

/// Aligns `pred` with `gold`.
pub fn align(gold: &Corpus, pred: &Corpus) -> Result<Alignment> {
    let mut mismatches = Vec::new();
    let mut notices = Vec::new();
    if gold.docs.len() != pred.docs.len() && pred.docs.len() == 1 {
        // Cut the run's first segment into the gold's documents and segments.
        let seg0 = pred.docs[0].segments.first().copied().unwrap_or(0);
        let base = pred.docs[0].start;
        let mut pos = 0usize;
        let mut pairs: HashSet<(String, String)> = HashSet::new();
        let mut docs = Vec::with_capacity(gold.docs.len());
        for (di, gdoc) in gold.docs.iter().enumerate() {
            let start = base + pos.min(seg0);
            let mut segments = Vec::with_capacity(gdoc.segments.len());
            let mut gpos = gdoc.start;
            for &n in &gdoc.segments {
                let avail = seg0.saturating_sub(pos).min(n);
                let pstart = base + pos.min(seg0);
                if avail < n {
                    let gline = gold.line(gpos + avail);
                    return Err(Error::input(
                        &pred.path,
                        pred.n_tokens().checked_sub(1).map_or(0, |t| pred.line(t)),
                        format!(
                            "the run has no document markers and ends too early: {} of {} (gold line {gline}) needs {n} more tokens from run token {}, only {avail} are left; gold tokens there: {}",
                            doc_label(gold, di),
                            gold.path.display(),
                            pos + 1,
                            context(gold, gpos + avail, gdoc.start, gdoc.start + gdoc.len())
                        ),
                    ));
                }
                for k in 0..n {
                    let (g, p) = (gpos + k, pstart + k);
                    if gold.token_text(g) != pred.token_text(p) {
                        pairs.insert((
                            pred.token_text(p).to_string(),
                            gold.token_text(g).to_string(),
                        ));
                        mismatches.push(TokenMismatch {
                            gold_line: gold.line(g),
                            pred_line: pred.line(p),
                            gold: gold.token_text(g).to_string(),
                            pred: pred.token_text(p).to_string(),
                        });
                        if pairs.len() > MAX_CONFUSION_PAIRS {
                            return Err(Error::input(
                                &pred.path,
                                pred.line(p),
                                format!(
                                    "more than {MAX_CONFUSION_PAIRS} distinct token mismatches with {} (here {:?} where gold line {} has {:?}, in {}); the run does not follow the gold tokenization",
                                    gold.path.display(),
                                    pred.token_text(p),
                                    gold.line(g),
                                    gold.token_text(g),
                                    doc_label(gold, di)
                                ),
                            ));
                        }
                    }
                }
                segments.push(n);
                pos += n;
                gpos += n;
            }
            docs.push(Document {
                id: gdoc.id.clone(),
                first_line: pred.line(start),
                start,
                segments,
            });
        }
        notices.push(Notice::new(
            NoticeKind::DocumentsReconstructed,
            0,
            format!("the run has no document markers; it is cut into the gold's {} documents by token counts", gold.docs.len()),
        ));
        if pos < seg0 {
            notices.push(Notice::new(
                NoticeKind::LeftoverTokens,
                pred.line(base + pos),
                format!(
                    "{} run tokens after the end of the gold's last document are ignored",
                    seg0 - pos
                ),
            ));
        }
        if pred.docs[0].segments.len() > 1 {
            notices.push(Notice::new(
                NoticeKind::ExtraSegments,
                pred.docs[0].first_line,
                "the run has no document markers but several segments; only its first segment is cut into the gold's documents (as the official scorer)",
            ));
        }
        return Ok(Alignment {
            pred_docs: docs,
            reconstructed: true,
            mismatches,
            notices,
        });
    }

    // Same segmentation required.
    if gold.docs.len() != pred.docs.len() {
        return Err(Error::input(
            &pred.path,
            0,
            format!(
                "the run has {} documents, the gold {} has {}; document markers (`# hipe2022:document_id`, `# document_id`) must match the gold, or the run must have none",
                pred.docs.len(),
                gold.path.display(),
                gold.docs.len()
            ),
        ));
    }
    let mut pred_docs = pred.docs.clone();
    for (di, (gd, pd)) in gold.docs.iter().zip(&pred.docs).enumerate() {
        // A CoNLL run with the gold's tokens but other sentence breaks is read with the gold's
        // breaks, as conlleval reads one file's columns; said once, at the first difference.
        let same_tokens = gd.len() == pd.len()
            && (0..gd.len())
                .all(|k| gold.token_text(gd.start + k) == pred.token_text(pd.start + k));
        if gd.segments != pd.segments
            && gold.format == "conll"
            && pred.format == "conll"
            && same_tokens
        {
            if !notices.iter().any(|n| n.kind == NoticeKind::SentenceBreaks) {
                let starts = |segs: &[usize]| -> Vec<usize> {
                    segs.iter()
                        .scan(0, |acc, n| {
                            let s = *acc;
                            *acc += n;
                            Some(s)
                        })
                        .collect()
                };
                let (gs, ps) = (starts(&gd.segments), starts(&pd.segments));
                let k = gs
                    .iter()
                    .zip(&ps)
                    .find(|(a, b)| a != b)
                    .map(|(a, b)| *a.min(b))
                    .unwrap_or_else(|| gs.len().min(ps.len()).min(gs.last().copied().unwrap_or(0)));
                let k = k.min(gd.len().saturating_sub(1));
                notices.push(Notice::new(
                    NoticeKind::SentenceBreaks,
                    pred.line(pd.start + k),
                    format!(
                        "the run's sentence breaks differ from the gold's ({} sentences in the run, {} in the gold; first difference near gold line {}): the run is read with the gold's breaks, as conlleval reads them",
                        pd.segments.len(),
                        gd.segments.len(),
                        gold.line(gd.start + k)
                    ),
                ));
            }
            pred_docs[di].segments = gd.segments.clone();
            continue;
        }
        if gd.segments != pd.segments {
            // Find the first token where they diverge to point at it.
            let glen = gd.len();
            let plen = pd.len();
            let n = glen.min(plen);
            let mut at = n;
            for k in 0..n {
                if gold.token_text(gd.start + k) != pred.token_text(pd.start + k) {
                    at = k;
                    break;
                }
            }
            let gline = gold.line(gd.start + at.min(glen.saturating_sub(1)));
            let pline = match pred.line(pd.start + at.min(plen.saturating_sub(1))) {
                0 => pd.first_line,
                l => l,
            };
            let what = if glen != plen {
                format!("the run has {plen} tokens in it, the gold {glen}")
            } else {
                format!(
                    "segments differ (run {} segments, gold {})",
                    pd.segments.len(),
                    gd.segments.len()
                )
            };
            return Err(Error::input(
                &pred.path,
                pline,
                format!(
                    "{} does not line up with {} (gold line {gline}): {what}; first difference at token {}: gold {} run {}",
                    doc_label(gold, di),
                    gold.path.display(),
                    at + 1,
                    context(gold, gd.start + at.min(glen.saturating_sub(1)), gd.start, gd.start + glen),
                    context(pred, pd.start + at.min(plen.saturating_sub(1)), pd.start, pd.start + plen),
                ),
            ));
        }
        for k in 0..gd.len() {
            let (g, p) = (gd.start + k, pd.start + k);
            if gold.token_text(g) != pred.token_text(p) {
                mismatches.push(TokenMismatch {
                    gold_line: gold.line(g),
                    pred_line: pred.line(p),
                    gold: gold.token_text(g).to_string(),
                    pred: pred.token_text(p).to_string(),
                });
            }
        }
    }
    Ok(Alignment {
        pred_docs,
        reconstructed: false,
        mismatches,
        notices,
    })
}
