//! `fairscore score`: the official `clef_evaluation.py` command, same flags and outputs.

use clap::Args;
use fairscore::api::{self, Settings};
use fairscore::{Error, Result};
use std::path::PathBuf;

use super::args::{
    settings, Beta, ColumnFlag, Edition, ErrorsFlag, Format, Gold, HipeFlags, Json, OriginalNel,
    Outdir, Pred, ReadChanges, RegimesFlag, Resampling, SignatureFlag, SkipCheck, TagsetFlag,
    TaskFlag, WeightsFlag,
};

/// Score one run against the gold standard and write `<run>_<task>[_<suffix>].tsv/.json`
/// exactly as the official HIPE scorer v2.0 does (the run's name must follow the edition's
/// convention unless --skip-check: hipe-2020 TEAM_bundleN_LANG_RUN.tsv, hipe-2022
/// TEAM_bundleN_DATASET_LANG_RUN.tsv).
#[derive(Args, Debug)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub task: TaskFlag,
    #[command(flatten)]
    pub edition: Edition,
    #[command(flatten)]
    pub outdir: Outdir,
    /// Also write warnings (what the official scorer silently patches) to this file.
    #[arg(short = 'l', long = "log", value_name = "FILE")]
    pub log: Option<PathBuf>,
    #[command(flatten)]
    pub original_nel: OriginalNel,
    #[command(flatten)]
    pub hipe: HipeFlags,
    #[command(flatten)]
    pub skip_check: SkipCheck,
    #[command(flatten)]
    pub tagset: TagsetFlag,
    /// Suffix appended to output file names and Evaluation keys.
    #[arg(long = "suffix", value_name = "SUFFIX")]
    pub suffix: Option<String>,
    #[command(flatten)]
    pub regimes: RegimesFlag,
    #[command(flatten)]
    pub weights: WeightsFlag,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub errors: ErrorsFlag,
    /// Print a summary table (micro strict and fuzzy P, R, F1 per column) on stdout. This is
    /// the default when stdout is a terminal; batch use (stdout redirected) stays silent.
    #[arg(long = "summary")]
    pub summary: bool,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub changes: ReadChanges,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

impl ScoreArgs {
    fn settings(&self) -> Settings {
        let mut s = settings(&[
            &self.task,
            &self.edition,
            &self.original_nel,
            &self.skip_check,
            &self.tagset,
            &self.regimes,
            &self.weights,
            &self.format,
            &self.column,
            &self.errors,
            &self.resampling,
            &self.beta,
            &self.hipe,
            &self.changes,
        ]);
        s.text("suffix", self.suffix.as_ref());
        s
    }
}

