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
    let (project_dir, files) = (&args.inputs.project, args.inputs.annotator.as_slice());
    if !matches!((project_dir, files.len()), (Some(_), 0) | (None, 2..)) {
        return Err(Error::usage(
            "agree: give --project DIR (a brat project, one folder per annotator) or \
             --annotator PATH two or more times",
        ));
    }
    let read = || match project_dir {
        Some(dir) => fairscore::eval::brat_project(dir),
        None => fairscore::eval::annotator_files(files, |p| {
            fairscore::formats::read_standoff(p, format)
        }),
    };
    // The signature hashes each annotator's input in report order (a project's folders are
    // its annotators) and the project's annotation.conf when it has one. Hashing reads the
    // inputs again: done while the project is read, on a core the reading leaves idle.
    let hash = || match project_dir {
        Some(dir) => {
            let inputs: Vec<std::path::PathBuf> = fairscore::eval::annotator_dirs(dir)?
                .iter()
                .map(|a| dir.join(a))
                .collect();
            let paths: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
            let conf = dir.join("annotation.conf");
            fairscore::family::agree_hashes(&paths, conf.is_file().then_some(conf.as_path()))
        }
        None => {
            let paths: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
            fairscore::family::agree_hashes(&paths, None)
        }
    };
    let (project, hashes) = rayon::join(read, hash);
    let project = project?;
    let hashes = hashes?;
    let mut results = fairscore::eval::agreement(&project);
    results.signature = Some(fairscore::family::agree_signature(
        format.map(|f| f.name()),
        &project.annotators,
        &hashes,
    ));
    let mut inputs: Vec<(&str, &std::path::Path)> = Vec::new();
    if let Some(p) = &args.inputs.project {
        inputs.push(("--project", p.as_path()));
    }
    for a in &args.inputs.annotator {
        inputs.push(("--annotator", a.as_path()));
    }
    super::family_output(&results, &args.json, &args.table, &inputs, None)
}
