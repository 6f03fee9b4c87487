//! Scoring two CoNLL files from Rust with no HIPE type in sight: the `spans` family (the four
//! span regimes), a bootstrap interval over sentences, and the result table as Markdown.
//!
//!     cargo run --example family -- GOLD.conll RUN.conll
//!
//! Without arguments it scores two small files it writes to a temporary directory.

use std::path::PathBuf;
use std::process::ExitCode;

use fairscore::family::{self, Options};
use fairscore::metrics::Resampler;
use fairscore::report::render;
use fairscore::table::TableFormat;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (gold, run) = match args.as_slice() {
        [g, r] => (g.clone(), r.clone()),
        _ => {
            let dir =
                std::env::temp_dir().join(format!("fairscore-example-{}", std::process::id()));
            let write = |name: &str, text: &str| {
                let p = dir.join(name);
                std::fs::create_dir_all(&dir)
                    .and_then(|_| std::fs::write(&p, text))
                    .map(|_| p)
            };
            let gold =
                "Paris B-LOC\nis O\nnice O\n\nAnna B-PER\nKarenina I-PER\nreads O\n\nBern B-LOC\n";
            let run =
                "Paris B-LOC\nis O\nnice O\n\nAnna B-PER\nKarenina O\nreads O\n\nBern B-ORG\n";
            match (write("gold.conll", gold), write("run.conll", run)) {
                (Ok(g), Ok(r)) => (g, r),
                _ => {
                    eprintln!("family: cannot write the example files");
                    return ExitCode::from(4);
                }
            }
        }
    };
    let result = family::build("spans", &Options::default()).and_then(|spans| {
        family::evaluate(spans.as_ref(), &gold, &run, Some(&Resampler::new(1000, 42)))
    });
    match result.and_then(|r| render(&r, TableFormat::Markdown)) {
        Ok(md) => {
            print!("{md}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("family: {e}");
            ExitCode::from(3)
        }
    }
}
