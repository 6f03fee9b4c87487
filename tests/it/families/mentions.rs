//! The mentions family (docs/generative.md): generative NER outputs made from real gold
//! (HIPE-2022, ../shared) with noise (case and punctuation changes, articles, duplicates,
//! hallucinated strings, wrong and unknown types, truncated and broken answers, prose around
//! the list), scored by each preset and by an independent re-implementation of the project's
//! own scorer (python/tests/oracles/mentions_oracle.py), number for number; the diagnostics
//! against an independent count; aligned gold spans against the spans family.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{fairscore, fairscore_json, json_cell, shared_data, temp_dir};

#[path = "mentions_data.rs"]
mod data;
#[path = "mentions_glued.rs"]
mod glued;
#[path = "mentions_kb.rs"]
mod kb;
#[path = "mentions_located.rs"]
mod located;
#[path = "mentions_pairing.rs"]
mod pairing;
#[path = "mentions_spans.rs"]
mod spans_run;

use data::{brat_units, gold_jsonl, hipe_run, hipe_units, runs, schema, write_jsonl, Unit};

fn python() -> Option<PathBuf> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("mentions: skipped: python3 is not available for the oracle");
        return None;
    }
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("python/tests/oracles/mentions_oracle.py"))
}

fn oracle(script: &Path, mode: &str, gold: &Path, pred: &Path) -> Value {
    let out = Command::new("python3")
        .arg(script)
        .args([mode, &gold.to_string_lossy(), &pred.to_string_lossy()])
        .output()
        .expect("run the oracle");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("oracle JSON")
}

fn scored(gold: &Path, pred: &Path, extra: &[&str]) -> Value {
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let mut args = vec![
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p, "--table", "json",
    ];
    args.extend_from_slice(extra);
    fairscore_json(&args)
}

fn cell(v: &Value, table: &str, row: &str, col: &str) -> f64 {
    json_cell(v, table, &[row], col).unwrap_or_else(|| panic!("{table} {row} {col}"))
}

/// The HIPE-2022 gold files used, as units (segments).
fn real_units(test: &str) -> Option<Vec<(String, Vec<Unit>)>> {
    let data = shared_data(test)?;
    let dir = data.join("hipe2022/gold");
    Some(
        ["ajmc-test-en", "newseye-test-fi", "newseye-test-sv"]
            .iter()
            .map(|n| {
                let p = dir.join(format!("HIPE-2022-v2.1-{n}.tsv"));
                ((*n).to_string(), hipe_units(&p, true))
            })
            .collect(),
    )
}

#[test]
fn each_preset_equals_its_projects_scorer_on_noisy_outputs_of_real_gold() {
    let Some(sets) = real_units("mentions presets") else {
        return;
    };
    let Some(script) = python() else { return };
    for (name, units) in &sets {
        assert!(units.len() > 20, "{name}: {} units", units.len());
    }
    presets_equal_the_oracle(&script, &temp_dir("mentions-presets"), &sets, 0x9E37_79B9);
}

/// The same on a brat project's documents (one annotator's folder as the gold).
#[test]
fn each_preset_equals_its_projects_scorer_on_noisy_outputs_of_brat_gold() {
    let Some(data) = shared_data("mentions presets brat") else {
        return;
    };
    let Some(script) = python() else { return };
    let units = brat_units(&data.join("brat/bratiaa-example/example-project/Lisa"));
    assert_eq!(units.len(), 7, "the brat example's documents");
    let sets = vec![("bratiaa-Lisa".to_string(), units)];
    presets_equal_the_oracle(&script, &temp_dir("mentions-presets-brat"), &sets, 0xB7A7);
}

