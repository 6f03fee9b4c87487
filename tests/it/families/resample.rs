//! Known answers and properties of the resampling statistics (`metrics::resample`): a run
//! against itself, against an empty run, intervals around the estimate that narrow as
//! documents are duplicated, an exhaustive randomization test, and determinism across seeds
//! and thread counts.

use fairscore::metrics::micro;
use fairscore::metrics::ByMeasure;
use fairscore::metrics::DocCounts;
use fairscore::metrics::Interval;
use fairscore::metrics::Measure;
use fairscore::metrics::PairedTest;
use fairscore::metrics::Resampler;
use fairscore::metrics::Xoshiro256;
use fairscore::Error;
use proptest::prelude::*;

/// `samples` resamples from `seed` at confidence level `confidence`.
fn rs(samples: usize, seed: u64, confidence: f64) -> Resampler {
    Resampler {
        confidence,
        ..Resampler::new(samples, seed)
    }
}

/// `n` documents of a plausible run: 0–14 gold entities, most of them found.
fn run(n: usize, seed: u64) -> Vec<DocCounts> {
    let mut rng = Xoshiro256::from_seed(seed);
    (0..n)
        .map(|_| {
            let gold = rng.below(15) as f64;
            let tp = (gold - rng.below(4) as f64).max(0.0);
            DocCounts::new(tp, rng.below(4) as f64, gold - tp)
        })
        .collect()
}

/// The gold of `docs` with nothing predicted: every entity missed.
fn empty_run(docs: &[DocCounts]) -> Vec<DocCounts> {
    docs.iter()
        .map(|d| DocCounts::new(0.0, 0.0, d.tp + d.fn_))
        .collect()
}

fn bits<T: Copy>(v: &ByMeasure<T>, f: impl Fn(T) -> Vec<f64>) -> Vec<u64> {
    v.iter()
        .flat_map(|(_, x)| f(*x))
        .map(f64::to_bits)
        .collect()
}

fn ci_bits(v: &ByMeasure<Interval>) -> Vec<u64> {
    bits(v, |i| vec![i.lo, i.hi])
}

#[test]
fn a_run_against_itself_gives_p_1_and_a_zero_width_difference_interval() {
    let a = run(40, 1);
    let t = rs(10_000, 7, 0.95)
        .micro_paired(PairedTest::Permutation, &a, &a)
        .unwrap();
    let b = rs(10_000, 7, 0.95)
        .micro_paired(PairedTest::Bootstrap, &a, &a)
        .unwrap();
    for m in Measure::ALL {
        let (t, b) = (t.get(m), b.get(m));
        assert_eq!(t.diff, 0.0);
        assert_eq!(t.p, 1.0, "{m:?}");
        assert_eq!(t.a, t.b);
        assert_eq!(b.diff, 0.0);
        assert_eq!(b.p, 1.0, "{m:?}");
        assert_eq!(b.ci, Interval { lo: 0.0, hi: 0.0 });
    }
}

#[test]
fn a_run_against_an_empty_run_is_significant() {
    let a = run(40, 2);
    let e = empty_run(&a);
    let t = rs(10_000, 3, 0.95)
        .micro_paired(PairedTest::Permutation, &a, &e)
        .unwrap();
    let b = rs(10_000, 3, 0.95)
        .micro_paired(PairedTest::Bootstrap, &a, &e)
        .unwrap();
    for m in Measure::ALL {
        assert!(t.get(m).p < 0.001, "{m:?} {:?}", t.get(m));
        assert!(b.get(m).p < 0.001, "{m:?} {:?}", b.get(m));
        assert!(t.get(m).diff > 0.0);
        assert!(b.get(m).ci.lo > 0.0, "{m:?} {:?}", b.get(m));
        assert_eq!(t.get(m).b, 0.0);
    }
    // The smallest p-value reachable with 10,000 resamples.
    assert_eq!(t.f1.p, 1.0 / 10_001.0);
}

