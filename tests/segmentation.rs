//! `fairscore segmentation`: Table 1 of Shao et al. (2017) reproduced exactly, multiword tokens
//! and empty nodes of CoNLL-U, agreement with the CoNLL 2018 evaluation script on the Chinese
//! data in ../shared, and bad inputs through the binary.

mod common;

use std::path::{Path, PathBuf};

use fairscore::eval::segmentation::{
    evaluate_files, evaluate_texts, SegmentationFormat, SegmentationOptions, SegmentationResult,
};

/// `../shared/data/ud`, or None after a skip notice when it is absent; absent while the
/// environment variable `CI` is set, a failure (CI always has ../shared).
fn require_shared(test: &str) -> Option<PathBuf> {
    common::shared_data(test).map(|d| d.join("ud"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/segmentation")
        .join(name)
}

const TEXT: SegmentationOptions = SegmentationOptions {
    format: SegmentationFormat::Text,
    beta: None,
};

fn eval(gold: &str, pred: &str) -> SegmentationResult {
    evaluate_texts(Path::new("gold"), gold, Path::new("run"), pred, &TEXT)
        .unwrap_or_else(|e| panic!("{gold:?} / {pred:?}: {e}"))
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
            assert_eq!(r.counts.real_negatives(), c.tnr.1, "{what}: RN");
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
    let out = common::temp_dir("segmentation_table1");
    let json = out.join("s3.json");
    let o = common::fairscore(&[
        "segmentation",
        "--gold",
        &fixture("table1-gold.txt").to_string_lossy(),
        "--pred",
        &fixture("table1-S3.txt").to_string_lossy(),
        "--json",
        &json.to_string_lossy(),
        "--beta",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("2 sentences, 19 characters"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "sentences",
            "words",
            "tnr",
            "boundaries",
            "signature",
            "signature_fields"
        ]
    );
    let w = &v["words"];
    let wk: Vec<&str> = w.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(wk, ["TP", "gold", "pred", "P", "R", "F1", "F2"]);
    assert_eq!(v["sentences"], 2);
    assert_eq!(
        (w["TP"].as_u64(), w["gold"].as_u64(), w["pred"].as_u64()),
        (Some(4), Some(6), Some(10))
    );
    assert_eq!(w["P"].as_f64(), Some(frac(4, 10)));
    assert_eq!(w["R"].as_f64(), Some(frac(4, 6)));
    assert_eq!(w["F1"].as_f64(), Some(frac(8, 16)));
    // F2 = 5·TP / (4·gold + pred) = 20 / 34.
    assert_eq!(w["F2"].as_f64(), Some(frac(20, 34)));
    // TN / RN = (106 − 6) / 106: RN = 18 + 88.
    assert_eq!(v["tnr"].as_f64(), Some(frac(100, 106)));
}

#[test]
fn conllu_multiword_tokens_count_once_and_empty_nodes_are_skipped() {
    let opts = SegmentationOptions {
        format: SegmentationFormat::Conllu,
        beta: None,
    };
    let r = evaluate_files(
        &fixture("mwt-gold.conllu"),
        &fixture("mwt-pred.conllu"),
        &opts,
    )
    .unwrap();
    assert_eq!(r.sentences, 2);
    assert_eq!(r.counts.chars, 13);
    assert_eq!((r.words.tp, r.words.gold, r.words.pred), (3, 4, 5));
    assert_eq!(r.counts.tw, 15 + 36);
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
}

#[test]
fn blank_lines_are_empty_sentences_and_must_pair() {
    let r = eval("a b\n\nc\n\n\n", "a b\n\nc\n");
    assert_eq!(r.sentences, 2);
    assert_eq!(r.words.tp, 3);
    let e = evaluate_texts(
        Path::new("g"),
        "a b\n\nc\n",
        Path::new("r"),
        "a b\nc\nd\n",
        &TEXT,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with(
            "r:2: sentence 2: the run goes on with 'c' after character 0, where the gold g:2 ends"
        ),
        "{e}"
    );
    // Empty files: nothing to compare, all zero (never NaN).
    let r = eval("", "");
    assert_eq!(
        (r.sentences, r.words.p, r.words.f1, r.tnr),
        (0, 0.0, 0.0, 0.0)
    );
    assert!(!report_json(&r).contains("null"));
}

fn report_json(r: &SegmentationResult) -> String {
    fairscore::report::segmentation::json_text(r)
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
    for (format, ext) in [
        (SegmentationFormat::Text, "txt"),
        (SegmentationFormat::Conllu, "conllu"),
    ] {
        for (tool, want) in CONLL18 {
            let opts = SegmentationOptions { format, beta: None };
            let r = evaluate_files(
                &seg.join(format!("zh_gsd-ud-dev.{ext}")),
                &seg.join(format!("{tool}-dev.{ext}")),
                &opts,
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
    let out = common::temp_dir("segmentation_gsd");
    let json = out.join("jieba.json");
    let o = common::fairscore(&[
        "segmentation",
        "--gold",
        &seg.join("zh_gsd-ud-dev.conllu").to_string_lossy(),
        "--pred",
        &seg.join("jieba-dev.conllu").to_string_lossy(),
        "--json",
        &json.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("77.21   70.90   73.92"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["sentences"], 500);
}

// ---- bad inputs through the binary ----

/// Runs the binary with `--json OUT` appended and checks the exit status, a message fragment,
/// one error line, and that no output file was written.
fn fails(name: &str, args: &[&str], status: i32, fragment: &str) {
    let out = common::temp_dir(&format!("segmentation_bad_{name}"));
    let json = out.join("out.json");
    let mut argv = args.to_vec();
    let j = json.to_string_lossy().into_owned();
    argv.extend(["--json", j.as_str()]);
    let o = common::fairscore(&argv);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(status), "{name}: {stderr}");
    assert!(
        stderr.contains(fragment),
        "{name}: {stderr:?} lacks {fragment:?}"
    );
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    let leftovers: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
    assert!(leftovers.is_empty(), "{name}: wrote {leftovers:?}");
}

#[test]
fn misaligned_sentences_name_both_files_the_sentence_and_the_character() {
    let dir = common::temp_dir("segmentation_misaligned");
    let gold = dir.join("gold.txt");
    let pred = dir.join("run.txt");
    std::fs::write(&gold, "约翰 喜欢 玛丽\nJohn likes Mary\n").unwrap();
    std::fs::write(&pred, "约翰 喜欢 玛丽\nJohn likes Marx\n").unwrap();
    let (g, p) = (gold.to_string_lossy(), pred.to_string_lossy());
    fails(
        "char",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:2: sentence 2: the characters differ from the gold {g}:2 at character 13: gold 'y', run 'x'"),
    );
    std::fs::write(&pred, "约翰 喜欢 玛丽\n").unwrap();
    fails(
        "count",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:1: the run ends after sentence 1; the gold goes on with sentence 2 at {g}:2 (the run has 1 sentences, the gold 2)"),
    );
    // A line missing or added in the middle: the line where the files part, and what happened.
    std::fs::write(&gold, "一 二\n三 四\n五 六\n七 八\n").unwrap();
    std::fs::write(&pred, "一二\n五 六\n七 八\n").unwrap();
    fails(
        "missing",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:2: the gold's sentence 2 ({g}:2) is missing from the run: this is the gold's sentence 3 ({g}:3); the run has 3 sentences, the gold 4"),
    );
    std::fs::write(&pred, "一二\n三 四\n九\n五 六\n七 八\n").unwrap();
    fails(
        "extra",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        &format!("{p}:3: sentence 3 of the run is not in the gold: the gold's sentence 3 ({g}:3) is the run's next one; the run has 5 sentences, the gold 4"),
    );
    std::fs::write(&gold, "约翰 喜欢 玛丽\nJohn likes Mary\n").unwrap();
    std::fs::write(&pred, "约翰 喜欢 玛\nJohn likes Mary\n").unwrap();
    fails(
        "short",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        "sentence 1: the run ends after 5 characters",
    );
    std::fs::write(&pred, b"\xff\xfe\n").unwrap();
    fails(
        "utf8",
        &["segmentation", "--gold", &g, "--pred", &p],
        3,
        "invalid UTF-8",
    );
    // CoNLL-U: the lines of the differing words.
    let (g, p) = (fixture("mwt-gold.conllu"), fixture("mwt-misaligned.conllu"));
    fails(
        "conllu",
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
        "columns",
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
        "format",
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
        "segmentation reads text or conllu",
    );
    fails(
        "beta",
        &["segmentation", "--gold", &g, "--pred", &g, "--beta=0"],
        2,
        "--beta 0",
    );
    fails(
        "missing",
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
    let dir = common::temp_dir("segmentation_overwrite");
    let gold = dir.join("gold.txt");
    std::fs::write(&gold, "a b\n").unwrap();
    let gs = gold.to_string_lossy();
    let o = common::fairscore(&["segmentation", "--gold", &gs, "--pred", &gs, "--json", &gs]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is the same file as --gold"));
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), "a b\n");
}

/// Mutated inputs (bytes changed, inserted, deleted, lines cut) give a result or a typed
/// error, never a panic, in both formats.
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
        for format in [SegmentationFormat::Text, SegmentationFormat::Conllu] {
            let opts = SegmentationOptions {
                format,
                beta: Some(2.0),
            };
            let other = String::from_utf8_lossy(&seeds[next(seeds.len())]).into_owned();
            let r = std::panic::catch_unwind(|| {
                let a = evaluate_texts(Path::new("g"), &text, Path::new("r"), &other, &opts);
                let b = evaluate_texts(Path::new("g"), &text, Path::new("r"), &text, &opts);
                if let Ok(r) = b {
                    let json = fairscore::report::segmentation::json_text(&r);
                    assert!(!json.contains("null"), "{json}");
                    assert_eq!(r.words.tp, r.words.gold);
                }
                a.is_ok()
            });
            assert!(r.is_ok(), "iteration {i}: panic on {text:?}");
        }
    }
}
