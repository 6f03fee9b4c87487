//! The nel family's brat files: every `T` span (of the `link_labels`, if given) is a mention
//! of its label, linked by its `N` lines (`N1<TAB>Reference T3 Wikidata:Q42`), candidates in
//! file order; a span without an `N` line is a NIL mention. Gold and run mentions match by
//! their exact character span (`docs/nel.md`).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::super::Statistics;
use super::read::{Mention, NelOptions, Side, Tally};
use crate::corpus::standoff::{CharSlicer, StandoffDoc};
use crate::error::{snippet, Error, Result};
use crate::eval::standoff::{pair_sides, read_sides, StandoffRead};
use crate::formats::StandoffFormat;

/// The link of a mention without an `N` line.
const NIL: &str = "NIL";

/// The link a reference gives: the reference as written (`Wikidata:Q42`), or, when its id
/// (after the first `:`) begins with `NIL`, that id (`Wikidata:NIL12` is the NIL `NIL12`).
fn link_of(reference: &str) -> &str {
    match reference.split_once(':') {
        Some((_, id)) if id.starts_with("NIL") => id,
        _ => reference,
    }
}

/// Checks every `N` line of `doc`: the shape `Reference T<id> DB:ID`, and a target that is a
/// `T` line of the file.
fn check_norms(doc: &StandoffDoc) -> Result<()> {
    if doc.norms.is_empty() {
        return Ok(());
    }
    let ts: HashSet<&str> = doc.spans.iter().map(|s| s.id.as_str()).collect();
    for n in &doc.norms {
        // `DB:ID`, both parts given: a bare `Q42` names no knowledge base (docs/nel.md).
        let db_id = n
            .reference
            .split_once(':')
            .is_some_and(|(db, id)| !db.is_empty() && !id.is_empty());
        if n.target.is_empty() || !db_id {
            return Err(Error::input(
                &doc.path,
                n.line,
                format!(
                    "normalization {}: expected N<id><TAB>Reference T<id> DB:ID (a knowledge-base reference such as Wikidata:Q42), found reference {}",
                    snippet(&n.id),
                    snippet(&n.reference)
                ),
            ));
        }
        if !ts.contains(n.target.as_str()) {
            return Err(Error::input(
                &doc.path,
                n.line,
                format!(
                    "normalization {}: its target {} is not a T line of this file; the nel family links text-bound spans",
                    snippet(&n.id),
                    snippet(&n.target)
                ),
            ));
        }
    }
    Ok(())
}

/// The mentions of `doc` into `side`, in the order of their fragments' rank in `keys`.
fn read_side<'a>(
    side: &mut Side<'a>,
    doc: &'a StandoffDoc,
    keys: &[&'a [(usize, usize)]],
    o: &NelOptions,
    max_n: usize,
) {
    let mut links: HashMap<&str, Vec<&'a str>> = HashMap::new();
    for n in &doc.norms {
        links
            .entry(n.target.as_str())
            .or_default()
            .push(link_of(&n.reference));
    }
    let mut order: Vec<(usize, usize)> = Vec::with_capacity(doc.spans.len());
    for (i, s) in doc.spans.iter().enumerate() {
        if o.link_labels
            .as_ref()
            .is_some_and(|l| !l.contains(&s.label))
        {
            continue;
        }
        let rank = keys
            .binary_search(&s.fragments.as_slice())
            .unwrap_or_default();
        order.push((rank, i));
    }
    order.sort_unstable();
    side.seq.clear();
    side.spans.clear();
    side.mentions.clear();
    for (rank, i) in order {
        let s = &doc.spans[i];
        let alts: &[&'a str] = links.get(s.id.as_str()).map_or(&[NIL], Vec::as_slice);
        side.spans
            .push_alts(rank, rank, alts.iter().copied().take(max_n));
        if let Some(&span) = side.spans.spans.last() {
            side.mentions.push(Mention {
                span,
                ty: &s.label,
                at: i as u32,
            });
        }
    }
}

/// A mention's place in the listing: its `T` line (twice) and the text it covers.
fn place(doc: &StandoffDoc, text: &CharSlicer, m: &Mention, out: &mut String) {
    let Some(s) = doc.spans.get(m.at as usize) else {
        return;
    };
    out.push_str(&format!("{}\t{}\t", s.line, s.line));
    let mut covered = String::new();
    for &(a, b) in &s.fragments {
        if !covered.is_empty() {
            covered.push(' ');
        }
        covered.extend(text.slice(a, b).split_whitespace().flat_map(|w| [w, " "]));
        covered.truncate(covered.trim_end().len());
    }
    out.push_str(&crate::escape::terminal(&covered));
}

/// Reads and counts brat `gold` and `pred` (files or directories): per gold document, the
/// numbers of [`Tally`].
pub fn statistics(o: &NelOptions, gold: &Path, pred: &Path) -> Result<(Statistics, Vec<String>)> {
    let read = StandoffRead {
        format: Some(StandoffFormat::Brat),
        column: None,
        docs: None,
    };
    let sides = read_sides(gold, pred, &read)?;
    for d in sides.gold.iter().chain(&sides.run) {
        check_norms(d)?;
    }
    let pairs = pair_sides(pred, sides)?;
    let max_n = o.max_n();
    let mut tally = Tally::new(o);
    for w in pairs.warnings {
        tally.warn(w);
    }
    let (mut gs, mut rs) = (Side::default(), Side::default());
    for (gd, pd) in &pairs.docs {
        // Mentions are matched by their fragments: each distinct list of fragments has its
        // rank among both sides' as its position.
        let mut keys: Vec<&[(usize, usize)]> = gd
            .spans
            .iter()
            .chain(&pd.spans)
            .map(|s| s.fragments.as_slice())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        read_side(&mut gs, gd, &keys, o, 1);
        read_side(&mut rs, pd, &keys, o, max_n);
        let (gt, pt) = (CharSlicer::new(&gd.text), CharSlicer::new(&pd.text));
        let id = gd.name.strip_suffix(".ann").unwrap_or(&gd.name).to_string();
        tally.document(o, id, &mut gs, &mut rs, |gold, _, m, out| {
            if gold {
                place(gd, &gt, m, out)
            } else {
                place(pd, &pt, m, out)
            }
        });
    }
    Ok(tally.finish(o, &pred.display().to_string()))
}
