//! A campaign of family tasks (here word segmentation) from an empty directory to the
//! published outputs: runs found by their pattern, files that are not runs ignored, rankings
//! whose numbers are those of the single-run command, intervals and tests, leaderboard.json.

use crate::common::{fairscore, json_cell, temp_dir};
use std::path::Path;

/// A gold of 24 sentences of four two-character words, and a run that glues the first
/// `merges(i)` word pairs of sentence i.
fn write(dir: &Path, name: &str, merges: impl Fn(usize) -> usize) {
    let mut text = String::new();
    for i in 0..24 {
        let words = ["ab", "cd", "ef", "gh"];
        let m = merges(i).min(2);
        let mut line = String::new();
        for (k, w) in words.iter().enumerate() {
            line.push_str(w);
            // Glue word k to the next for the first `m` even positions.
            if k < 3 && !(k % 2 == 0 && k / 2 < m) {
                line.push(' ');
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    std::fs::write(dir.join(name), text).unwrap();
}

fn campaign(dir: &Path, extra: &str) -> std::path::PathBuf {
    let p = dir.join("campaign.toml");
    std::fs::write(
        &p,
        format!(
            "name = \"seg-test\"\n{extra}\n[[task]]\nname = \"seg\"\nfamily = \"segmentation\"\nformat = \"text\"\ngold = \"gold.txt\"\nruns = \"{{team}}_{{run}}.txt\"\nrank_by = \"F1\"\n"
        ),
    )
    .unwrap();
    p
}

#[test]
fn a_segmentation_campaign_is_ranked_as_single_runs_score() {
    let dir = temp_dir("campaign_families");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    for d in [&gold, &runs] {
        std::fs::create_dir_all(d).unwrap();
    }
    write(&gold, "gold.txt", |_| 0);
    write(&runs, "alpha_1.txt", |i| usize::from(i % 8 == 0));
    write(&runs, "beta_1.txt", |i| i % 3);
    write(&runs, "beta_2.txt", |i| usize::from(i % 2 == 0));
    std::fs::write(runs.join("README.md"), "not a run\n").unwrap();
    let c = campaign(&dir, "bootstrap = 500");
    let args = |c: &Path| {
        vec![
            "leaderboard".to_string(),
            "--campaign".into(),
            c.display().to_string(),
            "--gold-dir".into(),
            gold.display().to_string(),
            "--runs-dir".into(),
            runs.display().to_string(),
            "--outdir".into(),
            out.display().to_string(),
        ]
    };
    let a = args(&c);
    let o = fairscore(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ignored 1 file(s) that are not runs: README.md"),
        "{err}"
    );
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("leaderboard.json")).unwrap())
            .unwrap();
    let t = &board["tables"][0];
    assert_eq!(t["task"], "seg");
    assert_eq!(t["family"], "segmentation");
    assert_eq!(t["metric"], "F1");
    assert_eq!(t["unit"], "sentence");
    let rows = t["rows"].as_array().unwrap();
    let systems: Vec<&str> = rows.iter().map(|r| r["system"].as_str().unwrap()).collect();
    assert_eq!(systems, ["alpha_1", "beta_2", "beta_1"]);
    for r in rows {
        let sys = r["system"].as_str().unwrap();
        let single = fairscore(&[
            "segmentation",
            "--gold",
            &gold.join("gold.txt").display().to_string(),
            "--pred",
            &runs.join(format!("{sys}.txt")).display().to_string(),
            "--json",
        ]);
        assert!(single.status.success(), "{sys}: {single:?}");
        let single: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
        // The segmentation family's table, row `words`.
        let words = |col: &str| json_cell(&single, "segmentation", &["words"], col);
        assert_eq!(r["scores"]["F1"].as_f64(), words("F1"), "{sys}");
        assert_eq!(r["scores"]["P"].as_f64(), words("P"), "{sys}");
        assert!(words("F1").is_some(), "{sys}");
        let ci = r["ci"]["F1"].as_array().unwrap();
        let (lo, hi, f) = (
            ci[0].as_f64().unwrap(),
            ci[1].as_f64().unwrap(),
            r["scores"]["F1"].as_f64().unwrap(),
        );
        assert!(lo <= f && f <= hi && hi <= 1.0, "{sys}: {lo} {f} {hi}");
    }
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(rows[0]["shares_first"], true);
    assert_eq!(rows[2]["shares_first"], false);
    let tsv = std::fs::read_to_string(out.join("rankings/seg.tsv")).unwrap();
    assert!(
        tsv.starts_with("rank\tsystem\tF1\tlo\thi\tp_next\tp_top\tshares_first"),
        "{tsv}"
    );
    assert_eq!(tsv.lines().count(), 4);
    let md = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    // The HIPE board's table: rank, system, the scores and counts of the ranked row.
    assert!(md.contains("| 1 | alpha_1 | "), "{md}");
    assert!(md.contains("| # | System | P | R | F1 |"), "{md}");
    // (Names may break after an underscore on a phone: `<wbr>` is no text.)
    let html = std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .replace("<wbr>", "");
    assert!(
        html.contains("alpha_1") && html.contains("sentence"),
        "{html}"
    );
    assert!(out.join("runs/alpha_1_seg.json").is_file());
    // Each team's best run: beta's best is beta_2 (beta_1 is worse), teams ranked by it.
    let teams = t["teams"].as_array().unwrap();
    let best: Vec<(&str, &str)> = teams
        .iter()
        .map(|r| (r["team"].as_str().unwrap(), r["system"].as_str().unwrap()))
        .collect();
    assert_eq!(best, [("alpha", "alpha_1"), ("beta", "beta_2")]);
    assert_eq!(teams[1]["rank"], 2);
    assert_eq!(teams[1]["score"], rows[1]["scores"]["F1"]);
    assert_eq!(teams[1]["ci"], rows[1]["ci"]["F1"]);
    let tsv = std::fs::read_to_string(out.join("rankings/seg.teams.tsv")).unwrap();
    assert!(
        tsv.starts_with("rank\tteam\tsystem\tF1\tlo\thi\tshares_first\n1\talpha\talpha_1\t"),
        "{tsv}"
    );
    assert_eq!(tsv.lines().count(), 3);
    assert!(
        md.contains("## By team") && md.contains("| beta_2 | ") && md.contains("| 2 of 2 |"),
        "{md}"
    );

    // A file with the runs' extension that fits no pattern is an error (exit 1), the others
    // are still ranked.
    std::fs::write(runs.join("lonely.txt"), "ab cd ef gh\n").unwrap();
    let o = fairscore(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("lonely.txt: not a run"), "{err}");
}

#[test]
fn bad_family_campaigns_are_refused_naming_the_task() {
    let dir = temp_dir("campaign_families_bad");
    for (extra_task, needle) in [
        ("family = \"poetry\"", "unknown family"),
        ("colour = \"red\"", "colour"),
        ("regimes = \"strict\"", "regimes"),
    ] {
        let p = dir.join("c.toml");
        std::fs::write(
            &p,
            format!("[[task]]\nname = \"t\"\ngold = \"g.txt\"\nruns = \"{{team}}_{{run}}.txt\"\n{}\n{}\n",
                if extra_task.starts_with("family") { "" } else { "family = \"segmentation\"" },
                extra_task),
        )
        .unwrap();
        let o = fairscore(&[
            "leaderboard",
            "--campaign",
            &p.display().to_string(),
            "--gold-dir",
            &dir.display().to_string(),
            "--runs-dir",
            &dir.display().to_string(),
            "--outdir",
            &dir.join("o").display().to_string(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{extra_task}: {err}");
        assert!(
            err.contains("task t") && err.contains(needle),
            "{extra_task}: {err}"
        );
    }
}
