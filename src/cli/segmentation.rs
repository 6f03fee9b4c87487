//! `fairscore segmentation`: argument parsing and the call into `fairscore::eval::segmentation`.
//! Prints the table to stdout; optionally writes JSON; with `--bootstrap` or `--table` the
//! family table.

use clap::Args;
use fairscore::api;
use fairscore::eval::segmentation::evaluate_files;
use fairscore::report::segmentation as report;
use fairscore::report::table::json::signed_text;
use fairscore::Result;

use super::args::{settings, Beta, Format, Gold, Json, Pred, Resampling, SignatureFlag, TableFlag};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Word segmentation of a run against the gold (Shao et al. 2017), sentence by \
sentence: gold and run must have the same characters (whitespace aside) in each sentence.\n\n\
Words: a run word is a true positive when a gold word covers the same characters; P = TP/pred, \
R = TP/gold, F1. TNR: the true negative rate 1 - (pred - TP)/(TW - gold), TW = sum of \
N(N+1)/2 over sentences of N characters (eq. 1). Boundaries: P/R/F1 of the run's word ends \
among the N-1 inner positions of each sentence.\n\n\
Formats: text (one sentence a line; default unless the gold is .conllu/.conll) or conllu. \
With --bootstrap N or --table FORMAT the results are the family table (sentences resampled).\n\n\
See docs/segmentation.md."
)]
pub struct SegmentationArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub table: TableFlag,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

pub fn run(args: SegmentationArgs) -> Result<i32> {
    let pred = args.pred.one()?.clone();
    let gold = args.gold.gold.clone();
    let s = settings(&[&args.format, &args.beta, &args.resampling]);
    let inputs = [("--gold", gold.as_path()), ("--pred", pred.as_path())];
    if args.signature.signature {
        return super::print_signature("segmentation", &s, &gold, &[pred.as_path()], None, None);
    }
    if super::wants_table(&s, &args.table) {
        return super::run_family(
            "segmentation",
            &s,
            &gold,
            &pred,
            &args.json,
            &args.table,
            &inputs,
        );
    }
    api::refuse_standoff(&s, "segmentation", &gold, &pred)?;
    let opts = api::segmentation_options(&s, &gold)?;
    s.finish("segmentation")?;
    let json = super::json_path(&args.json, &inputs)?;
    let sig = super::json_signature(json.as_deref(), "segmentation", &s, &gold, &pred)?;
    let result = evaluate_files(&gold, &pred, &opts)?;
    super::command_output(json.as_deref(), &report::table(&result), || {
        signed_text(report::to_json(&result), sig.as_ref())
    })
}
