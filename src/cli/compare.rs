//! `fairscore compare`: paired significance test and interval of the difference between two
//! runs on the same gold.

use clap::Args;
use fairscore::eval::bootstrap::resampler;
use fairscore::eval::compare::{CompareOptions, CompareRegime, Test};
use fairscore::{Edition, ScoreOptions, Task};
use fairscore::{Error, Result};
use std::path::PathBuf;

/// The arguments of `fairscore compare`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  fairscore compare --ref gold.tsv --pred a.tsv --pred b.tsv \
--task nerc_coarse --hipe_edition hipe-2022 --json a_vs_b.json"
)]
pub struct CompareArgs {
    /// Gold standard file.
    #[arg(short = 'r', long = "ref", value_name = "GOLD")]
    pub reference: PathBuf,
    /// A run file; give exactly two: `--pred A --pred B` (the difference is A − B).
    #[arg(short = 'p', long = "pred", value_name = "RUN", required = true)]
    pub pred: Vec<PathBuf>,
    /// Task: nerc_coarse, nerc_fine or nel.
    #[arg(
        short = 't',
        long = "task",
        value_name = "TASK",
        default_value = "nerc_coarse"
    )]
    pub task: String,
    /// HIPE edition, which decides the compared columns: hipe-2020 or hipe-2022.
    #[arg(
        short = 'e',
        long = "hipe_edition",
        alias = "hipe-edition",
        value_name = "EDITION",
        default_value = "hipe-2020"
    )]
    pub hipe_edition: String,
    /// Input format: hipe (HIPE TSV) or conll (as `score --format conll`).
    #[arg(long = "format", value_name = "FORMAT", default_value = "hipe")]
    pub format: String,
    /// The tag column for --format conll: TAG (the last, default), a name or a 1-based number.
    #[arg(long = "column", value_name = "NAME")]
    pub column: Option<String>,
    /// File with the valid labels, one per line (as `score --tagset`).
    #[arg(long = "tagset", value_name = "FILE")]
    pub tagset: Option<PathBuf>,
    /// NEL: group links as consecutive tokens with the same link (as `score --original_nel`).
    #[arg(short = 'g', long = "original_nel", alias = "original-nel")]
    pub original_nel: bool,
    /// The test of the p-value: permutation (paired approximate randomization) or bootstrap
    /// (paired bootstrap, shifted-null). Use permutation for significance decisions.
    #[arg(long = "test", value_name = "TEST", default_value = "permutation")]
    pub test: String,
    /// Resamples of the test and of the interval (1 to 10,000,000).
    #[arg(long = "samples", value_name = "N", default_value_t = 10_000)]
    pub samples: usize,
    /// Seed; the same seed gives the same results for any number of threads.
    #[arg(long = "seed", value_name = "S", default_value_t = fairscore::eval::bootstrap::DEFAULT_SEED)]
    pub seed: u64,
    /// Confidence level of the interval of A − B, strictly between 0 and 1.
    #[arg(long = "confidence", value_name = "C", default_value_t = 0.95)]
    pub confidence: f64,
    /// Regimes compared, in order: strict, ent_type (or fuzzy), partial, exact, fair (Ortmann
    /// 2022) and weighted (needs --weights).
    #[arg(
        long = "regimes",
        value_name = "LIST",
        default_value = "strict,ent_type,partial,exact"
    )]
    pub regimes: String,
    /// Weights of the weighted regime (as `score --weights`).
    #[arg(long = "weights", value_name = "FORMULA")]
    pub weights: Option<String>,
    /// Also write the results as JSON: {COLUMN: {REGIME: {"P"|"R"|"F1": {"a", "b", "diff",
    /// "ci": [lo, hi], "p"}}}}.
    #[arg(long = "json", value_name = "OUT")]
    pub json: Option<PathBuf>,
}

fn options(args: &CompareArgs) -> Result<(ScoreOptions, CompareOptions)> {
    let task = Task::parse(&args.task)?;
    let edition = Edition::parse(&args.hipe_edition)?;
    let mut opts = ScoreOptions::new(task, edition);
    super::score::set_format(&mut opts, &args.format, args.column.as_deref())?;
    if let Some(ts) = &args.tagset {
        opts.tagset = Some(fairscore::eval::options::read_tagset(ts)?);
    }
    opts.skip_check = true;
    opts.original_nel = args.original_nel;
    let regimes = CompareRegime::parse_list(&args.regimes)?;
    if let Some(w) = &args.weights {
        opts.weights = Some(fairscore::eval::weights::parse_weights(w)?);
    } else if regimes.contains(&CompareRegime::Weighted) {
        return Err(Error::usage("--regimes weighted needs --weights FORMULA"));
    }
    let copts = CompareOptions {
        test: Test::parse(&args.test)?,
        resampler: resampler(
            "--samples",
            args.samples,
            Some(args.seed),
            Some(args.confidence),
        )?,
        regimes,
    };
    Ok((opts, copts))
}

pub fn run(args: CompareArgs) -> Result<i32> {
    let [a, b] = args.pred.as_slice() else {
        return Err(Error::usage(format!(
            "--pred: give exactly two runs (--pred A --pred B), not {}",
            args.pred.len()
        )));
    };
    let mut inputs = vec![
        ("--ref", args.reference.as_path()),
        ("--pred", a.as_path()),
        ("--pred", b.as_path()),
    ];
    inputs.extend(args.tagset.as_deref().map(|p| ("--tagset", p)));
    if let Some(out) = &args.json {
        fairscore::io::check_outputs(&inputs, &[("--json", out.as_path())], &[])?;
    }
    let (opts, copts) = options(&args)?;
    let spinner = super::progress::Progress::spinner(false, "scoring and resampling");
    let result = fairscore::score::compare_paths(&args.reference, a, b, &opts, &copts)?;
    spinner.finish();
    for w in &result.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    if let Some(out) = &args.json {
        let text = fairscore::report::compare::json(&result);
        fairscore::io::write_atomic(out, text.as_bytes())?;
    }
    print!("{}", fairscore::report::compare::table(&result));
    Ok(0)
}
