//! `fairscore muc`: argument parsing and the call into `fairscore::eval::muc`. Prints the
//! table to stdout; optionally writes JSON and the judged tokens.

use std::path::PathBuf;

use clap::Args;
use fairscore::eval::muc::{evaluate_files, MucOptions};
use fairscore::formats::Format;
use fairscore::report::muc as report;
use fairscore::{Edition, Error, Result};

use super::segmentation::{check_beta, print};

#[derive(Args, Debug)]
#[command(
    after_long_help = "MUC-7 token-by-token evaluation (the vendor guide's Appendix B). Entities \
are read from IOB/IOBES tags as `score` reads them; documents are units (CoNLL sentences bound \
entities). Every token inside a gold or a run entity is judged: inside both, correct (same \
type) or incorrect; inside a gold entity only, partial if that entity overlaps a run entity, \
else missing; inside a run entity only, partial if it overlaps a gold entity, else spurious. A \
token counts for its gold type, else its run type.\n\n\
possible = correct + incorrect + partial + missing, actual = correct + incorrect + partial + \
spurious; P = (correct + partial/2) / actual, R = (correct + partial/2) / possible, F-beta. \
Micro over all tokens, per type, and macro (mean of the per-type P and R, F-beta of the \
means).\n\n\
See docs/muc.md."
)]
pub struct MucArgs {
    /// Gold standard file.
    #[arg(short = 'r', long = "ref", value_name = "GOLD")]
    pub reference: PathBuf,
    /// The run (system output) to score.
    #[arg(short = 'p', long = "pred", value_name = "RUN")]
    pub pred: PathBuf,
    /// Format of both files: hipe (HIPE TSV) or conll (FORM [POS …] TAG, blank-line
    /// sentences, -DOCSTART- documents).
    #[arg(long, value_name = "FORMAT", default_value = "hipe")]
    pub format: String,
    /// The tag column: for hipe a header name (default NE-COARSE-LIT); for conll TAG (the
    /// last, default), POS, COL3, … or a 1-based number.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
    /// HIPE edition (hipe-2020 or hipe-2022), which gives the default column.
    #[arg(
        short = 'e',
        long = "hipe_edition",
        alias = "hipe-edition",
        value_name = "EDITION",
        default_value = "hipe-2020"
    )]
    pub hipe_edition: String,
    /// The β of F-beta (default 1: F1), e.g. 0.5 or 2.
    #[arg(long, value_name = "B")]
    pub beta: Option<f64>,
    /// Write the scores as JSON (fractions) to this file.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write every judged token (document, line, token, gold tag, run tag, judgement, type)
    /// to this TSV file.
    #[arg(long, value_name = "FILE.tsv")]
    pub judgements: Option<PathBuf>,
}

pub fn run(args: MucArgs) -> Result<i32> {
    let beta = check_beta(args.beta)?.unwrap_or(1.0);
    let format = match args.format.as_str() {
        "hipe" => Format::Hipe,
        "conll" => Format::Conll,
        f => {
            return Err(Error::usage(format!(
                "--format: unknown format {f:?}; use hipe or conll"
            )))
        }
    };
    let edition = Edition::parse(&args.hipe_edition)?;
    let mut outputs = Vec::new();
    outputs.extend(args.json.as_deref().map(|p| ("--json", p)));
    outputs.extend(args.judgements.as_deref().map(|p| ("--judgements", p)));
    fairscore::io::check_outputs(
        &[
            ("--ref", args.reference.as_path()),
            ("--pred", args.pred.as_path()),
        ],
        &outputs,
        &[],
    )?;
    let opts = MucOptions {
        format,
        column: args.column.clone(),
        edition,
        beta,
        judgements: args.judgements.is_some(),
    };
    let result = evaluate_files(&args.reference, &args.pred, &opts)?;
    for w in &result.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    let json = args.json.as_ref().map(|_| report::json_text(&result));
    let listing = args
        .judgements
        .as_ref()
        .map(|_| report::judgements_tsv(&result));
    let mut files: Vec<(&std::path::Path, &[u8])> = Vec::new();
    if let (Some(p), Some(t)) = (&args.json, &json) {
        files.push((p.as_path(), t.as_bytes()));
    }
    if let (Some(p), Some(t)) = (&args.judgements, &listing) {
        files.push((p.as_path(), t.as_bytes()));
    }
    fairscore::io::write_atomic_all(&files)?;
    print(&report::table(&result));
    Ok(0)
}
