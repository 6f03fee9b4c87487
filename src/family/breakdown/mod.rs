//! Breakdowns of a span scoring by a property of each span (docs/breakdown.md): the spans of
//! gold and run fall in buckets of a key (label, length, sentence length, …), each bucket with
//! its own TP, FP, FN, P, R and F1.
//!
//! A gold span falls in a bucket by its own value (the recall side: its TP or FN), a run span
//! by its own value (the precision side: its TP or FP); the P and R of a bucket come from
//! different span sets, as ExplainaBoard's do. Buckets are fixed when the statistics are made
//! (continuous keys by quantiles of the gold values), so a bucket's four counts are numbers of
//! the unit statistics that add up: resampling and intervals come with no further code.
//!
//! The layer is shared: a family reads its spans into [`Facts`] and calls [`attach`]; the
//! tables are made by [`crate::family::results_of`] for any family whose statistics carry a
//! [`Breakdown`].

mod buckets;
mod facts;
pub(crate) mod fair;
pub(crate) mod muc;
pub(crate) mod standoff;
pub(crate) mod tokens;
pub(crate) mod train;
mod union;

pub(crate) use union::{same_buckets, without};

pub(crate) use facts::{join, one_word, Caps, Facts, Train};

use super::Statistics;
use crate::error::{snippet, Error, Result};
use crate::table::{Column, KeyKind, Kind, Table, Value};

/// Buckets of a continuous key when none are asked for.
pub const DEFAULT_BUCKETS: usize = 4;
/// At most this many values of a discrete key are shown; the others are one bucket, `(other)`.
pub const MAX_VALUES: usize = 20;
/// Example spans given per bucket and side (the first errors in file order).
pub const EXAMPLES: usize = 3;
/// The name of the bucket of a discrete key's values beyond [`MAX_VALUES`].
pub const OTHER: &str = "(other)";

/// A property of a span that a breakdown buckets by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// Gold label for gold spans, run label for run spans.
    Label,
    /// Span length in tokens.
    Length,
    /// Span length in characters.
    Chars,
    /// Tokens of the span's sentence.
    SentenceLength,
    /// Gold entities per token of the span's sentence.
    Density,
    /// Capitalisation class of the span text.
    Capitalisation,
    /// Start token of the span in its sentence / the sentence's length.
    Position,
    /// The span's document (or sentence, for a file without documents).
    Document,
    /// Whether a token of the span is unseen in the training file.
    Oov,
    /// Occurrences of the span text as an entity in the training file.
    TrainFreq,
    /// Share of those occurrences with the span's label.
    TrainConsistency,
    /// The gold's HIPE noise level (MISC `LED…`) at the span's tokens.
    Noise,
    /// The year of the date of the span's document (HIPE `# date`).
    Period,
}

impl Key {
    /// Every key, in the order docs/breakdown.md gives them.
    pub const ALL: [Key; 13] = [
        Key::Label,
        Key::Length,
        Key::Chars,
        Key::SentenceLength,
        Key::Density,
        Key::Capitalisation,
        Key::Position,
        Key::Document,
        Key::Oov,
        Key::TrainFreq,
        Key::TrainConsistency,
        Key::Noise,
        Key::Period,
    ];

    /// The key's name (`sentence_length`).
    pub fn name(self) -> &'static str {
        match self {
            Key::Label => "label",
            Key::Length => "length",
            Key::Chars => "chars",
            Key::SentenceLength => "sentence_length",
            Key::Density => "density",
            Key::Capitalisation => "capitalisation",
            Key::Position => "position",
            Key::Document => "document",
            Key::Oov => "oov",
            Key::TrainFreq => "train_freq",
            Key::TrainConsistency => "train_consistency",
            Key::Noise => "noise",
            Key::Period => "period",
        }
    }

    /// Whether the key reads a training file (`train`).
    pub fn needs_train(self) -> bool {
        matches!(self, Key::Oov | Key::TrainFreq | Key::TrainConsistency)
    }

    /// Whether the key reads the gold's HIPE metadata (noise levels, document dates).
    pub fn needs_metadata(self) -> bool {
        matches!(self, Key::Noise | Key::Period)
    }

    /// Whether the key's values are numbers bucketed by quantiles.
    pub fn continuous(self) -> bool {
        !matches!(
            self,
            Key::Label | Key::Capitalisation | Key::Document | Key::Oov
        )
    }
}

