//! A HIPE campaign on the family engine, for benchmarks beside `fairscore leaderboard` on the
//! same directories: the preset as `hipe` family tasks
//! (`FamilyCampaign::from_hipe`), every run scored (`run_family_campaign_with`) with its
//! official per-run files written to OUTDIR/official-runs/ as it is scored (`OfficialRuns`),
//! the family outputs written to OUTDIR (`leaderboard.json`, rankings, `leaderboard.md`,
//! `index.html`) and the official ranking files (`official_rankings`, written to
//! OUTDIR/official/).
//!
//!     cargo run --release --example hipe_families -- PRESET GOLD_DIR RUNS_DIR RESOURCES OUTDIR
//!
//! Prints the number of rankings and official ranking files, so that the work cannot be
//! optimised away.

use std::path::Path;
use std::process::ExitCode;

use fairscore::campaign::{
    official_rankings, run_family_campaign_with, write_family_outputs, Campaign, CampaignHooks,
    FamilyCampaign, OfficialRuns,
};

fn run(args: &[String]) -> fairscore::Result<(usize, usize)> {
    let [preset, gold, runs, resources, outdir] = args else {
        return Err(fairscore::Error::usage(
            "usage: hipe_families PRESET GOLD_DIR RUNS_DIR RESOURCES OUTDIR",
        ));
    };
    let (gold, outdir) = (Path::new(gold), Path::new(outdir));
    let cfg = Campaign::preset(preset)?;
    let fam = FamilyCampaign::from_hipe(&cfg, Path::new(preset), Path::new(resources), gold)?;
    let runs_out = OfficialRuns::new(Some(&outdir.join("official-runs")))?;
    let on_scored =
        |t: &_, s: &str, files: [&Path; 2], st: &mut _| runs_out.scored(t, s, files, st, None);
    let hooks = CampaignHooks {
        on_scored: Some(&on_scored),
        outdir: Some(outdir),
        ..CampaignHooks::default()
    };
    let report = run_family_campaign_with(&fam, gold, Path::new(runs), &hooks)?;
    write_family_outputs(outdir, &fam, &report)?;
    let official = official_rankings(&cfg, &fam, &report, &runs_out);
    let dir = outdir.join("official");
    std::fs::create_dir_all(&dir).map_err(|e| fairscore::Error::output(&dir, e.to_string()))?;
    for (name, text) in &official {
        fairscore::io::write_atomic(&dir.join(name), text.as_bytes())?;
    }
    Ok((report.rankings.len(), official.len()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok((rankings, official)) => {
            println!("{rankings} rankings, {official} official ranking files");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hipe_families: {e}");
            ExitCode::from(2)
        }
    }
}
