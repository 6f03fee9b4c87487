//! Issue 33, "submissions are hostile": what a Codabench submission, a runs directory or a
//! campaign file can do to the scoring program and the bundle. Links are refused, never
//! followed; inputs are never written over; a run whose name cannot become a file name fails
//! alone; non-UTF-8 names are said; broken competitions are refused with file and line; what
//! is the participant's fault is a "submission refused" (exit 1), never the organiser's exit 3.

use crate::common::{fairscore, temp_dir};
use std::path::{Path, PathBuf};
use std::process::Output;

const GOLD_CONLL: &str = "-DOCSTART- O\n\nAnna B-PER\nSmith I-PER\nlives O\nin O\nRome B-LOC\n. O\n\nBob B-PER\nwent O\nto O\nParis B-LOC\n. O\n\n";
const GOLD_TEXT: &str = "ab cd ef gh\nij kl mn\nop qr\n";

/// A two-task campaign (spans on CoNLL, segmentation on text); `format` of the spans task
/// as given (None: no `format` key).
fn campaign_text(name: &str, ner_format: Option<&str>, rank_by: &str) -> String {
    let format = ner_format.map_or(String::new(), |f| format!("format = \"{f}\"\n"));
    format!(
        "name = \"{name}\"\n\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\n{format}gold = \"test.conll\"\nruns = \"{{team}}_{{run}}.conll\"\nrank_by = \"{rank_by}\"\n\n[[task]]\nname = \"seg\"\nfamily = \"segmentation\"\nformat = \"text\"\ngold = \"test.txt\"\nruns = \"{{team}}_{{run}}.txt\"\n"
    )
}

/// `root/campaign.toml`, `root/input/ref` (the gold), an empty `root/input/res` and the path
/// of `root/output` (not created).
fn layout(name: &str, campaign: &str) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let root = temp_dir(&format!("hardening_submissions_{name}"));
    let c = root.join("campaign.toml");
    std::fs::write(&c, campaign).unwrap();
    let input = root.join("input");
    std::fs::create_dir_all(input.join("ref")).unwrap();
    std::fs::create_dir_all(input.join("res")).unwrap();
    std::fs::write(input.join("ref/test.conll"), GOLD_CONLL).unwrap();
    std::fs::write(input.join("ref/test.txt"), GOLD_TEXT).unwrap();
    (root.clone(), c, input, root.join("output"))
}

fn codabench(campaign: &Path, input: &Path, output: &Path) -> (Option<i32>, String, String) {
    let o = fairscore(&[
        "codabench",
        "--campaign",
        &campaign.to_string_lossy(),
        &input.to_string_lossy(),
        &output.to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    (o.status.code(), stderr, stdout)
}

fn assert_refused(code: Option<i32>, stderr: &str, output: &Path, fragments: &[&str]) {
    assert_eq!(code, Some(1), "{stderr}");
    // Issue 46.7: every line of a refusal says so, as docs/codabench.md has it.
    assert!(!stderr.is_empty());
    for l in stderr.lines() {
        assert!(l.starts_with("fairscore: submission refused: "), "{l}");
    }
    for f in fragments {
        assert!(stderr.contains(f), "no {f:?} in: {stderr}");
    }
    assert!(!output.join("scores.json").exists(), "scores written");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn links_in_a_submission_are_refused_never_followed() {
    use std::os::unix::fs::symlink;
    // A run linked to the gold would score 1.0.
    let (_, c, input, out) = layout("link_gold", &campaign_text("c", Some("conll"), "F1"));
    symlink(input.join("ref/test.conll"), input.join("res/team_1.conll")).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["team_1.conll", "symbolic link"]);
    // A run linked to any other file: its content is never read, so never quoted.
    let (root, c, input, out) = layout("link_secret", &campaign_text("c", Some("conll"), "F1"));
    std::fs::write(root.join("secret.txt"), "TOP-SECRET-KEY x\n").unwrap();
    symlink(root.join("secret.txt"), input.join("res/team_1.conll")).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["team_1.conll"]);
    assert!(!stderr.contains("TOP-SECRET-KEY"), "{stderr}");
    // A folder linked elsewhere (here: to the gold folder).
    let (_, c, input, out) = layout("link_dir", &campaign_text("c", Some("conll"), "F1"));
    symlink(input.join("ref"), input.join("res/runs")).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["runs", "symbolic link"]);
}

