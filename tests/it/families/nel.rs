//! The nel family (neleval's entity-linking measures, docs/nel.md): a hand-made gold and run
//! with every error label, counted by hand; the official HIPE NEL scores unchanged beside it;
//! and, with ../shared, the counts of a real run consistent with one another.
//! (`scripts/neleval_crosscheck.sh` compares every number with neleval 3.1.1 itself.)

use std::path::{Path, PathBuf};

use crate::common::{fairscore, fairscore_json, json_cell, temp_dir};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nel")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

// The example (tests/fixtures/nel), NE-COARSE-LIT / NEL-LIT, mention by mention:
//
// doc d1   gold                       run                      label
//   Paris        LOC Q90              LOC Q90                  correct link
//   France       LOC Q142             LOC Q30                  wrong-link
//   Jean Dupont  PERS NIL             PERS NIL                 correct nil
//   Marie        PERS NIL             PERS Q555                nil-as-link
// doc d2
//   Lyon         LOC Q456             LOC NIL                  link-as-nil
//   Berlin       LOC Q64              (no mention)             missing
//   Rome         (no mention)         LOC Q220                 extra
//   Bern         LOC Q70              ORG Q70|Q71              correct link (type differs)
//   Nice         LOC Q33              LOC Q999|Q33             wrong-link (right at n-best 2)
//
// Gold: 8 mentions, 6 linked, 2 NIL; run: 8 mentions, 6 linked (Q90 Q30 Q555 Q220 Q70 Q999),
// 2 NIL (Jean Dupont, Lyon).
// At n-best 1:
//   strong_mention_match: same span, links ignored: every pair but Berlin and Rome = 7; FP 8-7
//     (Rome), FN 8-7 (Berlin); the same at every cutoff.
//   strong_link_match: same span, both linked, same id: Paris, Bern = 2; FP 6-2, FN 6-2.
//   strong_nil_match: same span, both NIL: Jean Dupont = 1; FP 2-1 (Lyon), FN 2-1 (Marie).
//   strong_all_match: Paris, Bern, Jean Dupont = 3; FP 8-3, FN 8-3.
//   strong_typed_all_match: Bern's type differs: 2; FP 6, FN 6.
//   entity_match: d1 gold {Q90 Q142}, run {Q90 Q30 Q555}: 1, 2, 1; d2 gold {Q456 Q64 Q70 Q33},
//     run {Q220 Q70 Q999}: 1, 2, 3; together 2, 4, 4.
// At n-best 2 Nice takes Q33: link 3/3/3, nil unchanged, all 4/4/4, typed 3/5/5, entity: d2
//   run {Q220 Q70 Q33}: 2, 1, 2; together 3, 3, 3.
const MICRO_AT_1: [(&str, [f64; 3]); 6] = [
    ("strong_mention_match", [7.0, 1.0, 1.0]),
    ("strong_link_match", [2.0, 4.0, 4.0]),
    ("strong_nil_match", [1.0, 1.0, 1.0]),
    ("strong_all_match", [3.0, 5.0, 5.0]),
    ("strong_typed_all_match", [2.0, 6.0, 6.0]),
    ("entity_match", [2.0, 4.0, 4.0]),
];
const MICRO_AT_2: [(&str, [f64; 3]); 6] = [
    ("strong_mention_match", [7.0, 1.0, 1.0]),
    ("strong_link_match", [3.0, 3.0, 3.0]),
    ("strong_nil_match", [1.0, 1.0, 1.0]),
    ("strong_all_match", [4.0, 4.0, 4.0]),
    ("strong_typed_all_match", [3.0, 5.0, 5.0]),
    ("entity_match", [3.0, 3.0, 3.0]),
];
const LABELS: [(&str, f64); 7] = [
    ("correct link", 2.0),
    ("correct nil", 1.0),
    ("nil-as-link", 1.0),
    ("link-as-nil", 1.0),
    ("wrong-link", 2.0),
    ("extra", 1.0),
    ("missing", 1.0),
];

