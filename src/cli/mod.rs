//! Argument parsing (clap) and dispatch to the library. Exit statuses: 0 success, 1 a check
//! found problems, 2 usage error, 3 input error, 4 output error.

use clap::{Parser, Subcommand};
use fairscore::{Error, ErrorClass};

mod agree;
mod args;
mod check;
mod codabench;
mod compare;
mod convert;
mod evaluate;
mod fair;
mod family_flags;
mod inspect;
mod leaderboard;
mod muc;
mod normalize;
mod progress;
mod redirect;
mod score;
mod segmentation;
mod tagging;

#[derive(Parser, Debug)]
#[command(
    name = "fairscore",
    version,
    about = "Score the runs of NLP shared tasks (named entities, entity linking, word \
segmentation, tagging, annotator agreement) in CoNLL, HIPE TSV, CoNLL-U, text or standoff files, \
and publish a campaign's leaderboards",
    long_about = "Score the runs of NLP shared tasks and explain the numbers: named entities and \
labeled spans, entity linking, word segmentation, tagging, annotator agreement; CoNLL, HIPE TSV, \
CoNLL-U, plain text, span files and the standoff formats brat, doccano, Label Studio and Prodigy; \
whole campaigns ranked with intervals and published as pages, LaTeX and Codabench competitions.

Which command:
  NER on CoNLL, span or standoff files   evaluate --family ner (also fair, muc)
  HIPE TSV runs, the official numbers    score (byte for byte the HIPE scorer v2.0)
  a run before submitting it             check
  two runs, is the difference real?      compare
  many runs, a leaderboard               leaderboard (--campaign FILE for any task and format)
  word segmentation / tagging            segmentation / tagging
  annotators against each other          agree
  entity linking, where a linker fails   evaluate --family nel
  a Codabench competition                codabench-bundle
  another format or tag encoding         convert

Set-up: `cargo run --release -- score --ref reference_runs/HIPE-2022-demo-test-en.tsv --pred \
reference_runs/demo_bundle4_newseye_en_1.tsv --task nerc_coarse --hipe-edition hipe-2022 --outdir \
out` scores the bundled example; `cargo test --release` runs the tests."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process; boxing the larger variants would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Score one run as the official HIPE scorer (same flags, same output files).
    Score(score::ScoreArgs),
    /// Check a run against the gold before submitting (nothing is scored or written).
    Check(check::CheckArgs),
    /// Normalize entity links for relaxed evaluation (as the official normalize_linking.py).
    Normalize(normalize::NormalizeArgs),
    /// Convert annotations between tag encodings (BIO, IOB, BIOES, BILOU, BMES, BMEOW, IO, as
    /// seqscore) and formats (CoNLL, brat, doccano, Label Studio, Prodigy), with repairs and
    /// type changes.
    Convert(convert::ConvertArgs),
    /// Fair evaluation (Ortmann 2022) of span, CoNLL or HIPE files.
    Fair(fair::FairArgs),
    /// An HTML page of a run's errors against its gold: each document's text with gold and run
    /// spans coloured by fair error type (correct, missed, spurious, label, boundary),
    /// hardest documents first, filters by type and label.
    Inspect(inspect::InspectArgs),
    /// Score every run of a campaign and write rankings, Markdown and HTML leaderboards.
    Leaderboard(leaderboard::LeaderboardArgs),
    /// Compare two runs on the same gold: difference, its interval and a paired test's p-value.
    ///
    /// Is the difference in micro P, R and F1 (A - B, over all labels) larger than the choice
    /// of documents explains? Both runs are scored as `score` scores them (the all-data
    /// evaluation; run names are not checked). Their per-document counts are paired document
    /// by document and resampled: the p-value comes from paired approximate randomization
    /// (default: each document's counts of A and B are swapped with probability 1/2) or from
    /// the paired bootstrap (--test bootstrap); the interval of A - B is always the
    /// paired-bootstrap percentile interval. The table shows, per column and regime, A, B,
    /// A - B, the interval and the two-sided p-value (* p < 0.05, ** p < 0.01); --json writes
    /// the same numbers. Documents are the unit of resampling (sentences in a CoNLL file of one document); see docs/statistics.md for the
    /// methods, their assumptions and how to read them.
    Compare(compare::CompareArgs),
    /// Word segmentation: word and boundary P/R/F1 and true negative rate (Shao et al. 2017).
    Segmentation(segmentation::SegmentationArgs),
    /// Tagging beyond accuracy: exact, PoS, positional and weighted scores; P/R/F1/WC/SC.
    Tagging(tagging::TaggingArgs),
    /// MUC-7 token-by-token judgement of a NERC run: correct/incorrect/partial/missing/spurious.
    Muc(muc::MucArgs),
    /// Any metric family on two files, as one result table (text, JSON, CSV, TSV, Markdown or
    /// HTML) with optional bootstrap intervals: spans, fair, muc, segmentation or tagging.
    Evaluate(evaluate::EvaluateArgs),
    /// Inter-annotator agreement of two or more annotators (brat project, or one span file
    /// per annotator): pairwise F1 as bratiaa, kappas, alpha, error types, confusion.
    Agree(agree::AgreeArgs),
    /// Codabench scoring program: score the submission in INPUT/res against INPUT/ref and
    /// write OUTPUT/scores.json and OUTPUT/detailed_results.html (docs/codabench.md).
    ///
    /// Exit 0 when scored; 1 when the submission is refused (no run found, two runs for one
    /// column, or a run that fails the participants' check), with the reasons on stderr.
    Codabench(codabench::CodabenchArgs),
    /// Write a Codabench competition bundle (zip) of a campaign of family tasks:
    /// competition.yaml, the scoring program (with a fairscore binary) and the gold.
    CodabenchBundle(codabench::BundleArgs),
}

