//! Every JSON output of the command line validates against a schema published under `docs/`:
//! the result tables (`docs/results.schema.json`, also tests/it/outputs/results_schema.rs), `check
//! --json` (`docs/check.schema.json`), the HIPE per-run JSON of `score` with fairscore's
//! additions (`docs/hipe-score.schema.json`), a family campaign's `leaderboard.json`
//! (`docs/leaderboard.schema.json`) and Codabench's `scores.json`
//! (`docs/codabench-scores.schema.json`). Each command is run on bundled fixtures and, when
//! `../shared` is there, on real data (here `check` of every broken input of tests/bad_inputs
//! and of every HIPE-2022 submission; the files in tests/it/outputs/json_schema_files.rs; the refusals
//! of malformed documents in tests/it/outputs/json_schema_refusals.rs). `--json FILE` and `--table json`
//! give the same documents as `--json -`, and every subcommand that writes JSON (by
//! `fairscore CMD --help`) must be listed here, so a new JSON output cannot go unvalidated.

use crate::common::{schema, WEIGHTS};

use std::collections::BTreeSet;
use std::path::Path;

use schema::{
    assert_valid, check_report_rules, json_files, json_of, path, read_json, repo, schema_doc,
    validator,
};
use serde_json::Value;

/// The published schemas: `docs/NAME.schema.json`.
const SCHEMAS: &[&str] = &[
    "results",
    "check",
    "hipe-score",
    "leaderboard",
    "codabench-scores",
];

/// Each subcommand that writes JSON, with the schemas of what it writes. `--json` commands
/// print it on stdout and are run by [`runs`]; the others write files, validated by the test
/// named beside them.
const JSON_OUTPUTS: &[(&str, &[&str], &str)] = &[
    ("score", &["hipe-score"], "runs"),
    ("check", &["check"], "runs"),
    ("fair", &["results"], "runs"),
    ("compare", &["results"], "runs"),
    ("segmentation", &["results"], "runs"),
    ("tagging", &["results"], "runs"),
    ("muc", &["results"], "runs"),
    ("evaluate", &["results"], "runs"),
    ("agree", &["results"], "runs"),
    (
        "leaderboard",
        &["leaderboard", "results", "hipe-score"],
        "outputs/json_schema_files: family_campaign_outputs_validate, hipe_campaign_outputs_validate, \
         family_campaign_of_real_data_validates",
    ),
    (
        "codabench",
        &["codabench-scores"],
        "outputs/json_schema_files: codabench_scores_validate, family_campaign_of_real_data_validates",
    ),
];

/// Subcommands that write no JSON (what they write instead).
const NO_JSON: &[(&str, &str)] = &[
    ("normalize", "a HIPE TSV file"),
    ("inspect", "one HTML page"),
    (
        "convert",
        "annotation files in their own formats (CoNLL, brat, the JSON exports of doccano, Label Studio and Prodigy)",
    ),
    (
        "codabench-bundle",
        "a zip of YAML, the program and the gold",
    ),
    ("help", "help text"),
];

/// A CoNLL gold of 12 sentences and a run missing its LOC entities, in `dir`.
fn write_conll(dir: &Path) {
    let gold = super::family_runs::conll_gold();
    std::fs::write(dir.join("gold.conll"), &gold).unwrap();
    std::fs::write(dir.join("run.conll"), gold.replace("B-LOC", "O")).unwrap();
}

