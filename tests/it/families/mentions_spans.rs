//! Generative runs in the span families (`--align` with `--family spans|fair|muc` and
//! `inspect`, docs/generative.md, "Aligned runs in the span families"): entity lists made from
//! the gold's own spans (HIPE-2022 test sets, the brat project's annotators) and placed back
//! give exactly the scores of the same spans given as a token run (the brat runs: the
//! exact-match scores, as some strings are placed at an earlier occurrence); unplaced strings
//! are false positives counted in the warning; noisy lists (case, duplicates, hallucinations)
//! have counts equal to a count made here; the page of `inspect` marks every span once.

use std::path::Path;

use serde_json::{json, Value};

use super::data::{hipe_run, hipe_units, write_jsonl, Rng, ZORGLUB};
use crate::common::{fairscore, fairscore_json, json_cell, shared_data, temp_dir};

/// `evaluate --family FAMILY --table json` of gold and run with `extra` flags.
fn family(name: &str, gold: &Path, pred: &Path, extra: &[&str]) -> Value {
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    let mut args = vec![
        "evaluate", "--family", name, "--gold", &g, "--pred", &p, "--table", "json",
    ];
    args.extend_from_slice(extra);
    fairscore_json(&args)
}

/// Every (table, row label, column) count of a family's tables that an aligned run must
/// equal (the adequacy table is the gold's, the confusion table is compared too).
fn counts(v: &Value) -> Vec<(String, String, String, f64)> {
    let mut out = Vec::new();
    for t in v["tables"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        for r in t["rows"].as_array().unwrap() {
            let key = r["key"].to_string();
            for (c, x) in r["scores"].as_object().unwrap() {
                if let Some(x) = x.as_f64() {
                    out.push((name.to_string(), key.clone(), c.clone(), x));
                }
            }
        }
    }
    out.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
    out
}

/// The ALL row's `col` of `table`, when the table has that column.
fn cell_of(v: &Value, table: &str, col: &str) -> Option<f64> {
    let t = v["tables"]
        .as_array()?
        .iter()
        .find(|t| t["name"] == table)?;
    t["rows"]
        .as_array()?
        .iter()
        .find(|r| r["key"]["label"] == "ALL")?["scores"][col]
        .as_f64()
}

fn all(v: &Value, table: &str, col: &str) -> f64 {
    json_cell(v, table, &["ALL"], col).unwrap_or_else(|| panic!("{table} ALL {col}"))
}

/// The warning of an aligned run, with its counts.
fn warning(v: &Value) -> String {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|w| w.contains("predicted mention(s)"))
        .expect("the aligned run's warning")
        .to_string()
}

