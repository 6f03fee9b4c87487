//! Robustness beyond the committed corpus: huge lines, outputs that cannot be written, the
//! all-or-none writing of `score`, and byte-identical results across runs.

use std::path::{Path, PathBuf};

fn bad_inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn a_100_mb_single_line_gets_a_short_clear_answer() {
    let dir = crate::common::temp_dir("huge_line");
    let gold = bad_inputs().join("gold.tsv");
    let header = std::fs::read_to_string(&gold)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    // A run whose only token row is 100 MB long, and a file that is one 100 MB line.
    let run = dir.join("run.tsv");
    let mut text = header.clone().into_bytes();
    text.extend_from_slice(b"\n");
    text.extend(std::iter::repeat_n(b'x', 100 << 20));
    text.extend_from_slice(b"\tO\n");
    std::fs::write(&run, &text).unwrap();
    let one_line = dir.join("line.tsv");
    std::fs::write(&one_line, vec![b'y'; 100 << 20]).unwrap();
    drop(text);
    for (file, check_exit, score_exit) in [(&run, 1, 3), (&one_line, 1, 3)] {
        let started = std::time::Instant::now();
        let o = crate::common::fairscore(&[
            "check",
            "--ref",
            s(&gold),
            "--pred",
            s(file),
            "-e",
            "hipe-2022",
            "--skip-check",
        ]);
        assert_eq!(
            o.status.code(),
            Some(check_exit),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stdout.len() < 8000,
            "check output of {} bytes",
            o.stdout.len()
        );
        let o = crate::common::fairscore(&[
            "score",
            "--ref",
            s(&gold),
            "--pred",
            s(file),
            "-e",
            "hipe-2022",
            "--skip-check",
            "-t",
            "nerc_coarse",
            "-o",
            s(&dir),
        ]);
        assert_eq!(o.status.code(), Some(score_exit));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.len() < 2000, "error of {} bytes", err.len());
        assert!(err.contains(s(file)), "{err}");
        assert!(
            started.elapsed().as_secs() < 60,
            "too slow: {:?}",
            started.elapsed()
        );
    }
    // Nothing was written besides the inputs.
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    names.sort();
    assert_eq!(names, vec!["line.tsv", "run.tsv"]);
}

#[test]
fn a_failing_second_output_leaves_no_fresh_first_output() {
    let dir = crate::common::temp_dir("second_rename");
    let gold = bad_inputs().join("gold.tsv");
    let run = dir.join("team_bundle1_newseye_fr_1.tsv");
    std::fs::copy(&gold, &run).unwrap();
    let tsv = dir.join("team_bundle1_newseye_fr_1_nerc_coarse.tsv");
    let json = dir.join("team_bundle1_newseye_fr_1_nerc_coarse.json");
    std::fs::write(&tsv, "old tsv").unwrap();
    // The JSON target is a non-empty directory: its temporary file is written, but the rename
    // onto it fails after the TSV's rename succeeded.
    std::fs::create_dir(&json).unwrap();
    std::fs::write(json.join("keep"), "x").unwrap();
    let score = || {
        crate::common::fairscore(&[
            "score",
            "--ref",
            s(&gold),
            "--pred",
            s(&run),
            "-e",
            "hipe-2022",
            "-t",
            "nerc_coarse",
            "-o",
            s(&dir),
        ])
    };
    let o = score();
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot write") && err.contains("nerc_coarse.json"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&tsv).unwrap(),
        "old tsv",
        "the TSV was replaced"
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "team_bundle1_newseye_fr_1.tsv",
            "team_bundle1_newseye_fr_1_nerc_coarse.json",
            "team_bundle1_newseye_fr_1_nerc_coarse.tsv"
        ],
        "temporary or backup files left behind"
    );
    // Without an old TSV, the new one is removed again.
    std::fs::remove_file(&tsv).unwrap();
    let o = score();
    assert_eq!(o.status.code(), Some(4));
    assert!(!tsv.exists(), "a fresh TSV was left beside a failed JSON");
}

