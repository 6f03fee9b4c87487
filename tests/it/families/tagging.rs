//! `fairscore tagging` (the tagging family, as `evaluate --family tagging`): the tagging
//! paper's worked examples (positional, weighted, conditional weights), the §3.1 metrics on
//! multi-tag cells computed by hand, agreement with the XPOS accuracy of the CoNLL 2018
//! evaluation script on the Polish data in ../shared, tagset validation, and bad inputs
//! through the binary.

use std::path::{Path, PathBuf};

use fairscore::family::Function;
use fairscore::family::TagScorer;
use fairscore::family::Tagset;
use fairscore::family::{self, Family, Options};
use fairscore::table::{Results, TableFormat, Unit};
use fairscore::Error;

use super::binary::{assert_document_keys, column_names, fails, row_levels, run_family};

/// `../shared/data/ud`, or None after a skip notice when it is absent; absent while the
/// environment variable `CI` is set, a failure (CI always has ../shared).
fn require_shared(test: &str) -> Option<PathBuf> {
    crate::common::shared_data(test).map(|d| d.join("ud"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tagging")
        .join(name)
}

fn tagset(name: &str) -> Tagset {
    let path = fixture(name);
    Tagset::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

// ---- the family's results, read back into the figures the tests check ----

/// The scores of one function: a row of the family's `tagging` table.
#[derive(Debug, Clone, Copy, PartialEq)]
struct FunctionScores {
    p: f64,
    r: f64,
    f1: f64,
    /// The `F<β>` column, when a β other than 1 was given.
    fbeta: Option<f64>,
    wc: f64,
    sc: f64,
}

/// One evaluation: the sentences (units), the totals (segments, tags), the function rows
/// (`weighted` when the tag set has weights) and the warnings; `results` as the family gave
/// them.
#[derive(Debug)]
struct Tagged {
    sentences: u64,
    segments: u64,
    gold_tags: u64,
    pred_tags: u64,
    exact: FunctionScores,
    pos: FunctionScores,
    positional: FunctionScores,
    weighted: Option<FunctionScores>,
    warnings: Vec<String>,
    results: Results,
}

impl Tagged {
    /// The functions evaluated, in report order.
    fn functions(&self) -> Vec<(&'static str, FunctionScores)> {
        let mut v = vec![
            ("exact", self.exact),
            ("pos", self.pos),
            ("positional", self.positional),
        ];
        if let Some(w) = self.weighted {
            v.push(("weighted", w));
        }
        v
    }
}

fn count(r: &Results, key: &str) -> u64 {
    let x = crate::common::cell(r, "totals", &[key], "n")
        .unwrap_or_else(|| panic!("totals {key}: no value"));
    assert_eq!(x.fract(), 0.0, "totals {key}: {x}");
    x as u64
}

fn scores(r: &Results, key: &str, beta: Option<f64>) -> FunctionScores {
    let x = |col: &str| {
        crate::common::cell(r, "tagging", &[key], col)
            .unwrap_or_else(|| panic!("tagging {key} {col}: no value"))
    };
    FunctionScores {
        p: x("P"),
        r: x("R"),
        f1: x("F1"),
        fbeta: beta.map(|b| x(&format!("F{b}"))),
        wc: x("WC"),
        sc: x("SC"),
    }
}

/// Reads the figures of `r` (made with `beta`, None for 1). The rows must be the functions,
/// in order, and nothing else.
fn tagged_of(r: Results, beta: Option<f64>) -> Tagged {
    assert_eq!((r.family.as_str(), r.unit), ("tagging", Unit::Sentence));
    let t = r.table("tagging").expect("table tagging");
    let rows: Vec<&str> = t.rows.iter().map(|row| row.key[0].as_str()).collect();
    let weighted = match rows[..] {
        ["exact", "pos", "positional"] => false,
        ["exact", "pos", "positional", "weighted"] => true,
        _ => panic!("tagging rows {rows:?}"),
    };
    Tagged {
        sentences: r.units as u64,
        segments: count(&r, "segments"),
        gold_tags: count(&r, "gold tags"),
        pred_tags: count(&r, "run tags"),
        exact: scores(&r, "exact", beta),
        pos: scores(&r, "pos", beta),
        positional: scores(&r, "positional", beta),
        weighted: weighted.then(|| scores(&r, "weighted", beta)),
        warnings: r.warnings.clone(),
        results: r,
    }
}

/// The tagging family with `(option, value)` pairs (`format`, `column`, `tagset`, `beta`).
fn tag_family(opts: &[(&str, &str)]) -> Box<dyn Family> {
    let mut o = Options::default();
    for (k, v) in opts {
        o.set(k, v).unwrap();
    }
    family::build("tagging", &o).unwrap()
}

/// The β given among `opts`, if any.
fn beta_of(opts: &[(&str, &str)]) -> Option<f64> {
    opts.iter()
        .find(|(k, _)| *k == "beta")
        .map(|(_, v)| v.parse().unwrap())
}

/// Two files through the family.
fn eval_files(gold: &Path, pred: &Path, opts: &[(&str, &str)]) -> fairscore::Result<Tagged> {
    let fam = tag_family(opts);
    family::evaluate(fam.as_ref(), gold, pred, None).map(|r| tagged_of(r, beta_of(opts)))
}

/// Two TSV texts (written to `gold.tsv` and `run.tsv`) through the family.
fn eval_tsv(gold: &str, pred: &str, opts: &[(&str, &str)]) -> fairscore::Result<Tagged> {
    let mut all = vec![("format", "tsv")];
    all.extend_from_slice(opts);
    crate::common::family_texts("tagging", &all, gold, pred, "tsv")
        .map(|r| tagged_of(r, beta_of(opts)))
}

/// The JSON of the results: no null, NaN or infinity anywhere (the tagging table has no
/// undefined cell).
fn assert_json_complete(r: &Results) {
    let json = fairscore::report::render(r, TableFormat::Json).unwrap();
    assert!(
        !json.contains("null") && !json.contains("NaN") && !json.contains("Infinity"),
        "{json}"
    );
}

/// The cells of a text-table line, split on whitespace.
fn line_cells<'a>(text: &'a str, first: &str) -> Vec<&'a str> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|c| c.first() == Some(&first))
        .unwrap_or_else(|| panic!("no line {first:?} in {text}"))
}

const GER: &str = "ger:sg:nom:n:perf:aff";
const SUBST: &str = "subst:sg:nom:n";

// ---- the paper's examples ----

#[test]
fn positional_accuracy_example_of_section_2_2() {
    // "the tags agree on 3 positions (sg, nom, n), so the precision is 3/6, the recall 3/4,
    // which gives the F-measure of 0.6" — the part of speech counts as a component.
    // Keyed by position (no tagset) and by category (the NKJP tagset) alike.
    let nkjp = Tagset::preset("nkjp").unwrap();
    for ts in [None, Some(&nkjp)] {
        let mut s = TagScorer::new(ts);
        let (t, g) = (s.intern(GER).unwrap(), s.intern(SUBST).unwrap());
        assert_eq!(s.pr(Function::Positional, t, g), (3.0 / 6.0, 3.0 / 4.0));
        assert_eq!(s.score(Function::Positional, t, g), 0.6);
        assert_eq!(s.score(Function::Exact, t, g), 0.0);
        assert_eq!(s.score(Function::Pos, t, g), 0.0);
        assert_eq!(s.score(Function::Positional, t, t), 1.0);
    }
}

#[test]
fn weighted_example_of_section_2_3() {
    // PoS, case, number and gender weigh 2.0, the others 0.5:
    // P = 3×2.0 / (4×2.0 + 2×0.5) = 2/3, R = 3×2.0 / (4×2.0) = 3/4. The values are keyed by
    // category (the paper's C(t1, t2), the categories common to both tags, §2.4): perf and aff
    // weigh 0.5 as aspect and negation, whatever their position.
    let ts = tagset("paper-weights.toml");
    let mut s = TagScorer::new(Some(&ts));
    let (t, g) = (s.intern(GER).unwrap(), s.intern(SUBST).unwrap());
    assert_eq!(s.pr(Function::Weighted, t, g), (2.0 / 3.0, 3.0 / 4.0));
    // "This results in a higher F-measure than in case of non-weighted positional accuracy."
    let f = s.score(Function::Weighted, t, g);
    assert!((f - 12.0 / 17.0).abs() < 1e-15, "{f}");
    assert!(f > s.score(Function::Positional, t, g));
}

#[test]
fn conditional_weights_of_section_2_4() {
    // P with the weights of t's part of speech (ger), R with those of g's (subst):
    // P = Σ_{n,c,g} w(c|ger) / (w(ger) + Σ_{n,c,g,a,neg} w(c|ger)) = 3.5 / 7,
    // R = Σ_{n,c,g} w(c|subst) / (w(subst) + Σ_{n,c,g} w(c|subst)) = 7 / 11.
    let ts = tagset("conditional.toml");
    let mut s = TagScorer::new(Some(&ts));
    let (t, g) = (s.intern(GER).unwrap(), s.intern(SUBST).unwrap());
    assert_eq!(s.pr(Function::Weighted, t, g), (0.5, 7.0 / 11.0));
    // A part of speech without a table takes the base weights (all 1): positional again.
    let (a, b) = (
        s.intern("adj:sg:nom:n:pos").unwrap(),
        s.intern("num:sg:nom:n").unwrap(),
    );
    assert_eq!(
        s.pr(Function::Weighted, a, b),
        s.pr(Function::Positional, a, b)
    );
}

#[test]
fn keys_by_category_differ_from_keys_by_position() {
    // siebie:acc has case first; subst:sg:acc:m1 has number first.
    let mut s = TagScorer::new(None);
    let (t, g) = (
        s.intern("siebie:acc").unwrap(),
        s.intern("subst:sg:acc:m1").unwrap(),
    );
    assert_eq!(s.score(Function::Positional, t, g), 0.0);
    let nkjp = Tagset::preset("nkjp").unwrap();
    let mut s = TagScorer::new(Some(&nkjp));
    let (t, g) = (
        s.intern("siebie:acc").unwrap(),
        s.intern("subst:sg:acc:m1").unwrap(),
    );
    assert_eq!(s.pr(Function::Positional, t, g), (1.0 / 2.0, 1.0 / 4.0));
    // Weighted with the Poliqarp weights: case agrees.
    let (p, r) = s.pr(Function::Weighted, t, g);
    assert_eq!(p, 14055.0 / (37771.0 + 14055.0));
    assert_eq!(r, 14055.0 / (37771.0 + 2074.0 + 14055.0 + 552.0));
}

#[test]
fn paper_example_through_the_binary() {
    let out = crate::common::temp_dir("tagging_paper");
    let json = out.join("paper.json");
    let (gold, pred, weights) = (
        fixture("paper-gold.tsv"),
        fixture("paper-pred.tsv"),
        fixture("paper-weights.toml"),
    );
    let (gold, pred, weights) = (
        gold.to_string_lossy(),
        pred.to_string_lossy(),
        weights.to_string_lossy(),
    );
    // The command is the family: the same document as `evaluate --family tagging`.
    let args = ["--gold", &*gold, "--pred", &*pred, "--tagset", &*weights];
    let (_, v) = run_family("tagging", &args, &json);
    assert_document_keys(&v, "paper example");
    let t = crate::common::json_table(&v, "tagging");
    assert_eq!(row_levels(t), ["exact", "pos", "positional", "weighted"]);
    assert_eq!(column_names(t), ["P", "R", "F1", "WC", "SC"]);
    assert_eq!(
        crate::common::json_cell(&v, "totals", &["segments"], "n"),
        Some(1.0)
    );
    // One tag a side: P = R = F1 = WC = SC = the score.
    for k in ["P", "R", "F1", "WC", "SC"] {
        let f = |row: &str| crate::common::json_cell(&v, "tagging", &[row], k);
        assert_eq!(f("positional"), Some(0.6), "{k}");
        assert_eq!(f("exact"), Some(0.0), "{k}");
        let w = f("weighted").unwrap();
        assert!((w - 12.0 / 17.0).abs() < 1e-15, "{k}: {w}");
    }
    // Without a tagset there is no weighted row.
    let (o, v) = run_family("tagging", &["--gold", &*gold, "--pred", &*pred], &json);
    let rows = crate::common::json_table(&v, "tagging")["rows"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["key"]["level"] != "weighted"));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        line_cells(&stdout, "positional"),
        ["positional", "60.00", "60.00", "60.00", "60.00", "60.00"],
        "{stdout}"
    );
}

