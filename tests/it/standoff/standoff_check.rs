//! `fairscore check` of standoff runs: read and paired as scoring reads them, then span by
//! span (docs/errors.md: unknown-label, empty-span, span-whitespace, duplicate-span; a run
//! that cannot be read or paired is a finding, a gold that cannot be read an error).

use std::path::Path;

use crate::common::{fairscore, temp_dir};

const TEXT: &str = "Anna met Carl in Oslo .";

fn brat(dir: &Path, ann: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("a.txt"), TEXT).unwrap();
    std::fs::write(dir.join("a.ann"), ann).unwrap();
}

/// Exit status and findings `(code, file name, line)` of `check --json -`.
fn check(gold: &Path, run: &Path, extra: &[&str]) -> (Option<i32>, Vec<(String, String, u64)>) {
    let mut args = vec![
        "check",
        "--gold",
        gold.to_str().unwrap(),
        "--pred",
        run.to_str().unwrap(),
        "--json",
        "-",
    ];
    args.extend_from_slice(extra);
    let out = fairscore(&args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let findings = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = Path::new(f["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            (
                f["code"].as_str().unwrap().to_string(),
                file,
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    (out.status.code(), findings)
}

#[test]
fn standoff_runs_are_checked_span_by_span() {
    let dir = temp_dir("standoff_check");
    brat(
        &dir.join("gold"),
        "T1\tPER 0 4\tAnna\nT2\tPER 9 13\tCarl\nT3\tLOC 17 21\tOslo\n",
    );
    // A run as the gold: nothing to say.
    brat(
        &dir.join("same"),
        "T1\tPER 0 4\tAnna\nT2\tLOC 17 21\tOslo\n",
    );
    assert_eq!(
        check(&dir.join("gold"), &dir.join("same"), &[]),
        (Some(0), vec![])
    );
    // Every span-level finding, each at its line.
    brat(
        &dir.join("run"),
        "T1\tPER 0 4\tAnna\nT2\tPERSON 9 13\tCarl\nT3\tLOC 16 21\t Oslo\nT4\tPER 4 5\t \nT5\tPER 0 4\tAnna\n",
    );
    let (code, found) = check(&dir.join("gold"), &dir.join("run"), &[]);
    assert_eq!(code, Some(1));
    let want = [
        ("unknown-label", 2),
        ("empty-span", 4),
        ("duplicate-span", 5),
        ("span-whitespace", 3),
    ];
    for (c, line) in want {
        assert!(
            found.contains(&(c.to_string(), "a.ann".to_string(), line)),
            "{c} at {line}: {found:?}"
        );
    }
    assert_eq!(found.len(), want.len(), "{found:?}");
    // The same run as Prodigy JSONL, read by --format and by detection.
    let jsonl = dir.join("run.jsonl");
    std::fs::write(
        &jsonl,
        format!(
            "{{\"id\": \"a\", \"text\": \"{TEXT}\", \"spans\": [{{\"start\": 0, \"end\": 4, \"label\": \"PER\"}}, {{\"start\": 9, \"end\": 13, \"label\": \"PERSON\"}}]}}\n"
        ),
    )
    .unwrap();
    for extra in [&["--format", "prodigy"][..], &[][..]] {
        let (code, found) = check(&dir.join("gold"), &jsonl, extra);
        assert_eq!(code, Some(1), "{extra:?}");
        assert_eq!(
            found,
            vec![("unknown-label".to_string(), "run.jsonl".to_string(), 1)]
        );
    }
}

#[test]
fn unreadable_and_unpaired_runs_are_findings() {
    let dir = temp_dir("standoff_check_bad");
    brat(&dir.join("gold"), "T1\tPER 0 4\tAnna\n");
    // Offsets beyond the text: unreadable, at the run's line.
    brat(&dir.join("far"), "T1\tPER 0 4\tAnna\nT2\tLOC 17 40\tOslo\n");
    assert_eq!(
        check(&dir.join("gold"), &dir.join("far"), &[]),
        (Some(1), vec![("unreadable".into(), "a.ann".into(), 2)])
    );
    // A run document the gold lacks: alignment.
    brat(&dir.join("more"), "T1\tPER 0 4\tAnna\n");
    std::fs::write(dir.join("more/b.txt"), "x").unwrap();
    std::fs::write(dir.join("more/b.ann"), "").unwrap();
    let (code, found) = check(&dir.join("gold"), &dir.join("more"), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "alignment");
    // A CoNLL run whose tokens do not reproduce the gold's text: the codes a CoNLL gold of
    // the same text gives (a token that differs, the gold's tokens after the run's end), at
    // its line.
    let conll = dir.join("run.conll");
    std::fs::write(&conll, "Anna B-PER\nmet O\nKarl B-PER\n").unwrap();
    let expected = (
        Some(1),
        vec![
            ("alignment".into(), "run.conll".into(), 3),
            ("missing-tokens".into(), "run.conll".into(), 3),
        ],
    );
    assert_eq!(check(&dir.join("gold"), &conll, &[]), expected);
    let conll_gold = dir.join("gold.conll");
    let gold_tokens: String = TEXT.split(' ').map(|t| format!("{t} O\n")).collect();
    std::fs::write(&conll_gold, gold_tokens.replacen(" O\n", " B-PER\n", 1)).unwrap();
    assert_eq!(check(&conll_gold, &conll, &[]), expected);
    // A gold that cannot be read is an error of the command (exit 3), naming it.
    brat(&dir.join("badgold"), "T1\tPER 0 99\tAnna\n");
    let out = fairscore(&[
        "check",
        "--gold",
        dir.join("badgold").to_str().unwrap(),
        "--pred",
        dir.join("gold").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("badgold/a.ann:1:"), "{err}");
    // HIPE options do not go with standoff files.
    let out = fairscore(&[
        "check",
        "--gold",
        dir.join("gold").to_str().unwrap(),
        "--pred",
        dir.join("gold").to_str().unwrap(),
        "--task",
        "nerc_coarse",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("task: goes with HIPE runs"), "{err}");
}
