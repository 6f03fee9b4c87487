//! Issue 47.3: CoNLL tags are read in the encoding they are written in. IOB1, IOB2 and IOBES
//! are read right by one rule (`S-` opens a mention as `B-` does, `E-` continues one as `I-`
//! does); BILOU, BMES and BMEOW tags are refused naming the line; `_` is `O`. Before, `S-`
//! continued an open mention of its type: a file from `convert --to BIOES` scored strict
//! 0/2/4 against its own BIO source, and a training file's `_` cells were entities of no type.

use std::path::Path;

use super::convert::hipe_as_conll;
use crate::common::{fairscore, fairscore_json, json_table, temp_dir, write_file};

/// The rows (label, every score) of the tables of `v` named in `tables`.
fn rows(v: &serde_json::Value, tables: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tables {
        for r in json_table(v, t)["rows"].as_array().expect("rows") {
            out.push(format!("{t} {} {}", r["key"], r["scores"]));
        }
    }
    out
}

fn evaluate(family: &str, gold: &str, run: &str) -> serde_json::Value {
    fairscore_json(&[
        "evaluate", "--family", family, "--format", "conll", "--gold", gold, "--pred", run,
        "--json", "-",
    ])
}

fn convert(from: &Path, to: &Path, encoding: &str) {
    let (f, t) = (from.display().to_string(), to.display().to_string());
    let o = fairscore(&[
        "convert",
        "--in",
        &f,
        "--out",
        &t,
        "--to",
        encoding,
        "--repair",
        "conlleval",
        "--repair-log",
        "/dev/null",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_file_in_iob_or_bioes_scores_as_its_bio_source() {
    let dir = temp_dir("encodings-read");
    // Adjacent one-token mentions of one type: IOB2 `B-LOC B-LOC`, IOBES `S-LOC S-LOC`.
    let bio = write_file(
        &dir,
        "bio.conll",
        "Paris B-LOC\nLondon B-LOC\nand O\nAnna B-PER\nMaria I-PER\nBob B-PER\n",
    );
    for enc in ["BIOES", "IOB"] {
        let out = dir.join(format!("small.{enc}.conll"));
        convert(Path::new(&bio), &out, enc);
        let v = evaluate("spans", &bio, &out.display().to_string());
        let all = &json_table(&v, "strict")["rows"][0]["scores"];
        let n = |c: &str| all[c].as_f64();
        assert_eq!(
            [n("TP"), n("FP"), n("FN")],
            [Some(4.0), Some(0.0), Some(0.0)],
            "{enc}: {all}"
        );
    }
    let Some(data) = crate::common::shared_data("encodings_read") else {
        return;
    };
    // A real gold and run (HIPE-2022 newseye-fi, written as CoNLL): the run converted to
    // IOBES or IOB1 scores as the run itself, in every table of spans and muc.
    let h = data.join("hipe2022");
    let gold = dir.join("gold.conll");
    let run = dir.join("run.conll");
    std::fs::write(
        &gold,
        hipe_as_conll(&h.join("gold/HIPE-2022-v2.1-newseye-test-fi.tsv")),
    )
    .expect("write");
    std::fs::write(
        &run,
        hipe_as_conll(&h.join("submissions/neurbsl_bundle3_newseye_fi_1.tsv")),
    )
    .expect("write");
    let (g, r) = (gold.display().to_string(), run.display().to_string());
    let spans = ["strict", "exact", "partial", "ent_type"];
    let want = rows(&evaluate("spans", &g, &r), &spans);
    let want_muc = rows(&evaluate("muc", &g, &r), &["muc"]);
    assert!(want.len() > 8, "{want:?}");
    for enc in ["BIOES", "IOB"] {
        let out = dir.join(format!("run.{enc}.conll"));
        convert(&run, &out, enc);
        let text = std::fs::read_to_string(&out).expect("read");
        if enc == "BIOES" {
            assert!(text.contains("\tS-") && text.contains("\tE-"), "IOBES tags");
        }
        let o = out.display().to_string();
        assert_eq!(
            rows(&evaluate("spans", &g, &o), &spans),
            want,
            "{enc} spans"
        );
        assert_eq!(
            rows(&evaluate("muc", &g, &o), &["muc"]),
            want_muc,
            "{enc} muc"
        );
    }
}

#[test]
fn bilou_tags_are_refused_naming_the_line_and_the_conversion() {
    let dir = temp_dir("encodings-bilou");
    let g = write_file(
        &dir,
        "g.conll",
        "Paris B-LOC\nis O\nAnna B-PER\nMaria I-PER\n",
    );
    let r = write_file(
        &dir,
        "r.conll",
        "Paris U-LOC\nis O\nAnna B-PER\nMaria L-PER\n",
    );
    let o = fairscore(&["evaluate", "--family", "spans", "--gold", &g, "--pred", &r]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("r.conll:1:") && err.contains("\"U-LOC\"") && err.contains("--from"),
        "{err}"
    );
}

#[test]
fn blank_cells_are_o_in_every_reading_of_the_tags() {
    let dir = temp_dir("encodings-blank");
    // `_` between mentions: the same scores as `O`, and no entity of no type in a training file.
    let gold = write_file(&dir, "g.conll", "Anna B-PER\nx _\ny _\nand O\nBob B-PER\n");
    let as_o = write_file(&dir, "o.conll", "Anna B-PER\nx O\ny O\nand O\nBob B-PER\n");
    let run = write_file(
        &dir,
        "r.conll",
        "Anna B-PER\nx B-PER\ny I-PER\nand O\nBob B-PER\n",
    );
    let train = write_file(&dir, "t.conll", "Anna B-PER\nx _\ny _\nz O\n");
    let tables = ["strict", "exact", "partial", "ent_type"];
    assert_eq!(
        rows(&evaluate("spans", &gold, &run), &tables),
        rows(&evaluate("spans", &as_o, &run), &tables)
    );
    let v = fairscore_json(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &gold,
        "--pred",
        &run,
        "--breakdown",
        "train_freq",
        "--train",
        &train,
        "--json",
        "-",
    ]);
    // The run's `x y` is no entity of the training file (its cells there are `_`): frequency
    // 0, so its FP falls in the bucket `<= 0` (with Bob's TP), not in `> 0` (Anna's TP).
    let buckets = &json_table(&v, "breakdown:train_freq")["rows"];
    let fp_at = |name: &str| {
        buckets
            .as_array()
            .and_then(|b| b.iter().find(|r| r["key"]["bucket"] == name))
            .map(|r| r["scores"]["FP"].as_f64().unwrap_or(-1.0))
    };
    assert_eq!(fp_at("<= 0"), Some(1.0), "{buckets}");
    assert_eq!(fp_at("> 0"), Some(0.0), "{buckets}");
}
