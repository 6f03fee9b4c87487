//! `fairscore segmentation`: the segmentation family's table (`evaluate --family
//! segmentation`).

use clap::Args;
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
The results are the segmentation family's tables, as `evaluate --family segmentation` gives \
them (words, boundaries, and the totals: characters and possible words); --table picks the \
format, --bootstrap N adds intervals (sentences resampled).\n\n\
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
    if args.signature.signature {
        return super::print_signature("segmentation", &s, &gold, &[pred.as_path()], None, None);
    }
    let inputs = [("--gold", gold.as_path()), ("--pred", pred.as_path())];
    super::run_family(
        "segmentation",
        &s,
        &gold,
        &pred,
        &args.json,
        &args.table,
        &inputs,
    )
}
