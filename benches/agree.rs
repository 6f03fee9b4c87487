//! Criterion benchmarks of `agree` (issue 33) beside its floor, on the generated brat project of
//! `tests/common/agree_synth.rs` (4 annotators × `AGREE_BENCH_DOCS` documents, default 5, of
//! 50,000 tokens; `scripts/bench.sh` part (g) measures the whole command on 20):
//!
//! * `agree/read floor`: reading the project through the brat reader, as `agree` does;
//! * `agree/agree`: reading it and computing every agreement table;
//! * `agree/tables`: the tables of an already read project.

#[path = "../tests/common/agree_synth.rs"]
mod synth;

use criterion::Criterion;
use fairscore::eval::agreement;
use fairscore::eval::brat_project;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let docs = std::env::var("AGREE_BENCH_DOCS")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(5);
    let dir = std::env::temp_dir().join(format!("fairscore-agree-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bytes = synth::write_project(&dir, 4, docs, 50_000);
    eprintln!("agree bench: 4 annotators x {docs} documents x 50,000 tokens, {bytes} bytes");
    let mut g = c.benchmark_group("agree");
    g.sample_size(10);
    g.bench_function("read floor", |b| {
        b.iter(|| black_box(brat_project(&dir).map(|p| p.documents.len())))
    });
    g.bench_function("agree", |b| {
        b.iter(|| black_box(brat_project(&dir).map(|p| agreement(&p).tables.len())))
    });
    if let Ok(p) = brat_project(&dir) {
        g.bench_function("tables", |b| {
            b.iter(|| black_box(agreement(&p).tables.len()))
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
