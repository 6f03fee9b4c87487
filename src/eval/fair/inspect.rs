//! The typed data of `fairscore inspect`: a fair evaluation laid out document by document for
//! reading, each document's text cut into pieces at every span boundary of gold and run, each
//! gold and run span a [`Mark`] with its fair error type, and the counted errors of the
//! document ([`ErrorItem`]: the pairs Ortmann's algorithm made). Built from a [`FairReport`]
//! (no second matcher) and, for token files, the gold as read (spaces and sentence breaks);
//! `report::inspect` renders it. Work is linear in the tokens and spans.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::FairReport;
use crate::corpus::Corpus;
use crate::matching::fair::{ErrorType, FairCounts, TraditionalCounts};

mod layout;
pub use layout::SNIPPET;
use layout::{layout, snippet, token_runs, Layout, Run, Sep};

/// At most this many marks of each side enclose a piece of text: the outermost (see
/// [`Piece`]). Deeper nesting would repeat every mark's markup once per level and piece, and
/// make the page grow with the square of the nesting.
pub const DEPTH: usize = 3;

/// Which file a mark's span is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// The gold (target) file.
    Gold,
    /// The run (system) file.
    Run,
}

/// One gold or run span of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Gold or run.
    pub side: Side,
    /// The span's label.
    pub label: String,
    /// The label's index in [`Inspection::labels`].
    pub label_index: usize,
    /// The fair type the span was first counted with (TP, FN, FP, LE, BES, BEL, BEO, LBE).
    pub kind: ErrorType,
    /// Traditional evaluation: the other file has the identical span.
    pub exact: bool,
    /// The span's text (its tokens joined by spaces; the document's characters for standoff
    /// files; `#first–#last` token numbers for span files, which have no text), cut after
    /// [`SNIPPET`] characters and then ended by `…`.
    pub text: String,
    /// The line of the span in its file (0 where the format has none).
    pub line: usize,
    /// The piece of the document's text where the span begins (`None`: it covers none); the
    /// piece holds it unless [`DEPTH`] marks of its side enclose it there.
    pub first_piece: Option<usize>,
}

/// A piece of a document's text and the marks covering all of it (indices into
/// [`InspectDoc::marks`], ascending: gold before run, outer before inner), at most the
/// [`DEPTH`] outermost of each side.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Piece {
    /// The text, as shown (token forms with their spaces; a standoff document's characters).
    pub text: String,
    /// The marks covering the piece.
    pub marks: Vec<u32>,
}

/// One counted error (not TP) of Ortmann's algorithm: its type and the gold and run span it
/// joins (indices into [`InspectDoc::marks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorItem {
    /// FP, FN, LE, BES, BEL, BEO or LBE.
    pub kind: ErrorType,
    /// The gold span (all but FP).
    pub gold: Option<usize>,
    /// The run span (all but FN).
    pub run: Option<usize>,
}

/// One document of the inspection.
#[derive(Debug, Clone, PartialEq)]
pub struct InspectDoc {
    /// The document's name (HIPE document id, brat path, JSON id, `s<n>` for a sentence).
    pub name: String,
    /// Its place in the gold (0-based).
    pub order: usize,
    /// The text in pieces.
    pub pieces: Vec<Piece>,
    /// Every gold and run span, gold first, each by its first then last position.
    pub marks: Vec<Mark>,
    /// The counted errors, in the algorithm's order.
    pub errors: Vec<ErrorItem>,
    /// Fair counts (one per counted assignment, as the fair table counts them).
    pub counts: FairCounts,
    /// Traditional counts.
    pub traditional: TraditionalCounts,
    /// Whether the text is the document's (false for span files: token numbers stand in).
    pub has_text: bool,
    /// Marks begun inside [`DEPTH`] others of their side: their first piece does not hold
    /// them (their label shows where they begin, their text is tinted only where fewer
    /// enclose it).
    pub deep: usize,
    /// Marks whose text was cut at [`SNIPPET`] characters.
    pub shortened: usize,
}

impl InspectDoc {
    /// The number of counted errors (every assignment but TP).
    pub fn error_count(&self) -> u64 {
        self.counts.total() - self.counts.tp
    }
}

