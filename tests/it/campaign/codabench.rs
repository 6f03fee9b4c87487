//! Campaigns of family tasks on Codabench, through an emulation of its compute worker
//! (`tests/common/worker.rs`) on the bundle `fairscore codabench-bundle` writes. Its scores
//! must be those of `fairscore leaderboard` for the same runs, under exactly the
//! leaderboard's column keys.

use crate::common::worker::{unzip, Worker};
use crate::common::{fairscore, temp_dir};
use std::path::{Path, PathBuf};

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// CoNLL gold and a run: 6 documents of 4 sentences, entities of three labels; the run
/// changes a label or drops an entity now and then (`noise` in 1/10).
fn conll(seed: u64, noise: u64) -> (String, String) {
    let (mut g, mut r) = (String::new(), String::new());
    let mut rng = Lcg(7);
    let mut noise_rng = Lcg(seed);
    let labels = ["PER", "LOC", "ORG"];
    for d in 0..6 {
        g.push_str("-DOCSTART- O\n\n");
        r.push_str("-DOCSTART- O\n\n");
        for s in 0..4 {
            for t in 0..8 {
                let word = format!("w{d}{s}{t}");
                let (gt, rt) = if rng.next(4) == 0 && t < 7 {
                    let l = labels[rng.next(3) as usize];
                    let rl = match noise_rng.next(10) {
                        x if x < noise / 2 => "O".to_string(),
                        x if x < noise => format!("B-{}", labels[(rng.next(2) + 1) as usize]),
                        _ => format!("B-{l}"),
                    };
                    (format!("B-{l}"), rl)
                } else {
                    ("O".to_string(), "O".to_string())
                };
                g.push_str(&format!("{word} {gt}\n"));
                r.push_str(&format!("{word} {rt}\n"));
            }
            g.push('\n');
            r.push('\n');
        }
    }
    (g, r)
}

/// Segmentation gold (one sentence a line) and a run gluing some word pairs.
fn text(seed: u64) -> (String, String) {
    let (mut g, mut r) = (String::new(), String::new());
    let mut rng = Lcg(seed);
    for i in 0..20 {
        let words = ["ab", "cd", "ef", "gh", "ij"];
        g.push_str(&words.join(" "));
        g.push('\n');
        let mut line = String::new();
        for (k, w) in words.iter().enumerate() {
            line.push_str(w);
            if k + 1 < words.len() && !(rng.next(4) == 0 && i % 2 == 0) {
                line.push(' ');
            }
        }
        r.push_str(&line);
        r.push('\n');
    }
    (g, r)
}

/// CoNLL-U gold and a run whose UPOS differs now and then.
fn conllu(seed: u64) -> (String, String) {
    let tags = ["NOUN", "VERB", "ADJ", "DET"];
    let (mut g, mut r) = (String::new(), String::new());
    let (mut rng, mut noise) = (Lcg(3), Lcg(seed));
    for s in 0..12 {
        for (out, _) in [(&mut g, 0), (&mut r, 1)] {
            out.push_str(&format!("# sent_id = s{s}\n"));
        }
        for t in 1..=6 {
            let tag = tags[rng.next(4) as usize];
            let rtag = if noise.next(5) == 0 {
                tags[noise.next(4) as usize]
            } else {
                tag
            };
            let line = |tag: &str| format!("{t}\tw{s}{t}\tw\t{tag}\t_\t_\t0\troot\t_\t_\n");
            g.push_str(&line(tag));
            r.push_str(&line(rtag));
        }
        g.push('\n');
        r.push('\n');
    }
    (g, r)
}

const CAMPAIGN: &str = r#"name = "codabench-test"

[[task]]
name = "ner"
family = "spans"
format = "conll"
gold = "ner.conll"
runs = "{team}_{run}.conll"
regimes = ["strict", "partial"]

[[task]]
name = "fair"
family = "fair"
format = "conll"
gold = "ner.conll"
runs = "{team}_{run}.conll"

[[task]]
name = "muc"
family = "muc"
format = "conll"
gold = "ner.conll"
runs = "{team}_{run}.conll"

[[task]]
name = "seg"
family = "segmentation"
format = "text"
gold = "seg.txt"
runs = "{team}_{run}.txt"
rank_by = "F1"

[[task]]
name = "pos"
family = "tagging"
format = "conllu"
column = "UPOS"
gold = "pos-{lang}.conllu"
runs = "{team}_{run}-{lang}.conllu"
"#;

