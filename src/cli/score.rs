//! `fairscore score`: the official `clef_evaluation.py` command, same flags and outputs.

use clap::Args;
use fairscore::eval::options::{self as score, Regime};
use fairscore::{Edition, ScoreOptions, Task};
use fairscore::{Error, Result};
use std::path::PathBuf;

/// Score one run against the gold standard and write `<run>_<task>[_<suffix>].tsv/.json`
/// exactly as the official HIPE scorer v2.0 does.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// Gold standard file (HIPE TSV).
    #[arg(short = 'r', long = "ref", value_name = "GOLD")]
    pub reference: PathBuf,
    /// System run file (HIPE TSV). Unless --skip-check, its name must follow the edition's
    /// convention (hipe-2020: TEAM_bundleN_LANG_RUN.tsv; hipe-2022:
    /// TEAM_bundleN_DATASET_LANG_RUN.tsv).
    #[arg(short = 'p', long = "pred", value_name = "RUN")]
    pub pred: PathBuf,
    /// Task: nerc_coarse, nerc_fine or nel; several, comma-separated (e.g.
    /// nerc_coarse,nerc_fine,nel), score each and write each task's files as separate runs
    /// would, reading the files once.
    #[arg(short = 't', long = "task", value_name = "TASK[,TASK…]")]
    pub task: String,
    /// HIPE edition, which decides the scored columns: hipe-2020 or hipe-2022.
    #[arg(
        short = 'e',
        long = "hipe_edition",
        alias = "hipe-edition",
        value_name = "EDITION",
        default_value = "hipe-2020"
    )]
    pub hipe_edition: String,
    /// Output directory.
    #[arg(short = 'o', long = "outdir", value_name = "DIR", default_value = ".")]
    pub outdir: PathBuf,
    /// Also write warnings (what the official scorer silently patches) to this file.
    #[arg(short = 'l', long = "log", value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// NEL: group links as consecutive tokens with the same link (the original CLEF-HIPE-2020
    /// grouping) instead of by named-entity boundaries.
    #[arg(short = 'g', long = "original_nel", alias = "original-nel")]
    pub original_nel: bool,
    /// NEL: evaluate at these cutoffs of ranked candidate lists `Q1|Q2|Q3`, e.g. 1,3,5.
    #[arg(
        short = 'n',
        long = "n_best",
        alias = "n-best",
        value_name = "K[,K…]",
        default_value = "1"
    )]
    pub n_best: String,
    /// Also evaluate on tokens whose OCR noise (MISC `LED<x>`) is in each range, e.g.
    /// 0.0-0.1,0.1-1.0 (lower ≤ LED < upper; tokens without LED are always kept).
    #[arg(long = "noise-level", alias = "noise_level", value_name = "RANGES")]
    pub noise_level: Option<String>,
    /// Also evaluate on documents dated in each period, e.g. 1900-1950,1950-2000 (years) or
    /// 1900/01/01-1950/12/31 (start included, end excluded).
    #[arg(long = "time-period", alias = "time_period", value_name = "RANGES")]
    pub time_period: Option<String>,
    /// Glue the labels of two columns, e.g. NE-COARSE-LIT+NE-NESTED (comma-separated pairs).
    #[arg(long = "glue", value_name = "A+B[,…]")]
    pub glue: Option<String>,
    /// Do not check the run's file name; System is then the --pred argument as given.
    #[arg(long = "skip-check", alias = "skip_check")]
    pub skip_check: bool,
    /// File with the valid labels, one per line: run labels outside gold and tagset are ignored.
    #[arg(long = "tagset", value_name = "FILE")]
    pub tagset: Option<PathBuf>,
    /// Suffix appended to output file names and Evaluation keys.
    #[arg(long = "suffix", value_name = "SUFFIX")]
    pub suffix: Option<String>,
    /// NEL: relaxed evaluation in one step. Normalizes the gold (historical QIDs mapped to
    /// their main QID with MAP) and the run (the same, plus time entities linked to NIL) in
    /// memory before scoring; the suffix defaults to `relaxed`.
    #[arg(long = "relaxed", value_name = "MAP")]
    pub relaxed: Option<PathBuf>,
    /// Regimes of the TSV rows, in order: fuzzy, strict (the official outputs, default), fair
    /// (Ortmann 2022: labeling, boundary and labeling-boundary errors counted once, as half FP
    /// and half FN) and weighted (needs --weights). fair/weighted also add blocks to the JSON.
    #[arg(long = "regimes", value_name = "LIST", default_value = "fuzzy,strict")]
    pub regimes: String,
    /// Weights of the weighted regime, e.g. "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN,
    /// BEL = 0.5 TP + 0.5 FP, BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN".
    #[arg(long = "weights", value_name = "FORMULA")]
    pub weights: Option<String>,
    /// Input format of gold and run: hipe (HIPE TSV, the edition's columns) or conll (FORM
    /// [POS …] TAG per line, BIO tags read as conlleval does, blank-line sentences,
    /// `-DOCSTART-` documents or else the whole file as one document). With conll the task is
    /// nerc_coarse or nerc_fine (entities of one column) and no file-name check is made.
    #[arg(long = "format", value_name = "FORMAT", default_value = "hipe")]
    pub format: String,
    /// The tag column to score for --format conll: TAG (the last, default), POS, COL3, … or a
    /// 1-based column number.
    #[arg(long = "column", value_name = "NAME")]
    pub column: Option<String>,
    /// Also write one line per gold and run span (document, token range, text, labels, fair
    /// error type) to this TSV file.
    #[arg(long = "errors", value_name = "FILE.tsv")]
    pub errors: Option<PathBuf>,
    /// Print a summary table (micro strict and fuzzy P, R, F1 per column) on stdout. This is
    /// the default when stdout is a terminal; batch use (stdout redirected) stays silent.
    #[arg(long = "summary")]
    pub summary: bool,
    /// Percentile bootstrap over documents with N resamples (1 to 10,000,000; 1,000 to 10,000
    /// is usual): adds "P_micro_ci", "R_micro_ci" and "F1_micro_ci" ([lo, hi]) after
    /// "F1_micro" in every regime object of the JSON (every column, label and regime, fair and
    /// weighted blocks too). The TSV is unchanged; without --bootstrap both outputs are the
    /// official ones. See docs/statistics.md.
    #[arg(long = "bootstrap", value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Seed of --bootstrap (default 42); the same seed gives the same bytes for any number of
    /// threads.
    #[arg(long = "seed", value_name = "S")]
    pub seed: Option<u64>,
    /// Confidence level of the --bootstrap intervals, strictly between 0 and 1 (default 0.95).
    #[arg(long = "confidence", value_name = "C")]
    pub confidence: Option<f64>,
    /// Also give F-beta: "F<B>_micro" (e.g. F0.5_micro, F2_micro) right after every
    /// "F1_micro" of the JSON, from that block's P_micro and R_micro. The TSV stays the
    /// official one; without --beta (or with 1) both outputs are unchanged. See docs/metrics.md.
    #[arg(long = "beta", value_name = "B")]
    pub beta: Option<f64>,
}

