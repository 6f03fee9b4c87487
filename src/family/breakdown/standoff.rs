//! The spans of standoff files (brat, doccano, Label Studio, Prodigy, or one side a token file
//! aligned through the other's texts) with what the breakdown keys read, over the positions
//! the spans family counts on (`crate::eval::standoff::positions`: whitespace-separated pieces
//! of the text, cut at every span boundary): a span's tokens are its positions, its sentence
//! the line of the text (up to a newline) its first position starts on.

use std::path::Path;

use super::{join, Caps, Facts, Train};
use crate::corpus::standoff::StandoffDoc;
use crate::error::Result;
use crate::eval::standoff::{on_positions, pair, positions, PosSpan, StandoffRead};

/// The spans of gold and run, document (unit) by document, judged in the strict regime
/// (`labels_matter`) or the exact one, and the warnings of the pairing.
pub fn facts(
    gold: &Path,
    pred: &Path,
    read: &StandoffRead,
    labels_matter: bool,
    train: Option<&Train>,
) -> Result<(Vec<Facts>, Vec<Facts>)> {
    let pairs = pair(gold, pred, read)?;
    let (mut gf, mut rf) = (Vec::new(), Vec::new());
    let mut ignored = Vec::new();
    for (unit, ((g, p), cuts)) in pairs.docs.iter().zip(&pairs.cuts).enumerate() {
        let pos = positions(&g.text, &g.spans, &p.spans, cuts);
        let gs = on_positions(g, &pos, &mut ignored);
        let ps = on_positions(p, &pos, &mut ignored);
        let d = Doc {
            unit,
            doc: g,
            pos: &pos,
        };
        let (a, b) = d.facts(&gs, &ps, labels_matter, train);
        gf.extend(a);
        rf.extend(b);
    }
    Ok((gf, rf))
}

/// A standoff document (the gold's) of a pair, over the positions `pos` of the pair.
pub(crate) struct Doc<'a> {
    /// The unit of the statistics it counts in.
    pub unit: usize,
    /// The gold's document (its text and name).
    pub doc: &'a StandoffDoc,
    /// The positions of the pair (character ranges of the text).
    pub pos: &'a [crate::eval::standoff::Pos],
}

impl Doc<'_> {
    /// The facts of the spans `gs` (gold) and `ps` (run) over the positions, in their order,
    /// judged in the strict regime (`labels_matter`) or the exact one.
    pub fn facts(
        &self,
        gs: &[PosSpan<'_>],
        ps: &[PosSpan<'_>],
        labels_matter: bool,
        train: Option<&Train>,
    ) -> (Vec<Facts>, Vec<Facts>) {
        let (g, pos, unit) = (self.doc, self.pos, self.unit);
        let (mut gf, mut rf) = (Vec::new(), Vec::new());
        // Byte offset of every character, the text of a position, its line.
        let bytes: Vec<usize> = g
            .text
            .char_indices()
            .map(|(b, _)| b)
            .chain([g.text.len()])
            .collect();
        let word = |k: usize| -> &str {
            let (s, e) = pos[k];
            &g.text[bytes[s as usize]..bytes[e as usize]]
        };
        let mut line_of = Vec::with_capacity(pos.len());
        let mut line = 0u32;
        let mut last = 0usize;
        for &(s, _) in pos {
            let s = s as usize;
            line += g.text[bytes[last]..bytes[s]].matches('\n').count() as u32;
            last = s;
            line_of.push(line);
        }
        let n_lines = line_of.last().map_or(0, |l| *l as usize + 1);
        let mut lens = vec![0u32; n_lines];
        let mut starts = vec![u32::MAX; n_lines];
        for (k, &l) in line_of.iter().enumerate() {
            lens[l as usize] += 1;
            starts[l as usize] = starts[l as usize].min(k as u32);
        }
        let mut dens = vec![0u32; n_lines];
        for s in gs {
            dens[line_of[s.1.first()] as usize] += 1;
        }
        let name = g.name.strip_suffix(".ann").unwrap_or(&g.name);
        for (side, (own, other)) in [(gs, ps), (ps, gs)].into_iter().enumerate() {
            for s in own.iter() {
                // Both sides are sorted by first position: those starting where `s` starts
                // are found by binary search.
                let from = other.partition_point(|o: &PosSpan| o.1.first() < s.1.first());
                let correct = other[from..]
                    .iter()
                    .take_while(|o| o.1.first() == s.1.first())
                    .any(|o| o.1 == s.1 && (!labels_matter || o.0 == s.0));
                let words = s.1.iter().map(word);
                let text = join(words.clone());
                let first = s.1.first();
                let l = line_of[first] as usize;
                let start = first as u32 - starts[l];
                let mut f = Facts {
                    unit,
                    correct,
                    label: s.0.to_string(),
                    tokens: s.1.len() as u32,
                    chars: text.chars().count() as u32,
                    sentence_tokens: lens[l],
                    sentence_entities: dens[l],
                    start_in_sentence: start,
                    caps: Caps::of(words.clone()),
                    document: name.to_string(),
                    oov: false,
                    train_freq: 0,
                    train_same_label: 0,
                    noise: 0.0,
                    year: 0.0,
                    id: format!(
                        "{name} s{} t{}-{} {text}",
                        l + 1,
                        start + 1,
                        start + s.1.len() as u32
                    ),
                    line: s.2,
                };
                if let Some(t) = train {
                    f.set_train(t, words);
                }
                if side == 0 {
                    gf.push(f);
                } else {
                    rf.push(f);
                }
            }
        }
        (gf, rf)
    }
}
