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
use crate::eval::fair::{InspectDoc, Inspection, Mark, Piece, Side, DEPTH, SNIPPET};
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
    /// Where the size cap ends the document, and what it leaves out.
    cut: Option<String>,
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
    /// The documents shown (hardest first), of `documents`.
    docs: Vec<DocView>,
    documents: usize,
    /// What the page leaves out ([`notes`]).
    notes: Vec<String>,
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

/// The bytes a document's entry in the list and its section take besides its text and errors
/// (a bound: counts, headings, notes), and an error's besides its labels and texts.
const DOC_FRAME: usize = 600;
const ITEM_FRAME: usize = 200;

/// Takes `n` bytes from the page's budget, if it has them.
fn take(left: &mut usize, n: usize) -> bool {
    let ok = n <= *left;
    if ok {
        *left -= n;
    }
    ok
}

/// The marked text of a document, piece by piece while `left` bytes remain: each piece inside
/// the elements of the marks covering it (gold outside run, outer spans outside inner ones),
/// each mark's first element carrying its id (empty, before the piece's text, for a mark its
/// first piece does not hold, [`crate::eval::fair::DEPTH`]); a mark that covers no text gets
/// an empty element at the end, so that every span has exactly one first element. Returns the
/// text, the pieces written and which marks' first elements were.
fn body(doc: &str, d: &InspectDoc, left: &mut usize) -> (String, usize, Vec<bool>) {
    let mut out = String::new();
    let mut shown = vec![false; d.marks.len()];
    let mut begins: Vec<(usize, usize)> = (d.marks.iter().enumerate())
        .map(|(i, m)| (m.first_piece.unwrap_or(usize::MAX), i))
        .collect();
    begins.sort_unstable();
    let mut b = 0;
    for (p, piece) in d.pieces.iter().chain([&Piece::default()]).enumerate() {
        let at = out.len();
        let end = p == d.pieces.len();
        for &i in &piece.marks {
            if let Some(m) = d.marks.get(i as usize) {
                open(&mut out, doc, i, m, m.first_piece == Some(p));
            }
        }
        let here = b;
        while let Some(&(_, i)) = begins.get(b).filter(|x| x.0 == p || end) {
            b += 1;
            if let Some(m) = d
                .marks
                .get(i)
                .filter(|_| !piece.marks.contains(&(i as u32)))
            {
                open(&mut out, doc, i as u32, m, true);
                out.push_str("</span>");
            }
        }
        out.push_str(&html_text(&piece.text));
        for _ in &piece.marks {
            out.push_str("</span>");
        }
        if !take(left, out.len() - at) {
            out.truncate(at);
            return (out, p, shown);
        }
        for &(_, i) in &begins[here..b] {
            shown[i] = true;
        }
    }
    (out, d.pieces.len(), shown)
}