#[test]
fn unwritable_outputs_are_output_errors() {
    let dir = crate::common::temp_dir("unwritable");
    let gold = bad_inputs().join("gold.tsv");
    let run = bad_inputs().join("good_bundle1_newseye_fr_1.tsv");
    let file = dir.join("a_file");
    std::fs::write(&file, "x").unwrap();
    for args in [
        vec![
            "score",
            "--ref",
            s(&gold),
            "--pred",
            s(&run),
            "-e",
            "hipe-2022",
            "-t",
            "nel",
            "-o",
            s(&file),
        ],
        vec![
            "normalize",
            "-i",
            s(&run),
            "-o",
            &format!("{}/x.tsv", s(&file)),
            "--norm-time",
        ],
        vec![
            "fair",
            "--target",
            s(&gold),
            "--system",
            s(&run),
            "--format",
            "hipe",
            "--errors",
            &format!("{}/e.tsv", s(&file)),
        ],
    ] {
        let o = crate::common::fairscore(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(4), "{args:?}: {err}");
        assert!(err.contains("a_file"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn outputs_are_byte_identical_across_runs() {
    let gold = bad_inputs().join("gold.tsv");
    let run = bad_inputs().join("iobes.tsv");
    let mut outs = Vec::new();
    for k in 0..2 {
        let dir = crate::common::temp_dir(&format!("determinism_{k}"));
        let o = crate::common::fairscore(&[
            "score",
            "--ref",
            s(&gold),
            "--pred",
            s(&run),
            "-e",
            "hipe-2022",
            "--skip-check",
            "-t",
            "nerc_coarse",
            "-o",
            s(&dir),
        ]);
        assert_eq!(o.status.code(), Some(0));
        let c = crate::common::fairscore(&[
            "check",
            "--ref",
            s(&gold),
            "--pred",
            s(&run),
            "-e",
            "hipe-2022",
            "--json",
        ]);
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        assert_eq!(files.len(), 2);
        outs.push((files, c.stdout));
    }
    assert_eq!(outs[0], outs[1]);
}

#[cfg(unix)]
#[test]
fn device_files_are_refused_and_pipes_are_read() {
    let gold = bad_inputs().join("gold.tsv");
    let out = crate::common::temp_dir("devices");
    for dev in ["/dev/zero", "/dev/null"] {
        for args in [
            vec!["check", "--ref", s(&gold), "--skip-check", "--pred", dev],
            vec![
                "score",
                "--ref",
                dev,
                "--pred",
                s(&gold),
                "--skip-check",
                "-t",
                "nel",
                "-o",
                s(&out),
            ],
            vec!["fair", "--target", dev, "--system", s(&gold)],
            vec!["normalize", "-i", dev, "-o", &format!("{}/n.tsv", s(&out))],
        ] {
            let o = crate::common::fairscore(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
            assert!(err.contains(dev) && err.contains("device"), "{err}");
        }
    }
    // A run piped in through /dev/stdin is read like a file.
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args([
            "check",
            "--ref",
            s(&gold),
            "--skip-check",
            "--pred",
            "/dev/stdin",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let text = std::fs::read(bad_inputs().join("iobes.tsv")).unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("IOBES tag"));
}

/// `evaluate` with the gold piped in through /dev/stdin: the spans and fair families hash the
/// bytes they scored, so their signatures name the gold as the same file given by path does
/// (they hashed the empty rest of the pipe); the fair family reads the gold once (it read it a
/// second time to tell its format: "the file is empty").
#[cfg(unix)]
#[test]
fn a_gold_piped_in_is_scored_and_signed_as_the_file() {
    use std::io::Write;
    let gold = bad_inputs().join("gold.tsv");
    let run = bad_inputs().join("iobes.tsv");
    let piped = |family: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .args(["evaluate", "--family", family, "--gold", "/dev/stdin"])
            .args(["--pred", s(&run)])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let text = std::fs::read(&gold).unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(0), "{family}: {err}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let by_path = |family: &str| {
        let o = crate::common::fairscore(&[
            "evaluate",
            "--family",
            family,
            "--gold",
            s(&gold),
            "--pred",
            s(&run),
        ]);
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let (p, f) = (piped("spans"), by_path("spans"));
    assert!(f.contains("|gold:"), "{f}");
    assert_eq!(p, f);
    let (p, f) = (piped("fair"), by_path("fair"));
    assert!(f.contains("Fair evaluation") && f.contains("|gold:"), "{f}");
    assert_eq!(p, f);
}
