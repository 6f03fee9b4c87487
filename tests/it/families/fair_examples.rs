//! Fair evaluation on hand-made examples: the five canonical error types (one tiny sentence
//! each), their combination with hand-computed fair and weighted scores, spans overlapping
//! several others, multi-level annotation, focus, and the readers on the fixtures in
//! `tests/fixtures/fair/`.

use std::path::{Path, PathBuf};

use fairscore::eval::fair;
use fairscore::eval::FairFormat as Format;
use fairscore::eval::FairOptions;
use fairscore::eval::FairReadOptions as ReadOptions;
use fairscore::matching::fair::{
    evaluate, fair_prf, traditional_prf, ErrorType, FairCounts, Focus, Span, Tally,
};

fn counts(target: &[Span], system: &[Span], focus: Focus) -> Tally {
    let o = evaluate(target, system, focus);
    let mut t = Tally::new();
    t.add(target, system, &o);
    t
}

fn only(kind: ErrorType) -> FairCounts {
    let mut c = FairCounts::default();
    c.add(kind);
    c
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

// Sentence: "Die(1) Europäische(2) Union(3) tagt(4) in(5) Brüssel(6)".

#[test]
fn example_1_labeling_error() {
    let t = counts(
        &[Span::new("ORG", 2, 3)],
        &[Span::new("LOC", 2, 3)],
        Focus::Target,
    );
    assert_eq!(t.overall.fair, only(ErrorType::LE));
    assert_eq!(
        (t.overall.traditional.fp, t.overall.traditional.fn_),
        (1, 1)
    );
    assert_eq!(t.confusion_count("ORG", "LOC"), 1);
}

#[test]
fn example_2_boundary_error_smaller() {
    let t = counts(
        &[Span::new("ORG", 1, 3)],
        &[Span::new("ORG", 2, 3)],
        Focus::Target,
    );
    assert_eq!(t.overall.fair, only(ErrorType::BES));
    assert_eq!(
        t.confusion_count("ORG", "ORG"),
        1,
        "boundary errors on the diagonal"
    );
}

#[test]
fn example_3_boundary_error_larger() {
    let t = counts(
        &[Span::new("LOC", 6, 6)],
        &[Span::new("LOC", 5, 6)],
        Focus::Target,
    );
    assert_eq!(t.overall.fair, only(ErrorType::BEL));
}

#[test]
fn example_4_boundary_error_overlapping() {
    let t = counts(
        &[Span::new("ORG", 2, 3)],
        &[Span::new("ORG", 3, 4)],
        Focus::Target,
    );
    assert_eq!(t.overall.fair, only(ErrorType::BEO));
}

#[test]
fn example_5_labeling_boundary_error() {
    let t = counts(
        &[Span::new("ORG", 1, 3)],
        &[Span::new("LOC", 2, 3)],
        Focus::Target,
    );
    assert_eq!(t.overall.fair, only(ErrorType::LBE));
    assert_eq!(t.per_label["ORG"].fair.lbe, 1);
    assert_eq!(t.per_label["LOC"].fair.lbe, 0);
    let t = counts(
        &[Span::new("ORG", 1, 3)],
        &[Span::new("LOC", 2, 3)],
        Focus::System,
    );
    assert_eq!(t.per_label["ORG"].fair.lbe, 0);
    assert_eq!(t.per_label["LOC"].fair.lbe, 1);
}

/// All types in one unit; fair and weighted scores computed by hand.
#[test]
fn combined_scores_by_hand() {
    let target = [
        Span::new("PER", 1, 1),   // TP
        Span::new("ORG", 3, 3),   // LE (system LOC)
        Span::new("ORG", 5, 7),   // BES (system 6-7)
        Span::new("LOC", 10, 10), // BEL (system 9-10)
        Span::new("LOC", 12, 13), // BEO (system 13-14)
        Span::new("ORG", 16, 18), // LBE (system LOC 17-18)
        Span::new("PER", 20, 20), // FN
    ];
    let system = [
        Span::new("PER", 1, 1),
        Span::new("LOC", 3, 3),
        Span::new("ORG", 6, 7),
        Span::new("LOC", 9, 10),
        Span::new("LOC", 13, 14),
        Span::new("LOC", 17, 18),
        Span::new("ORG", 22, 22), // FP
    ];
    let t = counts(&target, &system, Focus::Target);
    let f = t.overall.fair;
    assert_eq!(
        (f.tp, f.fp, f.fn_, f.le, f.bes, f.bel, f.beo, f.lbe),
        (1, 1, 1, 1, 1, 1, 1, 1)
    );
    assert_eq!(
        (
            t.overall.traditional.tp,
            t.overall.traditional.fp,
            t.overall.traditional.fn_
        ),
        (1, 6, 6)
    );
    // Fair: TP 1, FP 1 + 0.5 * 5, FN 1 + 0.5 * 5.
    let p = fair_prf(&f);
    assert!(close(p.p, 1.0 / 4.5) && close(p.r, 1.0 / 4.5));
    let tr = traditional_prf(&t.overall.traditional);
    assert!(close(tr.p, 1.0 / 7.0));
    // Weighted (paper's formula): TP 1 + 0.5 (BES, BEL, BEO) = 2.5;
    // FP 1 + 0.5 LE + 0.5 BEL + 0.25 BEO + 0.5 LBE = 2.75; FN likewise with BES = 2.75.
    let w = fair::parse_weights(
        "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, \
         BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN",
    )
    .unwrap();
    assert_eq!(w.sums(&f), (2.5, 2.75, 2.75));
    let wp = w.prf(&f);
    assert!(close(wp.p, 2.5 / 5.25) && close(wp.f1, 2.5 / 5.25));
    // Per label (focus target): ORG has LE, BES, LBE.
    let org = t.per_label["ORG"].fair;
    assert_eq!((org.le, org.bes, org.lbe, org.fp), (1, 1, 1, 1));
    assert_eq!(t.confusion_count("_", "ORG"), 1);
    assert_eq!(t.confusion_count("PER", "_"), 1);
    assert_eq!(
        t.confusion_count("PER", "PER"),
        0,
        "TP are not in the matrix"
    );
}

#[test]
fn one_target_split_into_two_system_spans() {
    let o = evaluate(
        &[Span::new("NP", 1, 4)],
        &[Span::new("NP", 1, 2), Span::new("NP", 3, 4)],
        Focus::Target,
    );
    let kinds: Vec<ErrorType> = o.assignments.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, vec![ErrorType::BES, ErrorType::BES]);
    assert_eq!(o.target_partners(0), vec![0, 1]);
    assert_eq!(o.system_types, vec![ErrorType::BES, ErrorType::BES]);
}