#[cfg(unix)]
#[test]
fn outputs_never_go_through_links_or_into_inputs() {
    use std::os::unix::fs::symlink;
    let (root, c, input, out) = layout("out_link", &campaign_text("c", Some("conll"), "F1"));
    std::fs::write(input.join("res/team_1.conll"), GOLD_CONLL).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(root.join("victim.txt"), "keep me\n").unwrap();
    symlink(root.join("victim.txt"), out.join("scores.json")).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(root.join("victim.txt")).unwrap(),
        "keep me\n",
        "scores.json was written through the link"
    );
    let meta = std::fs::symlink_metadata(out.join("scores.json")).unwrap();
    assert!(meta.file_type().is_file(), "scores.json is still a link");
    // An output folder that is a link to the gold folder.
    let out2 = root.join("output2");
    symlink(input.join("ref"), &out2).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out2);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("input directory"), "{stderr}");
    assert!(!input.join("ref/scores.json").exists());
}

/// A file that starts as an ELF binary does: enough for `codabench-bundle --binary`.
fn fake_binary(root: &Path) -> PathBuf {
    let p = root.join("fake-fairscore");
    std::fs::write(&p, b"\x7fELF fake").unwrap();
    p
}

fn bundle(c: &Path, gold: &Path, binary: &Path, extra: &[&str], out: &Path) -> Output {
    let (c, g, b, o) = (
        c.to_string_lossy().into_owned(),
        gold.to_string_lossy().into_owned(),
        binary.to_string_lossy().into_owned(),
        out.to_string_lossy().into_owned(),
    );
    let mut args = vec![
        "codabench-bundle",
        "--campaign",
        &c,
        "--gold-dir",
        &g,
        "--binary",
        &b,
    ];
    args.extend_from_slice(extra);
    args.push(&o);
    fairscore(&args)
}

#[test]
fn the_bundle_is_never_written_over_or_into_the_gold() {
    let (root, c, input, _) = layout("bundle_gold", &campaign_text("c", Some("conll"), "F1"));
    let bin = fake_binary(&root);
    let gold = input.join("ref");
    for target in [gold.join("test.conll"), gold.join("bundle.zip")] {
        let o = bundle(&c, &gold, &bin, &[], &target);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}: {stderr}", target.display());
        assert!(stderr.contains("--gold-dir"), "{stderr}");
    }
    assert_eq!(
        std::fs::read_to_string(gold.join("test.conll")).unwrap(),
        GOLD_CONLL
    );
    assert!(!gold.join("bundle.zip").exists());
}

/// The HIPE campaign of class 3: one dataset, one language, bundle 4.
const HIPE: &str = r#"
name = "mini"
edition = "hipe-2022"
run_pattern = "{team}_bundle{bundle}_{dataset}_{lang}_{run}"
gold_pattern = "gold-{dataset}-{lang}.tsv"

[datasets.newseye]
languages = ["fr"]

[[task]]
task = "nerc_coarse"

[bundles]
4 = ["nerc_coarse"]

[[ranking]]
kind = "coarse-micro-fuzzy"
outputs = ["nerc_coarse"]
prefixes = ["NE-COARSE"]
contains = ["micro-fuzzy"]
order = ["label", "f1-desc", "evaluation", "system"]
"#;

