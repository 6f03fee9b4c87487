//! The per-span listing of `score --errors`: every gold and run span of the all-data
//! evaluation with its text, label, the labels it was paired with and its fair error type
//! (Ortmann 2022), and the conversion of HIPE spans into fair-evaluation spans.

use crate::corpus::Corpus;
use crate::matching::fair::{ErrorType, FairOutcome, Span as FairSpan};
use crate::spans::Spans;
use std::collections::BTreeSet;

/// The evaluated spans of one side as fair-evaluation spans (the system's first candidate as
/// its label), filtered as the official counting filters them.
pub(super) fn fair_spans(sp: &Spans<'_>, tags: &BTreeSet<String>, gold: bool) -> Vec<FairSpan> {
    sp.spans
        .iter()
        .filter(|s| {
            if gold {
                tags.contains(sp.label(s))
            } else {
                sp.alts(s).iter().any(|a| tags.contains(*a))
            }
        })
        .map(|s| FairSpan::new(sp.label(s), s.start as usize, s.end as usize))
        .collect()
}

/// One gold or run span of the `--errors` listing: where it is, its text, its label, the labels
/// of the spans it was paired with, and its fair error type.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanRecord {
    /// The evaluated column.
    pub column: String,
    /// Document id (`#LINE` when the file gives none).
    pub document: String,
    /// `gold` or `run`.
    pub side: &'static str,
    /// File line of the span's first token.
    pub line: usize,
    /// First position (0-based) in the unit's filtered token sequence (the document for HIPE
    /// input, the sentence for CoNLL).
    pub start: usize,
    /// Last position (inclusive).
    pub end: usize,
    /// The span's tokens joined by spaces.
    pub text: String,
    /// The span's label.
    pub label: String,
    /// Labels of the spans it was paired with.
    pub partners: Vec<String>,
    /// Fair error type.
    pub error: ErrorType,
}

/// Where the spans of one unit come from, for their records.
pub(super) struct ErrorContext<'a> {
    pub(super) column: &'a str,
    pub(super) doc: String,
    pub(super) gold: &'a Corpus,
    pub(super) pred: &'a Corpus,
    pub(super) gseq: &'a [usize],
    pub(super) pseq: &'a [usize],
}

/// One record per gold and run span.
pub(super) fn push_span_records(
    out: &mut Vec<SpanRecord>,
    ctx: &ErrorContext,
    target: &[FairSpan],
    system: &[FairSpan],
    outcome: &FairOutcome,
) {
    let (t_partners, s_partners) = outcome.partner_lists();
    let sides = [
        (
            "gold",
            ctx.gold,
            ctx.gseq,
            target,
            &outcome.target_types,
            &t_partners,
            system,
        ),
        (
            "run",
            ctx.pred,
            ctx.pseq,
            system,
            &outcome.system_types,
            &s_partners,
            target,
        ),
    ];
    for (side, file, seq, spans, kinds, partner_lists, others) in sides {
        for ((i, sp), &kind) in spans.iter().enumerate().zip(kinds) {
            let partners = partner_lists
                .get(i)
                .into_iter()
                .flatten()
                .filter_map(|&j| others.get(j))
                .map(|o| o.label.clone())
                .collect();
            let text: Vec<&str> = (sp.begin..=sp.end)
                .map(|k| file.token_text(seq[k]))
                .collect();
            out.push(SpanRecord {
                column: ctx.column.to_string(),
                document: ctx.doc.clone(),
                side,
                line: file.line(seq[sp.begin]),
                start: sp.begin,
                end: sp.end,
                text: text.join(" "),
                label: sp.label.clone(),
                partners,
                error: kind,
            });
        }
    }
}
