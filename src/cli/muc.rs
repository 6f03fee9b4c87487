//! `fairscore muc`: argument parsing and the call into `fairscore::eval::muc`. Prints the
//! table to stdout; optionally writes JSON and the judged tokens.

use std::path::{Path, PathBuf};

use clap::Args;
use fairscore::api;
use fairscore::eval::muc::evaluate_files;
use fairscore::formats::InputFormat;
use fairscore::report::muc as report;
use fairscore::{Error, Result};

use super::args::{
    settings, Beta, ColumnFlag, Edition as EditionFlag, Gold, Json, Pred, Resampling,
    SignatureFlag, TableFlag,
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
Formats: hipe (default) or conll; standoff files (brat, doccano, Label Studio, Prodigy; \
detected, or --format) are judged over the positions of their texts and give the family \
table (docs/standoff.md). With --bootstrap N or --table FORMAT the results are the \
family table (documents resampled; sentences for a CoNLL file without documents).\n\n\
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
    pub edition: EditionFlag,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub json: Json,
    /// Write every judged token (document, line, token, gold tag, run tag, judgement, type)
    /// to this TSV file.
    #[arg(long, value_name = "FILE.tsv")]
    pub judgements: Option<PathBuf>,
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
    let inputs = [("--gold", gold.as_path()), ("--pred", pred.as_path())];
    let mut s = settings(&[&args.format, &args.column, &args.beta, &args.resampling]);
    // Standoff files (brat, doccano, Label Studio, Prodigy; named by --format or detected)
    // are judged by the muc family over the positions of their texts (docs/standoff.md).
    let given = s.get("format");
    let standoff = match &given {
        Some(f) => InputFormat::STANDOFF.contains(&f.to_ascii_lowercase().as_str()),
        None => fairscore::eval::standoff::applies(&gold, &pred, None),
    };
    if given.is_none() && !standoff {
        s.text("format", Some("hipe"));
    }
    if args.signature.signature {
        return super::print_signature("muc", &s, &gold, &[pred.as_path()], None, None);
    }
    if standoff || super::wants_table(&s, &args.table) {
        if args.judgements.is_some() || args.edition.hipe_edition.is_some() {
            return Err(Error::usage(if standoff {
                "judgements and hipe_edition are for token files (HIPE TSV, CoNLL); standoff \
                 files give the family table"
            } else {
                "judgements and hipe_edition go without --bootstrap and --table"
            }));
        }
        return super::run_family("muc", &s, &gold, &pred, &args.json, &args.table, &inputs);
    }
    s.text("hipe_edition", args.edition.hipe_edition.as_ref());
    let mut opts = api::muc_options(&s)?;
    opts.judgements = args.judgements.is_some();
    s.finish("muc")?;
    let json_out = super::json_path(&args.json, &inputs)?;
    let to_stdout = json_out.as_deref() == Some(Path::new("-"));
    let json_file = json_out.as_deref().filter(|_| !to_stdout);
    let mut outputs = Vec::new();
    outputs.extend(json_file.map(|p| ("--json", p)));
    outputs.extend(args.judgements.as_deref().map(|p| ("--judgements", p)));
    fairscore::io::check_outputs(&inputs, &outputs, &[])?;
    let result = evaluate_files(&gold, &pred, &opts)?;
    for w in &result.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    let sig = super::json_signature(json_out.as_deref(), "muc", &s, &gold, &pred)?;
    let json = json_out.as_ref().map(|_| {
        fairscore::report::table::json::signed_text(report::to_json(&result), sig.as_ref())
    });
    let listing = args
        .judgements
        .as_ref()
        .map(|_| report::judgements_tsv(&result));
    let mut files: Vec<(&std::path::Path, &[u8])> = Vec::new();
    if let (Some(p), Some(t)) = (json_file, &json) {
        files.push((p, t.as_bytes()));
    }
    if let (Some(p), Some(t)) = (&args.judgements, &listing) {
        files.push((p.as_path(), t.as_bytes()));
    }
    fairscore::io::write_atomic_all(&files)?;
    if let (true, Some(t)) = (to_stdout, &json) {
        return super::print(t).map(|_| 0);
    }
    super::print(&report::table(&result))?;
    Ok(0)
}