/// Each preset's run of each set, and each set's fairscore run, scored by fairscore and by
/// the oracle: the counts equal, P, R and F1 bit for bit.
fn presets_equal_the_oracle(script: &Path, dir: &Path, sets: &[(String, Vec<Unit>)], seed0: u64) {
    for (seed, (name, units)) in sets.iter().enumerate() {
        let gold = dir.join(format!("{name}-gold.jsonl"));
        write_jsonl(&gold, &gold_jsonl(units));
        for (mode, rows) in runs(units, seed0 + seed as u64) {
            let pred = dir.join(format!("{name}-{mode}.jsonl"));
            write_jsonl(&pred, &rows);
            let mut cases = vec![(mode, vec![])];
            if mode == "gollie" {
                cases.push(("gollie-filter", vec!["--unfound", "drop"]));
            }
            for (oracle_mode, flags) in cases {
                let want = oracle(script, oracle_mode, &gold, &pred);
                let mut extra: Vec<&str> = flags.clone();
                if mode != "fairscore" {
                    extra.extend(["--mentions-preset", mode]);
                }
                let got = scored(&gold, &pred, &extra);
                let what = format!("{name} {oracle_mode}");
                let tp = cell(&got, "micro", "ALL", "TP");
                let fp = cell(&got, "micro", "ALL", "FP");
                let fn_ = cell(&got, "micro", "ALL", "FN");
                if mode == "fairscore" {
                    for (k, v) in [("TP", tp), ("FP", fp), ("FN", fn_)] {
                        assert_eq!(Some(v), want[k].as_f64(), "{what} {k}");
                    }
                    continue;
                }
                assert_eq!(Some(tp), want["TP"].as_f64(), "{what} TP");
                assert_eq!(Some(tp + fp), want["npred"].as_f64(), "{what} predicted");
                assert_eq!(Some(tp + fn_), want["ngold"].as_f64(), "{what} gold");
                for k in ["P", "R", "F1"] {
                    // Bit for bit: the same formula in the same order.
                    assert_eq!(
                        Some(cell(&got, "micro", "ALL", k)),
                        want[k].as_f64(),
                        "{what} {k}"
                    );
                }
                assert!(
                    tp > 50.0 && fp > 10.0 && fn_ > 10.0,
                    "{what}: too little to test ({tp} {fp} {fn_})"
                );
                if mode == "instructuie" {
                    // InstructUIE's audits (AuditLong, AuditRepeat, AuditRetard).
                    for k in ["long", "repetitive", "zero_tp"] {
                        let n = cell(&got, "diagnostics", k, "n");
                        assert_eq!(Some(n), want[k].as_f64(), "{what} {k}");
                        assert!(n > 0.0 || units.len() < 100, "{what}: no {k} to count");
                    }
                }
            }
        }
    }
}

#[test]
fn diagnostics_equal_an_independent_count() {
    let Some(sets) = real_units("mentions diagnostics") else {
        return;
    };
    let Some(script) = python() else { return };
    let dir = temp_dir("mentions-diagnostics");
    for (name, units) in &sets {
        let gold = dir.join(format!("{name}-gold.jsonl"));
        write_jsonl(&gold, &gold_jsonl(units));
        let (_, rows) = runs(units, 77).pop().expect("the default run");
        let pred = dir.join(format!("{name}-run.jsonl"));
        write_jsonl(&pred, &rows);
        let want = oracle(&script, "fairscore", &gold, &pred);
        let got = scored(&gold, &pred, &[]);
        for k in [
            "answers",
            "missing",
            "malformed",
            "prose",
            "empty",
            "predicted",
            "out_of_schema",
            "hallucinated",
            "duplicates",
            "gold",
            "gold_duplicates",
        ] {
            let n = cell(&got, "diagnostics", k, "n");
            assert_eq!(Some(n), want[k].as_f64(), "{name} {k}");
        }
        for k in [
            "malformed",
            "prose",
            "hallucinated",
            "duplicates",
            "out_of_schema",
        ] {
            assert!(
                want[k].as_f64().unwrap_or(0.0) > 0.0,
                "{name}: no {k} to count"
            );
        }
    }
}