fn check_micro(v: &serde_json::Value, table: &str, expected: &[(&str, [f64; 3])]) {
    for (m, [tp, fp, fn_]) in expected {
        let cell = |c: &str| json_cell(v, table, &[m], c);
        assert_eq!(cell("TP"), Some(*tp), "{table} {m} TP");
        assert_eq!(cell("FP"), Some(*fp), "{table} {m} FP");
        assert_eq!(cell("FN"), Some(*fn_), "{table} {m} FN");
        let (p, r) = (tp / (tp + fp), tp / (tp + fn_));
        assert_eq!(cell("P"), Some(p), "{table} {m} P");
        assert_eq!(cell("R"), Some(r), "{table} {m} R");
        assert_eq!(cell("F1"), Some(2.0 * p * r / (p + r)), "{table} {m} F1");
    }
}

#[test]
fn every_error_label_and_measure_of_the_hand_made_example() {
    let (g, r) = (fixture("gold.tsv"), fixture("run.tsv"));
    let dir = temp_dir("nel-example");
    let listing = dir.join("mentions.tsv");
    let l = listing.to_string_lossy().into_owned();
    let v = fairscore_json(&[
        "evaluate", "--family", "nel", "--gold", &g, "--pred", &r, "--n-best", "1,2", "--errors",
        &l, "--json", "-",
    ]);
    assert_eq!(v["units"], 2);
    check_micro(&v, "micro", &MICRO_AT_1);
    check_micro(&v, "micro@2", &MICRO_AT_2);
    for (label, n) in LABELS {
        assert_eq!(
            json_cell(&v, "errors", &[label], "count"),
            Some(n),
            "{label}"
        );
    }
    // Per document (d1: Paris and Jean Dupont right, France and Marie not; d2 at n-best 2:
    // Bern and Nice right, Lyon and Rome wrong, Berlin missing).
    let doc = |t: &str, d: &str, m: &str, c: &str| json_cell(&v, t, &[d, m], c);
    assert_eq!(doc("documents", "d1", "strong_all_match", "TP"), Some(2.0));
    assert_eq!(doc("documents", "d1", "strong_all_match", "FP"), Some(2.0));
    assert_eq!(doc("documents", "d1", "entity_match", "FP"), Some(2.0));
    // strong_mention_match per document: d1 every mention found, d2 Berlin missed, Rome extra.
    for (d, n) in [("d1", [4.0, 0.0, 0.0]), ("d2", [3.0, 1.0, 1.0])] {
        let got = ["TP", "FP", "FN"].map(|c| doc("documents", d, "strong_mention_match", c));
        assert_eq!(got, n.map(Some), "{d} strong_mention_match");
    }
    assert_eq!(
        doc("documents@2", "d2", "strong_all_match", "TP"),
        Some(2.0)
    );
    assert_eq!(
        doc("documents@2", "d2", "strong_all_match", "FN"),
        Some(2.0)
    );
    assert_eq!(
        doc("documents@2", "d2", "strong_typed_all_match", "TP"),
        Some(1.0)
    );
    // The headline measure: strong_all_match.
    assert_eq!(
        json_cell(&v, "micro", &["strong_all_match"], "F1"),
        Some(0.375)
    );
    // The listing: a header and one line per pair of mentions (9), labels as counted.
    let text = std::fs::read_to_string(&listing).expect("listing written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    assert!(lines[0].starts_with("document\tline\tend_line\ttext\t"));
    assert!(lines.contains(&"d1\t8\t9\tJean Dupont\tPERS\tNIL\tPERS\tNIL\tcorrect nil"));
    assert!(lines.contains(&"d2\t16\t16\tRome\t\t\tLOC\tQ220\textra"));
    assert!(lines.contains(&"d2\t15\t15\tBerlin\tLOC\tQ64\t\t\tmissing"));
    assert!(lines.contains(&"d2\t17\t17\tBern\tLOC\tQ70\tORG\tQ70\tcorrect link"));
}

#[test]
fn a_gold_entity_without_a_link_is_no_mention_and_meto_is_a_column_option() {
    let dir = temp_dir("nel-options");
    let text = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tNEL-METO\n# document_id = a\nHomer\tB-PERS\tO\t_\t_\nAthens\tB-LOC\tB-ORG\tQ1524\tQ9\n";
    let g = crate::common::write_file(&dir, "gold.tsv", text);
    let v = fairscore_json(&[
        "evaluate", "--family", "nel", "--gold", &g, "--pred", &g, "--json", "-",
    ]);
    // Homer's link is `_`: one gold mention only, matched by itself.
    assert_eq!(
        json_cell(&v, "micro", &["strong_all_match"], "TP"),
        Some(1.0)
    );
    assert_eq!(
        json_cell(&v, "micro", &["strong_all_match"], "FN"),
        Some(0.0)
    );
    let v = fairscore_json(&[
        "evaluate", "--family", "nel", "--column", "NEL-METO", "--gold", &g, "--pred", &g,
        "--json", "-",
    ]);
    assert_eq!(
        json_cell(&v, "micro", &["strong_all_match"], "TP"),
        Some(1.0)
    );
    let bad = fairscore(&[
        "evaluate",
        "--family",
        "nel",
        "--column",
        "NE-COARSE-LIT",
        "--gold",
        &g,
        "--pred",
        &g,
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("NEL-LIT"));
}

fn hipe2022() -> Option<PathBuf> {
    crate::common::shared_data("nel real run").map(|d| d.join("hipe2022"))
}

#[test]
fn a_real_runs_labels_add_up_to_its_mentions_and_hipe_nel_is_unchanged() {
    let Some(d) = hipe2022() else { return };
    let g = d.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv");
    let r = d.join("submissions/team5_bundle5_newseye_fr_1.tsv");
    let (g, r) = (g.to_string_lossy(), r.to_string_lossy());
    let v = fairscore_json(&[
        "evaluate", "--family", "nel", "--gold", &g, "--pred", &r, "--n-best", "1,3", "--json", "-",
    ]);
    let label = |l: &str| json_cell(&v, "errors", &[l], "count").unwrap_or(f64::NAN);
    let all = |c: &str| json_cell(&v, "micro", &["strong_all_match"], c).unwrap_or(f64::NAN);
    let matched = [
        "correct link",
        "correct nil",
        "nil-as-link",
        "link-as-nil",
        "wrong-link",
    ]
    .map(label)
    .iter()
    .sum::<f64>();
    assert_eq!(matched + label("missing"), all("TP") + all("FN"));
    assert_eq!(matched + label("extra"), all("TP") + all("FP"));
    assert_eq!(label("correct link") + label("correct nil"), all("TP"));
    // strong_mention_match pairs mentions by span alone: every labelled pair is one.
    let mention = |c: &str| json_cell(&v, "micro", &["strong_mention_match"], c);
    assert_eq!(
        [mention("TP"), mention("FP"), mention("FN")],
        [Some(matched), Some(label("extra")), Some(label("missing"))]
    );
    // The run gives candidates: n-best 3 finds more links, never fewer.
    let at3 = json_cell(&v, "micro@3", &["strong_link_match"], "TP").unwrap_or(0.0);
    assert!(at3 > json_cell(&v, "micro", &["strong_link_match"], "TP").unwrap_or(0.0));
    // The official NEL scores of the same run are those of the hipe family, as before.
    let h = fairscore_json(&[
        "evaluate",
        "--family",
        "hipe",
        "--task",
        "nel",
        "--hipe-edition",
        "hipe-2022",
        "--gold",
        &g,
        "--pred",
        &r,
        "--json",
        "-",
    ]);
    let official = d.join("official/team5_bundle5_newseye_fr_1_nel.json");
    let o: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(official).expect("official JSON"))
            .expect("JSON");
    let tp = &o["1"]["NEL-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"]["ent_type"]["TP"];
    assert_eq!(
        json_cell(&h, "micro", &["NEL-LIT", "fuzzy", "ALL"], "TP"),
        tp.as_f64()
    );
}
