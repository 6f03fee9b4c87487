//! Every JSON output of fairscore's own result tables validates against the published schema
//! `docs/results.schema.json`: `evaluate` of every family, the `fair`, `muc`,
//! `segmentation` and `tagging` commands (which give exactly `evaluate`'s JSON), `compare`
//! (of any family, and of HIPE or CoNLL runs), `agree`, and a family campaign's `runs/*.json`. Beyond the schema, each row's key
//! names the table's keys in order, its scores the table's columns in order, counts are whole
//! numbers and every interval is ordered. With `../shared`, the same on real data: UD
//! segmentation and tagging runs, FairEval's spans, bratiaa's project, HIPE-2022 runs.

use std::path::PathBuf;

use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(rel: &str) -> String {
    repo()
        .join("tests")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo().join("docs/results.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid draft 2020-12 schema")
}

/// Schema errors and the rules the schema cannot say, as messages (empty: valid).
fn problems(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    for t in doc["tables"].as_array().into_iter().flatten() {
        let name = t["name"].as_str().unwrap_or("?");
        let keys: Vec<&str> = t["keys"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let cols: Vec<(&str, &str)> = t["columns"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or(""),
                    c["kind"].as_str().unwrap_or(""),
                )
            })
            .collect();
        for (i, r) in t["rows"].as_array().into_iter().flatten().enumerate() {
            let rk: Vec<&str> = r["key"]
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            if rk != keys {
                out.push(format!("{name} row {i}: key {rk:?}, table keys {keys:?}"));
            }
            let scores = r["scores"].as_object();
            let rc: Vec<&str> = scores
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let names: Vec<&str> = cols.iter().map(|c| c.0).collect();
            if rc != names {
                out.push(format!("{name} row {i}: scores {rc:?}, columns {names:?}"));
            }
            for (c, kind) in &cols {
                let x = &r["scores"][*c];
                if *kind == "count" && !(x.is_null() || x.is_u64()) {
                    out.push(format!("{name} row {i}: count {c} = {x}"));
                }
            }
            for (c, ci) in r["ci"].as_object().into_iter().flatten() {
                let (lo, hi) = (ci[0].as_f64(), ci[1].as_f64());
                if !matches!((lo, hi), (Some(a), Some(b)) if a <= b) {
                    out.push(format!("{name} row {i}: interval of {c} {ci}"));
                }
                if cols.iter().find(|x| x.0 == c).map(|x| x.1) != Some("ratio") {
                    out.push(format!("{name} row {i}: interval on non-ratio column {c}"));
                }
            }
        }
    }
    out
}

fn check(v: &jsonschema::Validator, what: &str, doc: &Value) -> usize {
    let p = problems(v, doc);
    assert!(p.is_empty(), "{what}: {}", p.join("; "));
    doc["tables"].as_array().map_or(0, Vec::len)
}

#[test]
fn the_schema_refuses_what_it_should() {
    let v = validator();
    let good = serde_json::json!({"family": "x", "unit": "sentence", "units": 1, "notes": [],
        "warnings": [], "tables": [{"name": "t", "title": "T", "keys": ["label"],
        "columns": [{"name": "F1", "kind": "ratio"}],
        "rows": [{"key": {"label": "ALL"}, "scores": {"F1": 0.5}}]}]});
    assert!(problems(&v, &good).is_empty(), "{:?}", problems(&v, &good));
    let mut bad = good.clone();
    bad["units"] = serde_json::json!(-1);
    assert!(!problems(&v, &bad).is_empty());
    let mut bad = good.clone();
    bad["tables"][0]["rows"][0]["scores"]["F1"] = serde_json::json!("NaN");
    assert!(!problems(&v, &bad).is_empty());
    let mut bad = good.clone();
    bad["extra"] = serde_json::json!(1);
    assert!(!problems(&v, &bad).is_empty());
    let mut bad = good.clone();
    bad["tables"][0]["rows"][0]["key"] = serde_json::json!({"regime": "ALL"});
    assert!(!problems(&v, &bad).is_empty());
    let mut bad = good;
    bad["tables"][0]["rows"][0]["ci"] = serde_json::json!({"F1": [0.6, 0.4]});
    assert!(!problems(&v, &bad).is_empty());
}

