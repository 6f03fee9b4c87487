//! The `hipe` family against the official HIPE scorer: for every official HIPE-2022 JSON
//! output in ../shared (NERC coarse and fine, NEL, relaxed NEL; every team and run), the
//! family's tables hold exactly the official micro P, R, F1, TP, FP and FN of every column,
//! regime (fuzzy = ent_type, strict) and label, and no row the official output lacks (relaxed
//! NEL: the run normalized against the organisers' `_histonorm` gold, `normalize_run`, as
//! they did). Relaxed NEL in one step (`relaxed`: gold and run normalized in memory) gives
//! `score --relaxed`'s numbers. The command line (`evaluate --family hipe --json -`) gives
//! the library's numbers.

use std::collections::BTreeMap;
use std::path::Path;

use fairscore::family::{self, Options};
use fairscore::table::Results;

use crate::common::*;

const TAGSET: &str = "hipe2022/resources/tagset-hipe2022-all.txt";

fn map_for(dataset: &str) -> &'static str {
    if dataset == "ajmc" {
        "hipe2022/resources/ajmc-alternatives-QID-mapping-ID-mapping.tsv"
    } else {
        "hipe2022/resources/historico-fuzzy-QID-mapping-ID-mapping.tsv"
    }
}

/// The official micro numbers of a JSON output: (table, column, regime, label) → measure →
/// value, measures named as the family's columns.
type Official = BTreeMap<(String, String, String, String), BTreeMap<String, f64>>;

fn official_numbers(v: &serde_json::Value, nel: bool) -> Official {
    let mut out = Official::new();
    let by_cutoff: Vec<(String, &serde_json::Value)> = if nel {
        v.as_object()
            .expect("an object")
            .iter()
            .map(|(k, x)| (k.clone(), x))
            .collect()
    } else {
        vec![("1".into(), v)]
    };
    for (cutoff, cols) in by_cutoff {
        let table = if cutoff == "1" {
            "micro".to_string()
        } else {
            format!("micro@{cutoff}")
        };
        for (col, times) in cols.as_object().expect("columns") {
            for (time, leds) in times.as_object().expect("periods") {
                for (led, labels) in leds.as_object().expect("noise levels") {
                    assert_eq!((time.as_str(), led.as_str()), ("TIME-ALL", "LED-ALL"));
                    for (label, regimes) in labels.as_object().expect("labels") {
                        for (official, ours) in [("ent_type", "fuzzy"), ("strict", "strict")] {
                            let r = &regimes[official];
                            let mut m = BTreeMap::new();
                            for (from, to) in [
                                ("P_micro", "P"),
                                ("R_micro", "R"),
                                ("F1_micro", "F1"),
                                ("TP", "TP"),
                                ("FP", "FP"),
                                ("FN", "FN"),
                            ] {
                                let x = r[from]
                                    .as_f64()
                                    .unwrap_or_else(|| panic!("{col} {label} {official}: {from}"));
                                m.insert(to.to_string(), x);
                            }
                            out.insert(
                                (table.clone(), col.clone(), ours.to_string(), label.clone()),
                                m,
                            );
                        }
                    }
                }
            }
        }
    }
    out
}

/// Compares the family's results with the official numbers: every official number equal (as
/// f64, bit for bit), every row of the family in the official output. Returns the numbers
/// compared, or the first difference.
fn compare(ours: &Results, official: &Official) -> Result<usize, String> {
    let mut n = 0;
    let mut rows = 0;
    // The micro tables (the adequacy table counts the gold, beside them: not official).
    for t in ours.tables.iter().filter(|t| t.name != "adequacy") {
        for row in &t.rows {
            rows += 1;
            let key = (
                t.name.clone(),
                row.key[0].clone(),
                row.key[1].clone(),
                row.key[2].clone(),
            );
            let Some(m) = official.get(&key) else {
                return Err(format!("{key:?}: a row the official output does not have"));
            };
            for (measure, want) in m {
                let c = t
                    .column(measure)
                    .ok_or_else(|| format!("no column {measure}"))?;
                let got = row.values[c]
                    .as_f64()
                    .ok_or_else(|| format!("{key:?} {measure}: no value"))?;
                if got.to_bits() != want.to_bits() && !(got == 0.0 && *want == 0.0) {
                    return Err(format!("{key:?} {measure}: {got} here, {want} officially"));
                }
                n += 1;
            }
        }
    }
    if rows != official.len() {
        return Err(format!(
            "{rows} rows here, {} in the official output",
            official.len()
        ));
    }
    Ok(n)
}

/// An option's value as given to the family: files under `data`.
fn value(data: &Path, k: &str, v: &str) -> String {
    if matches!(k, "tagset" | "relaxed" | "normalize_run") {
        data.join(v).display().to_string()
    } else {
        v.to_string()
    }
}

fn evaluate(data: &Path, opts: &[(&str, String)], gold: &str, run: &str) -> Results {
    let mut o = Options::default();
    for (k, v) in opts {
        o.set(k, &value(data, k, v))
            .unwrap_or_else(|e| panic!("{k}: {e}"));
    }
    let fam = family::build("hipe", &o).unwrap_or_else(|e| panic!("{run}: {e}"));
    family::evaluate(fam.as_ref(), &data.join(gold), &data.join(run), None)
        .unwrap_or_else(|e| panic!("{run}: {e}"))
}

