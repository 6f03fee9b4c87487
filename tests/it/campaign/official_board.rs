//! The HIPE reports of a scored campaign against the official HIPE-2022 outputs: the preset
//! scored on the family engine (`FamilyCampaign::from_hipe`, `OfficialRuns`, reported by
//! `official_report`) writes the same ranking files, `leaderboard.md`, `leaderboard.tex` and
//! `index.html`, byte for byte, as the same campaign reported from the official per-run files
//! (`replay_official`), and per-run files equal to the official ones; with bootstrap its
//! ranking files are still the official ones, one `.ci.tsv` beside each; with `fair = true`
//! each run has its confusion matrix and each per-run table, its fair rows aside, is the
//! official one. Needs ../shared (skipped, with a message, when absent).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fairscore::campaign::{
    official_report, replay_official, run_family_campaign_with, Campaign, CampaignDirs,
    CampaignHooks, CampaignReport, FamilyCampaign, OfficialRuns,
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
    let on_scored = |t: &_, s: &str, files: [&std::path::Path; 2], st: &mut _| {
        official.scored(t, s, files, st, None)
    };
    let hooks = CampaignHooks {
        on_scored: Some(&on_scored),
        ..CampaignHooks::default()
    };
    let report = run_family_campaign_with(&fam, &d.gold, &d.runs, &hooks).unwrap();
    official_report(cfg, d, &report, &official).unwrap()
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

/// Scores the preset (with `bootstrap` resamples and `fair`) into `ROOT/a/out`; without
/// bootstrap and fair, also reports the official per-run files into `ROOT/b/out`. Returns the
/// data directory, the scored report and tree, and the replayed tree (empty when not made).
type Outputs = (
    PathBuf,
    CampaignReport,
    BTreeMap<String, Vec<u8>>,
    BTreeMap<String, Vec<u8>>,
);

fn outputs(bootstrap: Option<usize>, fair: bool, tag: &str) -> Option<Outputs> {
    let data = crate::common::shared_data("official_board").map(|d| d.join("hipe2022"))?;
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
    let fam = family_path(&cfg, &a);
    assert!(fam.all_ok());
    assert_eq!(fam.scored.len(), 41);
    let mut replayed = BTreeMap::new();
    if bootstrap.is_none() && !fair {
        let rep = replay_official(&cfg, &b, &data.join("official"), None).unwrap();
        assert!(rep.all_ok());
        assert_eq!(rep.scored.len(), fam.scored.len());
        assert_eq!(fam.jobs, rep.jobs);
        assert_eq!(fam.run_files, rep.run_files);
        replayed = tree(&b.outdir);
    }
    let scored = tree(&a.outdir);
    let _ = std::fs::remove_dir_all(&root);
    Some((data, fam, scored, replayed))
}

/// The ranking files of a scored campaign are the 56 official ones, row for row.
fn official_rankings(data: &Path, scored: &BTreeMap<String, Vec<u8>>) {
    let want = tree(&data.join("rankings"));
    assert_eq!(want.len(), 56);
    for (name, bytes) in &want {
        let ours = &scored[&format!("rankings/{name}")];
        assert_eq!(lines(ours), lines(bytes), "{name}");
    }
}

#[test]
fn family_engine_reports_equal_the_official_outputs_reported() {
    let Some((data, _, scored, replayed)) = outputs(None, false, "plain") else {
        return;
    };
    assert_eq!(
        scored.keys().collect::<Vec<_>>(),
        replayed.keys().collect::<Vec<_>>()
    );
    for want in ["leaderboard.md", "leaderboard.tex", "index.html"] {
        assert!(scored.contains_key(want), "{want} not written");
    }
    assert!(!scored.keys().any(|k| k.ends_with(".ci.tsv")));
    official_rankings(&data, &scored);
    // The per-run files are the official ones (the JSON as numbers, the TSV byte for byte);
    // everything else is the reports' bytes from the official rows.
    let mut runs = 0;
    for (name, bytes) in &scored {
        match name.strip_prefix("runs/") {
            Some(file) if file.ends_with(".json") => {
                let dir = std::env::temp_dir().join(format!(
                    "fairscore-official-board-json-{}",
                    std::process::id()
                ));
                std::fs::create_dir_all(&dir).unwrap();
                let ours = dir.join(file);
                std::fs::write(&ours, bytes).unwrap();
                let same = crate::common::compare_file(&ours, &data.join("official").join(file));
                assert!(same.is_ok(), "{name}: {same:?}");
                let _ = std::fs::remove_dir_all(&dir);
                runs += 1;
            }
            _ => {
                assert!(replayed[name] == *bytes, "{name} differs");
                runs += usize::from(name.starts_with("runs/"));
            }
        }
    }
    assert_eq!(runs, 136);
}

#[test]
fn family_engine_marks_keep_the_official_rankings() {
    let Some((data, _, scored, _)) = outputs(Some(200), false, "boot") else {
        return;
    };
    let ci = scored.keys().filter(|k| k.ends_with(".ci.tsv")).count();
    assert_eq!(ci, 56, "one .ci.tsv per ranking file");
    official_rankings(&data, &scored);
}

/// `fair = true`: the fair rows of every per-run table, and each run's fair confusion matrix
/// on the page; without its fair rows, each per-run table is the official one.
#[test]
fn family_engine_fair_adds_fair_rows_to_the_official_tables() {
    let Some((data, fam, scored, _)) = outputs(None, true, "fair") else {
        return;
    };
    let with_matrix = fam.scored.iter().filter(|s| !s.fair.is_empty()).count();
    assert_eq!(with_matrix, 41);
    official_rankings(&data, &scored);
    let mut with_fair = 0;
    for (name, bytes) in scored.iter().filter(|(k, _)| k.ends_with(".tsv")) {
        let Some(file) = name.strip_prefix("runs/") else {
            continue;
        };
        let all = lines(bytes);
        let plain: Vec<String> = all
            .iter()
            .filter(|l| !l.contains("-fair"))
            .cloned()
            .collect();
        with_fair += usize::from(plain.len() < all.len());
        let official = std::fs::read(data.join("official").join(file)).unwrap();
        assert_eq!(plain, lines(&official), "{name}");
    }
    assert!(with_fair > 0, "no per-run table with fair rows");
    let html = String::from_utf8_lossy(&scored["index.html"]).into_owned();
    assert!(html.contains("Fair regime"));
}