/// A fair evaluation laid out for reading, documents hardest first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inspection {
    /// Every label of gold and run, sorted.
    pub labels: Vec<String>,
    /// Fair counts over all documents.
    pub counts: FairCounts,
    /// Traditional counts over all documents.
    pub traditional: TraditionalCounts,
    /// The documents, most errors first (ties in gold order).
    pub documents: Vec<InspectDoc>,
    /// The signature of the scoring (as `evaluate --family fair` prints it).
    pub signature: String,
    /// The gold and run as named on the command line.
    pub gold: String,
    /// See `gold`.
    pub run: String,
    /// Warnings of the reading (one line each).
    pub warnings: Vec<String>,
    /// The size of the inputs (gold and run files, a brat tree's `.ann` and `.txt` files).
    pub input_bytes: u64,
    /// The bytes the page's documents (list entries, marked texts, error lists) may take,
    /// [`page_limit`] of the inputs' size; the page shows the hardest documents that fit and
    /// says what it leaves out. `None`: no cap (`inspect --full`).
    pub limit: Option<usize>,
}

/// The cap of a page's documents for inputs of `input_bytes` bytes: 3 bytes per input byte
/// and 64 KiB, so that with the page's frame (styles, script, header) a page stays within 4
/// bytes per input byte whatever the nesting of its spans.
pub fn page_limit(input_bytes: u64) -> usize {
    usize::try_from(input_bytes.saturating_mul(3))
        .unwrap_or(usize::MAX)
        .saturating_add(64 << 10)
}

/// Builds the inspection of a fair evaluation; `gold` is the gold as read, for token files
/// (no space where its MISC column, or for CoNLL a column between token and tag, says
/// `NoSpaceAfter` or `SpaceAfter=No`; a new line at each sentence end, `EndOfSentence` or
/// `EndOfLine`). Documents: each document of the report's units (a
/// CoNLL file's `-DOCSTART-` documents group its sentences).
pub fn assemble(report: &FairReport, gold: Option<&Corpus>) -> Inspection {
    let labels: Vec<String> = report.tally.per_label.keys().cloned().collect();
    let label_index: BTreeMap<&str, usize> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let breaks = gold.map(|g| token_breaks(g, report)).unwrap_or_default();
    let sizes = if report.document_sentences.is_empty() {
        vec![1; report.units.len()]
    } else {
        report.document_sentences.clone()
    };
    let names: Vec<Option<String>> = match gold {
        Some(g) if !report.document_sentences.is_empty() => {
            g.docs.iter().map(|d| d.id.clone()).collect()
        }
        _ => Vec::new(),
    };
    let mut documents = Vec::with_capacity(sizes.len());
    let mut next = 0;
    for (order, n) in sizes.into_iter().enumerate() {
        let units: Vec<usize> = (next..next + n)
            .filter(|&i| i < report.units.len())
            .collect();
        next += n;
        let name = match (names.get(order), units.first()) {
            (Some(Some(id)), _) => id.clone(),
            (Some(None), _) => format!("d{}", order + 1),
            (None, Some(&u)) => report.units[u].target.id.clone(),
            (None, None) => format!("d{}", order + 1),
        };
        documents.push(document(report, &units, &breaks, &label_index, name, order));
    }
    documents.sort_by_key(|d| (std::cmp::Reverse(d.error_count()), d.order));
    Inspection {
        labels,
        counts: report.tally.overall.fair,
        traditional: report.tally.overall.traditional,
        documents,
        warnings: report.warnings.clone(),
        ..Inspection::default()
    }
}

/// The separators of each unit's tokens, from the gold as read, when its documents or
/// sentences are the units (same number, same lengths); empty otherwise.
fn token_breaks(gold: &Corpus, report: &FairReport) -> Vec<Vec<Sep>> {
    let lens: Vec<usize> = report
        .units
        .iter()
        .map(|u| u.target.tokens.as_ref().map_or(0, Vec::len))
        .collect();
    // (first token, length, segment lengths) of each unit.
    let by_docs: Vec<(usize, usize, Vec<usize>)> = gold
        .docs
        .iter()
        .map(|d| (d.start, d.len(), d.segments.clone()))
        .collect();
    let mut by_sentences = Vec::new();
    for d in &gold.docs {
        let mut start = d.start;
        for &n in &d.segments {
            by_sentences.push((start, n, vec![n]));
            start += n;
        }
    }
    let fits = |v: &[(usize, usize, Vec<usize>)]| {
        v.len() == lens.len() && v.iter().zip(&lens).all(|(a, &n)| a.1 == n)
    };
    let runs = if fits(&by_docs) {
        by_docs
    } else if fits(&by_sentences) {
        by_sentences
    } else {
        return Vec::new();
    };
    // HIPE's MISC column, else (CoNLL) every column between the token and the tag.
    let flag_cols: Vec<usize> = match gold.column("MISC") {
        Some(c) => vec![c],
        None => (0..gold.columns.len())
            .filter(|&c| c != gold.token_col && gold.columns[c] != "TAG")
            .collect(),
    };
    runs.into_iter()
        .map(|(start, n, segments)| {
            let mut ends = BTreeSet::new();
            let mut at = 0;
            for s in segments {
                at += s;
                ends.insert(at);
            }
            (0..n)
                .map(|i| {
                    let flag = |f: &str| {
                        flag_cols.iter().any(|&c| {
                            gold.cell(start + i, c)
                                .split('|')
                                .any(|x| x.trim().eq_ignore_ascii_case(f))
                        })
                    };
                    if ends.contains(&(i + 1)) || flag("EndOfSentence") || flag("EndOfLine") {
                        Sep::Line
                    } else if flag("NoSpaceAfter") || flag("SpaceAfter=No") {
                        Sep::None
                    } else {
                        Sep::Space
                    }
                })
                .collect()
        })
        .collect()
}

