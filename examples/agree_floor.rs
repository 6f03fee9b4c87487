//! The floor of `agree` (issue 33): read a brat project through the brat reader, as `agree`
//! does, and nothing else; and the generator of the benchmark's projects.
//!
//!     cargo run --release --example agree_floor -- write DIR [ANNOTATORS DOCS TOKENS]
//!     cargo run --release --example agree_floor -- read DIR
//!
//! `write` makes the project of `tests/common/agree_synth.rs` (default 4 annotators × 20
//! documents × 50,000 tokens) and prints its size; `read` prints the documents and spans read.

#[path = "../tests/common/agree_synth.rs"]
mod synth;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .unwrap_or(default)
    };
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("write"), Some(dir)) => {
            let bytes = synth::write_project(Path::new(dir), num(2, 4), num(3, 20), num(4, 50_000));
            println!("{bytes} bytes");
            ExitCode::SUCCESS
        }
        (Some("read"), Some(dir)) => match fairscore::eval::brat_project(Path::new(dir)) {
            Ok(p) => {
                let spans: usize = p
                    .docs
                    .iter()
                    .flatten()
                    .flatten()
                    .map(|d| d.spans.len())
                    .sum();
                println!(
                    "{} documents, {} annotators, {spans} spans",
                    p.documents.len(),
                    p.annotators.len()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("agree_floor: {e}");
                ExitCode::from(3)
            }
        },
        _ => {
            eprintln!("usage: agree_floor write DIR [ANNOTATORS DOCS TOKENS] | read DIR");
            ExitCode::from(2)
        }
    }
}
