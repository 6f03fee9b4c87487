//! `fairscore convert` (docs/convert.md): every tag encoding to BIO and back gives the
//! original on real data (HIPE-2022 gold and runs written as CoNLL here); brat to every JSON
//! export and back keeps every span of a real brat project; repairs are counted and logged with
//! file and line; standoff to CoNLL by whitespace tokens; hostile inputs are refused naming
//! the file and line. seqscore itself is compared in scripts/seqscore_crosscheck.sh.

use std::path::{Path, PathBuf};

use crate::common::{fairscore, temp_dir, write_file};

const ENCODINGS: [&str; 7] = ["BIO", "IOB", "BIOES", "BILOU", "BMES", "BMEOW", "IO"];

fn convert(args: &[&str]) -> (i32, String) {
    let o = fairscore(&[&["convert"], args].concat());
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, err) = convert(args);
    assert_eq!(code, 0, "convert {args:?}: {err}");
    err
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The CoNLL text of a HIPE TSV file: `TOKEN<TAB>TAG` (NE-COARSE-LIT, `_` read as O), a
/// sentence break after EndOfSentence, a `-DOCSTART-` line per document.
pub(super) fn hipe_as_conll(src: &Path) -> String {
    let text = std::fs::read_to_string(src).expect("read HIPE");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (tag, misc) = (col("NE-COARSE-LIT").expect("NE-COARSE-LIT"), col("MISC"));
    let mut out = String::new();
    for line in lines {
        if line.starts_with('#') {
            if line.contains("document_id") {
                out.push_str("\n-DOCSTART-\tO\n\n");
            }
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() <= tag {
            continue;
        }
        let tok: String = cells[0]
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        let tok = if tok.is_empty() { "_".into() } else { tok };
        let t = match cells[tag] {
            "_" | "-" | "" => "O",
            t => t,
        };
        out.push_str(&format!("{tok}\t{t}\n"));
        if misc.is_some_and(|m| cells.get(m).is_some_and(|x| x.contains("EndOfSentence"))) {
            out.push('\n');
        }
    }
    out
}

/// The real CoNLL files: every HIPE-2022 gold file and the first runs.
fn real_conll(data: &Path, dir: &Path, runs: usize) -> Vec<PathBuf> {
    let mut src: Vec<PathBuf> = std::fs::read_dir(data.join("hipe2022/gold"))
        .expect("gold")
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.to_string_lossy().contains("histonorm"))
        .collect();
    src.sort();
    let mut sub: Vec<PathBuf> = std::fs::read_dir(data.join("hipe2022/submissions"))
        .expect("submissions")
        .flatten()
        .map(|e| e.path())
        .collect();
    sub.sort();
    src.extend(sub.into_iter().take(runs));
    src.iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let out = dir.join(format!("{stem}.conll"));
            std::fs::write(&out, hipe_as_conll(p)).unwrap();
            out
        })
        .collect()
}

#[test]
fn every_encoding_to_bio_and_back_is_the_original_on_real_data() {
    let Some(data) = crate::common::shared_data("convert_round_trips") else {
        return;
    };
    let dir = temp_dir("convert_round_trips");
    let files = real_conll(&data, &dir, 4);
    assert!(files.len() >= 8, "{} files", files.len());
    let mut trips = 0;
    for f in &files {
        // The runs hold invalid transitions: the valid BIO file is the conlleval reading.
        let bio = f.with_extension("bio");
        ok(&["--in", &s(f), "--out", &s(&bio), "--repair", "conlleval"]);
        let bio_text = std::fs::read(&bio).unwrap();
        for e in ENCODINGS {
            let enc = f.with_extension(e);
            ok(&["--in", &s(&bio), "--out", &s(&enc), "--to", e]);
            let enc_text = std::fs::read_to_string(&enc).unwrap();
            let prefix = enc_text
                .lines()
                .filter(|l| !l.starts_with("-DOCSTART-"))
                .filter_map(|l| l.rsplit('\t').next())
                .find(|t| t.contains('-'))
                .unwrap_or("");
            let allowed: &[&str] = match e {
                "BIO" => &["B-", "I-"],
                "IOB" | "IO" => &["I-", "B-"],
                "BIOES" => &["B-", "S-"],
                "BILOU" => &["B-", "U-"],
                "BMES" => &["B-", "S-"],
                _ => &["B-", "W-"],
            };
            assert!(
                allowed.iter().any(|a| prefix.starts_with(a)),
                "{e}: first chunk tag {prefix:?}"
            );
            // E -> BIO -> E is E, and (but for IO) E -> BIO is the BIO file.
            let back = f.with_extension(format!("{e}.bio"));
            ok(&[
                "--in",
                &s(&enc),
                "--out",
                &s(&back),
                "--from",
                e,
                "--to",
                "BIO",
            ]);
            if e != "IO" {
                assert!(
                    std::fs::read(&back).unwrap() == bio_text,
                    "{}: {e}",
                    f.display()
                );
            }
            let again = f.with_extension(format!("{e}.again"));
            ok(&["--in", &s(&back), "--out", &s(&again), "--to", e]);
            assert_eq!(
                std::fs::read_to_string(&again).unwrap(),
                enc_text,
                "{}: {e}",
                f.display()
            );
            trips += 1;
        }
    }
    assert_eq!(trips, files.len() * ENCODINGS.len());
}