/// The `--json -` command lines run on bundled fixtures, with the schema of their output;
/// `score` writes its files into `outdir`.
fn runs(outdir: &Path) -> Vec<(Vec<String>, &'static str)> {
    let outdir = outdir.to_string_lossy().into_owned();
    let hipe = "data/hipe2022-ajmc-en";
    let gold = path(&format!("{hipe}/HIPE-2022-v2.1-ajmc-test-en.tsv"));
    let team2 = path(&format!("{hipe}/team2_bundle1_ajmc_en_1.tsv"));
    let neurbsl = path(&format!("{hipe}/neurbsl_bundle3_ajmc_en_1.tsv"));
    let tagset = path(&format!("{hipe}/tagset-hipe2022-all.txt"));
    let (fc, fs) = (
        path("fixtures/fair/target.conll"),
        path("fixtures/fair/system.conll"),
    );
    let (sg, s1) = (
        path("fixtures/segmentation/table1-gold.txt"),
        path("fixtures/segmentation/table1-S1.txt"),
    );
    let (tg, tp) = (
        path("fixtures/tagging/paper-gold.tsv"),
        path("fixtures/tagging/paper-pred.tsv"),
    );
    let (mg, mp) = (
        path("fixtures/muc/guide_gold.tsv"),
        path("fixtures/muc/guide_run.tsv"),
    );
    let (cg, cp) = (
        path("fixtures/muc/guide_gold.conll"),
        path("fixtures/muc/guide_run.conll"),
    );
    let (b1, b2) = (path("data/brat-tiny/ann1"), path("data/brat-tiny/ann2"));
    // Written by the caller ([`write_conll`]).
    let (ng, nr) = (
        format!("{outdir}/gold.conll"),
        format!("{outdir}/run.conll"),
    );
    let e22 = ["--hipe_edition", "hipe-2022"];
    let out: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "score",
                "--gold",
                &gold,
                "--pred",
                &team2,
                "--task",
                "nerc_coarse",
            ],
            "hipe-score",
        ),
        (
            vec![
                "score", "--gold", &gold, "--pred", &team2, "--task", "nel", "--n_best", "1,3",
            ],
            "hipe-score",
        ),
        (
            vec![
                "score",
                "--gold",
                &gold,
                "--pred",
                &neurbsl,
                "--task",
                "nerc_fine",
                "--tagset",
                &tagset,
                "--regimes",
                "fuzzy,strict,fair,weighted",
                "--weights",
                WEIGHTS,
                "--beta",
                "0.5",
                "--bootstrap",
                "20",
            ],
            "hipe-score",
        ),
        (
            vec![
                "score",
                "--gold",
                &cg,
                "--pred",
                &cp,
                "--format",
                "conll",
                "--task",
                "nerc_coarse",
                "--skip-check",
                "--beta",
                "2",
            ],
            "hipe-score",
        ),
        (vec!["check", "--gold", &gold, "--pred", &team2], "check"),
        (
            vec![
                "check", "--gold", &gold, "--pred", &neurbsl, "--task", "nel",
            ],
            "check",
        ),
        (
            vec!["check", "--gold", &fc, "--pred", &fs, "--format", "conll"],
            "check",
        ),
        (vec!["check", "--gold", &b1, "--pred", &b2], "check"),
        (vec!["fair", "--gold", &gold, "--pred", &team2], "results"),
        (
            vec![
                "compare",
                "--gold",
                &gold,
                "--pred",
                &team2,
                "--pred",
                &neurbsl,
                "--bootstrap",
                "50",
            ],
            "results",
        ),
        (
            vec![
                "compare",
                "--gold",
                &ng,
                "--pred",
                &nr,
                "--pred",
                &ng,
                "--format",
                "conll",
                "--bootstrap",
                "50",
            ],
            "results",
        ),
        (
            vec!["segmentation", "--gold", &sg, "--pred", &s1],
            "results",
        ),
        (vec!["tagging", "--gold", &tg, "--pred", &tp], "results"),
        (vec!["muc", "--gold", &mg, "--pred", &mp], "results"),
        (
            vec![
                "evaluate", "--family", "spans", "--gold", &gold, "--pred", &team2,
            ],
            "results",
        ),
        (
            vec!["agree", "--annotator", &b1, "--annotator", &b2],
            "results",
        ),
    ];
    out.into_iter()
        .map(|(mut a, s)| {
            if matches!(a[0], "score" | "check" | "compare") && a.contains(&gold.as_str()) {
                a.extend(e22);
            }
            if a[0] == "score" {
                a.extend(["--outdir", &outdir]);
            }
            a.extend(["--json", "-"]);
            (a.into_iter().map(str::to_string).collect(), s)
        })
        .collect()
}

