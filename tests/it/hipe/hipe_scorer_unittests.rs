//! The official HIPE scorer's own NERC unit tests (`unittest_eval_2022.py`), run against
//! fairscore's evaluation: same files, same column, tag set and line handling, and the same
//! comparison (every metric of the reference JSON, macro ones only where the official test
//! includes them).

use crate::common::shared_data;
use fairscore::corpus::ReadOptions;
use fairscore::eval::evaluate_one;
use fairscore::eval::read_tagset;
use fairscore::report::evaluation_json;
use fairscore::Task;

struct Case {
    true_file: &'static str,
    pred_file: &'static str,
    reference: &'static str,
    column: &'static str,
    tagset: bool,
    macro_: bool,
    /// (documents, segments, tokens) the official test asserts for the gold file.
    shape: (usize, usize, usize),
}

const CASES: &[Case] = &[
    Case {
        true_file: "unittest-ner-1-true.tsv",
        pred_file: "unittest-ner-1-pred.tsv",
        reference: "unittest-ner-1-pred.tsv.ner-coarse-lit_ref_results.json",
        column: "NE-COARSE-LIT",
        tagset: true,
        macro_: true,
        shape: (1, 1, 16),
    },
    Case {
        true_file: "unittest-ner-2-true.tsv",
        pred_file: "unittest-ner-2-pred.tsv",
        reference: "unittest-ner-2-pred.tsv.coarse-lit_ref_results.json",
        column: "NE-COARSE-LIT",
        tagset: false,
        macro_: false,
        shape: (1, 1, 32),
    },
    Case {
        true_file: "unittest-ner-2-true.tsv",
        pred_file: "unittest-ner-2-pred.tsv",
        reference: "unittest-ner-2-pred.tsv.nested_ref_results.json",
        column: "NE-NESTED",
        tagset: true,
        macro_: false,
        shape: (1, 1, 32),
    },
    Case {
        true_file: "unittest-ner-2-true.tsv",
        pred_file: "unittest-ner-2-pred.tsv",
        reference: "unittest-ner-2-pred.tsv.fine-lit_ref_results.json",
        column: "NE-FINE-LIT",
        tagset: true,
        macro_: false,
        shape: (1, 1, 32),
    },
    Case {
        true_file: "unittest-ner-2-IOBES-true.tsv",
        pred_file: "unittest-ner-2-IOBES-pred.tsv",
        reference: "unittest-ner-2-IOBES-pred.tsv.coarse-lit_ref_results.json",
        column: "NE-COARSE-LIT",
        tagset: false,
        macro_: false,
        shape: (1, 1, 32),
    },
    Case {
        true_file: "unittest-ner-lit-coarse-3-true.tsv",
        pred_file: "unittest-ner-lit-coarse-3-pred.tsv",
        reference: "unittest-ner-lit-coarse-3-pred.tsv.ref_results.json",
        column: "NE-COARSE-LIT",
        tagset: false,
        macro_: false,
        shape: (1, 1, 37),
    },
    Case {
        true_file: "unittest-ner-lit-coarse-4-true.tsv",
        pred_file: "unittest-ner-lit-coarse-4-pred.tsv",
        reference: "unittest-ner-lit-coarse-4-pred.tsv.ref_results.json",
        column: "NE-COARSE-LIT",
        tagset: true,
        macro_: false,
        shape: (1, 1, 24),
    },
];

#[test]
fn official_nerc_unit_tests_pass() {
    let Some(data) = shared_data("official_nerc_unit_tests_pass") else {
        return;
    };
    let dir = data.join("hipe-scorer-tests");
    let tagset = read_tagset(&data.join("hipe2022/resources/tagset-hipe2022-all.txt")).unwrap();
    let mut checked = 0;
    for case in CASES {
        let gold =
            fairscore::formats::hipe::read(&dir.join(case.true_file), &ReadOptions::default())
                .unwrap();
        let pred =
            fairscore::formats::hipe::read(&dir.join(case.pred_file), &ReadOptions::default())
                .unwrap();
        let segments: usize = gold.docs.iter().map(|d| d.segments.len()).sum();
        assert_eq!(
            (gold.docs.len(), segments, gold.n_tokens()),
            case.shape,
            "{}",
            case.true_file
        );
        let eval = evaluate_one(
            &gold,
            &pred,
            case.column,
            Task::NercCoarse,
            case.tagset.then_some(&tagset),
            1,
            false,
        )
        .unwrap();
        let ours: serde_json::Value = serde_json::from_str(&evaluation_json(&eval)).unwrap();
        let reference: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(case.reference)).unwrap())
                .unwrap();
        let reference = reference.as_object().unwrap();
        for (label, regimes) in reference {
            for (regime, metrics) in regimes.as_object().unwrap() {
                for (metric, want) in metrics.as_object().unwrap() {
                    if !case.macro_ && metric.contains("macro") {
                        continue;
                    }
                    let got = &ours[label][regime][metric];
                    let same = match (want.as_f64(), got.as_f64()) {
                        (Some(w), Some(g)) => (w - g).abs() < 1e-7,
                        _ => want == got,
                    };
                    assert!(
                        same,
                        "{}: {label}/{regime}/{metric}: reference {want}, fairscore {got}",
                        case.reference
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} metrics compared");
}
