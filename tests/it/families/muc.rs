//! `fairscore muc`: the vendor guide's worked example (Appendix B, 13 tokens) counted and
//! scored exactly, F-beta and macro scores, the judgements listing, HIPE and CoNLL input
//! giving the same scores on a real HIPE-2022 run, and bad inputs through the binary.

use std::path::{Path, PathBuf};

use fairscore::family::evaluate_muc_files as evaluate_files;
use fairscore::family::MucCounts;
use fairscore::family::MucOptions;
use fairscore::family::MucResult;
use fairscore::formats::Format;
use fairscore::table::Results;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/muc")
        .join(name)
}

fn ext(format: Format) -> &'static str {
    if format == Format::Conll {
        "conll"
    } else {
        "tsv"
    }
}

/// The muc family's results on the guide example (Appendix B) with `beta`.
fn guide(format: Format, beta: f64) -> Results {
    let e = ext(format);
    muc_results(
        &fixture(&format!("guide_gold.{e}")),
        &fixture(&format!("guide_run.{e}")),
        &[("format", format.as_str()), ("beta", &beta.to_string())],
    )
    .unwrap_or_else(|e| panic!("guide example ({format:?}): {e}"))
}

/// The judgements of the guide example, as counts per unit and type.
fn guide_raw(format: Format) -> MucResult {
    let e = ext(format);
    let opts = MucOptions {
        format,
        ..MucOptions::default()
    };
    evaluate_files(
        &fixture(&format!("guide_gold.{e}")),
        &fixture(&format!("guide_run.{e}")),
        &opts,
    )
    .unwrap_or_else(|e| panic!("guide example ({e})"))
}

/// The muc family with options `opts` on two files.
fn muc_results(gold: &Path, run: &Path, opts: &[(&str, &str)]) -> fairscore::Result<Results> {
    let mut o = fairscore::family::Options::default();
    for (k, v) in opts {
        o.set(k, v)?;
    }
    let fam = fairscore::family::build("muc", &o)?;
    fairscore::family::evaluate(fam.as_ref(), gold, run, None)
}

fn counts(c: u64, i: u64, p: u64, m: u64, s: u64) -> MucCounts {
    MucCounts {
        correct: c,
        incorrect: i,
        partial: p,
        missing: m,
        spurious: s,
    }
}

/// A count cell of the muc table (present and whole).
fn count(r: &Results, row: &str, col: &str) -> u64 {
    let x = crate::common::cell(r, "muc", &[row], col)
        .unwrap_or_else(|| panic!("muc {row} {col}: missing"));
    assert_eq!(x, x.trunc(), "muc {row} {col}: {x}");
    x as u64
}

/// The five judgement counts of row `row` of the muc table; its POS and ACT columns must be
/// the guide's possible and actual of those counts.
fn row_counts(r: &Results, row: &str) -> MucCounts {
    let c = counts(
        count(r, row, "COR"),
        count(r, row, "INC"),
        count(r, row, "PAR"),
        count(r, row, "MIS"),
        count(r, row, "SPU"),
    );
    assert_eq!(count(r, row, "POS"), c.possible(), "{row} POS");
    assert_eq!(count(r, row, "ACT"), c.actual(), "{row} ACT");
    c
}

/// A score cell (P, R or F) of the muc table.
fn score(r: &Results, row: &str, col: &str) -> f64 {
    crate::common::cell(r, "muc", &[row], col).unwrap_or_else(|| panic!("muc {row} {col}: missing"))
}

/// The type rows of the muc table (every row but ALL and macro), in order.
fn types(r: &Results) -> Vec<String> {
    let t = r.table("muc").expect("muc table");
    let keys: Vec<String> = t.rows.iter().map(|row| row.key[0].clone()).collect();
    assert_eq!(keys.first().map(String::as_str), Some("ALL"), "{keys:?}");
    assert_eq!(keys.last().map(String::as_str), Some("macro"), "{keys:?}");
    keys[1..keys.len() - 1].to_vec()
}

