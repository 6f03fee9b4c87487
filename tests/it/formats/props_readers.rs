//! Property tests of the readers whose numbers come from the input (issue 11): the span-file
//! reader, the CoNLL/BIO reader and the weight-formula parser. Inputs are drawn from grammars
//! that mix valid lines with the malformed kinds seen in practice (huge or reversed offsets,
//! empty labels, broken BIO levels, garbage after a formula, negative, exponent and
//! non-finite weights). Every input must give a value or a typed error, never a panic; a
//! valid input must be read as an independent model says; an invalid one must be refused.
//! (`fuzz/fuzz_targets/readers.rs` drives the same entry points with cargo-fuzz.)

use fairscore::eval::fair;
use fairscore::eval::format_weights;
use fairscore::eval::parse_weights;
use fairscore::eval::FairOptions;
use fairscore::eval::FairReadOptions as ReadOptions;
use fairscore::formats::{parse_conll, parse_spanfile, Format};
use fairscore::matching::fair::CATEGORY_NAMES;
use proptest::prelude::*;
use std::path::Path;

// ---------------------------------------------------------------- span files

/// One generated span-file line and whether the reader must accept it.
#[derive(Debug, Clone)]
enum SpanLine {
    Valid {
        label: String,
        begin: usize,
        end: usize,
    },
    Invalid(String),
    Blank,
}

fn span_line() -> impl Strategy<Value = SpanLine> {
    let label = prop::sample::select(vec!["PER", "LOC", "ORG", "MISC", "x-y"]);
    prop_oneof![
        6 => (label.clone(), 1usize..500, 0usize..20).prop_map(|(l, b, len)| SpanLine::Valid {
            label: l.to_string(),
            begin: b,
            end: b + len,
        }),
        2 => Just(SpanLine::Blank),
        1 => (label.clone(), 2usize..500, 1usize..40)
            .prop_map(|(l, b, back)| SpanLine::Invalid(format!("{l}\t{b}\t{}\t", b.saturating_sub(back).max(1).min(b - 1)))),
        1 => (label.clone(), prop::sample::select(vec![
            "3000000000000", "18446744073709551616", "4294967297", "-1", "0", "1e3", "", "x", "NaN",
        ]))
            .prop_map(|(l, n)| SpanLine::Invalid(format!("{l}\t1\t{n}\t"))),
        1 => prop::sample::select(vec!["\t1\t2\t", "PER\t1", "PER", "PER 1 2"])
            .prop_map(|s| SpanLine::Invalid(s.to_string())),
    ]
}

