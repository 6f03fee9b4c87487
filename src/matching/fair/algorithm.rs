//! The error-type assignment over one unit ([`evaluate`]): steps 1 to 4 of Ortmann's algorithm,
//! walked like the published reference (`while` loops: no skip after a match).
//!
//! The reference works on Python lists: it removes spans by value (`list.remove`), finds them
//! by value (`list.index`) and scans every list for every span. Here each span keeps its slot;
//! a removed span is marked (a tombstone), and the lists keep their order as ranks. This gives
//! the reference's results exactly: candidates are chosen by value and the first in list order
//! wins ties, so a span and an identical earlier one are never told apart in a way that
//! matters (the earlier one is always found, and removed, first).
//!
//! Candidates are found in one of two ways ([`Search`]): the plain scan walks the whole list,
//! as the reference does, which is fastest for sentence-sized units; the interval index
//! ([`super::index`]) visits only the spans whose range overlaps, so one unit with 100,000
//! spans takes `O(n log n)` instead of `O(n^2)` (issue 13). Both give identical outcomes.

use std::cmp::Ordering;

use super::index::Pool;
use super::overlap::boundary_type;
use super::side::{item, Item, Labeller, Labels, Side};
use super::{Assignment, ErrorType, FairOutcome, Focus, Span};

/// How a unit's candidate spans are searched. All choices give the same [`FairOutcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Search {
    /// The index when the unit has at least [`INDEX_MIN_PAIRS`] target × system pairs, the scan
    /// otherwise.
    #[default]
    Auto,
    /// Compare every span with every span of the other side, as the reference does.
    Scan,
    /// Sort spans to find identical spans and ranges, and find overlapping spans with an
    /// interval index.
    Index,
}

/// [`Search::Auto`] indexes units with at least this many target × system pairs (about 100
/// spans per side). Measured with `FAIR_BENCH_MIN=15 cargo bench --bench fair` (CPU time of
/// 20,000 synthetic spans per side cut into units of a given size): the index costs 10-15%
/// more than the scan at 45 and 64 spans per side, breaks even near 96 (9,700 pairs) and
/// saves 20% at 128, 45% at 512.
pub const INDEX_MIN_PAIRS: usize = 10_000;

/// The error type of a pair in the boundary (same label) or labeling-boundary pass.
fn pair_type(labels: Labels, t: (usize, usize), s: (usize, usize)) -> Option<ErrorType> {
    let kind = boundary_type(t, s)?;
    Some(match labels {
        Labels::Same => kind,
        Labels::Different => ErrorType::LBE,
    })
}

struct Run {
    t: Side,
    s: Side,
    assignments: Vec<Assignment>,
}

impl Run {
    fn push(&mut self, kind: ErrorType, target: Option<usize>, system: Option<usize>) {
        self.assignments.push(Assignment {
            kind,
            target,
            system,
        });
    }

    /// Removes the tokens a matched pair shares from both spans.
    fn share(&mut self, ti: usize, si: usize) {
        let (t, s) = (&self.t.items[ti].toks, &self.s.items[si].toks);
        let (t_rest, s_rest) = (t.minus(s), s.minus(t));
        self.t.set_toks(ti, t_rest);
        self.s.set_toks(si, s_rest);
    }