// ---- §3.1 on multi-tag cells ----

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn check(name: &str, s: &FunctionScores, want: [f64; 5]) {
    let got = [s.p, s.r, s.f1, s.wc, s.sc];
    assert!(
        got.iter().zip(want).all(|(a, b)| close(*a, b)),
        "{name}: P R F1 WC SC = {got:?}, expected {want:?}"
    );
}

#[test]
fn scored_metrics_of_section_3_1_on_several_tags_per_segment() {
    // gold              run
    // a  x:1            x:1
    // b  y:1|y:2        y:1
    // c  z              x|z
    // d  x:2            x:1
    let r = eval_files(
        &fixture("multi-gold.tsv"),
        &fixture("multi-pred.tsv"),
        &[("format", "tsv"), ("beta", "2")],
    )
    .unwrap();
    assert_eq!(r.segments, 4);
    assert_eq!((r.pred_tags, r.gold_tags), (5, 5));
    // exact: Σ score(t, G) = 1 + 1 + 1 + 0 over 5 run tags; likewise over 5 gold tags;
    // WC: 1, 1, 1, 0; SC: 1, 0 (y:2 unmatched), 0 (x unmatched), 0.
    check("exact", &r.exact, [0.6, 0.6, 0.6, 0.75, 0.25]);
    // pos: x:1 / x:2 share the part of speech; x / z do not.
    check("pos", &r.pos, [0.8, 1.0, 8.0 / 9.0, 1.0, 0.75]);
    // positional (by position): y:2 against y:1 and x:1 against x:2 score 1/2.
    check(
        "positional",
        &r.positional,
        [0.7, 0.8, 56.0 / 75.0, 0.875, 0.5],
    );
    assert!(r.weighted.is_none());
    // F2 = 5PR / (4P + R).
    let f2 = r.positional.fbeta.unwrap();
    assert!(close(f2, 5.0 * 0.7 * 0.8 / (4.0 * 0.7 + 0.8)), "{f2}");
}