#[test]
fn two_targets_merged_by_a_longer_span_of_another_label() {
    // A system span covering two targets: one is matched (LBE), the other shares tokens the
    // first did not use and is counted against the same span (LBE again), so no FN/FP.
    let o = evaluate(
        &[Span::new("PER", 1, 2), Span::new("LOC", 4, 4)],
        &[Span::new("ORG", 1, 4)],
        Focus::Target,
    );
    let kinds: Vec<ErrorType> = o.assignments.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, vec![ErrorType::LBE, ErrorType::LBE]);
}

#[test]
fn multi_level_nested_spans() {
    // Level 0 NP over 1-5 with an inner NP (level 1) 3-5; the system gets the outer one right and
    // the inner one too long on the left.
    let target = [
        Span::new("NP", 1, 5),
        Span::new("NP", 3, 5).at_level(1),
        Span::new("PP", 2, 5).at_level(1),
    ];
    let system = [
        Span::new("NP", 1, 5),
        Span::new("NP", 2, 5).at_level(1),
        Span::new("AP", 3, 4).at_level(2),
    ];
    let t = counts(&target, &system, Focus::Target);
    let f = t.overall.fair;
    assert_eq!(f.tp, 1);
    // PP 2-5 vs NP 2-5: same range, other label -> LE; NP 3-5 vs AP 3-4 -> LBE.
    assert_eq!((f.le, f.lbe, f.be(), f.fp, f.fn_), (1, 1, 0, 0, 0));
}

