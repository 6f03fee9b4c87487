//! `fairscore fair` against the reference implementation's published NER evaluation
//! (`../shared/data/faireval/ner`: span files, `ner.config`, `expected_eval_ner.csv`; the
//! paper's Tables 1 and 2 for NER). Runs the binary with the options of `ner.config`, reads its
//! JSON (the fair family's tables: traditional, fair, weighted, confusion) and compares every
//! count exactly and every percentage at the reference's printed precision, and the text
//! tables on stdout cell by cell. Also checks the CLI's exit statuses and the error listing on small fixtures.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fairscore"))
}

/// `../shared` next to the crate, or `None` (after printing the skip notice) if absent; under CI
/// a missing `../shared` fails (see `common::shared_data`).
fn shared() -> Option<PathBuf> {
    crate::common::shared_data("fair_reference").and_then(|d| d.parent().map(Path::to_path_buf))
}

/// `key = value` lines of a FairEval config file.
fn read_config(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).expect("ner.config readable");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// Sections of a FairEval output file: title → rows (first cell → column → cell).
type Table = BTreeMap<String, BTreeMap<String, String>>;

fn read_sections(path: &Path) -> BTreeMap<String, Table> {
    let text = std::fs::read_to_string(path).expect("expected file readable");
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(title) = line.strip_prefix("### ") else {
            continue;
        };
        let Some(header) = lines.next() else { break };
        let cols: Vec<&str> = header.split('\t').collect();
        let mut table = Table::new();
        for row in lines.by_ref() {
            if row.trim().is_empty() {
                break;
            }
            let cells: Vec<&str> = row.split('\t').collect();
            let map = cols
                .iter()
                .skip(1)
                .zip(cells.iter().skip(1))
                .map(|(c, v)| (c.to_string(), v.to_string()))
                .collect();
            table.insert(cells[0].to_string(), map);
        }
        out.insert(title.trim_end_matches(':').to_string(), table);
    }
    out
}

/// The family table's row of a FairEval row label (`overall` is `ALL`).
fn row_key(label: &str) -> &str {
    if label == "overall" {
        "ALL"
    } else {
        label
    }
}

/// The family table's column of a FairEval column (`Prec`, `Rec`, `F1`, or a count), and
/// whether it is a percentage.
fn column_of(col: &str) -> (&str, bool) {
    match col {
        "Prec" => ("P", true),
        "Rec" => ("R", true),
        "F1" => ("F1", true),
        other => (other, false),
    }
}

/// Compares one FairEval evaluation table with the family table `name` of the JSON: every
/// label and overall, every column (counts exactly, percentages at the printed precision),
/// and no label row more than FairEval's.
fn check_table(table: &Table, json: &Value, name: &str, failures: &mut Vec<String>) {
    assert!(!table.is_empty(), "{name}: empty expected table");
    let rows = crate::common::json_table(json, name)["rows"]
        .as_array()
        .unwrap();
    assert_eq!(rows.len(), table.len(), "{name}: rows {rows:?}");
    for (label, row) in table {
        for (col, want) in row {
            let (key, pct) = column_of(col);
            let got = crate::common::json_cell(json, name, &[row_key(label)], key);
            let ok = if pct {
                let want: f64 = want.parse().expect("percentage");
                got.is_some_and(|g| (g * 100.0 - want).abs() <= 0.005 + 1e-9)
            } else {
                got.is_some_and(|g| g.fract() == 0.0 && format!("{g}") == *want)
            };
            if !ok {
                failures.push(format!(
                    "{name} {label} {col}: expected {want}, got {got:?}"
                ));
            }
        }
    }
}

/// The table titled `title` of a text rendering: its rows, label → column → cell (the `P %`
/// style headers as `P`).
fn text_table(text: &str, title: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut lines = text.lines().skip_while(|l| *l != title);
    assert_eq!(lines.next(), Some(title), "no table {title:?} in:\n{text}");
    let mut header: Vec<&str> = Vec::new();
    for w in lines.next().expect("header").split_whitespace() {
        if w != "%" {
            header.push(w);
        }
    }
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(cells.len(), header.len(), "{title}: {l:?} vs {header:?}");
            let map = header[1..]
                .iter()
                .zip(&cells[1..])
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect();
            (cells[0].to_string(), map)
        })
        .collect()
}