    /// Traditional evaluation and step 1a on the untouched spans (value equality, as the
    /// reference): whether each span has an identical counterpart, and the TP: each target
    /// with the first remaining identical system span (a multiset match). Returns the
    /// traditional matches of the targets and of the system spans.
    fn identical(&mut self, indexed: bool) -> (Vec<bool>, Vec<bool>) {
        let (t, s) = (&self.t.items, &self.s.items);
        let (mut t_trad, mut s_trad) = (vec![false; t.len()], vec![false; s.len()]);
        let mut pairs = Vec::new();
        if indexed {
            // Both sides sorted by value, then by position: within a group of identical spans
            // the k-th target takes the k-th system span, as the greedy walk does.
            // By (label, begin, end, position): the (begin, end, position) order bucketed
            // by label (stable, labels are few ids); then, within a run of equal (label,
            // begin, end) whose token sets differ (discontinuous spans), by (tokens,
            // position): the order of (value, position).
            let sorted = |items: &[Item], by_range: &[usize]| {
                let labels = items
                    .iter()
                    .map(|x| x.label as usize + 1)
                    .max()
                    .unwrap_or(0);
                let mut start = vec![0usize; labels + 1];
                for x in items {
                    start[x.label as usize + 1] += 1;
                }
                for i in 1..start.len() {
                    start[i] += start[i - 1];
                }
                let mut ids = vec![0usize; items.len()];
                for &k in by_range {
                    let slot = &mut start[items[k].label as usize];
                    ids[*slot] = k;
                    *slot += 1;
                }
                let mut i = 0;
                while i < ids.len() {
                    let head = &items[ids[i]];
                    let run = ids[i..]
                        .iter()
                        .take_while(|&&k| items[k].label == head.label && items[k].same_range(head))
                        .count();
                    let group = &mut ids[i..i + run];
                    if group
                        .windows(2)
                        .any(|w| items[w[0]].toks != items[w[1]].toks)
                    {
                        group.sort_unstable_by(|&a, &b| {
                            items[a].toks.cmp(&items[b].toks).then(a.cmp(&b))
                        });
                    }
                    i += run;
                }
                ids
            };
            let (ts, ss) = (sorted(t, &self.t.by_range), sorted(s, &self.s.by_range));
            let (mut i, mut j) = (0, 0);
            while i < ts.len() && j < ss.len() {
                let key = t[ts[i]].key();
                match key.cmp(&s[ss[j]].key()) {
                    Ordering::Less => i += 1,
                    Ordering::Greater => j += 1,
                    Ordering::Equal => {
                        let i_end = i + ts[i..].iter().take_while(|&&k| t[k].key() == key).count();
                        let j_end = j + ss[j..].iter().take_while(|&&k| s[k].key() == key).count();
                        ts[i..i_end].iter().for_each(|&k| t_trad[k] = true);
                        ss[j..j_end].iter().for_each(|&k| s_trad[k] = true);
                        pairs.extend(
                            ts[i..i_end]
                                .iter()
                                .copied()
                                .zip(ss[j..j_end].iter().copied()),
                        );
                        (i, j) = (i_end, j_end);
                    }
                }
            }
            pairs.sort_unstable();
        } else {
            for (ti, x) in t.iter().enumerate() {
                t_trad[ti] = s.iter().any(|y| x.same_value(y));
            }
            for (si, y) in s.iter().enumerate() {
                s_trad[si] = t.iter().any(|x| x.same_value(y));
            }
            let mut used = vec![false; s.len()];
            for (ti, x) in t.iter().enumerate().filter(|&(ti, _)| t_trad[ti]) {
                let found = (0..s.len()).find(|&si| !used[si] && s[si].same_value(x));
                if let Some(si) = found {
                    used[si] = true;
                    pairs.push((ti, si));
                }
            }
        }
        for (ti, si) in pairs {
            self.t.remaining[ti] = false;
            self.s.remaining[si] = false;
            self.push(ErrorType::TP, Some(ti), Some(si));
        }
        (t_trad, s_trad)
    }

    /// Step 1b: a remaining target and the first remaining system span with the same range and
    /// another label are an LE.
    fn labeling_errors(&mut self, indexed: bool) {
        let (t, s) = (&self.t.items, &self.s.items);
        let (t_left, s_left) = (&self.t.remaining, &mut self.s.remaining);
        let mut pairs = Vec::new();
        if indexed {
            // Remaining system spans by range, then position.
            let by_range: Vec<usize> = (self.s.by_range.iter())
                .copied()
                .filter(|&si| s_left[si])
                .collect();
            for (ti, x) in t.iter().enumerate().filter(|&(ti, _)| t_left[ti]) {
                let from = by_range.partition_point(|&si| s[si].range() < x.range());
                let found = by_range[from..]
                    .iter()
                    .take_while(|&&si| s[si].same_range(x))
                    .find(|&&si| s_left[si] && s[si].label != x.label);
                if let Some(&si) = found {
                    s_left[si] = false;
                    pairs.push((ti, si));
                }
            }
        } else {
            for (ti, x) in t.iter().enumerate().filter(|&(ti, _)| t_left[ti]) {
                let found = (0..s.len())
                    .find(|&si| s_left[si] && s[si].same_range(x) && s[si].label != x.label);
                if let Some(si) = found {
                    s_left[si] = false;
                    pairs.push((ti, si));
                }
            }
        }
        for (ti, si) in pairs {
            self.t.remaining[ti] = false;
            self.s.remaining[si] = false;
            self.push(ErrorType::LE, Some(ti), Some(si));
        }
    }

