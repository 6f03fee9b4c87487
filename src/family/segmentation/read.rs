//! `fairscore segmentation`: word segmentation of a run against the gold, sentence by sentence
//! (Shao et al. 2017): word-level P/R/F1, the true negative rate (eq. 1) and boundary P/R/F1.
//! See `docs/segmentation.md` for the definitions and conventions.

use std::path::Path;

use super::count::{compare, Mismatch, SegCounts, Side};
use crate::family::parting::{count_error, Sentence};
use crate::formats::conllu::Conllu;
use crate::formats::plain;
use crate::{Error, Result};

/// Input format of both files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentationFormat {
    /// One sentence a line, words separated by whitespace (`formats::plain`).
    Text,
    /// CoNLL-U; words are the surface tokens (a multiword token counts once).
    Conllu,
}

impl SegmentationFormat {
    /// `conllu` for a `.conllu` or `.conll` file name, else `text`.
    pub fn from_path(path: &Path) -> SegmentationFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("conllu") || e.eq_ignore_ascii_case("conll") => {
                SegmentationFormat::Conllu
            }
            _ => SegmentationFormat::Text,
        }
    }
}

/// The counts of every compared sentence, in file order (blank lines of the text format are
/// not sentences): the units a resampling draws; the paths are only used in messages. Errs (an
/// input error) when a file cannot be read as its format, the files have different numbers of
/// sentences (blank lines at the end of a text file do not count), two paired sentences have
/// different characters, or a file holds a bare CR (`plain::check_line_ends`).
pub fn sentence_counts(
    gold_path: &Path,
    gold: &str,
    pred_path: &Path,
    pred: &str,
    format: SegmentationFormat,
) -> Result<Vec<SegCounts>> {
    let files = Files {
        gold: gold_path,
        pred: pred_path,
    };
    // A bare CR would make one line (one sentence) of the file, in either format.
    plain::check_line_ends(gold_path, gold)?;
    plain::check_line_ends(pred_path, pred)?;
    match format {
        SegmentationFormat::Text => eval_text(&files, gold, pred),
        SegmentationFormat::Conllu => eval_conllu(&files, gold, pred),
    }
}

struct Files<'p> {
    gold: &'p Path,
    pred: &'p Path,
}

/// Where the sentence and its words are, for messages.
trait Locate {
    /// Line of the sentence's word `i` (or of the sentence when there is no such word).
    fn line_of_word(&self, i: usize) -> usize;
}

struct TextLoc(usize);
impl Locate for TextLoc {
    fn line_of_word(&self, _: usize) -> usize {
        self.0
    }
}

struct ConlluLoc<'d, 'a> {
    doc: &'d Conllu<'a>,
    sentence: usize,
}
impl Locate for ConlluLoc<'_, '_> {
    fn line_of_word(&self, i: usize) -> usize {
        let s = &self.doc.sentences[self.sentence];
        self.doc
            .tokens_of(s)
            .nth(i)
            .map(|t| t.line)
            .or_else(|| self.doc.words_of(s).last().map(|w| w.line))
            .unwrap_or(s.line)
    }
}

fn mismatch_error(
    files: &Files,
    k: usize,
    m: Mismatch,
    gold: &dyn Locate,
    pred: &dyn Locate,
) -> Error {
    match m {
        Mismatch::Char {
            index,
            gold: gc,
            gold_word,
            pred: pc,
            pred_word,
        } => Error::input(
            files.pred,
            pred.line_of_word(pred_word),
            format!(
                "sentence {k}: the characters differ from the gold {}:{} at character {}: gold {gc:?}, run {pc:?}",
                files.gold.display(),
                gold.line_of_word(gold_word),
                index + 1
            ),
        ),
        Mismatch::Longer {
            side: Side::Gold,
            index,
            ch,
            word,
        } => Error::input(
            files.pred,
            pred.line_of_word(usize::MAX),
            format!(
                "sentence {k}: the run ends after {index} characters, the gold {}:{} goes on with {ch:?}",
                files.gold.display(),
                gold.line_of_word(word)
            ),
        ),
        Mismatch::Longer {
            side: Side::Pred,
            index,
            ch,
            word,
        } => Error::input(
            files.pred,
            pred.line_of_word(word),
            format!(
                "sentence {k}: the run goes on with {ch:?} after character {index}, where the gold {}:{} ends",
                files.gold.display(),
                gold.line_of_word(usize::MAX)
            ),
        ),
        Mismatch::EmptyWord { side, word } => {
            let (path, loc) = match side {
                Side::Gold => (files.gold, gold),
                Side::Pred => (files.pred, pred),
            };
            Error::input(
                path,
                loc.line_of_word(word),
                format!("sentence {k}: a word of only whitespace (expected at least one character)"),
            )
        }
    }
}

fn eval_text(files: &Files, gold: &str, pred: &str) -> Result<Vec<SegCounts>> {
    let mut g = plain::sentences(gold);
    let mut p = plain::sentences(pred);
    // Blank lines at the end of a file are not sentences.
    while g.last().is_some_and(|s| s.is_blank()) {
        g.pop();
    }
    while p.last().is_some_and(|s| s.is_blank()) {
        p.pop();
    }
    if g.len() != p.len() {
        let keys = |v: &[plain::PlainSentence]| -> Vec<Sentence> {
            v.iter()
                .map(|s| Sentence {
                    key: s.words().collect(),
                    line: s.line,
                })
                .collect()
        };
        return Err(count_error(files.gold, files.pred, &keys(&g), &keys(&p)));
    }
    let mut units = Vec::with_capacity(g.len());
    for (k, (gs, ps)) in g.iter().zip(&p).enumerate() {
        let c = compare(gs.words(), ps.words())
            .map_err(|m| mismatch_error(files, k + 1, m, &TextLoc(gs.line), &TextLoc(ps.line)))?;
        if c.chars > 0 {
            units.push(c);
        }
    }
    Ok(units)
}

fn eval_conllu(files: &Files, gold: &str, pred: &str) -> Result<Vec<SegCounts>> {
    let g = Conllu::parse(files.gold, gold)?;
    let p = Conllu::parse(files.pred, pred)?;
    if g.sentences.len() != p.sentences.len() {
        let keys = |c: &Conllu| -> Vec<Sentence> {
            c.sentences
                .iter()
                .map(|s| Sentence {
                    key: c.tokens_of(s).map(|t| t.form).collect(),
                    line: s.line,
                })
                .collect()
        };
        return Err(count_error(files.gold, files.pred, &keys(&g), &keys(&p)));
    }
    let mut units = Vec::with_capacity(g.sentences.len());
    for (k, (gs, ps)) in g.sentences.iter().zip(&p.sentences).enumerate() {
        let c = compare(
            g.tokens_of(gs).map(|t| t.form),
            p.tokens_of(ps).map(|t| t.form),
        )
        .map_err(|m| {
            mismatch_error(
                files,
                k + 1,
                m,
                &ConlluLoc {
                    doc: &g,
                    sentence: k,
                },
                &ConlluLoc {
                    doc: &p,
                    sentence: k,
                },
            )
        })?;
        units.push(c);
    }
    Ok(units)
}
