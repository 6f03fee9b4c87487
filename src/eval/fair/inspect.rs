//! The typed data of `fairscore inspect`: a fair evaluation laid out document by document for
//! reading, each document's text cut into pieces at every span boundary of gold and run, each
//! gold and run span a [`Mark`] with its fair error type, and the counted errors of the
//! document ([`ErrorItem`]: the pairs Ortmann's algorithm made). Built from a [`FairReport`]
//! (no second matcher) and, for token files, the gold as read (spaces and sentence breaks);
//! `report::inspect` renders it. Work is linear in the tokens and spans.

use std::collections::{BTreeMap, BTreeSet};

use super::{FairReport, Unit};
use crate::corpus::Corpus;
use crate::matching::fair::{ErrorType, FairCounts, Span, TraditionalCounts};

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
    /// files; `#first–#last` token numbers for span files, which have no text).
    pub text: String,
    /// The line of the span in its file (0 where the format has none).
    pub line: usize,
    /// The first piece of the document's text the span covers (`None`: it covers none).
    pub first_piece: Option<usize>,
}

/// A piece of a document's text and the marks covering all of it (indices into
/// [`InspectDoc::marks`], ascending: gold before run, outer before inner).
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
}

/// What follows a token in the rebuilt text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    None,
    Space,
    Line,
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

/// A run of positions a span covers: first and last (inclusive), in the document.
type Run = (usize, usize);

/// The runs of 1-based token indices a span covers (consecutive tokens merged).
fn token_runs(span: &Span) -> Vec<Run> {
    match &span.tokens {
        None => vec![(span.begin, span.end)],
        Some(t) => {
            let mut out: Vec<Run> = Vec::new();
            for &i in t {
                match out.last_mut() {
                    Some(r) if r.1 + 1 == i => r.1 = i,
                    _ => out.push((i, i)),
                }
            }
            out
        }
    }
}

/// The positions of one unit: their texts, what follows each, and the text before the first.
struct Layout {
    lead: String,
    words: Vec<String>,
    after: Vec<String>,
    /// Token number → position, for span files (boundaries of the elementary intervals);
    /// `None`: token `i` is position `i - 1`.
    bounds: Option<Vec<usize>>,
}

fn layout(unit: &Unit, other: &Unit, breaks: Option<&Vec<Sep>>) -> (Layout, bool) {
    if let Some(c) = &unit.chars {
        let text = &c.text;
        let at = |s: usize, e: usize| text.get(s..e).unwrap_or("").to_string();
        let lead_end = c.bytes.first().map_or(text.len(), |b| b.0);
        let words = c.bytes.iter().map(|&(s, e)| at(s, e)).collect();
        let after = c
            .bytes
            .iter()
            .enumerate()
            .map(|(i, &(_, e))| at(e, c.bytes.get(i + 1).map_or(text.len(), |n| n.0)))
            .collect();
        let l = Layout {
            lead: at(0, lead_end),
            words,
            after,
            bounds: None,
        };
        return (l, true);
    }
    if let Some(toks) = &unit.tokens {
        let after = (0..toks.len())
            .map(|i| {
                let sep = breaks.and_then(|b| b.get(i)).copied();
                match sep {
                    _ if i + 1 == toks.len() => "",
                    Some(Sep::None) => "",
                    Some(Sep::Line) => "\n",
                    _ => " ",
                }
                .to_string()
            })
            .collect();
        let l = Layout {
            lead: String::new(),
            words: toks.clone(),
            after,
            bounds: None,
        };
        return (l, true);
    }
    // Span files have no text: the token numbers between span boundaries stand in.
    let mut bounds: Vec<usize> = unit
        .spans
        .iter()
        .chain(&other.spans)
        .flat_map(token_runs)
        .flat_map(|(a, b)| [a, b.saturating_add(1)])
        .collect();
    bounds.sort_unstable();
    bounds.dedup();
    let words: Vec<String> = bounds
        .windows(2)
        .map(|w| match w[1] - w[0] {
            1 => format!("#{}", w[0]),
            _ => format!("#{}–#{}", w[0], w[1] - 1),
        })
        .collect();
    let mut after = vec![" ".to_string(); words.len()];
    if let Some(last) = after.last_mut() {
        last.clear();
    }
    let l = Layout {
        lead: String::new(),
        words,
        after,
        bounds: Some(bounds),
    };
    (l, false)
}

