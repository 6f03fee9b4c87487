//! The fair algorithm on ranges and with the interval index (issues 11 and 13): the indexed
//! search and the plain scan agree with each other and with a transcription of the reference's
//! list operations (`common/fair_oracle.rs`, the algorithm before this change) on random
//! inputs; huge offsets cost nothing; a large synthetic pair gives the same counts as one unit
//! as in sentence units.

#[path = "../../common/fair_oracle.rs"]
mod oracle;
#[path = "../../common/fair_synth.rs"]
mod synth;

use fairscore::matching::fair::{
    evaluate, evaluate_with, ErrorType, FairOutcome, Focus, Search, Span, Tally,
};
use proptest::prelude::*;
use proptest::sample::Index;

const LABELS: [&str; 3] = ["A", "B", "C"];

/// A span over tokens 1..=14: 0 to 4 tokens wide, sometimes discontinuous.
fn span() -> impl Strategy<Value = Span> {
    (
        0usize..3,
        1usize..12,
        0usize..5,
        0usize..2,
        prop::option::weighted(0.2, prop::collection::vec(0usize..5, 1..4)),
    )
        .prop_map(|(l, b, w, level, holes)| {
            let sp = Span::new(LABELS[l], b, b + w).at_level(level);
            match holes {
                // Drop some inner tokens (with_tokens keeps the range and normalises).
                Some(h) if w >= 2 => {
                    let keep: Vec<usize> = (b..=b + w).filter(|t| !h.contains(&(t - b))).collect();
                    sp.with_tokens(keep)
                }
                _ => sp,
            }
        })
}

/// One side of a unit built from a shared pool: copies of pool spans (so target and system
/// share spans and each side has duplicates), near misses of pool spans (one boundary moved,
/// or the label changed: LE, BE, LBE material) and fresh spans.
fn side(pool: Vec<Span>, picks: Vec<(Index, u8, Span)>) -> Vec<Span> {
    picks
        .into_iter()
        .map(|(i, mode, fresh)| {
            let p = &pool[i.index(pool.len())];
            match mode % 8 {
                0..=2 => p.clone(),
                3 => Span::new(p.label.clone(), p.begin + 1, p.end + 1),
                4 => Span::new(p.label.clone(), p.begin, p.end + 2),
                5 => Span::new(LABELS[(mode as usize / 8) % 3], p.begin, p.end),
                6 => Span::new(
                    LABELS[(mode as usize / 8) % 3],
                    p.begin.saturating_sub(1).max(1),
                    p.end,
                ),
                _ => fresh,
            }
        })
        .collect()
}

fn unit(max: usize) -> impl Strategy<Value = (Vec<Span>, Vec<Span>)> {
    (
        prop::collection::vec(span(), 1..8),
        prop::collection::vec((any::<Index>(), any::<u8>(), span()), 0..max),
        prop::collection::vec((any::<Index>(), any::<u8>(), span()), 0..max),
    )
        .prop_map(|(pool, t, s)| (side(pool.clone(), t), side(pool, s)))
}

/// The same spans moved by `offset` tokens.
fn shifted(spans: &[Span], offset: usize) -> Vec<Span> {
    spans
        .iter()
        .map(|s| {
            let m = Span::new(s.label.clone(), s.begin + offset, s.end + offset).at_level(s.level);
            match &s.tokens {
                Some(t) => m.with_tokens(t.iter().map(|k| k + offset)),
                None => m,
            }
        })
        .collect()
}

