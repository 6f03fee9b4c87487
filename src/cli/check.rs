//! `fairscore check`: the participant self-check. Validates a run against the gold without
//! scoring it and prints every finding once (or JSON with `--json`); exit 0 when the run would
//! be scored as intended, 1 when a check found problems, 2/3 for usage/input errors.

use clap::Args;
use fairscore::api;
use fairscore::{Error, Result};

use super::args::{
    settings, ColumnFlag, Edition, Format, Gold, Json, LabelListFlag, Pred, SkipCheck, TagsetFlag,
    TaskFlag,
};

/// Check a run against the gold before submitting: header and columns, documents and tokens,
/// tag and link syntax, labels and the file-name convention. Nothing is scored or written.
#[derive(Args, Debug)]
#[command(
    after_long_help = "Formats: hipe (the default), conll, conllu, tsv, text, or the standoff \
formats brat, doccano, labelstudio and prodigy, which are also detected when the format is left \
at auto: a standoff run (or a CoNLL or HIPE TSV run against a standoff gold) is read and paired \
with the gold as scoring reads it (offsets, texts, documents), then its spans are checked: labels \
the gold lacks, spans covering no text, whitespace at span edges, spans given twice \
(docs/errors.md, docs/standoff.md). A CoNLL run is checked the same way whatever the gold's \
format (CoNLL, detected without --format, or standoff): tag syntax, invalid transitions, labels, \
tokens against the gold's tokens or texts. Labels are checked against the gold's, or against \
--labels FILE (one label a line) when given; against a blind gold (texts without annotations) \
only with --labels. Exit status 0 when there is no error and no warning."
)]
pub struct CheckArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub task: TaskFlag,
    #[command(flatten)]
    pub edition: Edition,
    #[command(flatten)]
    pub tagset: TagsetFlag,
    #[command(flatten)]
    pub labels: LabelListFlag,
    #[command(flatten)]
    pub skip_check: SkipCheck,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub json: Json,
}

pub fn run(args: CheckArgs) -> Result<i32> {
    let pred = args.pred.one()?.clone();
    let s = settings(&[
        &args.task,
        &args.edition,
        &args.tagset,
        &args.labels,
        &args.skip_check,
        &args.format,
        &args.column,
    ]);
    let request = api::check_plan(&s, &args.gold.gold, &pred)?;
    s.finish("check")?;
    let report = api::run_check(request, &args.gold.gold, &pred)?;
    let json = report_json(&report)?;
    let inputs = [
        ("--gold", args.gold.gold.as_path()),
        ("--pred", pred.as_path()),
    ];
    match super::json_path(&args.json, &inputs)? {
        Some(p) if p.as_path() != std::path::Path::new("-") => {
            fairscore::io::write_atomic(&p, json.as_bytes())?;
            super::print(&report.to_text())?;
        }
        Some(_) => super::print(&json)?,
        None => super::print(&report.to_text())?,
    }
    if report.ok() {
        return Ok(0);
    }
    // The run may be of a kind `check` does not read: a hint about the file of the most
    // serious finding (issue 46.8: from what was found, not from the gold's shape), when that
    // finding says the file could not be read (a file read with warnings is of a kind
    // `check` reads).
    let Some(unread) = report.findings.first().filter(|f| f.kind.unreadable()) else {
        return Ok(1);
    };
    let job = super::redirect::Job {
        command: "check",
        told: args.format.format.is_some(),
        inputs: vec![args.gold.gold.clone(), pred],
        ..Default::default()
    };
    super::print_hint(&job, Some(unread.file.as_path()));
    Ok(1)
}

fn report_json(report: &fairscore::check::CheckReport) -> Result<String> {
    Ok(serde_json::to_string_pretty(&report.to_json())
        .map_err(|e| Error::usage(format!("cannot format the report as JSON: {e}")))?
        + "\n")
}
