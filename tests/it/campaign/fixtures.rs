//! The setup the campaign tests share: running `leaderboard` on a campaign, the small CoNLL
//! campaign with hostile names, and compiling LaTeX with pdflatex (required under CI).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::fairscore;

/// Runs `fairscore leaderboard` on `campaign` with its gold, runs and output directories (and
/// `extra` arguments); fails unless it exits 0; returns its stderr.
pub fn leaderboard(
    campaign: &Path,
    gold: &Path,
    runs: &Path,
    out: &Path,
    extra: &[&str],
) -> String {
    let mut args = vec![
        "leaderboard",
        "--campaign",
        campaign.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let o = fairscore(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    err
}

/// A small CoNLL campaign with a hostile label and a hostile team name.
pub fn hostile(dir: &Path) -> (PathBuf, PathBuf) {
    let (gold, runs) = (dir.join("gold"), dir.join("runs"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    let doc = |tags: [&str; 6]| {
        let words = ["John", "saw", "<b>Mary</b>", "in", "New", "York"];
        let mut s = String::from("-DOCSTART- O\n\n");
        for _ in 0..3 {
            for (w, t) in words.iter().zip(tags) {
                s.push_str(&format!("{w} {t}\n"));
            }
            s.push('\n');
        }
        s
    };
    let gold_tags = ["B-PER", "O", "B-<x>&'q", "O", "B-LOC", "I-LOC"];
    std::fs::write(gold.join("test.conll"), doc(gold_tags)).unwrap();
    let run_tags = ["B-PER", "O", "B-<x>&'q", "O", "B-LOC", "O"];
    std::fs::write(runs.join("ev<i>l&co_1.conll"), doc(run_tags)).unwrap();
    std::fs::write(runs.join("good_1.conll"), doc(gold_tags)).unwrap();
    (gold, runs)
}

/// Whether pdflatex is there; under CI (`CI` or `FAIRSCORE_REQUIRE_SHARED`, as `.ci/run`
/// sets, which installs it) its absence fails the test, else the test skips with a notice.
pub fn pdflatex(test: &str) -> bool {
    let found = Command::new("pdflatex")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let required = ["CI", "FAIRSCORE_REQUIRE_SHARED"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "false"));
        assert!(
            !required,
            "{test}: pdflatex is missing but required under CI"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "{test}: skipped: no pdflatex (apt-get install -y texlive-latex-recommended)"
        );
    }
    found
}

/// Compiles `tex` (in its own directory) with pdflatex; fails with the log's errors.
pub fn compile(tex: &Path) {
    let dir = tex.parent().unwrap();
    let o = Command::new("pdflatex")
        .args([
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-output-directory",
        ])
        .arg(dir)
        .arg(tex)
        .current_dir(dir)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && tex.with_extension("pdf").is_file(),
        "{}: pdflatex failed:\n{}",
        tex.display(),
        log.lines()
            .filter(|l| l.starts_with('!') || l.starts_with("l."))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
