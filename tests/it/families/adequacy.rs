//! The `adequacy` table (docs/breakdown.md, "Is the gold adequate?"): per label the gold's
//! mentions, the marks of the MUC-7 guide reached (100, 1,000), the width of the label's F1
//! interval and the flag of a label below 100. The counts equal a count of the gold's entities
//! read from its tags here (HIPE TSV) or of its brat `T` lines made here, in the spans, fair, muc and hipe families;
//! the marks and the flag flip at 99/100 and 999/1,000; the width is the label's interval.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Gold mentions per label of a HIPE TSV file's NE-COARSE-LIT column, as the official reader
/// reads tags (upper-cased): an entity starts at a `B-` tag, or at an `I-` tag whose type is
/// not the previous token's (after `O`, another type, or a new document).
fn hipe_entities(path: &Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).expect("read");
    let mut lines = text.lines().filter(|l| !l.is_empty());
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = header
        .iter()
        .position(|c| *c == "NE-COARSE-LIT")
        .expect("column");
    let mut out = BTreeMap::new();
    let mut prev = String::new();
    for l in lines {
        if l.starts_with('#') {
            if l.contains("document_id") {
                prev.clear();
            }
            continue;
        }
        let tag = l.split('\t').nth(col).unwrap_or("").to_uppercase();
        let (b, ty) = match (tag.strip_prefix("B-"), tag.strip_prefix("I-")) {
            (Some(t), _) => (true, t.to_string()),
            (None, Some(t)) => (false, t.to_string()),
            _ => (false, String::new()),
        };
        if !ty.is_empty() && (b || ty != prev) {
            *out.entry(ty.clone()).or_insert(0) += 1;
        }
        prev = ty;
    }
    out
}

/// The `adequacy` rows of a JSON result: label → (gold, marks, width, sparse).
fn adequacy(v: &Value) -> BTreeMap<String, (u64, u64, Option<f64>, u64)> {
    json_table(v, "adequacy")["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = &r["scores"];
            let n = |c: &str| s[c].as_u64().expect("count");
            (
                r["key"]["label"].as_str().expect("label").to_string(),
                (
                    n("gold"),
                    n("marks"),
                    s.get("width").and_then(Value::as_f64),
                    n("sparse"),
                ),
            )
        })
        .collect()
}

fn expected_marks(n: u64) -> (u64, u64) {
    let marks = u64::from(n >= 100) + u64::from(n >= 1000);
    (marks, u64::from(n < 100))
}

#[test]
fn gold_counts_equal_the_b_tags_in_every_span_family() {
    let Some(data) = shared_data("adequacy") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_de_1.tsv");
    let want = hipe_entities(&gold);
    assert!(want.values().any(|n| *n >= 1000) && want.values().any(|n| *n < 100));
    let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
    let commands: [Vec<&str>; 4] = [
        vec!["evaluate", "--family", "spans"],
        vec!["fair"],
        vec!["muc"],
        vec![
            "evaluate",
            "--family",
            "hipe",
            "--hipe-edition",
            "hipe-2022",
        ],
    ];
    for cmd in commands {
        let mut args = cmd.clone();
        args.extend(["--gold", &g, "--pred", &r, "--json", "-"]);
        let v = fairscore_json(&args);
        let got = adequacy(&v);
        let counts: BTreeMap<String, u64> = got.iter().map(|(l, x)| (l.clone(), x.0)).collect();
        assert_eq!(counts, want, "{cmd:?}");
        for (l, (n, marks, width, sparse)) in &got {
            assert_eq!((*marks, *sparse), expected_marks(*n), "{cmd:?} {l}");
            assert_eq!(*width, None, "no resampling, no width");
        }
        // Without resampling the table has no width column.
        let names: Vec<&str> = json_table(&v, "adequacy")["columns"]
            .as_array()
            .expect("columns")
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(names, ["gold", "marks", "sparse"], "{cmd:?}");
    }
}

#[test]
fn brat_gold_counts_equal_its_t_lines() {
    let Some(data) = shared_data("adequacy") else {
        return;
    };
    let p = data.join("brat/bratiaa-example/example-project");
    let (g, r) = (p.join("Lisa"), p.join("Maria"));
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for e in std::fs::read_dir(&g).expect("dir") {
        let path = e.expect("entry").path();
        if path.extension().is_none_or(|x| x != "ann") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        for l in text.lines().filter(|l| l.starts_with('T')) {
            let label = l.split('\t').nth(1).and_then(|m| m.split(' ').next());
            *want.entry(label.expect("label").to_string()).or_insert(0) += 1;
        }
    }
    assert!(!want.is_empty());
    for family in ["spans", "fair", "muc"] {
        let v = fairscore_json(&[
            "evaluate",
            "--family",
            family,
            "--gold",
            &g.to_string_lossy(),
            "--pred",
            &r.to_string_lossy(),
            "--json",
            "-",
        ]);
        let got: BTreeMap<String, u64> = adequacy(&v).into_iter().map(|(l, x)| (l, x.0)).collect();
        assert_eq!(got, want, "{family}");
    }
}

/// A CoNLL gold of sentences `Name_k is here .`, `n` of them for each (label, n), and a run
/// that finds every other one.
fn synthetic(labels: &[(&str, usize)]) -> (String, String) {
    let (mut gold, mut run) = (String::new(), String::new());
    let mut k = 0;
    for (label, n) in labels {
        for i in 0..*n {
            k += 1;
            let hit = i % 2 == 0;
            gold.push_str(&format!(
                "-DOCSTART- O\n\nName{k} B-{label}\nis O\nhere O\n\n"
            ));
            let tag = if hit {
                format!("B-{label}")
            } else {
                "O".into()
            };
            run.push_str(&format!("-DOCSTART- O\n\nName{k} {tag}\nis O\nhere O\n\n"));
        }
    }
    (gold, run)
}

#[test]
fn marks_and_flag_flip_at_100_and_1000_and_the_width_is_the_interval() {
    let dir = temp_dir("adequacy-flip");
    let (gold, run) = synthetic(&[("AAA", 99), ("BBB", 100), ("CCC", 999), ("DDD", 1000)]);
    let g = write_file(&dir, "gold.conll", &gold);
    let r = write_file(&dir, "run.conll", &run);
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &g,
        "--pred",
        &r,
        "--bootstrap",
        "200",
        "--json",
        "-",
    ]);
    let got = adequacy(&v);
    let flags: Vec<(u64, u64, u64)> = got.values().map(|x| (x.0, x.1, x.3)).collect();
    assert_eq!(
        flags,
        [(99, 0, 1), (100, 1, 0), (999, 1, 0), (1000, 2, 0)],
        "gold, marks, sparse"
    );
    let strict = json_table(&v, "strict")["rows"]
        .as_array()
        .expect("rows")
        .clone();
    for (label, (_, _, width, _)) in &got {
        let row = strict
            .iter()
            .find(|x| x["key"]["label"] == label.as_str())
            .expect("row");
        let ci = row["ci"]["F1"].as_array().expect("F1 interval");
        let w = ci[1].as_f64().expect("hi") - ci[0].as_f64().expect("lo");
        let width = width.expect("a width with resampling");
        assert!((width - w).abs() < 1e-12, "{label}: {width} vs {w}");
        assert!(
            width > 0.0,
            "{label}: half the mentions found, a real interval"
        );
    }
    // The sparser label has the wider interval.
    assert!(got["AAA"].2 > got["DDD"].2);
}
