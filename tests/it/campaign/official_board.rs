//! The HIPE reports over the family engine: the HIPE-2022 preset scored as a campaign of
//! `hipe` family tasks (`FamilyCampaign::from_hipe`, `OfficialRuns`) and reported from the
//! rows its runs' official outputs had (`official_report`) writes the same ranking files,
//! `.ci.tsv` intervals and marks, `leaderboard.md`, `leaderboard.tex`, `index.html` and
//! per-run files, byte for byte, as the HIPE engine (`run_campaign` with `JobScorer`), with
//! and without bootstrap. Needs ../shared (skipped, with a message, when absent).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fairscore::campaign::{
    official_report, run_campaign, run_family_campaign_with, Campaign, CampaignDirs, CampaignHooks,
    CampaignReport, FamilyCampaign, JobScorer, OfficialRuns,
};

/// Every file under `dir` (relative name → bytes).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(name, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn dirs(data: &Path, out: PathBuf) -> CampaignDirs {
    CampaignDirs {
        gold: data.join("gold"),
        runs: data.join("submissions"),
        resources: data.join("resources"),
        outdir: out,
    }
}

/// The family engine's path: score, then report from the official rows.
fn family_path(cfg: &Campaign, d: &CampaignDirs) -> CampaignReport {
    let fam =
        FamilyCampaign::from_hipe(cfg, Path::new("hipe-2022"), &d.resources, &d.gold).unwrap();
    let official = OfficialRuns::new(Some(&d.outdir.join("runs"))).unwrap();
    let on_scored = |t: &_, s: &str, r: &Path, st: &mut _| official.scored(t, s, r, st);
    let hooks = CampaignHooks {
        on_scored: Some(&on_scored),
        ..CampaignHooks::default()
    };
    let report = run_family_campaign_with(&fam, &d.gold, &d.runs, &hooks).unwrap();
    official_report(cfg, d, &report, &official).unwrap()
}

fn same_outputs(bootstrap: Option<usize>, fair: bool, tag: &str) {
    let Some(data) = crate::common::shared_data("official_board").map(|d| d.join("hipe2022"))
    else {
        return;
    };
    let mut cfg = Campaign::preset("hipe-2022").unwrap();
    cfg.fair = fair;
    cfg.bootstrap =
        bootstrap.map(|n| fairscore::eval::resampler("--bootstrap", n, Some(5), None).unwrap());
    let root = std::env::temp_dir().join(format!(
        "fairscore-official-board-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    // Both output directories are called `out`: the reports name them by that name.
    let (a, b) = (
        dirs(&data, root.join("a/out")),
        dirs(&data, root.join("b/out")),
    );
    let hipe = run_campaign(&cfg, &a, &|j| JobScorer::new().score(j)).unwrap();
    let fam = family_path(&cfg, &b);
    assert!(hipe.all_ok() && fam.all_ok());
    assert_eq!(hipe.scored.len(), 41);
    assert_eq!(fam.scored.len(), hipe.scored.len());
    assert_eq!(fam.jobs, hipe.jobs);
    assert_eq!(fam.run_files, hipe.run_files);
    let (ta, tb) = (tree(&a.outdir), tree(&b.outdir));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    let ci = ta.keys().filter(|k| k.ends_with(".ci.tsv")).count();
    match bootstrap {
        Some(_) => assert_eq!(ci, 56, "one .ci.tsv per ranking file"),
        None => assert_eq!(ci, 0),
    }
    for want in ["leaderboard.md", "leaderboard.tex", "index.html"] {
        assert!(ta.contains_key(want), "{want} not written");
    }
    // With fair: every run has its confusion matrix, and the per-run tables their fair rows.
    let with_matrix = |r: &CampaignReport| r.scored.iter().filter(|s| !s.fair.is_empty()).count();
    assert_eq!(with_matrix(&fam), if fair { 41 } else { 0 });
    assert_eq!(with_matrix(&hipe), with_matrix(&fam));
    let fair_rows = ta
        .iter()
        .filter(|(k, _)| k.starts_with("runs/") && k.ends_with(".tsv"))
        .filter(|(_, v)| String::from_utf8_lossy(v).contains("fair"))
        .count();
    assert_eq!(
        fair_rows > 0,
        fair,
        "{fair_rows} per-run tables with fair rows"
    );
    for (name, bytes) in &ta {
        assert!(tb[name] == *bytes, "{name} differs");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn family_engine_reports_equal_the_hipe_engine() {
    same_outputs(None, false, "plain");
}

#[test]
fn family_engine_marks_equal_the_hipe_engine() {
    same_outputs(Some(200), false, "boot");
}

/// `fair = true`: the fair rows of every per-run table and ranking, and each run's fair
/// confusion matrix on the page.
#[test]
fn family_engine_fair_equals_the_hipe_engine() {
    same_outputs(None, true, "fair");
}
