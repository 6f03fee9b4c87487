//! Property tests for the counting invariants of the official HIPE matcher
//! (`fairscore::matching::span_count::count`), on entities and links read from random tag and link
//! columns through the real reader and span extraction.

use fairscore::corpus::{Corpus, ReadOptions};
use fairscore::matching::span_count::{count, Counts, Scratch};
use fairscore::matching::SpanRegime::{
    EntType as ENT_TYPE, Exact as EXACT, Partial as PARTIAL, Strict as STRICT,
};
use fairscore::spans::{entities, links_consecutive, links_ne_bounded, Spans};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::Path;

const TAGS: [&str; 9] = [
    "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "S-PER",
];
const LINKS: [&str; 7] = ["_", "Q1", "Q2", "NIL", "Q1|Q2", "Q2|Q3|Q1", "Q3"];

/// A file with tokens `t0, t1, …` (text differs from the other file where `noise` says so).
fn file(tags: &[usize], links: &[usize], noise: &[bool]) -> Corpus {
    let mut text = String::from("TOKEN\tNE\tNEL\n");
    for (i, (&t, &l)) in tags.iter().zip(links).enumerate() {
        let tok = if noise.get(i).copied().unwrap_or(false) {
            format!("x{i}")
        } else {
            format!("t{i}")
        };
        text.push_str(&format!("{tok}\t{}\t{}\n", TAGS[t], LINKS[l]));
    }
    fairscore::formats::hipe::parse(Path::new("p.tsv"), text.as_bytes(), &ReadOptions::default())
        .expect("generated file parses")
}

fn evaluated(sp: &Spans, tags: &BTreeSet<String>, any_alt: bool) -> u64 {
    sp.spans
        .iter()
        .filter(|s| {
            if any_alt {
                sp.alts(s).iter().any(|a| tags.contains(*a))
            } else {
                tags.contains(sp.label(s))
            }
        })
        .count() as u64
}

/// Gold tags and links, run tags and links, and which run tokens differ in text.
type Columns = (Vec<usize>, Vec<usize>, Vec<usize>, Vec<usize>, Vec<bool>);

fn seqs(max: usize) -> impl Strategy<Value = Columns> {
    (1..max).prop_flat_map(|n| {
        (
            prop::collection::vec(0..TAGS.len(), n),
            prop::collection::vec(0..LINKS.len(), n),
            prop::collection::vec(0..TAGS.len(), n),
            prop::collection::vec(0..LINKS.len(), n),
            prop::collection::vec(prop::bool::weighted(0.1), n),
        )
    })
}

fn tagset(labels: &[&str]) -> BTreeSet<String> {
    labels.iter().map(|s| s.to_string()).collect()
}

/// The invariants every count must satisfy.
fn check_invariants(
    g: &Spans,
    p: &Spans,
    tags: &BTreeSet<String>,
    same_text: impl Fn(u32, u32) -> bool,
) -> Result<(), TestCaseError> {
    let mut scratch = Scratch::default();
    let u = count(g, p, tags, same_text, &mut scratch);
    let n_gold = evaluated(g, tags, false);
    let n_pred = evaluated(p, tags, true);
    for (r, c) in u.all.iter() {
        // Every evaluated run span is counted exactly once.
        prop_assert_eq!(c.actual(), n_pred, "regime {:?}: actual", r);
        prop_assert_eq!(
            c.correct + c.incorrect + c.partial + c.spurious,
            n_pred,
            "regime {:?}",
            r
        );
        // Every evaluated gold span is counted at least once (matched or missed).
        prop_assert!(
            c.possible() >= n_gold,
            "regime {r:?}: possible {} < {n_gold}",
            c.possible()
        );
        prop_assert_eq!(c.possible(), c.correct + c.incorrect + c.partial + c.missed);
        prop_assert!(c.missed <= n_gold);
    }
    // Missed and spurious do not depend on the regime; partial only in the partial regime.
    for r in [ENT_TYPE, PARTIAL, EXACT] {
        prop_assert_eq!(u.all[r].missed, u.all[STRICT].missed);
        prop_assert_eq!(u.all[r].spurious, u.all[STRICT].spurious);
        prop_assert!(u.all[STRICT].correct <= u.all[r].correct);
    }
    for r in [STRICT, ENT_TYPE, EXACT] {
        prop_assert_eq!(u.all[r].partial, 0);
    }
    // Per label: matched and missed counts add up to ALL; spurious at least.
    for r in fairscore::matching::SpanRegime::ALL {
        let mut sum = Counts::default();
        for rc in u.per_label.values() {
            sum.add(&rc[r]);
        }
        prop_assert_eq!(sum.correct, u.all[r].correct);
        prop_assert_eq!(sum.incorrect, u.all[r].incorrect);
        prop_assert_eq!(sum.partial, u.all[r].partial);
        prop_assert_eq!(sum.missed, u.all[r].missed);
        prop_assert!(sum.spurious >= u.all[r].spurious);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn nerc_counts_are_consistent((gt, gl, pt, pl, noise) in seqs(40), with_org in any::<bool>()) {
        let gold = file(&gt, &gl, &[]);
        let pred = file(&pt, &pl, &noise);
        let seq: Vec<usize> = (0..gold.n_tokens()).collect();
        let (mut g, mut p) = (Spans::default(), Spans::default());
        entities(&gold, 1, &seq, &mut g);
        entities(&pred, 1, &seq, &mut p);
        let tags = if with_org { tagset(&["PER", "LOC", "ORG"]) } else { tagset(&["PER", "LOC"]) };
        check_invariants(&g, &p, &tags, |s, e| {
            fairscore::spans::same_text(&gold, &seq, &pred, &seq, s, e)
        })?;
    }

    #[test]
    fn nel_counts_are_consistent((gt, gl, pt, pl, noise) in seqs(40), n_best in 1usize..4, bounded in any::<bool>()) {
        let gold = file(&gt, &gl, &[]);
        let pred = file(&pt, &pl, &noise);
        let seq: Vec<usize> = (0..gold.n_tokens()).collect();
        let (mut g, mut p) = (Spans::default(), Spans::default());
        if bounded {
            links_ne_bounded(&gold, 2, 1, &seq, 1, true, &mut g);
            links_ne_bounded(&pred, 2, 1, &seq, n_best, false, &mut p);
        } else {
            links_consecutive(&gold, 2, &seq, 1, &mut g);
            links_consecutive(&pred, 2, &seq, n_best, &mut p);
        }
        let tags = tagset(&["Q1", "Q2", "Q3", "NIL"]);
        check_invariants(&g, &p, &tags, |s, e| {
            fairscore::spans::same_text(&gold, &seq, &pred, &seq, s, e)
        })?;
    }

    #[test]
    fn a_run_equal_to_the_gold_is_all_correct((gt, gl, _pt, _pl, _n) in seqs(40)) {
        let gold = file(&gt, &gl, &[]);
        let seq: Vec<usize> = (0..gold.n_tokens()).collect();
        let (mut g, mut p) = (Spans::default(), Spans::default());
        entities(&gold, 1, &seq, &mut g);
        entities(&gold, 1, &seq, &mut p);
        let tags = tagset(&["PER", "LOC", "ORG"]);
        let mut scratch = Scratch::default();
        let u = count(&g, &p, &tags, |_, _| true, &mut scratch);
        let n = evaluated(&g, &tags, false);
        for (_, c) in u.all.iter() {
            prop_assert_eq!(*c, Counts { correct: n, ..Counts::default() });
        }
    }
}
