//! `fairscore leaderboard`: score every run of a campaign and write per-run outputs, rankings,
//! `leaderboard.md` and `index.html` (see docs/leaderboard.md). Every campaign is scored by
//! the family engine (a HIPE campaign as `hipe` family tasks: `campaign::score_official`);
//! `--replay DIR` reports per-run outputs computed earlier instead (`campaign::replay_official`).

use std::path::PathBuf;

use clap::Args;
use fairscore::campaign::{self, Campaign, CampaignDirs, Progress};

#[derive(Args, Debug)]
pub struct LeaderboardArgs {
    #[command(flatten)]
    pub gold_dir: super::args::GoldDir,
    /// Directory of the submitted runs (named by the campaign's run pattern).
    #[arg(long, value_name = "DIR")]
    pub runs_dir: PathBuf,
    #[command(flatten)]
    pub hipe: super::args::HipeCampaign,
    #[command(flatten)]
    pub outdir: super::args::Outdir,
    #[command(flatten)]
    pub campaign: super::args::CampaignFile,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Do not score: take each run's outputs (RUN_TASK[_SUFFIX].tsv/.json) from DIR, e.g. the
    /// official ones, and only rank and report.
    #[arg(long, value_name = "DIR")]
    pub replay: Option<PathBuf>,
    /// F1 intervals and significance marks (runs sharing first place at p ≥ 1 − confidence)
    /// come with --bootstrap N (overriding the campaign's `bootstrap`, `bootstrap_seed`,
    /// `bootstrap_confidence`); they add `rankings/*.ci.tsv`.
    #[command(flatten)]
    pub resampling: super::args::Resampling,
    #[command(flatten)]
    pub inspect: super::args::InspectFlag,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs the command. Exit status 1 when some file of the runs directory was not scored.
pub fn run(args: LeaderboardArgs) -> fairscore::Result<i32> {
    let outdir = args
        .outdir
        .outdir
        .clone()
        .ok_or_else(|| fairscore::Error::usage("outdir: required (the output directory)"))?;
    if let Some(file) = &args.campaign.campaign {
        let text = fairscore::io::read_text(file)?;
        // A TOML syntax error is said at its line, whichever kind of campaign it was meant
        // to be (never taken for a HIPE campaign lacking --resources).
        if campaign::campaign_kind(file, &text)? {
            return run_families(&args, file, &text, &outdir);
        }
    }
    let resources = args.hipe.resources.clone().ok_or_else(|| {
        fairscore::Error::usage(
            "resources: required for a HIPE campaign (the tagset and QID map files)",
        )
    })?;
    let mut cfg = match (&args.campaign.campaign, &args.hipe.preset) {
        (Some(file), _) => Campaign::from_file(file)?,
        (None, preset) => Campaign::preset(preset.as_deref().unwrap_or("hipe-2022"))?,
    };
    cfg.bootstrap = resampling(&args, cfg.bootstrap)?;
    cfg.inspect |= args.inspect.inspect;
    if cfg.inspect && args.replay.is_some() {
        return Err(fairscore::Error::usage(
            "--replay: replayed outputs are not scored again, so no inspect pages are made; \
             drop --replay, or --inspect (or the campaign's inspect)",
        ));
    }
    if args.replay.is_some() && cfg.tasks.values().any(|t| !cfg.breakdown_of(t).is_empty()) {
        return Err(fairscore::Error::usage(
            "--replay: replayed outputs are not scored again, so no breakdowns are made; drop \
             --replay, or the campaign's breakdown",
        ));
    }
    if let Some(n) = args.threads {
        // The scoring and the marks run on the global pool.
        // (Fails only when the global pool already exists, which then is used as it is.)
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global();
    }
    let dirs = CampaignDirs {
        gold: args.gold_dir.gold_dir.clone(),
        runs: args.runs_dir.clone(),
        resources,
        outdir: outdir.clone(),
    };
    let bar = super::progress::Progress::bar(args.quiet, 0, "scoring");
    let show = super::progress::Progress::wanted(args.quiet);
    let progress = |p: &Progress<'_>| {
        bar.set_total(p.total as u64);
        bar.done(p.done as u64, p.job);
    };
    let progress: Option<&(dyn Fn(&Progress<'_>) + Sync)> = match show {
        true => Some(&progress),
        false => None,
    };
    let name = match (&args.campaign.campaign, &args.hipe.preset) {
        (Some(file), _) => file.clone(),
        (None, preset) => PathBuf::from(preset.as_deref().unwrap_or("hipe-2022")),
    };
    let report = match &args.replay {
        Some(dir) => campaign::replay_official(&cfg, &dirs, dir, progress),
        None => campaign::score_official(&cfg, &name, &dirs, progress),
    };
    bar.finish();
    let report = report?;
    for f in &report.failed {
        eprintln!(
            "fairscore: {}: scoring failed: {}",
            fairscore::io::escape_controls(&f.run.file_name),
            fairscore::io::escape_controls(&f.errors.join("; "))
        );
    }
    for s in &report.scored {
        for m in &s.missing {
            eprintln!(
                "fairscore: {}: not replayed: {}",
                fairscore::io::escape_controls(&s.run.file_name),
                fairscore::io::escape_controls(m)
            );
        }
    }
    match campaign::no_run_fits(&cfg, &report) {
        // One line for a wrong preset or campaign, not one per file.
        Some(n) => eprintln!(
            "fairscore: {}: {}: {}",
            fairscore::io::escape_controls(&args.runs_dir.display().to_string()),
            n.subject,
            fairscore::io::escape_controls(&n.reason)
        ),
        None => {
            for r in &report.rejected {
                eprintln!(
                    "fairscore: {}: not a run: {}",
                    fairscore::io::escape_controls(&r.file_name),
                    fairscore::io::escape_controls(&r.reason)
                );
            }
        }
    }
    if !report.ignored.is_empty() {
        eprintln!(
            "fairscore: ignored {} file(s) that are not runs: {}",
            report.ignored.len(),
            fairscore::io::escape_controls(&report.ignored.join(", "))
        );
    }
    for n in &report.not_evaluated {
        eprintln!(
            "fairscore: {} {} {}: not evaluated: {} {} {}",
            n.dataset,
            n.lang,
            n.output,
            n.what,
            n.path.display(),
            n.reason
        );
    }
    if !report.removed.is_empty() {
        eprintln!(
            "fairscore: removed {} outputs of earlier runs from {}",
            report.removed.len(),
            outdir.display()
        );
    }
    eprintln!(
        "fairscore: {} runs scored, {} failed, {} not runs, {} outputs not evaluated; {} ranking files; wrote {}",
        report.scored.len(),
        report.failed.len(),
        report.rejected.len(),
        report.not_evaluated.len(),
        report.rankings.len(),
        outdir.join("index.html").display()
    );
    Ok(if report.all_ok() { 0 } else { 1 })
}

/// The campaign's resampling with the command line's settings over it; `--seed` and
/// `--confidence` need `--bootstrap` or a campaign with `bootstrap`. Replayed tables have no
/// per-document counts, so `--replay` refuses resampling.
fn resampling(
    args: &LeaderboardArgs,
    campaign: Option<fairscore::metrics::Resampler>,
) -> fairscore::Result<Option<fairscore::metrics::Resampler>> {
    use fairscore::Error;
    let s = super::args::settings(&[&args.resampling]);
    let n = s.number::<usize>("bootstrap", "a whole number of resamples")?;
    let seed = s.number::<u64>("seed", "a whole number")?;
    let confidence = s.number::<f64>("confidence", "a number between 0 and 1")?;
    let samples = match (n, campaign) {
        (Some(n), _) => n,
        (None, Some(c)) => c.samples,
        (None, None) if seed.is_some() => {
            return Err(Error::usage("--seed goes with --bootstrap N"))
        }
        (None, None) if confidence.is_some() => {
            return Err(Error::usage("--confidence goes with --bootstrap N"))
        }
        (None, None) => return Ok(None),
    };
    if args.replay.is_some() {
        return Err(Error::usage(
            "--replay: replayed score tables have no per-document counts, so no intervals can \
             be computed; drop --replay, or --bootstrap (or the campaign's bootstrap)",
        ));
    }
    fairscore::eval::resampler(
        "--bootstrap",
        samples,
        seed.or(campaign.map(|c| c.seed)),
        confidence.or(campaign.map(|c| c.confidence)),
    )
    .map(Some)
}

/// `leaderboard` of a campaign of family tasks: rankings of every task, `leaderboard.json`,
/// Markdown and HTML. Files of the runs directory that are no runs (other extensions) are
/// listed once and do not change the exit status; a file with a run extension that fits no
/// pattern, or a run that fails to score, gives exit status 1.
fn run_families(
    args: &LeaderboardArgs,
    file: &std::path::Path,
    text: &str,
    outdir: &std::path::Path,
) -> fairscore::Result<i32> {
    use campaign::write_family_outputs;
    use campaign::{run_family_campaign_with, CampaignHooks, FamilyCampaign};
    if args.replay.is_some() {
        return Err(fairscore::Error::usage(
            "replay: replays HIPE outputs; a campaign of family tasks is scored",
        ));
    }
    let mut cfg = FamilyCampaign::parse(file, text)?;
    cfg.bootstrap = resampling(args, cfg.bootstrap)?;
    if args.inspect.inspect {
        let mut any = false;
        for t in cfg.tasks.iter_mut().filter(|t| campaign::inspectable(t)) {
            t.insight.inspect = true;
            any = true;
        }
        if !any {
            return Err(fairscore::Error::usage(
                "--inspect: the campaign has no spans or fair task (the page shows span errors)",
            ));
        }
    }
    if let Some(n) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global();
    }
    let spinner = super::progress::Progress::spinner(args.quiet, "scoring the campaign");
    fairscore::io::remove_stale_temp_files(outdir);
    // Each task's runs' results are written as it is ranked (memory stays flat).
    let hooks = CampaignHooks {
        outdir: Some(outdir),
        ..CampaignHooks::default()
    };
    let report = run_family_campaign_with(&cfg, &args.gold_dir.gold_dir, &args.runs_dir, &hooks);
    spinner.finish();
    let report = report?;
    if !report.ignored.is_empty() {
        eprintln!(
            "fairscore: ignored {} file(s) that are not runs: {}",
            report.ignored.len(),
            fairscore::io::escape_controls(&report.ignored.join(", "))
        );
    }
    for (f, why) in &report.rejected {
        eprintln!(
            "fairscore: {}: not a run: {}",
            fairscore::io::escape_controls(f),
            fairscore::io::escape_controls(why)
        );
    }
    for f in &report.failed {
        eprintln!(
            "fairscore: {}: scoring failed for task {}: {}",
            fairscore::io::escape_controls(&f.file),
            fairscore::io::escape_controls(&f.task),
            fairscore::io::escape_controls(&f.reason)
        );
    }
    let written = write_family_outputs(outdir, &cfg, &report)?;
    // Runs as runs, scorings as scorings (a run of two tasks is scored twice).
    let scorings: usize = report.rankings.iter().map(|r| r.ranking.runs.len()).sum();
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    eprintln!(
        "fairscore: {} ranked ({} in {}), {} failed ({}), {} not runs, {} ignored; {} files; wrote {}",
        n(report.ranked_runs(), "run"),
        n(scorings, "scoring"),
        n(report.rankings.len(), "table"),
        n(report.failed_runs(), "run"),
        n(report.failed.len(), "scoring"),
        report.rejected.len(),
        report.ignored.len(),
        written.len(),
        outdir.join("leaderboard.json").display()
    );
    Ok(if report.failed.is_empty() && report.rejected.is_empty() {
        0
    } else {
        1
    })
}
