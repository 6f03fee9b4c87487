//! `fairscore segmentation` (the segmentation family, as `evaluate --family segmentation`):
//! Table 1 of Shao et al. (2017) reproduced exactly, multiword tokens and empty nodes of
//! CoNLL-U, agreement with the CoNLL 2018 evaluation script on the Chinese data in ../shared,
//! and bad inputs through the binary.

use std::path::{Path, PathBuf};

use fairscore::family::SegmentationFormat;
use fairscore::family::{self, Family, Options};
use fairscore::table::{Results, TableFormat, Unit};

use super::binary::{assert_document_keys, column_names, fails, row_levels, run_family};

/// `../shared/data/ud`, or None after a skip notice when it is absent; absent while the
/// environment variable `CI` is set, a failure (CI always has ../shared).
fn require_shared(test: &str) -> Option<PathBuf> {
    crate::common::shared_data(test).map(|d| d.join("ud"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/segmentation")
        .join(name)
}

// ---- the family's results, read back into the figures the tests check ----

/// Counts and scores of words or of boundaries: a row of the family's `segmentation` table.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Prf {
    tp: u64,
    gold: u64,
    pred: u64,
    p: f64,
    r: f64,
    f1: f64,
    /// The `F<β>` column, when a β other than 1 was given.
    fbeta: Option<f64>,
}

/// One evaluation: sentences (the units), the totals (characters, possible words TW), the two
/// rows of the `segmentation` table and the TNR of the words row; `results` as the family gave
/// them.
#[derive(Debug)]
struct Seg {
    sentences: u64,
    chars: u64,
    tw: u64,
    words: Prf,
    tnr: f64,
    boundaries: Prf,
    results: Results,
}

impl Seg {
    /// RN = TW − RP (Shao et al. 2017).
    fn real_negatives(&self) -> u64 {
        self.tw - self.words.gold
    }
}

/// A count cell (present, whole).
fn count(r: &Results, table: &str, key: &[&str], col: &str) -> u64 {
    let x = crate::common::cell(r, table, key, col)
        .unwrap_or_else(|| panic!("{table} {key:?} {col}: no value"));
    assert_eq!(x.fract(), 0.0, "{table} {key:?} {col}: {x}");
    x as u64
}

/// A ratio cell (present).
fn ratio(r: &Results, key: &str, col: &str) -> f64 {
    crate::common::cell(r, "segmentation", &[key], col)
        .unwrap_or_else(|| panic!("segmentation {key} {col}: no value"))
}

fn prf(r: &Results, key: &str, beta: Option<f64>) -> Prf {
    Prf {
        tp: count(r, "segmentation", &[key], "TP"),
        gold: count(r, "segmentation", &[key], "gold"),
        pred: count(r, "segmentation", &[key], "pred"),
        p: ratio(r, key, "P"),
        r: ratio(r, key, "R"),
        f1: ratio(r, key, "F1"),
        fbeta: beta.map(|b| ratio(r, key, &format!("F{b}"))),
    }
}

/// Reads the figures of `r` (made with `beta`, None for 1). The boundaries row has no TNR.
fn seg_of(r: Results, beta: Option<f64>) -> Seg {
    assert_eq!(
        (r.family.as_str(), r.unit),
        ("segmentation", Unit::Sentence)
    );
    assert_eq!(
        crate::common::cell(&r, "segmentation", &["boundaries"], "TNR"),
        None,
        "boundaries have no TNR"
    );
    Seg {
        sentences: r.units as u64,
        chars: count(&r, "totals", &["characters"], "n"),
        tw: count(&r, "totals", &["possible words"], "n"),
        words: prf(&r, "words", beta),
        tnr: ratio(&r, "words", "TNR"),
        boundaries: prf(&r, "boundaries", beta),
        results: r,
    }
}

/// The segmentation family with `format` (`text`, `conllu`, or None: by the gold's extension)
/// and `beta`.
fn seg_family(format: Option<&str>, beta: Option<f64>) -> Box<dyn Family> {
    let mut o = Options::default();
    if let Some(f) = format {
        o.set("format", f).unwrap();
    }
    if let Some(b) = beta {
        o.set("beta", &b.to_string()).unwrap();
    }
    family::build("segmentation", &o).unwrap()
}

/// Two files through the family.
fn eval_files(
    gold: &Path,
    pred: &Path,
    format: Option<&str>,
    beta: Option<f64>,
) -> fairscore::Result<Seg> {
    let fam = seg_family(format, beta);
    family::evaluate(fam.as_ref(), gold, pred, None).map(|r| seg_of(r, beta))
}

/// Two texts in the text format (written to `gold.txt` and `run.txt`).
fn eval_texts(gold: &str, pred: &str) -> fairscore::Result<Seg> {
    crate::common::family_texts("segmentation", &[("format", "text")], gold, pred, "txt")
        .map(|r| seg_of(r, None))
}

fn eval(gold: &str, pred: &str) -> Seg {
    eval_texts(gold, pred).unwrap_or_else(|e| panic!("{gold:?} / {pred:?}: {e}"))
}

/// The `(table, row, column)` of every null cell of the family's JSON; the JSON must hold no
/// NaN or infinity.
fn json_nulls(r: &Results) -> Vec<(String, String, String)> {
    let text = fairscore::report::render(r, TableFormat::Json).unwrap();
    assert!(
        !text.contains("NaN") && !text.contains("Infinity"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for t in v["tables"].as_array().unwrap() {
        for row in t["rows"].as_array().unwrap() {
            let key: Vec<&str> = row["key"]
                .as_object()
                .unwrap()
                .values()
                .filter_map(|x| x.as_str())
                .collect();
            for (col, x) in row["scores"].as_object().unwrap() {
                if x.is_null() {
                    out.push((
                        t["name"].as_str().unwrap().to_string(),
                        key.join(" "),
                        col.clone(),
                    ));
                }
            }
        }
    }
    out
}

/// The only null of a segmentation result: the boundaries row's TNR, which is not defined.
fn only_boundaries_tnr_null(r: &Results) {
    assert_eq!(
        json_nulls(r),
        [(
            "segmentation".to_string(),
            "boundaries".to_string(),
            "TNR".to_string()
        )]
    );
}

/// An error message with the directories of the temporary files of `common::family_texts`
/// left out (`…/family_texts_PID_N/run.txt` becomes `run.txt`).
fn without_temp_dirs(message: &str) -> String {
    let dir = format!("{}/family_texts_", env!("CARGO_TARGET_TMPDIR"));
    let mut s = message.to_string();
    while let Some(at) = s.find(&dir) {
        let end = s[at + dir.len()..]
            .find('/')
            .map_or(s.len(), |i| at + dir.len() + i + 1);
        s.replace_range(at..end, "");
    }
    s
}

/// An exact fraction, compared with the f64 the evaluation gives: every score is one division
/// of two integers, so it must be the correctly rounded value of the fraction.
fn frac(num: u64, den: u64) -> f64 {
    num as f64 / den as f64
}

/// One column of Table 1: output, TP, P, R, F and TNR as fractions (num, den), and the values
/// the paper prints (two decimals).
struct Column {
    name: &'static str,
    output: &'static str,
    tp: u64,
    p: (u64, u64),
    r: (u64, u64),
    f: (u64, u64),
    tnr: (u64, u64),
    printed: [f64; 4], // P, R, F, TNR
}

/// Table 1 of Shao et al. (2017). The paper writes the outputs with `/` between words; here
/// words are separated by spaces, and a multi-word English output (T2 "John likes Mary", S1
/// "likes Mary") is written without its inner spaces, since the paper treats the sentence as the
/// character string "JohnlikesMary" (13 characters, TW − RP = 91 − 3 = 88).
/// F is 2·TP / (PP + RP), TNR is TN / RN = (RN − (PP − TP)) / RN.
fn table1() -> Vec<(&'static str, Vec<Column>)> {
    vec![
        (
            "约翰 喜欢 玛丽",
            vec![
                Column {
                    name: "T1",
                    output: "约 翰 喜 欢 玛 丽",
                    tp: 0,
                    p: (0, 6),
                    r: (0, 3),
                    f: (0, 9),
                    tnr: (12, 18),
                    printed: [0.0, 0.0, 0.0, 0.67],
                },
                Column {
                    name: "T2",
                    output: "约翰喜欢玛丽",
                    tp: 0,
                    p: (0, 1),
                    r: (0, 3),
                    f: (0, 4),
                    tnr: (17, 18),
                    printed: [0.0, 0.0, 0.0, 0.94],
                },
                Column {
                    name: "S1",
                    output: "约翰 喜欢玛丽",
                    tp: 1,
                    p: (1, 2),
                    r: (1, 3),
                    f: (2, 5),
                    tnr: (17, 18),
                    printed: [0.5, 0.33, 0.40, 0.94],
                },
                Column {
                    name: "S2",
                    output: "约翰 喜 欢 玛 丽",
                    tp: 1,
                    p: (1, 5),
                    r: (1, 3),
                    f: (2, 8),
                    tnr: (14, 18),
                    printed: [0.2, 0.33, 0.25, 0.77],
                },
                Column {
                    name: "S3",
                    output: "约翰 喜欢 玛 丽",
                    tp: 2,
                    p: (2, 4),
                    r: (2, 3),
                    f: (4, 7),
                    tnr: (16, 18),
                    printed: [0.5, 0.67, 0.57, 0.89],
                },
            ],
        ),
        (
            "John likes Mary",
            vec![
                Column {
                    name: "T1",
                    output: "J o h n l i k e s M a r y",
                    tp: 0,
                    p: (0, 13),
                    r: (0, 3),
                    f: (0, 16),
                    tnr: (75, 88),
                    printed: [0.0, 0.0, 0.0, 0.85],
                },
                Column {
                    name: "T2",
                    output: "JohnlikesMary",
                    tp: 0,
                    p: (0, 1),
                    r: (0, 3),
                    f: (0, 4),
                    tnr: (87, 88),
                    printed: [0.0, 0.0, 0.0, 0.99],
                },
                Column {
                    name: "S1",
                    output: "John likesMary",
                    tp: 1,
                    p: (1, 2),
                    r: (1, 3),
                    f: (2, 5),
                    tnr: (87, 88),
                    printed: [0.5, 0.33, 0.40, 0.99],
                },
                Column {
                    name: "S2",
                    output: "John l i k e s M a r y",
                    tp: 1,
                    p: (1, 10),
                    r: (1, 3),
                    f: (2, 13),
                    tnr: (79, 88),
                    printed: [0.1, 0.33, 0.15, 0.90],
                },
                Column {
                    name: "S3",
                    output: "John likes M a r y",
                    tp: 2,
                    p: (2, 6),
                    r: (2, 3),
                    f: (4, 9),
                    tnr: (84, 88),
                    printed: [0.33, 0.67, 0.44, 0.95],
                },
            ],
        ),
    ]
}

#[test]
fn table1_of_shao_et_al_exactly() {
    let mut printed_differs = Vec::new();
    for (gold, columns) in table1() {
        for c in columns {
            let r = eval(gold, c.output);
            let w = &r.words;
            let what = format!("{gold} {}", c.name);
            assert_eq!(w.tp, c.tp, "{what}: TP");
            assert_eq!(w.gold, 3, "{what}: RP");
            assert_eq!(w.pred, c.p.1, "{what}: PP");
            assert_eq!(w.p, frac(c.p.0, c.p.1), "{what}: P");
            assert_eq!(w.r, frac(c.r.0, c.r.1), "{what}: R");
            assert_eq!(w.f1, frac(c.f.0, c.f.1), "{what}: F");
            assert_eq!(r.tnr, frac(c.tnr.0, c.tnr.1), "{what}: TNR");
            assert_eq!(r.real_negatives(), c.tnr.1, "{what}: RN");
            // The paper's two-decimal figures, rounded half up from the exact fractions.
            for (k, (ours, paper)) in [w.p, w.r, w.f1, r.tnr].iter().zip(c.printed).enumerate() {
                if (ours * 100.0).round() / 100.0 != paper {
                    printed_differs.push(format!(
                        "{what} {}: exact {ours:.4}, printed {paper}",
                        ["P", "R", "F", "TNR"][k]
                    ));
                }
            }
        }
    }
    // The only printed figure that is not the rounded exact value: S2's Chinese TNR,
    // 1 − 4/18 = 0.7778, printed 0.77 (cut, not rounded).
    assert_eq!(
        printed_differs,
        ["约翰 喜欢 玛丽 S2 TNR: exact 0.7778, printed 0.77"]
    );
}

#[test]
fn table1_boundaries() {
    // S3 on the Chinese sentence: gold boundaries {2, 4}, S3's {2, 4, 5}.
    let r = eval("约翰 喜欢 玛丽", "约翰 喜欢 玛 丽");
    let b = &r.boundaries;
    assert_eq!((b.tp, b.gold, b.pred), (2, 2, 3));
    assert_eq!((b.p, b.r, b.f1), (frac(2, 3), 1.0, frac(4, 5)));
    // T2 returns no boundary, T1 all five.
    let b = eval("约翰 喜欢 玛丽", "约翰喜欢玛丽").boundaries;
    assert_eq!(
        (b.tp, b.gold, b.pred, b.p, b.r, b.f1),
        (0, 2, 0, 0.0, 0.0, 0.0)
    );
    let b = eval("约翰 喜欢 玛丽", "约 翰 喜 欢 玛 丽").boundaries;
    assert_eq!((b.tp, b.gold, b.pred), (2, 2, 5));
}

#[test]
fn table1_through_the_binary_sums_both_sentences() {
    let out = crate::common::temp_dir("segmentation_table1");
    let json = out.join("s3.json");
    let (gold, pred) = (fixture("table1-gold.txt"), fixture("table1-S3.txt"));
    let (gold, pred) = (gold.to_string_lossy(), pred.to_string_lossy());
    let args = ["--gold", &*gold, "--pred", &*pred, "--beta", "2"];
    let (o, v) = run_family("segmentation", &args, &json);
    let stdout = String::from_utf8_lossy(&o.stdout);
    // The text table: 2 sentences, and the totals' 19 characters.
    assert!(stdout.contains("segmentation: 2 sentences"), "{stdout}");
    assert!(
        stdout.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w == ["characters", "19"]
        }),
        "{stdout}"
    );
    assert_document_keys(&v, "table1 S3");
    let t = crate::common::json_table(&v, "segmentation");
    assert_eq!(
        column_names(t),
        ["TP", "gold", "pred", "P", "R", "F1", "F2", "TNR"]
    );
    assert_eq!(row_levels(t), ["words", "boundaries"]);
    assert_eq!(
        (v["unit"].as_str(), v["units"].as_u64()),
        (Some("sentence"), Some(2))
    );
    let w = |col: &str| crate::common::json_cell(&v, "segmentation", &["words"], col);
    assert_eq!(
        (w("TP"), w("gold"), w("pred")),
        (Some(4.0), Some(6.0), Some(10.0))
    );
    assert_eq!(w("P"), Some(frac(4, 10)));
    assert_eq!(w("R"), Some(frac(4, 6)));
    assert_eq!(w("F1"), Some(frac(8, 16)));
    // F2 = 5·TP / (4·gold + pred) = 20 / 34.
    assert_eq!(w("F2"), Some(frac(20, 34)));
    // TN / RN = (106 − 6) / 106: RN = 18 + 88.
    assert_eq!(w("TNR"), Some(frac(100, 106)));
    assert_eq!(
        crate::common::json_cell(&v, "segmentation", &["boundaries"], "TNR"),
        None
    );
    // TW = 18 + 91 + 3 (RN + RP), over 19 characters (6 + 13).
    assert_eq!(
        crate::common::json_cell(&v, "totals", &["possible words"], "n"),
        Some(112.0)
    );
    assert_eq!(
        crate::common::json_cell(&v, "totals", &["characters"], "n"),
        Some(19.0)
    );
}

#[test]
fn conllu_multiword_tokens_count_once_and_empty_nodes_are_skipped() {
    let r = eval_files(
        &fixture("mwt-gold.conllu"),
        &fixture("mwt-pred.conllu"),
        Some("conllu"),
        None,
    )
    .unwrap();
    assert_eq!(r.sentences, 2);
    assert_eq!(r.chars, 13);
    assert_eq!((r.words.tp, r.words.gold, r.words.pred), (3, 4, 5));
    assert_eq!(r.tw, 15 + 36);
    assert_eq!(r.tnr, frac(45, 47));
    assert_eq!(
        (r.boundaries.tp, r.boundaries.gold, r.boundaries.pred),
        (2, 2, 3)
    );
    // The format follows the extension by default.
    assert_eq!(
        SegmentationFormat::from_path(Path::new("x.conllu")),
        SegmentationFormat::Conllu
    );
    assert_eq!(
        SegmentationFormat::from_path(Path::new("x.txt")),
        SegmentationFormat::Text
    );
    let auto = eval_files(
        &fixture("mwt-gold.conllu"),
        &fixture("mwt-pred.conllu"),
        None,
        None,
    )
    .unwrap();
    assert_eq!(auto.results.tables, r.results.tables);
}

#[test]
fn blank_lines_are_empty_sentences_and_must_pair() {
    let r = eval("a b\n\nc\n\n\n", "a b\n\nc\n");
    assert_eq!(r.sentences, 2);
    assert_eq!(r.words.tp, 3);
    let e = eval_texts("a b\n\nc\n", "a b\nc\nd\n")
        .unwrap_err()
        .to_string();
    let e = without_temp_dirs(&e);
    assert!(
        e.starts_with(
            "run.txt:2: sentence 2: the run goes on with 'c' after character 0, where the gold gold.txt:2 ends"
        ),
        "{e}"
    );
    // Empty files: nothing to compare, all zero (never NaN); the one empty cell is the
    // boundaries' TNR, which the family never defines.
    let r = eval("", "");
    assert_eq!(
        (r.sentences, r.words.p, r.words.f1, r.tnr),
        (0, 0.0, 0.0, 0.0)
    );
    only_boundaries_tnr_null(&r.results);
}

// ---- the CoNLL 2018 evaluation script on ../shared/data/ud ----

/// The README's figures of conll18_ud_eval.py (Words P, R, F1, in %).
const CONLL18: [(&str, [&str; 3]); 2] = [
    ("jieba", ["77.21", "70.90", "73.92"]),
    ("thulac", ["71.79", "67.00", "69.31"]),
];

#[test]
fn chinese_gsd_words_equal_conll18_ud_eval() {
    let Some(ud) = require_shared("chinese_gsd_words_equal_conll18_ud_eval") else {
        return;
    };
    let seg = ud.join("segmentation");
    for (format, ext) in [("text", "txt"), ("conllu", "conllu")] {
        for (tool, want) in CONLL18 {
            let r = eval_files(
                &seg.join(format!("zh_gsd-ud-dev.{ext}")),
                &seg.join(format!("{tool}-dev.{ext}")),
                Some(format),
                None,
            )
            .unwrap();
            let got = [r.words.p, r.words.r, r.words.f1].map(|x| format!("{:.2}", 100.0 * x));
            assert_eq!(got, want, "{tool} {ext}");
            // conll18's own arithmetic: correct / system, correct / gold, 2·correct / (sum).
            let w = &r.words;
            assert_eq!(w.f1, 2.0 * w.tp as f64 / (w.gold + w.pred) as f64);
            println!(
                "{tool} ({ext}): P {} R {} F1 {} (TP {} gold {} pred {}), TNR {:.4}",
                got[0], got[1], got[2], w.tp, w.gold, w.pred, r.tnr
            );
        }
    }
}

#[test]
fn chinese_gsd_through_the_binary() {
    let Some(ud) = require_shared("chinese_gsd_through_the_binary") else {
        return;
    };
    let seg = ud.join("segmentation");
    let out = crate::common::temp_dir("segmentation_gsd");
    let json = out.join("jieba.json");
    let (gold, pred) = (
        seg.join("zh_gsd-ud-dev.conllu"),
        seg.join("jieba-dev.conllu"),
    );
    let (gold, pred) = (gold.to_string_lossy(), pred.to_string_lossy());
    // The command is the family, on a real pair: the same document as `evaluate`.
    let (o, v) = run_family("segmentation", &["--gold", &*gold, "--pred", &*pred], &json);
    let stdout = String::from_utf8_lossy(&o.stdout);
    // The words row of the text table: TP, gold, pred, then P, R, F1 in percent.
    let words = stdout
        .lines()
        .find(|l| l.starts_with("words "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cells: Vec<&str> = words.split_whitespace().collect();
    assert_eq!(cells[4..7], ["77.21", "70.90", "73.92"], "{stdout}");
    assert_eq!(v["units"], 500);
}

// ---- bad inputs through the binary ----

#[test]
fn misaligned_sentences_name_both_files_the_sentence_and_the_character() {
    let dir = crate::common::temp_dir("segmentation_misaligned");
    let gold = dir.join("gold.txt");
    let pred = dir.join("run.txt");
    std::fs::write(&gold, "约翰 喜欢 玛丽\nJohn likes Mary\n").unwrap();
    std::fs::write(&pred, "约翰 喜欢 玛丽\nJohn likes Marx\n").unwrap();
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    fails(
        "segmentation_bad_char",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:2: sentence 2: the characters differ from the gold {g}:2 at character 13: gold 'y', run 'x'"),
    );
    std::fs::write(&pred, "约翰 喜欢 玛丽\n").unwrap();
    fails(
        "segmentation_bad_count",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:1: the run ends after sentence 1; the gold goes on with sentence 2 at {g}:2 (the run has 1 sentences, the gold 2)"),
    );
    // A line missing or added in the middle: the line where the files part, and what happened.
    std::fs::write(&gold, "一 二\n三 四\n五 六\n七 八\n").unwrap();
    std::fs::write(&pred, "一二\n五 六\n七 八\n").unwrap();
    fails(
        "segmentation_bad_missing",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:2: the gold's sentence 2 ({g}:2) is missing from the run: this is the gold's sentence 3 ({g}:3); the run has 3 sentences, the gold 4"),
    );
    std::fs::write(&pred, "一二\n三 四\n九\n五 六\n七 八\n").unwrap();
    fails(
        "segmentation_bad_extra",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:3: sentence 3 of the run is not in the gold: the gold's sentence 3 ({g}:3) is the run's next one; the run has 5 sentences, the gold 4"),
    );
    std::fs::write(&gold, "约翰 喜欢 玛丽\nJohn likes Mary\n").unwrap();
    std::fs::write(&pred, "约翰 喜欢 玛\nJohn likes Mary\n").unwrap();
    fails(
        "segmentation_bad_short",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        "sentence 1: the run ends after 5 characters",
    );
    std::fs::write(&pred, b"\xff\xfe\n").unwrap();
    fails(
        "segmentation_bad_utf8",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        "invalid UTF-8",
    );
    // CoNLL-U: the lines of the differing words.
    let (g, p) = (fixture("mwt-gold.conllu"), fixture("mwt-misaligned.conllu"));
    fails(
        "segmentation_bad_conllu",
        &["segmentation", "--gold", &g.to_string_lossy(), "--pred", &p.to_string_lossy()],
        3,
        &format!(
            "{}:7: sentence 2: the characters differ from the gold {}:10 at character 6: gold 'o', run 'a'",
            p.display(),
            g.display()
        ),
    );
}

#[test]
fn bad_files_and_options() {
    let g = fixture("mwt-gold.conllu");
    let g = g.to_string_lossy();
    let bad = fixture("bad-columns.conllu");
    fails(
        "segmentation_bad_columns",
        &[
            "segmentation",
            "--gold",
            &g,
            "--pred",
            &bad.to_string_lossy(),
        ],
        3,
        "bad-columns.conllu:3: expected 10 tab-separated columns",
    );
    fails(
        "segmentation_bad_format",
        &[
            "segmentation",
            "--gold",
            &g,
            "--pred",
            &g,
            "--format",
            "xml",
        ],
        2,
        "--format: unknown format \"xml\"",
    );
    // A format of another family: the formats segmentation reads.
    fails(
        "segmentation_bad_format-tsv",
        &[
            "segmentation",
            "--gold",
            &g,
            "--pred",
            &g,
            "--format",
            "tsv",
        ],
        2,
        "--format tsv: the segmentation family reads text, conllu",
    );
    fails(
        "segmentation_bad_beta",
        &["segmentation", "--gold", &g, "--pred", &g, "--beta=0"],
        2,
        "--beta 0",
    );
    fails(
        "segmentation_bad_missing",
        &[
            "segmentation",
            "--gold",
            &g,
            "--pred",
            "/nonexistent/run.txt",
        ],
        3,
        "/nonexistent/run.txt: no such file",
    );
    // The output may not overwrite an input.
    let dir = crate::common::temp_dir("segmentation_overwrite");
    let gold = dir.join("gold.txt");
    std::fs::write(&gold, "a b\n").unwrap();
    let gs = gold.to_string_lossy();
    let o =
        crate::common::fairscore(&["segmentation", "--gold", &gs, "--pred", &gs, "--json", &gs]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is the same file as --gold"));
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), "a b\n");
}

/// Mutated inputs (bytes changed, inserted, deleted, lines cut) give a result or a typed
/// error, never a panic, in both formats; a file scored against itself has every word right
/// and no empty cell but the boundaries' TNR.
#[test]
fn mutated_inputs_never_panic() {
    let seeds: Vec<Vec<u8>> = [
        "table1-gold.txt",
        "table1-S3.txt",
        "mwt-gold.conllu",
        "mwt-pred.conllu",
    ]
    .iter()
    .map(|n| std::fs::read(fixture(n)).unwrap())
    .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let alphabet = b"\t\n\r -.#_0123456789a\xe7\xba\xa6";
    let dir = crate::common::temp_dir("segmentation_mutated");
    let (g, r, o) = (dir.join("g"), dir.join("r"), dir.join("o"));
    let families = [
        seg_family(Some("text"), Some(2.0)),
        seg_family(Some("conllu"), Some(2.0)),
    ];
    for i in 0..3000 {
        let base = &seeds[next(seeds.len())];
        let mut b = base.clone();
        for _ in 0..1 + next(4) {
            let at = next(b.len() + 1);
            match next(3) {
                0 if at < b.len() => b[at] = alphabet[next(alphabet.len())],
                1 => b.insert(at, alphabet[next(alphabet.len())]),
                _ if at < b.len() => {
                    b.remove(at);
                }
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&b).into_owned();
        std::fs::write(&g, &text).unwrap();
        std::fs::write(&r, &text).unwrap();
        for fam in &families {
            let other = &seeds[next(seeds.len())];
            std::fs::write(&o, other).unwrap();
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let a = family::evaluate(fam.as_ref(), &g, &o, None);
                let b = family::evaluate(fam.as_ref(), &g, &r, None);
                if let Ok(res) = b {
                    only_boundaries_tnr_null(&res);
                    let s = seg_of(res, Some(2.0));
                    assert_eq!(s.words.tp, s.words.gold);
                }
                a.is_ok()
            }));
            assert!(res.is_ok(), "iteration {i}: panic on {text:?}");
        }
    }
}
