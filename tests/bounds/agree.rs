//! Issue 33, class 11: `agree` with thousands of distinct labels in memory and output linear
//! in its input. Its token label confusion was a dense label × label matrix: 4,000 labels
//! took 3.4 GB and wrote a 364 MB JSON; it is now one row per pair of labels that occurs.

use crate::common::rss;

use crate::common::temp_dir;
use std::fmt::Write as _;
use std::path::Path;

/// A brat project of `annotators` folders, 4 documents of `labels` tokens; annotator `a`
/// gives token `i` the label `L{(i + a) % labels}` (every third token left out by the second
/// annotator), so that every label occurs and each token adds one pair of labels.
fn project(dir: &Path, labels: usize, annotators: usize) {
    for a in 0..annotators {
        let ann_dir = dir.join(format!("ann{a}"));
        std::fs::create_dir_all(&ann_dir).unwrap();
        for d in 0..4 {
            let mut text = String::new();
            let mut ann = String::new();
            for i in 0..labels {
                let start = text.len();
                let _ = write!(text, "w{i} ");
                if a == 1 && i % 3 == 0 {
                    continue;
                }
                let _ = writeln!(
                    ann,
                    "T{i}\tL{}_{} {start} {}\tw{i}",
                    (i + a) % labels,
                    d % 2,
                    start + format!("w{i}").len()
                );
            }
            std::fs::write(ann_dir.join(format!("doc{d}.txt")), text).unwrap();
            std::fs::write(ann_dir.join(format!("doc{d}.ann")), ann).unwrap();
        }
    }
}

/// Peak RSS (KiB), JSON bytes and text table bytes of `agree` on a generated project.
#[cfg(target_os = "linux")]
fn measure(name: &str, labels: usize, annotators: usize) -> (i64, u64, u64) {
    let dir = temp_dir(name);
    let p = dir.join("project");
    project(&p, labels, annotators);
    let (json, text) = (dir.join("agree.json"), dir.join("agree.txt"));
    let args = [
        "agree",
        "--project",
        p.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let (code, stderr, rss) = rss::run_measured_out(&args, Some(&text));
    assert_eq!(code, 0, "{stderr}");
    let size = |f: &Path| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
    let out = (rss, size(&json), size(&text));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[cfg(target_os = "linux")]
#[test]
fn thousands_of_labels_cost_memory_and_output_linear_in_the_input() {
    let (rss_small, json_small, text_small) = measure("bounds_agree_1000", 1000, 3);
    let (rss, json, text) = measure("bounds_agree_4000", 4000, 3);
    // 2 × 4,000 labels (two per document parity) over 4 × 4,000 tokens and 3 annotators.
    assert!(
        rss < 300 * 1024,
        "peak RSS {rss} KiB (1,000 labels: {rss_small} KiB)"
    );
    // Four times the labels and tokens: about four times the output, not sixteen.
    for (what, small, big) in [("JSON", json_small, json), ("text", text_small, text)] {
        assert!(
            big < 6 * small,
            "{what}: {big} bytes for 4,000 labels, {small} for 1,000 (a dense matrix grows 16×)"
        );
    }
}

/// The confusion rows: one per pair of token labels that occurs, summed over ordered pairs
/// of annotators, as the dense matrix counted them (here: the tiny project of tests/data).
#[test]
fn confusion_rows_are_the_pairs_that_occur() {
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brat-tiny");
    let project = fairscore::eval::brat_project(&tiny).expect("tiny");
    let r = fairscore::eval::agreement(&project);
    let t = r.table("confusion").expect("confusion");
    let mut total = 0;
    for row in &t.rows {
        let n = row.values[0].as_f64().unwrap_or(0.0);
        assert!(n > 0.0, "a row of a pair that never occurs: {:?}", row.key);
        // Symmetric: the swapped pair has the same count.
        let swapped = t
            .row(&[row.key[1].as_str(), row.key[0].as_str()])
            .expect("the swapped pair");
        assert_eq!(swapped.values[0], row.values[0]);
        total += n as u64;
    }
    // 3 annotators: 6 ordered pairs over every token all three labelled.
    let tokens = r.table("coefficients").expect("coefficients").rows[0].values[1]
        .as_f64()
        .unwrap_or(0.0) as u64;
    assert_eq!(total, 6 * tokens);
}
