//! The JSON files fairscore writes validate against their published schemas: the HIPE
//! per-run JSON (`docs/hipe-score.schema.json`: the official outputs, `score` with fairscore's
//! additions on real runs, a HIPE campaign's `runs/*.json`), a family campaign's
//! `leaderboard.json` (`docs/leaderboard.schema.json`) and `runs/*.json`
//! (`docs/results.schema.json`), and Codabench's `scores.json`
//! (`docs/codabench-scores.schema.json`). tests/it/outputs/json_schemas.rs lists which command writes
//! what and runs the `--json` commands; tests/it/outputs/json_schema_refusals.rs shows that each schema
//! refuses malformed documents.

use crate::common::{schema, WEIGHTS};

use std::path::{Path, PathBuf};

use schema::{assert_valid, json_files, read_json, repo, validator};
use serde_json::{json, Value};

#[test]
fn the_official_hipe_outputs_and_real_scorings_validate() {
    let v = validator("hipe-score");
    let mut files = json_files(&repo().join("tests/data/hipe2022-ajmc-en/official"));
    let data = crate::common::shared_data("the_official_hipe_outputs_and_real_scorings_validate");
    if let Some(d) = &data {
        files.extend(json_files(&d.join("hipe2022/official")));
        files.extend(json_files(&d.join("hipe2020-synth/official")));
    }
    for f in &files {
        assert_valid(&v, &f.display().to_string(), &read_json(f));
    }
    assert!(
        files.len() >= if data.is_some() { 100 } else { 4 },
        "{}",
        files.len()
    );
    let Some(d) = data else { return };
    // fairscore's additions on real runs: noise levels and periods of the HIPE-2020 gold,
    // every regime with F-beta and intervals, NEL at several cutoffs.
    let synth = d.join("hipe2020-synth");
    let gold = synth.join("gold/HIPE-data-v1.4-test-de.tsv");
    let run = synth.join("submissions/synth1_bundle1_de_1.tsv");
    let out = crate::common::temp_dir("json_schemas_real_score");
    let (g, r, o) = (
        gold.to_str().unwrap(),
        run.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    for extra in [
        vec![
            "--task",
            "nerc_coarse",
            "--noise-level",
            "0.0-0.1,0.1-1.0",
            "--time-period",
            "1790-1850,1850-2000",
        ],
        vec![
            "--task",
            "nerc_fine",
            "--regimes",
            "fuzzy,strict,fair,weighted",
            "--weights",
            WEIGHTS,
            "--beta",
            "2",
            "--bootstrap",
            "20",
        ],
        vec!["--task", "nel", "--n_best", "1,3,5", "--beta", "0.5"],
    ] {
        let mut a = vec![
            "score",
            "--gold",
            g,
            "--pred",
            r,
            "--outdir",
            o,
            "--skip-check",
        ];
        a.extend(extra);
        let o = crate::common::fairscore(&a);
        assert!(
            o.status.success(),
            "{a:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let written = json_files(&out);
    assert_eq!(written.len(), 3, "{written:?}");
    let mut text = String::new();
    for f in written {
        assert_valid(&v, &f.display().to_string(), &read_json(&f));
        text.push_str(&std::fs::read_to_string(&f).unwrap());
    }
    // The additions the schema allows were there to be validated.
    for key in EXTENDED_KEYS
        .iter()
        .chain(&["\"TIME-1790-1850\"", "\"LED-0.1-1.0\"", "\"5\": {"])
    {
        assert!(text.contains(key), "no {key} in the outputs");
    }
}

/// Keys that only fairscore's additions to the HIPE JSON write.
const EXTENDED_KEYS: [&str; 5] = [
    "\"F2_micro\"",
    "\"F0.5_micro\"",
    "\"F1_micro_ci\"",
    "\"fair\": {",
    "\"weighted\": {",
];

/// A campaign of the five families (tests/common) and of a `muc` task per language (`{lang}`:
/// de, en) ranked by missed entities, in a fresh directory: its gold files, `runs/` of teams
/// alpha and beta, and the campaign file.
fn family_campaign(name: &str) -> (PathBuf, PathBuf) {
    let dir = crate::common::temp_dir(name);
    let teams = [("alpha", 2, "O"), ("beta", 3, "B-PER")];
    let runs = super::family_runs::write_family_campaign(&dir, &teams);
    let gold = super::family_runs::conll_gold();
    for (team, _, _) in teams {
        for lang in ["de", "en"] {
            std::fs::write(
                runs.join(format!("{team}_1-{lang}.bio")),
                gold.replace("B-LOC", "O"),
            )
            .unwrap();
        }
    }
    for lang in ["de", "en"] {
        std::fs::write(dir.join(format!("test-{lang}.conll")), &gold).unwrap();
    }
    // A task per language, ranked by an error count.
    let toml = dir.join("campaign.toml");
    let by_lang = "\n[[task]]\nname = \"muc-lang\"\nfamily = \"muc\"\nformat = \"conll\"\ngold = \"test-{lang}.conll\"\nruns = \"{team}_{run}-{lang}.bio\"\nrank_by = \"MIS\"\n";
    std::fs::write(
        &toml,
        crate::common::five_family_campaign(name, None) + by_lang,
    )
    .unwrap();
    (dir, toml)
}

/// The rules of `leaderboard.json` the schema cannot say: every table's resampling unit is
/// its unit, ranks never decrease, intervals are ordered.
fn leaderboard_rules(doc: &Value) {
    for t in doc["tables"].as_array().unwrap() {
        let task = &t["task"];
        if let Some(r) = t.get("resampling") {
            assert_eq!(r["unit"], t["unit"], "{task}");
        }
        for list in ["rows", "teams"] {
            let ranks: Vec<u64> = t[list]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["rank"].as_u64().unwrap())
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] <= w[1]),
                "{task} {list}: ranks {ranks:?}"
            );
        }
        for r in t["rows"].as_array().unwrap() {
            for (c, ci) in r["ci"].as_object().unwrap() {
                assert!(ci[0].as_f64() <= ci[1].as_f64(), "{task} {c}: {ci}");
                assert!(
                    r["scores"].get(c).is_some(),
                    "{task}: interval of {c} without a score"
                );
            }
        }
    }
}

