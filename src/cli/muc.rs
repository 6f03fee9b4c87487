//! `fairscore muc`: the muc family's table (`evaluate --family muc`) with the judged tokens
//! (`--judgements`).

use clap::Args;
use fairscore::Result;

use super::args::{
    settings, Beta, ColumnFlag, Gold, Json, JudgementsFlag, Pred, Resampling, SignatureFlag,
    TableFlag,
};

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
Formats: hipe or conll (detected by default; HIPE's column NE-COARSE-LIT, CoNLL's TAG \
unless --column says otherwise); standoff files (brat, doccano, Label Studio, Prodigy; \
detected, or --format) are judged over the positions of their texts (docs/standoff.md). The \
results are the muc family's table, as `evaluate --family muc` gives it; --table picks the \
format, --bootstrap N adds intervals (documents resampled; sentences for a CoNLL file \
without documents). --breakdown KEY,… adds per bucket of an entity property the judged \
tokens of gold entities (COR-gold, INC-gold, PAR-gold, MIS; R) and of run entities (COR-run, \
INC-run, PAR-run, SPU; P), by the keys of the spans family (docs/breakdown.md).\n\n\
See docs/muc.md."
)]
pub struct MucArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub format: super::args::Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub breakdown: super::family_flags::BreakdownFlag,
    #[command(flatten)]
    pub judgements: JudgementsFlag,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub table: TableFlag,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

pub fn run(args: MucArgs) -> Result<i32> {
    let pred = args.pred.one()?.clone();
    let gold = args.gold.gold.clone();
    let s = settings(&[
        &args.format,
        &args.column,
        &args.beta,
        &args.resampling,
        &args.judgements,
        &args.breakdown,
    ]);
    if args.signature.signature {
        s.take("judgements");
        return super::print_signature("muc", &s, &gold, &[pred.as_path()], None, None);
    }
    let train = args.breakdown.train.as_ref().map(std::path::PathBuf::from);
    let mut inputs = vec![("--gold", gold.as_path()), ("--pred", pred.as_path())];
    inputs.extend(train.as_deref().map(|p| ("--train", p)));
    super::run_family("muc", &s, &gold, &pred, &args.json, &args.table, &inputs)
}
