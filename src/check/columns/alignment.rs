//! The alignment part of `check` for column files: gold and run compared token by token (or
//! sentence by sentence for text), resynchronised after items a run skipped or added, and
//! sentence breaks that differ.

use std::path::Path;

use super::super::findings::{at, Findings};
use super::super::Code;
use super::{Seq, Tok};
use crate::error::snippet;
use crate::formats::InputFormat;

/// How far (in tokens, or sentences of text) `check` looks ahead for the place where a run
/// that skipped or added items meets the gold again.
const MAX_GAP: usize = 64;

/// After this many items that differ, `check` stops looking for gaps (bounding its work on
/// files of different texts).
const MAX_SEARCHES: usize = 1000;

fn tok<'s, 'a>(s: &'s Seq<'a>, (i, k): (usize, usize)) -> &'s Tok<'a> {
    &s.sentences[i][k]
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Tokens (text: sentence characters) compared in order; sentence breaks; missing and extra
/// tokens.
pub(super) fn alignment(
    gold: &Path,
    pred: &Path,
    format: InputFormat,
    g: &Seq,
    p: &Seq,
    f: &mut Findings,
) {
    let flat = |s: &Seq| -> Vec<(usize, usize)> {
        // (sentence, index in sentence) of every token
        s.sentences
            .iter()
            .enumerate()
            .flat_map(|(i, t)| (0..t.len()).map(move |k| (i, k)))
            .collect()
    };
    let (gf, pf) = (flat(g), flat(p));
    let what = if format == InputFormat::Text {
        "sentence"
    } else {
        "token"
    };
    // What is compared: the token, or a text sentence's characters without whitespace (made
    // once per sentence, not per comparison).
    let keys = |s: &Seq, f: &[(usize, usize)]| -> Vec<String> {
        if format == InputFormat::Text {
            f.iter().map(|&x| squeeze(tok(s, x).form)).collect()
        } else {
            Vec::new()
        }
    };
    let (gk, pk) = (keys(g, &gf), keys(p, &pf));
    let same = |i: usize, j: usize| {
        if format == InputFormat::Text {
            gk[i] == pk[j]
        } else {
            tok(g, gf[i]).form == tok(p, pf[j]).form
        }
    };
    // `window` items in a row agree from gold item `i` and run item `j`; fewer only where
    // both files end together (so a substitution near the end is not taken for a gap).
    let window = if format == InputFormat::Text { 2 } else { 4 };
    let agree_from = |i: usize, j: usize| {
        let w = window.min(gf.len() - i).min(pf.len() - j);
        let full = w == window || (i + w == gf.len() && j + w == pf.len());
        w > 0 && full && (0..w).all(|k| same(i + k, j + k))
    };
    let mut differ = 0usize;
    let mut first: Option<(usize, usize)> = None;
    let mut breaks = 0usize;
    let mut first_break: Option<(usize, usize, bool)> = None;
    // Gaps where the run lacks gold items (missing) or has items the gold lacks (extra):
    // (gold index, run index, how many), the first of each and their number.
    let mut missing: Vec<(usize, usize, usize)> = Vec::new();
    let mut extra: Vec<(usize, usize, usize)> = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let mut after_gap = false;
    while i < gf.len() && j < pf.len() {
        if same(i, j) {
            // A sentence starts here in one file and not in the other.
            let (gs, ps) = (gf[i].1 == 0, pf[j].1 == 0);
            if i > 0 && j > 0 && !after_gap && gs != ps && format != InputFormat::Text {
                breaks += 1;
                first_break.get_or_insert((i, j, gs));
            }
            after_gap = false;
            i += 1;
            j += 1;
            continue;
        }
        // Resynchronise within a bounded distance: a run that skipped or added a few items
        // is reported once at the line where the files part, not as every later item.
        // (Not once the files have differed often: they are not the same text.)
        let search = if differ < MAX_SEARCHES { MAX_GAP } else { 0 };
        let gap = (1..=search).find_map(|d| {
            if i + d < gf.len() && agree_from(i + d, j) {
                Some((d, true))
            } else if j + d < pf.len() && agree_from(i, j + d) {
                Some((d, false))
            } else {
                None
            }
        });
        match gap {
            Some((d, true)) => {
                missing.push((i, j, d));
                i += d;
                after_gap = true;
            }
            Some((d, false)) => {
                extra.push((i, j, d));
                j += d;
                after_gap = true;
            }
            None => {
                differ += 1;
                first.get_or_insert((i, j));
                i += 1;
                j += 1;
            }
        }
    }
    if let Some(&(gi, pj, d)) = missing.first() {
        let (ta, tb) = (tok(g, gf[gi]), tok(p, pf[pj]));
        let n: usize = missing.iter().map(|m| m.2).sum();
        f.push(
            Code::MissingTokens,
            at(pred, tb.line)
                .message(format!(
                    "the gold's {what} {} ({}:{}, {}){} {} missing from the run before this line",
                    gi + 1,
                    gold.display(),
                    ta.line,
                    snippet(ta.form),
                    if d > 1 {
                        format!(" and the {} after it", d - 1)
                    } else {
                        String::new()
                    },
                    if d > 1 { "are" } else { "is" }
                ))
                .count(n),
        );
    }
    if let Some(&(gi, pj, d)) = extra.first() {
        let (ta, tb) = (tok(g, gf[gi]), tok(p, pf[pj]));
        let n: usize = extra.iter().map(|m| m.2).sum();
        f.push(
            Code::ExtraTokens,
            at(pred, tb.line)
                .message(format!(
                    "the run's {what} {} ({}){} not in the gold; the gold goes on with {} ({}:{})",
                    pj + 1,
                    snippet(tb.form),
                    if d > 1 {
                        format!(" and the {} after it are", d - 1)
                    } else {
                        " is".to_string()
                    },
                    snippet(ta.form),
                    gold.display(),
                    ta.line
                ))
                .count(n),
        );
    }
    let (rest_g, rest_p) = (gf.len() - i, pf.len() - j);
    if let Some((n, m)) = first {
        let (ta, tb) = (tok(g, gf[n]), tok(p, pf[m]));
        f.push(
            Code::Alignment,
            at(pred, tb.line)
                .message(format!(
                    "{what} {} of the run is {}, the gold's ({}:{}) is {}",
                    m + 1,
                    snippet(tb.form),
                    gold.display(),
                    ta.line,
                    snippet(ta.form)
                ))
                .count(differ),
        );
    }
    if let Some((n, m, gold_starts)) = first_break {
        let (ta, tb) = (tok(g, gf[n]), tok(p, pf[m]));
        let msg = if gold_starts {
            format!(
                "the gold starts a sentence at {:?} ({}:{}); the run goes on with it in the same sentence",
                ta.form,
                gold.display(),
                ta.line
            )
        } else {
            format!(
                "the run starts a sentence at {:?}; the gold ({}:{}) goes on with it in the same sentence",
                tb.form,
                gold.display(),
                ta.line
            )
        };
        // CoNLL runs with the gold's tokens are read with the gold's breaks (as conlleval);
        // the other families need the gold's sentences.
        let code = if format == InputFormat::Conll
            && gf.len() == pf.len()
            && differ == 0
            && missing.is_empty()
            && extra.is_empty()
        {
            Code::SentenceBreakRead
        } else {
            Code::SentenceBreak
        };
        f.push(code, at(pred, tb.line).message(msg).count(breaks));
    }
    if rest_g > 0 {
        let next = tok(g, gf[i]);
        let last = pf.last().map(|&b| tok(p, b).line).unwrap_or(0);
        f.push(
            Code::MissingTokens,
            at(pred, last).message(format!(
                "the run ends after {} {what}s; the gold goes on at {}:{} with {} ({} more)",
                pf.len(),
                gold.display(),
                next.line,
                snippet(next.form),
                rest_g
            )),
        );
    }
    if rest_p > 0 {
        let extra = tok(p, pf[j]);
        f.push(
            Code::ExtraTokens,
            at(pred, extra.line).message(format!(
                "the run goes on with {} after the gold's last {what} ({} more than the gold's {})",
                snippet(extra.form),
                rest_p,
                gf.len()
            )),
        );
    }
}