/// The gold directory, the campaign file and the runs of team `alpha` (file name, text).
fn fixture(dir: &Path) -> (PathBuf, PathBuf, Vec<(String, String)>) {
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    let (ng, nr) = conll(11, 4);
    let (sg, sr) = text(5);
    let (pg_de, pr_de) = conllu(9);
    let (pg_en, pr_en) = conllu(13);
    std::fs::write(gold.join("ner.conll"), ng).unwrap();
    std::fs::write(gold.join("seg.txt"), sg).unwrap();
    std::fs::write(gold.join("pos-de.conllu"), pg_de).unwrap();
    std::fs::write(gold.join("pos-en.conllu"), pg_en).unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(&c, CAMPAIGN).unwrap();
    let runs = vec![
        ("alpha_1.conll".to_string(), nr),
        ("alpha_1.txt".to_string(), sr),
        ("alpha_1-de.conllu".to_string(), pr_de),
        ("alpha_1-en.conllu".to_string(), pr_en),
    ];
    (gold, c, runs)
}

/// `fairscore leaderboard`'s own score of every (task, group) of `runs_dir`'s runs of system
/// `system`, keyed as the leaderboard columns are.
fn own_scores(
    dir: &Path,
    gold: &Path,
    campaign: &Path,
    runs: &[(String, String)],
) -> serde_json::Map<String, serde_json::Value> {
    let runs_dir = dir.join("runs");
    std::fs::create_dir_all(&runs_dir).unwrap();
    for (n, t) in runs {
        std::fs::write(runs_dir.join(n), t).unwrap();
    }
    let out_dir = dir.join("site");
    let out = fairscore(&[
        "leaderboard",
        "--campaign",
        &campaign.display().to_string(),
        "--gold-dir",
        &gold.display().to_string(),
        "--runs-dir",
        &runs_dir.display().to_string(),
        "--outdir",
        &out_dir.display().to_string(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lb: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("leaderboard.json")).unwrap())
            .unwrap();
    let mut m = serde_json::Map::new();
    for t in lb["tables"].as_array().unwrap() {
        let metric = t["metric"].as_str().unwrap();
        let mut key = t["task"].as_str().unwrap().to_string();
        for (_, v) in t["group"].as_object().unwrap() {
            key.push('_');
            key.push_str(v.as_str().unwrap());
        }
        key.push_str("__");
        key.push_str(metric);
        let row = &t["rows"][0];
        m.insert(key, row["scores"][metric].clone());
    }
    m
}

#[test]
fn every_family_scores_on_codabench_as_fairscore_does() {
    let dir = temp_dir("codabench_families");
    let (gold, campaign, runs) = fixture(&dir);
    let worker = Worker::new(&dir, &gold, &campaign);
    assert_eq!(
        worker.keys,
        [
            "ner__F1",
            "fair__F1",
            "muc__F",
            "seg__F1",
            "pos_de__F1",
            "pos_en__F1"
        ]
    );
    let own = own_scores(&dir, &gold, &campaign, &runs);
    // As participants zip them: in a folder, with a README beside.
    let mut files: Vec<(String, &str)> = runs
        .iter()
        .map(|(n, t)| (format!("alpha/{n}"), t.as_str()))
        .collect();
    files.push(("README.md".into(), "notes\n"));
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let (code, stderr, scores) = worker.score("full", &refs);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.expect("scores.json written");
    let obj = scores.as_object().unwrap();
    let keys: Vec<&String> = obj.keys().collect();
    assert_eq!(
        keys,
        worker.keys.iter().collect::<Vec<_>>(),
        "exactly the column keys"
    );
    for k in &worker.keys {
        let ours = obj[k].as_f64().unwrap();
        let theirs = own[k]
            .as_f64()
            .unwrap_or_else(|| panic!("no own score for {k}"));
        assert_eq!(ours, theirs, "{k}");
        assert!(
            ours > 0.0 && ours < 1.0,
            "{k} = {ours}: the runs are imperfect"
        );
    }
    let page = std::fs::read_to_string(
        worker
            .root
            .parent()
            .unwrap()
            .join("full/output/detailed_results.html"),
    )
    .unwrap();
    assert!(
        page.contains("fairscore:signature"),
        "the signature's place is marked"
    );
    // Each column's scoring signed: family, the gold's and the run's hashes.
    for k in &worker.keys {
        let at = page
            .find(&format!("<code>{k}</code>: <code"))
            .unwrap_or_else(|| panic!("no signature of {k} on the page"));
        let line = &page[at..page[at..].find("</p>").map_or(page.len(), |e| at + e)];
        assert!(
            line.contains("fairscore|family:") && line.contains("|gold:") && line.contains("|run:"),
            "{k}: {line}"
        );
    }
    // Each column's score, as a percentage, on the page.
    for k in &worker.keys {
        let pct = format!("{:.2}", obj[k].as_f64().unwrap() * 100.0);
        assert!(page.contains(&pct), "{k} {pct} not on the page");
    }
}

#[test]
fn a_task_without_a_run_scores_zero_and_the_page_says_so() {
    let dir = temp_dir("codabench_missing");
    let (gold, campaign, runs) = fixture(&dir);
    let worker = Worker::new(&dir, &gold, &campaign);
    let (code, stderr, scores) = worker.score("seg_only", &[("alpha_1.txt", runs[1].1.as_str())]);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.unwrap();
    let obj = scores.as_object().unwrap();
    assert_eq!(obj.len(), worker.keys.len());
    assert!(obj["seg__F1"].as_f64().unwrap() > 0.0);
    for k in worker.keys.iter().filter(|k| *k != "seg__F1") {
        assert_eq!(obj[k].as_f64(), Some(0.0), "{k}");
    }
    let page = std::fs::read_to_string(dir.join("seg_only/output/detailed_results.html")).unwrap();
    assert!(page.contains("no run in the submission, scored 0"));
}

#[test]
fn a_bad_submission_fails_with_the_checks_findings() {
    let dir = temp_dir("codabench_bad");
    let (gold, campaign, runs) = fixture(&dir);
    let worker = Worker::new(&dir, &gold, &campaign);
    // A CoNLL run with a token changed and a line lost.
    let bad: String = runs[0]
        .1
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 5)
        .map(|(i, l)| {
            if i == 9 {
                "oops B-PER".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (code, stderr, scores) = worker.score("bad", &[("alpha_1.conll", &bad)]);
    assert_ne!(code, 0);
    assert!(
        scores.is_none(),
        "nothing is written for a refused submission"
    );
    assert!(stderr.contains("alpha_1.conll"), "{stderr}");
    assert!(stderr.contains("error"), "{stderr}");
    // No file fits a pattern.
    let (code, stderr, _) = worker.score("none", &[("results.csv", "x\n"), ("b.csv", "y\n")]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no run found"), "{stderr}");
    // Two runs for one column.
    let (code, stderr, _) = worker.score(
        "two",
        &[
            ("a/alpha_1.txt", runs[1].1.as_str()),
            ("b/alpha_2.txt", runs[1].1.as_str()),
        ],
    );
    assert_ne!(code, 0);
    assert!(stderr.contains("2 runs for the column seg__F1"), "{stderr}");
}

#[test]
fn a_one_column_campaign_takes_one_file_of_any_name() {
    let dir = temp_dir("codabench_one");
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    let (sg, sr) = text(21);
    std::fs::write(gold.join("seg.txt"), sg).unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"one\"\n[[task]]\nname = \"seg\"\nfamily = \"segmentation\"\nformat = \"text\"\ngold = \"seg.txt\"\nruns = \"{team}_{run}.txt\"\n",
    )
    .unwrap();
    let worker = Worker::new(&dir, &gold, &c);
    assert_eq!(worker.keys, ["seg__F1"]);
    let own = own_scores(&dir, &gold, &c, &[("x_1.txt".into(), sr.clone())]);
    let (code, stderr, scores) = worker.score("any", &[("output/predictions", &sr)]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(scores.unwrap()["seg__F1"], own["seg__F1"]);
}

#[test]
fn the_bundle_is_the_same_bytes_each_time_and_a_hipe_campaign_needs_its_resources() {
    let dir = temp_dir("codabench_bytes");
    let (gold, campaign, _) = fixture(&dir);
    let write = |name: &str| {
        let zip = dir.join(name);
        let out = fairscore(&[
            "codabench-bundle",
            "--campaign",
            &campaign.display().to_string(),
            "--gold-dir",
            &gold.display().to_string(),
            "--binary",
            env!("CARGO_BIN_EXE_fairscore"),
            "--phase-end",
            "2026-12-31",
            &zip.display().to_string(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(zip).unwrap()
    };
    assert_eq!(write("a.zip"), write("b.zip"));
    // docs/codabench.md shows the command as the bundle has it.
    unzip(&dir.join("a.zip"), &dir.join("a"));
    let meta = std::fs::read_to_string(dir.join("a/scoring_program/metadata.yaml")).unwrap();
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/codabench.md"))
            .unwrap();
    assert!(
        docs.contains(meta.trim()),
        "docs/codabench.md does not show {meta}"
    );
    let bad_date = fairscore(&[
        "codabench-bundle",
        "--campaign",
        &campaign.display().to_string(),
        "--gold-dir",
        &gold.display().to_string(),
        "--phase-start",
        "March 1st",
        &dir.join("c.zip").display().to_string(),
    ]);
    assert_eq!(bad_date.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_date.stderr).contains("YYYY-MM-DD"));
    let hipe = Path::new(env!("CARGO_MANIFEST_DIR")).join("presets/hipe-2022.toml");
    let out = fairscore(&[
        "codabench",
        "--campaign",
        &hipe.display().to_string(),
        &dir.display().to_string(),
        &dir.join("out").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resources: required"), "{err}");
}

/// A campaign of doccano JSONL files: a good submission scores as `evaluate`; one whose
/// offsets leave the text is refused with the check's finding.
#[test]
fn standoff_submissions_are_checked_and_scored() {
    let dir = temp_dir("codabench_standoff");
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    let line = |spans: &str| {
        format!("{{\"id\": \"a\", \"text\": \"Anna met Carl in Oslo\", \"labels\": [{spans}]}}\n")
    };
    std::fs::write(
        gold.join("test.jsonl"),
        line(r#"[0, 4, "PER"], [9, 13, "PER"], [17, 21, "LOC"]"#),
    )
    .unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"standoff\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"doccano\"\ngold = \"test.jsonl\"\nruns = \"{team}_{run}.jsonl\"\n",
    )
    .unwrap();
    let worker = Worker::new(&dir, &gold, &c);
    let run = line(r#"[0, 4, "PER"], [17, 21, "PER"]"#);
    let own = own_scores(&dir, &gold, &c, &[("x_1.jsonl".into(), run.clone())]);
    let (code, stderr, scores) = worker.score("good", &[("x_1.jsonl", &run)]);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.unwrap();
    let key = &worker.keys[0];
    assert_eq!(scores[key.as_str()], own[key.as_str()]);
    assert!(scores[key.as_str()]
        .as_f64()
        .is_some_and(|f| f > 0.0 && f < 1.0));
    let (code, stderr, scores) = worker.score("far", &[("x_1.jsonl", &line(r#"[0, 40, "PER"]"#))]);
    assert_ne!(code, 0);
    assert!(scores.is_none());
    assert!(
        stderr.contains("x_1.jsonl") && stderr.contains("beyond the end of the text"),
        "{stderr}"
    );
}

/// Issue 34: the terms page and the logo are the organiser's (`--terms`, `--logo`); without
/// them the bundle's are placeholders that say so on the page, and a warning names each.
#[test]
fn placeholders_are_flagged_until_the_organiser_gives_terms_and_logo() {
    let dir = temp_dir("codabench_placeholders");
    let (gold, campaign, _) = fixture(&dir);
    let bundle = |name: &str, extra: &[String]| {
        let zip = dir.join(name);
        let mut args = vec![
            "codabench-bundle".to_string(),
            "--campaign".into(),
            campaign.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
            "--binary".into(),
            env!("CARGO_BIN_EXE_fairscore").into(),
        ];
        args.extend(extra.iter().cloned());
        args.push(zip.display().to_string());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = fairscore(&refs);
        let unpacked = dir.join(format!("{name}.d"));
        if out.status.success() {
            unzip(&zip, &unpacked);
        }
        (out, unpacked)
    };
    let (out, d) = bundle("plain.zip", &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for f in ["logo.png", "pages/terms.md"] {
        assert!(
            err.lines()
                .any(|l| l.contains("warning") && l.contains(f) && l.contains("PLACEHOLDER")),
            "no warning for {f}: {err}"
        );
    }
    let terms = std::fs::read_to_string(d.join("pages/terms.md")).unwrap();
    assert!(terms.contains("PLACEHOLDER"), "{terms}");

    let terms_file = dir.join("terms.md");
    std::fs::write(&terms_file, "# Terms\n\nRuns may be published.\n").unwrap();
    let logo_file = dir.join("logo.png");
    let png = [&b"\x89PNG\r\n\x1a\n"[..], &[0u8; 16]].concat();
    std::fs::write(&logo_file, &png).unwrap();
    let given = [
        "--terms".to_string(),
        terms_file.display().to_string(),
        "--logo".into(),
        logo_file.display().to_string(),
    ];
    let (out, d) = bundle("given.zip", &given);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("PLACEHOLDER"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("pages/terms.md")).unwrap(),
        "# Terms\n\nRuns may be published.\n"
    );
    assert_eq!(std::fs::read(d.join("logo.png")).unwrap(), png);

    // A logo that is not a PNG is refused, naming the file.
    std::fs::write(&logo_file, "GIF89a").unwrap();
    let (out, _) = bundle("bad.zip", &given);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("logo.png"));
    assert!(!dir.join("bad.zip").exists());
}
