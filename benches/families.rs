//! Criterion benchmarks of `segmentation`, `tagging` and `muc` (the metric-family path those
//! commands run: `family::evaluate` of a family built once, which reads both files, pairs
//! them unit by unit and makes the result tables) against the floor of merely reading and
//! splitting the two files (read through the input guard, UTF-8 check, every line split into
//! its tab-separated cells). Needs ../shared/data/ud (segmentation, tagging) and
//! ../shared/data/hipe2022 (muc); without them nothing is measured.
//! `scripts/bench_families.sh` times the whole commands the same way.
//!
//!     cargo bench --bench families

use criterion::{criterion_group, criterion_main, Criterion};
use fairscore::family::{self, Family, Options};
use fairscore::io::read_text;
use std::path::Path;

/// The floor: read both files and split every line into cells; returns the cell count.
fn read_and_split(gold: &Path, pred: &Path) -> usize {
    let mut cells = 0;
    for p in [gold, pred] {
        let Ok(text) = read_text(p) else { return 0 };
        for line in text.split('\n') {
            cells += line.split('\t').count();
        }
    }
    cells
}

/// The family `name` with `(option, value)` pairs.
fn build(name: &str, opts: &[(&str, &str)]) -> Box<dyn Family> {
    let mut o = Options::default();
    for (k, v) in opts {
        o.set(k, v).expect("option");
    }
    family::build(name, &o).expect("family")
}

/// One scoring of `gold` and `pred` by `fam`: the number of units compared (0 on an error).
fn score(fam: &dyn Family, gold: &Path, pred: &Path) -> usize {
    family::evaluate(fam, gold, pred, None).map_or(0, |r| r.units)
}

/// Checks once that `fam` scores the pair (a benchmark of the error path would mislead).
fn scores(fam: &dyn Family, gold: &Path, pred: &Path) {
    if let Err(e) = family::evaluate(fam, gold, pred, None) {
        panic!("{} {}: {e}", fam.name(), pred.display());
    }
}

/// `muc` on the largest HIPE-2022 gold (newseye de, 100,000 lines) and its largest run.
fn muc_bench(c: &mut Criterion) {
    let h = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/hipe2022");
    if !h.is_dir() {
        eprintln!("skipped: ../shared/data/hipe2022 absent");
        return;
    }
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let pred = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let name = "hipe2022 newseye-de/neurbsl_bundle3_1";
    c.bench_function(&format!("read+split {name}"), |b| {
        b.iter(|| read_and_split(&gold, &pred))
    });
    let muc = build("muc", &[("format", "hipe")]);
    scores(muc.as_ref(), &gold, &pred);
    c.bench_function(&format!("muc {name}"), |b| {
        b.iter(|| score(muc.as_ref(), &gold, &pred))
    });
}

fn benches(c: &mut Criterion) {
    muc_bench(c);
    let ud = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ud");
    if !ud.is_dir() {
        eprintln!("skipped: ../shared/data/ud absent");
        return;
    }
    let seg = ud.join("segmentation");
    let tag = ud.join("tagging");
    // The largest file of the data (morfeusz-all, 5.5 MB) with its gold, for both commands
    // (segmentation reads the CoNLL-U surface tokens), and the Chinese pair.
    let pairs = [
        (
            "zh_gsd/jieba conllu",
            seg.join("zh_gsd-ud-dev.conllu"),
            seg.join("jieba-dev.conllu"),
        ),
        (
            "pl_pdb/morfeusz-all conllu",
            tag.join("pl_pdb-ud-dev.conllu"),
            tag.join("morfeusz-all-dev.conllu"),
        ),
    ];
    let segmentation = build("segmentation", &[("format", "conllu")]);
    for (name, gold, pred) in &pairs {
        c.bench_function(&format!("read+split {name}"), |b| {
            b.iter(|| read_and_split(gold, pred))
        });
        scores(segmentation.as_ref(), gold, pred);
        c.bench_function(&format!("segmentation {name}"), |b| {
            b.iter(|| score(segmentation.as_ref(), gold, pred))
        });
    }
    let (_, gold, pred) = &pairs[1];
    let plain = build("tagging", &[("format", "conllu")]);
    scores(plain.as_ref(), gold, pred);
    c.bench_function("tagging pl_pdb/morfeusz-all conllu (no tagset)", |b| {
        b.iter(|| score(plain.as_ref(), gold, pred))
    });
    let nkjp = build("tagging", &[("format", "conllu"), ("tagset", "nkjp")]);
    scores(nkjp.as_ref(), gold, pred);
    c.bench_function("tagging pl_pdb/morfeusz-all conllu (nkjp)", |b| {
        b.iter(|| score(nkjp.as_ref(), gold, pred))
    });
}

criterion_group! {
    name = families;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(families);
