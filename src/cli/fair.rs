//! `fairscore fair`: fair evaluation (Ortmann 2022), the fair family's table
//! (`evaluate --family fair`) with its error listing (`--errors`).

use clap::Args;

use super::args::{
    settings, Beta, ColumnFlag, ErrorsFlag, Format, Gold, Json, Pred, Resampling, SignatureFlag,
    TableFlag, WeightsFlag,
};
use super::family_flags::{BreakdownFlag, FairFlags};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Formats: auto (detect, default), spans (LABEL TAB begin TAB end [TAB \
tokens], blank-line units), conll (FORM [POS …] TAG, BIO tags, stacked levels separated by |, \
sentences as units of matching, -DOCSTART- documents as units of resampling) or hipe (HIPE TSV, documents as units, --column NE-COARSE-LIT by default; \
several columns, comma-separated, are annotation levels), or standoff files: brat, doccano, \
labelstudio, prodigy (character offsets, documents as units; detected by content, and a CoNLL \
or HIPE TSV side is aligned through their texts; --errors then lists spans by character \
offsets; docs/standoff.md).\n\n\
The results are the fair family's tables, as `evaluate --family fair` gives them: traditional, \
fair (TP, FP, FN, LE, BE with its subtypes BES, BEL, BEO, LBE) and, with --weights, weighted \
scores per label, then the confusion of labels; --table picks the format, --bootstrap N adds \
intervals (units resampled). See docs/fair.md."
)]
pub struct FairArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub weights: WeightsFlag,
    #[command(flatten)]
    pub fair: FairFlags,
    #[command(flatten)]
    pub breakdown: BreakdownFlag,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub errors: ErrorsFlag,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub table: TableFlag,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

pub fn run(args: FairArgs) -> fairscore::Result<i32> {
    let gold = args.gold.gold.clone();
    let pred = args.pred.one()?.clone();
    let s = settings(&[
        &args.format,
        &args.column,
        &args.weights,
        &args.fair,
        &args.breakdown,
        &args.beta,
        &args.resampling,
        &args.errors,
    ]);
    if args.signature.signature {
        s.take("errors");
        return super::print_signature("fair", &s, &gold, &[pred.as_path()], None, None);
    }
    let inputs = [("--gold", gold.as_path()), ("--pred", pred.as_path())];
    super::run_family("fair", &s, &gold, &pred, &args.json, &args.table, &inputs)
}
