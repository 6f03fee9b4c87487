//! `fairscore compare` with known answers: a run against itself (p = 1, zero-width interval
//! of the difference), a run against an all-empty run (p < 0.001), scores equal to the
//! official ones, determinism across thread counts, and its usage errors. Data tests use
//! ../shared (skipped locally when absent, failing under CI).

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const GOLD: &str = "reference_runs/HIPE-2022-demo-test-en.tsv";
const RUN: &str = "reference_runs/demo_bundle4_newseye_en_1.tsv";
const REGIMES: [&str; 4] = ["strict", "ent_type", "partial", "exact"];

fn manifest(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(p)
        .to_string_lossy()
        .into_owned()
}

/// Runs `fairscore compare` with `--json` into `dir`; returns the JSON and the table.
fn compare(
    dir: &Path,
    gold: &str,
    a: &str,
    b: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Value, String, String) {
    let out = dir.join("compare.json").to_string_lossy().into_owned();
    let mut args = vec![
        "compare",
        "--ref",
        gold,
        "--pred",
        a,
        "--pred",
        b,
        "--hipe_edition",
        "hipe-2022",
        "--json",
        &out,
    ];
    args.extend_from_slice(extra);
    let o = fairscore_env(&args, env);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let v: Value = serde_json::from_str(&text).expect("compare JSON");
    (v, text, String::from_utf8_lossy(&o.stdout).into_owned())
}

/// (column, regime, measure, a, b, diff, [lo, hi], p) of every entry.
type Row = (String, String, String, f64, f64, f64, [f64; 2], f64);

fn rows(v: &Value) -> Vec<Row> {
    let t = crate::common::json_table(v, "compare");
    let keys: Vec<&str> = t["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(keys, ["column", "regime", "measure"]);
    let mut out = Vec::new();
    for r in t["rows"].as_array().unwrap() {
        let k = |n: &str| r["key"][n].as_str().unwrap().to_string();
        let c = &r["scores"];
        let names: Vec<&String> = c.as_object().unwrap().keys().collect();
        assert_eq!(names, ["A", "B", "A-B", "lo", "hi", "p"]);
        let f = |n: &str| c[n].as_f64().unwrap();
        out.push((
            k("column"),
            k("regime"),
            k("measure"),
            f("A"),
            f("B"),
            f("A-B"),
            [f("lo"), f("hi")],
            f("p"),
        ));
    }
    // P, R and F1 of each column and regime, in that order.
    for chunk in out.chunks(3) {
        let m: Vec<&str> = chunk.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(m, ["P", "R", "F1"]);
    }
    out
}

fn repeated(dir: &Path, gold: &str, run: &str, k: usize) -> (String, String) {
    let g = std::fs::read_to_string(gold).unwrap();
    let r = std::fs::read_to_string(run).unwrap();
    (
        write_file(dir, "gold.tsv", &repeat_documents(&g, k)),
        write_file(dir, "run.tsv", &repeat_documents(&r, k)),
    )
}

fn assert_self_comparison(v: &Value, what: &str) {
    let rows = rows(v);
    assert!(!rows.is_empty());
    for (col, regime, m, a, b, diff, ci, p) in rows {
        assert_eq!(a, b, "{what} {col}/{regime}/{m}");
        assert_eq!(diff, 0.0, "{what} {col}/{regime}/{m}");
        assert_eq!(ci, [0.0, 0.0], "{what} {col}/{regime}/{m}");
        assert_eq!(p, 1.0, "{what} {col}/{regime}/{m}");
    }
}

#[test]
fn a_run_against_itself_gives_p_1_and_a_zero_interval() {
    let run = manifest(RUN);
    for test in ["permutation", "bootstrap"] {
        let dir = temp_dir(&format!("compare_self_{test}"));
        let (v, _, table) = compare(
            &dir,
            &manifest(GOLD),
            &run,
            &run,
            &[
                "--test",
                test,
                "--samples",
                "2000",
                "--regimes",
                "strict,fuzzy,partial,exact,fair",
            ],
            &[],
        );
        let regimes: std::collections::BTreeSet<String> =
            rows(&v).into_iter().map(|r| r.1).collect();
        assert_eq!(regimes.len(), 5, "{regimes:?}");
        assert_self_comparison(&v, test);
        assert!(table.contains("NE-COARSE-LIT (2 documents)"), "{table}");
        assert!(table.contains("1.0000"), "{table}");
    }
}

/// (gold, run, empty run) files: the demo repeated 16 times (32 documents).
fn demo_against_empty(dir: &Path) -> (String, String, String) {
    let (gold, run) = repeated(dir, &manifest(GOLD), &manifest(RUN), 16);
    let empty = write_file(
        dir,
        "empty.tsv",
        &empty_run(&std::fs::read_to_string(&run).unwrap()),
    );
    (gold, run, empty)
}

fn assert_significant(rows: &[Row], what: &str) {
    for (col, regime, m, a, b, diff, [lo, hi], p) in rows {
        assert_eq!(*b, 0.0, "{what} {col}/{regime}/{m}: the empty run scores 0");
        if *a > 0.0 {
            assert!(*p < 0.001, "{what} {col}/{regime}/{m}: p = {p}");
            assert!(lo <= diff && diff <= hi, "{what} {col}/{regime}/{m}");
            assert!(*lo > 0.0, "{what} {col}/{regime}/{m}: [{lo}, {hi}]");
        }
    }
}

#[test]
fn a_run_against_an_empty_run_is_significant() {
    let dir = temp_dir("compare_empty");
    let (gold, run, empty) = demo_against_empty(&dir);
    for test in ["permutation", "bootstrap"] {
        let (v, _, _) = compare(&dir, &gold, &run, &empty, &["--test", test], &[]);
        let rows = rows(&v);
        assert_eq!(rows.len(), 4 * 3);
        assert_significant(&rows, test);
        let f1 = rows
            .iter()
            .find(|r| r.1 == "strict" && r.2 == "F1")
            .unwrap();
        println!(
            "demo x16 vs empty, {test}: strict F1 diff {} p {}",
            f1.5, f1.7
        );
    }
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    let dir = temp_dir("compare_threads");
    let (gold, run, _) = demo_against_empty(&dir);
    // Run B: the demo run with every fourth entity dropped (so copies differ).
    let text = std::fs::read_to_string(&run).unwrap();
    let mut n = 0;
    let other: String = text
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split('\t').collect();
            if cells.len() > 1 && (cells[1].starts_with("S-") || cells[1].starts_with("B-")) {
                n += 1;
                if n % 4 == 0 {
                    cells[1] = "O";
                }
            }
            cells.join("\t") + "\n"
        })
        .collect();
    let b = write_file(&dir, "b.tsv", &other);
    let extra = [
        "--samples",
        "3000",
        "--seed",
        "11",
        "--regimes",
        "strict,fair",
    ];
    let mut texts = Vec::new();
    for threads in ["1", "2"] {
        let (_, text, table) = compare(
            &dir,
            &gold,
            &run,
            &b,
            &extra,
            &[("RAYON_NUM_THREADS", threads)],
        );
        texts.push((text, table));
    }
    assert_eq!(texts[0], texts[1]);
    let (_, seed12, _) = compare(
        &dir,
        &gold,
        &run,
        &b,
        &[
            "--samples",
            "3000",
            "--seed",
            "12",
            "--regimes",
            "strict,fair",
        ],
        &[],
    );
    assert_ne!(
        texts[0].0, seed12,
        "another seed should give other p-values"
    );
}

