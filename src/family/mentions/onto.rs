//! A generative run as a run of spans (`docs/generative.md`, "Aligned runs in the span
//! families"): the gold read as the mentions family reads it (its units with their texts), the
//! run's records paired with the units and each predicted string placed in its unit's text by
//! the mentions family's alignment; both sides handed to the standoff scorings of the spans,
//! fair and muc families (and `inspect`, breakdowns, campaigns) as standoff documents, one a
//! unit.
//!
//! A mention that finds no place has no offsets; it is not left out: it is written after its
//! unit's text, on a line of its own (the *tail*, the same on both sides), where the run's span
//! covers it and no gold span does, so every family counts it as a false positive
//! (spurious), `inspect` shows it and the totals say how many. A gold mention without a place
//! (a JSON gold mention without offsets not found in its text) is put there too, a false
//! negative.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::align::{Placer, Taken};
use super::answer::Mention;
use super::pair::pair;
use super::read::{self, Record};
use super::settings::{Align, Settings, UnitKind, RUN_OPTIONS};
use crate::corpus::standoff::{is_py_space, DocsReader, ReadDocs, StandoffDoc, StandoffSpan};
use crate::error::{Error, Result};
use crate::family::Options;

/// The label of a mention without a type (a plain string outside a query).
pub const UNTYPED_LABEL: &str = "untyped";

/// The reader of a generative run against its gold when `opts` asks for alignment (`align`
/// exact, case or fuzzy); `None` otherwise. `family` names the family in messages.
pub fn reader(family: &str, opts: &Options) -> Result<Option<DocsReader>> {
    let Some(align) = opts.own("align") else {
        if let Some(o) = RUN_OPTIONS.iter().find(|o| opts.own(o).is_some()) {
            return Err(Error::usage(format!(
                "{o}: reads a generative run (entity lists) with --align exact, case or fuzzy; \
                 the {family} family was given no --align"
            )));
        }
        return Ok(None);
    };
    if align.trim().eq_ignore_ascii_case("off") {
        return Err(Error::usage(format!(
            "align off: the {family} family scores offsets; place a generative run with align \
             exact, case or fuzzy (or score its strings with the mentions family)"
        )));
    }
    Ok(Some(docs_reader(opts, true)?))
}

/// The reader of `fairscore convert` (`align` given): the run's documents with the gold's
/// texts and the placed mentions only; a mention without a place has none to write and is
/// left out (counted in the note).
pub fn converter(opts: &Options) -> Result<DocsReader> {
    docs_reader(opts, false)
}

/// The reader of both sides; `tail`: unplaced mentions written after the text.
fn docs_reader(opts: &Options, tail: bool) -> Result<DocsReader> {
    let s = Settings::parse(opts)?;
    let format = opts.format;
    let column = opts.column.clone();
    Ok(DocsReader(std::sync::Arc::new(
        move |gold: &Path, pred: &Path| sides(gold, pred, &s, format, column.as_deref(), tail),
    )))
}

/// The signature fields of a generative run read by a span family: `run-format mentions` and the
/// choices of its reading (`align`, its threshold when fuzzy, `parser`, `unit`); none
/// without `align`.
pub fn run_fields(opts: &Options) -> Vec<(String, String)> {
    if opts.own("align").is_none() {
        return Vec::new();
    }
    let mut out = vec![("run-format".to_string(), "mentions".to_string())];
    if let Ok(s) = Settings::parse(opts) {
        out.extend(
            s.fields()
                .into_iter()
                .filter(|(n, _)| RUN_OPTIONS.contains(&n.as_str())),
        );
    }
    out
}

/// What the placing of one run found, for the warning every report carries.
#[derive(Debug, Default)]
struct Tally {
    predicted: usize,
    placed: usize,
    unaligned: usize,
    duplicates: usize,
    malformed: usize,
    gold_unplaced: usize,
}

/// A side's mention ready for its document: label, offsets, or `None` (to the tail), the
/// string as said.
type Placed<'a> = (String, Option<(usize, usize)>, &'a str);