#[test]
fn aligned_runs_score_as_the_same_spans_in_spans_fair_and_muc_on_real_gold() {
    let Some(data) = shared_data("aligned runs in the span families") else {
        return;
    };
    let dir = temp_dir("mentions-spans-hipe");
    for (n, name) in ["ajmc-test-en", "newseye-test-fi", "newseye-test-sv"]
        .iter()
        .enumerate()
    {
        let gold = data.join(format!("hipe2022/gold/HIPE-2022-v2.1-{name}.tsv"));
        let units = hipe_units(&gold, false);
        for hallucinate in [false, true] {
            let seed = 0xA11_6E0 + n as u64;
            let (jsonl, tsv, extra) = hipe_run(&gold, &units, seed, hallucinate, &dir);
            for fam in ["spans", "fair", "muc"] {
                let want = family(fam, &gold, &tsv, &[]);
                for align in ["exact", "fuzzy"] {
                    let got = family(
                        fam,
                        &gold,
                        &jsonl,
                        &["--unit", "document", "--align", align],
                    );
                    let what = format!("{name} {fam} {align} hallucinations {hallucinate}");
                    let w = warning(&got);
                    assert!(w.contains(&format!(" {extra} unaligned")), "{what}: {w}");
                    if !hallucinate {
                        assert_eq!(counts(&got), counts(&want), "{what}");
                        continue;
                    }
                    assert!(extra > 0, "{what}: no hallucination drawn");
                    // Each hallucination is one false positive of every regime (spans), of
                    // both evaluations (fair), three spurious tokens (muc); the rest agrees.
                    let e = extra as f64;
                    let changed: &[(&str, &str, f64)] = match fam {
                        "spans" => &[
                            ("strict", "FP", e),
                            ("partial", "FP", e),
                            ("exact", "FP", e),
                            ("ent_type", "FP", e),
                        ],
                        "fair" => &[("fair", "FP", e), ("traditional", "FP", e)],
                        _ => &[("muc", "SPU", 3.0 * e), ("muc", "ACT", 3.0 * e)],
                    };
                    for (t, c, d) in changed {
                        assert_eq!(all(&got, t, c), all(&want, t, c) + d, "{what} {t} {c}");
                    }
                    for t in ["strict", "partial", "fair", "traditional", "muc"] {
                        for c in ["TP", "FN", "COR", "PAR", "INC", "MIS", "LE", "BE", "LBE"] {
                            if let Some(x) = cell_of(&want, t, c) {
                                assert_eq!(all(&got, t, c), x, "{what} {t} {c}");
                            }
                        }
                    }
                }
                let (t, c) = match fam {
                    "spans" => ("strict", "FP"),
                    "fair" => ("traditional", "FP"),
                    _ => ("muc", "INC"),
                };
                assert!(all(&want, t, c) > 10.0, "{name} {fam}: too little noise");
            }
        }
    }
}

#[test]
fn aligned_brat_annotators_score_as_their_brat_files_in_every_span_family() {
    let Some(data) = shared_data("aligned brat runs in the span families") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("mentions-spans-brat");
    let gold = project.join("Lisa");
    for who in ["Maria", "Max", "Peter"] {
        let rows: Vec<Value> = super::data::brat_units(&project.join(who))
            .iter()
            .map(|u| {
                let list: Vec<Value> = u
                    .mentions
                    .iter()
                    .map(|(t, l, _, _)| json!([t, l]))
                    .collect();
                json!({"id": format!("{}.ann", u.id), "entities": list})
            })
            .collect();
        let pred = dir.join(format!("{who}.jsonl"));
        write_jsonl(&pred, &rows);
        // A string the annotator marked at a later occurrence than its first unused one is
        // placed at that one: wrong in both, so the exact-match counts agree (strict and
        // exact regimes, the fair family's traditional evaluation), the overlap-based ones
        // need not (the HIPE test above, whose runs keep the gold's places, checks those).
        for (fam, tables) in [
            ("spans", &["strict", "exact"][..]),
            ("fair", &["traditional"][..]),
        ] {
            let want = family(fam, &gold, &project.join(who), &[]);
            let got = family(fam, &gold, &pred, &["--align", "exact"]);
            let keep = |v: &Value| {
                let mut c = counts(v);
                c.retain(|x| tables.contains(&x.0.as_str()));
                c
            };
            assert!(!keep(&want).is_empty());
            assert_eq!(keep(&got), keep(&want), "{who} {fam}");
            assert!(warning(&got).contains(" unaligned"), "{who} {fam}");
        }
        // Converted to brat on the gold's texts, the placed mentions score as placed; the
        // unaligned ones are not written (no place), so they are no longer false positives.
        let out = dir.join(format!("{who}-brat"));
        let (p, g, o) = (
            pred.to_string_lossy(),
            gold.to_string_lossy(),
            out.to_string_lossy(),
        );
        let conv = fairscore(&[
            "convert",
            "--in",
            &p,
            "--onto",
            &g,
            "--align",
            "exact",
            "--out-format",
            "brat",
            "--out",
            &o,
        ]);
        assert!(
            conv.status.success(),
            "{}",
            String::from_utf8_lossy(&conv.stderr)
        );
        let placed = family("spans", &gold, &pred, &["--align", "exact"]);
        let w = warning(&placed);
        let unaligned: f64 = w
            .split(", ")
            .find_map(|x| x.strip_suffix(" unaligned (found no place: false positives"))
            .and_then(|x| x.split(' ').next_back())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{w}"));
        let written = family("spans", &gold, &out, &[]);
        for t in ["strict", "partial"] {
            for c in ["TP", "FN"] {
                assert_eq!(all(&written, t, c), all(&placed, t, c), "{who} {t} {c}");
            }
            assert_eq!(
                all(&written, t, "FP") + unaligned,
                all(&placed, t, "FP"),
                "{who} {t}"
            );
        }
    }
}

