//! The setup the campaign tests share: running `leaderboard` on a campaign, the small CoNLL
//! campaign with hostile names, and compiling LaTeX with pdflatex (required under CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::fairscore;

/// The gold, runs and output directories of a campaign under `dir` (`gold`, `runs`, `site`),
/// the first two made.
pub fn dirs(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("site"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    (gold, runs, out)
}

/// Runs `fairscore leaderboard` on `campaign` with its gold, runs and output directories and
/// `extra` arguments, whatever its exit.
pub fn run_leaderboard(
    campaign: &Path,
    gold: &Path,
    runs: &Path,
    out: &Path,
    extra: &[&str],
) -> Output {
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
    fairscore(&args)
}

/// [`run_leaderboard`], failing unless it exits 0; returns its stderr.
pub fn leaderboard(
    campaign: &Path,
    gold: &Path,
    runs: &Path,
    out: &Path,
    extra: &[&str],
) -> String {
    let o = run_leaderboard(campaign, gold, runs, out, extra);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    err
}

/// The `leaderboard.json` a campaign wrote into `out`.
pub fn board_json(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap()).unwrap()
}

/// A small CoNLL campaign with a hostile label and a hostile team name.
pub fn hostile(dir: &Path) -> (PathBuf, PathBuf) {
    let (gold, runs, _) = dirs(dir);
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