/// (document name, text, sorted (label, fragments)) of a standoff input.
/// A document's (name, text, sorted (label, fragments)).
type DocSpans = (String, String, Vec<(String, Vec<(usize, usize)>)>);

fn spans_of(path: &Path) -> Vec<DocSpans> {
    let docs = fairscore::formats::read_standoff(path, None).expect("read standoff");
    docs.into_iter()
        .map(|d| {
            let mut sp: Vec<_> = d
                .spans
                .into_iter()
                .map(|x| (x.label, x.fragments))
                .collect();
            sp.sort();
            let name = d.name.trim_end_matches(".ann").to_string();
            (name, d.text, sp)
        })
        .collect()
}

#[test]
fn brat_to_every_json_export_and_back_keeps_every_span() {
    let Some(data) = crate::common::shared_data("convert_brat_json") else {
        return;
    };
    let project = data.join("brat/bratiaa-example/example-project");
    let dir = temp_dir("convert_brat_json");
    let mut spans = 0;
    for who in ["Lisa", "Maria", "Max", "Peter"] {
        let brat = project.join(who);
        let want = spans_of(&brat);
        let n: usize = want.iter().map(|d| d.2.len()).sum();
        // Every T line of the project is a span (no events here).
        let t_lines: usize = want
            .iter()
            .map(|(name, _, _)| {
                std::fs::read_to_string(brat.join(format!("{name}.ann")))
                    .unwrap()
                    .lines()
                    .filter(|l| l.starts_with('T'))
                    .count()
            })
            .sum();
        assert_eq!(n, t_lines, "{who}");
        assert!(n > 0);
        spans += n;
        for (fmt, ext) in [
            ("doccano", "jsonl"),
            ("labelstudio", "json"),
            ("prodigy", "jsonl"),
        ] {
            let json = dir.join(format!("{who}.{fmt}.{ext}"));
            ok(&["--in", &s(&brat), "--out", &s(&json), "--out-format", fmt]);
            assert_eq!(spans_of(&json), want, "{who} -> {fmt}");
            let back = dir.join(format!("{who}-{fmt}-brat"));
            ok(&[
                "--in",
                &s(&json),
                "--out",
                &s(&back),
                "--out-format",
                "brat",
            ]);
            assert_eq!(spans_of(&back), want, "{who} -> {fmt} -> brat");
        }
    }
    assert!(spans > 100, "{spans} spans");
}

#[test]
fn repairs_are_counted_and_logged_with_file_and_line() {
    let dir = temp_dir("convert_repairs");
    let f = write_file(
        &dir,
        "run.conll",
        "-DOCSTART- O\n\nEU I-ORG\nrejects O\nGerman I-MISC\n\nPeter B-PER\nBlackburn I-PER\nx I-LOC\n",
    );
    let (code, err) = convert(&["--in", &f, "--out", &s(&dir.join("no.conll"))]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("run.conll:3:"), "{err}");
    assert!(!dir.join("no.conll").exists());
    let log = dir.join("repairs.log");
    let out = dir.join("fixed.conll");
    let err = ok(&[
        "--in",
        &f,
        "--out",
        &s(&out),
        "--repair",
        "conlleval",
        "--repair-log",
        &s(&log),
    ]);
    assert!(err.contains("3 tag(s) repaired"), "{err}");
    let logged = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = logged.lines().collect();
    assert_eq!(lines.len(), 3, "{logged}");
    for (l, n) in lines.iter().zip([3, 5, 9]) {
        assert!(l.contains(&format!("run.conll:{n}: ")), "{l}");
    }
    assert!(
        lines[2].ends_with("I-LOC -> B-LOC (conlleval)"),
        "{}",
        lines[2]
    );
    // discard drops them; the log goes to stderr.
    let err = ok(&[
        "--in",
        &f,
        "--out",
        &s(&dir.join("d.conll")),
        "--repair",
        "discard",
    ]);
    assert_eq!(err.matches("fairscore: repair: ").count(), 3, "{err}");
    let d = std::fs::read_to_string(dir.join("d.conll")).unwrap();
    assert_eq!(d.matches("\tO\n").count(), 4, "{d}");
    // IOB: a B- after O is repaired to I-.
    let iob = write_file(&dir, "iob.conll", "a B-X\nb I-X\nc B-X\n");
    let err = ok(&[
        "--in",
        &iob,
        "--out",
        &s(&dir.join("iob.out")),
        "--from",
        "IOB",
        "--repair",
        "conlleval",
    ]);
    assert!(err.contains("iob.conll:1: B-X -> I-X"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("iob.out")).unwrap(),
        "a\tI-X\nb\tI-X\nc\tB-X\n\n"
    );
}

