//! Entity types with a hyphen (`creative-work` of WNUT-17, `GPE-LOC`): a CoNLL file scored
//! against itself is perfect in every family, and each type is a label of its own. The spans
//! family (and `score --format conll`) took the tag set from the last `-` part of each tag
//! (`work`, `LOC`), as the HIPE scorer does for its own files, so such entities were left out
//! of gold and run alike and a file against itself scored 0 with no entity counted.

use crate::common::*;
use serde_json::Value;

const GOLD: &str = "Anna B-person\nsaw O\nStar B-creative-work\nWars I-creative-work\nin O\n\
New B-GPE-LOC\nYork I-GPE-LOC\n\nBob B-B-PER\n\n";

fn rows(out: &std::process::Output) -> Vec<(String, f64, f64, f64)> {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    doc["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = &r["scores"];
            (
                r["key"]["label"].as_str().unwrap().to_string(),
                s["TP"].as_f64().unwrap(),
                s["FP"].as_f64().unwrap(),
                s["FN"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_conll_file_with_hyphenated_types_scores_perfect_against_itself() {
    let dir = temp_dir("hyphen_types");
    let gold = write_file(&dir, "gold.conll", GOLD);
    // The run misses `New York` and calls `Bob` person.
    let run = write_file(
        &dir,
        "run.conll",
        &GOLD
            .replace("B-GPE-LOC", "O")
            .replace("I-GPE-LOC", "O")
            .replace("Bob B-B-PER", "Bob B-person"),
    );
    for family in ["spans", "fair"] {
        let out = fairscore(&[
            "evaluate", "--family", family, "--gold", &gold, "--pred", &gold, "--json", "-",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("not scored"), "{family}: {stderr}");
        let r = rows(&out);
        // Counted from the file: four entities, each of its type.
        assert_eq!(r[0], ("ALL".into(), 4.0, 0.0, 0.0), "{family}: {r:?}");
        let labels: Vec<&str> = r[1..].iter().map(|x| x.0.as_str()).collect();
        assert_eq!(
            labels,
            ["B-PER", "GPE-LOC", "creative-work", "person"],
            "{family}"
        );
        let out = fairscore(&[
            "evaluate", "--family", family, "--gold", &gold, "--pred", &run, "--json", "-",
        ]);
        let r = rows(&out);
        // strict (spans) and traditional (fair): 2 correct, Bob a false positive of person
        // and a false negative of B-PER, New York missed.
        assert_eq!(r[0], ("ALL".into(), 2.0, 1.0, 2.0), "{family}: {r:?}");
    }
}
