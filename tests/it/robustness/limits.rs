//! Bounded work on hostile shapes of HIPE input: a header of 300,000 extra columns is refused
//! at once (the column limit, `corpus::MAX_COLUMNS`), and a wide header over short rows costs
//! what the rows hold, not rows × columns (missing cells are never materialised).

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A gold of `n` tokens (two columns) in one document.
fn gold_text(n: usize) -> String {
    let mut t = String::from("TOKEN\tNE-COARSE-LIT\n# hipe2022:document_id = d1\n");
    for i in 0..n {
        let tag = if i % 7 == 0 { "B-loc" } else { "O" };
        writeln!(t, "w{i}\t{tag}").unwrap();
    }
    t
}

/// The gold's tokens under a header of `extra` more columns, every row of two cells.
fn wide_run_text(n: usize, extra: usize) -> String {
    let mut t = String::from("TOKEN\tNE-COARSE-LIT");
    for c in 0..extra {
        write!(t, "\tX{c}").unwrap();
    }
    t.push_str("\n# hipe2022:document_id = d1\n");
    for i in 0..n {
        let tag = if i % 7 == 0 { "B-loc" } else { "O" };
        writeln!(t, "w{i}\t{tag}").unwrap();
    }
    t
}

fn score(dir: &Path, gold: &Path, run: &Path) -> std::process::Output {
    crate::common::fairscore(&[
        "score",
        "--ref",
        s(gold),
        "--pred",
        s(run),
        "-e",
        "hipe-2022",
        "--skip-check",
        "-t",
        "nerc_coarse",
        "-o",
        s(dir),
    ])
}

fn check(gold: &Path, run: &Path) -> std::process::Output {
    crate::common::fairscore(&[
        "check",
        "--ref",
        s(gold),
        "--pred",
        s(run),
        "-e",
        "hipe-2022",
        "--skip-check",
        "-t",
        "nerc_coarse",
    ])
}

#[test]
fn a_header_of_300_000_extra_columns_fails_fast_naming_file_line_and_limit() {
    let dir = crate::common::temp_dir("limits_wide_header");
    let gold = dir.join("gold.tsv");
    std::fs::write(&gold, gold_text(20_000)).unwrap();
    let run = dir.join("run.tsv");
    std::fs::write(&run, wide_run_text(20_000, 300_000)).unwrap();
    let started = Instant::now();
    let o = score(&dir, &gold, &run);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains(&format!("{}:1:", s(&run))), "{err}");
    assert!(
        err.contains("300002 columns") && err.contains("at most 1000"),
        "{err}"
    );
    assert!(err.len() < 2000, "error of {} bytes", err.len());
    // check reports the same refusal as a finding (exit 1), briefly.
    let o = check(&gold, &run);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("at most 1000"), "{out}");
    assert!(out.len() < 8000, "check output of {} bytes", out.len());
    // Both refuse at the header: far below the seconds (and gigabytes) of reading rows ×
    // columns.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "too slow: {:?}",
        started.elapsed()
    );
    // Nothing was written.
    assert!(!dir.join("run_nerc_coarse.tsv").exists());
}

#[test]
fn a_header_at_the_limit_over_short_rows_scores_as_the_narrow_file() {
    let dir = crate::common::temp_dir("limits_short_rows");
    let gold = dir.join("gold.tsv");
    std::fs::write(&gold, gold_text(50_000)).unwrap();
    let narrow = dir.join("narrow").join("run.tsv");
    std::fs::create_dir_all(narrow.parent().unwrap()).unwrap();
    std::fs::write(&narrow, wide_run_text(50_000, 0)).unwrap();
    let wide = dir.join("wide").join("run.tsv");
    std::fs::create_dir_all(wide.parent().unwrap()).unwrap();
    // 1000 columns in all: the most a header may have.
    std::fs::write(&wide, wide_run_text(50_000, 998)).unwrap();
    let started = Instant::now();
    for run in [&narrow, &wide] {
        let o = score(run.parent().unwrap(), &gold, run);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let table = |d: &Path| std::fs::read_to_string(d.join("run_nerc_coarse.tsv")).unwrap();
    let (n, w) = (
        table(narrow.parent().unwrap()),
        table(wide.parent().unwrap()),
    );
    assert!(n.contains("\t1.0\t"), "{n}");
    // The same table but for the System cell (the run's path).
    assert_eq!(n.replace(s(&narrow), "RUN"), w.replace(s(&wide), "RUN"));
    // The short rows are noted (missing cells read as `_`), not a failure.
    let o = check(&gold, &wide);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "too slow: {:?}",
        started.elapsed()
    );
}

#[test]
fn one_column_more_than_the_limit_is_refused() {
    let dir = crate::common::temp_dir("limits_one_more");
    let gold = dir.join("gold.tsv");
    std::fs::write(&gold, gold_text(10)).unwrap();
    let run = dir.join("run.tsv");
    std::fs::write(&run, wide_run_text(10, 999)).unwrap();
    let o = score(&dir, &gold, &run);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("1001 columns"), "{err}");
}