#[test]
fn aligned_gold_spans_score_as_the_spans_family_on_real_gold() {
    let Some(data) = shared_data("mentions alignment") else {
        return;
    };
    let dir = temp_dir("mentions-align");
    for (n, name) in ["ajmc-test-en", "newseye-test-fi", "newseye-test-sv"]
        .iter()
        .enumerate()
    {
        let gold = data.join(format!("hipe2022/gold/HIPE-2022-v2.1-{name}.tsv"));
        let units = hipe_units(&gold, false);
        // The HIPE reader upper-cases the types of the NE columns.
        let types: Vec<String> = schema(&units).iter().map(|t| t.to_uppercase()).collect();
        for hallucinate in [false, true] {
            let seed = 0x51_7CC1_B727_220A + n as u64;
            let (pred, run, extra) = hipe_run(&gold, &units, seed, hallucinate, &dir);
            let extra = extra as f64;
            let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
            let want = fairscore_json(&[
                "evaluate", "--family", "spans", "--gold", &g, "--pred", &r, "--table", "json",
            ]);
            for align in ["exact", "fuzzy"] {
                let got = scored(&gold, &pred, &["--unit", "document", "--align", align]);
                let what = format!("{name} hallucinations {hallucinate} align {align}");
                assert_eq!(cell(&got, "diagnostics", "unaligned", "n"), extra, "{what}");
                // Per type, TP and FN are the gold's and agree; a retyped prediction is a false
                // positive of the type it was given here (as conlleval and seqeval count), of the
                // gold's type in the HIPE scorer's regimes: FP agrees over all types only.
                for l in std::iter::once("ALL").chain(types.iter().map(String::as_str)) {
                    let s = |c: &str| json_cell(&want, "strict", &[l], c).unwrap_or(0.0);
                    let m = |c: &str| json_cell(&got, "micro", &[l], c).unwrap_or(0.0);
                    assert_eq!(m("TP"), s("TP"), "{what} {l} TP");
                    assert_eq!(m("FN"), s("FN"), "{what} {l} FN");
                    if l == "ALL" && !hallucinate {
                        for c in ["FP", "P", "R", "F1"] {
                            assert_eq!(m(c), s(c), "{what} {l} {c}");
                        }
                    }
                }
                if hallucinate {
                    let fp = |v: &Value, t: &str| json_cell(v, t, &["ALL"], "FP").unwrap_or(0.0);
                    assert_eq!(fp(&got, "micro"), fp(&want, "strict") + extra, "{what}");
                }
                assert!(
                    cell(&want, "strict", "ALL", "FP") > 10.0,
                    "{what}: too little noise"
                );
            }
        }
    }
}

#[test]
fn a_string_occurring_twice_is_placed_as_documented() {
    let dir = temp_dir("mentions-twice");
    let gold = dir.join("gold.jsonl");
    let text = "Paris and Parisian Paris met Lyon in Paris";
    // Offsets: Paris 0-5, Paris 19-24, Lyon 29-33, Paris 37-42.
    let ents = json!([
        {"text": "Paris", "type": "LOC", "start": 19, "end": 24},
        {"text": "Lyon", "type": "LOC", "start": 29, "end": 33},
        {"text": "Paris", "type": "LOC", "start": 37, "end": 42}
    ]);
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    let cases: [(Value, [f64; 3]); 4] = [
        // The first occurrence (0-5), not the gold's: one FP, three FN less one.
        (json!([["Paris", "LOC"]]), [0.0, 1.0, 3.0]),
        // First 0-5, then the next unused after it at a word boundary (19-24, not Parisian).
        (json!([["Paris", "LOC"], ["Paris", "LOC"]]), [1.0, 1.0, 2.0]),
        // After Lyon (29-33) the search goes on from 33: Paris 37-42.
        (json!([["Lyon", "LOC"], ["Paris", "LOC"]]), [2.0, 0.0, 1.0]),
        // Ignoring case only with --align case; a fourth Paris has no place left.
        // paris unplaced, Paris 0-5, 19-24, 37-42, then Lyon from 42 on, then from the start.
        (
            json!([
                ["paris", "LOC"],
                ["Paris", "LOC"],
                ["Paris", "LOC"],
                ["Paris", "LOC"],
                ["Lyon", "LOC"]
            ]),
            [3.0, 2.0, 0.0],
        ),
    ];
    for (k, (ents, want)) in cases.into_iter().enumerate() {
        let pred = dir.join(format!("pred{k}.jsonl"));
        write_jsonl(&pred, &[json!({"id": "1", "entities": ents})]);
        let got = scored(&gold, &pred, &["--align", "exact"]);
        let row = [
            cell(&got, "micro", "ALL", "TP"),
            cell(&got, "micro", "ALL", "FP"),
            cell(&got, "micro", "ALL", "FN"),
        ];
        assert_eq!(row, want, "case {k}");
    }
    let pred = dir.join("pred-case.jsonl");
    let said = json!([
        ["paris", "LOC"],
        ["Paris", "LOC"],
        ["Paris", "LOC"],
        ["Paris", "LOC"],
        ["Paris", "LOC"],
        ["Lyon", "LOC"]
    ]);
    write_jsonl(&pred, &[json!({"id": "1", "entities": said})]);
    let got = scored(&gold, &pred, &["--align", "case"]);
    // paris 0-5, Paris 19-24, Paris 37-42; the fourth Paris has no place at word boundaries
    // left and takes the one inside `Parisian` (10-15, issue 46.14); the fifth finds no place
    // left after its string was placed: a duplicate with sets, a mention placed nowhere (a
    // false positive) with multisets; Lyon 29-33.
    let row = |v: &Value| [cell(v, "micro", "ALL", "TP"), cell(v, "micro", "ALL", "FP")];
    let diag = |v: &Value, k: &str| cell(v, "diagnostics", k, "n");
    assert_eq!(row(&got), [3.0, 2.0]);
    assert_eq!(
        (diag(&got, "duplicates"), diag(&got, "unaligned")),
        (1.0, 0.0)
    );
    // Offsets given with a mention are kept: Paris at 37-42, then the next Paris after it
    // goes back to the start (0-5).
    let given = dir.join("given.jsonl");
    let ents = json!([{"text": "Paris", "type": "LOC", "start": 37, "end": 42}, ["Paris", "LOC"]]);
    write_jsonl(&given, &[json!({"id": "1", "entities": ents})]);
    let v = scored(&gold, &given, &["--align", "exact"]);
    assert_eq!(row(&v), [1.0, 1.0]);
    let got = scored(&gold, &pred, &["--align", "case", "--match", "multiset"]);
    assert_eq!(row(&got), [3.0, 3.0]);
    assert_eq!(
        (diag(&got, "duplicates"), diag(&got, "unaligned")),
        (0.0, 1.0)
    );
}

