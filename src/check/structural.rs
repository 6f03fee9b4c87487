//! The run against the gold, through the scorer's own alignment (run only when nothing is an
//! error): documents and tokens that do not line up, document ids, token texts, labels the
//! scorer would ignore, and links against the gold's entities.

use super::code::Code;
use super::findings::{at, Findings};
use super::{read, Ctx, Kind};
use crate::corpus::{self, Alignment, Corpus};
use crate::error::{snippet, Error};
use crate::eval::score;
use crate::hipe::Task;
use crate::spans::{self, Spans};
use std::collections::BTreeSet;

pub(super) fn check(cx: &Ctx, pred: &Corpus, f: &mut Findings) {
    let path = cx.path;
    let al = match corpus::align(cx.gold, pred) {
        Ok(a) => a,
        Err(e) => {
            let (line, message) = match e {
                Error::Input { line, message, .. } => (line, message),
                other => (0, other.to_string()),
            };
            f.push(Code::Alignment, at(path, line).message(message));
            // Labels need no alignment: the run's own documents are checked (issue 46.10, a
            // missing document does not hide a bad label).
            unknown_labels(cx, pred, &pred.docs, f);
            return;
        }
    };
    // The alignment's notices: documents reconstructed, tokens or segments ignored.
    read::notices(cx, &al.notices, "", &BTreeSet::new(), f);
    if !al.reconstructed {
        document_ids(cx, pred, f);
    }
    token_texts(cx, &al, f);
    unknown_labels(cx, pred, &al.pred_docs, f);
    links(cx, pred, &al, f);
}

/// Documents are matched by position: ids that differ are a warning.
fn document_ids(cx: &Ctx, pred: &Corpus, f: &mut Findings) {
    for (i, (gd, pd)) in cx.gold.docs.iter().zip(&pred.docs).enumerate() {
        if let (Some(g), Some(p)) = (&gd.id, &pd.id) {
            if g != p {
                f.push(
                    Code::DocumentId,
                    at(cx.path, pd.first_line).message(format!(
                        "document {} is {} in the run but {} in the gold; documents are matched by position, not by id",
                        i + 1,
                        snippet(p),
                        snippet(g)
                    )),
                );
            }
        }
    }
}

/// Tokens whose text differs from the gold's, as one finding with examples.
fn token_texts(cx: &Ctx, al: &Alignment, f: &mut Findings) {
    let Some(m) = al.mismatches.first() else {
        return;
    };
    let n = al.mismatches.len();
    let examples: Vec<String> = al
        .mismatches
        .iter()
        .take(3)
        .map(|m| {
            format!(
                "line {}: {} for gold {}",
                m.pred_line,
                snippet(&m.pred),
                snippet(&m.gold)
            )
        })
        .collect();
    f.push(
        Code::TokenText,
        at(cx.path, m.pred_line).column("TOKEN").count(n).message(format!(
            "{n} token(s) differ from the gold ({}); the scorer keeps going, but entities over them can never be correct",
            examples.join("; ")
        )),
    );
}

/// Entity types the scorer would ignore, per scored tag column (as `evaluation_tags`). Tag
/// columns that only bound link objects are left out: their labels do not change NEL scores.
/// Against a masked gold only the tagset can tell.
fn unknown_labels(cx: &Ctx, pred: &Corpus, docs: &[corpus::Document], f: &mut Findings) {
    let tagset = cx.opts.tagset.as_ref();
    if cx.masked && tagset.is_none() {
        return;
    }
    let mut sp = Spans::default();
    for c in cx.checked.iter().filter(|c| c.kind == Kind::Tags) {
        let (Some(gc), Some(pc)) = (cx.gold.column(c.name), pred.column(c.name)) else {
            continue;
        };
        let tags = score::evaluation_tags(cx.gold, gc, pred, pc, Task::NercCoarse, tagset);
        let known_by = match (cx.masked, tagset.is_some()) {
            (true, _) => "the tagset",
            (false, true) => "the gold nor the tagset",
            (false, false) => "the gold",
        };
        for pd in docs {
            let seq: Vec<usize> = pd.range().collect();
            spans::entities(pred, pc, &seq, &mut sp);
            for s in &sp.spans {
                let label = sp.label(s);
                if label.is_empty() || tags.contains(label) {
                    continue;
                }
                let Some(line) = seq.get(s.start as usize).map(|&t| pred.line(t)) else {
                    continue;
                };
                let key = snippet(label);
                let mut a = at(cx.path, line)
                    .column(c.name)
                    .key(&key)
                    .message(format!(
                        "entity type {key} is not in {known_by}: such entities are ignored (neither correct nor spurious)"
                    ));
                if let Some(c) = crate::eval::labels::closest(label, &tags) {
                    a = a.hint(format!("did you mean {c}?"));
                } else if tagset.is_some() {
                    a = a.hint("use the campaign's labels (see the tagset file)");
                }
                f.push(Code::UnknownLabel, a);
            }
        }
    }
}

/// Entities of the run without a link where the gold links the token, and links cut short
/// inside an entity.
fn links(cx: &Ctx, pred: &Corpus, al: &Alignment, f: &mut Findings) {
    let gold = cx.gold;
    for c in cx.checked.iter().filter(|c| c.kind == Kind::Links) {
        let col = c.name;
        let (Some(gl), Some(pl)) = (gold.column(col), pred.column(col)) else {
            continue;
        };
        let ne = match col {
            "NEL-METO" => "NE-COARSE-METO",
            _ => "NE-COARSE-LIT",
        };
        let Some(pn) = pred.column(ne) else {
            continue;
        };
        let participating = (0..pred.n_tokens()).any(|t| !matches!(pred.cell(t, pl), "_" | "-"));
        if !participating {
            continue;
        }
        for (gd, pd) in gold.docs.iter().zip(&al.pred_docs) {
            // The link of the run entity the token is in (its first token's link).
            let mut ent_link: Option<&str> = None;
            for (g, p) in gd.range().zip(pd.range()) {
                let plink = pred.cell(p, pl);
                let ptag = pred.cell(p, pn);
                let starts =
                    ptag.starts_with("B-") || (ptag.starts_with("I-") && ent_link.is_none());
                if starts {
                    ent_link = Some(plink);
                } else if !ptag.starts_with("I-") {
                    ent_link = None;
                }
                if ent_link.is_none() || !matches!(plink, "_" | "-") {
                    continue;
                }
                let line = pred.line(p);
                if !starts && ent_link.is_some_and(|l| !matches!(l, "_" | "-")) {
                    f.push(
                        Code::SplitLink,
                        at(cx.path, line).column(col).message(
                            "a token inside a linked entity has no link (`_`): the run's link object ends before it, shorter than the entity (only an overlap, not a strict match, with a gold link over the whole entity)",
                        ),
                    );
                } else if starts && !matches!(gold.cell(g, gl), "_" | "-") {
                    f.push(
                        Code::MissingLink,
                        at(cx.path, line).column(col).message(
                            "an entity has no link (`_`) where the gold links it: it counts as missed",
                        ),
                    );
                }
            }
        }
    }
}
