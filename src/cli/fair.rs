//! `fairscore fair`: argument parsing for fair evaluation (Ortmann 2022) and the call into
//! `fairscore::fair`. Prints the tables to stdout; optionally writes JSON and an error listing;
//! with `--bootstrap` or `--table` the family table.

use clap::Args;
use fairscore::api;
use fairscore::report::fair as output;

use super::args::{
    settings, Beta, ColumnFlag, ErrorsFlag, FairFlags, Format, Gold, Json, Pred, Resampling,
    SignatureFlag, TableFlag, WeightsFlag,
};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Formats: auto (detect, default), spans (LABEL TAB begin TAB end [TAB \
tokens], blank-line units), conll (FORM [POS …] TAG, BIO tags, stacked levels separated by |, \
sentences as units of matching, -DOCSTART- documents as units of resampling) or hipe (HIPE TSV, documents as units, --column NE-COARSE-LIT by default; \
several columns, comma-separated, are annotation levels), or standoff files: brat, doccano, \
labelstudio, prodigy (character offsets, documents as units; detected by content, and a CoNLL \
or HIPE TSV side is aligned through their texts; --errors then lists spans by character \
offsets; docs/standoff.md). With --bootstrap N or --table \
FORMAT the results are the family table (units resampled). See docs/fair.md."
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
    let target = args.gold.gold.clone();
    let system = args.pred.one()?.clone();
    let inputs = [("--gold", target.as_path()), ("--pred", system.as_path())];
    let s = settings(&[
        &args.format,
        &args.column,
        &args.weights,
        &args.fair,
        &args.beta,
        &args.resampling,
    ]);
    if args.signature.signature {
        return super::print_signature("fair", &s, &target, &[system.as_path()], None, None);
    }
    if super::wants_table(&s, &args.table) {
        if args.errors.errors.is_some() {
            return Err(fairscore::Error::usage(
                "errors goes without --bootstrap and --table",
            ));
        }
        return super::run_family(
            "fair",
            &s,
            &target,
            &system,
            &args.json,
            &args.table,
            &inputs,
        );
    }
    let (opts, beta) = api::fair_options(&s)?;
    s.finish("fair")?;
    let json = super::json_path(&args.json, &inputs)?;
    let to_stdout = json.as_deref() == Some(std::path::Path::new("-"));
    let mut outputs = Vec::new();
    outputs.extend(
        json.as_deref()
            .filter(|_| !to_stdout)
            .map(|p| ("--json", p)),
    );
    outputs.extend(args.errors.errors.as_deref().map(|p| ("--errors", p)));
    fairscore::io::check_outputs(&inputs, &outputs, &[])?;
    let spinner = super::progress::Progress::spinner(false, "fair evaluation");
    let report = fairscore::eval::standoff::fair_files(&target, &system, &opts)?;
    spinner.finish();
    for w in &report.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    let sig = super::json_signature(json.as_deref(), "fair", &s, &target, &system)?;
    let json_text = json.as_ref().map(|_| {
        fairscore::report::table::json::signed_text(
            output::to_json_beta(&report, beta),
            sig.as_ref(),
        )
    });
    if let (Some(path), Some(text)) = (json.as_deref().filter(|_| !to_stdout), &json_text) {
        output::write_file(path, text)?;
    }
    if let Some(path) = &args.errors.errors {
        output::write_file(path, &output::errors_tsv(&report))?;
    }
    match (to_stdout, &json_text) {
        (true, Some(text)) => super::print(text)?,
        _ => super::print(&output::tables_beta(&report, beta))?,
    }
    Ok(0)
}
