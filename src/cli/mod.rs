//! Argument parsing (clap) and dispatch to the library. Exit statuses: 0 success, 1 a check
//! found problems, 2 usage error, 3 input error, 4 output error.

use clap::{Parser, Subcommand};
use fairscore::{Error, ErrorClass};

mod check;
mod compare;
mod fair;
mod leaderboard;
mod muc;
mod normalize;
mod progress;
mod score;
mod segmentation;
mod tagging;

#[derive(Parser, Debug)]
#[command(
    name = "fairscore",
    version,
    about = "Score NERC and entity-linking runs in the HIPE TSV format",
    long_about = "Score named-entity recognition (NERC) and entity-linking (NEL) runs in the HIPE TSV \
format. `score` reproduces the official HIPE scorer v2.0 outputs exactly; `fair` gives Ortmann's \
(2022) fair evaluation; `leaderboard` scores a whole campaign; `compare` tests the difference \
between two runs."
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
    /// Fair evaluation (Ortmann 2022) of span, CoNLL or HIPE files.
    Fair(fair::FairArgs),
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
    /// the same numbers. Documents are the unit of resampling; see docs/statistics.md for the
    /// methods, their assumptions and how to read them.
    Compare(compare::CompareArgs),
    /// Word segmentation: word and boundary P/R/F1 and true negative rate (Shao et al. 2017).
    Segmentation(segmentation::SegmentationArgs),
    /// Tagging beyond accuracy: exact, PoS, positional and weighted scores; P/R/F1/WC/SC.
    Tagging(tagging::TaggingArgs),
    /// MUC-7 token-by-token judgement of a NERC run: correct/incorrect/partial/missing/spurious.
    Muc(muc::MucArgs),
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
    eprintln!("fairscore: error: {err}");
    exit_code(err.class())
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
    let result = match cli.command {
        Command::Score(args) => score::run(args),
        Command::Normalize(args) => normalize::run(args),
        Command::Check(args) => check::run(args),
        Command::Fair(args) => fair::run(args),
        Command::Leaderboard(args) => leaderboard::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Segmentation(args) => segmentation::run(args),
        Command::Tagging(args) => tagging::run(args),
        Command::Muc(args) => muc::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => report_error(&e),
    }
}