/// A key as asked for: the key and, for a continuous key, its number of buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked {
    /// The key.
    pub key: Key,
    /// Buckets of a continuous key (`length:6`; default 4).
    pub buckets: usize,
}

/// Parses a `breakdown` value: comma-separated keys, a continuous key optionally with its
/// number of buckets (`length:6`, 1 to 100). An unknown key is a usage error naming the keys.
pub fn parse_keys(value: &str) -> Result<Vec<Asked>> {
    let mut out: Vec<Asked> = Vec::new();
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, n) = match part.split_once(':') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (part, None),
        };
        let wanted = name.to_ascii_lowercase().replace('-', "_");
        let key = Key::ALL
            .into_iter()
            .find(|k| {
                k.name() == wanted || (wanted == "capitalization" && *k == Key::Capitalisation)
            })
            .ok_or_else(|| {
                Error::usage(format!(
                    "breakdown: unknown key {}; the keys are {}",
                    snippet(name),
                    Key::ALL.map(Key::name).join(", ")
                ))
            })?;
        let buckets = match n {
            None => DEFAULT_BUCKETS,
            Some(_) if !key.continuous() => {
                return Err(Error::usage(format!(
                    "breakdown: {} has one bucket per value; a number of buckets applies to {}",
                    key.name(),
                    Key::ALL
                        .into_iter()
                        .filter(|k| k.continuous())
                        .map(Key::name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
            Some(n) => match n.parse::<usize>() {
                Ok(b) if (1..=100).contains(&b) => b,
                _ => {
                    return Err(Error::usage(format!(
                        "breakdown: {}: expected a number of buckets from 1 to 100 after {}:",
                        snippet(n),
                        key.name()
                    )))
                }
            },
        };
        if out.iter().any(|a| a.key == key) {
            return Err(Error::usage(format!(
                "breakdown: {} is listed twice",
                key.name()
            )));
        }
        out.push(Asked { key, buckets });
    }
    if out.is_empty() {
        return Err(Error::usage(format!(
            "breakdown: expected at least one key of {}",
            Key::ALL.map(Key::name).join(", ")
        )));
    }
    Ok(out)
}

/// A usage error when a key needs the training file and none is given, or one is given and no
/// key reads it.
pub fn check_train(asked: &[Asked], train: Option<&std::path::Path>) -> Result<()> {
    let needs: Vec<&str> = asked
        .iter()
        .filter(|a| a.key.needs_train())
        .map(|a| a.key.name())
        .collect();
    match (needs.is_empty(), train) {
        (false, None) => Err(Error::usage(format!(
            "breakdown: {} read a training file, which the train option names",
            needs.join(", ")
        ))),
        (true, Some(_)) => Err(Error::usage(
            "train: the training file is read by the breakdown keys oov, train_freq and train_consistency; add one of them to breakdown",
        )),
        _ => Ok(()),
    }
}

/// The signature fields of a breakdown: its keys (with their buckets where not the default)
/// and the training file by its content hash (`hashed`: the hash already made when the file
/// was read, else the file is hashed here).
pub fn signature_fields(
    asked: &[Asked],
    train: Option<&std::path::Path>,
    hashed: Option<&str>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if asked.is_empty() {
        return out;
    }
    let keys: Vec<String> = asked
        .iter()
        .map(|a| {
            if a.key.continuous() && a.buckets != DEFAULT_BUCKETS {
                format!("{}:{}", a.key.name(), a.buckets)
            } else {
                a.key.name().to_string()
            }
        })
        .collect();
    out.push(("breakdown".to_string(), keys.join(",")));
    if let Some(t) = train {
        let v =
            match hashed.map_or_else(|| crate::family::sign::file_hash(t), |h| Ok(h.to_string())) {
                Ok(h) => format!("file-{h}"),
                Err(_) => t.display().to_string(),
            };
        out.push(("train".to_string(), v));
    }
    out
}

/// The buckets of one key.
#[derive(Debug, Clone, PartialEq)]
struct KeyBuckets {
    key: Key,
    names: Vec<String>,
}

/// The layout of a breakdown within unit statistics: four numbers per bucket (TP of the gold
/// side, FN, TP of the run side, FP) from `offset` on, key after key.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown {
    offset: usize,
    regime: &'static str,
    keys: Vec<KeyBuckets>,
    /// Whose counts a bucket holds: the spans family's, the fair family's or the muc family's.
    layout: Layout,
}

/// The counts of a bucket, by family.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Layout {
    /// TP-gold, FN, TP-run, FP ([`PER_BUCKET`] numbers).
    Spans,
    /// The fair types of either side ([`fair::PER_BUCKET`] numbers).
    Fair,
    /// MUC-7's judged tokens of either side ([`muc::PER_BUCKET`] numbers), F with this beta.
    Muc(f64),
}

/// The columns of a bucket's counts in the spans family, in their order.
const COUNTS: [&str; PER_BUCKET] = ["TP-gold", "FN", "TP-run", "FP"];

/// Numbers per bucket in a unit of the spans family.
const PER_BUCKET: usize = 4;

impl Layout {
    /// The columns of a bucket's counts, in their order (numbers per bucket).
    fn counts(&self) -> &'static [&'static str] {
        match self {
            Layout::Spans => &COUNTS,
            Layout::Fair => &fair::COUNTS,
            Layout::Muc(_) => &muc::COUNTS,
        }
    }

    /// P, R and F (F1, or F-beta for muc) of a bucket's counts.
    fn prf(&self, c: &[f64]) -> (f64, f64, f64) {
        match *self {
            Layout::Spans => bucket_prf(c[0], c[1], c[2], c[3]),
            Layout::Fair => fair::prf(c),
            Layout::Muc(beta) => muc::prf(c, beta),
        }
    }
}