#[test]
fn every_result_table_output_validates() {
    let v = validator();
    let (fc, fs) = (
        fixture("fixtures/fair/target.conll"),
        fixture("fixtures/fair/system.conll"),
    );
    let (ht, hs) = (
        fixture("fixtures/fair/target.tsv"),
        fixture("fixtures/fair/system.tsv"),
    );
    let (sg, s1, s2) = (
        fixture("fixtures/segmentation/table1-gold.txt"),
        fixture("fixtures/segmentation/table1-S1.txt"),
        fixture("fixtures/segmentation/table1-S2.txt"),
    );
    let (tg, tp, tw) = (
        fixture("fixtures/tagging/paper-gold.tsv"),
        fixture("fixtures/tagging/paper-pred.tsv"),
        fixture("fixtures/tagging/paper-weights.toml"),
    );
    let (mg, mp) = (
        fixture("fixtures/muc/guide_gold.tsv"),
        fixture("fixtures/muc/guide_run.tsv"),
    );
    let (cg, cp) = (
        fixture("fixtures/muc/guide_gold.conll"),
        fixture("fixtures/muc/guide_run.conll"),
    );
    let (b1, b2, b3) = (
        fixture("data/brat-tiny/ann1"),
        fixture("data/brat-tiny/ann2"),
        fixture("data/brat-tiny/ann3"),
    );
    let (ng, nr) = (
        fixture("fixtures/nel/gold.tsv"),
        fixture("fixtures/nel/run.tsv"),
    );
    let weights = crate::common::WEIGHTS;
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "evaluate", "--family", "spans", "--gold", &cg, "--pred", &cp,
        ],
        vec![
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &ht,
            "--pred",
            &hs,
            "--bootstrap",
            "50",
        ],
        vec![
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &ht,
            "--pred",
            &hs,
            "--breakdown",
            "label,length,capitalisation,position,document",
            "--bootstrap",
            "50",
        ],
        vec!["evaluate", "--family", "muc", "--gold", &cg, "--pred", &cp],
        vec![
            "evaluate",
            "--family",
            "fair",
            "--gold",
            &fc,
            "--pred",
            &fs,
            "--weights",
            weights,
        ],
        vec![
            "fair",
            "--gold",
            &fc,
            "--pred",
            &fs,
            "--bootstrap",
            "50",
            "--beta",
            "2",
        ],
        vec!["fair", "--gold", &b1, "--pred", &b2],
        vec![
            "evaluate", "--family", "spans", "--gold", &b1, "--pred", &b2,
        ],
        vec![
            "evaluate",
            "--family",
            "nel",
            "--gold",
            &ng,
            "--pred",
            &nr,
            "--n-best",
            "1,2",
            "--bootstrap",
            "50",
        ],
        vec!["muc", "--gold", &mg, "--pred", &mp],
        vec!["muc", "--gold", &mg, "--pred", &mp, "--beta", "0.5"],
        vec!["muc", "--gold", &b1, "--pred", &b3],
        vec!["segmentation", "--gold", &sg, "--pred", &s1],
        vec![
            "segmentation",
            "--gold",
            &sg,
            "--pred",
            &s2,
            "--bootstrap",
            "50",
        ],
        vec!["tagging", "--gold", &tg, "--pred", &tp, "--tagset", &tw],
        vec!["tagging", "--gold", &tg, "--pred", &tp, "--beta", "2"],
        vec![
            "compare",
            "--family",
            "segmentation",
            "--gold",
            &sg,
            "--pred",
            &s1,
            "--pred",
            &s2,
            "--bootstrap",
            "50",
        ],
        vec![
            "agree",
            "--annotator",
            &b1,
            "--annotator",
            &b2,
            "--annotator",
            &b3,
        ],
    ];
    let mut tables = 0;
    for args in &cases {
        let mut a = args.clone();
        a.extend(["--json", "-"]);
        let doc = crate::common::fairscore_json(&a);
        tables += check(&v, &args.join(" "), &doc);
    }
    assert!(tables >= 30, "{tables} tables checked");
}

