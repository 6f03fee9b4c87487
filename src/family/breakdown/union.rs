//! Two runs of one gold whose breakdowns list different values of a discrete key (a label only
//! one run uses): `compare` reads both on the union of their buckets, in which a bucket one run
//! lacks has zero counts (docs/breakdown.md, "compare").

use super::{Breakdown, KeyBuckets, OTHER};
use crate::error::{Error, Result};
use crate::family::Statistics;

/// `a` and `b` with the same breakdown: unchanged when they have it already; else each on the
/// union of the buckets of every key (in name order, as a discrete key's buckets are), its
/// counts moved to their bucket's new place and zeros in the buckets it lacks. A usage error
/// when the breakdowns are not of the same keys, or when a key with different buckets has an
/// `(other)` bucket (which holds different values in each run).
pub fn same_buckets(a: &Statistics, b: &Statistics) -> Result<(Statistics, Statistics)> {
    let (ba, bb) = match (&a.breakdown, &b.breakdown) {
        (Some(x), Some(y)) if x != y => (x, y),
        (x, y) if x == y => return Ok((a.clone(), b.clone())),
        _ => return Err(refused("only one of them has a breakdown")),
    };
    let same_layout = ba.offset == bb.offset
        && ba.regime == bb.regime
        && ba.layout == bb.layout
        && ba.keys.len() == bb.keys.len()
        && ba.keys.iter().zip(&bb.keys).all(|(x, y)| x.key == y.key);
    if !same_layout {
        return Err(refused("they are not of the same keys"));
    }
    let mut keys = Vec::with_capacity(ba.keys.len());
    for (x, y) in ba.keys.iter().zip(&bb.keys) {
        if x.names == y.names {
            keys.push(x.clone());
            continue;
        }
        if x.names.iter().chain(&y.names).any(|n| n == OTHER) {
            return Err(refused(&format!(
                "{} has a bucket {OTHER} (more than {} values), which holds different values in each run",
                x.key.name(),
                super::MAX_VALUES
            )));
        }
        let mut names: Vec<String> = x.names.iter().chain(&y.names).cloned().collect();
        names.sort_unstable();
        names.dedup();
        keys.push(KeyBuckets { key: x.key, names });
    }
    let union = Breakdown {
        offset: ba.offset,
        regime: ba.regime,
        keys,
        layout: ba.layout,
    };
    Ok((widen(a, ba, &union), widen(b, bb, &union)))
}

/// `s` without its breakdown: its numbers taken out of every unit, the family's own left as
/// they are (a ranking's paired tests of a family cell need no bucket, and runs whose buckets
/// differ still pair unit by unit).
pub fn without(s: &Statistics) -> Statistics {
    let Some(b) = &s.breakdown else {
        return s.clone();
    };
    let (old_w, bw) = (s.width(), b.width());
    let mut out = s.clone();
    out.fixed = s.fixed.saturating_sub(bw);
    out.breakdown = None;
    out.data.clear();
    if old_w == 0 {
        return out;
    }
    let end = (b.offset + bw).min(old_w);
    for u in s.data.chunks_exact(old_w) {
        out.data.extend_from_slice(&u[..b.offset.min(end)]);
        out.data.extend_from_slice(&u[end..]);
    }
    out
}

fn refused(why: &str) -> Error {
    Error::usage(format!(
        "compare: the breakdowns of run A and run B cannot be compared bucket by bucket: {why}; compare without breakdown"
    ))
}

/// `s` (whose breakdown is `from`) with the breakdown `to`, whose every key holds the buckets
/// of `from`'s key and maybe more.
fn widen(s: &Statistics, from: &Breakdown, to: &Breakdown) -> Statistics {
    let per = from.per_bucket();
    // Where each bucket of `from` goes within `to`'s block.
    let mut place = Vec::with_capacity(from.width() / per.max(1));
    let mut base = 0;
    for (x, y) in from.keys.iter().zip(&to.keys) {
        for n in &x.names {
            let k = y.names.iter().position(|m| m == n).unwrap_or(0);
            place.push(base + k);
        }
        base += y.names.len();
    }
    let (old_w, new_bd) = (s.width(), to.width());
    let grow = new_bd - from.width();
    let mut out = s.clone();
    out.fixed = s.fixed + grow;
    out.breakdown = Some(to.clone());
    out.data.clear();
    if old_w == 0 {
        return out;
    }
    for u in s.data.chunks_exact(old_w) {
        out.data.extend_from_slice(&u[..from.offset]);
        let start = out.data.len();
        out.data.resize(start + new_bd, 0.0);
        let block = &u[from.offset..from.offset + from.width()];
        for (c, &to_k) in block.chunks_exact(per).zip(&place) {
            out.data[start + to_k * per..start + (to_k + 1) * per].copy_from_slice(c);
        }
        out.data.extend_from_slice(&u[from.offset + from.width()..]);
    }
    out
}
