//! `fairscore muc`: the vendor guide's worked example (Appendix B, 13 tokens) counted and
//! scored exactly, F-beta and macro scores, the judgements listing, HIPE and CoNLL input
//! giving the same scores on a real HIPE-2022 run, and bad inputs through the binary.

mod common;

use std::path::{Path, PathBuf};

use fairscore::eval::muc::{evaluate_files, MucOptions, MucResult, MucScores};
use fairscore::formats::Format;
use fairscore::matching::muc::MucCounts;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/muc")
        .join(name)
}

fn guide(format: Format, beta: f64, judgements: bool) -> MucResult {
    let ext = if format == Format::Conll {
        "conll"
    } else {
        "tsv"
    };
    let opts = MucOptions {
        format,
        beta,
        judgements,
        ..MucOptions::default()
    };
    evaluate_files(
        &fixture(&format!("guide_gold.{ext}")),
        &fixture(&format!("guide_run.{ext}")),
        &opts,
    )
    .unwrap_or_else(|e| panic!("guide example ({ext}): {e}"))
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

/// `x` is the correctly rounded value of `num / den` (every score is one division).
fn exact(x: f64, num: f64, den: f64, what: &str) {
    assert_eq!(x, num / den, "{what}: {x} is not {num}/{den}");
}

fn type_scores<'a>(r: &'a MucResult, t: &str) -> &'a MucScores {
    r.per_type
        .get(t)
        .unwrap_or_else(|| panic!("no type {t} in {:?}", r.per_type.keys()))
}

#[test]
fn guide_appendix_b_counts_and_scores() {
    for format in [Format::Hipe, Format::Conll] {
        let r = guide(format, 1.0, false);
        let all = &r.overall;
        // The guide: Correct 4, Incorrect 2, Partial 2, Missing 3, Spurious 2.
        assert_eq!(all.counts, counts(4, 2, 2, 3, 2), "{format:?}");
        assert_eq!(all.counts.possible(), 11);
        assert_eq!(all.counts.actual(), 10);
        // R = (4 + 2/2) / 11 = 45.5 %, P = 5 / 10 = 50 %, F = 10 / 21 = 47.6 %.
        exact(all.r, 5.0, 11.0, "overall R");
        exact(all.p, 5.0, 10.0, "overall P");
        exact(all.f, 10.0, 21.0, "overall F");
        assert_eq!(format!("{:.1}", all.r * 100.0), "45.5");
        assert_eq!(format!("{:.1}", all.f * 100.0), "47.6");
        // PER: Correct 2, Incorrect 1, Partial 1, Missing 0, Spurious 1; possible 4, actual 5.
        let per = type_scores(&r, "PER");
        assert_eq!(per.counts, counts(2, 1, 1, 0, 1));
        assert_eq!((per.counts.possible(), per.counts.actual()), (4, 5));
        exact(per.r, 2.5, 4.0, "PER R");
        exact(per.p, 2.5, 5.0, "PER P");
        exact(per.f, 5.0, 9.0, "PER F");
        assert_eq!(format!("{:.1}", per.f * 100.0), "55.6");
        // The other types: LOC tokens 10, 11 correct and token 6 partial (a run-only token of
        // a run LOC entity overlapping gold entities); ORG token 5 incorrect, 7-9 missing, 12
        // spurious.
        assert_eq!(type_scores(&r, "LOC").counts, counts(2, 0, 1, 0, 0));
        assert_eq!(type_scores(&r, "ORG").counts, counts(0, 1, 0, 3, 1));
        assert_eq!(r.per_type.len(), 3);
        assert_eq!((r.documents, r.tokens), (1, 13));
        // The per-type counts add up to the overall ones.
        let mut sum = MucCounts::default();
        r.per_type.values().for_each(|s| sum.merge(&s.counts));
        assert_eq!(sum, all.counts);
    }
}

#[test]
fn f_beta_and_macro() {
    let r = guide(Format::Hipe, 2.0, false);
    assert_eq!(r.beta, 2.0);
    // F2 = 5 · credit / (4 · possible + actual): overall 25/54, PER 12.5/21.
    exact(r.overall.f, 25.0, 54.0, "overall F2");
    exact(type_scores(&r, "PER").f, 12.5, 21.0, "PER F2");
    // P and R do not depend on β.
    exact(r.overall.p, 5.0, 10.0, "overall P");
    // F0.5 = 1.25 · 5 / (0.25 · 11 + 10).
    let half = guide(Format::Hipe, 0.5, false);
    assert!((half.overall.f - 6.25 / 12.75).abs() < 1e-15);
    // Macro: the mean of the per-type P (5/6, 0, 1/2) and R (5/6, 0, 5/8), F-beta of those.
    let (p, rr, f) = r.macro_prf;
    assert!((p - 4.0 / 9.0).abs() < 1e-15, "macro P {p}");
    assert!((rr - 35.0 / 72.0).abs() < 1e-15, "macro R {rr}");
    let f2 = 5.0 * p * rr / (4.0 * p + rr);
    assert!((f - f2).abs() < 1e-15, "macro F2 {f} vs {f2}");
    let f1 = guide(Format::Hipe, 1.0, false).macro_prf.2;
    assert!((f1 - 2.0 * p * rr / (p + rr)).abs() < 1e-15);
    assert!(f1 != f);
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
    let dir = common::temp_dir("muc_judgements");
    let (json, tsv) = (dir.join("m.json"), dir.join("m.tsv"));
    let o = common::fairscore(&[
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
    assert_eq!(
        lines.next(),
        Some(fairscore::report::muc::JUDGEMENTS_HEADER)
    );
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
    // The JSON holds the same counts and the scores as fractions.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("JSON");
    assert_eq!(v["beta"], 1.0);
    let all = &v["overall"];
    for (k, n) in [
        ("correct", 4),
        ("incorrect", 2),
        ("partial", 2),
        ("missing", 3),
        ("spurious", 2),
        ("possible", 11),
        ("actual", 10),
    ] {
        assert_eq!(all[k], n, "overall {k}");
    }
    assert_eq!(all["P"], 0.5);
    assert_eq!(all["R"], 5.0 / 11.0);
    assert_eq!(v["per_type"]["PER"]["actual"], 5);
    assert_eq!(v["per_type"]["PER"]["R"], 0.625);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "beta",
            "overall",
            "per_type",
            "macro",
            "signature",
            "signature_fields"
        ]
    );
    assert!((v["macro"]["P"].as_f64().unwrap() - 4.0 / 9.0).abs() < 1e-15);
    // The table names every type and the ALL and macro rows.
    let table = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "PER", "LOC", "ORG", "ALL", "macro", "45.45", "47.62", "55.56",
    ] {
        assert!(table.contains(needle), "table lacks {needle}:\n{table}");
    }
}

