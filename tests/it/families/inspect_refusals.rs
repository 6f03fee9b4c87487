//! Issue 46.11: `inspect` says what it was given when it cannot use it. A generative run
//! (JSON lines of entity lists) given without `--align` is named as such, with the flag that
//! places its strings on the gold's texts, whatever the gold's format and the records' shape;
//! a link column (`NEL-LIT`) is refused (usage error naming the column and what inspect
//! reads), where it used to exit 0 with every span labelled by its link's characters.

use std::path::{Path, PathBuf};

use crate::common::{fairscore, temp_dir, write_file};

fn ajmc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hipe2022-ajmc-en/HIPE-2022-v2.1-ajmc-test-en.tsv")
}

#[test]
fn an_entity_list_run_without_align_is_named_and_align_suggested() {
    let dir = temp_dir("inspect_entity_list_run");
    let gold_tsv = ajmc();
    let gold_conll = write_file(&dir, "gold.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    // Record shapes of docs/generative.md: pairs, a raw answer, one list a line; several
    // records of many words (a token reader took them for rows of many cells).
    let long: String = (0..180).map(|i| format!(" w{i}")).collect();
    let runs = [
        write_file(
            &dir,
            "pairs.jsonl",
            // Unit "1" is a unit of the ajmc gold (a run naming no gold unit is refused).
            "{\"id\": \"1\", \"entities\": [[\"Homer\", \"pers\"]]}\n",
        ),
        write_file(
            &dir,
            "answer.jsonl",
            &format!(
                "{{\"id\": \"d1\", \"output\": \"pers: Homer{long}\"}}\n{{\"id\": \"d2\", \"output\": \"loc: Troy\"}}\n"
            ),
        ),
        write_file(&dir, "lists.jsonl", "[\"Homer\", \"pers\"]\n[\"Troy\", \"loc\"]\n"),
    ];
    for gold in [gold_tsv.to_str().unwrap(), gold_conll.as_str()] {
        for run in &runs {
            let page = dir.join("page.html");
            let out = fairscore(&[
                "inspect",
                "--gold",
                gold,
                "--pred",
                run,
                "-o",
                page.to_str().unwrap(),
            ]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(3), "{gold} {run}: {err}");
            assert!(
                err.contains(run.as_str())
                    && err.contains("entity list")
                    && err.contains("--align"),
                "{gold} {run}: the error should name the run as entity lists and --align: {err}"
            );
            assert!(!page.exists(), "no page for a refused run");
        }
    }
    // With --align the same run is inspected.
    let page = dir.join("aligned.html");
    let out = fairscore(&[
        "inspect",
        "--gold",
        gold_tsv.to_str().unwrap(),
        "--pred",
        &runs[0],
        "--align",
        "exact",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_link_column_is_refused_naming_it_and_what_inspect_reads() {
    let dir = temp_dir("inspect_link_column");
    let gold = ajmc();
    let g = gold.to_str().unwrap();
    let page = dir.join("page.html");
    for column in ["NEL-LIT", "NEL-METO", "NE-COARSE-LIT,NEL-LIT"] {
        for cmd in [
            vec!["inspect", "-o", page.to_str().unwrap()],
            vec!["evaluate", "--family", "fair"],
        ] {
            let mut args = cmd.clone();
            args.extend(["--gold", g, "--pred", g, "--column", column]);
            let out = fairscore(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("NEL-") && err.contains("--column") && err.contains("NE-COARSE-LIT"),
                "{args:?}: {err}"
            );
            assert!(!page.exists());
        }
    }
    // A tag column is inspected.
    let out = fairscore(&[
        "inspect",
        "--gold",
        g,
        "--pred",
        g,
        "--column",
        "NE-FINE-LIT",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