fn parse_glue(s: &str) -> Result<Vec<(String, String)>> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('+')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| Error::usage(format!("--glue: {p:?} is not a pair COL_A+COL_B")))
        })
        .collect()
}

/// Sets `--format` (hipe or conll) and `--column` (conll only).
pub fn set_format(opts: &mut ScoreOptions, format: &str, column: Option<&str>) -> Result<()> {
    opts.format = match fairscore::formats::Format::parse(format)? {
        Some(f @ (fairscore::formats::Format::Hipe | fairscore::formats::Format::Conll)) => f,
        _ => {
            return Err(Error::usage(format!(
                "--format: {format:?} cannot be scored; use hipe or conll"
            )))
        }
    };
    if opts.format == fairscore::formats::Format::Conll && opts.task == Task::Nel {
        return Err(Error::usage(
            "--format conll: the nel task needs HIPE TSV input (link columns); use nerc_coarse or nerc_fine",
        ));
    }
    if let Some(c) = column {
        if opts.format == fairscore::formats::Format::Hipe {
            return Err(Error::usage(
                "--column goes with --format conll; for HIPE input the edition and task decide the columns",
            ));
        }
        opts.column = Some(c.to_string());
    }
    Ok(())
}

/// The tasks of `--task`: one, or several comma-separated, each once.
pub fn tasks(arg: &str) -> Result<Vec<Task>> {
    let mut out: Vec<Task> = Vec::new();
    for part in arg.split(',') {
        let task = Task::parse(part.trim())?;
        if out.contains(&task) {
            return Err(Error::usage(format!(
                "--task {arg}: {} is given twice",
                task.as_str()
            )));
        }
        out.push(task);
    }
    Ok(out)
}