/// The counts of every unit and type of a judgement, summed.
fn total(r: &MucResult) -> MucCounts {
    let mut sum = MucCounts::default();
    r.units
        .iter()
        .flat_map(|u| u.values())
        .for_each(|c| sum.merge(c));
    sum
}

/// `x` is the correctly rounded value of `num / den` (every score is one division).
fn exact(x: f64, num: f64, den: f64, what: &str) {
    assert_eq!(x, num / den, "{what}: {x} is not {num}/{den}");
}

#[test]
fn guide_appendix_b_counts_and_scores() {
    for format in [Format::Hipe, Format::Conll] {
        let r = guide(format, 1.0);
        let all = row_counts(&r, "ALL");
        // The guide: Correct 4, Incorrect 2, Partial 2, Missing 3, Spurious 2.
        assert_eq!(all, counts(4, 2, 2, 3, 2), "{format:?}");
        assert_eq!(all.possible(), 11);
        assert_eq!(all.actual(), 10);
        assert_eq!((count(&r, "ALL", "POS"), count(&r, "ALL", "ACT")), (11, 10));
        // R = (4 + 2/2) / 11 = 45.5 %, P = 5 / 10 = 50 %, F = 10 / 21 = 47.6 %.
        exact(score(&r, "ALL", "R"), 5.0, 11.0, "overall R");
        exact(score(&r, "ALL", "P"), 5.0, 10.0, "overall P");
        exact(score(&r, "ALL", "F"), 10.0, 21.0, "overall F");
        assert_eq!(format!("{:.1}", score(&r, "ALL", "R") * 100.0), "45.5");
        assert_eq!(format!("{:.1}", score(&r, "ALL", "F") * 100.0), "47.6");
        // PER: Correct 2, Incorrect 1, Partial 1, Missing 0, Spurious 1; possible 4, actual 5.
        let per = row_counts(&r, "PER");
        assert_eq!(per, counts(2, 1, 1, 0, 1));
        assert_eq!((per.possible(), per.actual()), (4, 5));
        exact(score(&r, "PER", "R"), 2.5, 4.0, "PER R");
        exact(score(&r, "PER", "P"), 2.5, 5.0, "PER P");
        exact(score(&r, "PER", "F"), 5.0, 9.0, "PER F");
        assert_eq!(format!("{:.1}", score(&r, "PER", "F") * 100.0), "55.6");
        // The other types: LOC tokens 10, 11 correct and token 6 partial (a run-only token of
        // a run LOC entity overlapping gold entities); ORG token 5 incorrect, 7-9 missing, 12
        // spurious.
        assert_eq!(row_counts(&r, "LOC"), counts(2, 0, 1, 0, 0));
        assert_eq!(row_counts(&r, "ORG"), counts(0, 1, 0, 3, 1));
        assert_eq!(types(&r), ["LOC", "ORG", "PER"]);
        // One document of 13 tokens.
        assert_eq!(r.units, 1);
        let raw = guide_raw(format);
        assert_eq!((raw.documents, raw.tokens), (1, 13));
        assert_eq!(total(&raw), all);
        // The per-type counts add up to the overall ones.
        let mut sum = MucCounts::default();
        types(&r).iter().for_each(|t| sum.merge(&row_counts(&r, t)));
        assert_eq!(sum, all);
    }
}