#[test]
fn family_campaign_outputs_validate() {
    let (board, results) = (validator("leaderboard"), validator("results"));
    let (dir, toml) = family_campaign("json_schemas_family");
    for extra in [vec![], vec!["--bootstrap", "50"]] {
        let out = dir.join(format!("out{}", extra.len()));
        let runs = dir.join("runs");
        let mut a = vec![
            "leaderboard",
            "--campaign",
            toml.to_str().unwrap(),
            "--gold-dir",
            dir.to_str().unwrap(),
            "--runs-dir",
            runs.to_str().unwrap(),
            "--outdir",
            out.to_str().unwrap(),
            "-q",
        ];
        a.extend(extra.iter().copied());
        let o = crate::common::fairscore(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let files = json_files(&out);
        assert_eq!(files.len(), 15, "leaderboard.json and 14 runs: {files:?}");
        for f in files {
            let doc = read_json(&f);
            if f.file_name().is_some_and(|n| n == "leaderboard.json") {
                assert_valid(&board, &f.display().to_string(), &doc);
                leaderboard_rules(&doc);
                let tables = doc["tables"].as_array().unwrap();
                assert_eq!(tables.len(), 7);
                let by_lang: Vec<&Value> =
                    tables.iter().filter(|t| t["task"] == "muc-lang").collect();
                assert_eq!(by_lang.len(), 2);
                for t in by_lang {
                    assert_eq!(t["lower_is_better"], json!(true));
                    assert!(t["group"]["lang"].is_string(), "{}", t["group"]);
                }
                assert_eq!(
                    tables.iter().all(|t| t.get("resampling").is_some()),
                    !extra.is_empty()
                );
            } else {
                assert!(f.parent().unwrap().ends_with("runs"), "{}", f.display());
                assert_valid(&results, &f.display().to_string(), &doc);
            }
        }
    }
}

#[test]
fn hipe_campaign_outputs_validate() {
    let v = validator("hipe-score");
    // The bundled runs, scored with the fair regimes and intervals.
    let dir = crate::common::temp_dir("json_schemas_hipe_campaign");
    let src = repo().join("tests/data/hipe2022-ajmc-en");
    for d in ["gold", "runs", "res"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::copy(
        src.join("HIPE-2022-v2.1-ajmc-test-en.tsv"),
        dir.join("gold/HIPE-2022-v2.1-ajmc-test-en.tsv"),
    )
    .unwrap();
    for r in [
        "team2_bundle1_ajmc_en_1.tsv",
        "neurbsl_bundle3_ajmc_en_1.tsv",
    ] {
        std::fs::copy(src.join(r), dir.join("runs").join(r)).unwrap();
    }
    std::fs::copy(
        src.join("tagset-hipe2022-all.txt"),
        dir.join("res/tagset-hipe2022-all.txt"),
    )
    .unwrap();
    let preset = std::fs::read_to_string(repo().join("presets/hipe-2022.toml")).unwrap();
    let toml = dir.join("campaign.toml");
    std::fs::write(&toml, preset.replacen("\n[", "\nfair = true\n\n[", 1)).unwrap();
    let mut outs = vec![];
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let own = [
        "--campaign".to_string(),
        s(&toml),
        "--gold-dir".into(),
        s(&dir.join("gold")),
        "--runs-dir".into(),
        s(&dir.join("runs")),
        "--resources".into(),
        s(&dir.join("res")),
        "--bootstrap".into(),
        "20".into(),
    ];
    outs.push((dir.join("out"), own.to_vec()));
    // The real campaign, replayed from the official outputs.
    if let Some(d) = crate::common::shared_data("hipe_campaign_outputs_validate") {
        let h = d.join("hipe2022");
        let replay = [
            "--gold-dir".to_string(),
            s(&h.join("gold")),
            "--runs-dir".into(),
            s(&h.join("submissions")),
            "--resources".into(),
            s(&h.join("resources")),
            "--replay".into(),
            s(&h.join("official")),
        ];
        outs.push((dir.join("out-real"), replay.to_vec()));
    }
    for (out, args) in outs {
        let mut a: Vec<String> = vec![
            "leaderboard".into(),
            "--outdir".into(),
            s(&out),
            "-q".into(),
        ];
        a.extend(args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = crate::common::fairscore(&a);
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{a:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // A HIPE campaign's only JSON files are its runs' HIPE outputs (no leaderboard.json:
        // one would need a schema).
        let files = json_files(&out);
        assert!(files.len() >= 5, "{files:?}");
        for f in &files {
            assert!(f.parent().unwrap().ends_with("runs"), "{}", f.display());
            assert_valid(&v, &f.display().to_string(), &read_json(f));
        }
        let fair = files
            .iter()
            .any(|f| std::fs::read_to_string(f).unwrap().contains("\"fair\": {"));
        assert_eq!(
            fair,
            !a.contains(&"--replay"),
            "fair blocks in {}",
            out.display()
        );
    }
}

#[test]
fn codabench_scores_validate() {
    let v = validator("codabench-scores");
    let (dir, toml) = family_campaign("json_schemas_codabench");
    let input = dir.join("input");
    let (rf, res) = (input.join("ref"), input.join("res"));
    std::fs::create_dir_all(&rf).unwrap();
    std::fs::create_dir_all(&res).unwrap();
    for g in [
        "test.conll",
        "test.txt",
        "test.tsv",
        "test-de.conll",
        "test-en.conll",
    ] {
        std::fs::copy(dir.join(g), rf.join(g)).unwrap();
    }
    // No tagging run: its column scores 0; no English run of the count-ranked task: the
    // worst number Codabench stores (issue 46.2: not f64::MAX, beyond numeric(20,10)).
    for r in ["beta_1.conll", "beta_1.txt", "beta_1-de.bio"] {
        std::fs::copy(dir.join("runs").join(r), res.join(r)).unwrap();
    }
    let output = dir.join("output");
    let o = crate::common::fairscore(&[
        "codabench",
        "--campaign",
        toml.to_str().unwrap(),
        input.to_str().unwrap(),
        output.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let files = json_files(&output);
    assert_eq!(files.len(), 1, "{files:?}");
    let doc = read_json(&files[0]);
    assert_valid(&v, "scores.json", &doc);
    let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "ner__F1",
            "fair__F1",
            "muc__F",
            "seg__F1",
            "tags__F1",
            "muc_lang_de__MIS",
            "muc_lang_en__MIS"
        ]
    );
    assert_eq!(doc["tags__F1"], json!(0.0));
    assert_eq!(doc["muc_lang_en__MIS"], json!(9_999_999_999.0));
    assert_eq!(doc["muc_lang_de__MIS"], json!(6.0));
    assert!(doc["ner__F1"].as_f64().unwrap() > 0.0);
}

#[test]
fn family_campaign_of_real_data_validates() {
    let Some(data) = crate::common::shared_data("family_campaign_of_real_data_validates") else {
        return;
    };
    let ud = data.join("ud");
    let dir = crate::common::temp_dir("json_schemas_real_campaign");
    let (runs, rf, res) = (dir.join("runs"), dir.join("in/ref"), dir.join("in/res"));
    for d in [&runs, &rf, &res] {
        std::fs::create_dir_all(d).unwrap();
    }
    for g in [
        "segmentation/zh_gsd-ud-dev.txt",
        "tagging/pl_pdb-ud-dev.conllu",
    ] {
        let name = Path::new(g).file_name().unwrap();
        std::fs::copy(ud.join(g), dir.join(name)).unwrap();
        std::fs::copy(ud.join(g), rf.join(name)).unwrap();
    }
    for (from, to) in [
        ("segmentation/jieba-dev.txt", "jieba_1.txt"),
        ("segmentation/thulac-dev.txt", "thulac_1.txt"),
        ("tagging/morfeusz-first-dev.conllu", "morfeusz_1.conllu"),
        ("tagging/morfeusz-all-dev.conllu", "morfeusz_2.conllu"),
        ("tagging/freq-dev.conllu", "freq_1.conllu"),
    ] {
        std::fs::copy(ud.join(from), runs.join(to)).unwrap();
    }
    let toml = dir.join("campaign.toml");
    let task = |n: &str, f: &str, fmt: &str, g: &str, ext: &str| {
        format!("[[task]]\nname = \"{n}\"\nfamily = \"{f}\"\nformat = \"{fmt}\"\ngold = \"{g}\"\nruns = \"{{team}}_{{run}}.{ext}\"\nrank_by = \"F1\"\n")
    };
    let text = format!(
        "name = \"ud\"\n\n{}\n{}tagset = \"nkjp\"\n",
        task("seg", "segmentation", "text", "zh_gsd-ud-dev.txt", "txt"),
        task("pos", "tagging", "conllu", "pl_pdb-ud-dev.conllu", "conllu")
    );
    std::fs::write(&toml, text).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let (c, d, r, o) = (s(&toml), s(&dir), s(&runs), s(&dir.join("out")));
    let a = [
        "leaderboard",
        "--campaign",
        &c,
        "--gold-dir",
        &d,
        "--runs-dir",
        &r,
        "--outdir",
        &o,
    ];
    let out = crate::common::fairscore(&[&a[..], &["--bootstrap", "100", "-q"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board = read_json(&dir.join("out/leaderboard.json"));
    assert_valid(&validator("leaderboard"), "leaderboard.json", &board);
    leaderboard_rules(&board);
    let ranked: usize = board["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["rows"].as_array().unwrap().len())
        .sum();
    assert_eq!(ranked, 5);
    let results = validator("results");
    let files = json_files(&dir.join("out/runs"));
    assert_eq!(files.len(), 5, "{files:?}");
    for f in files {
        assert_valid(&results, &f.display().to_string(), &read_json(&f));
    }
    // The same campaign on Codabench, one run per column.
    std::fs::copy(runs.join("jieba_1.txt"), res.join("jieba_1.txt")).unwrap();
    std::fs::copy(runs.join("freq_1.conllu"), res.join("freq_1.conllu")).unwrap();
    let output = dir.join("out-codabench");
    let out = crate::common::fairscore(&[
        "codabench",
        "--campaign",
        &c,
        &s(&dir.join("in")),
        &s(&output),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scores = read_json(&output.join("scores.json"));
    assert_valid(&validator("codabench-scores"), "scores.json", &scores);
    assert_eq!(scores.as_object().unwrap().len(), 2, "{scores}");
}