/// Reads the gold and the run and places the run's mentions: one document pair a unit.
fn sides(
    gold: &Path,
    pred: &Path,
    s: &Settings,
    format: Option<crate::formats::InputFormat>,
    column: Option<&str>,
    with_tail: bool,
) -> Result<ReadDocs> {
    let g = read::gold(gold, s, format, column)?;
    let recs = read::records(pred, s.parser)?;
    let (paired, mut warnings) = pair(&g, recs, pred, s)?;
    let mut t = Tally::default();
    let (mut gdocs, mut rdocs) = (Vec::new(), Vec::new());
    let n_answers = paired.iter().map(Vec::len).sum::<usize>();
    // Each unit's text is moved into its documents, each answer dropped once placed.
    for (mut u, rs) in g.units.into_iter().zip(paired) {
        let text = u.text.take().unwrap_or_default();
        let n = text.chars().count();
        let mut placer = Placer::new(&text);
        placer.permille = s.threshold;
        // The gold: its offsets (cut at the unit's end), else placed exactly.
        let mut used = Taken::default();
        let mut from = 0;
        let gold_side: Vec<Placed> = u
            .mentions
            .iter()
            .map(|m| {
                let at = match m.offsets {
                    Some((a, b)) => Some((a.min(n), b.min(n))).filter(|(a, b)| a < b),
                    None => {
                        let p = placer.place(&m.text, Align::Exact, &mut used, from);
                        from = p.map_or(from, |x| x.1);
                        p
                    }
                };
                t.gold_unplaced += usize::from(at.is_none());
                (label_of(m, None), at, m.text.as_str())
            })
            .collect();
        let run_side = place_run(&mut placer, &rs, s, n, &mut t);
        drop(placer);
        // The text, then (with the tail) the strings without a place.
        let (full, tail) = if with_tail {
            tail_of(text, &gold_side, &run_side)
        } else {
            (text, Tail::default())
        };
        let doc = |side: &[Placed], tail: Vec<(usize, usize)>, path: &Path, text: String| {
            let mut at_tail = tail.into_iter();
            let spans = side
                .iter()
                .enumerate()
                .filter_map(|(k, (label, at, _))| {
                    let (a, b) = match at {
                        Some(x) => *x,
                        None if with_tail => at_tail.next()?,
                        None => return None,
                    };
                    Some(StandoffSpan {
                        id: format!("T{}", k + 1),
                        label: label.clone(),
                        fragments: vec![(a, b)],
                        line: 0,
                    })
                })
                .collect();
            StandoffDoc {
                name: u.id.clone(),
                path: PathBuf::from(path),
                text,
                spans,
                norms: Vec::new(),
            }
        };
        gdocs.push(doc(&gold_side, tail.gold, gold, full.clone()));
        rdocs.push(doc(&run_side, tail.run, pred, full));
    }
    let (fp, fn_) = if with_tail {
        (
            "false positives, each written after its unit's text",
            "false negatives, after the text",
        )
    } else {
        ("not written", "not written")
    };
    warnings.push(format!(
        "{}: {} predicted mention(s) in {} answer(s) ({} malformed): {} placed in their unit's \
         text, {} unaligned (found no place: {fp}), {} repeated string(s) dropped as \
         duplicates; {} gold mention(s) without a place ({fn_})",
        pred.display(),
        t.predicted,
        n_answers,
        t.malformed,
        t.placed,
        t.unaligned,
        t.duplicates,
        t.gold_unplaced
    ));
    Ok((gdocs, rdocs, warnings))
}

/// The label a mention is scored with: its type, the query's, or [`UNTYPED_LABEL`].
fn label_of(m: &Mention, query: Option<&str>) -> String {
    m.label
        .as_deref()
        .or(query)
        .unwrap_or(UNTYPED_LABEL)
        .to_string()
}

/// Places the run's mentions of one unit as the mentions family does: each answer's
/// mentions in order, the first unused occurrence from where the previous placed one ended;
/// given offsets kept; a string said again after its places ran out dropped as a duplicate.
/// With `unit sentence-type` each query places its mentions on its own.
fn place_run<'a>(
    placer: &mut Placer,
    recs: &'a [Record],
    s: &Settings,
    n: usize,
    t: &mut Tally,
) -> Vec<Placed<'a>> {
    let mut out = Vec::new();
    let mut groups: Vec<Option<&str>> = Vec::new();
    for r in recs {
        let q = (s.unit == UnitKind::SentenceType)
            .then_some(r.query.as_deref())
            .flatten();
        if !groups.contains(&q) {
            groups.push(q);
        }
    }
    for q in groups {
        let mut used = Taken::default();
        let mut from = 0;
        // The strings placed, by label.
        let mut placed: HashMap<String, HashSet<String>> = HashMap::new();
        let in_group = |r: &&Record| s.unit != UnitKind::SentenceType || r.query.as_deref() == q;
        for r in recs.iter().filter(in_group) {
            t.malformed += usize::from(r.answer.malformed);
            for m in &r.answer.mentions {
                t.predicted += 1;
                let label = label_of(m, r.query.as_deref());
                let at = match m.offsets {
                    Some((a, b)) => Some((a, b)).filter(|&(a, b)| a < b && b <= n),
                    None if m.tuple => None,
                    None => placer.place(&m.text, s.align, &mut used, from),
                };
                if let Some((a, b)) = at {
                    used.insert((a, b));
                    from = b;
                }
                let said = m.text.trim();
                match at {
                    None if placed.get(&label).is_some_and(|p| p.contains(said)) => {
                        t.duplicates += 1;
                        continue;
                    }
                    None => t.unaligned += 1,
                    Some(_) => {
                        t.placed += 1;
                        placed
                            .entry(label.clone())
                            .or_default()
                            .insert(said.to_string());
                    }
                }
                out.push((label, at, m.text.as_str()));
            }
        }
    }
    out
}

