//! `fairscore tagging`: argument parsing and the call into `fairscore::eval::tagging`. Prints
//! the table to stdout; optionally writes JSON; with `--bootstrap` or `--table` the family
//! table.

use std::path::{Path, PathBuf};

use clap::Args;
use fairscore::api;
use fairscore::eval::tagging::evaluate_files;
use fairscore::matching::tagset::PRESETS;
use fairscore::report::tagging as report;
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
(token TAB tags; --column 2 by default). With --bootstrap N or --table FORMAT the results \
are the family table (sentences resampled).\n\n\
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
    if super::wants_table(&s, &args.table) {
        return super::run_family(
            "tagging",
            &s,
            &gold,
            &pred,
            &args.json,
            &args.table,
            &inputs,
        );
    }
    api::refuse_standoff(&s, "tagging", &gold, &pred)?;
    let opts = api::tagging_options(&s, &gold)?;
    s.finish("tagging")?;
    let json = super::json_path(&args.json, &inputs)?;
    let sig = super::json_signature(json.as_deref(), "tagging", &s, &gold, &pred)?;
    let result = evaluate_files(&gold, &pred, &opts)?;
    for w in &result.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    super::command_output(json.as_deref(), &report::table(&result), || {
        fairscore::report::table::json::signed_text(report::to_json(&result), sig.as_ref())
    })
}
