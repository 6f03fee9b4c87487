//! Issue 26, campaigns: a ranking whose filter keeps no row, run names that differ only in
//! case, dead temporary files of a killed campaign, `--replay` with missing outputs.

use std::path::{Path, PathBuf};

use fairscore::campaign::{
    parse_table, run_campaign, Campaign, CampaignDirs, JobOutput, ScoreJob, Task,
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

/// A scorer that makes up a score table (fuzzy and strict ALL rows).
fn fake_scorer(job: &ScoreJob) -> fairscore::Result<JobOutput> {
    let col = match job.task {
        Task::Nel => "NEL-LIT",
        _ => "NE-COARSE-LIT",
    };
    let at = if job.task == Task::Nel { "-@1" } else { "" };
    let mut tsv =
        String::from("System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n");
    for regime in ["fuzzy", "strict"] {
        tsv.push_str(&format!(
            "{}\t{col}-micro-{regime}-TIME-ALL-LED-ALL{at}\tALL\t0.5\t0.5\t0.5\t\t\t\t4\t1\t1\r\n",
            job.run_name
        ));
    }
    Ok(JobOutput {
        files: vec![(
            format!("{}.tsv", job.output_stem()),
            tsv.clone().into_bytes(),
        )],
        rows: parse_table(&tsv, &job.run_path)?,
        fair: None,
    })
}

#[test]
fn a_ranking_whose_filter_keeps_no_row_is_an_error_naming_it() {
    let (root, dirs) = setup("ranking-empty", &["a_bundle4_demo_en_1.tsv"]);
    let cfg = MINI.replace("prefixes = [\"NE-COARSE\"]", "prefixes = [\"NE-FINE\"]");
    let cfg = Campaign::from_toml(&cfg, Path::new("mini.toml")).unwrap();
    let err = run_campaign(&cfg, &dirs, &fake_scorer).unwrap_err();
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
    run_campaign(&cfg, &dirs2, &fake_scorer).unwrap();
    // The filter as written in the fixture keeps rows.
    let ok = Campaign::from_toml(MINI, Path::new("mini.toml")).unwrap();
    run_campaign(&ok, &dirs, &fake_scorer).unwrap();
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
    let err = run_campaign(&cfg, &dirs, &fake_scorer)
        .unwrap_err()
        .to_string();
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
    run_campaign(&cfg, &dirs, &fake_scorer).unwrap();
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