#[test]
fn nothing_to_judge_gives_zeros_not_nan() {
    let dir = common::temp_dir("muc_empty");
    let gold = dir.join("gold.conll");
    std::fs::write(&gold, "a O\nb O\n\nc O\n").unwrap();
    let json = dir.join("m.json");
    let o = common::fairscore(&[
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
    assert!(!text.contains("NaN") && !text.contains("null"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["overall"]["P"], 0.0);
    assert_eq!(v["overall"]["possible"], 0);
    assert_eq!(v["macro"]["F"], 0.0);
    assert_eq!(v["per_type"], serde_json::json!({}));
}

#[test]
fn conll_sentences_bound_entities_and_columns_are_chosen() {
    // I-PER after a sentence break opens a new entity: the gold PER of sentence 2 overlaps no
    // run entity, so it is missing, not partial (as the end of the gold PER of sentence 1).
    let dir = common::temp_dir("muc_conll");
    let (gold, run) = (dir.join("g.conll"), dir.join("r.conll"));
    std::fs::write(&gold, "a X O B-PER\nb X O I-PER\n\nc X O I-PER\n").unwrap();
    std::fs::write(&run, "a X B-PER B-PER\nb X I-PER O\n\nc X O O\n").unwrap();
    let opts = MucOptions {
        format: Format::Conll,
        ..MucOptions::default()
    };
    let r = evaluate_files(&gold, &run, &opts).unwrap();
    assert_eq!(r.overall.counts, counts(1, 0, 1, 1, 0));
    // Column 3 (by number) of the gold is all O; of the run, one entity over a and b.
    let by_number = MucOptions {
        column: Some("3".into()),
        ..opts.clone()
    };
    let r = evaluate_files(&gold, &run, &by_number).unwrap();
    assert_eq!(r.column, "COL3");
    assert_eq!(r.overall.counts, counts(0, 0, 0, 0, 2));
    let by_name = MucOptions {
        column: Some("COL3".into()),
        ..opts
    };
    assert_eq!(
        evaluate_files(&gold, &run, &by_name).unwrap().overall,
        r.overall
    );
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
    let Some(data) = common::shared_data("hipe_and_conll_give_the_same_scores_on_a_hipe2022_run")
    else {
        return;
    };
    let h = data.join("hipe2022");
    let gold = h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let run = h.join("submissions/neurbsl_bundle3_newseye_fr_1.tsv");
    let dir = common::temp_dir("muc_hipe_conll");
    let (gc, rc) = (dir.join("gold.conll"), dir.join("run.conll"));
    hipe_to_conll(&gold, "NE-COARSE-LIT", &gc);
    hipe_to_conll(&run, "NE-COARSE-LIT", &rc);
    let hipe = MucOptions {
        edition: fairscore::Edition::Hipe2022,
        beta: 0.5,
        ..MucOptions::default()
    };
    let conll = MucOptions {
        format: Format::Conll,
        ..hipe.clone()
    };
    let a = evaluate_files(&gold, &run, &hipe).unwrap();
    let b = evaluate_files(&gc, &rc, &conll).unwrap();
    assert!(a.overall.counts.possible() > 1000, "{:?}", a.overall);
    assert!(a.per_type.len() >= 3);
    assert_eq!(a.overall, b.overall);
    assert_eq!(a.per_type, b.per_type);
    assert_eq!(a.macro_prf, b.macro_prf);
    assert_eq!(a.tokens, b.tokens);
    // The per-type counts add up to the overall ones.
    let mut sum = MucCounts::default();
    a.per_type.values().for_each(|s| sum.merge(&s.counts));
    assert_eq!(sum, a.overall.counts);
}

/// Runs the binary and checks the exit status, a message fragment, exactly one error line and
/// that no output file was written into `dir`.
fn fails(dir: &Path, args: &[&str], status: i32, fragment: &str) {
    let o = common::fairscore(args);
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
    let dir = common::temp_dir("muc_bad");
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
        (vec!["--format", "spans"], "unknown format \"spans\""),
        (vec!["--format", "xml"], "unknown format"),
        (vec!["--beta", "0"], "--beta 0"),
        (vec!["--beta=-1"], "--beta -1"),
        (vec!["--beta", "nan"], "--beta nan"),
        (vec!["--beta", "inf"], "--beta inf"),
        (vec!["-e", "hipe-2021"], "hipe-2021"),
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