/// A mark before the marks are ordered: the mark, its runs of positions, its unit, side and
/// index in the unit's spans.
struct Draft {
    mark: Mark,
    runs: Vec<Run>,
    key: (usize, Side, usize),
}

fn document(
    report: &FairReport,
    units: &[usize],
    breaks: &[Vec<Sep>],
    labels: &BTreeMap<&str, usize>,
    name: String,
    order: usize,
) -> InspectDoc {
    let mut layouts: Vec<Layout<'_>> = Vec::with_capacity(units.len());
    let mut drafts: Vec<Draft> = Vec::new();
    let mut counts = FairCounts::default();
    let mut traditional = TraditionalCounts::default();
    let mut shortened = 0;
    let mut offset = 0;
    for &u in units {
        let r = &report.units[u];
        let lay = layout(&r.target, &r.system, breaks.get(u));
        let sides = [
            (
                Side::Gold,
                &r.target,
                &r.outcome.target_types,
                &r.outcome.target_traditional_tp,
            ),
            (
                Side::Run,
                &r.system,
                &r.outcome.system_types,
                &r.outcome.system_traditional_tp,
            ),
        ];
        for (side, unit, types, exact) in sides {
            for (i, sp) in unit.spans.iter().enumerate() {
                let exact = exact.get(i).copied().unwrap_or(false);
                match (side, exact) {
                    (Side::Gold, true) => traditional.tp += 1,
                    (Side::Gold, false) => traditional.fn_ += 1,
                    (Side::Run, false) => traditional.fp += 1,
                    (Side::Run, true) => {}
                }
                let runs: Vec<Run> = token_runs(sp)
                    .into_iter()
                    .filter_map(|r| lay.positions(r))
                    .map(|(a, b)| (a + offset, b + offset))
                    .collect();
                let (text, cut) = snippet(unit, sp, lay.has_text());
                shortened += usize::from(cut);
                let kind = types.get(i).copied().unwrap_or(match side {
                    Side::Gold => ErrorType::FN,
                    Side::Run => ErrorType::FP,
                });
                drafts.push(Draft {
                    mark: Mark {
                        side,
                        label: sp.label.clone(),
                        label_index: labels.get(sp.label.as_str()).copied().unwrap_or(0),
                        kind,
                        exact,
                        text,
                        line: unit.span_lines.get(i).copied().unwrap_or(0),
                        first_piece: None,
                    },
                    runs,
                    key: (u, side, i),
                });
            }
        }
        offset += lay.len();
        layouts.push(lay);
    }
    // Marks: gold first, then by first position, longer first.
    let pos_key = |d: &Draft| {
        let first = d.runs.first().map_or(usize::MAX, |r| r.0);
        let last = d.runs.last().map_or(0, |r| r.1);
        (d.mark.side, first, std::cmp::Reverse(last))
    };
    drafts.sort_by_key(|d| pos_key(d));
    let index: BTreeMap<(usize, Side, usize), usize> =
        drafts.iter().enumerate().map(|(i, d)| (d.key, i)).collect();
    let mut errors = Vec::new();
    for &u in units {
        for a in &report.units[u].outcome.assignments {
            counts.add(a.kind);
            if a.kind == ErrorType::TP {
                continue;
            }
            errors.push(ErrorItem {
                kind: a.kind,
                gold: a
                    .target
                    .and_then(|i| index.get(&(u, Side::Gold, i)).copied()),
                run: a
                    .system
                    .and_then(|i| index.get(&(u, Side::Run, i)).copied()),
            });
        }
    }
    let (pieces, marks, deep) = pieces(&layouts, drafts);
    InspectDoc {
        name,
        order,
        pieces,
        marks,
        errors,
        counts,
        traditional,
        has_text: layouts.iter().all(Layout::has_text),
        deep,
        shortened,
    }
}

