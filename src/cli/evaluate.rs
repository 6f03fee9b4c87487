//! `fairscore evaluate --family F`: any metric family on a gold and a run, through the one
//! family interface: the family's result table in any format, with bootstrap intervals.

use clap::Args;
use fairscore::{Error, Result};

use super::args::{
    settings, ErrorsFlag, FamilyFlag, Gold, Json, Pred, ReadChanges, Resampling, SignatureFlag,
    TableFlag,
};
use super::family_flags::FamilyOptionFlags;

#[derive(Args, Debug)]
#[command(
    after_long_help = "Scores a run with one metric family and prints its result table: spans \
(CoNLL or HIPE entities in the strict, exact, partial and ent_type regimes), fair (Ortmann \
2022), muc (MUC-7 token judgement), segmentation (Shao et al. 2017), tagging, or hipe (a HIPE \
run scored as `score` scores it: --task, --hipe_edition, --tagset, --n_best, --glue, \
--original_nel, --relaxed or --normalize-run, --noise-level, --time-period; micro P, R, F1, TP, \
FP, FN per column, regime and label), or nel (neleval's entity-linking measures of a HIPE run, \
micro and per document, F@k with --n_best, error labels; --errors lists every mention), or \
mentions (entity lists printed by language models, JSON Lines, against any gold with text; \
--mentions-preset universalner|gollie|instructuie, --unit, --match, --normalize, --typed, --align, \
--parser, --schema, --unfound; docs/generative.md). The units \
of resampling are documents, or sentences where the format has none. spans, fair and muc also \
score standoff files (brat, doccano, Label Studio, Prodigy; detected, or --format), either \
against each other or against a CoNLL or HIPE TSV side aligned through the text \
(docs/standoff.md). spans --breakdown KEY,… adds TP, FP, FN, P, R, F1 (and intervals) per \
bucket of a span property: label, length, chars, sentence_length, density, capitalisation, \
position, document, with --train FILE oov, train_freq, train_consistency, and for a HIPE \
TSV gold noise and period; fair --breakdown KEY,… (the same keys) the \
fair counts (TP, FP, FN, LE, BE, LBE) and fair P, R, F1 per bucket; hipe --breakdown KEY,… \
(NERC tasks) the spans keys over the task's first column in its strict regime; muc --breakdown \
KEY,… the judged tokens of gold entities (COR, INC, PAR, MIS; R) and of run \
entities (COR, INC, PAR, SPU; P) per bucket (docs/breakdown.md).\n\n\
Examples:\n  fairscore evaluate --family spans --gold gold.conll --pred run.conll --bootstrap 1000\n  \
fairscore evaluate --family segmentation --gold gold.txt --pred run.txt --table markdown\n  \
fairscore evaluate --family spans --gold gold-brat/ --pred run.jsonl --bootstrap 1000\n  \
fairscore evaluate --family spans --gold gold.tsv --pred run.tsv --breakdown label,length --bootstrap 1000\n  \
fairscore evaluate --family hipe --task nel --hipe-edition hipe-2022 --gold gold.tsv --pred run.tsv --json -\n  \
fairscore evaluate --family nel --n-best 1,3 --gold gold.tsv --pred run.tsv --errors mentions.tsv\n  \
fairscore evaluate --family mentions --mentions-preset universalner --gold gold.conll --pred answers.jsonl"
)]
pub struct EvaluateArgs {
    #[command(flatten)]
    pub family: FamilyFlag,
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub opts: FamilyOptionFlags,
    #[command(flatten)]
    pub changes: ReadChanges,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub errors: ErrorsFlag,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub table: TableFlag,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

pub fn run(args: EvaluateArgs) -> Result<i32> {
    let name = args.family.family.clone().ok_or_else(|| {
        Error::usage(format!(
            "family: required; one of {}",
            fairscore::family::names().join(", ")
        ))
    })?;
    let pred = args.pred.one()?.clone();
    let gold = args.gold.gold.clone();
    let s = settings(&[&args.opts, &args.changes, &args.resampling, &args.errors]);
    if args.signature.signature {
        return super::print_signature(&name, &s, &gold, &[pred.as_path()], None, None);
    }
    let mut inputs = vec![("--gold", gold.as_path()), ("--pred", pred.as_path())];
    let tagset = args
        .opts
        .tagset
        .tagset
        .as_ref()
        .map(std::path::PathBuf::from);
    inputs.extend(tagset.as_deref().map(|p| ("--tagset", p)));
    inputs.extend(args.opts.hipe.relaxed.as_deref().map(|p| ("--relaxed", p)));
    let train = args
        .opts
        .spans
        .breakdown
        .train
        .as_ref()
        .map(std::path::PathBuf::from);
    inputs.extend(train.as_deref().map(|p| ("--train", p)));
    let normalize_run = args.opts.normalize_run.normalize_run.as_deref();
    inputs.extend(normalize_run.map(|p| ("--normalize-run", p)));
    inputs.extend(
        args.changes
            .map_types
            .as_deref()
            .map(|p| ("--map-types", p)),
    );
    super::run_family(&name, &s, &gold, &pred, &args.json, &args.table, &inputs)
}
