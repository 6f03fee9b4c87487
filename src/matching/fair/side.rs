//! One side (target or system) of a unit while the algorithm runs: the spans as working items
//! (interned label, range, remaining tokens), the reference's input and counted lists as flags
//! and ranks, and the search for the most similar candidate, by scanning a list or through
//! the interval index.

use std::cmp::Reverse;
use std::collections::HashMap;

use super::index::{IntervalIndex, Pool};
use super::tokens::Toks;
use super::Span;

/// Which pass of the boundary / labeling-boundary step is running.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Labels {
    Same,
    Different,
}

impl Labels {
    pub(super) fn admits(self, a: u32, b: u32) -> bool {
        match self {
            Labels::Same => a == b,
            Labels::Different => a != b,
        }
    }
}

/// Working copy of a span: interned label, range (`begin <= end`) and the tokens it still has.
pub(super) struct Item {
    pub(super) label: u32,
    pub(super) begin: usize,
    pub(super) end: usize,
    pub(super) toks: Toks,
}

impl Item {
    pub(super) fn range(&self) -> (usize, usize) {
        (self.begin, self.end)
    }

    pub(super) fn same_range(&self, other: &Item) -> bool {
        self.begin == other.begin && self.end == other.end
    }

    /// Equality as the reference compares spans: label, begin, end and token set.
    pub(super) fn same_value(&self, other: &Item) -> bool {
        self.same_range(other) && self.label == other.label && self.toks == other.toks
    }

    /// The value as a hash key.
    pub(super) fn key(&self) -> (u32, usize, usize, &Toks) {
        (self.label, self.begin, self.end, &self.toks)
    }
}

/// Label ids by first occurrence: a short list searched in order, a map for many labels.
#[derive(Default)]
pub(super) struct Labeller<'a> {
    list: Vec<&'a str>,
    map: HashMap<&'a str, u32>,
}

impl<'a> Labeller<'a> {
    const LIST_MAX: usize = 16;

    fn id(&mut self, label: &'a str) -> u32 {
        if self.map.is_empty() {
            if let Some(i) = self.list.iter().position(|&l| l == label) {
                return i as u32;
            }
            if self.list.len() < Self::LIST_MAX {
                self.list.push(label);
                return (self.list.len() - 1) as u32;
            }
            self.map = self
                .list
                .iter()
                .enumerate()
                .map(|(i, &l)| (l, i as u32))
                .collect();
        }
        let next = self.map.len() as u32;
        *self.map.entry(label).or_insert(next)
    }

    pub(super) fn items(&mut self, spans: &'a [Span]) -> Vec<Item> {
        spans.iter().map(|s| item(self.id(&s.label), s)).collect()
    }
}

/// The working item of span `s` with label id `label`.
pub(super) fn item(label: u32, s: &Span) -> Item {
    let (begin, end) = (s.begin.min(s.end), s.begin.max(s.end));
    Item {
        label,
        begin,
        end,
        toks: match &s.tokens {
            None => Toks::range(begin, end),
            Some(list) => Toks::listed(list, begin, end),
        },
    }
}