impl Breakdown {
    /// Numbers per bucket.
    fn per_bucket(&self) -> usize {
        self.layout.counts().len()
    }

    /// Numbers per unit.
    pub fn width(&self) -> usize {
        self.per_bucket() * self.keys.iter().map(|k| k.names.len()).sum::<usize>()
    }

    /// The ratio cells of [`Breakdown::tables`] (P, R, F1 of every bucket, key after key), as
    /// [`crate::table::Results::ratios`] would read them from the tables.
    pub fn ratios(&self, sums: &[f64], out: &mut Vec<f64>) {
        let n = self.width();
        let block = sums.get(self.offset..self.offset + n).unwrap_or(&[]);
        for c in block.chunks_exact(self.per_bucket()) {
            let (p, r, f1) = self.layout.prf(c);
            out.extend([p, r, f1]);
        }
    }

    /// The tables of summed statistics: `breakdown:KEY`, rows keyed by bucket: the layout's
    /// counts (a correct count of either side, `TP-…` or `COR-…`, is no error), then P, R and
    /// F1 (muc: F).
    pub fn tables(&self, sums: &[f64]) -> Vec<Table> {
        let counts = self.layout.counts();
        let per = counts.len();
        let score = match self.layout {
            Layout::Muc(_) => "F",
            _ => "F1",
        };
        let mut at = self.offset;
        let mut out = Vec::with_capacity(self.keys.len());
        for k in &self.keys {
            let key = k.key.name();
            let caption = match self.layout {
                Layout::Spans => format!(
                    "Breakdown by {key} ({} regime; gold spans by their value: TP-gold, FN, R; run spans by theirs: TP-run, FP, P)",
                    self.regime
                ),
                Layout::Fair => fair::caption(key),
                Layout::Muc(beta) => muc::caption(key, beta),
            };
            let mut columns: Vec<Column> = counts
                .iter()
                .map(|&n| match n.starts_with("TP") || n.starts_with("COR") {
                    true => Column::new(n, Kind::Amount),
                    false => Column::errors(n, Kind::Amount),
                })
                .collect();
            columns.extend(["P", "R", score].map(|n| Column::new(n, Kind::Ratio)));
            let mut t = Table::new(
                &format!("breakdown:{key}"),
                &caption,
                vec![KeyKind::Bucket],
                columns,
            );
            for name in &k.names {
                let zeros = vec![0.0; per];
                let c = sums.get(at..at + per).unwrap_or(&zeros);
                let (p, r, f) = self.layout.prf(c);
                let mut v: Vec<Value> = c.iter().map(|&x| Value::amount(x)).collect();
                v.extend([Value::ratio(p), Value::ratio(r), Value::ratio(f)]);
                t.push(vec![name.clone()], v);
                at += per;
            }
            out.push(t);
        }
        out
    }
}