#[test]
fn a_run_whose_name_cannot_be_a_file_name_fails_alone() {
    let root = temp_dir("hardening_submissions_unsafe_name");
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::copy(bad.join("gold.tsv"), root.join("gold/gold-newseye-fr.tsv")).unwrap();
    let run = bad.join("good_bundle1_newseye_fr_1.tsv");
    std::fs::copy(&run, root.join("runs/team_bundle4_newseye_fr_1.tsv")).unwrap();
    std::fs::copy(&run, root.join("runs/x\\y_bundle4_newseye_fr_1.tsv")).unwrap();
    std::fs::write(root.join("campaign.toml"), HIPE).unwrap();
    let s = |p: &str| root.join(p).to_string_lossy().into_owned();
    let o = fairscore(&[
        "leaderboard",
        "-q",
        "--campaign",
        &s("campaign.toml"),
        "--gold-dir",
        &s("gold"),
        "--runs-dir",
        &s("runs"),
        "--resources",
        &s("resources"),
        "--outdir",
        &s("out"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("x\\y_bundle4_newseye_fr_1.tsv"), "{stderr}");
    assert!(stderr.contains("path separator"), "{stderr}");
    let ranking = std::fs::read_to_string(
        root.join("out/rankings/ranking-newseye-fr-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert!(ranking.contains("team_bundle4_newseye_fr_1"), "{ranking}");
    assert!(!ranking.contains("x\\y"), "{ranking}");
    let runs: Vec<String> = std::fs::read_dir(root.join("out/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(runs.iter().all(|n| n.starts_with("team_")), "{runs:?}");
    assert!(root.join("out/index.html").is_file());
}

#[cfg(target_os = "linux")]
#[test]
fn non_utf8_file_names_are_named_not_dropped() {
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"team_\xff.conll");
    // Codabench: a submission holding only that file, and one holding it beside a run.
    let (_, c, input, out) = layout("non_utf8_alone", &campaign_text("c", Some("conll"), "F1"));
    std::fs::write(input.join("res").join(odd), GOLD_CONLL).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["team_\u{fffd}.conll", "not UTF-8"]);
    let (_, c, input, out) = layout("non_utf8_beside", &campaign_text("c", Some("conll"), "F1"));
    std::fs::write(input.join("res").join(odd), GOLD_CONLL).unwrap();
    std::fs::write(input.join("res/team_1.txt"), GOLD_TEXT).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["team_\u{fffd}.conll", "not UTF-8"]);
    // A family campaign's runs directory.
    let (root, c, input, _) = layout("non_utf8_family", &campaign_text("c", Some("conll"), "F1"));
    std::fs::create_dir_all(root.join("runs")).unwrap();
    std::fs::write(root.join("runs").join(odd), GOLD_CONLL).unwrap();
    std::fs::write(root.join("runs/team_1.conll"), GOLD_CONLL).unwrap();
    let o = fairscore(&[
        "leaderboard",
        "-q",
        "--campaign",
        &c.to_string_lossy(),
        "--gold-dir",
        &input.join("ref").to_string_lossy(),
        "--runs-dir",
        &root.join("runs").to_string_lossy(),
        "--outdir",
        &root.join("out").to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("team_\u{fffd}.conll"), "{stderr}");
    assert!(stderr.contains("not UTF-8"), "{stderr}");
}

#[test]
fn conll_runs_are_checked_when_the_format_is_detected() {
    // An entity type the gold does not have: `check` warns (unknown-label), so the
    // submission fails, whether the campaign gives `format = "conll"` or not.
    let run = GOLD_CONLL.replace("Rome B-LOC", "Rome B-CITY");
    for (name, format) in [("check_given", Some("conll")), ("check_detected", None)] {
        let (_, c, input, out) = layout(name, &campaign_text("c", format, "F1"));
        std::fs::write(input.join("res/team_1.conll"), &run).unwrap();
        let (code, stderr, _) = codabench(&c, &input, &out);
        assert_refused(code, &stderr, &out, &["team_1.conll"]);
        assert!(
            stderr.contains("unknown-label") || stderr.contains("CITY"),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn broken_competitions_are_refused_with_file_and_line() {
    // rank_by names a column the family does not have (line 9 of the campaign).
    let (root, c, input, _) = layout("rank_by", &campaign_text("c", Some("conll"), "F7"));
    let bin = fake_binary(&root);
    let gold = input.join("ref");
    let zip = root.join("bundle.zip");
    let o = bundle(&c, &gold, &bin, &[], &zip);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("campaign.toml:9:"), "{stderr}");
    assert!(stderr.contains("rank_by"), "{stderr}");
    assert!(!zip.exists());
    // Phase dates that are no calendar dates, or an end before the start.
    let (_, c, _, _) = layout("dates", &campaign_text("c", Some("conll"), "F1"));
    for extra in [
        &["--phase-start", "2026-13-45"][..],
        &["--phase-start", "2026-02-30"][..],
        &["--phase-start", "2026-01-01 24:00:00"][..],
        &[
            "--phase-start",
            "2026-03-01",
            "--phase-end",
            "2026-02-01 00:00:00",
        ][..],
    ] {
        let o = bundle(&c, &gold, &bin, extra, &zip);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains("--phase-"), "{stderr}");
        assert!(!zip.exists());
    }
    let o = bundle(&c, &gold, &bin, &["--phase-start", "2024-02-29"], &zip);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A TOML syntax error is said with its line, for leaderboard as for the bundle.
    let broken = campaign_text("c", Some("conll"), "F1")
        .replace("family = \"segmentation\"", "family = segmentation");
    std::fs::write(&c, &broken).unwrap();
    let o = fairscore(&[
        "leaderboard",
        "-q",
        "--campaign",
        &c.to_string_lossy(),
        "--gold-dir",
        &gold.to_string_lossy(),
        "--runs-dir",
        &input.join("res").to_string_lossy(),
        "--outdir",
        &root.join("site").to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("campaign.toml:13:"), "{stderr}");
    assert!(!stderr.contains("resources"), "{stderr}");
    let o = bundle(&c, &gold, &bin, &[], &root.join("b2.zip"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("campaign.toml:13:"), "{stderr}");
    // Unknown keys, at the top and in a task, named with their line.
    let unknown =
        campaign_text("c", Some("conll"), "F1").replace("rank_by", "colour = \"red\"\nrank_by");
    std::fs::write(&c, format!("{unknown}\nseason = 3\n")).unwrap();
    let o = bundle(&c, &gold, &bin, &[], &zip);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("campaign.toml:9:"), "{stderr}");
    assert!(stderr.contains("colour"), "{stderr}");
    std::fs::write(
        &c,
        format!("season = 3\n{}", campaign_text("c", Some("conll"), "F1")),
    )
    .unwrap();
    let o = bundle(&c, &gold, &bin, &[], &zip);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("campaign.toml:1:"), "{stderr}");
    assert!(stderr.contains("season"), "{stderr}");
}

#[test]
fn yaml_line_breaks_and_unprintables_in_names_are_escaped() {
    let name = "Shared\u{2028}task\u{2029}2026\u{85}x\u{7f}y\u{9c}z \"q\" \\";
    // The name as a TOML basic string.
    let toml_name: String = name
        .chars()
        .map(|c| match c {
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            '\u{7f}' => "\\u007F".to_string(),
            c => c.to_string(),
        })
        .collect();
    let (root, c, input, _) = layout("yaml", &campaign_text(&toml_name, Some("conll"), "F1"));
    let bin = fake_binary(&root);
    let zip = root.join("bundle.zip");
    let o = bundle(&c, &input.join("ref"), &bin, &[], &zip);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The bundle is stored (not compressed): competition.yaml is its first entry.
    let bytes = std::fs::read(&zip).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let yaml = text
        .split("competition.yaml")
        .nth(1)
        .and_then(|s| s.split("PK\u{3}\u{4}").next())
        .unwrap()
        .to_string();
    for c in ['\u{2028}', '\u{2029}', '\u{85}', '\u{7f}', '\u{9c}'] {
        assert!(!yaml.contains(c), "{c:?} unescaped in {yaml}");
    }
    // PyYAML (Codabench's loader) reads the title back.
    let dir = root.join("yaml");
    std::fs::create_dir_all(&dir).unwrap();
    let start = yaml.find("# Written").unwrap();
    std::fs::write(dir.join("competition.yaml"), &yaml[start..]).unwrap();
    let py = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))['title']))",
            &dir.join("competition.yaml").to_string_lossy(),
        ])
        .output();
    match py {
        Ok(o) if o.status.success() => {
            let got: String = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(got, name);
        }
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named") => {
            crate::common::skip_notice("yaml_line_breaks (PyYAML absent)")
        }
        Ok(o) => panic!("PyYAML: {}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => crate::common::skip_notice("yaml_line_breaks (python3 absent)"),
    }
}