/// The options of one scoring of `task` (each task of `--task` is checked this way).
fn options_for(args: &ScoreArgs, task: Task) -> Result<ScoreOptions> {
    let edition = Edition::parse(&args.hipe_edition)?;
    let mut opts = ScoreOptions::new(task, edition);
    set_format(&mut opts, &args.format, args.column.as_deref())?;
    opts.n_best = args
        .n_best
        .split(',')
        .map(|n| {
            n.trim()
                .parse::<usize>()
                .ok()
                .filter(|&k| k >= 1)
                .ok_or_else(|| {
                    Error::usage(format!("--n_best: {n:?} is not a positive whole number"))
                })
        })
        .collect::<Result<_>>()?;
    if let Some(n) = &args.noise_level {
        opts.noise_levels = score::parse_noise_levels(n)?;
    }
    if let Some(t) = &args.time_period {
        opts.time_periods = score::parse_time_periods(t)?;
    }
    if let Some(g) = &args.glue {
        opts.glue = parse_glue(g)?;
    }
    if let Some(ts) = &args.tagset {
        opts.tagset = Some(score::read_tagset(ts)?);
    }
    if let Some(s) = &args.suffix {
        fairscore::hipe::check_name_part("--suffix", s)?;
    }
    opts.suffix = args.suffix.clone();
    opts.regimes = Regime::parse_list(&args.regimes)?;
    if let Some(w) = &args.weights {
        opts.weights = Some(fairscore::eval::weights::parse_weights(w)?);
        if !opts.regimes.contains(&Regime::Weighted) {
            opts.regimes.push(Regime::Weighted);
        }
    } else if opts.regimes.contains(&Regime::Weighted) {
        return Err(Error::usage("--regimes weighted needs --weights FORMULA"));
    }
    opts.errors = args.errors.is_some();
    if let Some(map) = &args.relaxed {
        if task != Task::Nel {
            return Err(Error::usage("--relaxed applies to --task nel only"));
        }
        opts.relaxed_map = Some(fairscore::normalize::read_map(map)?);
        if opts.suffix.is_none() {
            opts.suffix = Some("relaxed".to_string());
        }
    }
    opts.skip_check = args.skip_check;
    opts.original_nel = args.original_nel;
    opts.bootstrap = match args.bootstrap {
        Some(n) => Some(fairscore::eval::bootstrap::resampler(
            "--bootstrap",
            n,
            args.seed,
            args.confidence,
        )?),
        None if args.seed.is_some() => return Err(Error::usage("--seed goes with --bootstrap N")),
        None if args.confidence.is_some() => {
            return Err(Error::usage("--confidence goes with --bootstrap N"))
        }
        None => None,
    };
    opts.beta = super::segmentation::check_beta(args.beta)?;
    Ok(opts)
}

pub fn run(args: ScoreArgs) -> Result<i32> {
    let tasks = tasks(&args.task)?;
    let opts = options_for(&args, tasks[0])?;
    for &t in &tasks[1..] {
        options_for(&args, t)?;
    }
    if tasks.len() > 1 && args.errors.is_some() {
        return Err(Error::usage(
            "--errors lists the spans of one task: give one --task with it",
        ));
    }
    // Only resampling takes long enough to be worth a spinner.
    let spinner =
        super::progress::Progress::spinner(opts.bootstrap.is_none(), "scoring and resampling");
    let outs = if tasks.len() == 1 {
        vec![fairscore::score_paths(&args.reference, &args.pred, &opts)?]
    } else {
        fairscore::score_paths_tasks(&args.reference, &args.pred, &opts, &tasks)?
    };
    spinner.finish();
    let paths: Vec<(std::path::PathBuf, std::path::PathBuf)> = outs
        .iter()
        .map(|o| {
            (
                args.outdir.join(&o.tsv_name),
                args.outdir.join(&o.json_name),
            )
        })
        .collect();
    let mut inputs = vec![
        ("--ref", args.reference.as_path()),
        ("--pred", args.pred.as_path()),
    ];
    inputs.extend(args.tagset.as_deref().map(|p| ("--tagset", p)));
    inputs.extend(args.relaxed.as_deref().map(|p| ("--relaxed", p)));
    let mut outputs: Vec<(&str, &std::path::Path)> = Vec::new();
    for (tsv_path, json_path) in &paths {
        outputs.push(("the TSV output", tsv_path.as_path()));
        outputs.push(("the JSON output", json_path.as_path()));
    }
    outputs.extend(args.log.as_deref().map(|p| ("--log", p)));
    outputs.extend(args.errors.as_deref().map(|p| ("--errors", p)));
    fairscore::io::check_outputs(&inputs, &outputs, &[])?;
    // Temporary files left by an earlier, killed run in the same directory go first.
    fairscore::io::remove_stale_temp_files(&args.outdir);
    // Create the output directory only once there is something to write into it.
    std::fs::create_dir_all(&args.outdir).map_err(|e| {
        Error::output(
            &args.outdir,
            format!("cannot create the output directory: {e}"),
        )
    })?;
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
    if let (Some(path), Some(text)) = (&args.errors, outs.first().and_then(|o| o.errors.as_ref())) {
        files.push((path.as_path(), text.as_bytes()));
    }
    fairscore::io::write_atomic_all(&files)?;
    if args.summary || std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        for ((out, (tsv_path, json_path)), &task) in outs.iter().zip(&paths).zip(&tasks) {
            print!(
                "{}",
                fairscore::report::summary::table(&out.system, task, &out.results)
            );
            println!(
                "wrote {} and {}",
                fairscore::io::show_path(tsv_path),
                fairscore::io::show_path(json_path)
            );
        }
    }
    Ok(0)
}