#[test]
fn noisy_lists_are_counted_as_counted_here() {
    let Some(data) = shared_data("aligned noisy runs") else {
        return;
    };
    let dir = temp_dir("mentions-spans-noise");
    let gold = data.join("hipe2022/gold/HIPE-2022-v2.1-newseye-test-fi.tsv");
    let units = hipe_units(&gold, false);
    let mut rng = Rng(0x0_1CE);
    // Counted here: strings in upper case that the text holds nowhere so (unaligned with
    // exact, placed with case), strings said again that the text holds once (duplicates),
    // hallucinations (unaligned always).
    let (mut rows, mut upper, mut dups, mut fakes, mut said) = (Vec::new(), 0, 0, 0, 0);
    for u in &units {
        let mut ents = Vec::new();
        for (t, ty, _, _) in &u.mentions {
            let up = t.to_uppercase();
            // The text holds the string once, ignoring case too (so that neither step can
            // place it elsewhere).
            let once = u.text.to_lowercase().matches(&t.to_lowercase()).count() == 1;
            if up != *t && !u.text.contains(&up) && once && rng.chance(0.2) {
                ents.push(json!([up, ty.to_uppercase()]));
                upper += 1;
            } else {
                ents.push(json!([t, ty.to_uppercase()]));
                if once && rng.chance(0.2) {
                    ents.push(json!([t, ty.to_uppercase()]));
                    dups += 1;
                    said += 1;
                }
            }
            said += 1;
        }
        if rng.chance(0.2) {
            ents.push(json!([ZORGLUB, "PERS"]));
            fakes += 1;
            said += 1;
        }
        rows.push(json!({"id": u.id, "entities": ents}));
    }
    assert!(upper > 5 && dups > 5 && fakes > 5, "{upper} {dups} {fakes}");
    let pred = dir.join("noisy.jsonl");
    write_jsonl(&pred, &rows);
    let exact = family(
        "spans",
        &gold,
        &pred,
        &["--unit", "document", "--align", "exact"],
    );
    let w = warning(&exact);
    assert!(w.contains(&format!(": {said} predicted mention(s)")), "{w}");
    assert!(w.contains(&format!(" {} unaligned", upper + fakes)), "{w}");
    assert!(w.contains(&format!(" {dups} repeated string(s)")), "{w}");
    let case = family(
        "spans",
        &gold,
        &pred,
        &["--unit", "document", "--align", "case"],
    );
    let w = warning(&case);
    assert!(w.contains(&format!(" {fakes} unaligned")), "{w}");
    // Placed ignoring case, the upper-case strings are the gold's spans: case has upper
    // true positives more than exact, and exact upper false positives more.
    assert_eq!(
        all(&case, "strict", "TP"),
        all(&exact, "strict", "TP") + upper as f64
    );
    assert_eq!(
        all(&exact, "strict", "FP"),
        all(&case, "strict", "FP") + upper as f64
    );
    assert_eq!(all(&case, "strict", "FP"), fakes as f64);
    assert_eq!(all(&case, "strict", "FN"), 0.0);
}