#[test]
fn intervals_narrow_as_documents_are_duplicated() {
    let one = run(30, 4);
    let times = |k: usize| -> Vec<DocCounts> { (0..k).flat_map(|_| one.clone()).collect() };
    let widths: Vec<ByMeasure<f64>> = [1, 2, 4]
        .iter()
        .map(|&k| {
            let ci = rs(10_000, 11, 0.95).micro_ci(&times(k)).unwrap();
            ByMeasure {
                p: ci.p.width(),
                r: ci.r.width(),
                f1: ci.f1.width(),
            }
        })
        .collect();
    for m in Measure::ALL {
        let w: Vec<f64> = widths.iter().map(|w| *w.get(m)).collect();
        // The width of a mean-like statistic shrinks as 1/√k: 0.71 per doubling.
        assert!(w[0] > 0.0);
        assert!(w[1] < 0.8 * w[0] && w[1] > 0.6 * w[0], "{m:?} {w:?}");
        assert!(w[2] < 0.8 * w[1] && w[2] > 0.6 * w[1], "{m:?} {w:?}");
    }
    // The paired difference interval narrows too.
    let other = run(30, 5);
    let diff_width = |k: usize| {
        let (a, b) = (
            times(k),
            (0..k).flat_map(|_| other.clone()).collect::<Vec<_>>(),
        );
        rs(10_000, 12, 0.95)
            .micro_paired(PairedTest::Bootstrap, &a, &b)
            .unwrap()
            .f1
            .ci
            .width()
    };
    let (w1, w2, w4) = (diff_width(1), diff_width(2), diff_width(4));
    assert!(w2 < 0.8 * w1 && w4 < 0.8 * w2, "{w1} {w2} {w4}");
}

#[test]
fn same_bytes_for_any_thread_count() {
    let (a, b) = (run(50, 6), run(50, 7));
    let compute = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let ci = rs(10_000, 42, 0.95).micro_ci(&a).unwrap();
            let t = rs(10_000, 42, 0.95)
                .micro_paired(PairedTest::Permutation, &a, &b)
                .unwrap();
            let pb = rs(10_000, 42, 0.95)
                .micro_paired(PairedTest::Bootstrap, &a, &b)
                .unwrap();
            let mut v = ci_bits(&ci);
            v.extend(bits(&t, |x| vec![x.a, x.b, x.diff, x.p]));
            v.extend(bits(&pb, |x| vec![x.a, x.b, x.diff, x.ci.lo, x.ci.hi, x.p]));
            v
        })
    };
    let one = compute(1);
    assert_eq!(one, compute(2));
    assert_eq!(one, compute(3));
}

#[test]
fn same_seed_same_result_different_seed_usually_different() {
    let (a, b) = (run(50, 8), run(50, 9));
    let ci = |seed| ci_bits(&rs(2_000, seed, 0.95).micro_ci(&a).unwrap());
    let pt = |seed| {
        let t = rs(2_000, seed, 0.95)
            .micro_paired(PairedTest::Permutation, &a, &b)
            .unwrap();
        bits(&t, |x| vec![x.p])
    };
    assert_eq!(ci(1), ci(1));
    assert_eq!(pt(1), pt(1));
    let differing_ci = (2..12).filter(|&s| ci(s) != ci(1)).count();
    let differing_pt = (2..12).filter(|&s| pt(s) != pt(1)).count();
    assert!(differing_ci >= 9, "{differing_ci}");
    assert!(differing_pt >= 9, "{differing_pt}");
}

/// The exact randomization p-value: every one of the 2^n swap patterns.
fn exact_randomization_p(a: &[DocCounts], b: &[DocCounts], m: Measure) -> f64 {
    let n = a.len();
    let score = |d: &[DocCounts]| *micro(&DocCounts::total(d), 1.0).get(m);
    let observed = (score(a) - score(b)).abs();
    let mut hits = 0u64;
    for mask in 0u64..(1 << n) {
        let (mut xa, mut xb) = (Vec::new(), Vec::new());
        for i in 0..n {
            if mask >> i & 1 == 1 {
                xa.push(b[i]);
                xb.push(a[i]);
            } else {
                xa.push(a[i]);
                xb.push(b[i]);
            }
        }
        if (score(&xa) - score(&xb)).abs() >= observed - 1e-12 {
            hits += 1;
        }
    }
    hits as f64 / (1u64 << n) as f64
}

#[test]
fn approximate_randomization_converges_to_the_exact_test() {
    let (a, b) = (run(10, 13), run(10, 14));
    let t = rs(100_000, 15, 0.95)
        .micro_paired(PairedTest::Permutation, &a, &b)
        .unwrap();
    for m in Measure::ALL {
        let exact = exact_randomization_p(&a, &b, m);
        let approx = t.get(m).p;
        // Monte-Carlo standard error at 100,000 samples is at most 0.0016.
        assert!((exact - approx).abs() < 0.007, "{m:?}: {exact} vs {approx}");
    }
}

