//! MUC-7 token judgement of standoff documents: the positions of each document pair (see
//! `crate::eval::standoff`) are the tokens judged. A discontinuous span is judged fragment by fragment:
//! the positions of its gaps are not its. Where spans of one side nest or overlap, a position
//! belongs to the span that starts last (as a tag sequence has one tag a token).

use std::collections::BTreeMap;
use std::path::Path;

use super::judge::{judge, MucCounts, Scratch};
use crate::error::Result;
use crate::eval::standoff::{on_positions, pair, positions, Pairs, PosSpan, StandoffRead};
use crate::spans::Spans;

/// Counts per type (the type a position counts for) of one document pair.
pub type DocMuc = BTreeMap<String, MucCounts>;

/// The gold's entities per type of one document.
pub type DocEntities = BTreeMap<String, u64>;

/// The counts of each document pair, in the gold's order, the gold's entities of each, and the
/// warnings of the pairing.
pub fn muc_units(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
) -> Result<(Vec<DocMuc>, Vec<DocEntities>, Vec<String>)> {
    let Pairs {
        docs,
        cuts,
        mut warnings,
        ..
    } = pair(gold, pred, read)?;
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(docs.len());
    let mut entities = Vec::with_capacity(docs.len());
    for ((g, p), cuts) in docs.iter().zip(&cuts) {
        let pos = positions(&g.text, &g.spans, &p.spans, cuts);
        let on = on_positions(g, &pos, &mut warnings);
        let mut e = DocEntities::new();
        for (label, _, _) in &on {
            *e.entry(label.to_string()).or_default() += 1;
        }
        entities.push(e);
        let gs = fragments(&on);
        let ps = fragments(&on_positions(p, &pos, &mut warnings));
        let mut counts: BTreeMap<&str, MucCounts> = BTreeMap::new();
        judge(&gs, &ps, pos.len(), &mut scratch, |t| {
            counts.entry(t.counted_type()).or_default().add(t.judgement)
        });
        out.push(
            counts
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        );
    }
    Ok((out, entities, warnings))
}

/// One span per run of consecutive positions of each span.
fn fragments<'a>(v: &[PosSpan<'a>]) -> Spans<'a> {
    let mut s = Spans::default();
    for (label, c, _) in v {
        let (mut start, mut last) = (c[0], c[0]);
        for &x in &c[1..] {
            if x != last + 1 {
                s.push_labeled(start, last, label);
                start = x;
            }
            last = x;
        }
        s.push_labeled(start, last, label);
    }
    s
}
