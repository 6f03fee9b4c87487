//! The resampling statistics on the real HIPE-2022 runs (../shared): per-document strict
//! NE-COARSE-LIT counts of every run scored for nerc_coarse, checked against the official
//! totals, then bootstrap intervals per run and paired tests between neighbours in the ranking
//! and against the top run. Everything is written to
//! `$CARGO_TARGET_TMPDIR/stats_crosscheck/hipe2022-SAMPLES.json` for
//! `scripts/stats_crosscheck.py`, which recomputes it with SciPy and NumPy. SAMPLES is 10,000,
//! or `$STATS_CROSSCHECK_SAMPLES` when set (`scripts/stats_crosscheck.sh` also runs 100,000).

use fairscore::corpus::{align, Corpus, ReadOptions};
use fairscore::eval::evaluation_tags;
use fairscore::eval::read_tagset;
use fairscore::matching::span_count::{self, Scratch};
use fairscore::matching::SpanRegime;
use fairscore::metrics::micro;
use fairscore::metrics::DocCounts;
use fairscore::metrics::Measure;
use fairscore::metrics::PairedTest;
use fairscore::metrics::Resampler;
use fairscore::spans::{self, Spans};
use fairscore::Task;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

const SAMPLES: usize = 10_000;
const SEED: u64 = 2022;
const CONFIDENCE: f64 = 0.95;
const COLUMN: &str = "NE-COARSE-LIT";

/// `../shared/data/hipe2022`, or None after a skip notice; with `CI` set its absence fails.
fn hipe2022_or_skip(test: &str) -> Option<PathBuf> {
    crate::common::shared_data(test).map(|d| d.join("hipe2022"))
}

/// Strict NE-COARSE-LIT counts of every gold document, as `score` counts them (no noise or
/// period filter, segments merged).
fn doc_counts(
    gold: &Corpus,
    pred: &Corpus,
    tagset: &std::collections::BTreeSet<String>,
) -> Vec<DocCounts> {
    let al = align(gold, pred).unwrap();
    let g = gold.column(COLUMN).unwrap();
    let p = pred.column(COLUMN).unwrap();
    let tags = evaluation_tags(gold, g, pred, p, Task::NercCoarse, Some(tagset));
    let (mut gsp, mut psp) = (Spans::default(), Spans::default());
    let mut scratch = Scratch::default();
    gold.docs
        .iter()
        .zip(&al.pred_docs)
        .map(|(gd, pd)| {
            let gseq: Vec<usize> = gd.range().collect();
            let pseq: Vec<usize> = pd.range().collect();
            spans::entities(gold, g, &gseq, &mut gsp);
            spans::entities(pred, p, &pseq, &mut psp);
            let unit = span_count::count(
                &gsp,
                &psp,
                &tags,
                |s, e| spans::same_text(gold, &gseq, pred, &pseq, s, e),
                &mut scratch,
            );
            let c = unit.all[SpanRegime::Strict];
            DocCounts::new(
                c.correct as f64,
                (c.actual() - c.correct) as f64,
                (c.possible() - c.correct) as f64,
            )
        })
        .collect()
}

fn by_measure(f: impl Fn(Measure) -> Value) -> Value {
    let mut m = Map::new();
    for measure in Measure::ALL {
        m.insert(measure.name().to_string(), f(measure));
    }
    Value::Object(m)
}

struct Run {
    name: String,
    group: String,
    docs: Vec<DocCounts>,
    f1: f64,
}

