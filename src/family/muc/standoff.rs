//! MUC-7 token judgement of standoff documents: the positions of each document pair (see
//! `crate::eval::standoff`) are the tokens judged. A discontinuous span is judged fragment by fragment:
//! the positions of its gaps are not its. Where spans of one side nest or overlap, a position
//! belongs to the span that starts last (as a tag sequence has one tag a token). For a
//! breakdown, a span's judged tokens are those of its fragments.

use std::collections::BTreeMap;
use std::path::Path;

use super::judge::{judge, MucCounts, Scratch};
use crate::error::Result;
use crate::eval::standoff::{
    drop_run_texts, on_positions, pair, positions, Pairs, PosSpan, StandoffRead,
};
use crate::family::breakdown::muc::MucSpans;
use crate::spans::Spans;

/// Counts per type (the type a position counts for) of one document pair.
pub type DocMuc = BTreeMap<String, MucCounts>;

/// The gold's entities per type of one document.
pub type DocEntities = BTreeMap<String, u64>;

/// The counts of each document pair, in the gold's order, the gold's entities of each, and the
/// warnings of the pairing; the spans of gold and run and their judged tokens gathered into
/// `spans` when given (for a breakdown: a span's judged tokens are those of its fragments).
pub(super) fn muc_units(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
    mut spans: Option<&mut MucSpans<'_>>,
) -> Result<(Vec<DocMuc>, Vec<DocEntities>, Vec<String>)> {
    let Pairs {
        mut docs,
        cuts,
        mut warnings,
        ..
    } = pair(gold, pred, read)?;
    drop_run_texts(&mut docs);
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(docs.len());
    let mut entities = Vec::with_capacity(docs.len());
    for (unit, ((g, p), cuts)) in docs.iter().zip(&cuts).enumerate() {
        let pos = positions(&g.text, &g.spans, &p.spans, cuts);
        let on = on_positions(g, &pos, &mut warnings);
        let pon = on_positions(p, &pos, &mut warnings);
        if let Some(s) = spans.as_deref_mut() {
            let d = crate::family::breakdown::standoff::Doc {
                unit,
                doc: g,
                pos: &pos,
            };
            s.standoff_doc(d.facts(&on, &pon, true, s.train()));
        }
        let mut e = DocEntities::new();
        for (label, _, _) in &on {
            *e.entry(label.to_string()).or_default() += 1;
        }
        entities.push(e);
        let (gs, gof) = fragments(&on);
        let (ps, pof) = fragments(&pon);
        let mut counts: BTreeMap<&str, MucCounts> = BTreeMap::new();
        judge(&gs, &ps, pos.len(), &mut scratch, |t| {
            counts.entry(t.counted_type()).or_default().add(t.judgement);
            if let Some(s) = spans.as_deref_mut() {
                let of = |v: &[usize], i: Option<usize>| i.and_then(|i| v.get(i).copied());
                let slot = super::read::slot(t.judgement);
                s.judged(of(&gof, t.gold_span), of(&pof, t.run_span), slot);
            }
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

/// One span per run of consecutive positions of each span, and for each the index of its
/// span in `v`.
fn fragments<'a>(v: &[PosSpan<'a>]) -> (Spans<'a>, Vec<usize>) {
    let mut s = Spans::default();
    let mut of = Vec::with_capacity(v.len());
    for (k, (label, c, _)) in v.iter().enumerate() {
        for &(start, last) in c.runs() {
            s.push_labeled(start as usize, last as usize, label);
            of.push(k);
        }
    }
    (s, of)
}