#[test]
fn a_string_occurring_twice_takes_its_places_in_order_in_the_spans_family() {
    let dir = temp_dir("mentions-spans-twice");
    let gold = dir.join("gold.jsonl");
    let text = "Paris and Parisian Paris met Lyon in Paris";
    let ents = json!([
        {"text": "Paris", "type": "LOC", "start": 19, "end": 24},
        {"text": "Lyon", "type": "LOC", "start": 29, "end": 33},
        {"text": "Paris", "type": "LOC", "start": 37, "end": 42}
    ]);
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    // As the mentions family places them (mentions.rs): the first occurrence, then the next
    // unused one at a word boundary after the previous placed mention.
    let cases: [(Value, [f64; 3]); 3] = [
        (json!([["Paris", "LOC"]]), [0.0, 1.0, 3.0]),
        (json!([["Paris", "LOC"], ["Paris", "LOC"]]), [1.0, 1.0, 2.0]),
        (json!([["Lyon", "LOC"], ["Paris", "LOC"]]), [2.0, 0.0, 1.0]),
    ];
    for (k, (ents, want)) in cases.into_iter().enumerate() {
        let pred = dir.join(format!("pred{k}.jsonl"));
        write_jsonl(&pred, &[json!({"id": "1", "entities": ents})]);
        let got = family("spans", &gold, &pred, &["--align", "exact"]);
        let row = [
            all(&got, "strict", "TP"),
            all(&got, "strict", "FP"),
            all(&got, "strict", "FN"),
        ];
        assert_eq!(row, want, "case {k}");
    }
}

#[test]
fn the_fuzzy_bound_is_an_option_named_in_the_signature() {
    let dir = temp_dir("mentions-spans-threshold");
    let gold = dir.join("gold.jsonl");
    let text = "Then Jean-Paul Sartre wrote.";
    let ents = json!([{"text": "Jean-Paul Sartre", "type": "PER", "start": 5, "end": 21}]);
    write_jsonl(&gold, &[json!({"id": "1", "text": text, "entities": ents})]);
    let pred = dir.join("pred.jsonl");
    // 11 characters, 5 inserted to make the window (16 + 11 - 2 × 11): within one half, not
    // one quarter (2).
    write_jsonl(
        &pred,
        &[json!({"id": "1", "entities": [["Jean Sartre", "PER"]]})],
    );
    for fam in ["spans", "mentions"] {
        let (table, col) = if fam == "spans" {
            ("strict", "TP")
        } else {
            ("micro", "TP")
        };
        let d = family(fam, &gold, &pred, &["--align", "fuzzy"]);
        let half = family(
            fam,
            &gold,
            &pred,
            &["--align", "fuzzy", "--align-threshold", "0.5"],
        );
        let low = family(
            fam,
            &gold,
            &pred,
            &["--align", "fuzzy", "--align-threshold", "0.45"],
        );
        assert_eq!(all(&d, table, col), 0.0, "{fam}");
        assert_eq!(all(&half, table, col), 1.0, "{fam}");
        assert_eq!(all(&low, table, col), 0.0, "{fam}");
        let sig = |v: &Value| v["signature"].as_str().unwrap().to_string();
        assert!(
            sig(&d).contains("|align:fuzzy|align-threshold:0.25|"),
            "{}",
            sig(&d)
        );
        assert!(
            sig(&half).contains("|align-threshold:0.5|"),
            "{}",
            sig(&half)
        );
    }
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    for bad in [
        vec!["--align", "exact", "--align-threshold", "0.5"],
        vec!["--align", "fuzzy", "--align-threshold", "1.5"],
        vec!["--align", "fuzzy", "--align-threshold", "0.1234"],
        vec!["--parser", "pairs"],
    ] {
        let mut args = vec!["evaluate", "--family", "spans", "--gold", &g, "--pred", &p];
        args.extend(bad.iter().copied());
        let out = fairscore(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(bad[bad.len() - 2]), "{bad:?}: {err}");
    }
}

