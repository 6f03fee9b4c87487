//! Criterion benchmarks of the scoring pipeline: reading, aligning and scoring one run (the
//! bundled example always; the largest HIPE-2022 run when ../shared is present), beside the
//! floor (splitting the same text into lines and cells) and reading only the task's columns,
//! as `score` does.

use criterion::{criterion_group, criterion_main, Criterion};
use fairscore::corpus::ReadOptions;
use fairscore::{score_files, Edition, ScoreOptions, Task};
use std::path::Path;

fn bench_pair(c: &mut Criterion, name: &str, gold: &Path, pred: &Path, task: Task) {
    let ropts = ReadOptions::default();
    let (Ok(g), Ok(p)) = (
        fairscore::formats::hipe::read(gold, &ropts),
        fairscore::formats::hipe::read(pred, &ropts),
    ) else {
        return;
    };
    let opts = ScoreOptions::new(task, Edition::Hipe2022);
    if let Ok(text) = fairscore::io::read_text(pred) {
        c.bench_function(&format!("split (floor) {name}"), |b| {
            b.iter(|| fairscore::formats::count_cells(&text))
        });
    }
    c.bench_function(&format!("read {name}"), |b| {
        b.iter(|| fairscore::formats::hipe::read(pred, &ropts).map(|f| f.n_tokens()))
    });
    let task_ropts = ReadOptions {
        columns: Some(fairscore::task_columns(Edition::Hipe2022, &[task])),
        ..ReadOptions::default()
    };
    c.bench_function(&format!("read {name} {} columns", task.as_str()), |b| {
        b.iter(|| fairscore::formats::hipe::read(pred, &task_ropts).map(|f| f.n_tokens()))
    });
    c.bench_function(&format!("score {name} {}", task.as_str()), |b| {
        b.iter(|| score_files(&g, &p, "run.tsv", "run", &opts).map(|o| o.tsv.len()))
    });
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    bench_pair(
        c,
        "example",
        &root.join("reference_runs/HIPE-2022-demo-test-en.tsv"),
        &root.join("reference_runs/demo_bundle4_newseye_en_1.tsv"),
        Task::NercCoarse,
    );
    let d = root.join("../shared/data/hipe2022");
    if d.is_dir() {
        let gold = d.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
        let run = d.join("submissions/team4_bundle4_newseye_de_1.tsv");
        bench_pair(c, "newseye-de", &gold, &run, Task::NercCoarse);
        let run = d.join("submissions/team5_bundle5_newseye_de_1.tsv");
        bench_pair(c, "newseye-de", &gold, &run, Task::Nel);
    } else {
        eprintln!("skipped: ../shared absent (only the bundled example is benchmarked)");
    }
}

criterion_group! {
    name = score;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(score);