fn span_text(lines: &[SpanLine]) -> String {
    let mut text = String::new();
    for l in lines {
        match l {
            SpanLine::Valid { label, begin, end } => {
                text.push_str(&format!("{label}\t{begin}\t{end}\t\n"))
            }
            SpanLine::Invalid(s) => {
                text.push_str(s);
                text.push('\n');
            }
            SpanLine::Blank => text.push('\n'),
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// A span file is accepted exactly when every line is valid, and then holds exactly the
    /// generated spans, one unit per block of non-blank lines.
    #[test]
    fn span_files_are_read_exactly_or_refused(lines in prop::collection::vec(span_line(), 0..40)) {
        let text = span_text(&lines);
        let result = parse_spanfile(Path::new("s.txt"), &text);
        let valid = lines.iter().all(|l| !matches!(l, SpanLine::Invalid(_)));
        prop_assert_eq!(result.is_ok(), valid, "{:?}", result.as_ref().err());
        if let Ok(corpus) = result {
            let expected: Vec<(String, usize, usize)> = lines
                .iter()
                .filter_map(|l| match l {
                    SpanLine::Valid { label, begin, end } => Some((label.clone(), *begin, *end)),
                    _ => None,
                })
                .collect();
            let got: Vec<(String, usize, usize)> = corpus
                .annotations
                .iter()
                .map(|a| (a.label.clone(), a.begin, a.end))
                .collect();
            prop_assert_eq!(got, expected);
            let mut units = 0;
            let mut open = false;
            for l in &lines {
                match l {
                    SpanLine::Blank => open = false,
                    _ if !open => { units += 1; open = true; }
                    _ => {}
                }
            }
            prop_assert_eq!(corpus.docs.len(), units);
        }
    }

    /// Fair evaluation of two span files never panics and conserves the span counts:
    /// TP + FN target spans, TP + FP system spans.
    #[test]
    fn span_files_evaluate_without_panic(
        a in prop::collection::vec(span_line(), 0..30),
        b in prop::collection::vec(span_line(), 0..30),
    ) {
        let (ta, tb) = (span_text(&a), span_text(&b));
        let (Ok(ca), Ok(cb)) = (parse_spanfile(Path::new("a"), &ta), parse_spanfile(Path::new("b"), &tb)) else {
            return Ok(());
        };
        let opts = FairOptions::default();
        let Ok((ua, ub)) = fair::corpus_units(&ca, &cb, &opts.read) else { return Ok(()) };
        let (na, nb): (usize, usize) = (ua.iter().map(|u| u.spans.len()).sum(), ub.iter().map(|u| u.spans.len()).sum());
        match fair::evaluate_units(Path::new("a"), ua, Path::new("b"), ub, &opts) {
            Ok(report) => {
                let t = report.tally.overall.traditional;
                prop_assert_eq!((t.tp + t.fn_) as usize, na);
                prop_assert_eq!((t.tp + t.fp) as usize, nb);
            }
            Err(e) => prop_assert!(ca.docs.len() != cb.docs.len(), "unexpected error {e}"),
        }
    }
}

// ---------------------------------------------------------------- CoNLL / BIO

const GOOD_TAGS: [&str; 5] = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"];
const BAD_TAGS: [&str; 6] = ["B-", "I-", "LOC", "I-NX||B-AP", "", "X-PER"];

/// conlleval's chunking of IOB2 tags: the independent model the reader is checked against.
/// Returns (type, first, last) with 1-based positions.
fn conlleval_chunks(tags: &[&str]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for (i, tag) in tags.iter().enumerate() {
        let (prefix, ty) = match tag.split_once('-') {
            Some((p, t)) => (p, t),
            None => ("O", ""),
        };
        let continues = prefix == "I" && open.as_ref().is_some_and(|(t, _)| t == ty);
        if !continues {
            if let Some((t, b)) = open.take() {
                out.push((t, b, i));
            }
            if prefix == "B" || prefix == "I" {
                open = Some((ty.to_string(), i + 1));
            }
        }
    }
    if let Some((t, b)) = open {
        out.push((t, b, tags.len()));
    }
    out
}

fn conll_text(sentences: &[Vec<&str>]) -> String {
    let mut text = String::new();
    for s in sentences {
        for (i, tag) in s.iter().enumerate() {
            text.push_str(&format!("w{i}\tNN\t{tag}\n"));
        }
        text.push('\n');
    }
    text
}

fn sentence(bad_weight: u32) -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(
        prop_oneof![
            20 => prop::sample::select(GOOD_TAGS.to_vec()),
            bad_weight => prop::sample::select(BAD_TAGS.to_vec()),
        ],
        1..25,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Valid BIO is chunked as conlleval chunks it, sentence by sentence.
    #[test]
    fn conll_bio_is_chunked_as_conlleval(sentences in prop::collection::vec(sentence(0), 1..12)) {
        let text = conll_text(&sentences);
        let corpus = parse_conll(Path::new("c.conll"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let read = ReadOptions { format: Some(Format::Conll), ..ReadOptions::default() };
        let (units, _) = fair::corpus_units(&corpus, &corpus, &read).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(units.len(), sentences.len());
        for (u, s) in units.iter().zip(&sentences) {
            let mut got: Vec<(String, usize, usize)> = u.spans.iter().map(|sp| (sp.label.clone(), sp.begin, sp.end)).collect();
            got.sort();
            let mut want = conlleval_chunks(s);
            want.sort();
            prop_assert_eq!(got, want);
        }
    }

    /// Tags that are not BIO (an empty level, a level without a type, a bare label) are refused
    /// with an error naming the file; valid files are accepted. Nothing panics.
    #[test]
    fn conll_bad_levels_are_refused(sentences in prop::collection::vec(sentence(2), 1..12)) {
        let text = conll_text(&sentences);
        let has_bad = sentences.iter().flatten().any(|t| BAD_TAGS.contains(t));
        let read = ReadOptions { format: Some(Format::Conll), ..ReadOptions::default() };
        let result = parse_conll(Path::new("c.conll"), &text)
            .and_then(|c| fair::corpus_units(&c, &c, &read).map(|_| ()));
        match result {
            Ok(()) => prop_assert!(!has_bad, "a file with a malformed tag was accepted"),
            Err(e) => {
                prop_assert!(has_bad, "a valid file was refused: {}", e);
                prop_assert!(e.to_string().contains("c.conll"), "error does not name the file: {}", e);
            }
        }
    }
}

// ---------------------------------------------------------------- weight formulas

/// Weights written exactly in decimal (quarters), so that the parsed value is known.
fn quarter() -> impl Strategy<Value = (String, f64)> {
    (0u32..4000).prop_map(|q| {
        let v = f64::from(q) / 4.0;
        let text = match q % 3 {
            0 => format!("{v}"),
            1 if v < 1.0 && v > 0.0 => format!("{v}").trim_start_matches('0').to_string(),
            _ => format!("{v:.2}"),
        };
        (text, v)
    })
}

fn formula() -> impl Strategy<Value = (String, Vec<(String, [f64; 3])>)> {
    let cats = prop::sample::subsequence(
        CATEGORY_NAMES
            .iter()
            .copied()
            .filter(|c| *c != "BE")
            .collect::<Vec<_>>(),
        1..8,
    );
    (
        cats,
        prop::collection::vec(
            (
                quarter(),
                quarter(),
                quarter(),
                any::<[bool; 3]>(),
                any::<bool>(),
            ),
            8,
        ),
    )
        .prop_map(|(cats, ws)| {
            let mut text = Vec::new();
            let mut expected = Vec::new();
            for (cat, ((t1, v1), (t2, v2), (t3, v3), keep, star)) in cats.iter().zip(ws) {
                let keep = if keep.iter().any(|k| *k) {
                    keep
                } else {
                    [true, false, false]
                };
                let mut terms = Vec::new();
                let mut value = [0.0; 3];
                for (i, ((t, v), word)) in [(t1, v1), (t2, v2), (t3, v3)]
                    .into_iter()
                    .zip(["TP", "FP", "FN"])
                    .enumerate()
                {
                    if keep[i] {
                        terms.push(if star {
                            format!("{t}*{word}")
                        } else {
                            format!("{t} {word}")
                        });
                        value[i] = v;
                    }
                }
                text.push(format!("{cat} = {}", terms.join(" + ")));
                expected.push((cat.to_string(), value));
            }
            (text.join(", "), expected)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// A well-formed formula is read exactly, and what `format_weights` writes reads back the same.
    #[test]
    fn weight_formulas_are_read_exactly((text, expected) in formula()) {
        let w = parse_weights(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        for (cat, [tp, fp, fn_]) in &expected {
            let got = w.entries.iter().find(|(n, _)| n == cat).map(|(_, w)| *w);
            prop_assert!(got.is_some(), "{} missing from {}", cat, text);
            let got = got.unwrap_or_default();
            prop_assert_eq!((got.tp, got.fp, got.fn_), (*tp, *fp, *fn_), "{}", text);
        }
        let again = parse_weights(&format_weights(&w)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again, w);
    }

    /// Damaged formulas are refused with a usage error; nothing read is ever negative or
    /// non-finite.
    #[test]
    fn damaged_weight_formulas_are_refused(
        (text, _) in formula(),
        damage in prop::sample::select(vec![
            " garbage".to_string(), " + -0.5 FP".to_string(), " + 1e3 TP".to_string(),
            "x".to_string(), ", LE = nan FP".to_string(), ", LE = inf FN".to_string(),
            ", BE = 1 TP".to_string(), " + 0.5".to_string(), ", = 1 TP".to_string(),
            ", LE = 1 TP + 2 TP".to_string(), format!(", LE = 1{} TP", "0".repeat(400)),
        ]),
    ) {
        let bad = format!("{text}{damage}");
        let result = parse_weights(&bad);
        // ", BE = 1 TP" is fine unless BES, BEL or BEO is there too; the others are always bad.
        let be_ok = damage == ", BE = 1 TP" && !["BES", "BEL", "BEO"].iter().any(|c| text.contains(&format!("{c} =")));
        if be_ok {
            prop_assert!(result.is_ok(), "{}: {:?}", bad, result.err());
        } else {
            prop_assert!(result.is_err(), "accepted: {}", bad);
            let e = result.err().map(|e| e.to_string()).unwrap_or_default();
            prop_assert!(e.contains("weights"), "{}", e);
        }
    }

    /// Any text at all: a value or an error, and a value is finite and non-negative.
    #[test]
    fn any_text_gives_finite_weights_or_an_error(text in "[A-Za-z0-9 .,=+*\\-]{0,60}") {
        if let Ok(w) = parse_weights(&text) {
            for (_, x) in &w.entries {
                for v in [x.tp, x.fp, x.fn_] {
                    prop_assert!(v.is_finite() && v >= 0.0, "{}: {:?}", text, w);
                }
            }
        }
    }
}