#[test]
fn every_json_output_of_the_bundled_fixtures_validates() {
    let validators: Vec<(&str, jsonschema::Validator)> =
        SCHEMAS.iter().map(|s| (*s, validator(s))).collect();
    let mut seen = BTreeSet::new();
    let dir = crate::common::temp_dir("json_schemas_runs");
    write_conll(&dir);
    for (args, schema) in runs(&dir) {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, doc) = json_of(&a);
        let v = &validators.iter().find(|(n, _)| n == &schema).unwrap().1;
        let what = a.join(" ");
        assert_valid(v, &what, &doc);
        if schema == "check" {
            check_report_rules(&what, code, &doc);
        } else {
            assert_eq!(code, 0, "{what}");
        }
        seen.insert(args[0].clone());
    }
    assert!(seen.len() >= 9, "{seen:?}");
    // The files `score` wrote beside its `--json -`, with every addition to the HIPE JSON.
    let files = json_files(&dir);
    assert!(files.len() >= 4, "{files:?}");
    let v = &validators
        .iter()
        .find(|(n, _)| *n == "hipe-score")
        .unwrap()
        .1;
    let mut text = String::new();
    for f in files {
        assert_valid(v, &f.display().to_string(), &read_json(&f));
        text.push_str(&std::fs::read_to_string(&f).unwrap());
    }
    for key in [
        "F2_micro\"",
        "F0.5_micro\"",
        "F1_micro_ci\"",
        "\"fair\": {",
        "\"weighted\": {",
        "\"3\": {",
    ] {
        assert!(text.contains(key), "no {key} in the outputs of score");
    }
}

/// The commands with `--table FORMAT`.
const TABLE_COMMANDS: &[&str] = &[
    "evaluate",
    "fair",
    "muc",
    "segmentation",
    "tagging",
    "compare",
    "agree",
];

#[test]
fn json_files_and_table_json_are_the_same_documents() {
    let dir = crate::common::temp_dir("json_schemas_forms");
    write_conll(&dir);
    let mut n = 0;
    for (i, (args, _)) in runs(&dir).into_iter().enumerate() {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, printed) = json_of(&a);
        // `--json FILE`: the same document in the file (stdout has the text report).
        let file = dir.join(format!("form{i}.json"));
        let mut f = a.clone();
        *f.last_mut().unwrap() = file.to_str().unwrap();
        let o = crate::common::fairscore(&f);
        assert!(o.status.code().is_some_and(|c| c <= 1), "{f:?}");
        assert_eq!(read_json(&file), printed, "{f:?}");
        n += 1;
        // `--table json`: the same document on stdout.
        if TABLE_COMMANDS.contains(&a[0]) {
            let mut t = a[..a.len() - 2].to_vec();
            t.extend(["--table", "json"]);
            assert_eq!(json_of(&t).1, printed, "{t:?}");
            n += 1;
        }
    }
    assert!(n >= 24, "{n} forms compared");
}

#[test]
fn the_check_schema_lists_every_finding_code() {
    let doc = schema_doc("check");
    let listed: BTreeSet<&str> = doc["$defs"]["finding"]["properties"]["code"]["enum"]
        .as_array()
        .expect("an enum of codes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let codes: BTreeSet<&str> = fairscore::check::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(
        listed, codes,
        "docs/check.schema.json and check::Code differ"
    );
}

