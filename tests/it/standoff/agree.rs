//! `fairscore agree` reproduces bratiaa 0.1.4: every mean and SD of its instance- and
//! token-based reports on its example project (../shared/data/brat/bratiaa-example), read
//! from the Markdown reports bratiaa wrote; and the CLI on the tiny project of tests/data.

use std::path::Path;

use fairscore::eval::agreement;
use fairscore::eval::brat_project;
use fairscore::table::{Results, Value};

/// `(section, key, mean, sd)` of a bratiaa Markdown report, numbers as printed.
fn report_numbers(text: &str) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("## ") {
            section = s.trim().to_string();
        } else if line.starts_with('|') && !line.starts_with("|--") {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells.len() == 3 && cells[1] != "Mean F1" {
                out.push((
                    section.clone(),
                    cells[0].into(),
                    cells[1].into(),
                    cells[2].into(),
                ));
            }
        } else if let Some(rest) = line.strip_prefix("* Mean F1: ") {
            if let Some((m, sd)) = rest.split_once(", SD F1: ") {
                out.push((
                    section.clone(),
                    "ALL".into(),
                    m.trim().into(),
                    sd.trim().into(),
                ));
            }
        }
    }
    out
}

fn cell(r: &Results, table: &str, key: &str, col: &str) -> Option<f64> {
    let t = r.table(table)?;
    t.row(&[key])?.values[t.column(col)?].as_f64()
}