pub fn run(args: ScoreArgs) -> Result<i32> {
    let task = args
        .task
        .task
        .as_deref()
        .ok_or_else(|| Error::usage("task: required (nerc_coarse, nerc_fine or nel)"))?;
    let tasks = api::tasks(task)?;
    let pred = args.pred.one()?.clone();
    let reference = args.gold.gold.clone();
    let outdir = args
        .outdir
        .outdir
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    let s = args.settings();
    let opts = api::score_options(&s, tasks[0])?;
    s.finish("score")?;
    if args.signature.signature {
        // Beside the official outputs, never inside them: nothing is scored or written.
        let sig = api::hipe_signature(&s, &reference, &[pred.as_path()], None, None)?;
        super::print(&format!("{sig}\n"))?;
        return Ok(0);
    }
    for &t in &tasks[1..] {
        api::score_options(&s, t)?;
    }
    if tasks.len() > 1 && args.errors.errors.is_some() {
        return Err(Error::usage(
            "errors lists the spans of one task: give one --task with it",
        ));
    }
    if tasks.len() > 1 && args.json.json.is_some() {
        return Err(Error::usage(
            "json copies the JSON of one task: give one --task with it",
        ));
    }
    // Only resampling takes long enough to be worth a spinner.
    let spinner =
        super::progress::Progress::spinner(opts.bootstrap.is_none(), "scoring and resampling");
    let outs = if tasks.len() == 1 {
        vec![fairscore::score_paths(&reference, &pred, &opts)?]
    } else {
        fairscore::score_paths_tasks(&reference, &pred, &opts, &tasks)?
    };
    spinner.finish();
    let paths: Vec<(std::path::PathBuf, std::path::PathBuf)> = outs
        .iter()
        .map(|o| (outdir.join(&o.tsv_name), outdir.join(&o.json_name)))
        .collect();
    let mut inputs = vec![("--gold", reference.as_path()), ("--pred", pred.as_path())];
    let tagset = args.tagset.tagset.as_ref().map(PathBuf::from);
    inputs.extend(tagset.as_deref().map(|p| ("--tagset", p)));
    inputs.extend(args.hipe.relaxed.as_deref().map(|p| ("--relaxed", p)));
    inputs.extend(
        args.changes
            .map_types
            .as_deref()
            .map(|p| ("--map-types", p)),
    );
    let mut outputs: Vec<(&str, &std::path::Path)> = Vec::new();
    for (tsv_path, json_path) in &paths {
        outputs.push(("the TSV output", tsv_path.as_path()));
        outputs.push(("the JSON output", json_path.as_path()));
    }
    outputs.extend(args.log.as_deref().map(|p| ("--log", p)));
    outputs.extend(args.errors.errors.as_deref().map(|p| ("--errors", p)));
    let json_copy = args
        .json
        .json
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"));
    outputs.extend(json_copy.map(|p| ("--json", p)));
    fairscore::io::check_outputs(&inputs, &outputs, &[])?;
    // Temporary files left by an earlier, killed run in the same directory go first.
    fairscore::io::remove_stale_temp_files(&outdir);
    // Create the output directory only once there is something to write into it.
    std::fs::create_dir_all(&outdir)
        .map_err(|e| Error::output(&outdir, format!("cannot create the output directory: {e}")))?;
    // Warnings about the files are the same for every task: each is shown once.
    let mut warnings: Vec<&String> = Vec::new();
    for w in outs.iter().flat_map(|o| &o.warnings) {
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    }
    for w in &warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    // The run's repairs as it was read (--repair), as `convert` logs them.
    let repairs = opts.run_text.as_ref().map(|r| r.log()).unwrap_or_default();
    for r in &repairs {
        eprintln!("fairscore: repair: {}", fairscore::io::escape_controls(r));
    }
    // Everything is computed; write the outputs (and the log) together, all or none.
    let mut log_text = String::new();
    for w in &warnings {
        log_text.push_str(w);
        log_text.push('\n');
    }
    let mut files: Vec<(&std::path::Path, &[u8])> = Vec::new();
    for (out, (tsv_path, json_path)) in outs.iter().zip(&paths) {
        files.push((tsv_path.as_path(), out.tsv.as_bytes()));
        files.push((json_path.as_path(), out.json.as_bytes()));
    }
    if let Some(log) = &args.log {
        files.push((log.as_path(), log_text.as_bytes()));
    }
    if let (Some(path), Some(text)) = (
        &args.errors.errors,
        outs.first().and_then(|o| o.errors.as_ref()),
    ) {
        files.push((path.as_path(), text.as_bytes()));
    }
    if let (Some(path), Some(out)) = (json_copy, outs.first()) {
        files.push((path, out.json.as_bytes()));
    }
    fairscore::io::write_atomic_all(&files)?;
    if args.json.json.as_deref() == Some(std::path::Path::new("-")) {
        if let Some(out) = outs.first() {
            super::print(&out.json)?;
        }
        return Ok(0);
    }
    if args.summary || std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        let mut text = String::new();
        for ((out, (tsv_path, json_path)), &task) in outs.iter().zip(&paths).zip(&tasks) {
            text.push_str(&fairscore::report::summary_table(
                &out.system,
                task,
                &out.results,
            ));
            text.push_str(&format!(
                "wrote {} and {}\n",
                fairscore::io::show_path(tsv_path),
                fairscore::io::show_path(json_path)
            ));
        }
        super::print(&text)?;
    }
    Ok(0)
}
