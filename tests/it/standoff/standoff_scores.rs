//! Span scores on standoff files (brat, doccano, Prodigy) equal the same spans scored from
//! CoNLL files when the spans fall on token boundaries: a gold and a run are drawn as CoNLL
//! documents, written out as standoff (tokens joined by spaces, sentences by newlines) and
//! scored both ways with `evaluate --family spans|fair --table json`, with and without
//! bootstrap intervals over documents.

use std::fmt::Write as _;
use std::path::Path;

use crate::common::{evaluate_tables as scores, fairscore, temp_dir};

const LABELS: [&str; 3] = ["PER", "LOC", "ORG"];
const WORDS: [&str; 6] = ["Anna", "Zürich", "bank", "😀", "of", "x-y"];

/// A document: sentences of tokens, and labeled token ranges `(sentence, first, last)`.
struct Doc {
    sentences: Vec<Vec<&'static str>>,
    spans: Vec<(usize, usize, usize, &'static str)>,
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn gold_docs(r: &mut Lcg) -> Vec<Doc> {
    (0..12)
        .map(|_| {
            let sentences: Vec<Vec<&str>> = (0..1 + r.next(3))
                .map(|_| (0..3 + r.next(8)).map(|_| WORDS[r.next(6)]).collect())
                .collect();
            let mut spans = Vec::new();
            for (si, s) in sentences.iter().enumerate() {
                let mut t = r.next(3);
                while t < s.len() {
                    let last = (t + r.next(3)).min(s.len() - 1);
                    spans.push((si, t, last, LABELS[r.next(3)]));
                    t = last + 1 + r.next(4);
                }
            }
            Doc { sentences, spans }
        })
        .collect()
}

/// The run: each gold span kept, relabeled, cut, widened or dropped; some spurious ones.
fn run_docs(gold: &[Doc], r: &mut Lcg) -> Vec<Doc> {
    gold.iter()
        .map(|d| {
            let mut spans = Vec::new();
            let mut free_from = vec![0usize; d.sentences.len()];
            for &(s, a, b, l) in &d.spans {
                let n = d.sentences[s].len();
                let (a, b, l) = match r.next(6) {
                    0 => continue,
                    1 => (a, b, LABELS[r.next(3)]),
                    2 if b > a => (a + 1, b, l),
                    3 => (a.saturating_sub(1), (b + 1).min(n - 1), l),
                    _ => (a, b, l),
                };
                let a = a.max(free_from[s]);
                if a <= b {
                    spans.push((s, a, b, l));
                    free_from[s] = b + 1;
                }
            }
            Doc {
                sentences: d.sentences.clone(),
                spans,
            }
        })
        .collect()
}

fn conll(docs: &[Doc]) -> String {
    let mut out = String::new();
    for d in docs {
        out.push_str("-DOCSTART- O\n\n");
        for (si, s) in d.sentences.iter().enumerate() {
            for (ti, w) in s.iter().enumerate() {
                let tag = match d.spans.iter().find(|x| x.0 == si && x.1 <= ti && ti <= x.2) {
                    Some(x) if x.1 == ti => format!("B-{}", x.3),
                    Some(x) => format!("I-{}", x.3),
                    None => "O".into(),
                };
                let _ = writeln!(out, "{w} {tag}");
            }
            out.push('\n');
        }
    }
    out
}

/// The text of a document and its spans as code point offsets `(start, end, label)`.
fn standoff(d: &Doc) -> (String, Vec<(usize, usize, &'static str)>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for (si, s) in d.sentences.iter().enumerate() {
        if si > 0 {
            text.push('\n');
        }
        let mut row = Vec::new();
        for (ti, w) in s.iter().enumerate() {
            if ti > 0 {
                text.push(' ');
            }
            let at = text.chars().count();
            row.push((at, at + w.chars().count()));
            text.push_str(w);
        }
        starts.push(row);
    }
    let spans = d
        .spans
        .iter()
        .map(|&(s, a, b, l)| (starts[s][a].0, starts[s][b].1, l))
        .collect();
    (text, spans)
}

fn write_brat(dir: &Path, docs: &[Doc]) {
    std::fs::create_dir_all(dir).unwrap();
    for (i, d) in docs.iter().enumerate() {
        let (text, spans) = standoff(d);
        let mut ann = String::new();
        for (k, (a, b, l)) in spans.iter().enumerate() {
            let covered: String = text.chars().skip(*a).take(b - a).collect();
            let covered = covered.replace('\n', " ");
            let _ = writeln!(ann, "T{}\t{l} {a} {b}\t{covered}", k + 1);
        }
        std::fs::write(dir.join(format!("doc{i:02}.txt")), &text).unwrap();
        std::fs::write(dir.join(format!("doc{i:02}.ann")), ann).unwrap();
    }
}

fn write_jsonl(path: &Path, docs: &[Doc], prodigy: bool) {
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        let (text, spans) = standoff(d);
        let spans: Vec<serde_json::Value> = spans
            .iter()
            .map(|(a, b, l)| {
                if prodigy {
                    serde_json::json!({"start": a, "end": b, "label": l})
                } else {
                    serde_json::json!([a, b, l])
                }
            })
            .collect();
        let key = if prodigy { "spans" } else { "label" };
        let v = serde_json::json!({"id": format!("doc{i:02}"), "text": text, key: spans});
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

#[test]
fn standoff_scores_equal_conll_scores() {
    let dir = temp_dir("standoff_scores");
    let mut r = Lcg(7);
    let gold = gold_docs(&mut r);
    let run = run_docs(&gold, &mut r);
    std::fs::write(dir.join("gold.conll"), conll(&gold)).unwrap();
    std::fs::write(dir.join("run.conll"), conll(&run)).unwrap();
    write_brat(&dir.join("gold"), &gold);
    write_brat(&dir.join("run"), &run);
    write_jsonl(&dir.join("gold.jsonl"), &gold, false);
    write_jsonl(&dir.join("run.jsonl"), &run, false);
    write_jsonl(&dir.join("gold.prodigy.jsonl"), &gold, true);
    write_jsonl(&dir.join("run.prodigy.jsonl"), &run, true);
    for family in ["spans", "fair", "muc"] {
        for extra in [&[][..], &["--bootstrap", "300"][..]] {
            let want = scores(
                family,
                &dir.join("gold.conll"),
                &dir.join("run.conll"),
                extra,
            );
            assert_eq!(want["unit"], "document");
            assert_eq!(want["units"], 12);
            for (g, p) in [
                ("gold", "run"),
                ("gold.jsonl", "run.jsonl"),
                ("gold.prodigy.jsonl", "run.prodigy.jsonl"),
                // Mixed layouts: pairing is by document name.
                ("gold", "run.prodigy.jsonl"),
                // Mixed with CoNLL: the tokens are aligned through the text.
                ("gold", "run.conll"),
                ("gold.conll", "run.jsonl"),
            ] {
                let got = scores(family, &dir.join(g), &dir.join(p), extra);
                assert_eq!(got, want, "{family} {g} {p} {extra:?}");
            }
        }
    }
}

#[test]
fn spans_inside_tokens_and_discontinuous_spans() {
    let dir = temp_dir("standoff_scores_inside");
    let text = "Anna-Berg lives in Nord and Oslo";
    let txt = |d: &str| std::fs::write(dir.join(d).join("a.txt"), text).unwrap();
    std::fs::create_dir_all(dir.join("g")).unwrap();
    std::fs::create_dir_all(dir.join("p")).unwrap();
    txt("g");
    txt("p");
    // Gold: "Anna" (inside a token) and a discontinuous "Nord … Oslo"; run: the same "Anna",
    // "Berg" as a spurious PER, and the covering range of the discontinuous span.
    std::fs::write(
        dir.join("g/a.ann"),
        "T1\tPER 0 4\tAnna\nT2\tLOC 19 23;28 32\tNord Oslo\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("p/a.ann"),
        "T1\tPER 0 4\tAnna\nT2\tPER 5 9\tBerg\nT3\tLOC 19 32\tNord and Oslo\n",
    )
    .unwrap();
    let v = scores("spans", &dir.join("g"), &dir.join("p"), &[]);
    let all = |table: usize| v["tables"][table]["rows"][0]["scores"].clone();
    let tp_fp_fn = |t: usize| {
        let x = all(t);
        (x["TP"].clone(), x["FP"].clone(), x["FN"].clone())
    };
    // strict (table 0): Anna correct; the covering range of Nord … Oslo incorrect (other
    // fragments); Berg spurious. ent_type (table 1): the range overlaps with the same label.
    // partial (table 2): half credit. exact (table 3): as strict.
    let t = |a: f64, b: f64, c: f64| (a.into(), b.into(), c.into());
    assert_eq!(tp_fp_fn(0), t(1.0, 2.0, 1.0), "{v}");
    assert_eq!(tp_fp_fn(1), t(2.0, 1.0, 0.0), "{v}");
    assert_eq!(tp_fp_fn(2), t(1.5, 1.5, 0.5), "{v}");
    assert_eq!(tp_fp_fn(3), t(1.0, 2.0, 1.0), "{v}");
    // fair: Anna TP, Berg FP; a span over the same range with the same label but other
    // positions is neither TP nor a boundary error but FP and FN, as the reference FairEval
    // compares spans by value (label, range, token set).
    let f = scores("fair", &dir.join("g"), &dir.join("p"), &[]);
    let fair = f["tables"][1]["rows"][0]["scores"].clone();
    assert_eq!(
        (
            fair["TP"].clone(),
            fair["FP"].clone(),
            fair["FN"].clone(),
            fair["BE"].clone()
        ),
        (1.into(), 2.into(), 1.into(), 0.into()),
        "{f}"
    );
    // A text that differs is refused, naming the document.
    std::fs::write(dir.join("p/a.txt"), "Anna-Berg lives in Nord and Oslo!").unwrap();
    let out = fairscore(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        dir.join("g").to_str().unwrap(),
        "--pred",
        dir.join("p").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("document \"a\"") && err.contains("differs"),
        "{err}"
    );
    // A CoNLL run whose tokens do not reproduce the text: the first token that does not match.
    let run = dir.join("run.conll");
    std::fs::write(&run, "Anna-Berg O\nlives O\nat O\nNord B-LOC\n").unwrap();
    let out = fairscore(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        dir.join("g").to_str().unwrap(),
        "--pred",
        run.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("run.conll:3:") && err.contains("token \"at\" does not match"),
        "{err}"
    );
}

/// The `muc` command judges standoff files (detected or `--format`) as `evaluate --family muc`
/// does; `--judgements` is refused for them; the `segmentation` and `tagging` commands refuse
/// standoff files instead of reading a brat `.ann` as text.
#[test]
fn muc_command_reads_standoff_and_token_commands_refuse_it() {
    let dir = temp_dir("standoff_muc_command");
    let mut r = Lcg(11);
    let gold = gold_docs(&mut r);
    let run = run_docs(&gold, &mut r);
    write_brat(&dir.join("gold"), &gold);
    write_jsonl(&dir.join("run.jsonl"), &run, false);
    std::fs::write(dir.join("run.conll"), conll(&run)).unwrap();
    let (g, p) = (dir.join("gold"), dir.join("run.jsonl"));
    let want = scores("muc", &g, &p, &[]);
    let tables =
        |args: &[&str]| crate::common::unit_and_tables(&crate::common::fairscore_json(args));
    let (gs, ps) = (g.to_str().unwrap(), p.to_str().unwrap());
    let base = ["muc", "--gold", gs, "--pred", ps, "--table", "json"];
    assert_eq!(tables(&base), want);
    // A standoff gold against a CoNLL run: the muc command aligns it as evaluate does.
    let conll_run = dir.join("run.conll");
    let cs = conll_run.to_str().unwrap();
    assert_eq!(
        tables(&["muc", "--gold", gs, "--pred", cs, "--table", "json"]),
        scores("muc", &g, &conll_run, &[])
    );
    // Plain text output is the family table too, not a misreading of the .ann files.
    let out = fairscore(&["muc", "--gold", gs, "--pred", ps]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("MUC-7 token judgement"));
    let j = dir.join("j.tsv");
    let out = fairscore(&[
        "muc",
        "--gold",
        gs,
        "--pred",
        ps,
        "--judgements",
        j.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!j.exists());
    for cmd in ["segmentation", "tagging"] {
        let out = fairscore(&[cmd, "--gold", gs, "--pred", ps]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{cmd}: {err}");
        assert!(err.contains("this is standoff annotation"), "{cmd}: {err}");
    }
}