/// The tail of a unit: the strings of the mentions without a place, each on a line of its
/// own after a blank line, and where each side's start and end (in characters of the whole
/// text). The k-th run mention without a place of a text shares the line of the gold's k-th
/// of that text: the two are one mention (or one with another label), whatever the order of
/// the lists, as the mentions family matches them.
#[derive(Default)]
struct Tail {
    gold: Vec<(usize, usize)>,
    run: Vec<(usize, usize)>,
}

/// `text` with the tail written after it (its room reserved once: at most each string, a
/// separator and `∅`), and the tail's places.
fn tail_of(text: String, gold: &[Placed], run: &[Placed]) -> (String, Tail) {
    let unplaced = gold.iter().chain(run).filter(|p| p.1.is_none());
    let room: usize = unplaced.map(|p| p.2.len().max('∅'.len_utf8()) + 2).sum();
    let mut at = text.chars().count();
    let mut full = text;
    full.reserve_exact(room);
    let mut t = Tail::default();
    let start = full.len();
    let mut lines: HashMap<(&str, usize), (usize, usize)> = HashMap::new();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, _, said) in gold.iter().filter(|p| p.1.is_none()) {
        let key = said.trim_matches(is_py_space);
        let k = count.entry(key).or_insert(0);
        let place = line(&mut full, start, &mut at, said);
        lines.insert((key, *k), place);
        *k += 1;
        t.gold.push(place);
    }
    count.clear();
    for (_, _, said) in run.iter().filter(|p| p.1.is_none()) {
        let key = said.trim_matches(is_py_space);
        let k = count.entry(key).or_insert(0);
        let place = match lines.get(&(key, *k)) {
            Some(&p) => p,
            None => line(&mut full, start, &mut at, said),
        };
        *k += 1;
        t.run.push(place);
    }
    (full, t)
}

/// Writes `said` on a line of its own at the end of `tail`, whose tail starts at byte `from`
/// (`at`: the characters before the end), its words joined by one space; a string of white
/// space only (or none) is shown as `∅`, so that it covers a character. Returns its start and
/// end.
fn line(tail: &mut String, from: usize, at: &mut usize, said: &str) -> (usize, usize) {
    let sep = if tail.len() == from { "\n\n" } else { "\n" };
    tail.push_str(sep);
    *at += sep.len();
    let start = *at;
    for w in said.split_whitespace() {
        if *at > start {
            tail.push(' ');
            *at += 1;
        }
        tail.push_str(w);
        *at += w.chars().count();
    }
    if *at == start {
        tail.push('∅');
        *at += 1;
    }
    (start, *at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_holds_each_unplaced_string_once_in_order() {
        let side: Vec<Placed> = vec![
            ("PER".into(), Some((0, 4)), "Anna"),
            ("LOC".into(), None, " Mars\n"),
            ("ORG".into(), None, ""),
        ];
        let run: Vec<Placed> = vec![
            ("ORG".into(), None, "Venus"),
            ("PER".into(), None, "Mars"),
            ("LOC".into(), None, "Mars"),
        ];
        let (text, t) = tail_of("Anna x".to_string(), &side, &run);
        assert_eq!(text, "Anna x\n\nMars\n∅\nVenus\nMars");
        let full: Vec<char> = text.chars().collect();
        let cut = |(a, b): (usize, usize)| full[a..b].iter().collect::<String>();
        assert_eq!(
            t.gold.iter().map(|&x| cut(x)).collect::<Vec<_>>(),
            ["Mars", "∅"]
        );
        // The run's first `Mars` is the gold's; its second has a line of its own.
        assert_eq!(t.run[1], t.gold[0]);
        assert_eq!(
            t.run.iter().map(|&x| cut(x)).collect::<Vec<_>>(),
            ["Venus", "Mars", "Mars"]
        );
        assert_ne!(t.run[2], t.gold[0]);
    }
}
