//! `fairscore tagging`: the tagging family's table (`evaluate --family tagging`).

use std::path::{Path, PathBuf};

use clap::Args;
use fairscore::family::TAGSET_PRESETS as PRESETS;
use fairscore::Result;

use super::args::{
    settings, Beta, ColumnFlag, Format, Gold, Json, Pred, Resampling, SignatureFlag, TableFlag,
    TagsetFlag,
};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Tagging evaluation beyond accuracy: a run against the gold, token by token \
(tokens must align), under four scoring functions: exact (same tag), pos (same part of speech), \
positional (F of the agreeing components) and weighted (the same with the tagset's weights, \
conditional on the part of speech when the tagset says so).\n\n\
A cell may hold several tags separated by | (gold: every acceptable tag; run: every tag \
proposed). For every function: P = sum of score(t, G) over run tags / run tags, R = sum of \
score(g, T) over gold tags / gold tags, F1, WC (weak correctness: mean of the best run tag's \
score) and SC (strong correctness: mean of the worst). With one tag on each side all five equal \
accuracy.\n\n\
Formats: conllu (default for a .conllu/.conll gold; --column XPOS by default) or tsv \
(token TAB tags; --column 2 by default). The results are the tagging family's tables, as \
`evaluate --family tagging` gives them (one row per function, and the totals: segments, gold \
and run tags); --table picks the format, --bootstrap N adds intervals (sentences \
resampled).\n\n\
See docs/tagging.md."
)]
pub struct TaggingArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub tagset: TagsetFlag,
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

pub fn run(args: TaggingArgs) -> Result<i32> {
    let pred = args.pred.one()?.clone();
    let gold = args.gold.gold.clone();
    let s = settings(&[
        &args.format,
        &args.column,
        &args.tagset,
        &args.beta,
        &args.resampling,
    ]);
    let mut inputs: Vec<(&str, &Path)> = vec![("--gold", &gold), ("--pred", &pred)];
    let tagset_path = args
        .tagset
        .tagset
        .as_ref()
        .filter(|t| !PRESETS.contains(&t.as_str()))
        .map(PathBuf::from);
    inputs.extend(tagset_path.as_deref().map(|p| ("--tagset", p)));
    if args.signature.signature {
        return super::print_signature("tagging", &s, &gold, &[pred.as_path()], None, None);
    }
    super::run_family(
        "tagging",
        &s,
        &gold,
        &pred,
        &args.json,
        &args.table,
        &inputs,
    )
}
