//! Issue 26, campaigns: a ranking whose filter keeps no row, run names that differ only in
//! case, dead temporary files of a killed campaign, `--replay` with missing outputs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fairscore::campaign::{
    parse_table, replay_official, report_given, Campaign, CampaignDirs, CampaignReport, Given,
    RunInfo, Task, TaskSpec,
};

const MINI: &str = r#"
name = "mini"
edition = "hipe-2022"
run_pattern = "{team}_bundle{bundle}_{dataset}_{lang}_{run}"
gold_pattern = "gold-{dataset}-{lang}.tsv"

[datasets.demo]
languages = ["en", "de"]

[[task]]
task = "nerc_coarse"

[[task]]
task = "nel"

[bundles]
1 = ["nerc_coarse", "nel"]
4 = ["nerc_coarse"]

[[ranking]]
kind = "coarse-micro-fuzzy"
outputs = ["nerc_coarse"]
prefixes = ["NE-COARSE"]
contains = ["micro-fuzzy"]
order = ["label", "f1-desc", "evaluation", "system"]
"#;

/// gold/, runs/, resources/ in a fresh temporary directory, with these (empty) runs.
fn setup(name: &str, runs: &[&str]) -> (PathBuf, CampaignDirs) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hardening-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for lang in ["en", "de"] {
        std::fs::write(root.join(format!("gold/gold-demo-{lang}.tsv")), "TOKEN\n").unwrap();
    }
    for r in runs {
        std::fs::write(root.join("runs").join(r), "TOKEN\n").unwrap();
    }
    let dirs = CampaignDirs {
        gold: root.join("gold"),
        runs: root.join("runs"),
        resources: root.join("resources"),
        outdir: root.join("out"),
    };
    (root, dirs)
}

/// A made-up score table (fuzzy and strict ALL rows) for an output of a run.
fn fake_output(run: &RunInfo, output: &str, spec: &TaskSpec) -> fairscore::Result<Given> {
    let col = match spec.task {
        Task::Nel => "NEL-LIT",
        _ => "NE-COARSE-LIT",
    };
    let at = if spec.task == Task::Nel { "-@1" } else { "" };
    let mut tsv =
        String::from("System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n");
    for regime in ["fuzzy", "strict"] {
        tsv.push_str(&format!(
            "{}\t{col}-micro-{regime}-TIME-ALL-LED-ALL{at}\tALL\t0.5\t0.5\t0.5\t\t\t\t4\t1\t1\r\n",
            run.name
        ));
    }
    Ok(Given::Output {
        files: vec![(
            format!("{}_{output}.tsv", run.name),
            tsv.clone().into_bytes(),
        )],
        rows: parse_table(&tsv, &run.path)?,
        fair: None,
    })
}

/// The campaign reported from the made-up outputs.
fn run_campaign(cfg: &Campaign, dirs: &CampaignDirs) -> fairscore::Result<CampaignReport> {
    report_given(cfg, dirs, None, &fake_output, None)
}

#[test]
fn a_ranking_whose_filter_keeps_no_row_is_an_error_naming_it() {
    let (root, dirs) = setup("ranking-empty", &["a_bundle4_demo_en_1.tsv"]);
    let cfg = MINI.replace("prefixes = [\"NE-COARSE\"]", "prefixes = [\"NE-FINE\"]");
    let cfg = Campaign::from_toml(&cfg, Path::new("mini.toml")).unwrap();
    let err = run_campaign(&cfg, &dirs).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("ranking coarse-micro-fuzzy keeps no row") && msg.contains("NE-FINE"),
        "{msg}"
    );
    assert!(!dirs
        .outdir
        .join("rankings/ranking-demo-en-coarse-micro-fuzzy-all.tsv")
        .exists());
    // Without any run there is nothing to rank: no error.
    let (root2, dirs2) = setup("ranking-empty-2", &[]);
    run_campaign(&cfg, &dirs2).unwrap();
    // The filter as written in the fixture keeps rows.
    let ok = Campaign::from_toml(MINI, Path::new("mini.toml")).unwrap();
    run_campaign(&ok, &dirs).unwrap();
    let _ = std::fs::remove_dir_all(root);
    let _ = std::fs::remove_dir_all(root2);
}