#[test]
fn bad_records_are_errors_naming_the_line_and_bad_options_name_the_option() {
    let dir = temp_dir("mentions-errors");
    let gold = dir.join("gold.jsonl");
    write_jsonl(
        &gold,
        &[json!({"id": "1", "text": "Anna sings", "entities": [["Anna", "PER"]]})],
    );
    let pred = dir.join("pred.jsonl");
    std::fs::write(&pred, "{\"id\": \"1\", \"entities\": []}\n[1, 2]\n").unwrap();
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("pred.jsonl") && err.contains('2'),
        "{err}"
    );
    std::fs::write(&pred, "{\"id\": \"1\", \"output\": \"[[\\\"Anna\\\", \"}\n").unwrap();
    let v = scored(&gold, &pred, &[]);
    assert_eq!(cell(&v, "diagnostics", "malformed", "n"), 1.0);
    assert_eq!(cell(&v, "micro", "ALL", "FN"), 1.0);
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p, "--match", "bag",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("match"), "{err}");
}

#[test]
fn aligned_brat_annotations_score_as_the_spans_family() {
    let Some(data) = shared_data("mentions brat") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("mentions-brat");
    let gold = project.join("Lisa");
    for who in ["Maria", "Max", "Peter"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(project.join(who))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ann"))
            .collect();
        files.sort();
        let mut rows = Vec::new();
        for f in &files {
            // T lines: id, `LABEL start end`, text; in text order.
            let mut ents: Vec<(usize, String, String)> = std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with('T'))
                .filter_map(|l| {
                    let cells: Vec<&str> = l.split('\t').collect();
                    let head: Vec<&str> = cells.get(1)?.split(' ').collect();
                    let start = head.get(1)?.parse().ok()?;
                    Some((start, cells.get(2)?.to_string(), head[0].to_string()))
                })
                .collect();
            ents.sort();
            let list: Vec<Value> = ents.iter().map(|(_, t, l)| json!([t, l])).collect();
            let id = f.file_name().unwrap().to_string_lossy().into_owned();
            rows.push(json!({"id": id, "entities": list}));
        }
        let pred = dir.join(format!("{who}.jsonl"));
        write_jsonl(&pred, &rows);
        let (g, r) = (
            gold.to_string_lossy(),
            project.join(who).to_string_lossy().into_owned(),
        );
        let want = fairscore_json(&[
            "evaluate", "--family", "spans", "--gold", &g, "--pred", &r, "--table", "json",
        ]);
        for align in ["exact", "fuzzy"] {
            let got = scored(&gold, &pred, &["--align", align]);
            for c in ["TP", "FP", "FN", "P", "R", "F1"] {
                assert_eq!(
                    cell(&got, "micro", "ALL", c),
                    cell(&want, "strict", "ALL", c),
                    "{who} {align} {c}"
                );
            }
        }
        let got = scored(&gold, &pred, &["--align", "exact"]);
        assert!(
            cell(&got, "micro", "ALL", "FP") > 0.0,
            "{who}: the annotators agree fully"
        );
    }
}