#[test]
fn repair_logs_of_real_runs_name_every_changed_tag() {
    let Some(data) = crate::common::shared_data("convert_repair_logs") else {
        return;
    };
    let dir = temp_dir("convert_repair_logs");
    let files = real_conll(&data, &dir, 41);
    let mut repaired = 0;
    for f in files
        .iter()
        .filter(|f| !f.to_string_lossy().contains("HIPE-2022"))
    {
        let out = f.with_extension("fixed");
        let log = f.with_extension("log");
        let (code, err) = convert(&[
            "--in",
            &s(f),
            "--out",
            &s(&out),
            "--repair",
            "discard",
            "--repair-log",
            &s(&log),
        ]);
        if code != 0 {
            // IOBES tags in a run are invalid states: refused with the line, even with a repair.
            assert!(err.contains("invalid state"), "{}: {err}", f.display());
            continue;
        }
        let before = std::fs::read_to_string(f).unwrap();
        let after = std::fs::read_to_string(&out).unwrap();
        let tag = |l: &str| l.rsplit('\t').next().unwrap_or("").to_string();
        // Same token lines in both (the input has no empty documents or double blanks).
        let a: Vec<(usize, String)> = before
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains('\t') && !l.starts_with("-DOCSTART-"))
            .map(|(i, l)| (i + 1, tag(l)))
            .collect();
        let b: Vec<String> = after
            .lines()
            .filter(|l| l.contains('\t') && !l.starts_with("-DOCSTART-"))
            .map(tag)
            .collect();
        assert_eq!(a.len(), b.len());
        let changed: Vec<usize> = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x.1 != **y)
            .map(|(x, _)| x.0)
            .collect();
        let logged: Vec<usize> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(changed, logged, "{}", f.display());
        repaired += logged.len();
    }
    assert!(repaired > 0, "no run needed a repair");
}

