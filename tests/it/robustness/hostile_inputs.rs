//! Issue 46.16: hostile input ends in one clear line naming what is wrong, nothing lost and no
//! markup reaching an output. A `--labels` label that occurs in neither file is an error
//! naming it (every command taking `--labels` as a selection or schema); a label's markup is
//! escaped in every `agree` output format; a campaign's `rank_by` naming no column is refused
//! when the campaign is read, runs or none; a FIFO, device or link in a submission is refused
//! naming the submitted zip's member and what it is.

use std::path::Path;

use crate::common::{fairscore, temp_dir, write_file};

#[test]
fn a_labels_label_in_neither_file_is_an_error_naming_it() {
    let dir = temp_dir("hostile_labels_absent");
    let gold = write_file(&dir, "gold.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    let run = write_file(&dir, "run.conll", "Anna B-PER\nreads O\n\nParis B-PER\n");
    let page = dir.join("page.html");
    let page = page.to_str().unwrap();
    let mg = write_file(
        &dir,
        "gold.jsonl",
        "{\"id\": \"a\", \"text\": \"Anna reads\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"text\": \"Paris is\", \"entities\": [[\"Paris\", \"LOC\"]]}\n",
    );
    let mr = write_file(
        &dir,
        "run.jsonl",
        "{\"id\": \"a\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"entities\": [[\"Paris\", \"PER\"]]}\n",
    );
    let cases: Vec<Vec<&str>> = vec![
        vec!["fair", "--gold", &gold, "--pred", &run],
        vec![
            "evaluate", "--family", "fair", "--gold", &gold, "--pred", &run,
        ],
        vec!["inspect", "--gold", &gold, "--pred", &run, "-o", page],
        vec![
            "compare", "--family", "fair", "--gold", &gold, "--pred", &run, "--pred", &gold,
        ],
        vec![
            "evaluate", "--family", "mentions", "--gold", &mg, "--pred", &mr,
        ],
    ];
    for base in &cases {
        for (flag, value) in [("--labels", "PERS,LOC"), ("--exclude", "LOCC")] {
            if flag == "--exclude" && base.contains(&"mentions") {
                continue;
            }
            let mut args = base.clone();
            args.extend([flag, value]);
            let out = fairscore(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            let bad = value.split(',').next().unwrap();
            assert!(
                err.contains(flag) && err.contains(&format!("\"{bad}\"")),
                "{args:?}: the error names the label: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        }
        // Labels that occur: scored.
        let mut args = base.clone();
        args.extend(["--labels", "PER,LOC"]);
        let out = fairscore(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(!Path::new(page).exists() || Path::new(page).metadata().unwrap().len() > 0);
}

/// `rank_by` naming no column of the family's headline table is refused when the campaign is
/// read, before any run is scored: with no runs too (it was accepted), naming the campaign
/// file, the line of `rank_by` and the columns there are.
#[test]
fn a_rank_by_naming_no_column_is_refused_before_any_run() {
    let dir = temp_dir("hostile_rank_by");
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    write_file(&gold, "test.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    let campaign = write_file(
        &dir,
        "campaign.toml",
        "name = \"demo\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nrank_by = \"F9\"\n",
    );
    for with_runs in [false, true] {
        let runs = dir.join(format!("runs-{with_runs}"));
        std::fs::create_dir_all(&runs).unwrap();
        if with_runs {
            write_file(
                &runs,
                "alpha_1.conll",
                "Anna B-PER\nreads O\n\nParis B-LOC\n",
            );
        }
        let out = fairscore(&[
            "leaderboard",
            "--campaign",
            &campaign,
            "--gold-dir",
            gold.to_str().unwrap(),
            "--runs-dir",
            runs.to_str().unwrap(),
            "--outdir",
            dir.join(format!("site-{with_runs}")).to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "runs {with_runs}: {err}");
        assert!(
            err.contains(&format!("{campaign}:8:"))
                && err.contains("rank_by")
                && err.contains("F9"),
            "runs {with_runs}: {err}"
        );
        assert!(err.contains("F1"), "the columns there are: {err}");
    }
}

/// A FIFO, a device or a link in a submission (the zip as the worker unpacked it) is refused
/// naming the zip's member and what it is, never opened (it could block or read the gold);
/// in a campaign's runs directory a FIFO is listed as not a run, not passed over in silence.
#[cfg(unix)]
#[test]
fn special_files_in_a_submission_are_refused_naming_the_zip_member() {
    let dir = temp_dir("hostile_special_files");
    let made = |p: &Path| {
        std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    };
    let input = dir.join("input");
    let (gold, res) = (input.join("ref"), input.join("res"));
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::create_dir_all(res.join("sub")).unwrap();
    write_file(&gold, "test.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    if !made(&res.join("sub/alpha_1.conll")) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    std::os::unix::fs::symlink(gold.join("test.conll"), res.join("beta_1.conll")).unwrap();
    let campaign = write_file(
        &dir,
        "campaign.toml",
        "name = \"demo\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\n",
    );
    let out = fairscore(&[
        "codabench",
        "--campaign",
        &campaign,
        input.to_str().unwrap(),
        dir.join("output").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let fifo = err
        .lines()
        .find(|l| l.contains("sub/alpha_1.conll"))
        .unwrap_or_else(|| panic!("the FIFO is named: {err}"));
    assert!(
        fifo.contains("zip") && fifo.contains("FIFO"),
        "the refusal names the zip's member and what it is: {fifo}"
    );
    let link = err
        .lines()
        .find(|l| l.contains("beta_1.conll"))
        .unwrap_or_else(|| panic!("the link is named: {err}"));
    assert!(
        link.contains("zip") && link.contains("symbolic link"),
        "{link}"
    );

    // A campaign's runs directory: the FIFO is listed, not passed over.
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    write_file(
        &runs,
        "gamma_1.conll",
        "Anna B-PER\nreads O\n\nParis B-LOC\n",
    );
    assert!(made(&runs.join("delta_1.conll")));
    let out = fairscore(&[
        "leaderboard",
        "--campaign",
        &campaign,
        "--gold-dir",
        gold.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
        "--outdir",
        dir.join("site").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("delta_1.conll") && l.contains("FIFO")),
        "{err}"
    );
}