#[test]
fn a_conll_golds_sentences_are_units_by_number_or_by_order() {
    let dir = temp_dir("mentions-conll");
    let gold = dir.join("gold.conll");
    std::fs::write(
        &gold,
        "Barack B-PER\nObama I-PER\nwas O\nin O\nHawaii B-LOC\n. O\n\nThe O\nUN B-ORG\nmet O\nObama B-PER\n. O\n",
    )
    .unwrap();
    // By number: sentence 2 first; sentence 1's Obama with a wrong type.
    let by_id = dir.join("by_id.jsonl");
    write_jsonl(
        &by_id,
        &[
            json!({"id": 2, "entities": [["UN", "ORG"], ["Obama", "PER"]]}),
            json!({"id": "1", "entities": [["Barack Obama", "LOC"], ["Hawaii", "LOC"]]}),
        ],
    );
    // By order, no ids: the same answers in the gold's order.
    let by_order = dir.join("by_order.jsonl");
    write_jsonl(
        &by_order,
        &[
            json!({"entities": [["Barack Obama", "LOC"], ["Hawaii", "LOC"]]}),
            json!({"output": "ORG: UN; PER: Obama"}),
        ],
    );
    for pred in [&by_id, &by_order] {
        let v = scored(&gold, pred, &[]);
        let row = |l: &str| {
            [
                cell(&v, "micro", l, "TP"),
                cell(&v, "micro", l, "FP"),
                cell(&v, "micro", l, "FN"),
            ]
        };
        assert_eq!(row("ALL"), [3.0, 1.0, 1.0], "{}", pred.display());
        assert_eq!(row("LOC"), [1.0, 1.0, 0.0]);
        assert_eq!(row("PER"), [1.0, 0.0, 1.0]);
        assert_eq!(v["unit"], "sentence");
        assert_eq!(v["units"], 2);
    }
    // Offsets come from the tokens joined by one space: Barack Obama is 0-12 of sentence 1.
    let v = scored(&gold, &by_id, &["--align", "exact", "--typed", "false"]);
    assert_eq!(cell(&v, "micro", "ALL", "TP"), 4.0);
    // One record too few without ids is an error naming the run.
    let short = dir.join("short.jsonl");
    write_jsonl(&short, &[json!({"entities": []})]);
    let (g, p) = (gold.to_string_lossy(), short.to_string_lossy());
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &g, "--pred", &p,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("short.jsonl")
            && err.contains("one record per gold unit"),
        "{err}"
    );
}

#[test]
fn fuzzy_alignment_places_changed_strings_step_by_step() {
    let dir = temp_dir("mentions-fuzzy");
    let gold = dir.join("gold.jsonl");
    // Offsets in characters, not bytes.
    let text = "Zürich, wo Jean-Paul Sartre nie in Zürich im Café de Flore sass.";
    let ents = json!([
        {"text": "Zürich", "type": "LOC", "start": 0, "end": 6},
        {"text": "Jean-Paul Sartre", "type": "PER", "start": 11, "end": 27},
        {"text": "Zürich", "type": "LOC", "start": 35, "end": 41},
        {"text": "Café de Flore", "type": "ORG", "start": 45, "end": 58}
    ]);
    let chars: Vec<char> = text.chars().collect();
    for e in ents.as_array().unwrap() {
        let (a, b) = (
            e["start"].as_u64().unwrap() as usize,
            e["end"].as_u64().unwrap() as usize,
        );
        let s: String = chars[a..b].iter().collect();
        assert_eq!(s, e["text"].as_str().unwrap(), "the test's offsets");
    }
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    let pred = dir.join("pred.jsonl");
    write_jsonl(
        &pred,
        &[json!({"id": "1", "entities": [
            // exact; case-insensitive; fuzzy (hyphen dropped); fuzzy (accent and case);
            // a hallucination; the string said twice takes the second Zürich.
            ["Zürich", "LOC"],
            ["ZÜRICH", "LOC"],
            ["Jean Paul Sartre", "PER"],
            ["cafe de flore", "ORG"],
            ["Zorglub of Xantippe", "PER"]
        ]})],
    );
    let row = |v: &Value| {
        [
            cell(v, "micro", "ALL", "TP"),
            cell(v, "micro", "ALL", "FP"),
            cell(v, "micro", "ALL", "FN"),
            cell(v, "diagnostics", "unaligned", "n"),
        ]
    };
    // exact: the first Zürich only; case: both Zürich; fuzzy: all four.
    assert_eq!(
        row(&scored(&gold, &pred, &["--align", "exact"])),
        [1.0, 4.0, 3.0, 4.0]
    );
    assert_eq!(
        row(&scored(&gold, &pred, &["--align", "case"])),
        [2.0, 3.0, 2.0, 3.0]
    );
    let v = scored(&gold, &pred, &["--align", "fuzzy"]);
    assert_eq!(row(&v), [4.0, 1.0, 0.0, 1.0]);
    let sig = v["signature"].as_str().unwrap_or_default();
    assert!(sig.contains("|align:fuzzy|"), "{sig}");
}
