//! Fair evaluation (Ortmann 2022) of whole files: reading target and system files (through
//! [`crate::formats`]), pairing their units, running [`crate::matching::fair::evaluate`] on
//! each pair and accumulating a [`Tally`]; the per-span `--errors` listing ([`errors_tsv`]).
//! The fair family (`crate::family`) makes the result tables; weight formulas are parsed by
//! `crate::eval::weights`.

use std::path::Path;

use crate::corpus::{Corpus, Document};
use crate::matching::fair::{evaluate, FairOutcome, Focus, Span, Tally, Weights};
use crate::{Error, Result};

pub(crate) mod inspect;
mod listing;

pub use crate::eval::weights::parse_weights;
pub use crate::formats::Format;
pub use crate::spans::stacked::Continuation;
pub use inspect::{
    page_limit, ErrorItem, InspectDoc, Inspection, Mark, Piece, Side, DEPTH, SNIPPET,
};
pub use listing::{errors_tsv, ERRORS_HEADER, STANDOFF_ERRORS_HEADER};

/// How fair evaluation reads its input files.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// `None`: detect from the first non-blank line.
    pub format: Option<Format>,
    /// HIPE tag columns, one annotation level each (e.g. `NE-COARSE-LIT`).
    pub columns: Vec<String>,
    /// CoNLL only: drop punctuation tokens (by POS tag) from spans, as the reference does.
    pub ignore_punct: bool,
    /// CoNLL only: what an `I-` tag continues.
    pub continuation: Continuation,
    /// The standoff format of both files (brat, doccano, Label Studio, Prodigy), when given;
    /// `format` is then `None` (`crate::eval::standoff` reads them).
    pub standoff: Option<crate::formats::StandoffFormat>,
    /// A rewrite of the run's text before it is parsed (its tag repairs and type changes).
    pub run: Option<std::sync::Arc<dyn crate::corpus::TextRewrite>>,
    /// A reader of both sides as standoff documents (a generative run placed on the gold's
    /// texts); the files are then scored as standoff files.
    pub docs: Option<crate::corpus::standoff::DocsReader>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: None,
            columns: vec!["NE-COARSE-LIT".to_string()],
            ignore_punct: false,
            continuation: Continuation::Conlleval,
            standoff: None,
            run: None,
            docs: None,
        }
    }
}

/// One unit (sentence or document) of one file, with its labeled spans.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// `s<n>` for the n-th sentence, or the HIPE document id (`d<n>` if the file gives none).
    pub id: String,
    /// File line where the unit starts (1-based).
    pub line: usize,
    /// The unit's spans.
    pub spans: Vec<Span>,
    /// File line of each span (parallel to `spans`).
    pub span_lines: Vec<usize>,
    /// Token forms (token `i` is `tokens[i - 1]`), where the format has them.
    pub tokens: Option<Vec<String>>,
    /// For a standoff document: its text and each token's `[start, end)` in characters of it
    /// (spans are then listed by character offsets and their text is read from the document).
    pub chars: Option<std::sync::Arc<CharText>>,
}

/// The text of a standoff document and where its tokens (the positions spans are scored
/// over) lie in it: 8 bytes a token, 16 when the text is not ASCII.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CharText {
    /// The document's text.
    pub text: String,
    /// Token `i` is `offsets[i - 1]`: `[start, end)` in characters.
    pub offsets: Vec<(u32, u32)>,
    /// The same ranges in bytes of `text`; empty for an ASCII text (bytes are characters).
    bytes: Vec<(u32, u32)>,
}

impl CharText {
    /// The text with its tokens at `offsets` (in characters).
    pub fn new(text: String, offsets: Vec<(u32, u32)>) -> Self {
        let bytes = if text.is_ascii() {
            Vec::new()
        } else {
            let slicer = crate::corpus::standoff::CharSlicer::new(&text);
            let b = |i: u32| u32::try_from(slicer.byte(i as usize)).unwrap_or(u32::MAX);
            offsets.iter().map(|&(s, e)| (b(s), b(e))).collect()
        };
        CharText {
            text,
            offsets,
            bytes,
        }
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether it has no token.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Token `k`'s `[start, end)` in bytes of the text (0-based `k`).
    pub fn bytes(&self, k: usize) -> Option<(usize, usize)> {
        let v = if self.bytes.is_empty() {
            &self.offsets
        } else {
            &self.bytes
        };
        v.get(k).map(|&(s, e)| (s as usize, e as usize))
    }

    /// Every token's `[start, end)` in bytes of the text, in order.
    pub fn byte_ranges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len()).filter_map(|k| self.bytes(k))
    }
}