#[test]
fn discontinuous_spans_share_tokens_only() {
    // Target covers tokens 1 and 3 only; the system span 1-3 is larger.
    let target = [Span::new("VC", 1, 3).with_tokens([1, 3])];
    let system = [Span::new("VC", 1, 4)];
    let t = counts(&target, &system, Focus::Target);
    assert_eq!(t.overall.fair, only(ErrorType::BEL));
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fair")
        .join(name)
}

#[test]
fn span_files_with_dummy_and_focus() {
    let mut opts = FairOptions::default();
    let r =
        fair::evaluate_files(&fixture("target.spans"), &fixture("system.spans"), &opts).unwrap();
    let f = r.tally.overall.fair;
    assert_eq!(
        (f.tp, f.fp, f.fn_, f.le, f.bes, f.bel, f.beo, f.lbe),
        (1, 1, 0, 2, 1, 1, 0, 0)
    );
    let tr = r.tally.overall.traditional;
    assert_eq!((tr.tp, tr.fp, tr.fn_), (1, 5, 4));
    assert!(!r.tally.per_label.contains_key("NONE"));
    assert_eq!(r.tally.per_label["LOC"].fair.le, 1);
    assert_eq!(r.tally.per_label["PER"].fair.le, 1);
    let p = fair_prf(&f);
    assert!(close(p.p, 0.25) && close(p.r, 1.0 / 3.0));

    opts.focus = Focus::System;
    opts.exclude = vec!["ORG".to_string()];
    let r =
        fair::evaluate_files(&fixture("target.spans"), &fixture("system.spans"), &opts).unwrap();
    assert!(!r.tally.per_label.contains_key("ORG"));
    // LE counted for the system labels: PER (sentence 1) and LOC (sentence 3).
    assert_eq!(r.tally.per_label["PER"].fair.le, 1);
    assert_eq!(r.tally.per_label["LOC"].fair.le, 1);
    assert_eq!(r.tally.overall.fair.fp, 0);
}

#[test]
fn conll_stacked_with_and_without_punctuation() {
    let mut opts = FairOptions {
        read: ReadOptions {
            format: Some(Format::Conll),
            ..ReadOptions::default()
        },
        ..FairOptions::default()
    };
    let r =
        fair::evaluate_files(&fixture("target.conll"), &fixture("system.conll"), &opts).unwrap();
    let f = r.tally.overall.fair;
    assert_eq!((f.tp, f.bel, f.bes, f.fp, f.fn_), (1, 2, 1, 0, 0));
    opts.read.ignore_punct = true;
    let r =
        fair::evaluate_files(&fixture("target.conll"), &fixture("system.conll"), &opts).unwrap();
    let f = r.tally.overall.fair;
    assert_eq!((f.tp, f.bel, f.bes, f.fp, f.fn_), (2, 1, 1, 0, 0));
}

#[test]
fn hipe_column_documents_and_texts() {
    let opts = FairOptions::default();
    let r = fair::evaluate_files(&fixture("target.tsv"), &fixture("system.tsv"), &opts).unwrap();
    assert_eq!(r.units.len(), 2);
    assert_eq!(r.units[0].target.id, "doc-a");
    let f = r.tally.overall.fair;
    assert_eq!((f.tp, f.bel, f.le, f.bes, f.fp, f.fn_), (0, 1, 1, 1, 0, 0));
    let u = &r.units[0];
    assert_eq!(
        u.target.text_of(&u.target.spans[0]).as_deref(),
        Some("Conseil fédéral")
    );
    let tsv = fair::errors_tsv(&r);
    assert!(tsv.contains("doc-a\ttarget\t4\t2\t3\tORG\tBEL\tFN\tORG[1-3]\tConseil fédéral"));
    assert!(tsv.contains("doc-b\tsystem\t10\t2\t2\tPERS\tBES\tFP\tPERS[1-2]\tDupont"));
}

