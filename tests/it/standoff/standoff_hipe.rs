//! Standoff files against HIPE TSV, `--format` forcing a standoff layout, discontinuous spans
//! sharing a range, and the character-offset listing of `fair --errors`.
//!
//! The bundled HIPE-2022 sample (tests/data/hipe2022-ajmc-en) is written out here as standoff
//! documents: each document's tokens joined by a space (none after `NoSpaceAfter`, a line break
//! after `EndOfLine`/`EndOfSentence`), its IOB entities as character offsets. Scored as
//! standoff, as standoff against the HIPE TSV itself (aligned through the text), and as HIPE
//! TSV, the spans and fair families give the same tables.

use std::path::{Path, PathBuf};

use crate::common::{evaluate_tables as scores, fairscore, temp_dir};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hipe2022-ajmc-en")
        .join(name)
}

/// A document: name, text, spans `(start, end, label)` in characters.
struct Doc {
    name: String,
    text: String,
    spans: Vec<(usize, usize, String)>,
}

/// The documents of a HIPE file with the entities of `column`, on the texts of `texts` (the
/// gold's) when given. An `I-X` continues an open `X` entity and otherwise starts one.
fn hipe_docs(path: &Path, column: &str, texts: Option<&[Doc]>) -> Vec<Doc> {
    let data = std::fs::read_to_string(path).unwrap();
    let mut lines = data.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = header.iter().position(|c| *c == column).unwrap();
    let misc = header.iter().position(|c| *c == "MISC").unwrap();
    let mut docs: Vec<Doc> = Vec::new();
    let mut open: Option<(usize, usize, String)> = None;
    let mut sep = "";
    let close = |docs: &mut Vec<Doc>, open: &mut Option<(usize, usize, String)>| {
        if let (Some(e), Some(d)) = (open.take(), docs.last_mut()) {
            d.spans.push(e);
        }
    };
    for line in lines {
        if let Some(id) = line.split("document_id = ").nth(1) {
            close(&mut docs, &mut open);
            docs.push(Doc {
                name: id.trim().to_string(),
                text: String::new(),
                spans: Vec::new(),
            });
            sep = "";
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let d = docs.last_mut().unwrap();
        d.text.push_str(sep);
        let start = d.text.chars().count();
        d.text.push_str(cells[0]);
        let end = d.text.chars().count();
        let tag = cells[col];
        let (prefix, label) = tag.split_once('-').unwrap_or((tag, ""));
        match (prefix, &mut open) {
            ("I", Some(o)) if o.2 == label => o.1 = end,
            ("B" | "I", _) => {
                close(&mut docs, &mut open);
                open = Some((start, end, label.to_string()));
            }
            _ => close(&mut docs, &mut open),
        }
        let m = cells[misc];
        sep = if m.contains("EndOfLine") || m.contains("EndOfSentence") {
            "\n"
        } else if m.contains("NoSpaceAfter") {
            ""
        } else {
            " "
        };
    }
    close(&mut docs, &mut open);
    if let Some(t) = texts {
        assert_eq!(t.len(), docs.len());
        for (d, g) in docs.iter_mut().zip(t) {
            assert_eq!(d.text, g.text, "the run's tokens are the gold's");
            d.name = g.name.clone();
        }
    }
    docs
}

fn write_brat(dir: &Path, docs: &[Doc]) {
    std::fs::create_dir_all(dir).unwrap();
    for d in docs {
        let mut ann = String::new();
        for (k, (s, e, l)) in d.spans.iter().enumerate() {
            let covered: String = d.text.chars().skip(*s).take(e - s).collect();
            let covered = covered.replace('\n', " ");
            ann.push_str(&format!("T{}\t{l} {s} {e}\t{covered}\n", k + 1));
        }
        std::fs::write(dir.join(format!("{}.ann", d.name)), ann).unwrap();
        std::fs::write(dir.join(format!("{}.txt", d.name)), &d.text).unwrap();
    }
}

fn write_doccano(path: &Path, docs: &[Doc]) {
    let mut out = String::new();
    for d in docs {
        let labels: Vec<serde_json::Value> = d
            .spans
            .iter()
            .map(|(s, e, l)| serde_json::json!([s, e, l]))
            .collect();
        let v = serde_json::json!({"id": d.name, "text": d.text, "labels": labels});
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

/// The tables with every row key upper-cased (both sides of a comparison): HIPE TSV scoring
/// upper-cases labels as the official scorer does; standoff files keep them as written.
fn upper(mut v: serde_json::Value) -> serde_json::Value {
    for t in v["tables"].as_array_mut().into_iter().flatten() {
        for r in t["rows"].as_array_mut().into_iter().flatten() {
            for k in ["label", "run_label"] {
                if let Some(l) = r["key"][k].as_str() {
                    r["key"][k] = l.to_uppercase().into();
                }
            }
        }
        // fair's confusion of labels is ordered by the labels as read: put it in the order
        // of the upper-cased ones.
        if t["name"] == "confusion" {
            if let Some(rows) = t["rows"].as_array_mut() {
                rows.sort_by_key(|r| r["key"].to_string());
            }
        }
    }
    v
}

/// TP, FP and FN of the ALL row of table `t`.
fn counts(v: &serde_json::Value, t: usize) -> (f64, f64, f64) {
    let s = &v["tables"][t]["rows"][0]["scores"];
    let f = |k: &str| s[k].as_f64().unwrap();
    (f("TP"), f("FP"), f("FN"))
}

#[test]
fn standoff_against_hipe_tsv_scores_as_hipe_tsv() {
    let dir = temp_dir("standoff_hipe");
    let gold_tsv = sample("HIPE-2022-v2.1-ajmc-test-en.tsv");
    let run_tsv = sample("neurbsl_bundle3_ajmc_en_1.tsv");
    // A run without document ids: aligned through the text all the same.
    let bare_tsv = sample("team2_bundle1_ajmc_en_1.tsv");
    for column in ["NE-COARSE-LIT", "NE-FINE-LIT"] {
        let gold = hipe_docs(&gold_tsv, column, None);
        let pred = hipe_docs(&run_tsv, column, Some(&gold));
        let n_spans: usize = gold.iter().map(|d| d.spans.len()).sum();
        assert!(
            gold.len() == 13 && n_spans > 100,
            "{} {n_spans}",
            gold.len()
        );
        let sub = dir.join(column);
        write_brat(&sub.join("gold"), &gold);
        write_brat(&sub.join("run"), &pred);
        write_doccano(&sub.join("run.jsonl"), &pred);
        let col = ["--column", column];
        for family in ["spans", "fair", "muc"] {
            let want = upper(scores(family, &gold_tsv, &run_tsv, &col));
            assert_eq!(want["unit"], "document");
            assert_eq!(want["units"], 13);
            for (g, p) in [
                (sub.join("gold"), sub.join("run")),
                (sub.join("gold"), run_tsv.clone()),
                (gold_tsv.clone(), sub.join("run.jsonl")),
            ] {
                // muc judges tokens: between two standoff files they are the text's
                // whitespace tokens, not the TSV's (glued by NoSpaceAfter), so only a TSV
                // side gives the TSV's counts.
                if family == "muc" && g.is_dir() && p.is_dir() {
                    continue;
                }
                let got = upper(scores(family, &g, &p, &col));
                assert_eq!(got, want, "{family} {column} {g:?} {p:?}");
            }
            let want = upper(scores(family, &gold_tsv, &bare_tsv, &col));
            let got = upper(scores(family, &sub.join("gold"), &bare_tsv, &col));
            assert_eq!(got, want, "{family} {column} run without document ids");
        }
    }
    // A column the HIPE side lacks is an error naming the file.
    let out = fairscore(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        dir.join("NE-COARSE-LIT/gold").to_str().unwrap(),
        "--pred",
        run_tsv.to_str().unwrap(),
        "--column",
        "NE-NOPE",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("neurbsl_bundle3_ajmc_en_1.tsv") && err.contains("no column \"NE-NOPE\""),
        "{err}"
    );
}

/// `--format` decides how a JSONL line is read: doccano's `labels` or Prodigy's `spans`.
#[test]
fn format_forces_the_standoff_layout() {
    let dir = temp_dir("standoff_format");
    let line = |labels: &str, spans: &str| {
        format!(
            "{{\"id\": \"a\", \"text\": \"Anna met Carl\", \"labels\": {labels}, \"spans\": {spans}}}\n"
        )
    };
    let gold = dir.join("gold.json");
    let pred = dir.join("run.json");
    std::fs::write(
        &gold,
        line(
            r#"[[0, 4, "PER"], [9, 13, "PER"]]"#,
            r#"[{"start": 0, "end": 4, "label": "PER"}]"#,
        ),
    )
    .unwrap();
    std::fs::write(
        &pred,
        line(
            r#"[[0, 4, "PER"]]"#,
            r#"[{"start": 0, "end": 4, "label": "PER"}]"#,
        ),
    )
    .unwrap();
    let strict = |format: &str| counts(&scores("spans", &gold, &pred, &["--format", format]), 0);
    // doccano: gold Anna, Carl; run Anna. Prodigy: Anna on both sides.
    assert_eq!(strict("doccano"), (1.0, 0.0, 1.0));
    assert_eq!(strict("prodigy"), (1.0, 0.0, 0.0));
    // fair takes the same flag; a family without standoff reading refuses it.
    let v = scores("fair", &gold, &pred, &["--format", "doccano"]);
    assert_eq!(counts(&v, 0), (1.0, 0.0, 1.0), "{v}");
    let out = fairscore(&[
        "evaluate",
        "--family",
        "tagging",
        "--gold",
        gold.to_str().unwrap(),
        "--pred",
        pred.to_str().unwrap(),
        "--format",
        "brat",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("format brat: the tagging family reads"),
        "{err}"
    );
}

/// Spans are told apart by identity, not by range: a discontinuous gold span and a contiguous
/// one over the same range each keep their own positions.
#[test]
fn discontinuous_spans_sharing_a_range() {
    let dir = temp_dir("standoff_shared_range");
    let text = "Nord and Oslo";
    for side in ["g", "p"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
        std::fs::write(dir.join(side).join("a.txt"), text).unwrap();
    }
    // Gold: LOC over "Nord … Oslo" (two fragments) and ORG over all of it; run: LOC over all.
    std::fs::write(
        dir.join("g/a.ann"),
        "T1\tLOC 0 4;9 13\tNord Oslo\nT2\tORG 0 13\tNord and Oslo\n",
    )
    .unwrap();
    std::fs::write(dir.join("p/a.ann"), "T1\tLOC 0 13\tNord and Oslo\n").unwrap();
    let v = scores("spans", &dir.join("g"), &dir.join("p"), &[]);
    let row = |t: usize| counts(&v, t);
    // strict: the run LOC is not the gold LOC (other positions), nor the ORG (other label):
    // incorrect against the LOC, the ORG missed. ent_type: LOC correct. exact: as strict.
    assert_eq!(row(0), (0.0, 1.0, 2.0), "{v}");
    assert_eq!(row(1), (1.0, 0.0, 1.0), "{v}");
    assert_eq!(row(3), (0.0, 1.0, 2.0), "{v}");
    // Run ORG over all: strict and exact correct against the gold ORG (same positions).
    std::fs::write(dir.join("p/a.ann"), "T1\tORG 0 13\tNord and Oslo\n").unwrap();
    let v = scores("spans", &dir.join("g"), &dir.join("p"), &[]);
    assert_eq!(counts(&v, 0), (1.0, 0.0, 1.0), "{v}");
    assert_eq!(counts(&v, 3), (1.0, 0.0, 1.0), "{v}");
    // Gold LOC discontinuous only, run ORG over its range: exact needs the same positions too.
    std::fs::write(dir.join("g/a.ann"), "T1\tLOC 0 4;9 13\tNord Oslo\n").unwrap();
    let v = scores("spans", &dir.join("g"), &dir.join("p"), &[]);
    assert_eq!(counts(&v, 3), (0.0, 1.0, 1.0), "{v}");
}

/// `fair --errors` lists standoff spans by character offsets (code points) with the
/// document's text; a brat gold against a CoNLL run.
#[test]
fn fair_listing_of_standoff_spans() {
    let dir = temp_dir("standoff_listing");
    std::fs::create_dir_all(dir.join("g")).unwrap();
    let text = "Zürich 😀 Nord and Oslo";
    std::fs::write(dir.join("g/a.txt"), text).unwrap();
    std::fs::write(
        dir.join("g/a.ann"),
        "T1\tLOC 0 6\tZürich\nT2\tLOC 9 13;18 22\tNord Oslo\n",
    )
    .unwrap();
    let conll = dir.join("run.conll");
    std::fs::write(
        &conll,
        "Zürich B-ORG\n😀 O\nNord B-LOC\nand I-LOC\nOslo I-LOC\n",
    )
    .unwrap();
    let errors = dir.join("errors.tsv");
    let out = fairscore(&[
        "fair",
        "--target",
        dir.join("g").to_str().unwrap(),
        "--system",
        conll.to_str().unwrap(),
        "--errors",
        errors.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listing = std::fs::read_to_string(&errors).unwrap();
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(
        lines[0],
        "unit\tside\tline\tstart\tend\tlabel\ttype\ttraditional\tpartners\ttext"
    );
    assert!(
        lines.contains(&"a\ttarget\t1\t0\t6\tLOC\tLE\tFN\tORG[0-6]\tZürich"),
        "{listing}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("a\ttarget\t2\t9\t22\tLOC\t") && l.ends_with("\tNord … Oslo")),
        "{listing}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("a\tsystem\t3\t9\t22\tLOC\t") && l.ends_with("\tNord and Oslo")),
        "{listing}"
    );
}

/// A campaign of standoff runs: a brat gold directory, runs as brat directories and JSONL
/// files, ranked by the numbers `evaluate` gives each run.
#[test]
fn campaign_of_standoff_runs() {
    let dir = temp_dir("standoff_campaign");
    let gold = hipe_docs(
        &sample("HIPE-2022-v2.1-ajmc-test-en.tsv"),
        "NE-COARSE-LIT",
        None,
    );
    let a = hipe_docs(
        &sample("neurbsl_bundle3_ajmc_en_1.tsv"),
        "NE-COARSE-LIT",
        Some(&gold),
    );
    write_brat(&dir.join("gold/ajmc"), &gold);
    write_brat(&dir.join("runs/neurbsl_1"), &a);
    write_doccano(&dir.join("runs/other_1.jsonl"), &gold);
    // Not a run: a directory without .ann files.
    std::fs::create_dir_all(dir.join("runs/notes")).unwrap();
    let toml = dir.join("c.toml");
    std::fs::write(
        &toml,
        "name = \"standoff\"\n[[task]]\nname = \"NER\"\nfamily = \"spans\"\ngold = \"ajmc\"\nruns = \"{team}_{run}\"\n",
    )
    .unwrap();
    let out = fairscore(&[
        "leaderboard",
        "--campaign",
        toml.to_str().unwrap(),
        "--gold-dir",
        dir.join("gold").to_str().unwrap(),
        "--runs-dir",
        dir.join("runs").to_str().unwrap(),
        "--outdir",
        dir.join("site").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("2 runs ranked"), "{err}");
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("site/leaderboard.json")).unwrap())
            .unwrap();
    let rows = board["tables"][0]["rows"].as_array().unwrap().clone();
    let f1 = |system: &str| {
        rows.iter()
            .find(|r| r["system"] == system)
            .map(|r| r["scores"]["F1"].as_f64().unwrap())
    };
    // The gold itself scores 1 (the system is named without the extension of the file);
    // the brat run what evaluate gives it.
    assert_eq!(f1("other_1"), Some(1.0), "{rows:?}");
    let v = scores(
        "spans",
        &dir.join("gold/ajmc"),
        &dir.join("runs/neurbsl_1"),
        &[],
    );
    let want = v["tables"][0]["rows"][0]["scores"]["F1"].as_f64();
    assert!(want.is_some_and(|w| w < 1.0), "{v}");
    assert_eq!(f1("neurbsl_1"), want, "{rows:?}");
}