/// The command line's numbers equal the library's, cell for cell.
fn cli_agrees(data: &Path, opts: &[(&str, String)], gold: &str, run: &str, lib: &Results) -> usize {
    let mut args: Vec<String> = vec![
        "evaluate".into(),
        "--family".into(),
        "hipe".into(),
        "--gold".into(),
        data.join(gold).display().to_string(),
        "--pred".into(),
        data.join(run).display().to_string(),
        "--json".into(),
        "-".into(),
    ];
    for (k, v) in opts {
        let flag = match *k {
            "normalize_run" => "--normalize-run".to_string(),
            k => format!("--{k}"),
        };
        args.extend([flag, value(data, k, v)]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = fairscore_json(&refs);
    let mut n = 0;
    for t in &lib.tables {
        for row in &t.rows {
            let key: Vec<&str> = row.key.iter().map(String::as_str).collect();
            for (c, col) in t.columns.iter().enumerate() {
                let got = json_cell(&v, &t.name, &key, &col.name);
                assert_eq!(got, row.values[c].as_f64(), "{run} {key:?} {}", col.name);
                n += 1;
            }
        }
    }
    n
}

#[test]
fn hipe_family_gives_every_official_hipe2022_micro_number() {
    let Some(data) = shared_data("hipe_family_gives_every_official_hipe2022_micro_number") else {
        return;
    };
    let official_dir = data.join("hipe2022/official");
    let mut names: Vec<String> = std::fs::read_dir(&official_dir)
        .expect("the official outputs")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let (mut files, mut numbers, mut one_step, mut cli) = (0usize, 0usize, 0usize, 0usize);
    let mut one_step_numbers = 0usize;
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for name in &names {
        let stem = name.trim_end_matches(".json");
        let kind = ["_nerc_coarse", "_nerc_fine", "_nel_relaxed", "_nel"]
            .into_iter()
            .find(|k| stem.ends_with(k))
            .unwrap_or_else(|| panic!("{name}: an output of no known task"));
        let run_name = &stem[..stem.len() - kind.len()];
        let p: Vec<&str> = run_name.split('_').collect();
        let (dataset, lang) = (p[2], p[3]);
        let run = format!("hipe2022/submissions/{run_name}.tsv");
        let plain_gold = format!("hipe2022/gold/HIPE-2022-v2.1-{dataset}-test-{lang}.tsv");
        let task = kind.trim_start_matches('_').trim_end_matches("_relaxed");
        let mut opts: Vec<(&str, String)> = vec![
            ("task", task.into()),
            ("hipe_edition", "hipe-2022".into()),
            ("tagset", TAGSET.into()),
        ];
        let relaxed = kind == "_nel_relaxed";
        let gold = if relaxed {
            opts.push(("n_best", "1,3,5".into()));
            format!("hipe2022/gold/HIPE-2022-v2.1-{dataset}-test-{lang}_histonorm.tsv")
        } else {
            plain_gold.clone()
        };
        let text = std::fs::read_to_string(official_dir.join(name)).expect("official JSON");
        let v: serde_json::Value = serde_json::from_str(&text).expect("official JSON parses");
        let official = official_numbers(&v, task == "nel");
        // The organisers' way: the run normalized, the gold normalized beforehand.
        let mut used = opts.clone();
        if relaxed {
            used.push(("normalize_run", map_for(dataset).into()));
        }
        let ours = evaluate(&data, &used, &gold, &run);
        match compare(&ours, &official) {
            Ok(n) => {
                files += 1;
                numbers += n;
                *per_kind.entry(kind).or_default() += 1;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
        // One command-line run per kind of output.
        if per_kind.get(kind) == Some(&1) {
            cli += cli_agrees(&data, &used, &gold, &run, &ours);
        }
        if relaxed {
            // One step: gold and run normalized in memory from the plain gold, as `score
            // --relaxed` does (the organisers normalized their gold otherwise, so these are
            // `score`'s numbers, not the official file's).
            let mut o = opts.clone();
            o.push(("relaxed", map_for(dataset).into()));
            let ours = evaluate(&data, &o, &plain_gold, &run);
            let mut so =
                fairscore::ScoreOptions::new(fairscore::Task::Nel, fairscore::Edition::Hipe2022);
            so.skip_check = true;
            so.n_best = vec![1, 3, 5];
            so.tagset = Some(fairscore::eval::read_tagset(&data.join(TAGSET)).expect("tag set"));
            so.relaxed_map = Some(fairscore::read_map(&data.join(map_for(dataset))).expect("map"));
            let scored = fairscore::score_paths(&data.join(&plain_gold), &data.join(&run), &so)
                .expect("score --relaxed");
            let v: serde_json::Value = serde_json::from_str(&scored.json).expect("JSON");
            match compare(&ours, &official_numbers(&v, true)) {
                Ok(n) => {
                    one_step += 1;
                    one_step_numbers += n;
                }
                Err(e) => failures.push(format!("{name} (relaxed in one step): {e}")),
            }
        }
    }
    eprintln!(
        "hipe family: {files} official HIPE-2022 JSON files ({per_kind:?}): {numbers} numbers equal; {one_step} relaxed NEL in one \
         step: {one_step_numbers} numbers equal to `score --relaxed`'s; {cli} cells of `evaluate --json` equal \
         the library's"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(files, names.len(), "every official JSON output is compared");
    assert_eq!(
        one_step, per_kind["_nel_relaxed"],
        "one step for every relaxed run"
    );
    assert!(files >= 68, "only {files} official files found");
    for k in ["_nerc_coarse", "_nerc_fine", "_nel", "_nel_relaxed"] {
        assert!(per_kind.get(k).copied().unwrap_or(0) > 0, "no {k} output");
    }
    assert!(cli > 0);
}