/// The text in pieces of the same covering marks: each position covered by the marks over
/// it, the text after it by the marks over it and the next position; a new piece where a mark
/// begins (its first piece). Of the marks over a position only the [`DEPTH`] outermost of each
/// side are kept (marks are ordered outer before inner): a mark begun inside as many of its
/// side has its first piece but none of its text where they stay (`deep`, their number). Work
/// and memory are linear in the positions and marks. Returns the pieces, the marks with their
/// first pieces, and the number of deep marks.
fn pieces(layouts: &[Layout<'_>], drafts: Vec<Draft>) -> (Vec<Piece>, Vec<Mark>, usize) {
    let mut starts: Vec<(usize, u32)> = Vec::new();
    let mut ends: Vec<(usize, u32)> = Vec::new();
    for (m, d) in drafts.iter().enumerate() {
        for &(a, b) in &d.runs {
            starts.push((a, m as u32));
            ends.push((b, m as u32));
        }
    }
    starts.sort_unstable();
    ends.sort_unstable();
    let first_run = drafts
        .iter()
        .take_while(|d| d.mark.side == Side::Gold)
        .count() as u32;
    let mut first: Vec<Option<usize>> = vec![None; drafts.len()];
    let mut pending: Vec<u32> = Vec::new();
    let mut out: Vec<Piece> = Vec::new();
    let mut push = |text: &str, marks: &[u32], pending: &mut Vec<u32>| {
        if text.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(p) if p.marks == marks && pending.is_empty() => p.text.push_str(text),
            _ => out.push(Piece {
                text: text.to_string(),
                marks: marks.to_vec(),
            }),
        }
        for m in pending.drain(..) {
            if let Some(f) = first.get_mut(m as usize) {
                f.get_or_insert(out.len() - 1);
            }
        }
    };
    let mut active: BTreeSet<u32> = BTreeSet::new();
    let mut cover: Vec<u32> = Vec::new();
    let covering = |active: &BTreeSet<u32>, cover: &mut Vec<u32>| {
        cover.clear();
        cover.extend(active.range(..first_run).take(DEPTH));
        cover.extend(active.range(first_run..).take(DEPTH));
    };
    let (mut s, mut e, mut p) = (0, 0, 0);
    let last_unit = layouts.iter().rposition(|l| l.len() > 0);
    for (u, lay) in layouts.iter().enumerate() {
        push(lay.lead(), &[], &mut pending);
        let n = lay.len();
        for i in 0..n {
            while let Some(&(_, m)) = starts.get(s).filter(|x| x.0 == p) {
                active.insert(m);
                pending.push(m);
                s += 1;
            }
            covering(&active, &mut cover);
            push(&lay.word(i), &cover, &mut pending);
            while let Some(&(_, m)) = ends.get(e).filter(|x| x.0 == p) {
                active.remove(&m);
                e += 1;
            }
            // The text after: inside the marks that go on over the next position. A unit ends
            // a line (sentences of a CoNLL document); nothing blank ends the document.
            covering(&active, &mut cover);
            let mut after = Cow::Borrowed(lay.after(i));
            if i + 1 == n && !after.contains('\n') {
                after.to_mut().push('\n');
            }
            if i + 1 == n && Some(u) == last_unit && after.trim().is_empty() {
                after = Cow::Borrowed("");
            }
            push(&after, &cover, &mut pending);
            p += 1;
        }
    }
    let deep = first
        .iter()
        .enumerate()
        .filter(|&(m, f)| f.is_some_and(|f| !out[f].marks.contains(&(m as u32))))
        .count();
    let marks = drafts
        .into_iter()
        .zip(first)
        .map(|(d, f)| Mark {
            first_piece: f,
            ..d.mark
        })
        .collect();
    (out, marks, deep)
}

/// The bytes of an input: a file's (a brat `.ann` file's with its `.txt`), a brat tree's
/// `.ann` and `.txt` files'.
pub fn input_bytes(path: &std::path::Path) -> crate::Result<u64> {
    let len = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    if !path.is_dir() {
        let txt = crate::formats::brat::text_path(path);
        let beside = path.extension().is_some_and(|x| x == "ann") && txt != path;
        return Ok(len(path) + if beside { len(&txt) } else { 0 });
    }
    let anns = crate::formats::brat::ann_files(path)?;
    Ok(anns
        .iter()
        .map(|rel| path.join(rel))
        .map(|ann| len(&ann) + len(&crate::formats::brat::text_path(&ann)))
        .sum())
}