impl Layout {
    /// The positions (unit-local, 0-based) of a run of 1-based tokens, if it has any.
    fn positions(&self, (a, b): Run) -> Option<Run> {
        let n = self.words.len();
        let (x, y) = match &self.bounds {
            None => (a.checked_sub(1)?, b.checked_sub(1)?.min(n.checked_sub(1)?)),
            Some(bounds) => {
                let x = bounds.binary_search(&a).ok()?;
                let y = bounds
                    .binary_search(&b.saturating_add(1))
                    .ok()?
                    .checked_sub(1)?;
                (x, y)
            }
        };
        (x <= y && y < n).then_some((x, y))
    }
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
    let mut words: Vec<String> = Vec::new();
    let mut after: Vec<String> = Vec::new();
    let mut leads: BTreeMap<usize, String> = BTreeMap::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut has_text = true;
    let mut counts = FairCounts::default();
    let mut traditional = TraditionalCounts::default();
    for &u in units {
        let r = &report.units[u];
        let (lay, text) = layout(&r.target, &r.system, breaks.get(u));
        has_text &= text;
        let offset = words.len();
        if !lay.lead.is_empty() {
            leads.insert(offset, lay.lead.clone());
        }
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
                let text = if text {
                    unit.text_of(sp).unwrap_or_default()
                } else {
                    match (sp.begin, sp.end) {
                        (a, b) if a == b => format!("#{a}"),
                        (a, b) => format!("#{a}–#{b}"),
                    }
                };
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
        words.extend(lay.words);
        let mut a = lay.after;
        // A unit ends a line (sentences of a CoNLL document), unless it is the last.
        if let Some(last) = a.last_mut() {
            if !last.contains('\n') {
                last.push('\n');
            }
        }
        after.extend(a);
    }
    if let Some(last) = after.last_mut() {
        if last.trim().is_empty() {
            last.clear();
        }
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
    let pieces = pieces(&words, &after, &leads, &drafts);
    let mut marks: Vec<Mark> = drafts.into_iter().map(|d| d.mark).collect();
    for (p, piece) in pieces.iter().enumerate() {
        for &m in &piece.marks {
            if let Some(mark) = marks.get_mut(m as usize) {
                mark.first_piece.get_or_insert(p);
            }
        }
    }
    InspectDoc {
        name,
        order,
        pieces,
        marks,
        errors,
        counts,
        traditional,
        has_text,
    }
}

/// The text in pieces of the same covering marks: each position covered by the marks over
/// it, the text after it by the marks over it and the next position.
fn pieces(
    words: &[String],
    after: &[String],
    leads: &BTreeMap<usize, String>,
    drafts: &[Draft],
) -> Vec<Piece> {
    let n = words.len();
    let mut starts: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut ends: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (m, d) in drafts.iter().enumerate() {
        for &(a, b) in &d.runs {
            starts[a].push(m as u32);
            ends[b].push(m as u32);
        }
    }
    let mut out: Vec<Piece> = Vec::new();
    let mut push = |text: &str, marks: &[u32]| {
        if text.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(p) if p.marks == marks => p.text.push_str(text),
            _ => out.push(Piece {
                text: text.to_string(),
                marks: marks.to_vec(),
            }),
        }
    };
    let mut active: BTreeSet<u32> = BTreeSet::new();
    let mut cover: Vec<u32> = Vec::new();
    for p in 0..n {
        if let Some(lead) = leads.get(&p) {
            push(lead, &[]);
        }
        active.extend(&starts[p]);
        cover.clear();
        cover.extend(active.iter().copied());
        push(&words[p], &cover);
        for m in &ends[p] {
            active.remove(m);
        }
        // The text after: inside the marks that go on over the next position.
        let between: Vec<u32> = active.iter().copied().collect();
        push(after.get(p).map_or("", String::as_str), &between);
    }
    if n == 0 {
        for lead in leads.values() {
            push(lead, &[]);
        }
    }
    out
}
