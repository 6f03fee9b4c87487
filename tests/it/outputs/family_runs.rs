//! Inputs shared by the schema tests: a small CoNLL gold and the gold files and runs of a
//! five-family campaign ([`crate::common::five_family_campaign`]).

use std::path::{Path, PathBuf};

/// A CoNLL gold of 12 sentences, `Anna` (PER) `sings` and `in` `Paris` (LOC) in turn.
pub(super) fn conll_gold() -> String {
    (0..12)
        .map(|i| {
            if i % 2 == 0 {
                "Anna B-PER\nsings O\n\n"
            } else {
                "in O\nParis B-LOC\n\n"
            }
        })
        .collect()
}

/// Writes the gold files of a five-family campaign into `dir` (`test.conll`: [`conll_gold`],
/// `test.txt`, `test.tsv`) and, into `dir/runs`, run 1 of each team `(team, k, tag)`: the
/// CoNLL gold with `tag` for `B-LOC`, segmented text gluing words in every k-th sentence, and
/// a tagging run. Returns the runs' folder.
pub(super) fn write_family_campaign(dir: &Path, teams: &[(&str, usize, &str)]) -> PathBuf {
    let gold = conll_gold();
    std::fs::write(dir.join("test.conll"), &gold).unwrap();
    std::fs::write(dir.join("test.txt"), crate::common::segmented(0)).unwrap();
    std::fs::write(dir.join("test.tsv"), "a\tX\nb\tY\n\nc\tX\n").unwrap();
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    for &(team, k, tag) in teams {
        let run = |ext: &str| runs.join(format!("{team}_1.{ext}"));
        std::fs::write(run("conll"), gold.replace("B-LOC", tag)).unwrap();
        std::fs::write(run("txt"), crate::common::segmented(k)).unwrap();
        std::fs::write(run("tsv"), "a\tX\nb\tX\n\nc\tX\n").unwrap();
    }
    runs
}