#[test]
fn standoff_to_conll_by_whitespace_tokens_and_back() {
    let dir = temp_dir("convert_tokens");
    let doc = r#"{"id": "d1", "text": "Anna lives in Paris, France.\nShe met Carl Benz.", "label": [[0, 4, "PER"], [14, 19, "LOC"], [21, 27, "LOC"], [37, 46, "PER"]]}"#;
    let f = write_file(&dir, "a.jsonl", &format!("{doc}\n"));
    let out = dir.join("a.conll");
    ok(&[
        "--in",
        &f,
        "--out",
        &s(&out),
        "--out-format",
        "conll",
        "--to",
        "BIOES",
    ]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "Anna\tS-PER\nlives\tO\nin\tO\nParis\tS-LOC\n,\tO\nFrance\tS-LOC\n.\tO\n\n\
         She\tO\nmet\tO\nCarl\tB-PER\nBenz\tE-PER\n.\tO\n\n"
    );
    let brat = dir.join("brat");
    ok(&[
        "--in",
        &s(&out),
        "--out",
        &s(&brat),
        "--out-format",
        "brat",
        "--from",
        "BIOES",
    ]);
    assert_eq!(
        std::fs::read_to_string(brat.join("a.txt")).unwrap(),
        "Anna lives in Paris , France .\nShe met Carl Benz .\n"
    );
    assert_eq!(
        std::fs::read_to_string(brat.join("a.ann")).unwrap(),
        "T1\tPER 0 4\tAnna\nT2\tLOC 14 19\tParis\nT3\tLOC 22 28\tFrance\nT4\tPER 39 48\tCarl Benz\n"
    );
    // Type changes on a standoff conversion.
    let map = write_file(&dir, "map.json", r#"{"GPE": ["LOC"]}"#);
    let kept = dir.join("kept.jsonl");
    ok(&[
        "--in",
        &f,
        "--out",
        &s(&kept),
        "--map-types",
        &map,
        "--remove-types",
        "PER",
    ]);
    let k = std::fs::read_to_string(&kept).unwrap();
    assert!(k.contains(r#"[[14,19,"GPE"],[21,27,"GPE"]]"#), "{k}");
}

#[test]
fn hostile_inputs_are_refused_naming_file_and_line() {
    let dir = temp_dir("convert_hostile");
    let out = s(&dir.join("out"));
    let refused = |args: &[&str], code: i32, needle: &str| {
        let (c, err) = convert(args);
        assert_eq!(c, code, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    let state = write_file(&dir, "state.conll", "a B-X\nb S-X\n");
    refused(
        &["--in", &state, "--out", &out],
        3,
        "state.conll:2: invalid state \"S\"",
    );
    refused(
        &["--in", &state, "--out", &out, "--repair", "conlleval"],
        3,
        "state.conll:2:",
    );
    let bare = write_file(&dir, "bare.conll", "a O\n\nb PER\n");
    refused(
        &["--in", &bare, "--out", &out],
        3,
        "bare.conll:3: label \"PER\"",
    );
    let ragged = write_file(&dir, "ragged.conll", "a x O\nb O\n");
    refused(&["--in", &ragged, "--out", &out], 3, "ragged.conll:2:");
    let open = write_file(&dir, "open.conll", "a O\nb B-X\n");
    refused(
        &["--in", &open, "--out", &out, "--from", "bioes"],
        3,
        "open.conll:2:",
    );
    refused(
        &["--in", &open, "--out", &open],
        2,
        "never writes over an input",
    );
    refused(
        &[
            "--in", &open, "--out", &out, "--from", "BIOES", "--repair", "discard",
        ],
        2,
        "--repair",
    );
    refused(
        &["--in", &open, "--out", &out, "--to", "BIOE"],
        2,
        "--to: unknown encoding",
    );
    refused(
        &[
            "--in",
            &open,
            "--out",
            &out,
            "--keep-types",
            "X",
            "--remove-types",
            "Y",
        ],
        2,
        "--keep-types",
    );
    let bad_map = write_file(
        &dir,
        "map.json",
        "{\n  \"A\": [\"X\"],\n  \"B\": [\"X\"]\n}\n",
    );
    refused(
        &["--in", &open, "--out", &out, "--map-types", &bad_map],
        3,
        "map.json:3: type \"X\" is mapped twice",
    );
    // Standoff: overlapping and discontinuous spans, names leaving the output directory.
    let brat = dir.join("brat");
    std::fs::create_dir_all(&brat).unwrap();
    write_file(&brat, "d.txt", "New York City\n");
    write_file(
        &brat,
        "d.ann",
        "T1\tLOC 0 13\tNew York City\nT2\tLOC 0 8\tNew York\nT3\tORG 0 3;9 13\tNew City\n",
    );
    let b = s(&brat);
    refused(
        &["--in", &b, "--out", &out, "--out-format", "conll"],
        3,
        "d.ann:3: span T3",
    );
    refused(
        &[
            "--in",
            &b,
            "--out",
            &out,
            "--out-format",
            "conll",
            "--remove-types",
            "ORG",
        ],
        3,
        "d.ann:1: spans T1",
    );
    refused(
        &["--in", &b, "--out", &out, "--out-format", "doccano"],
        3,
        "d.ann:3: span T3",
    );
    let evil = write_file(
        &dir,
        "evil.jsonl",
        "{\"id\": \"../../x\", \"text\": \"a\", \"label\": []}\n",
    );
    refused(
        &[
            "--in",
            &evil,
            "--out",
            &s(&dir.join("eb")),
            "--out-format",
            "brat",
        ],
        3,
        "evil.jsonl: document name",
    );
    // A brat output directory holding other documents is refused.
    let stale = dir.join("stale");
    std::fs::create_dir_all(&stale).unwrap();
    write_file(&stale, "old.ann", "");
    let good = write_file(
        &dir,
        "g.jsonl",
        "{\"id\": \"g\", \"text\": \"a\", \"label\": [[0, 1, \"X\"]]}\n",
    );
    refused(
        &["--in", &good, "--out", &s(&stale), "--out-format", "brat"],
        2,
        "old.ann",
    );
    refused(
        &["--in", &good, "--out", &out, "--from", "BIO"],
        2,
        "--from",
    );
}
