//! Fuzz target: `check` and `score` on a gold and a run cut from one input at the first
//! `\x00` byte (no separator: the input is both gold and run).
#![no_main]
use fairscore::check::{check_bytes, CheckOptions};
use fairscore::{score_files, Edition, ScoreOptions, Task};
use fairscore::corpus::ReadOptions;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let (gold, run) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, data),
    };
    let (gp, rp) = (Path::new("gold.tsv"), Path::new("run.tsv"));
    for edition in [Edition::Hipe2020, Edition::Hipe2022] {
        let _ = check_bytes(gp, gold, rp, run, &CheckOptions::new(edition));
    }
    let ro = ReadOptions::default();
    let (Ok(g), Ok(r)) = (fairscore::formats::hipe::parse(gp, gold, &ro), fairscore::formats::hipe::parse(rp, run, &ro)) else {
        return;
    };
    for task in [Task::NercCoarse, Task::NercFine, Task::Nel] {
        let mut opts = ScoreOptions::new(task, Edition::Hipe2022);
        opts.skip_check = true;
        opts.n_best = vec![1, 3];
        let _ = score_files(&g, &r, "run.tsv", "run.tsv", &opts);
    }
});
