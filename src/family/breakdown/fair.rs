//! Breakdowns of the fair family (docs/breakdown.md, "The fair family"): every gold span
//! falls in the bucket of its own value with the fair type it was first counted with (TP, FN,
//! LE, BE, LBE: the recall side), every run span in the bucket of its own value with its type
//! (TP, FP, LE, BE, LBE: the precision side); each bucket's fair P and R come from its two
//! sides as the fair table's come from its counts (LE, BE and LBE as half an FP or FN).

use super::{buckets, splice, Asked, Breakdown, Facts, KeyBuckets};
use crate::error::{Error, Result};
use crate::family::Statistics;
use crate::matching::fair::ErrorType;
use crate::table::{Column, KeyKind, Kind, Table, Value};

/// Numbers per bucket in a unit: TP, FN, LE, BE, LBE of the gold side, then TP, FP, LE, BE,
/// LBE of the run side.
pub(super) const PER_BUCKET: usize = 10;

/// The columns of a bucket's counts, in [`PER_BUCKET`] order.
const COUNTS: [&str; PER_BUCKET] = [
    "TP-gold", "FN", "LE-gold", "BE-gold", "LBE-gold", "TP-run", "FP", "LE-run", "BE-run",
    "LBE-run",
];

/// The slot of a span of `side` (0 gold, 1 run) counted with `kind`.
fn slot(side: usize, kind: ErrorType) -> usize {
    let k = match kind {
        ErrorType::TP => 0,
        ErrorType::FN | ErrorType::FP => 1,
        ErrorType::LE => 2,
        ErrorType::BES | ErrorType::BEL | ErrorType::BEO => 3,
        ErrorType::LBE => 4,
    };
    side * 5 + k
}

/// Fair P, R and F1 of a bucket's [`PER_BUCKET`] counts: P is TP-run over TP-run, FP and half
/// of LE-run, BE-run and LBE-run; R is TP-gold over TP-gold, FN and half of LE-gold, BE-gold and
/// LBE-gold; F1 their harmonic mean (each 0 when its denominator is 0).
pub(super) fn prf(c: &[f64]) -> (f64, f64, f64) {
    let get = |i: usize| c.get(i).copied().unwrap_or(0.0);
    let half = |from: usize| 0.5 * (get(from) + get(from + 1) + get(from + 2));
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let r = ratio(get(0), get(0) + get(1) + half(2));
    let p = ratio(get(5), get(5) + get(6) + half(7));
    (p, r, ratio(2.0 * p * r, p + r))
}

/// Adds the fair breakdown of `asked` keys to `stats`: `gold` and `run` are the spans, each
/// with the fair type it was first counted with (`gold_types`, `run_types`, parallel).
pub(crate) fn attach(
    stats: &mut Statistics,
    asked: &[Asked],
    gold: &[Facts],
    gold_types: &[ErrorType],
    run: &[Facts],
    run_types: &[ErrorType],
) -> Result<()> {
    let n_units = stats.len();
    let mut keys = Vec::with_capacity(asked.len());
    let mut blocks: Vec<(usize, Vec<f64>)> = Vec::with_capacity(asked.len());
    for a in asked {
        let b = buckets::Bucketing::new(a, gold, run);
        let nb = b.names.len();
        let mut per_unit = vec![0.0; n_units * PER_BUCKET * nb];
        for (side, (spans, types)) in [(gold, gold_types), (run, run_types)]
            .into_iter()
            .enumerate()
        {
            for (s, &kind) in spans.iter().zip(types) {
                if s.unit >= n_units {
                    return Err(Error::usage(format!(
                        "breakdown: a span of unit {} beyond the {} units scored",
                        s.unit + 1,
                        n_units
                    )));
                }
                let k = b.bucket(a.key, s);
                per_unit[(s.unit * nb + k) * PER_BUCKET + slot(side, kind)] += 1.0;
            }
        }
        blocks.push((nb * PER_BUCKET, per_unit));
        keys.push(KeyBuckets {
            key: a.key,
            names: b.names,
        });
    }
    let layout = Breakdown {
        offset: stats.fixed,
        regime: "fair",
        keys,
        fair: true,
    };
    splice(stats, layout, &blocks);
    Ok(())
}

/// The tables of summed statistics: `breakdown:KEY`, rows keyed by bucket.
pub(super) fn tables(b: &Breakdown, sums: &[f64]) -> Vec<Table> {
    let mut at = b.offset;
    let mut out = Vec::with_capacity(b.keys.len());
    for k in &b.keys {
        let mut columns: Vec<Column> = COUNTS
            .iter()
            .map(|&n| {
                if n.starts_with("TP") {
                    Column::new(n, Kind::Amount)
                } else {
                    Column::errors(n, Kind::Amount)
                }
            })
            .collect();
        columns.extend(["P", "R", "F1"].map(|n| Column::new(n, Kind::Ratio)));
        let mut t = Table::new(
            &format!("breakdown:{}", k.key.name()),
            &format!(
                "Fair breakdown by {} (gold spans by their value and first fair type: TP-gold, FN, LE-gold, BE-gold, LBE-gold, R; run spans by theirs: TP-run, FP, LE-run, BE-run, LBE-run, P; LE, BE and LBE count half)",
                k.key.name()
            ),
            vec![KeyKind::Bucket],
            columns,
        );
        for name in &k.names {
            let c = sums.get(at..at + PER_BUCKET).unwrap_or(&[0.0; PER_BUCKET]);
            let (p, r, f1) = prf(c);
            let mut v: Vec<Value> = c.iter().map(|&x| Value::amount(x)).collect();
            v.extend([Value::ratio(p), Value::ratio(r), Value::ratio(f1)]);
            t.push(vec![name.clone()], v);
            at += PER_BUCKET;
        }
        out.push(t);
    }
    out
}

/// The spans of a fair evaluation as the breakdown reads them: per side (gold, run) the facts
/// of every span (label and length, the keys the fair family breaks down by) and the fair type
/// it was first counted with. `units` are the evaluation's units with the index of the
/// statistics' unit each belongs to.
pub(crate) fn facts<'a>(
    units: impl Iterator<Item = (usize, &'a crate::eval::fair::UnitResult)>,
) -> [(Vec<Facts>, Vec<ErrorType>); 2] {
    let mut out: [(Vec<Facts>, Vec<ErrorType>); 2] = Default::default();
    for (unit, u) in units {
        let sides = [
            (&u.target, &u.outcome.target_types),
            (&u.system, &u.outcome.system_types),
        ];
        for ((side, types), (facts, kinds)) in sides.into_iter().zip(out.iter_mut()) {
            for (i, (s, &kind)) in side.spans.iter().zip(types).enumerate() {
                facts.push(Facts {
                    unit,
                    correct: kind == ErrorType::TP,
                    label: s.label.clone(),
                    tokens: u32::try_from(s.end.saturating_sub(s.begin) + 1).unwrap_or(u32::MAX),
                    chars: 0,
                    sentence_tokens: 0,
                    sentence_entities: 0,
                    start_in_sentence: 0,
                    caps: super::Caps::NoLetters,
                    document: String::new(),
                    oov: false,
                    train_freq: 0,
                    train_same_label: 0,
                    noise: 0.0,
                    year: 0.0,
                    id: String::new(),
                    line: side.span_lines.get(i).copied().unwrap_or(0),
                });
                kinds.push(kind);
            }
        }
    }
    out
}