impl Unit {
    /// Keeps only the spans for which `keep` holds.
    pub fn retain_spans(&mut self, keep: impl Fn(&Span) -> bool) {
        let mut lines = Vec::with_capacity(self.span_lines.len());
        let mut spans = Vec::with_capacity(self.spans.len());
        for (s, l) in self.spans.drain(..).zip(self.span_lines.drain(..)) {
            if keep(&s) {
                spans.push(s);
                lines.push(l);
            }
        }
        self.spans = spans;
        self.span_lines = lines;
    }

    /// Where a span lies in its file: its first and last token (1-based), or for a standoff
    /// document its `[start, end)` in characters.
    pub fn extent(&self, span: &Span) -> (usize, usize) {
        let Some(c) = &self.chars else {
            return (span.begin, span.end);
        };
        let at = |i: usize| i.checked_sub(1).and_then(|k| c.offsets.get(k));
        match (at(span.begin), at(span.end)) {
            (Some(a), Some(b)) => (a.0 as usize, b.1 as usize),
            _ => (span.begin, span.end),
        }
    }

    /// The forms of a span's tokens joined by spaces, if the tokens are known. For a standoff
    /// document, the span's text as the document has it (fragments joined by ` … `).
    pub fn text_of(&self, span: &Span) -> Option<String> {
        if let Some(c) = &self.chars {
            let mut parts: Vec<(usize, usize)> = Vec::new();
            let mut last: Option<usize> = None;
            for i in span.token_list() {
                let Some((s, e)) = i.checked_sub(1).and_then(|k| c.bytes(k)) else {
                    continue;
                };
                match parts.last_mut() {
                    Some(p) if last.is_some_and(|l| l + 1 == i) => p.1 = e,
                    _ => parts.push((s, e)),
                }
                last = Some(i);
            }
            let pieces: Vec<&str> = parts
                .iter()
                .map(|&(s, e)| c.text.get(s..e).unwrap_or(""))
                .collect();
            return Some(pieces.join(" … "));
        }
        let toks = self.tokens.as_ref()?;
        let words: Vec<&str> = span
            .token_list()
            .into_iter()
            .filter_map(|i| i.checked_sub(1).and_then(|k| toks.get(k)))
            .map(String::as_str)
            .collect();
        Some(words.join(" "))
    }
}

/// Labels of dummy spans that are always excluded (the reference's `NONE` and `EMPTY`).
pub const DUMMY_LABELS: [&str; 2] = ["NONE", "EMPTY"];

/// Options of a fair evaluation run.
#[derive(Debug, Clone)]
pub struct FairOptions {
    /// How the two files are read.
    pub read: ReadOptions,
    /// Which span's label LE and LBE are counted for in the per-label counts.
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
    /// The target unit, without the spans of labels left out.
    pub target: Unit,
    /// The system unit, without the spans of labels left out.
    pub system: Unit,
    /// The error types assigned to the pair's spans.
    pub outcome: FairOutcome,
}

/// The result of a fair evaluation run.
#[derive(Debug, Clone)]
pub struct FairReport {
    /// Counts over all unit pairs.
    pub tally: Tally,
    /// The focus the counts were made with.
    pub focus: Focus,
    /// The weights of the weighted scores (the fair weights unless others were given).
    pub weights: Weights,
    /// Whether weights were given explicitly.
    pub weights_given: bool,
    /// Every evaluated pair of units, in file order.
    pub units: Vec<UnitResult>,
    /// Warnings (one line each) of the reading. (A `--labels` or `--exclude` label that
    /// occurs in neither file is an error: `eval::labels::absent_selection`.)
    pub warnings: Vec<String>,
    /// For units that are sentences of a file with documents (CoNLL with `-DOCSTART-`): how
    /// many units each document has, in order (0 for a document without a sentence); they
    /// sum to the number of units. Empty when each unit is its own document (HIPE documents,
    /// span-file units, a CoNLL file of one document).
    pub document_sentences: Vec<usize>,
}

/// Reads and evaluates a target and a system file. HIPE files are read with the project's
/// HIPE reader and aligned as `score` aligns them (a run without document markers is cut into
/// the gold's documents).
pub fn evaluate_files(target: &Path, system: &Path, opts: &FairOptions) -> Result<FairReport> {
    evaluate_files_keeping_gold(target, system, opts, None).map(|(report, _, _)| report)
}

/// A hash of a file's bytes as read, made by the caller (the signature's content hash).
pub type Hasher<'a> = &'a dyn Fn(&Path, &[u8]) -> Result<String>;