    /// Pass (a): remaining targets against remaining system spans.
    fn pass_fresh(&mut self, labels: Labels) {
        for k in 0..self.t.order.len() {
            let ti = self.t.order[k];
            if !self.t.remaining[ti] {
                continue;
            }
            let x = &self.t.items[ti];
            let Some(si) = self.s.most_similar(x, Pool::Fresh, labels, false) else {
                continue;
            };
            let Some(kind) = pair_type(labels, x.range(), self.s.items[si].range()) else {
                continue;
            };
            self.push(kind, Some(ti), Some(si));
            self.s.take(si);
            self.t.take(ti);
            self.share(ti, si);
            self.s.count(si);
            self.t.count(ti);
        }
    }

    /// Pass (b): remaining targets against matched system spans that still share tokens.
    fn pass_targets_vs_counted(&mut self, labels: Labels) {
        for k in 0..self.t.order.len() {
            let ti = self.t.order[k];
            if !self.t.remaining[ti] {
                continue;
            }
            let x = &self.t.items[ti];
            let Some(si) = self.s.most_similar(x, Pool::Counted, labels, true) else {
                continue;
            };
            let Some(kind) = pair_type(labels, x.range(), self.s.items[si].range()) else {
                continue;
            };
            self.push(kind, Some(ti), Some(si));
            self.t.take(ti);
            self.share(ti, si);
            self.t.count(ti);
        }
    }

    /// Pass (c): remaining system spans against matched targets that still share tokens.
    fn pass_system_vs_counted(&mut self, labels: Labels) {
        for k in 0..self.s.order.len() {
            let si = self.s.order[k];
            if !self.s.remaining[si] {
                continue;
            }
            let y = &self.s.items[si];
            let Some(ti) = self.t.most_similar(y, Pool::Counted, labels, true) else {
                continue;
            };
            let Some(kind) = pair_type(labels, self.t.items[ti].range(), y.range()) else {
                continue;
            };
            self.push(kind, Some(ti), Some(si));
            self.s.take(si);
            self.share(ti, si);
            self.s.count(si);
        }
    }
}

/// Assigns error types to the target and system spans of one unit (sentence or document).
///
/// Spans are compared within the unit only; `focus` decides which label LE and LBE are counted
/// for in [`super::Tally`]. The input order matters on ties, as in the reference implementation.
/// Work and memory grow with the number of spans, never with their token offsets.
pub fn evaluate(target: &[Span], system: &[Span], focus: Focus) -> FairOutcome {
    evaluate_with(target, system, focus, Search::Auto)
}

/// [`evaluate`] with a chosen candidate search (for tests and benchmarks; the outcome does not
/// depend on it).
pub fn evaluate_with(
    target: &[Span],
    system: &[Span],
    focus: Focus,
    search: Search,
) -> FairOutcome {
    let mut labeller = Labeller::default();
    let t = labeller.items(target);
    let s = labeller.items(system);
    let (assignments, target_traditional_tp, system_traditional_tp) = assign(t, s, search);
    let target_types = first_types(target, &assignments, |a| a.target, ErrorType::FN);
    let system_types = first_types(system, &assignments, |a| a.system, ErrorType::FP);
    FairOutcome {
        focus,
        assignments,
        target_types,
        system_types,
        target_traditional_tp,
        system_traditional_tp,
    }
}

/// The assignments of [`evaluate`] for spans whose labels are ids already (a caller that
/// evaluates many units with one label list: no label is compared or interned again; each
/// span's own `label` is not read). The same assignments as [`evaluate`] gives the spans with
/// those labels: only the equality of labels matters, not their ids.
pub fn assignments_by_id(target: &[(u32, Span)], system: &[(u32, Span)]) -> Vec<Assignment> {
    let items =
        |spans: &[(u32, Span)]| -> Vec<Item> { spans.iter().map(|(l, s)| item(*l, s)).collect() };
    assign(items(target), items(system), Search::Auto).0
}