#[test]
fn compare_usage_errors() {
    let dir = temp_dir("compare_usage");
    let (gold, run) = (manifest(GOLD), manifest(RUN));
    let copy = write_file(&dir, "copy.tsv", &std::fs::read_to_string(&run).unwrap());
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--pred", &run], "--pred"),
        (
            vec!["--pred", &run, "--pred", &run, "--pred", &run],
            "--pred",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--json", &copy],
            "--json",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--json", &gold],
            "--json",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--samples", "0"],
            "--bootstrap",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--confidence", "1.5"],
            "--confidence",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--test", "t"],
            "--test",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--regimes", "loose"],
            "--regimes",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--regimes", "weighted"],
            "--weights",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--column", "TAG"],
            "--column",
        ),
        (
            vec!["--pred", &run, "--pred", &copy, "--beta", "2"],
            "--beta",
        ),
    ];
    // A flag of the families (--family) is refused here, never ignored: it is named.
    let families: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--focus", "system"], "--focus"),
        (vec!["--attribution", "nervaluate"], "--attribution"),
        (vec!["--breakdown", "label"], "--breakdown"),
        (vec!["--ne-column", "NEL-LIT"], "--ne-column"),
        (vec!["--match", "set"], "--match"),
    ];
    let cases = cases.into_iter().chain(families.into_iter().map(|(f, o)| {
        let mut v = vec!["--pred", run.as_str(), "--pred", copy.as_str()];
        v.extend(f);
        (v, o)
    }));
    for (extra, option) in cases {
        let mut args = vec!["compare", "--ref", &gold, "--hipe_edition", "hipe-2022"];
        args.extend(extra.iter().copied());
        let o = fairscore(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(option), "{extra:?}: {err}");
    }
    // The input given as output is untouched.
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        std::fs::read_to_string(&run).unwrap()
    );
    // A missing run is an input error (exit 3) and writes nothing.
    let out = dir.join("out.json");
    let o = fairscore(&[
        "compare",
        "--ref",
        &gold,
        "--pred",
        &run,
        "--pred",
        "/nonexistent/run.tsv",
        "--json",
        &out.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert!(!out.exists());
    let leftovers: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// HIPE-2022 paths: (gold, run, tagset).
fn hipe2022(data: &Path, dataset: &str, lang: &str, run: &str) -> (String, String, String) {
    let d = data.join("hipe2022");
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    (
        s(d.join(format!("gold/HIPE-2022-v2.1-{dataset}-test-{lang}.tsv"))),
        s(d.join(format!("submissions/{run}.tsv"))),
        s(d.join("resources/tagset-hipe2022-all.txt")),
    )
}

#[test]
fn hipe2022_run_against_itself_and_against_empty() {
    let Some(data) = shared_data("hipe2022_run_against_itself_and_against_empty") else {
        return;
    };
    let (gold, run, tagset) = hipe2022(&data, "newseye", "fr", "team4_bundle4_newseye_fr_1");
    let dir = temp_dir("compare_hipe2022_empty");
    let (v, _, _) = compare(
        &dir,
        &gold,
        &run,
        &run,
        &[
            "--tagset",
            &tagset,
            "--regimes",
            "strict,fuzzy,partial,exact,fair",
        ],
        &[],
    );
    assert_self_comparison(&v, "self");
    let empty = write_file(
        &dir,
        "empty.tsv",
        &empty_run(&std::fs::read_to_string(&run).unwrap()),
    );
    for test in ["permutation", "bootstrap"] {
        let (v, _, table) = compare(
            &dir,
            &gold,
            &run,
            &empty,
            &[
                "--tagset",
                &tagset,
                "--test",
                test,
                "--regimes",
                "strict,fuzzy,partial,exact,fair",
            ],
            &[],
        );
        let rows = rows(&v);
        assert_eq!(rows.len(), 5 * 3);
        assert_significant(&rows, test);
        assert!(table.contains("(35 documents)"), "{table}");
        println!("{test}:\n{table}");
    }
}

/// A and B are the official micro scores of both runs (bit for bit), the interval contains
/// the difference, p is a valid p-value; NEL too.
#[test]
fn hipe2022_pairs_match_the_official_scores() {
    let Some(data) = shared_data("hipe2022_pairs_match_the_official_scores") else {
        return;
    };
    let official = data.join("hipe2022/official");
    let cases = [
        (
            "newseye",
            "fr",
            "team4_bundle4_newseye_fr_1",
            "team4_bundle4_newseye_fr_2",
            "nerc_coarse",
        ),
        (
            "newseye",
            "de",
            "neurbsl_bundle3_newseye_de_1",
            "team4_bundle4_newseye_de_1",
            "nerc_coarse",
        ),
        (
            "ajmc",
            "de",
            "team2_bundle3_ajmc_de_1",
            "neurbsl_bundle3_ajmc_de_1",
            "nerc_fine",
        ),
        (
            "ajmc",
            "en",
            "team2_bundle1_ajmc_en_1",
            "team2_bundle1_ajmc_en_2",
            "nel",
        ),
    ];
    for (dataset, lang, a, b, task) in cases {
        let (gold, pa, tagset) = hipe2022(&data, dataset, lang, a);
        let (_, pb, _) = hipe2022(&data, dataset, lang, b);
        let dir = temp_dir(&format!("compare_official_{a}_{b}"));
        let (v, _, table) = compare(
            &dir,
            &gold,
            &pa,
            &pb,
            &["--tagset", &tagset, "--task", task],
            &[],
        );
        println!("{a} vs {b} ({task}):\n{table}");
        let oa: Value = serde_json::from_str(
            &std::fs::read_to_string(official.join(format!("{a}_{task}.json"))).unwrap(),
        )
        .unwrap();
        let ob: Value = serde_json::from_str(
            &std::fs::read_to_string(official.join(format!("{b}_{task}.json"))).unwrap(),
        )
        .unwrap();
        let rows = rows(&v);
        let columns: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert!(!columns.is_empty());
        assert_eq!(rows.len(), columns.len() * 4 * 3);
        for (col, regime, m, a_score, b_score, diff, [lo, hi], p) in rows {
            assert!(REGIMES.contains(&regime.as_str()));
            let key = format!("{m}_micro");
            let official_all = |o: &Value| {
                let c = &o[&col]["TIME-ALL"]["LED-ALL"];
                // NEL files have one block per n-best cutoff.
                let c = if task == "nel" {
                    &o["1"][&col]["TIME-ALL"]["LED-ALL"]
                } else {
                    c
                };
                c["ALL"][&regime][&key].as_f64().unwrap()
            };
            assert_eq!(a_score, official_all(&oa), "{a} {col}/{regime}/{m}");
            assert_eq!(b_score, official_all(&ob), "{b} {col}/{regime}/{m}");
            assert_eq!(diff, a_score - b_score);
            assert!(lo <= hi && lo.is_finite() && hi.is_finite());
            assert!(
                lo <= diff && diff <= hi,
                "{a} {col}/{regime}/{m}: {diff} outside [{lo}, {hi}]"
            );
            assert!(p > 0.0 && p <= 1.0);
        }
    }
}