#[test]
fn runs_whose_names_differ_only_in_case_are_refused() {
    let (root, dirs) = setup(
        "case-twins",
        &["team_bundle4_demo_en_1.tsv", "Team_bundle4_demo_en_1.tsv"],
    );
    let cfg = Campaign::from_toml(MINI, Path::new("mini.toml")).unwrap();
    let err = run_campaign(&cfg, &dirs).unwrap_err().to_string();
    assert!(
        err.contains(
            "runs Team_bundle4_demo_en_1.tsv and team_bundle4_demo_en_1.tsv differ only in case"
        ),
        "{err}"
    );
    assert_eq!(
        err.split(':').next(),
        Some(dirs.runs.to_str().unwrap()),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn dead_temporary_files_of_a_killed_campaign_are_removed() {
    let (root, dirs) = setup("dead-temps", &["a_bundle4_demo_en_1.tsv"]);
    let cfg = Campaign::from_toml(MINI, Path::new("mini.toml")).unwrap();
    // What a SIGKILL leaves: `.NAME.PID-N.tmp` of a process that no longer runs (a pid above
    // any pid_max), in runs/, rankings/ and the output directory itself.
    let dead = [
        dirs.outdir
            .join("runs/.a_bundle4_demo_en_1_nerc_coarse.tsv.4000000000-0.tmp"),
        dirs.outdir
            .join("runs/.b_bundle4_demo_de_1_nerc_coarse.tsv.4000000000-3.bak"),
        dirs.outdir
            .join("rankings/.ranking-demo-en-coarse-micro-fuzzy-all.tsv.4000000000-1.tmp"),
        dirs.outdir.join(".index.html.4000000000-2.tmp"),
    ];
    let alive = dirs
        .outdir
        .join(format!("runs/.x.tsv.{}-0.tmp", std::process::id()));
    for f in dead.iter().chain([&alive]) {
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, "partial").unwrap();
    }
    run_campaign(&cfg, &dirs).unwrap();
    for f in &dead {
        assert!(!f.exists(), "{} left", f.display());
    }
    // A running process's temporary file (here: this test's) is not touched.
    assert!(alive.exists());
    let _ = std::fs::remove_dir_all(root);
}

/// A write past the file-size limit fails as an output error (exit 4) and leaves no
/// temporary file: the binary ignores SIGXFSZ, which would kill it mid-write.
#[cfg(target_os = "linux")]
#[test]
fn a_write_past_the_file_size_limit_is_an_output_error_without_leftovers() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-xfsz");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("gold.spans");
    let mut text = String::new();
    for u in 0..400 {
        text.push_str(&format!("PER\t{}\t{}\n\n", u + 1, u + 2));
    }
    std::fs::write(&big, &text).unwrap();
    let json = dir.join("errors.tsv");
    // `ulimit -f 4`: at most 4 blocks (2 KiB on Linux) in any file written.
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -f 4; exec \"$0\" fair --target {t} --system {t} --errors {j} > /dev/null",
            t = big.display(),
            j = json.display()
        ))
        .arg(env!("CARGO_BIN_EXE_fairscore"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{:?} {stderr}", o.status);
    assert!(stderr.contains("errors.tsv"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "gold.spans")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// `--replay` on a copy of the official HIPE-2022 outputs from which some `nel_relaxed` files
/// were removed: every ranking that does not take `nel_relaxed` equals the one of full
/// scoring (the official ranking file), the runs concerned stay in them, and the report
/// names what could not be replayed. Before, such a run was dropped from every table.
#[test]
fn replay_with_missing_outputs_affects_only_the_tables_that_need_them() {
    let Some(data) = crate::common::shared_data("hardening_campaign replay") else {
        return;
    };
    let data = data.join("hipe2022");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-replay-missing");
    let _ = std::fs::remove_dir_all(&root);
    let replay = root.join("official");
    std::fs::create_dir_all(&replay).unwrap();
    let official = files_of(&data.join("official"));
    // Three runs lose their nel_relaxed outputs (one only its JSON).
    let mut removed = Vec::new();
    for (name, bytes) in &official {
        let relaxed = name.contains("_nel_relaxed.");
        let chosen = removed.len() < 5 && relaxed;
        if chosen && !(removed.len() == 4 && name.ends_with(".tsv")) {
            removed.push(name.clone());
            continue;
        }
        std::fs::write(replay.join(name), bytes).unwrap();
    }
    assert!(removed.len() >= 4, "{removed:?}");
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let dirs = CampaignDirs {
        gold: data.join("gold"),
        runs: data.join("submissions"),
        resources: data.join("resources"),
        outdir: root.join("out"),
    };
    let report = replay_official(&cfg, &dirs, &replay, None).unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert!(!report.all_ok());
    let missing: Vec<&String> = report.scored.iter().flat_map(|r| &r.missing).collect();
    assert_eq!(missing.len(), 3, "{missing:?}");
    assert!(missing
        .iter()
        .all(|m| m.starts_with("nel_relaxed: ") && m.contains("not found")));
    let want = files_of(&data.join("rankings"));
    let got = files_of(&dirs.outdir.join("rankings"));
    let needs_relaxed = |file: &str| {
        cfg.rankings
            .iter()
            .filter(|r| file.ends_with(&format!("-{}-all.tsv", r.kind)))
            .any(|r| r.outputs.iter().any(|o| o.as_str() == "nel_relaxed"))
    };
    let mut compared = 0;
    for (name, bytes) in &want {
        if needs_relaxed(name) {
            continue;
        }
        let lines = |b: &[u8]| String::from_utf8_lossy(b).replace('\r', "");
        assert_eq!(lines(&got[name]), lines(bytes), "{name}");
        compared += 1;
    }
    assert!(compared >= 30, "only {compared} rankings compared");
    let _ = std::fs::remove_dir_all(root);
}