fn tally(t: &[Span], s: &[Span], o: &FairOutcome) -> Tally {
    let mut tally = Tally::new();
    tally.add(t, s, o);
    tally
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Scan, index and the reference transcription give the same outcome: the same errors in
    /// the same order with the same partners, the same first type of every span and the same
    /// traditional matches; so also the same tallies. This covers the reference's `while`-loop
    /// walk (a pass stays at the position of a matched span, so the span after it is tried
    /// too), its value-based `list.remove` / `list.index` on duplicate spans, the stable sort
    /// by length, the tie-breaking of `_max_sim` and the token bookkeeping of passes b and c.
    #[test]
    fn index_scan_and_reference_agree((target, system) in unit(14), focus_system in any::<bool>()) {
        let focus = if focus_system { Focus::System } else { Focus::Target };
        let want = oracle::evaluate(&target, &system, focus);
        let scan = evaluate_with(&target, &system, focus, Search::Scan);
        let index = evaluate_with(&target, &system, focus, Search::Index);
        prop_assert_eq!(&scan, &want);
        prop_assert_eq!(&index, &want);
        prop_assert_eq!(&evaluate(&target, &system, focus), &want);
        prop_assert_eq!(tally(&target, &system, &index), tally(&target, &system, &want));
        let (tp, sp) = index.partner_lists();
        for (i, p) in tp.iter().enumerate() {
            prop_assert_eq!(p, &want.target_partners(i));
        }
        for (i, p) in sp.iter().enumerate() {
            prop_assert_eq!(p, &want.system_partners(i));
        }
    }

    /// Larger units (more overlaps, longer chains through passes b and c).
    #[test]
    fn index_and_scan_agree_on_larger_units((target, system) in unit(48)) {
        let want = oracle::evaluate(&target, &system, Focus::Target);
        prop_assert_eq!(&evaluate_with(&target, &system, Focus::Target, Search::Scan), &want);
        prop_assert_eq!(&evaluate_with(&target, &system, Focus::Target, Search::Index), &want);
    }

    /// Moving every span by a huge offset changes nothing, and costs nothing.
    #[test]
    fn huge_offsets_give_the_same_outcome((target, system) in unit(14)) {
        let want = oracle::evaluate(&target, &system, Focus::Target);
        for offset in [3_000_000_000_000, usize::MAX / 2, usize::MAX - 64] {
            let (t, s) = (shifted(&target, offset), shifted(&system, offset));
            prop_assert_eq!(&evaluate_with(&t, &s, Focus::Target, Search::Scan), &want);
            prop_assert_eq!(&evaluate_with(&t, &s, Focus::Target, Search::Index), &want);
        }
    }
}

fn types(o: &FairOutcome) -> (Vec<&str>, Vec<&str>) {
    let names = |v: &[ErrorType]| v.iter().map(|k| k.as_str()).collect::<Vec<_>>();
    (names(&o.target_types), names(&o.system_types))
}

/// Issue 11: offsets near 3e12 and usize::MAX / 2 used to be expanded into token vectors.
#[test]
fn huge_offsets_are_ranges() {
    const T: usize = 3_000_000_000_000;
    const M: usize = usize::MAX / 2;
    let target = vec![
        Span::new("PER", 1, T),                                     // TP
        Span::new("LOC", M, M + 10),                                // BEO with system 2
        Span::new("ORG", M + 100, M + 200),                         // LE
        Span::new("PER", M + 1000, usize::MAX - 1),                 // LBE with system 4
        Span::new("LOC", 2 * T, 3 * T).with_tokens([2 * T, 3 * T]), // two runs: BEL
        Span::new("OTH", usize::MAX, usize::MAX),                   // FN
    ];
    let system = vec![
        Span::new("PER", 1, T),
        Span::new("PER", M + 100, M + 200),
        Span::new("LOC", M + 5, M + 20),
        Span::new("LOC", 2 * T - 1, 3 * T),
        Span::new("ORG", M + 999, usize::MAX - 1),
        Span::new("MISC", 0, 0), // FP
    ];
    let started = std::time::Instant::now();
    for search in [Search::Scan, Search::Index] {
        let o = evaluate_with(&target, &system, Focus::Target, search);
        assert_eq!(
            types(&o),
            (
                vec!["TP", "BEO", "LE", "LBE", "BEL", "FN"],
                vec!["TP", "LE", "BEO", "BEL", "LBE", "FP"]
            ),
            "{search:?}"
        );
    }
    // One span over almost all of usize against many short ones: still arithmetic.
    let target = vec![Span::new("X", 0, usize::MAX)];
    let system: Vec<Span> = (0..1000)
        .map(|k| Span::new("X", k * T, k * T + 1))
        .collect();
    let o = evaluate(&target, &system, Focus::Target);
    assert_eq!(o.assignments.len(), 1000);
    assert!(o.system_types.iter().all(|&k| k == ErrorType::BES));
    assert!(
        started.elapsed().as_secs() < 5,
        "took {:?}",
        started.elapsed()
    );
}