#[test]
fn one_tag_a_side_all_five_equal_accuracy() {
    let gold = "a\tA\nb\tB\nc\tC\n\nd\tD\n";
    let run = "a\tA\nb\tX\nc\tC\n\nd\tD\n";
    let r = eval_tsv(gold, run, &[]).unwrap();
    assert_eq!((r.sentences, r.segments), (2, 4));
    for s in [r.exact, r.pos, r.positional] {
        assert_eq!([s.p, s.r, s.f1, s.wc, s.sc], [0.75; 5]);
    }
    // Repeated tags in a cell count once.
    let r = eval_tsv("a\tA|A\n", "a\tA|A|A\n", &[]).unwrap();
    assert_eq!((r.pred_tags, r.gold_tags), (1, 1));
    // Empty files: zero segments, all zero (never NaN).
    let r = eval_tsv("", "", &[]).unwrap();
    assert_eq!(r.segments, 0);
    assert_eq!(r.exact.p, 0.0);
    assert_json_complete(&r.results);
}

// ---- the CoNLL 2018 evaluation script on ../shared/data/ud ----

const NKJP_CONLLU: [(&str, &str); 2] = [("format", "conllu"), ("tagset", "nkjp")];

#[test]
fn polish_pdb_exact_equals_conll18_xpos_accuracy() {
    let Some(ud) = require_shared("polish_pdb_exact_equals_conll18_xpos_accuracy") else {
        return;
    };
    let dir = ud.join("tagging");
    let gold = dir.join("pl_pdb-ud-dev.conllu");
    for (run, want) in [("morfeusz-first", "59.19"), ("freq", "75.33")] {
        let r = eval_files(&gold, &dir.join(format!("{run}-dev.conllu")), &NKJP_CONLLU).unwrap();
        let e = &r.exact;
        // One tag a side: P = R = F1 = WC = SC = accuracy.
        for (k, x) in [
            ("P", e.p),
            ("R", e.r),
            ("F1", e.f1),
            ("WC", e.wc),
            ("SC", e.sc),
        ] {
            assert_eq!(format!("{:.2}", 100.0 * x), want, "{run} exact {k}");
        }
        assert_eq!(r.segments, 34677, "{run}");
        let w = r.weighted.unwrap();
        assert!(e.p <= r.positional.p && r.positional.p <= r.pos.p, "{run}");
        assert!(e.p <= w.p && w.p <= 1.0, "{run}");
        println!(
            "{run}: exact {:.2}, pos {:.2}, positional {:.2}, weighted {:.2}",
            100.0 * e.p,
            100.0 * r.pos.p,
            100.0 * r.positional.p,
            100.0 * w.p
        );
    }
    // The multi-tag analyser: recall is bounded by the gold tags it proposes; every run tag
    // counts for precision.
    let r = eval_files(&gold, &dir.join("morfeusz-all-dev.conllu"), &NKJP_CONLLU).unwrap();
    assert!(r.pred_tags > r.gold_tags);
    assert!(r.exact.r > r.exact.p);
    assert!(r.exact.wc >= r.exact.sc);
    println!(
        "morfeusz-all exact: P {:.2} R {:.2} F1 {:.2} WC {:.2} SC {:.2}",
        100.0 * r.exact.p,
        100.0 * r.exact.r,
        100.0 * r.exact.f1,
        100.0 * r.exact.wc,
        100.0 * r.exact.sc
    );
}