#[test]
fn f_beta_and_macro() {
    let r = guide(Format::Hipe, 2.0);
    assert!(
        r.notes.iter().any(|n| n.contains("F with beta 2")),
        "{:?}",
        r.notes
    );
    // F2 = 5 · credit / (4 · possible + actual): overall 25/54, PER 12.5/21.
    exact(score(&r, "ALL", "F"), 25.0, 54.0, "overall F2");
    exact(score(&r, "PER", "F"), 12.5, 21.0, "PER F2");
    // P and R do not depend on β.
    exact(score(&r, "ALL", "P"), 5.0, 10.0, "overall P");
    // F0.5 = 1.25 · 5 / (0.25 · 11 + 10).
    let half = guide(Format::Hipe, 0.5);
    assert!((score(&half, "ALL", "F") - 6.25 / 12.75).abs() < 1e-15);
    // Macro: the mean of the per-type P (5/6, 0, 1/2) and R (5/6, 0, 5/8), F-beta of those.
    let (p, rr, f) = (
        score(&r, "macro", "P"),
        score(&r, "macro", "R"),
        score(&r, "macro", "F"),
    );
    assert!((p - 4.0 / 9.0).abs() < 1e-15, "macro P {p}");
    assert!((rr - 35.0 / 72.0).abs() < 1e-15, "macro R {rr}");
    let f2 = 5.0 * p * rr / (4.0 * p + rr);
    assert!((f - f2).abs() < 1e-15, "macro F2 {f} vs {f2}");
    let f1 = score(&guide(Format::Hipe, 1.0), "macro", "F");
    assert!((f1 - 2.0 * p * rr / (p + rr)).abs() < 1e-15);
    assert!(f1 != f);
    // The macro row has no counts.
    for col in ["COR", "INC", "PAR", "MIS", "SPU", "POS", "ACT"] {
        assert_eq!(
            crate::common::cell(&r, "muc", &["macro"], col),
            None,
            "macro {col}"
        );
    }
}

#[test]
fn judgements_follow_the_guide_token_by_token() {
    let want = [
        ("t1", "B-PER", "B-PER", "correct", "PER"),
        ("t2", "I-PER", "I-PER", "correct", "PER"),
        ("t3", "I-PER", "O", "partial", "PER"),
        ("t4", "B-PER", "B-LOC", "incorrect", "PER"),
        ("t5", "B-ORG", "I-LOC", "incorrect", "ORG"),
        ("t6", "O", "I-LOC", "partial", "LOC"),
        ("t7", "B-ORG", "O", "missing", "ORG"),
        ("t8", "I-ORG", "O", "missing", "ORG"),
        ("t9", "I-ORG", "O", "missing", "ORG"),
        ("t10", "B-LOC", "B-LOC", "correct", "LOC"),
        ("t11", "I-LOC", "I-LOC", "correct", "LOC"),
        ("t12", "O", "B-ORG", "spurious", "ORG"),
        ("t13", "O", "B-PER", "spurious", "PER"),
    ];
    let dir = crate::common::temp_dir("muc_judgements");
    let (json, tsv) = (dir.join("m.json"), dir.join("m.tsv"));
    let o = crate::common::fairscore(&[
        "muc",
        "--ref",
        &fixture("guide_gold.tsv").to_string_lossy(),
        "--pred",
        &fixture("guide_run.tsv").to_string_lossy(),
        "--json",
        &json.to_string_lossy(),
        "--judgements",
        &tsv.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(&tsv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(fairscore::family::JUDGEMENTS_HEADER));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), want.len());
    for (i, (row, w)) in rows.iter().zip(want).enumerate() {
        // The document id, the gold line (header and id comment first), then the cells.
        let line = (i + 3).to_string();
        assert_eq!(
            row,
            &vec!["guide-appendix-b", line.as_str(), w.0, w.1, w.2, w.3, w.4]
        );
    }
    // The listing is the library's, made from the same judgements.
    let raw = evaluate_files(
        &fixture("guide_gold.tsv"),
        &fixture("guide_run.tsv"),
        &MucOptions {
            judgements: true,
            ..MucOptions::default()
        },
    )
    .unwrap();
    assert_eq!(fairscore::family::judgements_tsv(&raw), text);
    // The JSON holds the same counts and the scores as fractions.
    let v = crate::common::schema::read_json(&json);
    assert_eq!(v["family"], "muc");
    assert_eq!(v["signature_fields"]["beta"], "1");
    for (k, n) in [
        ("COR", 4.0),
        ("INC", 2.0),
        ("PAR", 2.0),
        ("MIS", 3.0),
        ("SPU", 2.0),
        ("POS", 11.0),
        ("ACT", 10.0),
    ] {
        assert_eq!(
            crate::common::json_cell(&v, "muc", &["ALL"], k),
            Some(n),
            "ALL {k}"
        );
    }
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["ALL"], "P"),
        Some(0.5)
    );
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["ALL"], "R"),
        Some(5.0 / 11.0)
    );
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["PER"], "ACT"),
        Some(5.0)
    );
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["PER"], "R"),
        Some(0.625)
    );
    super::binary::assert_document_keys(&v, "muc guide");
    let names: Vec<&str> = v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["muc", "adequacy"]);
    let p = crate::common::json_cell(&v, "muc", &["macro"], "P").unwrap();
    assert!((p - 4.0 / 9.0).abs() < 1e-15);
    assert_eq!(crate::common::json_cell(&v, "muc", &["macro"], "COR"), None);
    // The table names every type and the ALL and macro rows.
    let table = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "PER", "LOC", "ORG", "ALL", "macro", "45.45", "47.62", "55.56",
    ] {
        assert!(table.contains(needle), "table lacks {needle}:\n{table}");
    }
}