/// Issue 11 through the command line: a span file with large offsets (up to the reader's
/// limit of 2^32) is read and scored at once, work bounded by the number of spans; an offset
/// beyond the limit is an input error naming file and line.
#[test]
fn huge_offsets_in_span_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fair_index_huge");
    std::fs::create_dir_all(&dir).unwrap();
    let (t, s) = (dir.join("t.spans"), dir.join("s.spans"));
    let m = (1usize << 32) - 10;
    std::fs::write(
        &t,
        format!("PER\t1\t3000000000\nLOC\t{m}\t{}\n\nORG\t5\t9\n", m + 3),
    )
    .unwrap();
    std::fs::write(
        &s,
        format!("PER\t2\t3000000000\nLOC\t{m}\t{}\n\nORG\t5\t9\n", m + 3),
    )
    .unwrap();
    let json = dir.join("out.json");
    let run = |t: &std::path::Path, s: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .args(["fair", "--target", t.to_str().unwrap()])
            .args(["--system", s.to_str().unwrap()])
            .args([
                "--json",
                json.to_str().unwrap(),
                "--errors",
                dir.join("e.tsv").to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    let started = std::time::Instant::now();
    let out = run(&t, &s);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        started.elapsed().as_secs() < 5,
        "took {:?}",
        started.elapsed()
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let fair = |col: &str| crate::common::json_cell(&v, "fair", &["ALL"], col);
    assert_eq!((fair("TP"), fair("BES")), (Some(2.0), Some(1.0)), "{v}");
    let beyond = dir.join("beyond.spans");
    std::fs::write(&beyond, "ORG\t5\t9\nPER\t1\t3000000000000\n").unwrap();
    let out = run(&beyond, &s);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("beyond.spans:2:") && err.contains("beyond the limit"),
        "{err}"
    );
}

fn sum_tally(target: &[Vec<Span>], system: &[Vec<Span>], search: Search) -> Tally {
    let mut tally = Tally::new();
    for (t, s) in target.iter().zip(system) {
        let o = evaluate_with(t, s, Focus::Target, search);
        tally.add(t, s, &o);
    }
    tally
}

/// The synthetic pair: every sentence as the reference transcription counts it, and the whole
/// pair as one unit (index) exactly as in sentence units.
#[test]
fn synthetic_pair_one_unit_equals_sentence_units() {
    let p = synth::pair(1, 7);
    let (n, m) = p.spans();
    assert!(n > 20_000 && m > 20_000, "{n} {m}");
    for (t, s) in p.target.iter().zip(&p.system) {
        let want = oracle::evaluate(t, s, Focus::Target);
        assert_eq!(evaluate_with(t, s, Focus::Target, Search::Scan), want);
        assert_eq!(evaluate_with(t, s, Focus::Target, Search::Index), want);
    }
    let units = sum_tally(&p.target, &p.system, Search::Auto);
    let (t, s) = (
        synth::one_unit(&p.target, &p.lens),
        synth::one_unit(&p.system, &p.lens),
    );
    let o = evaluate(&t, &s, Focus::Target);
    let mut one = Tally::new();
    one.add(&t, &s, &o);
    one.units = units.units;
    assert_eq!(one, units);
    // Every error type occurs.
    let f = units.overall.fair;
    for (name, n) in [
        ("TP", f.tp),
        ("FP", f.fp),
        ("FN", f.fn_),
        ("LE", f.le),
        ("BES", f.bes),
    ]
    .into_iter()
    .chain([("BEL", f.bel), ("BEO", f.beo), ("LBE", f.lbe)])
    {
        assert!(n > 0, "no {name}");
    }
    // The first types of the one unit are the sentences' first types, in order.
    let mut t_types = Vec::new();
    for (t, s) in p.target.iter().zip(&p.system) {
        t_types.extend(evaluate(t, s, Focus::Target).target_types);
    }
    assert_eq!(o.target_types, t_types);
}

/// Writes the synthetic pair as span files (sentence units and one unit) into
/// `$FAIR_SYNTH_DIR` for timing the command line: `FAIR_SYNTH_DIR=/tmp/x FAIR_SYNTH_COPIES=4
/// cargo test --release --test fair_index -- --ignored write_synthetic_span_files`.
#[test]
#[ignore]
fn write_synthetic_span_files() {
    let Some(dir) = std::env::var_os("FAIR_SYNTH_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let copies = std::env::var("FAIR_SYNTH_COPIES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(4);
    let p = synth::pair(copies, 13);
    println!(
        "spans (target, system): {:?}, units {}",
        p.spans(),
        p.target.len()
    );
    synth::write_span_file(&dir.join("target_units.spans"), &p.target).unwrap();
    synth::write_span_file(&dir.join("system_units.spans"), &p.system).unwrap();
    let t = synth::one_unit(&p.target, &p.lens);
    let s = synth::one_unit(&p.system, &p.lens);
    synth::write_span_file(&dir.join("target_one.spans"), &[t]).unwrap();
    synth::write_span_file(&dir.join("system_one.spans"), &[s]).unwrap();
}
