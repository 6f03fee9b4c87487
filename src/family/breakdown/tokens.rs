//! The spans of token files (CoNLL, HIPE TSV) with what the breakdown keys read, judged in
//! the strict or exact regime; and a training file's vocabulary and entities.

use super::{join, Asked, Caps, Facts, Key, Train};
use crate::corpus::{Corpus, Document};
use crate::error::{Error, Result};
use crate::eval::score::Entities;
use crate::spans::{entities, same_text, Spans};

/// A span of the evaluated labels: first and last position, label.
type Kept<'a> = (u32, u32, &'a str);

/// A gold and its aligned run with the entities their scoring extracted.
pub struct Sides<'c> {
    /// The gold.
    pub gold: &'c Corpus,
    /// The run.
    pub run: &'c Corpus,
    /// The run's documents, one per gold document, with the gold's segmentation.
    pub run_docs: &'c [Document],
    /// Whether labels must agree for a span to be correct (strict), or only offsets (exact).
    pub labels_matter: bool,
    /// The entities of each document of the evaluated labels as the scoring extracted them
    /// ([`crate::eval::options::ScoreOptions::keep_entities`]): the breakdown buckets the
    /// spans the regime tables count, never a decoding of its own.
    pub entities: &'c Entities,
}

/// Cuts a document's positions into sentences: `sentence_of` each position's sentence,
/// `starts` and `lens` each sentence's first position and length. A sentence ends at the end
/// of a segment and after a token its reader flagged as a sentence end (HIPE TSV's MISC
/// `EndOfSentence`, [`Corpus::sentence_ends`]).
pub(crate) fn sentences(
    c: &Corpus,
    d: &Document,
    sentence_of: &mut Vec<u32>,
    starts: &mut Vec<u32>,
    lens: &mut Vec<u32>,
) {
    sentence_of.clear();
    starts.clear();
    lens.clear();
    // The flagged tokens from the document's first on, ascending.
    let flagged = c.sentence_ends();
    let mut next = flagged.partition_point(|&t| (t as usize) < d.start);
    let mut tok = d.start;
    for &n in &d.segments {
        let mut from = sentence_of.len();
        for i in 0..n {
            sentence_of.push(starts.len() as u32);
            let end = flagged.get(next).is_some_and(|&t| t as usize == tok);
            if end {
                next += 1;
            }
            tok += 1;
            if end || i + 1 == n {
                starts.push(from as u32);
                lens.push((sentence_of.len() - from) as u32);
                from = sentence_of.len();
            }
        }
    }
}

/// The spans of gold and run, document (unit) by document, with their keys' values.
pub fn facts(s: &Sides<'_>, train: Option<&Train>) -> (Vec<Facts>, Vec<Facts>) {
    let (mut gold, mut run) = (Vec::new(), Vec::new());
    let (mut gseq, mut pseq) = (Vec::new(), Vec::new());
    let (mut gkept, mut pkept): (Vec<Kept<'_>>, Vec<Kept<'_>>) = (Vec::new(), Vec::new());
    let mut sentence_of: Vec<u32> = Vec::new();
    let mut entities_in: Vec<u32> = Vec::new();
    let mut starts: Vec<u32> = Vec::new();
    let mut lens: Vec<u32> = Vec::new();
    for (unit, (gd, pd)) in s.gold.docs.iter().zip(s.run_docs).enumerate() {
        gseq.clear();
        gseq.extend(gd.range());
        pseq.clear();
        pseq.extend(pd.range());
        if gseq.len() != pseq.len() {
            continue;
        }
        // The spans of the evaluated labels, as the scoring extracted them.
        gkept.clear();
        pkept.clear();
        let e = s.entities;
        for (side, out) in [&mut gkept, &mut pkept].into_iter().enumerate() {
            out.extend(
                e.doc(side, unit)
                    .iter()
                    .map(|x| (x.start, x.end, e.label(x))),
            );
        }
        // The sentence of every position, where each starts, and its gold entities.
        sentences(s.gold, gd, &mut sentence_of, &mut starts, &mut lens);
        entities_in.clear();
        entities_in.resize(lens.len(), 0);
        for g in &gkept {
            if let Some(&k) = sentence_of.get(g.0 as usize) {
                entities_in[k as usize] += 1;
            }
        }
        let name = gd
            .id
            .clone()
            .unwrap_or_else(|| format!("#{}", gd.first_line));
        let ctx = Doc {
            unit,
            name: &name,
            lens: &lens,
            sentence_of: &sentence_of,
            starts: &starts,
            entities_in: &entities_in,
        };
        for (side, (own, own_seq, other, corpus)) in [
            (&gkept, &gseq, &pkept, s.gold),
            (&pkept, &pseq, &gkept, s.run),
        ]
        .into_iter()
        .enumerate()
        {
            for &(start, end, label) in own.iter() {
                // Spans of one column are disjoint and in order: those starting where this
                // one starts are found by binary search.
                let from = other.partition_point(|y| y.0 < start);
                let correct = other[from..]
                    .iter()
                    .take_while(|y| y.0 == start)
                    .any(|y| y.1 == end && (!s.labels_matter || y.2 == label))
                    && same_text(s.gold, &gseq, s.run, &pseq, start, end);
                let words = own_seq[start as usize..=end as usize]
                    .iter()
                    .map(|&t| corpus.token_text(t));
                let line = corpus.line(own_seq[start as usize]);
                let (mut f, text) = ctx.facts((start, end), label, correct, words.clone(), line);
                // The gold's metadata at the span's positions (the gold's tokens).
                let at = &gseq[start as usize..=end as usize];
                f.noise = at.iter().filter_map(|&t| s.gold.led(t)).fold(0.0, f64::max);
                f.year = at
                    .first()
                    .and_then(|&t| s.gold.date(t))
                    .map_or(0.0, |d| f64::from(d.year));
                if let Some(t) = train {
                    f.set_train_joined(t, words, &text);
                }
                if side == 0 {
                    gold.push(f);
                } else {
                    run.push(f);
                }
            }
        }
    }
    (gold, run)
}