/// Steps 1 to 4 over the working items of both sides: the assignments and the traditional
/// matches of the targets and of the system spans.
fn assign(t: Vec<Item>, s: Vec<Item>, search: Search) -> (Vec<Assignment>, Vec<bool>, Vec<bool>) {
    let indexed = match search {
        Search::Auto => t.len().saturating_mul(s.len()) >= INDEX_MIN_PAIRS,
        Search::Scan => false,
        Search::Index => true,
    };
    let mut run = Run {
        t: Side::new(t),
        s: Side::new(s),
        assignments: Vec::new(),
    };

    if indexed {
        run.t.sort_by_range();
        run.s.sort_by_range();
    }

    // Traditional evaluation and step 1: TP, then LE.
    let (target_traditional_tp, system_traditional_tp) = run.identical(indexed);
    run.labeling_errors(indexed);

    // Steps 2 and 3 work on the lists sorted by span length (stable). Only the system side's
    // input list is searched (pass a); both sides' counted lists are (passes b and c).
    run.t.prepare(indexed, false);
    run.s.prepare(indexed, true);

    // Step 2: boundary errors; step 3: labeling-boundary errors.
    for labels in [Labels::Same, Labels::Different] {
        run.pass_fresh(labels);
        run.pass_targets_vs_counted(labels);
        run.pass_system_vs_counted(labels);
    }

    // Step 4: leftovers.
    for &ti in &run.t.order {
        if run.t.remaining[ti] {
            run.assignments.push(Assignment {
                kind: ErrorType::FN,
                target: Some(ti),
                system: None,
            });
        }
    }
    for &si in &run.s.order {
        if run.s.remaining[si] {
            run.assignments.push(Assignment {
                kind: ErrorType::FP,
                target: None,
                system: Some(si),
            });
        }
    }
    (
        run.assignments,
        target_traditional_tp,
        system_traditional_tp,
    )
}

/// The first type each span was counted with. Every span is counted (a span leaves its list
/// only with an assignment naming it, and what stays is FN or FP); should one not be, it would
/// take the type of an identical counted span, or `fallback`.
fn first_types(
    spans: &[Span],
    assignments: &[Assignment],
    side: impl Fn(&Assignment) -> Option<usize>,
    fallback: ErrorType,
) -> Vec<ErrorType> {
    let mut types: Vec<Option<ErrorType>> = vec![None; spans.len()];
    for a in assignments {
        if let Some(i) = side(a) {
            if let Some(slot) = types.get_mut(i) {
                slot.get_or_insert(a.kind);
            }
        }
    }
    (0..spans.len())
        .map(|i| {
            types[i].unwrap_or_else(|| {
                (0..spans.len())
                    .find(|&j| types[j].is_some() && spans[j] == spans[i])
                    .and_then(|j| types[j])
                    .unwrap_or(fallback)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(o: &FairOutcome) -> Vec<ErrorType> {
        let mut k: Vec<ErrorType> = o.assignments.iter().map(|a| a.kind).collect();
        k.sort();
        k
    }

    #[test]
    fn one_system_span_over_two_targets() {
        // Target: [PER 1-2] [PER 4-5]; system: [PER 1-5] → two boundary errors, no FP.
        let t = vec![Span::new("PER", 1, 2), Span::new("PER", 4, 5)];
        let s = vec![Span::new("PER", 1, 5)];
        let o = evaluate(&t, &s, Focus::Target);
        assert_eq!(kinds(&o), vec![ErrorType::BEL, ErrorType::BEL]);
        assert_eq!(o.system_partners(0), vec![0, 1]);
    }

    #[test]
    fn passes_do_not_skip_the_span_after_a_match() {
        // Both targets find their boundary error in pass (a). The reference's old `for` loops
        // skipped the target after a match (one BEL, one FN and one FP); its `while` loops, and
        // the published evaluation files, do not.
        let t = vec![Span::new("A", 1, 2), Span::new("A", 4, 5)];
        let s = vec![Span::new("A", 1, 3), Span::new("A", 4, 6)];
        for search in [Search::Scan, Search::Index] {
            let o = evaluate_with(&t, &s, Focus::Target, search);
            assert_eq!(
                kinds(&o),
                vec![ErrorType::BEL, ErrorType::BEL],
                "{search:?}"
            );
            assert_eq!(
                o.partner_lists(),
                (vec![vec![0], vec![1]], vec![vec![0], vec![1]])
            );
        }
    }

    #[test]
    fn discontinuous_token_sets_make_traditional_mismatch() {
        let t = vec![Span::new("X", 1, 3).with_tokens([1, 3])];
        let s = vec![Span::new("X", 1, 3)];
        let o = evaluate(&t, &s, Focus::Target);
        assert_eq!(o.target_traditional_tp, vec![false]);
        // Same range, same label, different token set: neither TP nor LE nor a boundary error.
        assert_eq!(kinds(&o), vec![ErrorType::FP, ErrorType::FN]);
    }
}
