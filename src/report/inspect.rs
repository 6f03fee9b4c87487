//! The page of `fairscore inspect` ([`Inspection`] → one self-contained HTML page): each
//! document's text with every gold and run span marked once and coloured by its fair error
//! type, the document's errors linked to their places, documents hardest first, filters by
//! type and label (inline script; without it everything shows). The frame is
//! `templates/inspect.html` (Tera, autoescaped with [`crate::escape::html`]); the marked text
//! of a document is written here, every input-derived string through [`crate::escape`]
//! (labels in `data-l`, the text with [`crate::escape::html_text`]). Layout: docs/inspect.md.

use std::fmt::Write as _;

use serde::Serialize;
use tera::Context;

use super::html::{template_error, tera};
use crate::escape::{html, html_text};
use crate::eval::fair::{InspectDoc, Inspection, Mark, Side};
use crate::matching::fair::{fair_prf, ErrorType};
use crate::Result;

const TEMPLATE_NAME: &str = "inspect.html";
const TEMPLATE: &str = include_str!("../../templates/inspect.html");

/// The CSS class of a type's group: `ok` (TP), `fn` (missed), `fp` (spurious), `le` (label),
/// `be` (boundary: BES, BEL, BEO), `lbe` (label and boundary).
pub fn group(kind: ErrorType) -> &'static str {
    match kind {
        ErrorType::TP => "ok",
        ErrorType::FN => "fn",
        ErrorType::FP => "fp",
        ErrorType::LE => "le",
        ErrorType::BES | ErrorType::BEL | ErrorType::BEO => "be",
        ErrorType::LBE => "lbe",
    }
}

/// The groups in page order, with their names.
const GROUPS: [(&str, &str); 6] = [
    ("ok", "correct (TP)"),
    ("fn", "missed (FN)"),
    ("fp", "spurious (FP)"),
    ("le", "label (LE)"),
    ("be", "boundary (BE)"),
    ("lbe", "label-boundary (LBE)"),
];

#[derive(Serialize)]
struct Count {
    name: &'static str,
    class: &'static str,
    n: u64,
}

#[derive(Serialize)]
struct SpanView {
    id: String,
    side: &'static str,
    label: String,
    text: String,
}

#[derive(Serialize)]
struct ErrorView {
    kind: &'static str,
    class: String,
    gold: Option<SpanView>,
    run: Option<SpanView>,
}

#[derive(Serialize)]
struct DocView {
    id: String,
    name: String,
    errors: u64,
    counts: Vec<Count>,
    body: String,
    items: Vec<ErrorView>,
    gold_spans: usize,
    run_spans: usize,
    has_text: bool,
}

#[derive(Serialize)]
struct Group {
    class: &'static str,
    name: &'static str,
}

#[derive(Serialize)]
struct View<'a> {
    gold: &'a str,
    run: &'a str,
    signature: &'a str,
    totals: Vec<Count>,
    traditional: Vec<Count>,
    scores: String,
    errors: u64,
    groups: Vec<Group>,
    labels: &'a [String],
    docs: Vec<DocView>,
    warnings: &'a [String],
}

/// The fair counts of a document or the whole, in page order.
fn counts(c: &crate::matching::fair::FairCounts) -> Vec<Count> {
    ErrorType::ALL
        .iter()
        .map(|&k| Count {
            name: k.as_str(),
            class: group(k),
            n: c.get(k.as_str()).unwrap_or(0),
        })
        .collect()
}

fn span_view(doc: &str, d: &InspectDoc, m: Option<usize>) -> Option<SpanView> {
    let i = m?;
    let mark = d.marks.get(i)?;
    Some(SpanView {
        id: format!("{doc}m{i}"),
        side: match mark.side {
            Side::Gold => "gold",
            Side::Run => "run",
        },
        label: mark.label.clone(),
        text: mark.text.clone(),
    })
}