#[test]
fn polish_pdb_through_the_binary() {
    let Some(ud) = require_shared("polish_pdb_through_the_binary") else {
        return;
    };
    let dir = ud.join("tagging");
    let out = crate::common::temp_dir("tagging_pdb");
    let json = out.join("freq.json");
    let (gold, pred) = (
        dir.join("pl_pdb-ud-dev.conllu"),
        dir.join("freq-dev.conllu"),
    );
    let (gold, pred) = (gold.to_string_lossy(), pred.to_string_lossy());
    // The command is the family, on a real pair: the same document as `evaluate`.
    let args = [
        "--gold", &*gold, "--pred", &*pred, "--column", "XPOS", "--tagset", "nkjp",
    ];
    let (o, v) = run_family("tagging", &args, &json);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        line_cells(&stdout, "exact"),
        ["exact", "75.33", "75.33", "75.33", "75.33", "75.33"],
        "{stdout}"
    );
    assert_eq!(
        crate::common::json_cell(&v, "totals", &["segments"], "n"),
        Some(34677.0)
    );
    assert!(crate::common::json_cell(&v, "tagging", &["weighted"], "F1").is_some());
    // Every tag of the real runs is inside the nkjp tag set: no warning.
    assert!(!String::from_utf8_lossy(&o.stderr).contains("outside the tag set"));
    assert_eq!(v["warnings"], serde_json::json!([]));
}

