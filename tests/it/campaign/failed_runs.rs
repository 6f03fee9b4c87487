//! Issue 34: a run that fails to score is published with its reason in every output of a
//! family campaign (the page, the Markdown, `leaderboard.json` and `rankings/not_scored.tsv`),
//! not only on stderr; the other runs are ranked as without it.

use super::fixtures::{board_json, dirs, run_leaderboard};
use crate::common::{temp_dir, write_file};
use std::path::Path;

/// Runs the leaderboard of one segmentation task (`test.txt` in `gold`, runs `TEAM_RUN.txt`)
/// whose campaign file it writes into `dir`.
fn leaderboard_of(dir: &Path, gold: &Path, runs: &Path, out: &Path) -> std::process::Output {
    let campaign = write_file(
        dir,
        "campaign.toml",
        "name = \"demo\"\n[[task]]\nname = \"seg\"\nfamily = \"segmentation\"\nformat = \"text\"\n\
         gold = \"test.txt\"\nruns = \"{team}_{run}.txt\"\n",
    );
    run_leaderboard(Path::new(&campaign), gold, runs, out, &[])
}

#[test]
fn a_failed_run_is_listed_with_its_reason_in_every_output() {
    let dir = temp_dir("campaign_failed_runs");
    let (gold, runs, out) = dirs(&dir);
    write_file(&gold, "test.txt", "ab cd ef\ngh ij\n");
    write_file(&runs, "alpha_1.txt", "ab cd ef\ngh ij\n");
    write_file(&runs, "beta_1.txt", "abcd ef\nghij\n");
    // Other characters than the gold's: segmentation refuses to align it.
    write_file(&runs, "gamma_1.txt", "xy cd ef\ngh ij\n");
    let o = leaderboard_of(&dir, &gold, &runs, &out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    // A run that cannot be scored is an error of the campaign (exit 1, docs/campaigns.md);
    // the outputs are written all the same.
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    // The reason as stderr gives it (its first line, without the file).
    let reason_line = stderr
        .lines()
        .find(|l| l.contains("gamma_1.txt"))
        .unwrap_or_else(|| panic!("stderr names the failed run: {stderr}"));
    assert!(reason_line.len() > "gamma_1.txt".len() + 5, "{reason_line}");

    let json: serde_json::Value = board_json(&out);
    let listed = json["not_scored"].as_array().expect("not_scored");
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["file"], "gamma_1.txt");
    assert_eq!(listed[0]["kind"], "failed");
    let reason = listed[0]["reason"].as_str().unwrap();
    assert!(!reason.is_empty() && !reason.contains('\n'), "{reason:?}");
    // The ranked runs are the two others.
    let ranked: Vec<&str> = json["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["system"].as_str().unwrap())
        .collect();
    assert_eq!(ranked, ["alpha_1", "beta_1"]);

    let tsv = std::fs::read_to_string(out.join("rankings/not_scored.tsv")).unwrap();
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("file\tkind\ttask\treason"));
    let row: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(row[..3], ["gamma_1.txt", "failed", "seg"]);
    assert_eq!(lines.next(), None);

    // The page and the Markdown name the run beside (an excerpt of) its reason.
    let excerpt: String = reason.chars().take(30).collect();
    for page in ["leaderboard.md", "index.html"] {
        let text = std::fs::read_to_string(out.join(page)).unwrap();
        let at = text
            .find("gamma_1.txt")
            .unwrap_or_else(|| panic!("{page} lists the failed run"));
        let near = &text[at..(at + 400).min(text.len())];
        let plain = near
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("\\_", "_");
        assert!(
            plain.contains(&excerpt) || near.contains("scoring failed"),
            "{page}: the reason beside the run: {near}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_campaign_without_failures_writes_no_not_scored_file() {
    let dir = temp_dir("campaign_no_failed_runs");
    let (gold, runs, out) = dirs(&dir);
    write_file(&gold, "test.txt", "ab cd\n");
    write_file(&runs, "alpha_1.txt", "ab cd\n");
    let o = leaderboard_of(&dir, &gold, &runs, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("rankings/not_scored.tsv").exists());
    let json: serde_json::Value = board_json(&out);
    assert_eq!(json["not_scored"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46.12: runs are counted as runs and scorings as scorings, both named. One broken run
/// scored by two tasks is one run failed (two scorings), not "2 failed"; `not_scored.tsv`
/// (and `leaderboard.json`, the Markdown) list each failed scoring once, with its task.
#[test]
fn runs_count_as_runs_and_each_failed_scoring_is_listed_once_with_its_task() {
    let dir = temp_dir("campaign_failed_scorings");
    let (gold, runs, out) = dirs(&dir);
    write_file(&gold, "test.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    write_file(
        &runs,
        "alpha_1.conll",
        "Anna B-PER\nreads O\n\nParis B-LOC\n",
    );
    // One token short: neither task can score it.
    write_file(&runs, "beta_1.conll", "Anna B-PER\nreads O\n");
    let campaign = write_file(
        &dir,
        "campaign.toml",
        "name = \"demo\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\n\
         [[task]]\nname = \"fairner\"\nfamily = \"fair\"\nformat = \"conll\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\n",
    );
    let o = run_leaderboard(Path::new(&campaign), &gold, &runs, &out, &[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let summary = stderr.lines().last().unwrap_or("");
    assert!(
        summary.contains("1 run ranked (2 scorings in 2 tables)")
            && summary.contains("1 run failed (2 scorings)"),
        "{summary}"
    );
    // Each failed scoring once, with its task.
    let tsv = std::fs::read_to_string(out.join("rankings/not_scored.tsv")).unwrap();
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("file\tkind\ttask\treason"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let keys: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(
        keys,
        [
            ("beta_1.conll", "failed", "fairner"),
            ("beta_1.conll", "failed", "ner")
        ],
        "{tsv}"
    );
    let json: serde_json::Value = board_json(&out);
    let tasks: Vec<&str> = json["not_scored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["task"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(tasks, ["fairner", "ner"]);
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    assert!(
        md.contains("1 run scored (2 scorings), 1 run failed (2 scorings)"),
        "{}",
        md.lines().take(6).collect::<Vec<_>>().join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
