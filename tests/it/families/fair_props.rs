//! Property tests of the fair span algorithm: every span is counted, the number of counted
//! errors lies between max(n, m) and n + m, and without overlapping spans fair and traditional
//! evaluation agree.

use fairscore::matching::fair::{evaluate, fair_prf, traditional_prf, Focus, Span, Tally};
use proptest::prelude::*;

fn span() -> impl Strategy<Value = Span> {
    (0usize..3, 1usize..12, 0usize..4, 0usize..3)
        .prop_map(|(l, b, len, lvl)| Span::new(["A", "B", "C"][l], b, b + len).at_level(lvl))
}

/// Spans that are pairwise identical or disjoint across target and system: slot `k` covers
/// tokens `3k+1 ..= 3k+1+len`; each slot has no span, a target span, a system span or both
/// (same label).
fn disjoint() -> impl Strategy<Value = (Vec<Span>, Vec<Span>)> {
    prop::collection::vec((0usize..4, 0usize..3, 0usize..2), 0..8).prop_map(|slots| {
        let (mut t, mut s) = (Vec::new(), Vec::new());
        for (k, (what, l, len)) in slots.into_iter().enumerate() {
            let sp = Span::new(["A", "B", "C"][l], 3 * k + 1, 3 * k + 1 + len);
            match what {
                1 => t.push(sp),
                2 => s.push(sp),
                3 => {
                    t.push(sp.clone());
                    s.push(sp);
                }
                _ => {}
            }
        }
        (t, s)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn counts_lie_between_max_and_sum(
        target in prop::collection::vec(span(), 0..7),
        system in prop::collection::vec(span(), 0..7),
        focus_system in any::<bool>(),
    ) {
        let focus = if focus_system { Focus::System } else { Focus::Target };
        let o = evaluate(&target, &system, focus);
        let mut t = Tally::new();
        t.add(&target, &system, &o);
        let (n, m) = (target.len() as u64, system.len() as u64);
        let total = t.overall.fair.total();
        prop_assert!(total >= n.max(m), "total {} < max({}, {})", total, n, m);
        prop_assert!(total <= n + m, "total {} > {} + {}", total, n, m);
        prop_assert_eq!(total, o.assignments.len() as u64);
        // Every span is counted at least once.
        for i in 0..target.len() {
            prop_assert!(o.assignments.iter().any(|a| a.target == Some(i)), "target {} uncounted", i);
        }
        for i in 0..system.len() {
            prop_assert!(o.assignments.iter().any(|a| a.system == Some(i)), "system {} uncounted", i);
        }
        // Per-label counts add up to the overall ones.
        let per_label_total: u64 = t.per_label.values().map(|c| c.fair.total()).sum();
        prop_assert_eq!(per_label_total, total);
        // Fair TP equals traditional TP when spans are not duplicated within a side.
        // (Spans equal but for their level count as duplicates too.)
        let same = |a: &Span, b: &Span| a.label == b.label && a.begin == b.begin && a.end == b.end && a.tokens == b.tokens;
        let dup = |v: &Vec<Span>| (0..v.len()).any(|i| (0..i).any(|j| same(&v[i], &v[j])));
        if !dup(&target) && !dup(&system) {
            prop_assert_eq!(t.overall.fair.tp, t.overall.traditional.tp);
        }
    }

    #[test]
    fn focus_does_not_change_overall_counts(
        target in prop::collection::vec(span(), 0..7),
        system in prop::collection::vec(span(), 0..7),
    ) {
        let a = evaluate(&target, &system, Focus::Target);
        let b = evaluate(&target, &system, Focus::System);
        prop_assert_eq!(&a.assignments, &b.assignments);
    }

    #[test]
    fn without_overlaps_fair_equals_traditional((target, system) in disjoint()) {
        let o = evaluate(&target, &system, Focus::Target);
        let mut t = Tally::new();
        t.add(&target, &system, &o);
        let f = t.overall.fair;
        let tr = t.overall.traditional;
        prop_assert_eq!((f.le, f.be(), f.lbe), (0, 0, 0));
        prop_assert_eq!((f.tp, f.fp, f.fn_), (tr.tp, tr.fp, tr.fn_));
        let (a, b) = (fair_prf(&f), traditional_prf(&tr));
        prop_assert!((a.f1 - b.f1).abs() < 1e-12, "fair F1 {} != traditional F1 {}", a.f1, b.f1);
        for c in t.per_label.values() {
            prop_assert!((fair_prf(&c.fair).f1 - traditional_prf(&c.traditional).f1).abs() < 1e-12);
        }
    }
}