/// [`evaluate_files`], also giving the gold as read (the layout of its text: sentences, space
/// after each token, for `inspect`), and with `hash` the hashes it makes of the target's and
/// the system's bytes as read (each file is read once).
pub fn evaluate_files_keeping_gold(
    target: &Path,
    system: &Path,
    opts: &FairOptions,
    hash: Option<Hasher<'_>>,
) -> Result<(FairReport, Corpus, Option<[String; 2]>)> {
    // Each file is read once (it may be a pipe); the system is read in the target's format.
    let ropts = crate::corpus::ReadOptions::default();
    let t_bytes = crate::io::read_input(target)?;
    let t_hash = hash.map(|h| h(target, &t_bytes)).transpose()?;
    let t_text = crate::io::into_utf8(target, t_bytes)?;
    let format = match opts.read.format {
        Some(f) => f,
        None => crate::formats::detect(target, &t_text)?,
    };
    let gold = crate::formats::parse_text(target, t_text, Some(format), &ropts)?;
    let run_read = crate::corpus::ReadOptions {
        text: opts.read.run.clone(),
        ..Default::default()
    };
    let s_bytes = crate::io::read_input(system)?;
    let s_hash = hash.map(|h| h(system, &s_bytes)).transpose()?;
    let s_text = crate::io::into_utf8(system, s_bytes)?;
    let run = crate::formats::parse_text(system, s_text, Some(format), &run_read)?;
    let (t_units, s_units) = corpus_units(&gold, &run, &opts.read)?;
    let mut report = evaluate_units(target, t_units, system, s_units, opts)?;
    let sentences_of_documents = gold.annotations.is_empty()
        && gold.n_tokens() > 0
        && gold.column("TAG").is_some()
        && gold.column("NE-COARSE-LIT").is_none()
        && gold.docs.len() > 1;
    if sentences_of_documents {
        let sizes: Vec<usize> = gold.docs.iter().map(|d| d.segments.len()).collect();
        if sizes.iter().sum::<usize>() == report.units.len() {
            report.document_sentences = sizes;
        }
    }
    Ok((report, gold, t_hash.zip(s_hash).map(|(t, s)| [t, s])))
}

/// The units of a target and a system corpus: HIPE documents (the run aligned as `score`
/// aligns it), CoNLL sentences, or span-file units.
pub fn corpus_units(
    gold: &Corpus,
    run: &Corpus,
    opts: &ReadOptions,
) -> Result<(Vec<Unit>, Vec<Unit>)> {
    if !gold.annotations.is_empty() || gold.n_tokens() == 0 {
        return Ok((annotation_units(gold), annotation_units(run)));
    }
    if gold.column("TAG").is_some() && gold.column("NE-COARSE-LIT").is_none() {
        // A run without document markers is cut into the gold's documents, as for HIPE.
        let al = crate::corpus::align(gold, run)?;
        return Ok((
            sentence_units(gold, &gold.docs, opts)?,
            sentence_units(run, &al.pred_docs, opts)?,
        ));
    }
    hipe_pair_units(gold, run, &opts.columns)
}

/// One unit per document of a span file.
fn annotation_units(file: &Corpus) -> Vec<Unit> {
    let mut units: Vec<Unit> = file
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| Unit {
            id: format!("s{}", i + 1),
            line: d.first_line,
            spans: Vec::new(),
            span_lines: Vec::new(),
            tokens: None,
            chars: None,
        })
        .collect();
    for a in &file.annotations {
        if let Some(u) = units.get_mut(a.doc) {
            let span = Span::new(a.label.clone(), a.begin, a.end);
            let span = match &a.tokens {
                Some(t) => span.with_tokens(t.iter().copied()),
                None => span,
            };
            u.spans.push(span);
            u.span_lines.push(a.line);
        }
    }
    units
}

/// One unit per sentence of a CoNLL corpus, spans read from its `TAG` column.
fn sentence_units(file: &Corpus, docs: &[Document], opts: &ReadOptions) -> Result<Vec<Unit>> {
    let tag = hipe_columns(file, &["TAG".to_string()])?[0];
    let punct = if opts.ignore_punct {
        file.column("POS")
    } else {
        None
    };
    let mut units = Vec::new();
    for doc in docs {
        let mut start = doc.start;
        for &n in &doc.segments {
            let range = start..start + n;
            start += n;
            let found = crate::spans::stacked::stacked_spans(
                file,
                tag,
                range.clone(),
                opts.continuation,
                punct,
            )?;
            let (spans, span_lines) = found.into_iter().unzip();
            units.push(Unit {
                id: format!("s{}", units.len() + 1),
                line: file.line(range.start),
                spans,
                span_lines,
                tokens: Some(range.map(|t| file.token_text(t).to_string()).collect()),
                chars: None,
            });
        }
    }
    Ok(units)
}

