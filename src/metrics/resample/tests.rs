//! Unit tests of resampling.

use super::*;

/// `samples` resamples from `seed` at confidence level `confidence`.
fn rs(samples: usize, seed: u64, confidence: f64) -> Resampler {
    Resampler {
        confidence,
        ..Resampler::new(samples, seed)
    }
}

fn docs(v: &[(f64, f64, f64)]) -> Vec<DocCounts> {
    v.iter().map(|&(t, p, n)| DocCounts::new(t, p, n)).collect()
}

#[test]
fn splitmix64_matches_the_reference_vector() {
    // Reference outputs of splitmix64.c for seed 1234567.
    let mut sm = SplitMix64::new(1234567);
    let got: Vec<u64> = (0..5).map(|_| sm.next_u64()).collect();
    assert_eq!(
        got,
        [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821
        ]
    );
}

#[test]
fn xoshiro256starstar_matches_the_reference_vector() {
    // xoshiro256** from the state [1, 2, 3, 4].
    let mut x = Xoshiro256 { s: [1, 2, 3, 4] };
    let got: Vec<u64> = (0..4).map(|_| x.next_u64()).collect();
    assert_eq!(got, [11520, 0, 1509978240, 1215971899390074240]);
}

#[test]
fn below_is_in_range_and_roughly_uniform() {
    let mut x = Xoshiro256::from_seed(7);
    let mut hist = [0usize; 7];
    for _ in 0..70_000 {
        hist[x.below(7)] += 1;
    }
    for h in hist {
        assert!((9_000..11_000).contains(&h), "{hist:?}");
    }
    assert_eq!(x.below(1), 0);
}

#[test]
fn micro_scores_and_empty_denominators() {
    let s = micro(&DocCounts::new(3.0, 1.0, 2.0), 1.0);
    assert_eq!(s.p, 0.75);
    assert_eq!(s.r, 0.6);
    assert_eq!(s.f1, 2.0 * (0.75 * 0.6) / (0.75 + 0.6));
    assert_eq!(micro(&DocCounts::default(), 1.0), ByMeasure::default());
    let s = micro(&DocCounts::new(0.0, 4.0, 0.0), 1.0);
    assert_eq!((s.p, s.r, s.f1), (0.0, 0.0, 0.0));
    // F2 weighs recall more: (1 + 4)·P·R / (4·P + R).
    let s = micro(&DocCounts::new(3.0, 1.0, 2.0), 2.0);
    assert!((s.f1 - 5.0 * 0.45 / (3.0 + 0.6)).abs() < 1e-15);
}

#[test]
fn quantile_is_scipy_linear() {
    let y = [1.0, 2.0, 4.0, 8.0];
    // numpy.percentile([1, 2, 4, 8], [0, 25, 50, 97.5, 100])
    assert_eq!(quantile(&y, 0.0), 1.0);
    assert_eq!(quantile(&y, 0.25), 1.75);
    assert_eq!(quantile(&y, 0.5), 3.0);
    assert!((quantile(&y, 0.975) - 7.7).abs() < 1e-12);
    assert_eq!(quantile(&y, 1.0), 8.0);
    assert_eq!(quantile(&[5.0], 0.025), 5.0);
    assert_eq!(quantile(&[], 0.5), 0.0);
    assert_eq!(quantile(&[0.3; 10], 0.025), 0.3);
}

#[test]
fn selection_gives_the_sorted_quantile() {
    let mut x = Xoshiro256::from_seed(3);
    for n in [1usize, 2, 3, 10, 39, 40, 41, 1000, 10_001] {
        let v: Vec<f64> = (0..n).map(|_| x.below(50) as f64 / 7.0).collect();
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        for p in [0.0, 0.005, 0.025, 0.05, 0.5, 0.95, 0.975, 0.995, 1.0] {
            let mut w = v.clone();
            assert_eq!(quantile_select(&mut w, p), quantile(&sorted, p), "{n} {p}");
        }
    }
    assert_eq!(quantile_select(&mut [], 0.5), 0.0);
}