/// Exit status for an error of the given class.
pub fn exit_code(class: ErrorClass) -> i32 {
    match class {
        ErrorClass::Usage => 2,
        ErrorClass::Input => 3,
        ErrorClass::Output => 4,
    }
}

pub fn report_error(err: &Error) -> i32 {
    let text = match err {
        Error::Usage(m) => Error::usage(flag_wording(m)).to_string(),
        e => e.to_string(),
    };
    eprintln!("fairscore: error: {text}");
    exit_code(err.class())
}

/// A library message worded with flags: an option's name at its start (`n_best: …`,
/// `beta 0: …`) or in backquotes (`` `bootstrap` ``) becomes the flag (`--n_best`); other
/// words are unchanged.
fn flag_wording(message: &str) -> String {
    let word: String = message
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let rest = &message[word.len()..];
    let mut out = match flag_of(&word) {
        Some(flag) if rest.starts_with(':') || rest.starts_with(' ') => format!("{flag}{rest}"),
        _ => message.to_string(),
    };
    // Backquoted option names anywhere.
    let mut from = 0;
    while let Some(a) = out[from..].find('`').map(|i| from + i) {
        let Some(b) = out[a + 1..].find('`').map(|i| a + 1 + i) else {
            break;
        };
        match flag_of(&out[a + 1..b]) {
            Some(flag) => {
                out.replace_range(a..=b, &flag);
                from = a + flag.len();
            }
            None => from = b + 1,
        }
    }
    out
}

/// `--LONG` of the flag whose name (or alias) is the option key `name`.
fn flag_of(name: &str) -> Option<String> {
    use clap::CommandFactory;
    if name.is_empty() {
        return None;
    }
    let key = fairscore::api::key(name);
    let cmd = Cli::command();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            let names = std::iter::once(long).chain(arg.get_all_aliases().into_iter().flatten());
            if names.map(fairscore::api::key).any(|k| k == key) {
                return Some(format!("--{long}"));
            }
        }
    }
    None
}

/// Writes to stdout. A closed stdout (`| head`, `| true`) ends the command quietly with
/// status 0, as ripgrep does: the outputs are written by then.
pub fn print(text: &str) -> fairscore::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::output(
            std::path::Path::new("<standard output>"),
            e.to_string(),
        )),
    }
}

