//! `fairscore fair`: argument parsing for fair evaluation (Ortmann 2022) and the call into
//! `fairscore::fair`. Prints the tables to stdout; optionally writes JSON and an error listing.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use fairscore::eval::fair::{self, Continuation, FairOptions, Format, ReadOptions};
use fairscore::matching::fair::Focus;
use fairscore::report::fair as output;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Detect from the first line.
    Auto,
    /// One span per line: LABEL<TAB>begin<TAB>end<TAB>tok, tok, … (sentences separated by blank lines).
    Spans,
    /// CoNLL: FORM [POS …] TAG, BIO tags (stacked levels separated by `|`), blank-line sentences as units.
    Conll,
    /// HIPE TSV: header line, documents as units, IOB/IOBES tags in --column.
    Hipe,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ContinuationArg {
    Conlleval,
    Reference,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FocusArg {
    Target,
    System,
}

#[derive(Args, Debug)]
pub struct FairArgs {
    /// Target (gold) file.
    #[arg(long, value_name = "FILE")]
    pub target: PathBuf,
    /// System (run) file.
    #[arg(long, value_name = "FILE")]
    pub system: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// HIPE tag column(s); several (comma-separated) are evaluated as annotation levels.
    #[arg(long, default_value = "NE-COARSE-LIT", value_name = "NAME[,NAME…]")]
    pub column: String,
    /// Whose label labeling (LE) and labeling-boundary (LBE) errors count for per label.
    #[arg(long, value_enum, default_value = "target")]
    pub focus: FocusArg,
    /// Weights for the weighted evaluation, e.g. "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN".
    #[arg(long, value_name = "FORMULA")]
    pub weights: Option<String>,
    /// Evaluate only these labels (comma-separated).
    #[arg(long, value_name = "L,…")]
    pub labels: Option<String>,
    /// Leave out these labels (comma-separated); NONE and EMPTY are always left out.
    #[arg(long, value_name = "L,…")]
    pub exclude: Option<String>,
    /// CoNLL only: ignore punctuation tokens (by POS tag) as the reference implementation does.
    #[arg(long)]
    pub ignore_punct: bool,
    /// CoNLL only: what an I- tag continues. `conlleval`: only an open span of the same label
    /// (as conlleval and seqeval; an I-Y after X or O opens a new span); `reference`: the open
    /// span of its level whatever its label (Ortmann's reference implementation).
    #[arg(long, value_enum, default_value = "conlleval")]
    pub continuation: ContinuationArg,
    /// Write scores as JSON (P/R/F1 as fractions) to this file.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write one line per target and system span with its error type to this TSV file.
    #[arg(long, value_name = "FILE.tsv")]
    pub errors: Option<PathBuf>,
    /// Also give F-beta: an "F<B>" column (e.g. F0.5, F2) after every F1 in the tables and an
    /// "F<B>" key after every "F1" in the JSON. Without it (or with 1) the outputs are
    /// unchanged. See docs/fair.md.
    #[arg(long, value_name = "B")]
    pub beta: Option<f64>,
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

pub fn run(args: FairArgs) -> fairscore::Result<i32> {
    let beta = super::segmentation::check_beta(args.beta)?;
    let weights = args
        .weights
        .as_deref()
        .map(fair::parse_weights)
        .transpose()?;
    let columns = list(&args.column);
    if columns.is_empty() {
        return Err(fairscore::Error::usage(
            "--column: expected at least one column name",
        ));
    }
    let labels = args.labels.as_deref().map(list);
    if labels.as_ref().is_some_and(Vec::is_empty) {
        return Err(fairscore::Error::usage(
            "--labels: expected at least one label",
        ));
    }
    let opts = FairOptions {
        read: ReadOptions {
            format: match args.format {
                FormatArg::Auto => None,
                FormatArg::Spans => Some(Format::Spans),
                FormatArg::Conll => Some(Format::Conll),
                FormatArg::Hipe => Some(Format::Hipe),
            },
            columns,
            ignore_punct: args.ignore_punct,
            continuation: match args.continuation {
                ContinuationArg::Conlleval => Continuation::Conlleval,
                ContinuationArg::Reference => Continuation::Reference,
            },
        },
        focus: match args.focus {
            FocusArg::Target => Focus::Target,
            FocusArg::System => Focus::System,
        },
        weights,
        labels,
        exclude: args.exclude.as_deref().map(list).unwrap_or_default(),
    };
    let mut outputs = Vec::new();
    outputs.extend(args.json.as_deref().map(|p| ("--json", p)));
    outputs.extend(args.errors.as_deref().map(|p| ("--errors", p)));
    fairscore::io::check_outputs(
        &[
            ("--target", args.target.as_path()),
            ("--system", args.system.as_path()),
        ],
        &outputs,
        &[],
    )?;
    let spinner = super::progress::Progress::spinner(false, "fair evaluation");
    let report = fair::evaluate_files(&args.target, &args.system, &opts)?;
    spinner.finish();
    {
        // A closed stdout (e.g. `| head`) ends the tables early; it is not a failure (and
        // `print!` would panic on it).
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out
            .write_all(output::tables_beta(&report, beta).as_bytes())
            .and_then(|_| out.flush());
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&output::to_json_beta(&report, beta))
            .map_err(|e| fairscore::Error::output(path, e.to_string()))?;
        output::write_file(path, &(text + "\n"))?;
    }
    if let Some(path) = &args.errors {
        output::write_file(path, &output::errors_tsv(&report))?;
    }
    Ok(0)
}