/// A document's sentences as the facts of its spans read them.
struct Doc<'a> {
    unit: usize,
    name: &'a str,
    lens: &'a [u32],
    sentence_of: &'a [u32],
    starts: &'a [u32],
    entities_in: &'a [u32],
}

impl Doc<'_> {
    fn facts<'w>(
        &self,
        (first, last): (u32, u32),
        label: &str,
        correct: bool,
        words: impl Iterator<Item = &'w str> + Clone,
        line: usize,
    ) -> (Facts, String) {
        let k = self.sentence_of.get(first as usize).copied().unwrap_or(0) as usize;
        let start = first - self.starts.get(k).copied().unwrap_or(0);
        let text = join(words.clone());
        // `NAME sK tA-B TEXT`, written without the formatting machinery (a string per span).
        let mut id = String::with_capacity(self.name.len() + text.len() + 24);
        id.push_str(self.name);
        id.push_str(" s");
        push_number(&mut id, k + 1);
        id.push_str(" t");
        push_number(&mut id, start as usize + 1);
        id.push('-');
        push_number(&mut id, (start + (last - first)) as usize + 1);
        id.push(' ');
        id.push_str(&text);
        let f = Facts {
            unit: self.unit,
            correct,
            label: label.to_string(),
            tokens: last - first + 1,
            chars: text.chars().count() as u32,
            sentence_tokens: self.lens.get(k).copied().unwrap_or(0),
            sentence_entities: self.entities_in.get(k).copied().unwrap_or(0),
            start_in_sentence: start,
            caps: Caps::of(words),
            document: self.name.to_string(),
            oov: false,
            train_freq: 0,
            train_same_label: 0,
            noise: 0.0,
            year: 0.0,
            id,
            line,
        };
        (f, text)
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

/// The vocabulary and entities of a token training file's column `col`.
pub fn train(c: &Corpus, col: usize) -> Train {
    let mut t = Train::default();
    for k in 0..c.n_tokens() {
        for w in c.token_text(k).split_whitespace() {
            if !t.vocabulary.contains(w) {
                t.vocabulary.insert(w.to_string());
            }
        }
    }
    let mut seq = Vec::new();
    let mut sp = Spans::default();
    let mut text = String::new();
    // Entities as a scoring reads them: a HIPE document is one sequence, CoNLL sentences
    // bound entities (as conlleval).
    let conll = c.format == "conll";
    let mut units = Vec::new();
    for d in &c.docs {
        let mut at = d.start;
        match conll {
            true => units.extend(d.segments.iter().map(|&n| {
                at += n;
                at - n..at
            })),
            false => units.push(d.range()),
        }
    }
    for unit in units {
        seq.clear();
        seq.extend(unit);
        entities(c, col, &seq, &mut sp);
        for x in &sp.spans {
            text.clear();
            for &k in &seq[x.start as usize..=x.end as usize] {
                for w in c.token_text(k).split_whitespace() {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(w);
                }
            }
            t.add_entity(&text, sp.label(x));
        }
    }
    t
}

/// A usage error naming a key of HIPE metadata the gold does not carry: `noise` needs a noise
/// level (MISC `LED…`) on some token, `period` a date (`# date`) for every token.
pub fn metadata(asked: &[Asked], g: &Corpus) -> Result<()> {
    for a in asked {
        let (carried, what) = match a.key {
            Key::Noise => (
                (0..g.n_tokens()).any(|t| g.led(t).is_some()),
                "a noise level (MISC LED…) on some token",
            ),
            Key::Period => (
                g.n_tokens() > 0 && (0..g.n_tokens()).all(|t| g.date(t).is_some()),
                "a document date (# date = YYYY-MM-DD) before every token",
            ),
            _ => continue,
        };
        if !carried {
            return Err(Error::usage(format!(
                "breakdown: {} reads {what} of the gold (HIPE TSV), which {} does not carry",
                a.key.name(),
                g.path.display()
            )));
        }
    }
    Ok(())
}

/// The tag column of a CoNLL corpus: `column` by name or 1-based number, else `TAG`.
pub fn conll_tag_column(c: &Corpus, column: Option<&str>) -> Option<usize> {
    match column {
        None => c.column("TAG"),
        Some(s) => match s.parse::<usize>() {
            Ok(n) => n.checked_sub(1).filter(|&i| i < c.columns.len()),
            Err(_) => c.column(s),
        },
    }
}