#[test]
fn reproduces_bratiaa_reports() {
    let Some(shared) = crate::common::shared_data("agree::reproduces_bratiaa_reports") else {
        return;
    };
    let dir = shared.join("brat/bratiaa-example");
    let project = brat_project(&dir.join("example-project")).expect("read the example project");
    assert_eq!(project.annotators, ["Lisa", "Maria", "Max", "Peter"]);
    assert_eq!(project.labels, ["LOC", "MISC", "ORG", "PER"]);
    let r = agreement(&project);
    let mut compared = 0;
    for how in ["instance", "token"] {
        let text = std::fs::read_to_string(dir.join(format!("{how}-agreement-report.md")))
            .expect("bratiaa's report");
        let numbers = report_numbers(&text);
        assert_eq!(numbers.len(), 7 + 4 + 1, "{how}: rows of the report");
        for (section, key, mean, sd) in numbers {
            let table = match section.as_str() {
                "Agreement per Document" => format!("{how}-documents"),
                _ => format!("{how}-labels"),
            };
            for (col, want) in [("mean F1", mean), ("SD F1", sd)] {
                let got = cell(&r, &table, &key, col)
                    .unwrap_or_else(|| panic!("{how}: no {col} for {key} in {table}"));
                assert_eq!(
                    format!("{got:.3}"),
                    want,
                    "{how} {section} {key} {col}: {got}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 48);
    // Token-based agreement is higher than instance-based for Max (long spans).
    let m = r.table("matrix-token").expect("matrix");
    assert_eq!(m.rows.len(), 4);
    assert_eq!(m.rows[2].values[2], Value::Ratio(1.0));
}

fn tiny() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brat-tiny")
}

#[test]
fn tiny_project_counts_and_skips_non_entities() {
    let p = brat_project(&tiny()).expect("tiny project");
    assert_eq!(p.annotators, ["ann1", "ann2", "ann3"]);
    assert_eq!(p.documents, ["doc1.ann", "doc2.ann"]);
    // Relations, attributes, notes and normalizations are not entities.
    assert_eq!(p.docs[0][0].as_ref().map(|d| d.spans.len()), Some(6));
    let r = agreement(&p);
    let pairs = r.table("instance-pairs").expect("pairs");
    let row = pairs.row(&["ann1", "ann3"]).expect("ann1-ann3");
    // doc1: 4 of 6 identical (the discontinuous Anna+Berg and The Nordic Bank differ); doc2 all.
    assert_eq!(
        row.values[..3],
        [Value::Count(8), Value::Count(2), Value::Count(2)]
    );
    let tok = r.table("token-pairs").expect("token pairs");
    let row = tok.row(&["ann1", "ann3"]).expect("ann1-ann3");
    // Tokens: "The" is the only extra ORG token of ann3.
    assert_eq!(
        row.values[..3],
        [Value::Count(13), Value::Count(1), Value::Count(0)]
    );
    let errors = r.table("errors").expect("errors");
    let row = errors.row(&["ann1", "ann2"]).expect("ann1-ann2");
    let col = |n: &str| row.values[errors.column(n).expect("column")];
    assert_eq!(col("LE"), Value::Count(2)); // Nordic Bank ORG/LOC, Lima LOC/ORG
    assert_eq!(col("BES"), Value::Count(1)); // Carl Dahl / Carl
    assert!(r.table("coefficients").is_some());
}

#[test]
fn cli_writes_every_table_format() {
    let dir = tiny();
    let d = dir.to_string_lossy();
    for table in ["text", "json", "html", "markdown"] {
        let out = crate::common::fairscore(&["agree", "--project", &d, "--table", table]);
        assert!(
            out.status.success(),
            "{table}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(s.contains("ann3"), "{table}");
        assert!(!s.contains("NaN") && !s.contains("inf"), "{table}");
    }
    let a = dir.join("ann1/doc1.ann");
    let b = dir.join("ann2/doc1.ann");
    let out = crate::common::fairscore(&[
        "agree",
        "--annotator",
        &a.to_string_lossy(),
        "--annotator",
        &b.to_string_lossy(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = crate::common::fairscore(&["agree", "--annotator", &a.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
}

/// Every malformed input is refused with exit status 3 and a message naming the file and
/// line (or the file, for a missing .txt).
#[test]
fn malformed_inputs_are_refused_with_file_and_line() {
    let dir = crate::common::temp_dir("agree_malformed");
    let text = "Anna met Bob.\n";
    let good = dir.join("good.ann");
    std::fs::write(&good, "T1\tPER 0 4\tAnna\n").expect("write");
    std::fs::write(dir.join("good.txt"), text).expect("write");
    let cases: &[(&str, &str, Option<&str>, &str)] = &[
        (
            "range.ann",
            "T1\tPER 0 4\tAnna\nT2\tPER 9 99\tBob\n",
            Some(text),
            "range.ann:2: span 9-99 is beyond",
        ),
        (
            "reversed.ann",
            "T1\tPER 4 0\tAnna\n",
            Some(text),
            "reversed.ann:1: span end 0 is before",
        ),
        (
            "mismatch.ann",
            "T1\tPER 0 4\tAnne\n",
            Some(text),
            "mismatch.ann:1: text mismatch",
        ),
        (
            "dup.ann",
            "T1\tPER 0 4\tAnna\nT1\tPER 9 12\tBob\n",
            Some(text),
            "dup.ann:2: duplicate id \"T1\"",
        ),
        (
            "notext.ann",
            "T1\tPER 0 4\tAnna\n",
            None,
            "notext.ann: missing text file",
        ),
        (
            "bad.jsonl",
            "{\"text\": \"Anna\", \"labels\": [[0, 4, \"PER\"]]}\n{\"text\": \n",
            None,
            "bad.jsonl:2: bad JSON",
        ),
        (
            "off.jsonl",
            "{\"text\": \"Anna\", \"spans\": [{\"start\": 0, \"end\": 7, \"label\": \"PER\"}]}\n",
            None,
            "off.jsonl:1: span 0-7 is beyond",
        ),
    ];
    for (name, content, txt, want) in cases {
        let p = dir.join(name);
        std::fs::write(&p, content).expect("write");
        if let Some(t) = txt {
            std::fs::write(p.with_extension("txt"), t).expect("write");
        }
        let other = if name.ends_with(".jsonl") {
            let q = dir.join("other.jsonl");
            std::fs::write(&q, "{\"text\": \"Anna\", \"labels\": []}\n").expect("write");
            q
        } else {
            good.clone()
        };
        let out = crate::common::fairscore(&[
            "agree",
            "--annotator",
            &other.to_string_lossy(),
            "--annotator",
            &p.to_string_lossy(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
    }
    // A brat file given to a family that reads token files is refused, not read as text.
    let out = crate::common::fairscore(&[
        "evaluate",
        "--family",
        "segmentation",
        "--gold",
        &good.to_string_lossy(),
        "--pred",
        &good.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("standoff annotation")
            && err.contains("segmentation family reads token files"),
        "{err}"
    );
}

/// The same annotations exported as doccano, Prodigy and Label Studio JSON give the same
/// agreement tables as the brat files.
#[test]
fn json_exports_agree_with_brat() {
    use serde_json::json;
    let dir = crate::common::temp_dir("agree_json");
    let tiny = tiny();
    let mut paths: Vec<Vec<String>> = vec![Vec::new(); 4];
    for ann in ["ann1", "ann2"] {
        let docs = fairscore::formats::read_brat_dir(&tiny.join(ann)).expect("brat");
        paths[0].push(tiny.join(ann).to_string_lossy().into_owned());
        let mut doccano = String::new();
        let mut prodigy = String::new();
        let mut studio = Vec::new();
        for d in &docs {
            // Discontinuous spans cannot be written in these formats; the tiny ann1/ann2 have none.
            let triples: Vec<(usize, usize, &str)> = d
                .spans
                .iter()
                .map(|s| (s.fragments[0].0, s.fragments[0].1, s.label.as_str()))
                .collect();
            let labels: Vec<_> = triples.iter().map(|t| json!([t.0, t.1, t.2])).collect();
            doccano.push_str(&format!(
                "{}\n",
                json!({"id": d.name, "text": d.text, "labels": labels})
            ));
            let spans: Vec<_> = triples
                .iter()
                .map(|t| json!({"start": t.0, "end": t.1, "label": t.2}))
                .collect();
            prodigy.push_str(&format!(
                "{}\n",
                json!({"id": d.name, "text": d.text, "spans": spans})
            ));
            // Label Studio counts UTF-16 units; the tiny texts are ASCII.
            let result: Vec<_> = triples
                .iter()
                .map(|t| json!({"type": "labels", "value": {"start": t.0, "end": t.1, "labels": [t.2]}}))
                .collect();
            studio.push(json!({"id": d.name, "data": {"text": d.text}, "annotations": [{"result": result}]}));
        }
        for (i, (ext, body)) in [
            ("doccano.jsonl", doccano),
            ("prodigy.jsonl", prodigy),
            ("studio.json", serde_json::to_string(&studio).expect("json")),
        ]
        .into_iter()
        .enumerate()
        {
            let sub = dir.join(ext);
            std::fs::create_dir_all(&sub).expect("mkdir");
            let suffix = if ext == "studio.json" {
                "json"
            } else {
                "jsonl"
            };
            let p = sub.join(format!("{ann}.{suffix}"));
            std::fs::write(&p, body).expect("write");
            paths[i + 1].push(p.to_string_lossy().into_owned());
        }
    }
    let tables = |files: &[String]| -> serde_json::Value {
        let out = crate::common::fairscore(&[
            "agree",
            "--annotator",
            &files[0],
            "--annotator",
            &files[1],
            "--json",
            "-",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        v["tables"].clone()
    };
    let brat = tables(&paths[0]);
    for files in &paths[1..] {
        assert_eq!(tables(files), brat, "{files:?}");
    }
}

/// annotation.conf is read as brat reads it: `[spans]` is `[entities]`, the first of
/// `TERM|ALIAS` is the type, `!` marks an abstract type, the storage form replaces other
/// characters by `_`; an annotator folder may be a symbolic link.
#[test]
fn annotation_conf_as_brat_reads_it_and_linked_annotators() {
    let dir = crate::common::temp_dir("agree_conf");
    crate::common::copy_dir(&tiny(), &dir);
    std::fs::write(
        dir.join("annotation.conf"),
        "[spans]\n!Named\n\tPER|Person|P\tArg:<ENTITY>\n\tLOC\n----\nORG|Organisation\nTime x\n\
         Misc.Type\n[relations]\nWorksFor\tArg1:PER, Arg2:ORG\n",
    )
    .unwrap();
    // ann3 replaced by a link to a copy elsewhere.
    let elsewhere = crate::common::temp_dir("agree_conf_linked");
    std::fs::rename(dir.join("ann3"), elsewhere.join("ann3")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("ann3"), dir.join("ann3")).unwrap();
    let p = brat_project(&dir).expect("project");
    assert_eq!(p.annotators, ["ann1", "ann2", "ann3"]);
    assert_eq!(
        p.labels,
        ["LOC", "Misc_Type", "Named", "ORG", "PER", "Time"]
    );
    assert!(
        p.warnings.iter().all(|w| !w.contains("not declared")),
        "{:?}",
        p.warnings
    );
    let tiny_p = brat_project(&tiny()).expect("tiny");
    let (a, b) = (agreement(&p), agreement(&tiny_p));
    let all = |r: &Results| cell(r, "instance-labels", "ALL", "mean F1");
    assert_eq!(all(&a), all(&b));
    assert!(all(&a).is_some());
}

/// Two annotator files, one holding two documents and one holding one: documents are paired
/// by name (only files of one document each are paired whatever their names).
#[test]
fn annotator_files_pair_documents_by_name_unless_all_hold_one() {
    let dir = crate::common::temp_dir("agree_files_by_name");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    std::fs::write(
        &a,
        "{\"id\": \"d1\", \"text\": \"Anna in Oslo\", \"labels\": [[0, 4, \"PER\"], [8, 12, \"LOC\"]]}\n\
         {\"id\": \"d2\", \"text\": \"Carl\", \"labels\": [[0, 4, \"PER\"]]}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "{\"id\": \"d2\", \"text\": \"Carl\", \"labels\": [[0, 4, \"PER\"]]}\n",
    )
    .unwrap();
    let v = crate::common::fairscore_json(&[
        "agree",
        "--annotator",
        a.to_str().unwrap(),
        "--annotator",
        b.to_str().unwrap(),
        "--json",
        "-",
    ]);
    let pairs = crate::common::json_table(&v, "instance-pairs");
    let row = &pairs["rows"][0]["scores"];
    // d2 is paired (TP 1); d1 is b's missing document, not a disagreement.
    assert_eq!(row["TP"], 1, "{pairs}");
    assert_eq!(row["FP"], 0, "{pairs}");
    assert_eq!(row["FN"], 0, "{pairs}");
}

/// No output is written into an input directory or over the `.txt` of an input `.ann`.
#[test]
fn outputs_never_land_in_input_directories() {
    let dir = crate::common::temp_dir("agree_outputs");
    crate::common::copy_dir(&tiny(), &dir);
    let d = dir.to_string_lossy().into_owned();
    let before = std::fs::read(dir.join("ann1/doc1.ann")).unwrap();
    let g = dir.join("ann1");
    let r = dir.join("ann2");
    let cases: Vec<Vec<String>> = vec![
        vec![
            "agree".into(),
            "--project".into(),
            d.clone(),
            "--json".into(),
            format!("{d}/ann1/doc1.ann"),
        ],
        vec![
            "agree".into(),
            "--project".into(),
            d.clone(),
            "--json".into(),
            format!("{d}/new.json"),
        ],
        vec![
            "evaluate".into(),
            "--family".into(),
            "spans".into(),
            "--gold".into(),
            g.to_string_lossy().into(),
            "--pred".into(),
            r.to_string_lossy().into(),
            "--json".into(),
            format!("{d}/ann1/doc1.ann"),
        ],
        vec![
            "fair".into(),
            "--target".into(),
            format!("{d}/ann1/doc1.ann"),
            "--system".into(),
            format!("{d}/ann2/doc1.ann"),
            "--errors".into(),
            format!("{d}/ann1/doc1.txt"),
        ],
    ];
    for args in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = crate::common::fairscore(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("never writes"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(dir.join("ann1/doc1.ann")).unwrap(), before);
    assert!(std::fs::read_to_string(dir.join("ann1/doc1.txt"))
        .unwrap()
        .starts_with("Anna"));
    assert!(!dir.join("new.json").exists());
}