/// The `--json` path to write (`-` for stdout), refused when it names an input file.
pub fn json_path(
    json: &args::Json,
    inputs: &[(&str, &std::path::Path)],
) -> fairscore::Result<Option<std::path::PathBuf>> {
    match &json.json {
        Some(p) if p.as_path() != std::path::Path::new("-") => {
            fairscore::io::check_outputs(inputs, &[("--json", p.as_path())], &[])?;
            Ok(Some(p.clone()))
        }
        other => Ok(other.clone()),
    }
}

/// Scores `gold` and `pred` with family `name` and the settings, and writes the family table,
/// its JSON and the listing the settings ask for (`--errors`, `--judgements`): the one path of
/// `evaluate`, `fair`, `muc`, `segmentation` and `tagging`.
pub fn run_family(
    name: &str,
    s: &fairscore::api::Settings,
    gold: &std::path::Path,
    pred: &std::path::Path,
    json: &args::Json,
    table: &args::TableFlag,
    inputs: &[(&str, &std::path::Path)],
) -> fairscore::Result<i32> {
    let plan = fairscore::api::family_plan(name, s)?;
    // A bad --table is a usage error before any input is read.
    if let Some(t) = &table.table {
        t.parse::<fairscore::table::TableFormat>()?;
    }
    let listing = plan
        .listing()
        .map(|(n, p)| (format!("--{n}"), p.to_path_buf()));
    let json_file = json
        .json
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"));
    let mut outputs = Vec::new();
    outputs.extend(json_file.map(|p| ("--json", p)));
    outputs.extend(listing.as_ref().map(|(n, p)| (n.as_str(), p.as_path())));
    fairscore::io::check_outputs(inputs, &outputs, &[])?;
    let spinner = progress::Progress::spinner(!s.has("bootstrap"), "scoring and resampling");
    let run = fairscore::api::run_family_plan(&plan, gold, pred)?;
    spinner.finish();
    let listing = listing
        .as_ref()
        .map(|(_, p)| p.as_path())
        .zip(run.listing.as_deref());
    family_output(&run.results, json, table, inputs, listing)
}

/// `--signature`: prints the signature of scoring `runs` against `gold` with family `name`
/// and the settings (see [`fairscore::api::family_signature`]), nothing else.
pub fn print_signature(
    name: &str,
    s: &fairscore::api::Settings,
    gold: &std::path::Path,
    runs: &[&std::path::Path],
    default_samples: Option<usize>,
    test: Option<fairscore::metrics::PairedTest>,
) -> fairscore::Result<i32> {
    let sig = fairscore::api::family_signature(name, s, gold, runs, default_samples, test)?;
    print(&format!("{sig}\n"))?;
    Ok(0)
}

/// Writes a family's results: the table on stdout (`--table FORMAT`, default text), the JSON
/// to `--json PATH` (or instead of the table with `--json -`); warnings on stderr.
pub fn family_output(
    results: &fairscore::table::Results,
    json: &args::Json,
    table: &args::TableFlag,
    inputs: &[(&str, &std::path::Path)],
    listing: Option<(&std::path::Path, &str)>,
) -> fairscore::Result<i32> {
    use fairscore::table::TableFormat;
    let format: TableFormat = match &table.table {
        Some(t) => t.parse()?,
        None => TableFormat::Text,
    };
    let json = json_path(json, inputs)?;
    for w in &results.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    let json_text = fairscore::report::render(results, TableFormat::Json)?;
    let to_stdout = json.as_deref() == Some(std::path::Path::new("-"));
    let mut files: Vec<(&std::path::Path, &[u8])> = Vec::new();
    if let Some(p) = json.as_deref().filter(|_| !to_stdout) {
        files.push((p, json_text.as_bytes()));
    }
    if let Some((p, text)) = listing {
        files.push((p, text.as_bytes()));
    }
    fairscore::io::write_atomic_all(&files)?;
    if to_stdout {
        return print(&json_text).map(|_| 0);
    }
    print(&fairscore::report::render(results, format)?)?;
    Ok(0)
}