/// The items in order of range length, then position (stable): by counting in a large unit
/// whose lengths are short (at most four times the number of spans), by sorting otherwise (a
/// sentence's few spans).
fn by_length(items: &[Item]) -> Vec<usize> {
    let n = items.len();
    let len = |it: &Item| it.end - it.begin;
    let max = items.iter().map(len).max().unwrap_or(0);
    if n >= 64 && max <= 4 * n {
        // Where each length's items start, then each item in place.
        let mut start = vec![0usize; max + 2];
        for it in items {
            start[len(it) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut order = vec![0usize; n];
        for (k, it) in items.iter().enumerate() {
            let slot = &mut start[len(it)];
            order[*slot] = k;
            *slot += 1;
        }
        order
    } else {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_unstable_by_key(|&k| (len(&items[k]), k));
        order
    }
}

/// How similar a candidate is to the span being matched, best first (the reference's
/// `_max_sim` sort key): most shared tokens, fewest tokens only in the span, fewest only in the
/// candidate, shortest range, then its position in the searched list.
type Similarity = (Reverse<u128>, u128, u128, usize, usize);

/// One side (target or system) of the unit being evaluated.
pub(super) struct Side {
    pub(super) items: Vec<Item>,
    /// Not matched yet (still in the reference's input list).
    pub(super) remaining: Vec<bool>,
    /// The input list of steps 2 and 3: by span length, stable.
    pub(super) order: Vec<usize>,
    /// Position of each span in `order`.
    pub(super) rank: Vec<usize>,
    /// Matched spans in the order they were matched (the reference's counted list).
    pub(super) counted: Vec<usize>,
    /// Position of each span in `counted` (`usize::MAX` while not counted).
    pub(super) seq: Vec<usize>,
    pub(super) index: Option<IntervalIndex>,
    /// With the index: the span ids by (begin, end, id), sorted once for every step.
    pub(super) by_range: Vec<usize>,
}

impl Side {
    pub(super) fn new(items: Vec<Item>) -> Self {
        let n = items.len();
        Side {
            items,
            remaining: vec![true; n],
            order: Vec::new(),
            rank: Vec::new(),
            counted: Vec::new(),
            seq: vec![usize::MAX; n],
            index: None,
            by_range: Vec::new(),
        }
    }

    /// Sorts the span ids by (begin, end, id) for the indexed steps ([`Side::by_range`]).
    pub(super) fn sort_by_range(&mut self) {
        let mut keyed: Vec<(usize, usize, usize)> = (self.items.iter())
            .enumerate()
            .map(|(k, x)| (x.begin, x.end, k))
            .collect();
        // In file order, spans are mostly in order of range already.
        crate::matching::sort_nearly_sorted(&mut keyed);
        self.by_range = keyed.into_iter().map(|x| x.2).collect();
    }

    /// Sorts the input list by span length for steps 2 and 3; with `index`, builds the interval
    /// index: an empty counted pool and, with `fresh`, the remaining spans as the fresh pool.
    pub(super) fn prepare(&mut self, index: bool, fresh: bool) {
        let order = by_length(&self.items);
        let mut rank = vec![0; order.len()];
        for (pos, &k) in order.iter().enumerate() {
            rank[k] = pos;
        }
        (self.order, self.rank) = (order, rank);
        if index {
            let ranges: Vec<(usize, usize)> = self.items.iter().map(Item::range).collect();
            // Only the spans still in the input list can enter a pool: those matched in step 1
            // (most, where the sides agree) never do.
            let left: Vec<usize> = (self.by_range.iter())
                .copied()
                .filter(|&k| self.remaining[k])
                .collect();
            let mut ix = IntervalIndex::in_order(&ranges, &left);
            if fresh {
                ix.fill(Pool::Fresh, |k| self.remaining[k]);
            }
            ix.fill(Pool::Counted, |_| false);
            self.index = Some(ix);
        }
    }

    /// Takes span `k` out of the input list.
    pub(super) fn take(&mut self, k: usize) {
        self.remaining[k] = false;
        if let Some(ix) = &mut self.index {
            ix.set(Pool::Fresh, k, false);
        }
    }

    /// Appends span `k` to the counted list.
    pub(super) fn count(&mut self, k: usize) {
        self.seq[k] = self.counted.len();
        self.counted.push(k);
        let live = !self.items[k].toks.is_empty();
        if let Some(ix) = &mut self.index {
            ix.set(Pool::Counted, k, live);
        }
    }

    /// Gives span `k` its remaining tokens; a counted span without tokens leaves the index.
    pub(super) fn set_toks(&mut self, k: usize, toks: Toks) {
        let gone = toks.is_empty();
        self.items[k].toks = toks;
        if let (true, Some(ix)) = (gone && self.seq[k] != usize::MAX, &mut self.index) {
            ix.set(Pool::Counted, k, false);
        }
    }

    /// The most similar candidate for `x` in `pool` (reference: `_max_sim`): a span of an
    /// admitted label whose range overlaps but differs from `x`'s (and, if `need_shared`, that
    /// shares a token); most shared tokens, fewest tokens only in `x`, fewest only in the
    /// candidate, shortest range; the first in list order on ties.
    pub(super) fn most_similar(
        &self,
        x: &Item,
        pool: Pool,
        labels: Labels,
        need_shared: bool,
    ) -> Option<usize> {
        let x_len = x.toks.len();
        let mut best: Option<(Similarity, usize)> = None;
        let mut consider = |c: usize| {
            let y = &self.items[c];
            if y.begin > x.end
                || y.end < x.begin
                || y.same_range(x)
                || !labels.admits(x.label, y.label)
            {
                return;
            }
            let shared = x.toks.common(&y.toks);
            if need_shared && shared == 0 {
                return;
            }
            let pos = match pool {
                Pool::Fresh => self.rank[c],
                Pool::Counted => self.seq[c],
            };
            let key = (
                Reverse(shared),
                x_len - shared,
                y.toks.len() - shared,
                y.end - y.begin,
                pos,
            );
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, c));
            }
        };
        match (&self.index, pool) {
            (Some(ix), _) => ix.overlapping(pool, x.begin, x.end, &mut consider),
            (None, Pool::Fresh) => self
                .order
                .iter()
                .filter(|&&c| self.remaining[c])
                .for_each(|&c| consider(c)),
            (None, Pool::Counted) => self.counted.iter().for_each(|&c| consider(c)),
        }
        best.map(|(_, c)| c)
    }
}