/// The opening tag of a mark's element: classes `g`/`r` (side), its type group, `L<label>`,
/// `x` when the other side has the identical span; its first element also `s` with the id
/// and the label (`data-l`, shown before the text by CSS) and the exact type (`data-k`).
fn open(out: &mut String, doc: &str, i: u32, m: &Mark, first: bool) {
    let side = match m.side {
        Side::Gold => 'g',
        Side::Run => 'r',
    };
    let _ = write!(
        out,
        "<span class=\"{side} {} L{}{}",
        group(m.kind),
        m.label_index,
        if m.exact { " x" } else { "" }
    );
    if first {
        let _ = write!(
            out,
            " s\" id=\"{doc}m{i}\" data-k=\"{}\" data-l=\"{}\">",
            m.kind.as_str(),
            html(&m.label)
        );
    } else {
        out.push_str("\">");
    }
}

/// The marked text of a document: each piece inside the elements of the marks covering it
/// (gold outside run, outer spans outside inner ones), each mark's first element carrying
/// its id; a mark that covers no text gets an empty element at the end, so that every span
/// has exactly one first element.
fn body(doc: &str, d: &InspectDoc) -> String {
    let mut out = String::new();
    for (p, piece) in d.pieces.iter().enumerate() {
        for &i in &piece.marks {
            if let Some(m) = d.marks.get(i as usize) {
                open(&mut out, doc, i, m, m.first_piece == Some(p));
            }
        }
        out.push_str(&html_text(&piece.text));
        for _ in &piece.marks {
            out.push_str("</span>");
        }
    }
    for (i, m) in d.marks.iter().enumerate() {
        if m.first_piece.is_none() {
            open(&mut out, doc, i as u32, m, true);
            out.push_str("</span>");
        }
    }
    out
}

fn doc_view(d: &InspectDoc) -> DocView {
    let id = format!("d{}", d.order + 1);
    let items = d
        .errors
        .iter()
        .map(|e| {
            let gold = span_view(&id, d, e.gold);
            let run = span_view(&id, d, e.run);
            let mut class = format!("e {}", group(e.kind));
            for m in [e.gold, e.run].into_iter().flatten() {
                if let Some(mark) = d.marks.get(m) {
                    let _ = write!(class, " L{}", mark.label_index);
                }
            }
            ErrorView {
                kind: e.kind.as_str(),
                class,
                gold,
                run,
            }
        })
        .collect();
    DocView {
        body: body(&id, d),
        name: d.name.clone(),
        errors: d.error_count(),
        counts: counts(&d.counts),
        items,
        gold_spans: d.marks.iter().filter(|m| m.side == Side::Gold).count(),
        run_spans: d.marks.iter().filter(|m| m.side == Side::Run).count(),
        has_text: d.has_text,
        id,
    }
}

/// Renders the page.
pub fn render(ins: &Inspection) -> Result<String> {
    let fail = |e: tera::Error| template_error("inspect.html", &e);
    let mut t = tera();
    t.add_raw_template(TEMPLATE_NAME, TEMPLATE).map_err(fail)?;
    let trad = ins.traditional;
    let p = fair_prf(&ins.counts);
    let view = View {
        gold: &ins.gold,
        run: &ins.run,
        signature: &ins.signature,
        totals: counts(&ins.counts),
        traditional: vec![
            Count {
                name: "TP",
                class: "ok",
                n: trad.tp,
            },
            Count {
                name: "FP",
                class: "fp",
                n: trad.fp,
            },
            Count {
                name: "FN",
                class: "fn",
                n: trad.fn_,
            },
        ],
        scores: format!(
            "P {:.2} · R {:.2} · F1 {:.2}",
            100.0 * p.p,
            100.0 * p.r,
            100.0 * p.f1
        ),
        errors: ins.counts.total() - ins.counts.tp,
        groups: GROUPS
            .iter()
            .map(|&(class, name)| Group { class, name })
            .collect(),
        labels: &ins.labels,
        docs: ins.documents.iter().map(doc_view).collect(),
        warnings: &ins.warnings,
    };
    let mut ctx = Context::new();
    ctx.insert("v", &view);
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    t.render(TEMPLATE_NAME, &ctx).map_err(fail)
}