#[test]
fn a_family_campaigns_run_files_validate() {
    let v = validator();
    let dir = crate::common::temp_dir("results_schema_campaign");
    let runs =
        super::family_runs::write_family_campaign(&dir, &[("alpha", 2, "O"), ("beta", 3, "O")]);
    let toml = dir.join("campaign.toml");
    std::fs::write(&toml, crate::common::five_family_campaign("schema", None)).unwrap();
    let out = dir.join("out");
    let o = crate::common::fairscore(&[
        "leaderboard",
        "--campaign",
        toml.to_str().unwrap(),
        "--gold-dir",
        dir.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut n = 0;
    for e in crate::common::schema::json_files(&out.join("runs")) {
        let doc = crate::common::schema::read_json(&e);
        check(&v, &e.display().to_string(), &doc);
        n += 1;
    }
    assert!(n >= 10, "{n} run files checked");
}

#[test]
fn result_tables_of_real_data_validate() {
    let Some(data) = crate::common::shared_data("result_tables_of_real_data_validate") else {
        return;
    };
    let v = validator();
    let p = |rel: &str| data.join(rel).to_string_lossy().into_owned();
    let (zh, jieba, thulac) = (
        p("ud/segmentation/zh_gsd-ud-dev.txt"),
        p("ud/segmentation/jieba-dev.txt"),
        p("ud/segmentation/thulac-dev.conllu"),
    );
    let zh_conllu = p("ud/segmentation/zh_gsd-ud-dev.conllu");
    let (pl, all, first, freq) = (
        p("ud/tagging/pl_pdb-ud-dev.conllu"),
        p("ud/tagging/morfeusz-all-dev.conllu"),
        p("ud/tagging/morfeusz-first-dev.conllu"),
        p("ud/tagging/freq-dev.conllu"),
    );
    let (target, system) = (
        p("faireval/ner/target_ner_spans.csv"),
        p("faireval/ner/system_ner_spans.csv"),
    );
    let project = p("brat/bratiaa-example/example-project");
    let (de, de1, de2) = (
        p("hipe2022/gold/HIPE-2022-v2.1-ajmc-test-de.tsv"),
        p("hipe2022/submissions/team1_bundle4_ajmc_de_1.tsv"),
        p("hipe2022/submissions/team1_bundle4_ajmc_de_2.tsv"),
    );
    let (fr, fr1) = (
        p("hipe2022/gold/HIPE-2022-v2.1-newseye-test-fr.tsv"),
        p("hipe2022/submissions/team4_bundle4_newseye_fr_1.tsv"),
    );
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "segmentation",
            "--gold",
            &zh,
            "--pred",
            &jieba,
            "--bootstrap",
            "200",
        ],
        vec![
            "segmentation",
            "--gold",
            &zh_conllu,
            "--pred",
            &thulac,
            "--beta",
            "2",
        ],
        vec![
            "tagging",
            "--gold",
            &pl,
            "--pred",
            &all,
            "--tagset",
            "nkjp",
            "--bootstrap",
            "100",
        ],
        vec![
            "tagging", "--gold", &pl, "--pred", &freq, "--tagset", "nkjp",
        ],
        vec![
            "compare",
            "--family",
            "tagging",
            "--gold",
            &pl,
            "--pred",
            &first,
            "--pred",
            &freq,
            "--bootstrap",
            "100",
        ],
        vec![
            "fair",
            "--gold",
            &target,
            "--pred",
            &system,
            "--format",
            "spans",
            "--bootstrap",
            "100",
        ],
        vec!["agree", "--project", &project],
        vec![
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &fr,
            "--pred",
            &fr1,
            "--bootstrap",
            "100",
        ],
        vec![
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &fr,
            "--pred",
            &fr1,
            "--breakdown",
            "label,length,chars,sentence_length,density,capitalisation,position,document",
            "--bootstrap",
            "100",
        ],
        vec!["fair", "--gold", &fr, "--pred", &fr1],
        vec!["muc", "--gold", &fr, "--pred", &fr1, "--beta", "0.5"],
        vec![
            "compare",
            "--gold",
            &de,
            "--pred",
            &de1,
            "--pred",
            &de2,
            "--hipe_edition",
            "hipe-2022",
            "--bootstrap",
            "200",
        ],
    ];
    let mut tables = 0;
    for args in &cases {
        let mut a = args.clone();
        a.extend(["--json", "-"]);
        let doc = crate::common::fairscore_json(&a);
        tables += check(&v, &args.join(" "), &doc);
    }
    assert!(tables >= 25, "{tables} tables checked");
}