#[test]
fn usage_errors() {
    let d = docs(&[(1.0, 0.0, 0.0)]);
    for r in [
        rs(0, 1, 0.95).micro_ci(&d),
        rs(10, 1, 0.0).micro_ci(&d),
        rs(10, 1, 1.0).micro_ci(&d),
        rs(10, 1, f64::NAN).micro_ci(&d),
        rs(MAX_SAMPLES + 1, 1, 0.95).micro_ci(&d),
        rs(10, 1, 0.95).micro_ci(&docs(&[(f64::NAN, 0.0, 0.0)])),
        rs(10, 1, 0.95).micro_ci(&docs(&[(-1.0, 0.0, 0.0)])),
        rs(10, 1, 0.95).micro_ci(&docs(&[(f64::MAX, 0.0, 0.0); 2])),
    ] {
        assert!(matches!(r, Err(Error::Usage(_))), "{r:?}");
    }
    assert!(matches!(
        rs(10, 1, 0.95).micro_paired(PairedTest::Permutation, &d, &[]),
        Err(Error::Usage(_))
    ));
    assert!(matches!(
        rs(10, 1, 1.5).micro_paired(PairedTest::Bootstrap, &d, &d),
        Err(Error::Usage(_))
    ));
    for beta in [0.0, -1.0, f64::INFINITY, f64::NAN, 1e300, 1e-300] {
        let r = Resampler {
            beta,
            ..Resampler::new(10, 1)
        };
        assert!(matches!(r.micro_ci(&d), Err(Error::Usage(_))), "{beta}");
    }
}

#[test]
fn degenerate_inputs_give_zero() {
    let zero = Interval { lo: 0.0, hi: 0.0 };
    for d in [vec![], docs(&[(0.0, 0.0, 0.0); 5])] {
        let ci = rs(100, 3, 0.95).micro_ci(&d).unwrap();
        for (_, i) in ci.iter() {
            assert_eq!(*i, zero);
        }
        let t = rs(100, 3, 0.95)
            .micro_paired(PairedTest::Permutation, &d, &d)
            .unwrap();
        let b = rs(100, 3, 0.95)
            .micro_paired(PairedTest::Bootstrap, &d, &d)
            .unwrap();
        for m in Measure::ALL {
            assert_eq!(
                *t.get(m),
                Paired {
                    p: 1.0,
                    ..Default::default()
                }
            );
            assert_eq!(
                *b.get(m),
                Paired {
                    p: 1.0,
                    ..Default::default()
                }
            );
        }
    }
}

#[test]
fn one_document_gives_a_zero_width_interval_at_the_estimate() {
    let d = docs(&[(7.0, 3.0, 4.0)]);
    let ci = rs(500, 9, 0.9).micro_ci(&d).unwrap();
    let est = micro(&DocCounts::total(&d), 1.0);
    for m in Measure::ALL {
        assert_eq!(ci.get(m).lo, *est.get(m));
        assert_eq!(ci.get(m).hi, *est.get(m));
    }
}

#[test]
fn blocks_cover_every_sample_once() {
    // A sample count that is not a multiple of BLOCK.
    let r = Resampler::new(BLOCK * 3 + 17, 5);
    let sizes = r.blocks(Domain::Bootstrap, |_, count| vec![count]);
    let sizes: Vec<usize> = sizes.into_iter().flatten().collect();
    assert_eq!(sizes, [BLOCK, BLOCK, BLOCK, 17]);
}

#[test]
fn permutation_p_of_a_two_document_example_is_exact() {
    // A wins document 1 (1 TP vs 0), B wins document 2: swapping gives 4 equally likely
    // configurations; |δ*| ≥ |δ| in all of them for P (δ = 0), so p = 1.
    let a = docs(&[(1.0, 0.0, 0.0), (0.0, 1.0, 1.0)]);
    let b = docs(&[(0.0, 1.0, 1.0), (1.0, 0.0, 0.0)]);
    let t = rs(1000, 1, 0.95)
        .micro_paired(PairedTest::Permutation, &a, &b)
        .unwrap();
    assert_eq!(t.p.diff, 0.0);
    assert_eq!(t.p.p, 1.0);
}