#[test]
fn mismatched_unit_counts_are_input_errors() {
    let e = fair::evaluate_files(
        &fixture("target.spans"),
        &fixture("target.tsv"),
        &FairOptions {
            read: ReadOptions {
                format: Some(Format::Spans),
                ..ReadOptions::default()
            },
            ..FairOptions::default()
        },
    );
    assert!(e.is_err());
}

/// `fairscore fair --json -` is `fairscore evaluate --family fair --json -` (signature and all)
/// on FairEval's NER span files (with FairEval's weights and β) and on a HIPE-2022 run;
/// `--errors` still writes the listing of the spans.
#[test]
fn fair_command_is_the_fair_family() {
    let Some(data) = crate::common::shared_data("fair_command_is_the_fair_family") else {
        return;
    };
    let ner = data.join("faireval/ner");
    let weights = "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, \
                   BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN";
    let h = data.join("hipe2022");
    let cases = [
        (
            ner.join("target_ner_spans.csv"),
            ner.join("system_ner_spans.csv"),
            vec!["--format", "spans", "--weights", weights, "--beta", "2"],
        ),
        (
            h.join("gold/HIPE-2022-v2.1-newseye-test-fr.tsv"),
            h.join("submissions/neurbsl_bundle3_newseye_fr_1.tsv"),
            vec!["--focus", "system"],
        ),
    ];
    let dir = crate::common::temp_dir("fair_front_door");
    for (gold, run, extra) in &cases {
        let (g, r) = (gold.to_string_lossy(), run.to_string_lossy());
        let mut a = vec!["fair", "--gold", &g, "--pred", &r, "--json", "-"];
        a.extend_from_slice(extra);
        let mut b = vec![
            "evaluate", "--family", "fair", "--gold", &g, "--pred", &r, "--json", "-",
        ];
        b.extend_from_slice(extra);
        let (va, vb) = (
            crate::common::fairscore_json(&a),
            crate::common::fairscore_json(&b),
        );
        assert_eq!(va, vb, "{extra:?}");
        assert_eq!(va["family"], "fair");
        let spans = crate::common::json_cell(&va, "traditional", &["ALL"], "TP").unwrap()
            + crate::common::json_cell(&va, "traditional", &["ALL"], "FN").unwrap();
        assert!(spans > 1000.0, "{g}: {spans} gold spans");
        // --errors: the library's listing, one line per target and per system span.
        let errors = dir.join("errors.tsv");
        let mut c = vec![
            "fair",
            "--gold",
            &g,
            "--pred",
            &r,
            "--errors",
            errors.to_str().unwrap(),
        ];
        c.extend_from_slice(extra);
        let o = crate::common::fairscore(&c);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let text = std::fs::read_to_string(&errors).unwrap();
        let opts = FairOptions {
            read: ReadOptions {
                format: extra.contains(&"spans").then_some(Format::Spans),
                ..ReadOptions::default()
            },
            focus: if extra.contains(&"system") {
                Focus::System
            } else {
                Focus::Target
            },
            ..FairOptions::default()
        };
        let report = fair::evaluate_files(gold, run, &opts).unwrap();
        assert_eq!(text, fair::errors_tsv(&report), "{g}");
        assert_eq!(text.lines().next(), Some(fair::ERRORS_HEADER));
        let t = report.tally.overall.traditional;
        assert_eq!(
            text.lines().count() as u64,
            1 + (t.tp + t.fn_) + (t.tp + t.fp),
            "{g}"
        );
        assert_eq!(spans as u64, t.tp + t.fn_);
    }
}