/// The view of a document within `left` bytes (`None`: not even its heading fits), and
/// whether it is whole.
fn doc_view(d: &InspectDoc, left: &mut usize) -> Option<(DocView, bool)> {
    if !take(left, DOC_FRAME + 2 * html(&d.name).len()) {
        return None;
    }
    let id = format!("d{}", d.order + 1);
    let (body, written, shown) = body(&id, d, left);
    let mut items = Vec::new();
    for e in &d.errors {
        let marks: Vec<usize> = [e.gold, e.run].into_iter().flatten().collect();
        let cost: usize = (marks.iter().filter_map(|&m| d.marks.get(m)))
            .map(|m| html(&m.label).len() + html(&m.text).len())
            .sum();
        if !marks.iter().all(|&m| shown.get(m) == Some(&true)) || !take(left, ITEM_FRAME + cost) {
            break;
        }
        let mut class = format!("e {}", group(e.kind));
        for &m in &marks {
            if let Some(mark) = d.marks.get(m) {
                let _ = write!(class, " L{}", mark.label_index);
            }
        }
        items.push(ErrorView {
            kind: e.kind.as_str(),
            class,
            gold: span_view(&id, d, e.gold),
            run: span_view(&id, d, e.run),
        });
    }
    let whole = written == d.pieces.len() && items.len() == d.errors.len();
    let chars = |p: &[Piece]| p.iter().map(|p| p.text.chars().count()).sum::<usize>();
    let cut = (!whole).then(|| {
        format!(
            "The page's size cap ends this document here: {} of its {} characters, {} of its {} \
             spans and {} of its {} errors are shown.",
            chars(&d.pieces[..written.min(d.pieces.len())]),
            chars(&d.pieces),
            shown.iter().filter(|&&s| s).count(),
            d.marks.len(),
            items.len(),
            d.errors.len()
        )
    });
    let view = DocView {
        body,
        name: d.name.clone(),
        errors: d.error_count(),
        counts: counts(&d.counts),
        items,
        gold_spans: d.marks.iter().filter(|m| m.side == Side::Gold).count(),
        run_spans: d.marks.iter().filter(|m| m.side == Side::Run).count(),
        has_text: d.has_text,
        cut,
        id,
    };
    Some((view, whole))
}

/// The page's notes on what it leaves out: spans nested too deep to tint, span texts cut in
/// the error lists, and what the size cap (`Inspection::limit`) left out.
fn notes(ins: &Inspection, docs: &[DocView], whole: usize) -> Vec<String> {
    let mut out = Vec::new();
    let deep: usize = ins.documents.iter().map(|d| d.deep).sum();
    if deep > 0 {
        out.push(format!(
            "{deep} spans begin inside {DEPTH} others of their side (gold or run): each is \
             marked by its label where it begins, and its text is tinted only where fewer than \
             {DEPTH} spans of its side enclose it (deeper nesting would repeat the markup once \
             per level); its errors are listed in full."
        ));
    }
    let short: usize = ins.documents.iter().map(|d| d.shortened).sum();
    if short > 0 {
        out.push(format!(
            "{short} span texts longer than {SNIPPET} characters are cut there in the error \
             lists (ending with …); the marked text shows them whole."
        ));
    }
    if let (Some(limit), true) = (ins.limit, whole < ins.documents.len()) {
        let hidden = &ins.documents[docs.len()..];
        out.push(format!(
            "This page is capped at {limit} bytes (3 per byte of its inputs, {} bytes, and \
             64 KiB): {whole} of its {} documents are shown whole{}{}. `fairscore inspect` with \
             the same inputs and `--full` writes the whole page.",
            ins.input_bytes,
            ins.documents.len(),
            match docs.len() > whole {
                true => ", the next one in part (its note says what)",
                false => "",
            },
            match hidden.len() {
                0 => String::new(),
                n => format!(
                    "; {n} documents with {} errors are left out",
                    hidden.iter().map(InspectDoc::error_count).sum::<u64>()
                ),
            }
        ));
    }
    out
}

/// Renders the page.
pub fn render(ins: &Inspection) -> Result<String> {
    let fail = |e: tera::Error| template_error("inspect.html", &e);
    let mut t = tera();
    t.add_raw_template(TEMPLATE_NAME, TEMPLATE).map_err(fail)?;
    let trad = ins.traditional;
    let p = fair_prf(&ins.counts);
    let mut left = ins.limit.unwrap_or(usize::MAX);
    let mut docs = Vec::new();
    let mut whole = 0;
    for d in &ins.documents {
        let Some((view, all)) = doc_view(d, &mut left) else {
            break;
        };
        docs.push(view);
        if !all {
            break;
        }
        whole += 1;
    }
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
        documents: ins.documents.len(),
        notes: notes(ins, &docs, whole),
        docs,
        warnings: &ins.warnings,
    };
    let mut ctx = Context::new();
    ctx.insert("v", &view);
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    t.render(TEMPLATE_NAME, &ctx).map_err(fail)
}