fn hipe_columns(file: &Corpus, columns: &[String]) -> Result<Vec<usize>> {
    columns
        .iter()
        .map(|c| {
            file.column(c).ok_or_else(|| {
                Error::input(
                    &file.path,
                    1,
                    format!(
                        "expected a header with column '{c}'; columns are: {}",
                        file.columns.join(", ")
                    ),
                )
            })
        })
        .collect()
}

/// One unit per document: the entities of each column (one annotation level per column, read
/// as `score` reads them), 1-based token positions, and the token forms.
fn hipe_units(file: &Corpus, docs: &[Document], cols: &[usize]) -> Vec<Unit> {
    let mut found = crate::spans::Spans::default();
    docs.iter()
        .enumerate()
        .map(|(i, doc)| {
            let seq: Vec<usize> = doc.range().collect();
            let mut spans: Vec<(Span, usize)> = Vec::new();
            for (level, &c) in cols.iter().enumerate() {
                crate::spans::entities(file, c, &seq, &mut found);
                for sp in &found.spans {
                    let label = found.label(sp);
                    if label.is_empty() {
                        continue; // `_` cells: no entity type
                    }
                    let (b, e) = (sp.start as usize, sp.end as usize);
                    spans.push((
                        Span::new(label, b + 1, e + 1).at_level(level),
                        file.line(seq[b]),
                    ));
                }
            }
            spans.sort_by_key(|(s, _)| (s.begin, s.level));
            let (spans, span_lines) = spans.into_iter().unzip();
            Unit {
                id: doc.id.clone().unwrap_or_else(|| format!("d{}", i + 1)),
                line: doc.first_line,
                spans,
                span_lines,
                tokens: Some(
                    seq.iter()
                        .map(|&t| file.token_text(t).to_string())
                        .collect(),
                ),
                chars: None,
            }
        })
        .collect()
}

/// The units of a parsed HIPE gold and run, aligned as `score` aligns them.
pub fn hipe_pair_units(
    gold: &Corpus,
    run: &Corpus,
    columns: &[String],
) -> Result<(Vec<Unit>, Vec<Unit>)> {
    let al = crate::corpus::align(gold, run)?;
    let (gc, rc) = (hipe_columns(gold, columns)?, hipe_columns(run, columns)?);
    Ok((
        hipe_units(gold, &gold.docs, &gc),
        hipe_units(run, &al.pred_docs, &rc),
    ))
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
    // Every label of both files, when a selection must be checked against them.
    let selects = opts.labels.is_some() || !opts.exclude.is_empty();
    let mut seen: std::collections::BTreeSet<String> = Default::default();
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
        if selects {
            for sp in t.spans.iter().chain(&s.spans) {
                if !seen.contains(&sp.label) {
                    seen.insert(sp.label.clone());
                }
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
    let given = opts.labels.as_deref().unwrap_or_default();
    crate::eval::labels::absent_selection(
        &[("--labels", given), ("--exclude", &opts.exclude)],
        &seen,
        &format!("{} nor {}", target_path.display(), system_path.display()),
    )?;
    Ok(FairReport {
        tally,
        focus: opts.focus,
        weights: opts.weights.clone().unwrap_or_else(Weights::fair),
        weights_given: opts.weights.is_some(),
        units,
        warnings: Vec::new(),
        document_sentences: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hipe_units_follow_the_scorer_reading() {
        let text = "TOKEN\tNE-COARSE-LIT\tNE-NESTED\n# hipe2022:document_id = A\nx\tB-loc\tO\ny\tI-loc\tS-pers\nz\tO\tO\n\
                    # hipe2022:document_id = B\nw\tS-org\tO\nv\tI-org\tO\nu\t_\tO\n";
        let f =
            crate::formats::hipe::parse(Path::new("t.tsv"), text.as_bytes(), &Default::default())
                .unwrap();
        let cols = hipe_columns(&f, &["NE-COARSE-LIT".into(), "NE-NESTED".into()]).unwrap();
        let u = hipe_units(&f, &f.docs, &cols);
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].id, "A");
        assert_eq!(
            u[0].spans,
            vec![Span::new("LOC", 1, 2), Span::new("PERS", 2, 2).at_level(1)]
        );
        // IOBES is read as IOB (S- as B-, then I- continues), `_` makes no entity.
        assert_eq!(u[1].spans, vec![Span::new("ORG", 1, 2)]);
        assert_eq!(u[1].span_lines, vec![7]);
        let e = hipe_columns(&f, &["NE-FINE-LIT".into()]).unwrap_err();
        assert!(e.to_string().contains("NE-FINE-LIT"));
    }
}
