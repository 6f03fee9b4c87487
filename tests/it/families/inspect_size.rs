//! `fairscore inspect`'s page size (issue 47.2): on a brat document of 2,000 nested spans (the
//! run's spans each a little shorter than the gold's, so that every span is an error) the
//! page stays within 4 bytes per byte of its inputs and says on the page what it leaves out
//! (the spans nested too deep to tint, the span texts cut in the error lists, the documents
//! and errors past the size cap) and how to see it all (`--full`); with `--full` every span
//! and error is on the page, which grows linearly with the nesting, not with its square.

use std::path::Path;

use super::inspect::{evaluate_counts, page_counts};
use crate::common::{fairscore, temp_dir};

/// A brat gold and run of one document whose `n` spans nest: span `i` covers characters
/// `5i .. len - 5i` (the run's ends 2 characters earlier). Returns the inputs' bytes.
fn nested(dir: &Path, n: usize) -> u64 {
    let words = ["Die", "Stadt", "Berlin", "liegt", "an", "der", "Spree", "."];
    let text: Vec<&str> = (0..5 * n).map(|i| words[i % words.len()]).collect();
    let text = text.join(" ");
    let mut bytes = 0;
    for (side, short) in [("gold", 0), ("run", 2)] {
        let ann: String = (0..n)
            .map(|i| {
                format!(
                    "T{}\tPER {} {}\t\n",
                    i + 1,
                    5 * i,
                    text.len() - 5 * i - short
                )
            })
            .collect();
        std::fs::create_dir_all(dir.join(side)).unwrap();
        std::fs::write(dir.join(side).join("doc.txt"), &text).unwrap();
        std::fs::write(dir.join(side).join("doc.ann"), &ann).unwrap();
        bytes += (text.len() + ann.len()) as u64;
    }
    bytes
}

fn page(dir: &Path, extra: &[&str]) -> String {
    let out = dir.join("page.html");
    let (g, r) = (dir.join("gold"), dir.join("run"));
    let mut args = vec![
        "inspect",
        "--gold",
        g.to_str().unwrap(),
        "--pred",
        r.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let o = fairscore(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn nested_spans_page_is_capped_and_says_what_it_cuts() {
    let dir = temp_dir("inspect_size_capped");
    let input = nested(&dir, 2000);
    let html = page(&dir, &[]);
    assert!(
        html.len() as u64 <= 4 * input,
        "page {} bytes for {input} bytes of input",
        html.len()
    );
    // The notes at the top say what is left out, and how to see it all.
    let notes = html.split("id=\"cut\"").nth(1).expect("the page's notes");
    for said in [
        "spans begin inside 3 others of their side",
        "span texts longer than 80 characters are cut",
        &format!("3 per byte of its inputs, {input} bytes"),
        "--full",
    ] {
        assert!(notes.contains(said), "no note {said:?}");
    }
    assert!(html.contains("The page&#x27;s size cap ends this document here"));
    // What is shown stays linked: ids unique, every link to a mark on the page.
    page_counts(&html);
}

#[test]
fn nested_spans_full_page_grows_linearly() {
    let dir = temp_dir("inspect_size_full");
    let mut sizes = Vec::new();
    for n in [1000, 2000] {
        let input = nested(&dir, n);
        let html = page(&dir, &["--full"]);
        assert!(!html.contains("capped at"));
        // Every span has its one first element and every error is listed.
        let (counts, gold, run) = page_counts(&html);
        assert_eq!(counts, evaluate_counts(&dir.join("gold"), &dir.join("run")));
        assert_eq!((gold, run), (n, n));
        sizes.push((html.len() as f64, input as f64));
    }
    let growth = sizes[1].0 / sizes[0].0;
    assert!(
        growth < 2.5,
        "twice the nesting makes a page {growth:.2} times as large"
    );
}