#[test]
fn the_participants_faults_are_refusals_not_organiser_errors() {
    // Folders nested too deep.
    let (_, c, input, out) = layout("deep", &campaign_text("c", Some("conll"), "F1"));
    let mut d = input.join("res");
    for _ in 0..20 {
        d = d.join("a");
    }
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("team_1.conll"), GOLD_CONLL).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["too deep"]);
    // Too many files.
    let (_, c, input, out) = layout("many", &campaign_text("c", Some("conll"), "F1"));
    for i in 0..10_001 {
        std::fs::write(input.join(format!("res/f{i}.csv")), "").unwrap();
    }
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["10,000 files"]);
    // A run that is not UTF-8.
    let (_, c, input, out) = layout("latin1", &campaign_text("c", Some("conll"), "F1"));
    let mut bytes = GOLD_CONLL.as_bytes().to_vec();
    bytes.extend_from_slice(b"Caf\xe9 O\n");
    std::fs::write(input.join("res/team_1.conll"), bytes).unwrap();
    let (code, stderr, _) = codabench(&c, &input, &out);
    assert_refused(code, &stderr, &out, &["team_1.conll", "UTF-8"]);
    // A run over 2 GiB (a sparse file: nothing is read).
    let (_, c, input, out) = layout("huge", &campaign_text("c", Some("conll"), "F1"));
    let f = std::fs::File::create(input.join("res/team_1.conll")).unwrap();
    f.set_len((2u64 << 30) + 1).unwrap();
    drop(f);
    let (code, stderr, _) = codabench(&c, &input, &out);
    let _ = std::fs::remove_file(input.join("res/team_1.conll"));
    assert_refused(code, &stderr, &out, &["team_1.conll", "2 GiB"]);
}
