//! `score --bootstrap N`: intervals beside every micro score of the JSON, nothing else
//! changed; deterministic for a seed whatever the thread count; narrower as documents are
//! duplicated; options checked. Data tests use ../shared (skipped locally when absent, failing
//! under CI).

use crate::common::*;
use serde_json::Value;
use std::path::Path;

const GOLD: &str = "reference_runs/HIPE-2022-demo-test-en.tsv";
const RUN: &str = "reference_runs/demo_bundle4_newseye_en_1.tsv";
const JSON_NAME: &str = "demo_bundle4_newseye_en_1_nerc_coarse.json";
const TSV_NAME: &str = "demo_bundle4_newseye_en_1_nerc_coarse.tsv";

fn manifest(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(p)
        .to_string_lossy()
        .into_owned()
}

/// `score` of the demo run into `out` with extra arguments; returns (TSV, JSON) texts.
fn score_demo(
    gold: &str,
    run: &str,
    out: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (String, String) {
    let mut args = vec![
        "score",
        "--ref",
        gold,
        "--pred",
        run,
        "--task",
        "nerc_coarse",
        "--hipe_edition",
        "hipe-2022",
        "--outdir",
    ];
    let outdir = out.to_string_lossy().into_owned();
    args.push(&outdir);
    args.extend_from_slice(extra);
    let o = fairscore_env(&args, env);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tsv = std::fs::read_to_string(out.join(TSV_NAME)).unwrap();
    let json = std::fs::read_to_string(out.join(JSON_NAME)).unwrap();
    (tsv, json)
}

/// The JSON text without its `"X_micro_ci": [lo, hi],` entries (four lines each in Python's
/// layout); the result must be the plain JSON byte for byte.
fn strip_intervals(json: &str) -> String {
    let mut out = String::new();
    let mut skip = 0;
    for line in json.split_inclusive('\n') {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("\"P_micro_ci\": [")
            || t.starts_with("\"R_micro_ci\": [")
            || t.starts_with("\"F1_micro_ci\": [")
        {
            skip = 3;
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Every object with a micro score: (path, point estimates, intervals) per measure.
fn intervals(v: &Value, path: &str, out: &mut Vec<(String, String, f64, [f64; 2])>) {
    if let Value::Object(m) = v {
        for key in ["P_micro", "R_micro", "F1_micro"] {
            if let Some(x) = m.get(key) {
                let ci = m
                    .get(&format!("{key}_ci"))
                    .and_then(|c| c.as_array())
                    .unwrap_or_else(|| panic!("{path}: {key}_ci missing"));
                let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                out.push((
                    path.to_string(),
                    key.to_string(),
                    x.as_f64().unwrap(),
                    [lo, hi],
                ));
            }
        }
        for (k, child) in m {
            intervals(child, &format!("{path}/{k}"), out);
        }
    }
}

fn all_intervals(json: &str) -> Vec<(String, String, f64, [f64; 2])> {
    let v: Value = serde_json::from_str(json).expect("JSON");
    let mut out = Vec::new();
    intervals(&v, "", &mut out);
    out
}

#[test]
fn bootstrap_adds_intervals_and_changes_nothing_else() {
    let (gold, run) = (manifest(GOLD), manifest(RUN));
    let plain_dir = temp_dir("bootstrap_plain");
    let (tsv, json) = score_demo(&gold, &run, &plain_dir, &[], &[]);
    let ci_dir = temp_dir("bootstrap_ci");
    let (tsv_ci, json_ci) = score_demo(&gold, &run, &ci_dir, &["--bootstrap", "2000"], &[]);
    assert_eq!(tsv, tsv_ci, "the TSV must not change with --bootstrap");
    assert_ne!(json, json_ci);
    assert_eq!(
        strip_intervals(&json_ci),
        json,
        "only the interval entries may be added"
    );
    let expected =
        std::fs::read_to_string(manifest(&format!("reference_runs/expected/{TSV_NAME}"))).unwrap();
    assert_eq!(tsv, expected);

    let iv = all_intervals(&json_ci);
    // 3 labels (LOC, ORG, PERS) + ALL, 4 regimes, 3 measures.
    assert_eq!(iv.len(), 4 * 4 * 3, "{iv:?}");
    for (path, key, x, [lo, hi]) in &iv {
        assert!(lo.is_finite() && hi.is_finite() && lo <= hi, "{path} {key}");
        assert!(
            (0.0..=1.0).contains(lo) && (0.0..=1.0).contains(hi),
            "{path} {key}"
        );
        assert!(lo <= x && x <= hi, "{path} {key}: {x} outside [{lo}, {hi}]");
    }
}

#[test]
fn fair_and_weighted_blocks_get_intervals() {
    let (gold, run) = (manifest(GOLD), manifest(RUN));
    let dir = temp_dir("bootstrap_fair");
    let weights = WEIGHTS;
    let extra = ["--regimes", "fuzzy,strict,fair", "--weights", weights];
    let (_, plain) = score_demo(&gold, &run, &dir, &extra, &[]);
    let mut with = extra.to_vec();
    with.extend(["--bootstrap", "500", "--seed", "3"]);
    let (_, json) = score_demo(&gold, &run, &dir, &with, &[]);
    assert_eq!(strip_intervals(&json), plain);
    let iv = all_intervals(&json);
    let fair = iv.iter().filter(|(p, ..)| p.ends_with("/fair")).count();
    let weighted = iv.iter().filter(|(p, ..)| p.ends_with("/weighted")).count();
    assert_eq!((fair, weighted), (12, 12), "{iv:?}");
    for (path, key, x, [lo, hi]) in &iv {
        assert!(lo <= x && x <= hi, "{path} {key}: {x} outside [{lo}, {hi}]");
    }
}

/// The JSON of `score --bootstrap 3000 --seed SEED --confidence 0.9` of `gold` and `run`
/// with `RAYON_NUM_THREADS` = `threads` (`None`: rayon's default).
fn bootstrap_json(
    gold: &str,
    run: &str,
    extra: &[&str],
    seed: &str,
    threads: Option<&str>,
) -> String {
    let out = temp_dir(&format!(
        "bootstrap_seed{seed}_threads{}",
        threads.unwrap_or("default")
    ));
    let outdir = out.to_string_lossy().into_owned();
    let mut args = vec![
        "score",
        "--ref",
        gold,
        "--pred",
        run,
        "--task",
        "nerc_coarse",
        "--hipe_edition",
        "hipe-2022",
        "--outdir",
        &outdir,
        "--bootstrap",
        "3000",
        "--seed",
        seed,
        "--confidence",
        "0.9",
    ];
    args.extend_from_slice(extra);
    let env: Vec<(&str, &str)> = threads
        .map(|t| ("RAYON_NUM_THREADS", t))
        .into_iter()
        .collect();
    let o = fairscore_env(&args, &env);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .expect("a JSON output");
    std::fs::read_to_string(json.path()).unwrap()
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    // The demo repeated 8 times (16 documents; 3000 resamples are 12 blocks).
    let dir = temp_dir("bootstrap_threads_inputs");
    let gold = write_file(
        &dir,
        "gold.tsv",
        &repeat_documents(&std::fs::read_to_string(manifest(GOLD)).unwrap(), 8),
    );
    let run = write_file(
        &dir,
        "demo_bundle4_newseye_en_1.tsv",
        &repeat_documents(&std::fs::read_to_string(manifest(RUN)).unwrap(), 8),
    );
    let one = bootstrap_json(&gold, &run, &[], "7", Some("1"));
    let two = bootstrap_json(&gold, &run, &[], "7", Some("2"));
    assert_eq!(one, two);
}

#[test]
fn same_seed_same_bytes_for_any_thread_count_hipe2022() {
    let Some(data) = shared_data("same_seed_same_bytes_for_any_thread_count_hipe2022") else {
        return;
    };
    let d = data.join("hipe2022");
    let gold = d.join("gold/HIPE-2022-v2.1-ajmc-test-de.tsv");
    let run = d.join("submissions/team2_bundle3_ajmc_de_1.tsv");
    let tagset = d.join("resources/tagset-hipe2022-all.txt");
    let (g, r, t) = (
        gold.to_string_lossy(),
        run.to_string_lossy(),
        tagset.to_string_lossy(),
    );
    let extra = ["--tagset", t.as_ref()];
    let one = bootstrap_json(&g, &r, &extra, "7", Some("1"));
    let two = bootstrap_json(&g, &r, &extra, "7", Some("2"));
    assert_eq!(one, two);
    let other = bootstrap_json(&g, &r, &extra, "8", None);
    assert_ne!(one, other, "another seed should give other intervals");
    assert_eq!(strip_intervals(&one), strip_intervals(&other));
}

/// The strict ALL F1 interval of `gold` and `run` repeated 1, 2 and 4 times: (F1, width).
fn widths_when_repeated(gold: &str, run: &str, name: &str, extra: &[&str]) -> Vec<(f64, f64)> {
    let (g, r) = (
        std::fs::read_to_string(gold).unwrap(),
        std::fs::read_to_string(run).unwrap(),
    );
    let run_name = Path::new(run)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let json_name = run_name.replace(".tsv", "_nerc_coarse.json");
    let mut out = Vec::new();
    for k in [1, 2, 4] {
        let dir = temp_dir(&format!("bootstrap_{name}_x{k}"));
        let gk = write_file(&dir, "gold.tsv", &repeat_documents(&g, k));
        let rk = write_file(&dir, &run_name, &repeat_documents(&r, k));
        let mut args = vec![
            "score",
            "--ref",
            &gk,
            "--pred",
            &rk,
            "--task",
            "nerc_coarse",
            "--hipe_edition",
            "hipe-2022",
            "--bootstrap",
            "10000",
        ];
        let outdir = dir.to_string_lossy().into_owned();
        args.extend(["--outdir", &outdir]);
        args.extend_from_slice(extra);
        let o = fairscore(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&json_name)).unwrap()).unwrap();
        let s = &v["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"]["strict"];
        let f1 = s["F1_micro"].as_f64().unwrap();
        let ci = s["F1_micro_ci"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= f1 && f1 <= hi, "x{k}: {f1} outside [{lo}, {hi}]");
        out.push((f1, hi - lo));
    }
    println!("{name}: strict F1 and 95% interval width at 1x, 2x, 4x: {out:?}");
    out
}

fn assert_narrowing(w: &[(f64, f64)], strictly: bool) {
    assert!(
        w.iter().all(|(f, _)| (f - w[0].0).abs() < 1e-12),
        "same F1: {w:?}"
    );
    if strictly {
        assert!(w[1].1 < w[0].1, "narrowing: {w:?}");
    } else {
        assert!(w[1].1 <= w[0].1, "narrowing: {w:?}");
    }
    assert!(w[2].1 < w[1].1, "narrowing: {w:?}");
    // The width shrinks about as 1/sqrt(k): 4x halves it; allow Monte-Carlo and lumpiness.
    assert!(w[2].1 < 0.75 * w[0].1, "4x should be much narrower: {w:?}");
}

#[test]
fn intervals_narrow_as_documents_are_duplicated() {
    // Two documents: at 1x and 2x the 2.5 % and 97.5 % quantiles are both still the extreme
    // resamples (all documents alike has probability 1/4 and 1/16 per side), so the width can
    // only shrink from 4x on.
    let w = widths_when_repeated(&manifest(GOLD), &manifest(RUN), "demo", &[]);
    assert_narrowing(&w, false);
}

#[test]
fn intervals_narrow_as_documents_are_duplicated_hipe2022() {
    let Some(data) = shared_data("intervals_narrow_as_documents_are_duplicated_hipe2022") else {
        return;
    };
    let d = data.join("hipe2022");
    let tagset = d.join("resources/tagset-hipe2022-all.txt");
    let w = widths_when_repeated(
        &d.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv")
            .to_string_lossy(),
        &d.join("submissions/team4_bundle4_newseye_fr_1.tsv")
            .to_string_lossy(),
        "hipe2022-newseye-fr-team4-1",
        &["--tagset", &tagset.to_string_lossy()],
    );
    assert_narrowing(&w, true);
}

#[test]
fn bad_resampling_options_are_usage_errors_naming_the_option() {
    let (gold, run) = (manifest(GOLD), manifest(RUN));
    let dir = temp_dir("bootstrap_bad");
    let outdir = dir.to_string_lossy().into_owned();
    let cases: [(&[&str], &str); 8] = [
        (&["--bootstrap", "0"], "--bootstrap"),
        (&["--bootstrap", "10000001"], "--bootstrap"),
        (&["--bootstrap=-3"], "--bootstrap"),
        (&["--bootstrap", "100", "--confidence", "1"], "--confidence"),
        (&["--bootstrap", "100", "--confidence", "0"], "--confidence"),
        (
            &["--bootstrap", "100", "--confidence", "nan"],
            "--confidence",
        ),
        (&["--bootstrap", "100", "--confidence=-0.5"], "--confidence"),
        (&["--seed", "3"], "--seed"),
    ];
    for (extra, option) in cases {
        let mut args = vec![
            "score",
            "--ref",
            &gold,
            "--pred",
            &run,
            "--task",
            "nerc_coarse",
            "--hipe_edition",
            "hipe-2022",
            "--outdir",
            &outdir,
        ];
        args.extend_from_slice(extra);
        let o = fairscore(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(option), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
}

/// With --bootstrap, every official HIPE-2022 output of these runs is still reproduced once
/// the interval entries are taken out (NERC and NEL, where every link is a label).
#[test]
fn hipe2022_outputs_with_bootstrap_are_official_plus_intervals() {
    let Some(data) = shared_data("hipe2022_outputs_with_bootstrap_are_official_plus_intervals")
    else {
        return;
    };
    let d = data.join("hipe2022");
    let tagset = d
        .join("resources/tagset-hipe2022-all.txt")
        .to_string_lossy()
        .into_owned();
    let cases = [
        ("newseye", "fr", "team4_bundle4_newseye_fr_1", "nerc_coarse"),
        ("ajmc", "en", "team1_bundle4_ajmc_en_2", "nerc_coarse"),
        ("newseye", "de", "neurbsl_bundle3_newseye_de_1", "nerc_fine"),
        ("ajmc", "en", "team2_bundle1_ajmc_en_1", "nel"),
    ];
    for (dataset, lang, run, task) in cases {
        let gold = d.join(format!("gold/HIPE-2022-v2.1-{dataset}-test-{lang}.tsv"));
        let pred = d.join(format!("submissions/{run}.tsv"));
        let dir = temp_dir(&format!("bootstrap_official_{run}_{task}"));
        let outdir = dir.to_string_lossy().into_owned();
        let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
        let args = [
            "score",
            "--ref",
            &g,
            "--pred",
            &p,
            "--task",
            task,
            "--tagset",
            &tagset,
            "--hipe_edition",
            "hipe-2022",
            "--outdir",
            &outdir,
            "--bootstrap",
            "1000",
        ];
        let o = fairscore(&args);
        assert!(
            o.status.success(),
            "{run}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let name = format!("{run}_{task}");
        let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let official = std::fs::read_to_string(d.join(format!("official/{name}.json"))).unwrap();
        assert_eq!(strip_intervals(&json), official, "{name}");
        let tsv = std::fs::read(dir.join(format!("{name}.tsv"))).unwrap();
        let official_tsv = std::fs::read(d.join(format!("official/{name}.tsv"))).unwrap();
        assert_eq!(tsv, official_tsv, "{name}");
        let iv = all_intervals(&json);
        assert!(!iv.is_empty());
        let outside = iv
            .iter()
            .filter(|(_, _, x, [lo, hi])| !(lo <= x && x <= hi))
            .count();
        for (path, key, _, [lo, hi]) in &iv {
            assert!(
                lo.is_finite() && hi.is_finite() && lo <= hi,
                "{name}{path} {key}"
            );
        }
        // A percentile interval may miss the point estimate of a skewed statistic (a label in
        // one or two documents); over all labels that is rare.
        assert!(
            outside * 20 <= iv.len(),
            "{name}: {outside} of {} outside",
            iv.len()
        );
        println!(
            "{name}: {} intervals, {outside} not containing the point estimate",
            iv.len()
        );
    }
}