#[test]
fn f_beta_and_the_p_values_alone_agree_with_the_full_tests() {
    let (a, b) = (run(20, 16), run(20, 17));
    let r = Resampler {
        confidence: 0.9,
        ..Resampler::new(1_000, 5)
    };
    for test in [PairedTest::Permutation, PairedTest::Bootstrap] {
        let full = r.micro_paired(test, &a, &b).unwrap();
        let p = r.micro_p(test, &a, &b).unwrap();
        assert_eq!(full.map(|_, x| x.p), p, "{test:?}");
    }
    // The interval of the difference is the paired bootstrap's whatever the test.
    assert_eq!(
        r.micro_paired(PairedTest::Permutation, &a, &b)
            .unwrap()
            .f1
            .ci,
        r.micro_paired(PairedTest::Bootstrap, &a, &b).unwrap().f1.ci
    );
    // F2 lies between P and R's pull: closer to R than F1 is, P and R unchanged.
    let f2 = Resampler { beta: 2.0, ..r }
        .micro_paired(PairedTest::Bootstrap, &a, &b)
        .unwrap();
    let f1 = r.micro_paired(PairedTest::Bootstrap, &a, &b).unwrap();
    assert_eq!(f2.p, f1.p);
    assert_eq!(f2.r, f1.r);
    let est = micro(&DocCounts::total(&a), 2.0);
    assert_eq!(f2.f1.a, est.f1);
    assert!((est.f1 - est.r).abs() <= (micro(&DocCounts::total(&a), 1.0).f1 - est.r).abs());
}

#[test]
fn mismatched_runs_are_a_usage_error() {
    let (a, b) = (run(5, 1), run(6, 1));
    assert!(matches!(
        rs(100, 1, 0.95).micro_paired(PairedTest::Permutation, &a, &b),
        Err(Error::Usage(_))
    ));
    assert!(matches!(
        rs(100, 1, 0.95).micro_paired(PairedTest::Bootstrap, &a, &b),
        Err(Error::Usage(_))
    ));
}

fn doc() -> impl Strategy<Value = DocCounts> {
    // Whole and half counts (fair counting gives halves).
    (0u32..40, 0u32..20, 0u32..20)
        .prop_map(|(t, p, n)| DocCounts::new(t as f64 / 2.0, p as f64 / 2.0, n as f64 / 2.0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn intervals_contain_the_estimate_and_everything_is_finite(
        docs in prop::collection::vec(doc(), 0..30),
        other in prop::collection::vec(doc(), 30),
        seed in any::<u64>(),
        confidence in 0.5f64..0.999,
        beta in 0.25f64..4.0,
    ) {
        let r = Resampler { confidence, beta, ..Resampler::new(500, seed) };
        let est = micro(&DocCounts::total(&docs), beta);
        let ci = r.micro_ci(&docs).unwrap();
        for m in Measure::ALL {
            let (i, e) = (ci.get(m), *est.get(m));
            prop_assert!(i.lo.is_finite() && i.hi.is_finite());
            prop_assert!(0.0 <= i.lo && i.lo <= i.hi && i.hi <= 1.0);
            prop_assert!(i.contains(e), "{:?}: {} not in {:?}", m, e, i);
        }
        let b = &other[..docs.len()];
        let t = r.micro_paired(PairedTest::Permutation, &docs, b).unwrap();
        let pb = r.micro_paired(PairedTest::Bootstrap, &docs, b).unwrap();
        for m in Measure::ALL {
            let (t, pb) = (t.get(m), pb.get(m));
            for x in [t.a, t.b, t.diff, t.p, pb.diff, pb.ci.lo, pb.ci.hi, pb.p] {
                prop_assert!(x.is_finite());
            }
            prop_assert!(t.p > 0.0 && t.p <= 1.0 && pb.p > 0.0 && pb.p <= 1.0);
            prop_assert!(pb.ci.lo <= pb.ci.hi);
        }
    }

    #[test]
    fn swapping_a_and_b_mirrors_the_results(
        pairs in prop::collection::vec((doc(), doc()), 1..30),
        seed in any::<u64>(),
    ) {
        let a: Vec<DocCounts> = pairs.iter().map(|p| p.0).collect();
        let b: Vec<DocCounts> = pairs.iter().map(|p| p.1).collect();
        let (ab, ba) = (
            rs(300, seed, 0.95).micro_paired(PairedTest::Permutation, &a, &b).unwrap(),
            rs(300, seed, 0.95).micro_paired(PairedTest::Permutation, &b, &a).unwrap(),
        );
        let (bab, bba) = (
            rs(300, seed, 0.95).micro_paired(PairedTest::Bootstrap, &a, &b).unwrap(),
            rs(300, seed, 0.95).micro_paired(PairedTest::Bootstrap, &b, &a).unwrap(),
        );
        for m in Measure::ALL {
            prop_assert_eq!(ab.get(m).p, ba.get(m).p);
            prop_assert_eq!(ab.get(m).diff, -ba.get(m).diff);
            prop_assert_eq!(bab.get(m).p, bba.get(m).p);
            prop_assert!((bab.get(m).ci.lo + bba.get(m).ci.hi).abs() < 1e-9);
            prop_assert!((bab.get(m).ci.hi + bba.get(m).ci.lo).abs() < 1e-9);
        }
    }
}