#[test]
fn tags_outside_the_tag_set_are_reported_once_at_their_first_line() {
    let dir = crate::common::temp_dir("tagging_outside");
    let gold = dir.join("gold.tsv");
    let pred = dir.join("run.tsv");
    std::fs::write(
        &gold,
        "Ala\tsubst:sg:nom:f\nma\tfin:sg:ter:imperf\n\nkota\tsubst:sg:acc:m2\n",
    )
    .unwrap();
    let run = |p: &Path, text: &str| {
        std::fs::write(p, text).unwrap();
        let o = crate::common::fairscore(&[
            "tagging",
            "--gold",
            &gold.to_string_lossy(),
            "--pred",
            &p.to_string_lossy(),
            "--tagset",
            "nkjp",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = run(
        &pred,
        "Ala\tsubst:sg:nom:f\nma\tzzz:bad\n\nkota\tzzz:bad|subst:sg:acc:m2\n",
    );
    assert!(
        err.contains(&format!(
            "{}:2: 2 token(s) have tags outside the tag set",
            pred.display()
        )) && err.contains("part of speech \"zzz\" of tag \"zzz:bad\""),
        "{err}"
    );
    // The same warning is in the family's results.
    let r = eval_tsv(
        &std::fs::read_to_string(&gold).unwrap(),
        &std::fs::read_to_string(&pred).unwrap(),
        &[("tagset", "nkjp")],
    )
    .unwrap();
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("run.tsv:2: 2 token(s) have tags outside the tag set"),
        "{:?}",
        r.warnings
    );
    let err = run(
        &pred,
        "Ala\tsubst:sg:nom:f\nma\tfin:sg:ter:imperf\n\nkota\tsubst:sg:akk:m2\n",
    );
    assert!(
        err.contains(":4: 1 token(s)") && err.contains("value \"akk\" of tag \"subst:sg:akk:m2\""),
        "{err}"
    );
    let err = run(
        &pred,
        "Ala\tsubst:sg:nom:f\nma\tfin:sg:ter:imperf\n\nkota\tsubst:sg:acc:m2\n",
    );
    assert!(!err.contains("outside"), "{err}");
    // A tag set of parts of speech only: the unknown one is still reported.
    let ts = dir.join("pos.toml");
    std::fs::write(&ts, "parts_of_speech = [\"subst\", \"fin\"]\n").unwrap();
    std::fs::write(
        &pred,
        "Ala\tsubst:sg:nom:f\nma\tzzz:sg\n\nkota\tsubst:sg:acc:m2\n",
    )
    .unwrap();
    let o = crate::common::fairscore(&[
        "tagging",
        "--gold",
        &gold.to_string_lossy(),
        "--pred",
        &pred.to_string_lossy(),
        "--tagset",
        &ts.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(":2: 1 token(s) have tags outside the tag set") && err.contains("\"zzz\""),
        "{err}"
    );
}

// ---- tagsets ----

fn input_error(r: Result<Tagset, Error>) -> (usize, String) {
    match r {
        Err(Error::Input { line, message, .. }) => (line, message),
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn tagset_validation_names_the_line() {
    let p = Path::new("t.toml");
    let cases: &[(&str, usize, &str)] = &[
        (
            "[categories]\nnumber = [\"sg\", \"pl\"]\ncase = [\"nom\",\n  \"sg\"]\n",
            4,
            "duplicate value \"sg\" in category case: already listed under number (line 2)",
        ),
        (
            "[categories]\nnumber = [\"sg\", \"sg\"]\n",
            2,
            "duplicate value \"sg\"",
        ),
        (
            "parts_of_speech = [\"subst\",\n  \"subst\"]\n",
            2,
            "parts_of_speech: \"subst\" is listed twice",
        ),
        (
            "parts_of_speech = [\"a:b\"]\n",
            1,
            "parts_of_speech: \"a:b\": expected a non-empty name without the separator",
        ),
        (
            "[weights]\npos = 1\ndefault = -0.5\n",
            3,
            "weight default = -0.5",
        ),
        ("[weights]\npos = nan\n", 2, "expected a finite number"),
        ("[weights]\npos = inf\n", 2, "expected a finite number"),
        ("[weights.ger]\ncase = -1\n", 2, "weight case = -1"),
        (
            "[weights.ger]\ncase = 1\n",
            2,
            "unknown key \"case\" in [weights.ger]",
        ),
        (
            "[weights]\nnumbr = 2\n",
            2,
            "unknown key \"numbr\" in [weights]",
        ),
        (
            "separator = \":\"\ncolour = 1\n",
            2,
            "unknown field `colour`",
        ),
        ("separator = \"|\"\n", 1, "separator"),
        ("[categories]\npos = [\"x\"]\n", 2, "reserved"),
        ("[categories]\nn = [\"a:b\"]\n", 2, "without the separator"),
        (
            "[weights]\npos = \"high\"\n",
            2,
            "a weight (a number) or a table",
        ),
        ("[categories\n", 1, "invalid tagset"),
    ];
    for (text, line, frag) in cases {
        let (l, m) = input_error(Tagset::parse(p, text));
        assert!(m.contains(frag), "{text:?}: {m}");
        assert_eq!(l, *line, "{text:?}: {m}");
    }
}

#[test]
fn tagset_weights_resolve_with_defaults_and_conditional_tables() {
    let t = Tagset::parse(
        Path::new("t.toml"),
        "[categories]\na = [\"x\"]\nb = [\"y\"]\nc = [\"z\"]\n\
         [weights]\npos = 5\na = 2\ndefault = 1\n\
         [weights.P]\nb = 7\n\
         [weights.Q]\ndefault = 3\npos = 9\n",
    )
    .unwrap();
    let w = t.weights.as_ref().unwrap();
    assert_eq!(w.base.pos, 5.0);
    assert_eq!(w.base.categories, [2.0, 1.0, 1.0]);
    assert_eq!(w.for_pos("P").categories, [2.0, 7.0, 1.0]);
    assert_eq!(w.for_pos("P").pos, 5.0);
    assert_eq!(w.for_pos("Q").categories, [3.0, 3.0, 3.0]);
    assert_eq!((w.for_pos("Q").pos, w.for_pos("Q").default), (9.0, 3.0));
    assert_eq!(w.for_pos("other"), &w.base);
    // Without [weights] there is no weighted function; pos is the default when absent.
    assert!(Tagset::parse(Path::new("t"), "[categories]\na = [\"x\"]\n")
        .unwrap()
        .weights
        .is_none());
    let t = Tagset::parse(Path::new("t"), "[weights]\ndefault = 4\n").unwrap();
    assert_eq!(t.weights.unwrap().base.pos, 4.0);
}

#[test]
fn nkjp_preset_has_the_papers_categories_and_weights() {
    let t = Tagset::preset("nkjp").unwrap();
    assert_eq!(t.separator, ":");
    assert_eq!(
        t.categories,
        [
            "number",
            "case",
            "gender",
            "person",
            "degree",
            "aspect",
            "negation",
            "accentability",
            "post-prepositionality",
            "accommodability",
            "agglutination",
            "vocalicity",
            "fullstoppedness",
            "collectivity"
        ]
    );
    let w = t.weights.as_ref().unwrap();
    assert_eq!(w.base.pos, 37771.0);
    let weight = |c: &str| w.base.categories[t.categories.iter().position(|x| x == c).unwrap()];
    for (c, n) in [
        ("case", 14055.0),
        ("number", 2074.0),
        ("gender", 552.0),
        ("aspect", 222.0),
        ("person", 186.0),
        ("degree", 81.0),
        ("accommodability", 25.0),
        ("post-prepositionality", 8.0),
        ("negation", 7.0),
        ("accentability", 5.0),
        ("agglutination", 4.0),
        ("vocalicity", 0.0),
        ("fullstoppedness", 0.0),
        ("collectivity", 0.0),
    ] {
        assert_eq!(weight(c), n, "{c}");
    }
    assert_eq!(w.base.default, 0.0);
    // "pos" is a value of degree here (positive), not the part of speech.
    assert_eq!(t.category_of("pos"), Some(4));
}

// ---- bad inputs through the binary ----

#[test]
fn bad_inputs_exit_with_their_status_and_write_nothing() {
    let f = |n: &str| fixture(n).to_string_lossy().into_owned();
    let (pg, pp) = (f("paper-gold.tsv"), f("paper-pred.tsv"));
    let (mg, mp) = (f("misaligned-gold.tsv"), f("misaligned-pred.tsv"));
    fails(
        "tagging_bad_tokens",
        &["tagging", "--gold", &mg, "--pred", &mp],
        3,
        &format!("{mp}:3: token \"uda\" does not align with the gold {mg}:3 token \"udo\""),
    );
    fails(
        "tagging_bad_count",
        &["tagging", "--gold", &pg, "--pred", &mp],
        3,
        &format!("{mp}:3: the gold ends after sentence 1 ({pg}:1); the run goes on here with sentence 2 (the run has 2 sentences, the gold 1)"),
    );
    let seg = |n: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/segmentation")
            .join(n)
            .to_string_lossy()
            .into_owned()
    };
    let (cg, cp) = (seg("mwt-gold.conllu"), seg("mwt-pred.conllu"));
    fails(
        "tagging_bad_conllu-tokens",
        &["tagging", "--gold", &cg, "--pred", &cp],
        3,
        &format!("{cp}:2: token \"al\" does not align with the gold {cg}:4 token \"a\""),
    );
    fails(
        "tagging_bad_duplicate",
        &[
            "tagging",
            "--gold",
            &pg,
            "--pred",
            &pp,
            "--tagset",
            &f("duplicate-value.toml"),
        ],
        3,
        &format!(
            "{}:4: duplicate value \"sg\" in category degree: already listed under number (line 2)",
            f("duplicate-value.toml")
        ),
    );
    fails(
        "tagging_bad_negative",
        &[
            "tagging",
            "--gold",
            &pg,
            "--pred",
            &pp,
            "--tagset",
            &f("negative-weight.toml"),
        ],
        3,
        &format!("{}:6: weight number = -2", f("negative-weight.toml")),
    );
    fails(
        "tagging_bad_unknown-key",
        &[
            "tagging",
            "--gold",
            &pg,
            "--pred",
            &pp,
            "--tagset",
            &f("unknown-key.toml"),
        ],
        3,
        &format!("{}:6: unknown key \"numbr\"", f("unknown-key.toml")),
    );
    fails(
        "tagging_bad_format",
        &["tagging", "--gold", &pg, "--pred", &pp, "--format", "xml"],
        2,
        "--format: unknown format \"xml\"",
    );
    // A format of another family: the formats tagging reads.
    fails(
        "tagging_bad_format-text",
        &["tagging", "--gold", &pg, "--pred", &pp, "--format", "text"],
        2,
        "--format text: the tagging family reads conllu, tsv",
    );
    fails(
        "tagging_bad_column",
        &["tagging", "--gold", &cg, "--pred", &cg, "--column", "POS"],
        2,
        "--column \"POS\"",
    );
    fails(
        "tagging_bad_tsv-column",
        &["tagging", "--gold", &pg, "--pred", &pp, "--column", "XPOS"],
        2,
        "for TSV expected the number",
    );
    fails(
        "tagging_bad_tagset-missing",
        &[
            "tagging",
            "--gold",
            &pg,
            "--pred",
            &pp,
            "--tagset",
            "/nonexistent/t.toml",
        ],
        3,
        "/nonexistent/t.toml: no such file",
    );
    // An empty tag in a cell names the file and line.
    let dir = crate::common::temp_dir("tagging_empty_tag");
    let run = dir.join("run.tsv");
    std::fs::write(&run, "zadanie\tsubst:sg:nom:n|\n").unwrap();
    fails(
        "tagging_bad_empty-tag",
        &["tagging", "--gold", &pg, "--pred", &run.to_string_lossy()],
        3,
        &format!("{}:1: an empty tag", run.display()),
    );
    // The output may not overwrite an input (the tagset included).
    let tags = dir.join("t.toml");
    std::fs::write(&tags, "").unwrap();
    let ts = tags.to_string_lossy();
    let o = crate::common::fairscore(&[
        "tagging", "--gold", &pg, "--pred", &pp, "--tagset", &ts, "--json", &ts,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is the same file as --tagset"));
    assert_eq!(std::fs::read_to_string(&tags).unwrap(), "");
}

/// Mutated inputs and tagsets give a result or a typed error, never a panic.
#[test]
fn mutated_inputs_and_tagsets_never_panic() {
    let seg = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/segmentation");
    let seeds: Vec<Vec<u8>> = [
        fixture("multi-gold.tsv"),
        fixture("multi-pred.tsv"),
        fixture("paper-weights.toml"),
        fixture("conditional.toml"),
        seg.join("mwt-gold.conllu"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("presets/nkjp.toml"),
    ]
    .iter()
    .map(|p| std::fs::read(p).unwrap())
    .collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let alphabet = b"\t\n\r |:=[]\".-#_019ax\xc5\x82";
    let dir = crate::common::temp_dir("tagging_mutated");
    let (file, ts_file) = (dir.join("t.txt"), dir.join("t.toml"));
    let ts_path = ts_file.to_string_lossy().into_owned();
    // The families of the bundled tag set, built once (F0.5 as well as F1).
    let nkjp: Vec<Box<dyn Family>> = ["tsv", "conllu"]
        .iter()
        .map(|f| tag_family(&[("format", f), ("tagset", "nkjp"), ("beta", "0.5")]))
        .collect();
    let plain: Vec<Box<dyn Family>> = ["tsv", "conllu"]
        .iter()
        .map(|f| tag_family(&[("format", f), ("beta", "0.5")]))
        .collect();
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
        std::fs::write(&file, &text).unwrap();
        std::fs::write(&ts_file, &text).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // The text as a tag set, when it is one (as a file: the family loads it).
            let ts = Tagset::parse(Path::new("t.toml"), &text).ok();
            for (k, format) in ["tsv", "conllu"].into_iter().enumerate() {
                let own = ts.as_ref().map(|_| {
                    let mut o = Options::default();
                    o.set("format", format).unwrap();
                    o.set("tagset", &ts_path).unwrap();
                    o.set("beta", "0.5").unwrap();
                    family::build("tagging", &o).expect("a tag set that parses loads")
                });
                for fam in [
                    own.as_deref(),
                    Some(nkjp[k].as_ref()),
                    Some(plain[k].as_ref()),
                ]
                .into_iter()
                .flatten()
                {
                    if let Ok(res) = family::evaluate(fam, &file, &file, None) {
                        assert_json_complete(&res);
                        let r = tagged_of(res, Some(0.5));
                        for (_, s) in r.functions() {
                            for x in [s.p, s.r, s.f1, s.fbeta.unwrap(), s.wc, s.sc] {
                                assert!((0.0..=1.0).contains(&x), "{x}");
                            }
                        }
                    }
                }
            }
        }));
        assert!(r.is_ok(), "iteration {i}: panic on {text:?}");
    }
}

// ---- large tagsets (issue 26, class 7) ----

/// A tagset of 240 000 values (one a line) and 2 000 weighted categories loads with every
/// value in its category and errors on the right line. Loading looked up each value's line
/// from the start of the text and each weight's category by a scan (quadratic: 7 s for
/// 240 000 values); the line is now a binary search and the category a map lookup. Not timed
/// here: measured by hand (docs/tagging.md).
#[test]
fn a_tagset_of_240k_values_loads_with_correct_lines() {
    let n = 240_000;
    let mut text = String::from("[categories]\nbig = [\n");
    for i in 0..n {
        text.push_str(&format!("  \"v{i}\",\n"));
    }
    text.push_str("]\n");
    for c in 0..2_000 {
        text.push_str(&format!("c{c} = [\"x{c}\"]\n"));
    }
    text.push_str("[weights]\n");
    for c in 0..2_000 {
        text.push_str(&format!("c{c} = {}\n", c % 7));
    }
    let ts = Tagset::parse(Path::new("big.toml"), &text).unwrap();
    assert_eq!(ts.categories.len(), 2_001);
    assert_eq!(ts.category_of("v0"), Some(0));
    assert_eq!(ts.category_of(&format!("v{}", n - 1)), Some(0));
    assert_eq!(ts.category_of("x1999"), Some(2_000));
    let w = ts.weights.as_ref().unwrap();
    assert_eq!(w.base.categories[2_000], (1999 % 7) as f64);
    // A value listed again at the very end: the error names its line and the first one's.
    let dup = text.replace("c1999 = [\"x1999\"]", "c1999 = [\"x1999\", \"v7\"]");
    let e = Tagset::parse(Path::new("big.toml"), &dup)
        .unwrap_err()
        .to_string();
    let line = 3 + n + 1 + 1999;
    assert!(
        e.contains(&format!("big.toml:{line}:")) && e.contains("(line 10)"),
        "{e}"
    );
}
