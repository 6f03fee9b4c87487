//! Criterion benchmarks of the resampling statistics at campaign size: 10,000 resamples for
//! each of 40 runs of 50 documents (bootstrap intervals), and for 40 pairs of such runs
//! (approximate randomization, paired bootstrap). Issue 14 asks for well under a second on
//! 2 cores.

use criterion::{criterion_group, criterion_main, Criterion};
use fairscore::metrics::DocCounts;
use fairscore::metrics::PairedTest;
use fairscore::metrics::Resampler;
use fairscore::metrics::Xoshiro256;
use std::hint::black_box;

const RUNS: usize = 40;
const DOCS: usize = 50;
const SAMPLES: usize = 10_000;

fn campaign() -> Vec<Vec<DocCounts>> {
    let mut rng = Xoshiro256::from_seed(14);
    (0..RUNS)
        .map(|_| {
            (0..DOCS)
                .map(|_| {
                    let gold = rng.below(30) as f64;
                    let tp = (gold - rng.below(8) as f64).max(0.0);
                    DocCounts::new(tp, rng.below(8) as f64, gold - tp)
                })
                .collect()
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let runs = campaign();
    let mut g = c.benchmark_group("resample");
    g.sample_size(10);
    let rs = Resampler::new(SAMPLES, 1);
    let all_ci = || {
        runs.iter()
            .map(|r| rs.micro_ci(r).map(|ci| ci.f1.lo))
            .sum::<Result<f64, _>>()
    };
    g.bench_function("bootstrap_ci 40 runs x 50 docs x 10k", |b| {
        b.iter(|| black_box(all_ci()))
    });
    if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        g.bench_function("bootstrap_ci 40 runs x 50 docs x 10k, 1 thread", |b| {
            b.iter(|| black_box(pool.install(all_ci)))
        });
    }
    g.bench_function("paired_permutation 40 pairs x 50 docs x 10k", |b| {
        b.iter(|| {
            (0..RUNS)
                .map(|i| {
                    rs.micro_p(PairedTest::Permutation, &runs[i], &runs[(i + 1) % RUNS])
                        .map(|p| p.f1)
                })
                .sum::<Result<f64, _>>()
        })
    });
    g.bench_function("paired_bootstrap 40 pairs x 50 docs x 10k", |b| {
        b.iter(|| {
            (0..RUNS)
                .map(|i| {
                    rs.micro_paired(PairedTest::Bootstrap, &runs[i], &runs[(i + 1) % RUNS])
                        .map(|t| t.f1.p)
                })
                .sum::<Result<f64, _>>()
        })
    });
    g.finish();
}

criterion_group!(resample, benches);
criterion_main!(resample);