#[test]
fn the_page_of_an_aligned_run_marks_every_span_once() {
    let Some(data) = shared_data("inspect of an aligned run") else {
        return;
    };
    let dir = temp_dir("mentions-spans-inspect");
    let gold = data.join("hipe2022/gold/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let units = hipe_units(&gold, false);
    let (jsonl, _, extra) = hipe_run(&gold, &units, 0x1_25EC7, true, &dir);
    let flags = ["--unit", "document", "--align", "exact"];
    let page = dir.join("page.html");
    let (g, p, o) = (
        gold.to_string_lossy(),
        jsonl.to_string_lossy(),
        page.to_string_lossy(),
    );
    let mut args = vec!["inspect", "--gold", &g, "--pred", &p, "-o", &o];
    args.extend(flags);
    let out = fairscore(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let (c, gold_marks, run_marks) = super::super::inspect::page_counts(&html);
    let v = family("fair", &gold, &jsonl, &flags);
    for k in ["TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE"] {
        assert_eq!(c[k] as f64, all(&v, "fair", k), "{k}");
    }
    for k in ["TP", "FP", "FN"] {
        assert_eq!(
            c[&format!("t{k}")] as f64,
            all(&v, "traditional", k),
            "t{k}"
        );
    }
    // Every gold span once; every run span once, the hallucinations among them.
    let n_gold: usize = units.iter().map(|u| u.mentions.len()).sum();
    assert_eq!(gold_marks, n_gold);
    let rows: usize = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["entities"]
                .as_array()
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(run_marks, rows);
    assert!(extra > 0 && html.matches(ZORGLUB).count() >= extra);
}

#[test]
fn a_campaign_task_ranks_generative_runs_as_single_scorings_do() {
    let dir = temp_dir("mentions-spans-campaign");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    let units = [
        (
            "s1",
            "Barack Obama was born in Hawaii.",
            [("Barack Obama", "PER"), ("Hawaii", "LOC")],
        ),
        (
            "s2",
            "The UN met Obama in New York.",
            [("Obama", "PER"), ("New York", "LOC")],
        ),
    ];
    let g: Vec<Value> = units
        .iter()
        .map(|(id, text, ents)| json!({"id": id, "text": text, "entities": ents.iter().map(|(t, l)| json!([t, l])).collect::<Vec<_>>()}))
        .collect();
    write_jsonl(&gold.join("gold.jsonl"), &g);
    // alpha: every mention; beta: a hallucination more and one mention left out.
    write_jsonl(
        &runs.join("alpha_1.jsonl"),
        &[
            json!({"id": "s1", "entities": [["Barack Obama", "PER"], ["Hawaii", "LOC"]]}),
            json!({"id": "s2", "entities": [["Obama", "PER"], ["New York", "LOC"]]}),
        ],
    );
    write_jsonl(
        &runs.join("beta_1.jsonl"),
        &[
            json!({"id": "s1", "entities": [["Barack Obama", "PER"], ["Mars", "LOC"]]}),
            json!({"id": "s2", "entities": [["Obama", "PER"], ["New York", "LOC"]]}),
        ],
    );
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"gen\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"gold.jsonl\"\nruns = \"{team}_{run}.jsonl\"\nregimes = [\"strict\"]\nalign = \"exact\"\nrank_by = \"F1\"\n",
    )
    .unwrap();
    let (cs, gs, rs, os) = (
        c.to_string_lossy(),
        gold.to_string_lossy(),
        runs.to_string_lossy(),
        out.to_string_lossy(),
    );
    let o = fairscore(&[
        "leaderboard",
        "--campaign",
        &cs,
        "--gold-dir",
        &gs,
        "--runs-dir",
        &rs,
        "--outdir",
        &os,
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let board: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap())
            .unwrap();
    let rows = board["tables"][0]["rows"].as_array().unwrap();
    let systems: Vec<&str> = rows.iter().map(|r| r["system"].as_str().unwrap()).collect();
    assert_eq!(systems, ["alpha_1", "beta_1"]);
    for r in rows {
        let sys = r["system"].as_str().unwrap();
        let single = family(
            "spans",
            &gold.join("gold.jsonl"),
            &runs.join(format!("{sys}.jsonl")),
            &["--align", "exact"],
        );
        assert_eq!(
            r["scores"]["F1"].as_f64(),
            Some(all(&single, "strict", "F1")),
            "{sys}"
        );
    }
    // beta: 3 of 4 placed right, Mars unaligned: P 3/4, R 3/4.
    assert_eq!(rows[1]["scores"]["F1"].as_f64(), Some(0.75));
}
