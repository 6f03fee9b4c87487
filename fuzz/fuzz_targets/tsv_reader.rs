//! Fuzz target: the HIPE TSV reader and the alignment of a file with itself and with a
//! one-document copy. Any input must give a value or a typed error, never a panic.
#![no_main]
use fairscore::corpus::{align, ReadOptions};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let opts = ReadOptions::default();
    if let Ok(f) = fairscore::formats::hipe::parse(Path::new("fuzz.tsv"), data, &opts) {
        let _ = align(&f, &f);
        for t in 0..f.n_tokens() {
            for c in 0..f.columns.len() {
                let _ = f.cell(t, c);
            }
        }
    }
    let glue = ReadOptions {
        glue: vec![("NE-COARSE-LIT".into(), "NE-NESTED".into())],
        ..ReadOptions::default()
    };
    let _ = fairscore::formats::hipe::parse(Path::new("fuzz.tsv"), data, &glue);
});