/// `fairscore muc --json -` is `fairscore evaluate --family muc --json -` on a real HIPE-2022
/// run (signature and all), with β; `--judgements` still writes the listing.
#[test]
fn muc_command_is_the_muc_family() {
    let Some(data) = crate::common::shared_data("muc_command_is_the_muc_family") else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_fr_1.tsv");
    let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
    for extra in [&[][..], &["--beta", "0.5"][..]] {
        let mut a = vec!["muc", "--gold", &g, "--pred", &r, "--json", "-"];
        a.extend_from_slice(extra);
        let mut b = vec![
            "evaluate", "--family", "muc", "--gold", &g, "--pred", &r, "--json", "-",
        ];
        b.extend_from_slice(extra);
        let (va, vb) = (
            crate::common::fairscore_json(&a),
            crate::common::fairscore_json(&b),
        );
        assert_eq!(va, vb, "{extra:?}");
        assert_eq!(va["family"], "muc");
        assert!(crate::common::json_cell(&va, "muc", &["ALL"], "POS").unwrap() > 1000.0);
    }
    let dir = crate::common::temp_dir("muc_front_door");
    let tsv = dir.join("j.tsv");
    let o = crate::common::fairscore(&[
        "muc",
        "--gold",
        &g,
        "--pred",
        &r,
        "--judgements",
        &tsv.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(&tsv).unwrap();
    let raw = evaluate_files(
        &gold,
        &run,
        &MucOptions {
            judgements: true,
            ..MucOptions::default()
        },
    )
    .unwrap();
    assert_eq!(text, fairscore::family::judgements_tsv(&raw));
    assert_eq!(
        text.lines().next(),
        Some(fairscore::family::JUDGEMENTS_HEADER)
    );
    // One line per judged token: as many as the judgements counted.
    let all = total(&raw);
    let judged = all.correct + all.incorrect + all.partial + all.missing + all.spurious;
    assert_eq!(text.lines().count() as u64, judged + 1);
}

#[test]
fn nothing_to_judge_gives_zeros_not_nan() {
    let dir = crate::common::temp_dir("muc_empty");
    let gold = dir.join("gold.conll");
    std::fs::write(&gold, "a O\nb O\n\nc O\n").unwrap();
    let json = dir.join("m.json");
    let o = crate::common::fairscore(&[
        "muc",
        "--format",
        "conll",
        "--ref",
        &gold.to_string_lossy(),
        "--pred",
        &gold.to_string_lossy(),
        "--json",
        &json.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(!text.contains("NaN"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Only the macro row's counts are null (it has none); every score is a number.
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["ALL"], "P"),
        Some(0.0)
    );
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["ALL"], "POS"),
        Some(0.0)
    );
    assert_eq!(
        crate::common::json_cell(&v, "muc", &["macro"], "F"),
        Some(0.0)
    );
    let rows = &crate::common::json_table(&v, "muc")["rows"];
    for row in rows.as_array().unwrap() {
        for (col, x) in row["scores"].as_object().unwrap() {
            let count = !["P", "R", "F"].contains(&col.as_str());
            let nullable = row["key"]["label"] == "macro" && count;
            assert_eq!(x.is_null(), nullable, "{row}");
        }
    }
    // No type: the ALL and macro rows only.
    let keys: Vec<&serde_json::Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["key"]["label"])
        .collect();
    assert_eq!(keys, ["ALL", "macro"]);
}

#[test]
fn conll_sentences_bound_entities_and_columns_are_chosen() {
    // I-PER after a sentence break opens a new entity: the gold PER of sentence 2 overlaps no
    // run entity, so it is missing, not partial (as the end of the gold PER of sentence 1).
    let dir = crate::common::temp_dir("muc_conll");
    let (gold, run) = (dir.join("g.conll"), dir.join("r.conll"));
    std::fs::write(&gold, "a X O B-PER\nb X O I-PER\n\nc X O I-PER\n").unwrap();
    std::fs::write(&run, "a X B-PER B-PER\nb X I-PER O\n\nc X O O\n").unwrap();
    let opts = MucOptions {
        format: Format::Conll,
        ..MucOptions::default()
    };
    let r = evaluate_files(&gold, &run, &opts).unwrap();
    assert_eq!(total(&r), counts(1, 0, 1, 1, 0));
    let fam = muc_results(&gold, &run, &[("format", "conll")]).unwrap();
    assert_eq!(row_counts(&fam, "ALL"), counts(1, 0, 1, 1, 0));
    // Column 3 (by number) of the gold is all O; of the run, one entity over a and b.
    let by_number = MucOptions {
        column: Some("3".into()),
        ..opts.clone()
    };
    let r = evaluate_files(&gold, &run, &by_number).unwrap();
    assert_eq!(r.column, "COL3");
    assert_eq!(total(&r), counts(0, 0, 0, 0, 2));
    let fam3 = muc_results(&gold, &run, &[("format", "conll"), ("column", "3")]).unwrap();
    assert_eq!(row_counts(&fam3, "ALL"), counts(0, 0, 0, 0, 2));
    let by_name = MucOptions {
        column: Some("COL3".into()),
        ..opts
    };
    assert_eq!(
        evaluate_files(&gold, &run, &by_name).unwrap().units,
        r.units
    );
    let by_name = muc_results(&gold, &run, &[("format", "conll"), ("column", "COL3")]).unwrap();
    assert_eq!(by_name.tables, fam3.tables);
}

/// Writes a parsed HIPE file as CoNLL: one `-DOCSTART-` document per HIPE document, each
/// document one sentence (HIPE documents are one sequence), cells TOKEN and the column's tag.
fn hipe_to_conll(src: &Path, column: &str, out: &Path) {
    let c = fairscore::formats::hipe::read(src, &Default::default()).expect("read HIPE");
    let col = c.column(column).expect("column");
    let mut text = String::new();
    for d in &c.docs {
        text.push_str("-DOCSTART- O\n\n");
        for t in d.range() {
            let tok: String = c
                .token_text(t)
                .chars()
                .map(|ch| if ch.is_whitespace() { '_' } else { ch })
                .collect();
            let tok = if tok.is_empty() { "_".to_string() } else { tok };
            text.push_str(&format!("{tok} {}\n", c.cell(t, col)));
        }
        text.push('\n');
    }
    std::fs::write(out, text).unwrap();
}

#[test]
fn hipe_and_conll_give_the_same_scores_on_a_hipe2022_run() {
    let Some(data) =
        crate::common::shared_data("hipe_and_conll_give_the_same_scores_on_a_hipe2022_run")
    else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_fr_1.tsv");
    let dir = crate::common::temp_dir("muc_hipe_conll");
    let (gc, rc) = (dir.join("gold.conll"), dir.join("run.conll"));
    hipe_to_conll(&gold, "NE-COARSE-LIT", &gc);
    hipe_to_conll(&run, "NE-COARSE-LIT", &rc);
    let beta = [("beta", "0.5")];
    let a = muc_results(&gold, &run, &[("format", "hipe"), beta[0]]).unwrap();
    let b = muc_results(&gc, &rc, &[("format", "conll"), beta[0]]).unwrap();
    let all = row_counts(&a, "ALL");
    assert!(all.possible() > 1000, "{all:?}");
    assert!(types(&a).len() >= 3);
    // The whole table: every count, per type, micro and macro scores.
    assert_eq!(a.tables, b.tables);
    assert_eq!((a.unit, a.units), (b.unit, b.units));
    let ra = evaluate_files(&gold, &run, &MucOptions::default()).unwrap();
    let rb = evaluate_files(
        &gc,
        &rc,
        &MucOptions {
            format: Format::Conll,
            ..MucOptions::default()
        },
    )
    .unwrap();
    assert_eq!(ra.tokens, rb.tokens);
    assert_eq!(total(&ra), all);
    // The per-type counts add up to the overall ones.
    let mut sum = MucCounts::default();
    types(&a).iter().for_each(|t| sum.merge(&row_counts(&a, t)));
    assert_eq!(sum, all);
}

/// Runs the binary and checks the exit status, a message fragment, exactly one error line and
/// that no output file was written into `dir`.
fn fails(dir: &Path, args: &[&str], status: i32, fragment: &str) {
    let o = crate::common::fairscore(args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(
        stderr.contains(fragment),
        "{args:?}: {stderr:?} lacks {fragment:?}"
    );
    let errors = stderr
        .lines()
        .filter(|l| l.starts_with("fairscore: error:") || l.starts_with("error:"))
        .count();
    assert_eq!(errors, 1, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "gold.tsv" && n != "run.tsv")
        .collect();
    assert!(left.is_empty(), "{args:?}: wrote {left:?}");
}

#[test]
fn bad_inputs_and_options() {
    let dir = crate::common::temp_dir("muc_bad");
    let gold = dir.join("gold.tsv");
    let run = dir.join("run.tsv");
    let gold_text = std::fs::read_to_string(fixture("guide_gold.tsv")).unwrap();
    std::fs::write(&gold, &gold_text).unwrap();
    // The run lacks token t7 (file line 9): the documents do not line up.
    let run_text: String = std::fs::read_to_string(fixture("guide_run.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("t7\t"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&run, run_text).unwrap();
    let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
    let json = dir.join("out.json").to_string_lossy().into_owned();
    let base = ["muc", "--ref", &g, "--pred", &r, "--json", &json];
    fails(&dir, &base, 3, &format!("{r}:"));
    fails(&dir, &base, 3, "does not line up");
    // Options: unknown format, β not a positive number, an output over an input.
    let good = fixture("guide_run.tsv").to_string_lossy().into_owned();
    let ok = ["muc", "--ref", &g, "--pred", &good, "--json", &json];
    for (extra, fragment) in [
        (
            vec!["--format", "spans"],
            "--format spans: the muc family reads hipe, conll",
        ),
        (vec!["--format", "xml"], "unknown format"),
        (vec!["--beta", "0"], "--beta 0"),
        (vec!["--beta=-1"], "--beta -1"),
        (vec!["--beta", "nan"], "--beta nan"),
        (vec!["--beta", "inf"], "--beta inf"),
        // The HIPE edition is no option of muc any more (the column says what is scored).
        (vec!["-e", "hipe-2021"], "unexpected argument '-e'"),
        (vec!["--column", "NOPE"], "no column NOPE"),
    ] {
        let mut argv = ok.to_vec();
        argv.extend(extra);
        let status = if fragment.starts_with("no column") {
            3
        } else {
            2
        };
        fails(&dir, &argv, status, fragment);
    }
    fails(
        &dir,
        &["muc", "--ref", &g, "--pred", &good, "--judgements", &g],
        2,
        "never writes over an input",
    );
    fails(
        &dir,
        &[
            "muc",
            "--ref",
            &g,
            "--pred",
            &good,
            "--json",
            &json,
            "--judgements",
            &json,
        ],
        2,
        "give each output its own path",
    );
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), gold_text);
}