/// P, R and F1 of a bucket: P = TP-run / (TP-run + FP), R = TP-gold / (TP-gold + FN), F1
/// their harmonic mean (each 0 when its denominator is 0).
pub fn bucket_prf(tp_gold: f64, fn_: f64, tp_run: f64, fp: f64) -> (f64, f64, f64) {
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let p = ratio(tp_run, tp_run + fp);
    let r = ratio(tp_gold, tp_gold + fn_);
    (p, r, ratio(2.0 * p * r, p + r))
}

/// Adds the breakdown of `asked` keys over the spans of gold and run to `stats` (whose
/// units are those the spans' [`Facts::unit`] index): the bucket counts go after the family's
/// fixed numbers (which grow by the breakdown's width), the example spans of every bucket
/// into the details. `regime` names the regime the spans' correctness was judged in.
pub(crate) fn attach(
    stats: &mut Statistics,
    asked: &[Asked],
    gold: &[Facts],
    run: &[Facts],
    regime: &'static str,
) -> Result<()> {
    let n_units = stats.len();
    let mut keys = Vec::with_capacity(asked.len());
    let mut blocks: Vec<(usize, Vec<f64>)> = Vec::with_capacity(asked.len());
    for a in asked {
        let b = buckets::Bucketing::new(a, gold, run);
        let nb = b.names.len();
        let mut shown = vec![[0usize; 2]; nb];
        let mut rows: Vec<(usize, usize, String, usize)> = Vec::new();
        let mut per_unit = vec![0.0; n_units * PER_BUCKET * nb];
        for (side, spans) in [gold, run].into_iter().enumerate() {
            for s in spans {
                let k = b.bucket(a.key, s);
                if s.unit >= n_units {
                    return Err(Error::usage(format!(
                        "breakdown: a span of unit {} beyond the {} units scored",
                        s.unit + 1,
                        n_units
                    )));
                }
                // [TP-gold, FN, TP-run, FP]
                let slot = side * 2 + usize::from(!s.correct);
                per_unit[(s.unit * nb + k) * PER_BUCKET + slot] += 1.0;
                if !s.correct && shown[k][side] < EXAMPLES {
                    shown[k][side] += 1;
                    rows.push((k, side, s.id.clone(), s.line));
                }
            }
        }
        rows.sort_by_key(|r| (r.0, r.1));
        let mut examples = Table::new(
            &format!("breakdown:{}:examples", a.key.name()),
            &format!(
                "Examples by {}: the first {EXAMPLES} missed gold spans (FN) and spurious run spans (FP) of each bucket (document, sentence, tokens, text) and the line of the span's first token",
                a.key.name()
            ),
            vec![KeyKind::Bucket, KeyKind::Level, KeyKind::Document],
            vec![Column::new("line", Kind::Count)],
        );
        for (k, side, id, line) in rows {
            examples.push(
                vec![
                    b.names[k].clone(),
                    if side == 0 { "FN" } else { "FP" }.to_string(),
                    id,
                ],
                vec![Value::Count(line as u64)],
            );
        }
        stats.details.push(examples);
        blocks.push((nb * PER_BUCKET, per_unit));
        keys.push(KeyBuckets {
            key: a.key,
            names: b.names,
        });
    }
    let layout = Breakdown {
        offset: stats.fixed,
        regime,
        keys,
        layout: Layout::Spans,
    };
    splice(stats, layout, &blocks);
    Ok(())
}

/// Puts the bucket counts `blocks` (per key: numbers per unit, then the units' numbers) into
/// `stats` after the family's fixed numbers, with `layout` as its breakdown.
fn splice(stats: &mut Statistics, layout: Breakdown, blocks: &[(usize, Vec<f64>)]) {
    let n_units = stats.len();
    let added = layout.width();
    let (old_width, fixed) = (stats.width(), stats.fixed);
    let mut data = Vec::with_capacity(n_units * (old_width + added));
    for u in 0..n_units {
        let unit = &stats.data[u * old_width..(u + 1) * old_width];
        data.extend_from_slice(&unit[..fixed]);
        for (w, per_unit) in blocks {
            data.extend_from_slice(&per_unit[u * w..(u + 1) * w]);
        }
        data.extend_from_slice(&unit[fixed..]);
    }
    stats.data = data;
    stats.fixed += added;
    stats.breakdown = Some(layout);
}
