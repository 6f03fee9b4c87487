//! `fairscore agree`: inter-annotator agreement of a brat project or of one annotation file
//! per annotator, as one result table (text, JSON, CSV, TSV, Markdown or HTML).

use clap::Args;
use fairscore::{Error, Result};

use super::args::{AgreeInputs, Format, Json, TableFlag};

#[derive(Args, Debug)]
#[command(
    after_long_help = "Measures how well two or more annotators agree on the same documents: \
pairwise F1 agreement (instance- and token-based; mean and SD over pairs per document, per \
label and overall, as bratiaa reports them), the annotator x annotator F1 matrix, Cohen's, \
Fleiss' and Davies-Fleiss' kappa and Krippendorff's alpha on token labels, Ortmann's error \
types between each pair and the token label confusion. See docs/agreement.md.\n\n\
Examples:\n  fairscore agree --project brat-project/\n  \
fairscore agree --annotator anna.jsonl --annotator ben.jsonl --table html > iaa.html"
)]
pub struct AgreeArgs {
    #[command(flatten)]
    pub inputs: AgreeInputs,
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub table: TableFlag,
}

pub fn run(args: AgreeArgs) -> Result<i32> {
    let format = match args.format.format.as_deref() {
        None => None,
        Some(f) => fairscore::formats::StandoffFormat::parse(f)?,
    };
    let project = match (&args.inputs.project, args.inputs.annotator.as_slice()) {
        (Some(dir), []) => fairscore::eval::brat_project(dir)?,
        (None, files) if files.len() >= 2 => fairscore::eval::annotator_files(files, |p| {
            fairscore::formats::read_standoff(p, format)
        })?,
        _ => {
            return Err(Error::usage(
                "agree: give --project DIR (a brat project, one folder per annotator) or \
                 --annotator PATH two or more times",
            ))
        }
    };
    // The signature: each annotator's input in report order (a project's folders are its
    // annotators), and the project's annotation.conf when it has one. Hashing the inputs
    // reads them again: done beside the agreement, on a core its parts leave idle.
    let (inputs, conf): (Vec<std::path::PathBuf>, _) = match &args.inputs.project {
        Some(dir) => {
            let conf = dir.join("annotation.conf");
            let inputs = project.annotators.iter().map(|a| dir.join(a)).collect();
            (inputs, conf.is_file().then_some(conf))
        }
        None => (args.inputs.annotator.clone(), None),
    };
    let paths: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
    let (mut results, signature) = rayon::join(
        || fairscore::eval::agreement(&project),
        || {
            fairscore::family::agree_signature(
                format.map(|f| f.name()),
                &project.annotators,
                &paths,
                conf.as_deref(),
            )
        },
    );
    results.signature = Some(signature?);
    let mut inputs: Vec<(&str, &std::path::Path)> = Vec::new();
    if let Some(p) = &args.inputs.project {
        inputs.push(("--project", p.as_path()));
    }
    for a in &args.inputs.annotator {
        inputs.push(("--annotator", a.as_path()));
    }
    super::family_output(&results, &args.json, &args.table, &inputs, None)
}