#[test]
fn hipe2022_intervals_and_tests_for_the_crosscheck() {
    let Some(d) = hipe2022_or_skip("hipe2022_intervals_and_tests_for_the_crosscheck") else {
        return;
    };
    let tagset = read_tagset(&d.join("resources/tagset-hipe2022-all.txt")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(d.join("official"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix("_nerc_coarse.json").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 31, "HIPE-2022 runs scored for nerc_coarse");

    let ropts = ReadOptions::default();
    let mut runs = Vec::new();
    for name in &names {
        let parts: Vec<&str> = name.split('_').collect();
        let (dataset, lang) = (parts[2], parts[3]);
        let gold = fairscore::formats::hipe::read(
            &d.join(format!("gold/HIPE-2022-v2.1-{dataset}-test-{lang}.tsv")),
            &ropts,
        )
        .unwrap();
        let pred =
            fairscore::formats::hipe::read(&d.join(format!("submissions/{name}.tsv")), &ropts)
                .unwrap();
        let docs = doc_counts(&gold, &pred, &tagset);
        // The per-document counts add up to the official totals and score.
        let official: Value = serde_json::from_str(
            &std::fs::read_to_string(d.join(format!("official/{name}_nerc_coarse.json"))).unwrap(),
        )
        .unwrap();
        let o = &official[COLUMN]["TIME-ALL"]["LED-ALL"]["ALL"]["strict"];
        let total = DocCounts::total(&docs);
        assert_eq!(
            (total.tp, total.fp, total.fn_),
            (
                o["TP"].as_f64().unwrap(),
                o["FP"].as_f64().unwrap(),
                o["FN"].as_f64().unwrap()
            ),
            "{name}"
        );
        let est = micro(&total, 1.0);
        assert_eq!(est.f1, o["F1_micro"].as_f64().unwrap(), "{name}");
        runs.push(Run {
            name: name.clone(),
            group: format!("{dataset}-{lang}"),
            docs,
            f1: est.f1,
        });
    }

    let samples = match std::env::var("STATS_CROSSCHECK_SAMPLES") {
        Ok(v) => v.parse().expect("STATS_CROSSCHECK_SAMPLES is a number"),
        Err(_) => SAMPLES,
    };
    let r = Resampler {
        confidence: CONFIDENCE,
        ..Resampler::new(samples, SEED)
    };
    let started = std::time::Instant::now();
    let mut run_values = Vec::new();
    for run in &runs {
        let ci = r.micro_ci(&run.docs).unwrap();
        let est = micro(&DocCounts::total(&run.docs), 1.0);
        for m in Measure::ALL {
            assert!(ci.get(m).contains(*est.get(m)), "{} {m:?}", run.name);
        }
        run_values.push(json!({
            "run": run.name,
            "group": run.group,
            "docs": run.docs.iter().map(|c| [c.tp, c.fp, c.fn_]).collect::<Vec<_>>(),
            "micro": by_measure(|m| json!(est.get(m))),
            "ci": by_measure(|m| json!(ci.get(m).to_array())),
        }));
    }

    // Within each dataset and language, rank by F1 (then name) and test every run against the
    // next one up and against the top run.
    let mut groups: Vec<&str> = runs.iter().map(|r| r.group.as_str()).collect();
    groups.sort();
    groups.dedup();
    let mut pairs = Vec::new();
    for group in groups {
        let mut ranked: Vec<&Run> = runs.iter().filter(|r| r.group == group).collect();
        ranked.sort_by(|a, b| b.f1.total_cmp(&a.f1).then(a.name.cmp(&b.name)));
        let mut todo: Vec<(usize, usize)> = Vec::new();
        for i in 1..ranked.len() {
            todo.push((i - 1, i));
            if i > 1 {
                todo.push((0, i));
            }
        }
        for (i, j) in todo {
            let (a, b) = (ranked[i], ranked[j]);
            let t = r
                .micro_paired(PairedTest::Permutation, &a.docs, &b.docs)
                .unwrap();
            let pb = r
                .micro_paired(PairedTest::Bootstrap, &a.docs, &b.docs)
                .unwrap();
            pairs.push(json!({
                "a": a.name,
                "b": b.name,
                "permutation": by_measure(|m| {
                    let x = t.get(m);
                    json!({"a": x.a, "b": x.b, "diff": x.diff, "p": x.p})
                }),
                "bootstrap": by_measure(|m| {
                    let x = pb.get(m);
                    json!({"diff": x.diff, "ci": x.ci.to_array(), "p": x.p})
                }),
            }));
        }
    }
    let elapsed = started.elapsed();

    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stats_crosscheck");
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join(format!("hipe2022-{samples}.json"));
    let doc = json!({
        "column": COLUMN,
        "regime": "strict",
        "samples": samples,
        "seed": SEED,
        "confidence": CONFIDENCE,
        "tie_epsilon": fairscore::metrics::TIE_EPSILON,
        "runs": run_values,
        "pairs": pairs,
    });
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    use std::io::Write;
    let _ =
        writeln!(
        std::io::stderr().lock(),
        "stats_crosscheck: {} runs, {} pairs, {samples} resamples in {:.2?} ({} build); wrote {}",
        runs.len(),
        pairs.len(),
        elapsed,
        if cfg!(debug_assertions) { "debug" } else { "release" },
        path.display()
    );
}