/// On SIGINT or SIGTERM: remove the temporary files being written (no `.NAME.PID-N.tmp` is left
/// behind, no output is half-written) and exit with 130 or 143 as a shell would.
fn install_signal_handler() {
    let _ = ctrlc::set_handler(|| {
        fairscore::io::remove_temp_files();
        eprintln!("fairscore: interrupted; no output was half-written");
        std::process::exit(130);
    });
}

pub fn run() -> i32 {
    install_signal_handler();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let job = job_of(&cli.command);
    let result = match cli.command {
        Command::Score(args) => score::run(args),
        Command::Normalize(args) => normalize::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Check(args) => check::run(args),
        Command::Fair(args) => fair::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Leaderboard(args) => leaderboard::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Segmentation(args) => segmentation::run(args),
        Command::Tagging(args) => tagging::run(args),
        Command::Muc(args) => muc::run(args),
        Command::Evaluate(args) => evaluate::run(args),
        Command::Agree(args) => agree::run(args),
        Command::Codabench(args) => codabench::run(args),
        Command::CodabenchBundle(args) => codabench::run_bundle(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let code = report_error(&e);
            let about = match &e {
                fairscore::Error::Input { path, .. } => Some(path.as_path()),
                _ => None,
            };
            if e.class() != ErrorClass::Output {
                print_hint(&job, about);
            }
            code
        }
    }
}

/// Prints the hint of a failed `job` whose error names `about` ([`redirect::hint`]).
fn print_hint(job: &redirect::Job, about: Option<&std::path::Path>) {
    if let Some(h) = redirect::hint(job, about) {
        eprintln!("  hint: {}", fairscore::io::escape_controls(&h));
    }
}

/// The command's name and inputs, for the hint of a failed command ([`redirect::hint`]).
fn job_of(command: &Command) -> redirect::Job {
    let scoring =
        |command, gold: &args::Gold, pred: &args::Pred, format: &args::Format| redirect::Job {
            command,
            family: None,
            told: format.format.is_some(),
            inputs: std::iter::once(gold.gold.clone())
                .chain(pred.pred.iter().cloned())
                .collect(),
        };
    match command {
        Command::Score(a) => scoring("score", &a.gold, &a.pred, &a.format),
        Command::Check(a) => scoring("check", &a.gold, &a.pred, &a.format),
        Command::Fair(a) => scoring("fair", &a.gold, &a.pred, &a.format),
        Command::Inspect(a) => scoring("inspect", &a.gold, &a.pred, &a.format),
        Command::Muc(a) => scoring("muc", &a.gold, &a.pred, &a.format),
        Command::Segmentation(a) => scoring("segmentation", &a.gold, &a.pred, &a.format),
        Command::Tagging(a) => scoring("tagging", &a.gold, &a.pred, &a.format),
        Command::Evaluate(a) => redirect::Job {
            family: a.family.family.clone(),
            ..scoring("evaluate", &a.gold, &a.pred, &a.opts.format)
        },
        Command::Compare(a) => redirect::Job {
            family: a.family.family.clone(),
            ..scoring("compare", &a.gold, &a.pred, &a.opts.format)
        },
        Command::Normalize(a) => redirect::Job {
            command: "normalize",
            inputs: vec![a.io.input.clone()],
            ..Default::default()
        },
        Command::Leaderboard(a) => redirect::Job {
            command: "leaderboard",
            told: a.campaign.campaign.is_some(),
            inputs: vec![a.gold_dir.gold_dir.clone(), a.runs_dir.clone()],
            ..Default::default()
        },
        Command::Agree(a) => redirect::Job {
            command: "agree",
            told: a.format.format.is_some(),
            inputs: a
                .inputs
                .project
                .iter()
                .chain(a.inputs.annotator.iter())
                .cloned()
                .collect(),
            ..Default::default()
        },
        Command::Convert(a) => redirect::Job {
            command: "convert",
            told: a.format.format.is_some(),
            inputs: vec![a.io.input.clone()],
            ..Default::default()
        },
        Command::Codabench(_) | Command::CodabenchBundle(_) => redirect::Job::default(),
    }
}