#[test]
fn ner_matches_published_evaluation() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("data/faireval/ner");
    assert!(
        dir.is_dir(),
        "{} missing although ../shared exists",
        dir.display()
    );
    let config = read_config(&dir.join("ner.config"));
    let expected = read_sections(&dir.join("expected_eval_ner.csv"));

    let out_dir = std::env::temp_dir().join(format!("fairscore-fair-ner-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let json_path = out_dir.join("ner.json");
    let errors_path = out_dir.join("ner_errors.tsv");
    let mut cmd = bin();
    cmd.arg("fair")
        .arg("--target")
        .arg(dir.join("target_ner_spans.csv"))
        .arg("--system")
        .arg(dir.join("system_ner_spans.csv"))
        .args(["--format", "spans", "--focus", &config["focus"]])
        .args(["--weights", &config["weights"]])
        .arg("--json")
        .arg(&json_path)
        .arg("--errors")
        .arg(&errors_path);
    if let Some(ex) = config.get("exclude").filter(|v| !v.is_empty()) {
        cmd.args(["--exclude", ex]);
    }
    if let Some(ls) = config.get("labels").filter(|v| *v != "all") {
        cmd.args(["--labels", ls]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();

    let mut failures = Vec::new();
    check_table(
        &expected["Traditional evaluation"],
        &json,
        "traditional",
        &mut failures,
    );
    check_table(&expected["Fair evaluation"], &json, "fair", &mut failures);
    check_table(
        &expected["Weighted evaluation"],
        &json,
        "weighted",
        &mut failures,
    );

    // Comparison rows repeat the overall scores.
    for (version, name) in [
        ("Traditional", "traditional"),
        ("Fair", "fair"),
        ("Weighted", "weighted"),
    ] {
        for (col, key) in [("Prec", "P"), ("Rec", "R"), ("F1", "F1")] {
            let want: f64 = expected["Comparison"][version][col].parse().unwrap();
            let got = crate::common::json_cell(&json, name, &["ALL"], key).unwrap();
            if (got * 100.0 - want).abs() > 0.005 + 1e-9 {
                failures.push(format!("comparison {version} {col}: {want} vs {got}"));
            }
        }
    }

    // Confusion matrix, every cell (the expected file lists every label and `_`; the
    // confusion table has a row for each pair with a non-zero count, and no other).
    let conf = &expected["Confusion matrix"];
    let conf_rows = crate::common::json_table(&json, "confusion")["rows"]
        .as_array()
        .unwrap();
    let mut non_zero = 0;
    for (row, cells) in conf {
        for (col, want) in cells {
            let got = conf_rows
                .iter()
                .find(|r| {
                    r["key"]["label"] == row.as_str() && r["key"]["run_label"] == col.as_str()
                })
                .map(|r| r["scores"]["count"].clone());
            let ok = match &got {
                None => want == "0",
                Some(g) => {
                    non_zero += 1;
                    g.as_u64().map(|g| g.to_string()) == Some(want.clone()) && want != "0"
                }
            };
            if !ok {
                failures.push(format!(
                    "confusion {row}/{col}: expected {want}, got {got:?}"
                ));
            }
        }
    }
    assert_eq!(conf_rows.len(), non_zero, "confusion rows {conf_rows:?}");
    // The confusion table names the same labels (and `_`) as the expected matrix.
    let conf_labels: std::collections::BTreeSet<&str> = conf_rows
        .iter()
        .flat_map(|r| [r["key"]["label"].as_str(), r["key"]["run_label"].as_str()])
        .flatten()
        .collect();
    let want_labels: std::collections::BTreeSet<&str> = conf.keys().map(String::as_str).collect();
    assert_eq!(conf_labels, want_labels);

    // Target label statistics: the gold spans of each label are its traditional TP + FN; the
    // share at the printed precision.
    let stats = &expected["Target data stats"];
    let labels = crate::common::json_table(&json, "traditional")["rows"]
        .as_array()
        .unwrap()
        .len()
        - 1;
    assert_eq!(stats.len(), labels);
    let gold = |label: &str| {
        let c = |k: &str| crate::common::json_cell(&json, "traditional", &[label], k).unwrap();
        c("TP") + c("FN")
    };
    let total = gold("ALL");
    for (label, row) in stats {
        let n = gold(label);
        if format!("{n}") != row["Freq"] {
            failures.push(format!("stats {label}: expected {}, got {n}", row["Freq"]));
        }
        let share: f64 = row["%"].parse().unwrap();
        if (n / total * 100.0 - share).abs() > 0.005 + 1e-9 {
            failures.push(format!(
                "stats {label} %: expected {share}, got {n}/{total}"
            ));
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));

    // The tables on stdout print the same numbers as the reference file: every cell of every
    // evaluation table at the reference's printed precision (percentages with two
    // decimals), and no other label.
    let stdout = String::from_utf8(out.stdout).unwrap();
    for (section, title) in [
        ("Traditional evaluation", "Traditional evaluation"),
        ("Fair evaluation", "Fair evaluation (Ortmann 2022)"),
        ("Weighted evaluation", "Weighted evaluation"),
    ] {
        let ours = text_table(&stdout, title);
        let want = &expected[section];
        assert_eq!(ours.len(), want.len(), "{title}");
        for (label, row) in want {
            let got = &ours[row_key(label)];
            for (col, cell) in row {
                assert_eq!(
                    got.get(column_of(col).0),
                    Some(cell),
                    "{title} {label} {col}:\n{stdout}"
                );
            }
        }
    }

    // One error line per target and system span (dummy spans excluded).
    let errors = std::fs::read_to_string(&errors_path).unwrap();
    assert_eq!(errors.lines().next(), Some(fairscore::eval::ERRORS_HEADER));
    let trad =
        |k: &str| crate::common::json_cell(&json, "traditional", &["ALL"], k).unwrap() as u64;
    let n_target = trad("TP") + trad("FN");
    let n_system = trad("TP") + trad("FP");
    assert_eq!(errors.lines().count() as u64, 1 + n_target + n_system);
    let _ = std::fs::remove_dir_all(&out_dir);
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fair")
        .join(name)
}

#[test]
fn cli_exit_statuses_and_messages() {
    // Malformed span line: input error (3) naming file and line.
    let out = bin()
        .args(["fair", "--target"])
        .arg(fixture("bad.spans"))
        .arg("--system")
        .arg(fixture("system.spans"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.spans:2:"), "{err}");
    assert!(err.contains("begin"), "{err}");

    // Unknown weight category: usage error (2).
    let out = bin()
        .args(["fair", "--target"])
        .arg(fixture("target.spans"))
        .arg("--system")
        .arg(fixture("system.spans"))
        .args(["--weights", "XY = 1 TP"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    // Missing file: input error.
    let out = bin()
        .args(["fair", "--target", "/nonexistent/t.spans", "--system"])
        .arg(fixture("system.spans"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));

    // Unwritable JSON output: output error (4).
    let out = bin()
        .args(["fair", "--target"])
        .arg(fixture("target.spans"))
        .arg("--system")
        .arg(fixture("system.spans"))
        .args(["--json", "/nonexistent/dir/out.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn cli_hipe_json_and_errors() {
    let dir = std::env::temp_dir().join(format!("fairscore-fair-hipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin()
        .args([
            "fair",
            "--format",
            "hipe",
            "--column",
            "NE-COARSE-LIT",
            "--target",
        ])
        .arg(fixture("target.tsv"))
        .arg("--system")
        .arg(fixture("system.tsv"))
        .arg("--json")
        .arg(dir.join("o.json"))
        .arg("--errors")
        .arg(dir.join("e.tsv"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("o.json")).unwrap()).unwrap();
    assert_eq!(
        crate::common::json_cell(&json, "fair", &["ALL"], "LE"),
        Some(1.0)
    );
    assert_eq!(
        crate::common::json_cell(&json, "fair", &["ALL"], "BE"),
        Some(2.0)
    );
    // Labels are read as `score` reads them: upper-cased.
    assert_eq!(
        crate::common::json_cell(&json, "confusion", &["LOC", "ORG"], "count"),
        Some(1.0)
    );
    // Fair: TP 0 -> P = R = F1 = 0.
    assert_eq!(
        crate::common::json_cell(&json, "fair", &["ALL"], "TP"),
        Some(0.0)
    );
    assert_eq!(
        crate::common::json_cell(&json, "fair", &["ALL"], "F1"),
        Some(0.0)
    );
    let errors = std::fs::read_to_string(dir.join("e.tsv")).unwrap();
    assert_eq!(errors.lines().count(), 1 + 3 + 3);
    assert!(errors.contains("doc-a\tsystem\t7\t5\t5\tORG\tLE\tFP\tLOC[5-5]\tBerne"));
    let _ = std::fs::remove_dir_all(&dir);
}