#[test]
fn check_reports_of_broken_runs_validate() {
    let v = validator("check");
    let gold = path("data/hipe2022-ajmc-en/HIPE-2022-v2.1-ajmc-test-en.tsv");
    let mut codes = BTreeSet::new();
    let mut n = 0;
    for e in std::fs::read_dir(repo().join("tests/bad_inputs"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "tsv") {
            continue;
        }
        let run = p.to_string_lossy().into_owned();
        let a = [
            "check",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--hipe_edition",
            "hipe-2022",
            "--json",
            "-",
        ];
        let (code, doc) = json_of(&a);
        assert_valid(&v, &run, &doc);
        check_report_rules(&run, code, &doc);
        for f in doc["findings"].as_array().unwrap() {
            codes.insert(f["code"].as_str().unwrap().to_string());
        }
        n += 1;
    }
    // The bad inputs give errors and warnings of many kinds: the schema saw more than one shape.
    assert!(n >= 20 && codes.len() >= 10, "{n} runs, codes {codes:?}");
    // `--json FILE` writes the same document.
    let dir = crate::common::temp_dir("json_schemas_check_file");
    let out = dir.join("report.json");
    let bad = path("bad_inputs/bad_tag.tsv");
    let o = crate::common::fairscore(&[
        "check",
        "--gold",
        &gold,
        "--pred",
        &bad,
        "--hipe_edition",
        "hipe-2022",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_valid(&v, "check --json FILE", &read_json(&out));
}

#[test]
fn check_reports_of_the_real_submissions_validate() {
    let Some(data) = crate::common::shared_data("check_reports_of_the_real_submissions_validate")
    else {
        return;
    };
    let v = validator("check");
    let h = data.join("hipe2022");
    let mut n = 0;
    for e in std::fs::read_dir(h.join("submissions")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        // TEAM_bundleN_DATASET_LANG_RUN.tsv
        let parts: Vec<&str> = name.trim_end_matches(".tsv").split('_').collect();
        let [_, _, dataset, lang, _] = parts[..] else {
            continue;
        };
        let gold = h.join(format!("gold/HIPE-2022-v2.1-{dataset}-test-{lang}.tsv"));
        let run = e.path();
        let a = [
            "check",
            "--gold",
            gold.to_str().unwrap(),
            "--pred",
            run.to_str().unwrap(),
            "--hipe_edition",
            "hipe-2022",
            "--json",
            "-",
        ];
        let (code, doc) = json_of(&a);
        assert_valid(&v, &name, &doc);
        check_report_rules(&name, code, &doc);
        n += 1;
    }
    assert!(n >= 40, "{n} submissions checked");
}

/// The subcommands `fairscore --help` lists.
fn subcommands() -> Vec<String> {
    let o = crate::common::fairscore(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    let section = help.split("Commands:").nth(1).expect("a Commands: section");
    section
        .lines()
        .take_while(|l| !l.trim_start().starts_with("Options:"))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_subcommand_writing_json_is_covered() {
    let listed = subcommands();
    assert!(listed.len() >= 13, "{listed:?}");
    let run: BTreeSet<String> = runs(Path::new("/nonexistent"))
        .into_iter()
        .map(|(a, _)| a[0].clone())
        .collect();
    let mut missing = Vec::new();
    for cmd in &listed {
        let covered = JSON_OUTPUTS.iter().find(|(c, _, _)| c == cmd);
        let exempt = NO_JSON.iter().any(|(c, _)| c == cmd);
        assert!(
            covered.is_some() != exempt,
            "{cmd}: listed in neither or both of JSON_OUTPUTS and NO_JSON"
        );
        let help = crate::common::fairscore(&[cmd, "--help"]);
        let help = String::from_utf8_lossy(&help.stdout).to_lowercase();
        let has_flag = help.contains("--json");
        let mentions = has_flag || help.contains(".json") || help.contains("json output");
        if exempt && mentions {
            missing.push(format!(
                "{cmd}: its help mentions JSON output but it is in NO_JSON"
            ));
        }
        if has_flag && !run.contains(cmd) {
            missing.push(format!("{cmd}: has --json but runs() does not run it"));
        }
        if let Some((_, schemas, tests)) = covered {
            assert!(
                schemas.iter().all(|s| SCHEMAS.contains(s)),
                "{cmd}: {schemas:?}"
            );
            // A file output names the tests that validate it, in tests/it/GROUP/FILE.rs.
            if let Some((file, names)) = tests.split_once(": ") {
                let text =
                    std::fs::read_to_string(repo().join(format!("tests/it/{file}.rs"))).unwrap();
                for name in names.split(", ") {
                    assert!(
                        text.contains(&format!("fn {name}()")),
                        "{cmd}: no test {file}::{name}"
                    );
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // Nothing listed here that fairscore no longer has.
    for (c, _, _) in JSON_OUTPUTS {
        assert!(listed.iter().any(|l| l == c), "{c} is no subcommand");
    }
}

#[test]
fn every_schema_is_published_and_linked_from_its_page() {
    let mut pages = String::new();
    for e in std::fs::read_dir(repo().join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            pages.push_str(&std::fs::read_to_string(e.path()).unwrap());
        }
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".schema.json")
                .map(str::to_string)
        })
        .collect();
    on_disk.sort();
    let mut known: Vec<String> = SCHEMAS.iter().map(|s| s.to_string()).collect();
    known.sort();
    assert_eq!(on_disk, known, "docs/*.schema.json and SCHEMAS differ");
    for s in SCHEMAS {
        let doc = schema_doc(s);
        assert_eq!(
            doc["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{s}"
        );
        let id = doc["$id"].as_str().unwrap_or_default();
        assert!(
            id.ends_with(&format!("/docs/{s}.schema.json")),
            "{s}: $id {id}"
        );
        validator(s);
        assert!(
            pages.contains(&format!("({s}.schema.json)")),
            "no page of docs/ links to {s}.schema.json"
        );
    }
}
