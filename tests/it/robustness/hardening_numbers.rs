//! Issue 33, classes 4 and 12: numbers that were silently wrong (a standoff span given twice
//! counted twice, Label Studio gold tasks without an annotation scored as documents without
//! entities, `rank_by` an error count ranking the worst run first, the signature of a single
//! brat `.ann` not hashing its `.txt`) and messages or contracts that were wrong (muc
//! `--bootstrap` on documents without entities, `annotation.conf` on a device, `agree`
//! outputs without a signature).

use std::path::{Path, PathBuf};

use crate::common::{fairscore, fairscore_json, json_cell, temp_dir, write_file};

const GOLD: &str = "{\"id\": \"a\", \"text\": \"Anna met Carl\", \"labels\": [[0, 4, \"PER\"]]}\n\
{\"id\": \"b\", \"text\": \"Bob is here\", \"labels\": [[0, 3, \"PER\"]]}\n";
const DUP: &str = "{\"id\": \"a\", \"text\": \"Anna met Carl\", \"labels\": [[0, 4, \"PER\"], [0, 4, \"PER\"]]}\n\
{\"id\": \"b\", \"text\": \"Bob is here\", \"labels\": [[0, 3, \"PER\"]]}\n";

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_of(o: &std::process::Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

fn family_json(family: &str, gold: &str, pred: &str) -> std::process::Output {
    fairscore(&[
        "evaluate", "--family", family, "--gold", gold, "--pred", pred, "--table", "json",
    ])
}

/// A span given twice in a standoff run (same label, same characters) counts once in every
/// family, with a warning naming the file and line; so does one given twice in the gold.
#[test]
fn a_standoff_span_given_twice_counts_once() {
    let dir = temp_dir("hn_dup");
    let gold = write_file(&dir, "gold.jsonl", GOLD);
    let dup = write_file(&dir, "dup.jsonl", DUP);
    for (g, p) in [(&gold, &dup), (&dup, &gold)] {
        let o = family_json("spans", g, p);
        let v = json_of(&o);
        assert_eq!(
            json_cell(&v, "strict", &["ALL"], "TP"),
            Some(2.0),
            "{g} {p}"
        );
        assert_eq!(json_cell(&v, "strict", &["ALL"], "FP"), Some(0.0));
        assert_eq!(json_cell(&v, "strict", &["ALL"], "FN"), Some(0.0));
        let w = stderr(&o);
        assert!(
            w.contains("dup.jsonl:1: ") && w.contains("given twice") && w.contains("counted once"),
            "{w}"
        );
        let v = json_of(&family_json("fair", g, p));
        assert_eq!(json_cell(&v, "fair", &["ALL"], "TP"), Some(2.0));
        assert_eq!(json_cell(&v, "fair", &["ALL"], "FP"), Some(0.0));
        assert_eq!(json_cell(&v, "fair", &["ALL"], "FN"), Some(0.0));
        let v = json_of(&family_json("muc", g, p));
        assert_eq!(json_cell(&v, "muc", &["ALL"], "COR"), Some(2.0));
        assert_eq!(json_cell(&v, "muc", &["ALL"], "SPU"), Some(0.0));
    }
}

/// brat: two `T` lines with the same label and fragments count once; the warning names the
/// line of the second.
#[test]
fn a_brat_span_given_twice_counts_once() {
    let dir = temp_dir("hn_dup_brat");
    for side in ["gold", "run"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
        write_file(&dir.join(side), "x.txt", "Anna met Carl in Paris\n");
    }
    write_file(
        &dir.join("gold"),
        "x.ann",
        "T1\tPER 0 4\tAnna\nT2\tLOC 17 22\tParis\n",
    );
    write_file(
        &dir.join("run"),
        "x.ann",
        "T1\tPER 0 4\tAnna\nT2\tPER 0 4\tAnna\nT3\tLOC 17 22\tParis\nT4\tLOC 17 22\tParis\n",
    );
    let (g, r) = (dir.join("gold"), dir.join("run"));
    let o = family_json("spans", g.to_str().unwrap(), r.to_str().unwrap());
    let v = json_of(&o);
    assert_eq!(json_cell(&v, "strict", &["ALL"], "TP"), Some(2.0));
    assert_eq!(json_cell(&v, "strict", &["ALL"], "FP"), Some(0.0));
    let w = stderr(&o);
    assert!(w.contains("x.ann:2: ") && w.contains("x.ann:4: "), "{w}");
    assert!(w.contains("T2") && w.contains("line 1"), "{w}");
}

/// A Label Studio region given the same label twice is one span.
#[test]
fn a_label_studio_region_with_a_label_twice_is_one_span() {
    let dir = temp_dir("hn_dup_ls");
    let task = |labels: &str| {
        format!(
            "[{{\"id\": 1, \"data\": {{\"text\": \"Anna met Carl\"}}, \"annotations\": [{{\"result\": [{{\"type\": \"labels\", \"value\": {{\"start\": 0, \"end\": 4, \"labels\": {labels}}}}}]}}]}}]"
        )
    };
    let gold = write_file(&dir, "gold.json", &task("[\"PER\"]"));
    let run = write_file(&dir, "run.json", &task("[\"PER\", \"PER\"]"));
    let o = family_json("spans", &gold, &run);
    let v = json_of(&o);
    assert_eq!(json_cell(&v, "strict", &["ALL"], "TP"), Some(1.0));
    assert_eq!(json_cell(&v, "strict", &["ALL"], "FP"), Some(0.0));
    assert!(
        stderr(&o).contains("run.json:0: document \"1\": span \"2\""),
        "{}",
        stderr(&o)
    );
}

/// `check` says what scoring does with a span given twice: counted once.
#[test]
fn check_says_a_duplicate_counts_once() {
    let dir = temp_dir("hn_dup_check");
    let gold = write_file(&dir, "gold.jsonl", GOLD);
    let dup = write_file(&dir, "dup.jsonl", DUP);
    let o = fairscore(&["check", "--gold", &gold, "--pred", &dup]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("dup.jsonl:1:") && out.contains("duplicate-span")
            || out.contains("given twice"),
        "{out}"
    );
    assert!(out.contains("counted once"), "{out}");
    assert!(!out.contains("false positive"), "{out}");
}

const LS_ANNOTATED: &str = "{\"id\": 1, \"data\": {\"text\": \"Anna met Carl\"}, \"annotations\": [{\"result\": [{\"type\": \"labels\", \"value\": {\"start\": 0, \"end\": 4, \"labels\": [\"PER\"]}}]}]}";

/// A Label Studio task with no annotation, or only cancelled ones, was never annotated: an
/// input error naming the task, never a document without entities.
#[test]
fn label_studio_tasks_without_an_annotation_are_refused() {
    let dir = temp_dir("hn_ls_empty");
    let cases = [
        (
            "none.json",
            "{\"id\": 7, \"data\": {\"text\": \"Bob is here\"}}",
            "no annotation",
        ),
        (
            "empty.json",
            "{\"id\": 7, \"data\": {\"text\": \"Bob is here\"}, \"annotations\": []}",
            "no annotation",
        ),
        (
            "cancelled.json",
            "{\"id\": 7, \"data\": {\"text\": \"Bob is here\"}, \"annotations\": [{\"was_cancelled\": true, \"result\": [{\"type\": \"labels\", \"value\": {\"start\": 0, \"end\": 3, \"labels\": [\"PER\"]}}]}]}",
            "only cancelled",
        ),
    ];
    let run = write_file(
        &dir,
        "run.json",
        &format!(
            "[{LS_ANNOTATED}, {{\"id\": 7, \"data\": {{\"text\": \"Bob is here\"}}, \"annotations\": [{{\"result\": []}}]}}]"
        ),
    );
    for (name, task, why) in cases {
        let gold = write_file(&dir, name, &format!("[{LS_ANNOTATED}, {task}]"));
        for family in ["spans", "fair", "muc"] {
            let o = family_json(family, &gold, &run);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(3), "{family} {name}: {e}");
            assert!(
                e.contains(&format!("{name}: task 2")) && e.contains("\"7\"") && e.contains(why),
                "{family} {name}: {e}"
            );
        }
    }
    // An annotation with an empty result is a document without entities, as before.
    let ok = family_json("spans", &run, &run);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

/// `rank_by` an error count ranks the run with the fewest errors first.
#[test]
fn ranking_by_an_error_count_puts_the_fewest_errors_first() {
    use fairscore::campaign::rank_runs;
    use fairscore::campaign::ranking_results;
    use fairscore::family::{build, Headline, Options};
    let dir = temp_dir("hn_rank");
    let gold = write_file(
        &dir,
        "gold.conll",
        "Anna B-PER\nmet O\nCarl B-PER\nin O\nParis B-LOC\n",
    );
    // a: one FP ("met"), b: two ("met", "in"), c: none.
    let a = write_file(
        &dir,
        "a.conll",
        "Anna B-PER\nmet B-ORG\nCarl B-PER\nin O\nParis B-LOC\n",
    );
    let b = write_file(
        &dir,
        "b.conll",
        "Anna B-PER\nmet B-ORG\nCarl B-PER\nin B-ORG\nParis B-LOC\n",
    );
    let c = write_file(
        &dir,
        "c.conll",
        "Anna B-PER\nmet O\nCarl B-PER\nin O\nParis B-LOC\n",
    );
    let fam = build("spans", &Options::default()).unwrap();
    let runs: Vec<(String, PathBuf)> = [("a", &a), ("b", &b), ("c", &c)]
        .iter()
        .map(|(n, p)| (n.to_string(), PathBuf::from(p)))
        .collect();
    let h = Headline {
        table: "strict".into(),
        row: vec!["ALL".into()],
        column: "FP".into(),
    };
    let r = rank_runs(fam.as_ref(), Path::new(&gold), &runs, Some(h.clone()), None).unwrap();
    let order: Vec<(&str, f64)> = r
        .runs
        .iter()
        .map(|x| (x.system.as_str(), x.value))
        .collect();
    assert_eq!(order, vec![("c", 0.0), ("a", 1.0), ("b", 2.0)]);
    // The ranking table shows the count as the family does, not as a ratio.
    let t = ranking_results(fam.as_ref(), &r);
    let table = t.table("ranking").unwrap();
    let col = table.column("FP").unwrap();
    assert_eq!(table.columns[col].kind, fairscore::table::Kind::Amount);
    assert!(table.columns[col].lower_is_better);
    // F1 still ranks the highest first.
    let h = Headline {
        column: "F1".into(),
        ..h
    };
    let r = rank_runs(fam.as_ref(), Path::new(&gold), &runs, Some(h), None).unwrap();
    assert_eq!(r.runs[0].system, "c");
    assert_eq!(r.runs[2].system, "b");
}

/// Each family says which of its columns count errors: lower is better there.
#[test]
fn families_mark_their_error_columns() {
    let dir = temp_dir("hn_cols");
    let gold = write_file(&dir, "gold.conll", "Anna B-PER\nmet O\n");
    let lower = |family: &str, table: &str| -> Vec<String> {
        let fam = fairscore::family::build(family, &fairscore::family::Options::default()).unwrap();
        let r = fairscore::family::evaluate(fam.as_ref(), Path::new(&gold), Path::new(&gold), None)
            .unwrap();
        let t = r.table(table).unwrap();
        t.columns
            .iter()
            .filter(|c| c.lower_is_better)
            .map(|c| c.name.clone())
            .collect()
    };
    assert_eq!(lower("spans", "strict"), ["FP", "FN"]);
    assert_eq!(lower("muc", "muc"), ["INC", "PAR", "MIS", "SPU"]);
    assert_eq!(
        lower("fair", "fair"),
        ["FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE"]
    );
    assert_eq!(lower("fair", "traditional"), ["FP", "FN"]);
}

/// A family campaign ranked by an error count: ascending in the ranking and the Codabench
/// leaderboard column sorts ascending.
#[test]
fn a_campaign_ranked_by_fp_sorts_ascending_everywhere() {
    let dir = temp_dir("hn_rank_campaign");
    let (gold, runs, out) = (dir.join("gold"), dir.join("runs"), dir.join("out"));
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::create_dir_all(&runs).unwrap();
    write_file(
        &gold,
        "test.conll",
        "Anna B-PER\nmet O\nCarl B-PER\n\nin O\nParis B-LOC\n",
    );
    write_file(
        &runs,
        "good_1.conll",
        "Anna B-PER\nmet O\nCarl B-PER\n\nin O\nParis B-LOC\n",
    );
    write_file(
        &runs,
        "bad_1.conll",
        "Anna B-PER\nmet B-ORG\nCarl B-PER\n\nin B-ORG\nParis B-LOC\n",
    );
    let campaign = write_file(
        &dir,
        "campaign.toml",
        "name = \"c\"\n\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"test.conll\"\nruns = \"{team}_{run}.conll\"\nrank_by = \"FP\"\n",
    );
    let o = fairscore(&[
        "leaderboard",
        "-q",
        "--campaign",
        &campaign,
        "--gold-dir",
        gold.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
        "--outdir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    let text = v.to_string();
    let (good, bad) = (text.find("good_1").unwrap(), text.find("bad_1").unwrap());
    assert!(good < bad, "{text}");
    let zip = dir.join("bundle.zip");
    let fake_elf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs/codabench/fake_elf");
    let o = fairscore(&[
        "codabench-bundle",
        "--campaign",
        &campaign,
        "--gold-dir",
        gold.to_str().unwrap(),
        "--binary",
        fake_elf.to_str().unwrap(),
        zip.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A stored zip: competition.yaml is in it as written.
    let bytes = String::from_utf8_lossy(&std::fs::read(&zip).unwrap()).into_owned();
    assert!(bytes.contains("sorting: asc"), "no ascending column");
    assert!(!bytes.contains("sorting: desc"));
}

/// muc `--bootstrap` on documents without entities counts the documents.
#[test]
fn muc_counts_documents_without_entities() {
    let dir = temp_dir("hn_muc");
    let none = write_file(
        &dir,
        "none.jsonl",
        "{\"id\": \"a\", \"text\": \"Anna met Carl\", \"labels\": []}\n{\"id\": \"b\", \"text\": \"Bob\", \"labels\": []}\n",
    );
    let v = fairscore_json(&["muc", "--gold", &none, "--pred", &none, "--json", "-"]);
    assert_eq!(v["units"], 2);
    let o = fairscore(&[
        "muc",
        "--gold",
        &none,
        "--pred",
        &none,
        "--bootstrap",
        "20",
        "--json",
        "-",
    ]);
    let v = json_of(&o);
    assert_eq!(v["units"], 2);
    let one = write_file(
        &dir,
        "one.jsonl",
        "{\"id\": \"a\", \"text\": \"Anna met Carl\", \"labels\": []}\n",
    );
    let o = fairscore(&["muc", "--gold", &one, "--pred", &one, "--bootstrap", "20"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("the input has 1"), "{e}");
    // CoNLL sentences without entities too.
    let conll = write_file(&dir, "none.conll", "Anna O\nmet O\n\nCarl O\n");
    let v = fairscore_json(&[
        "muc",
        "--gold",
        &conll,
        "--pred",
        &conll,
        "--bootstrap",
        "20",
        "--json",
        "-",
    ]);
    assert_eq!(v["units"], 2);
}

/// The signature of a single brat `.ann` hashes its `.txt` too.
#[test]
fn the_signature_of_one_ann_hashes_its_text() {
    let dir = temp_dir("hn_sig_ann");
    let ann = write_file(&dir, "x.ann", "T1\tPER 0 4\t\n");
    let sig = || {
        let o = fairscore(&[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &ann,
            "--pred",
            &ann,
            "--signature",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    write_file(&dir, "x.txt", "Anna met Carl\n");
    let first = sig();
    write_file(&dir, "x.txt", "Anne met Carl\n");
    assert_ne!(first, sig());
    // As a directory of the same pair hashes it.
    let h = |p: &Path| fairscore::family::file_hash(p).unwrap();
    let sub = dir.join("d");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(dir.join("x.ann"), sub.join("x.ann")).unwrap();
    std::fs::copy(dir.join("x.txt"), sub.join("x.txt")).unwrap();
    assert_eq!(h(&dir.join("x.ann")), h(&sub));
}

fn brat_project(dir: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brat-tiny");
    for a in ["ann1", "ann2"] {
        crate::common::copy_dir(&src.join(a), &dir.join(a));
    }
}

/// `annotation.conf` that is a device or a FIFO is refused, not silently ignored.
#[cfg(unix)]
#[test]
fn annotation_conf_on_a_device_is_refused() {
    for (name, make) in [
        ("zero", "/dev/zero"),
        ("null", "/dev/null"),
        ("fifo", ""),
        ("dangling", "/nonexistent/annotation.conf"),
    ] {
        let dir = temp_dir(&format!("hn_conf_{name}"));
        brat_project(&dir);
        let conf = dir.join("annotation.conf");
        if make.is_empty() {
            let ok = std::process::Command::new("mkfifo")
                .arg(&conf)
                .status()
                .unwrap();
            assert!(ok.success());
        } else {
            std::os::unix::fs::symlink(make, &conf).unwrap();
        }
        let o = fairscore(&["agree", "--project", dir.to_str().unwrap()]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{name}: {e}");
        assert!(
            e.contains("annotation.conf: ") && e.contains("expected a regular file"),
            "{name}: {e}"
        );
    }
}

/// `agree` outputs carry a signature: family `agree`, the options, a hash of each
/// annotator's input, the version.
#[test]
fn agree_outputs_carry_a_signature() {
    let dir = temp_dir("hn_agree_sig");
    brat_project(&dir);
    let p = dir.to_str().unwrap();
    let v = fairscore_json(&["agree", "--project", p, "--json", "-"]);
    let sig = v["signature"].as_str().expect("a signature").to_string();
    assert!(sig.starts_with("fairscore|family:agree|"), "{sig}");
    let f = &v["signature_fields"];
    assert_eq!(f["family"], "agree");
    assert_eq!(f["format"], "auto");
    assert_eq!(f["annotators"], "ann1,ann2");
    assert_eq!(f["inputs"].as_str().unwrap().split(',').count(), 2);
    assert_eq!(f["version"], env!("CARGO_PKG_VERSION"));
    // Another text of one annotator: another signature; the text table says it too.
    let text = String::from_utf8_lossy(&fairscore(&["agree", "--project", p]).stdout).into_owned();
    assert!(text.contains(&format!("signature: {sig}")), "{text}");
    let t = dir.join("ann2/doc1.ann");
    let body = std::fs::read_to_string(&t).unwrap();
    std::fs::write(&t, format!("{body}\n")).unwrap();
    let v2 = fairscore_json(&["agree", "--project", p, "--json", "-"]);
    assert_ne!(v2["signature"], v["signature"]);
    // One file per annotator, with --format.
    let a = write_file(&dir, "anna.jsonl", GOLD);
    let b = write_file(&dir, "ben.jsonl", DUP);
    let v = fairscore_json(&[
        "agree",
        "--annotator",
        &a,
        "--annotator",
        &b,
        "--format",
        "doccano",
        "--json",
        "-",
    ]);
    let f = &v["signature_fields"];
    assert_eq!(f["format"], "doccano");
    assert_eq!(f["annotators"], "anna,ben");
    let ha = fairscore::family::file_hash(Path::new(&a)).unwrap();
    let hb = fairscore::family::file_hash(Path::new(&b)).unwrap();
    assert_eq!(f["inputs"], format!("{ha},{hb}"));
}
