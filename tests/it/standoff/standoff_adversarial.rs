//! Standoff inputs as real exports and careless hands make them, one test per defect an
//! adversarial review of the readers found (brat, doccano, Label Studio, Prodigy/spaCy): each
//! asserts what was false before the fix (a wrong reading, a silent count, a message without
//! its place). See docs/standoff.md.

use std::path::Path;

use crate::common::{evaluate_tables, fairscore, temp_dir};

/// Writes `bytes` to `dir/name` (parents created) and returns the path as a string.
fn put(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, bytes).expect("write");
    p.to_str().expect("UTF-8 path").to_string()
}

/// Exit status and standard error of a run of the binary.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = fairscore(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `evaluate --family spans --regimes strict` of gold and run: exit status and standard error.
fn spans(gold: &str, pred: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "evaluate",
        "--family",
        "spans",
        "--gold",
        gold,
        "--pred",
        pred,
        "--regimes",
        "strict",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// The strict `ALL` row (TP, FP, FN) and the unit count of a spans evaluation that succeeds.
fn strict_all(gold: &str, pred: &str, extra: &[&str]) -> ((f64, f64, f64), u64) {
    let mut args = vec!["--regimes", "strict"];
    args.extend_from_slice(extra);
    let v = evaluate_tables("spans", Path::new(gold), Path::new(pred), &args);
    let row = v["tables"][0]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["key"]["label"] == "ALL")
        .expect("ALL row")
        .clone();
    let n = |k: &str| row["scores"][k].as_f64().expect("count");
    (
        (n("TP"), n("FP"), n("FN")),
        v["units"].as_u64().unwrap_or(0),
    )
}

/// A brat document `name` (`.txt` and `.ann`) in `dir`.
fn brat(dir: &Path, name: &str, text: &str, ann: &str) -> String {
    put(dir, &format!("{name}.txt"), text);
    put(dir, &format!("{name}.ann"), ann)
}

const TEXT: &str = "Anna met Bob in Paris.";

#[test]
fn hidden_files_and_directories_are_not_documents() {
    let dir = temp_dir("adv_hidden");
    let ann = "T1\tPER 0 4\tAnna\n";
    brat(&dir.join("gold"), "a", TEXT, ann);
    brat(&dir.join("run"), "a", TEXT, ann);
    // A macOS resource fork (binary) and a notebook checkpoint beside the gold's document.
    put(
        &dir.join("gold"),
        "._a.ann",
        b"\x00\x05\x16\x07\x00\x02\xff\xfeMac OS X",
    );
    brat(
        &dir.join("gold/.ipynb_checkpoints"),
        "a-checkpoint",
        TEXT,
        ann,
    );
    let g = dir.join("gold");
    let r = dir.join("run");
    let ((tp, fp, fn_), units) = strict_all(g.to_str().unwrap(), r.to_str().unwrap(), &[]);
    assert_eq!(((tp, fp, fn_), units), ((1.0, 0.0, 0.0), 1));
}

#[test]
fn a_directory_without_ann_files_is_an_error() {
    let dir = temp_dir("adv_empty_dir");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    put(&dir, "notes/readme.txt", "not annotations");
    let e = empty.to_str().unwrap();
    let (code, err) = spans(e, e, &["--format", "brat"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("no .ann file"), "{err}");
    // agree: an annotator folder without documents is not an annotator who agreed on nothing.
    let notes = dir.join("notes");
    let (code, err) = run(&[
        "agree",
        "--annotator",
        e,
        "--annotator",
        notes.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3), "{err}");
}

#[test]
fn a_token_file_whose_first_token_looks_like_a_brat_id_is_not_brat() {
    let dir = temp_dir("adv_road");
    let conll = "M1\tB-LOC\nis\tO\nclosed\tO\n";
    let g = put(&dir, "gold.conll", conll);
    let r = put(&dir, "run.conll", conll);
    let ((tp, _, _), _) = strict_all(&g, &r, &[]);
    assert_eq!(tp, 1.0);
    // And a brat gold against it reads the run as tokens.
    let ann = brat(&dir, "doc", "M1 is closed", "T1\tLOC 0 2\tM1\n");
    let ((tp, _, _), _) = strict_all(&ann, &r, &[]);
    assert_eq!(tp, 1.0);
}

#[test]
fn an_empty_text_column_is_no_text_as_brat_reads_it() {
    let dir = temp_dir("adv_empty_column");
    let ann = brat(&dir, "a", TEXT, "T1\tPER 0 4\t\nT2\tPER 9 12\t \n");
    let ((tp, _, _), _) = strict_all(&ann, &ann, &[]);
    assert_eq!(tp, 2.0);
}

#[test]
fn a_line_break_written_as_one_space_matches_the_text() {
    let dir = temp_dir("adv_crlf_column");
    // The span covers `\r\n`; a tool wrote the line break as one space.
    let ann = brat(
        &dir,
        "a",
        "Anna lives\r\nin Paris.\r\n",
        "T1\tX 5 20\tlives in Paris\r\n",
    );
    let ((tp, _, _), _) = strict_all(&ann, &ann, &[]);
    assert_eq!(tp, 1.0);
}

#[test]
fn overlapping_fragments_are_refused() {
    let dir = temp_dir("adv_overlap");
    brat(&dir.join("a"), "d", TEXT, "T1\tLOC 0 4;2 8\tAnna na met\n");
    brat(&dir.join("b"), "d", TEXT, "T1\tLOC 0 8\tAnna met\n");
    // Before: read, and the token-based agreement counted the shared token twice (F1 0.8).
    let (code, err) = run(&[
        "agree",
        "--annotator",
        dir.join("a").to_str().unwrap(),
        "--annotator",
        dir.join("b").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("d.ann:1: fragments 0-4 and 2-8 overlap"),
        "{err}"
    );
}

#[test]
fn fragments_out_of_order_are_the_same_span() {
    let dir = temp_dir("adv_fragment_order");
    brat(&dir.join("a"), "d", TEXT, "T1\tLOC 0 4;16 21\tAnna Paris\n");
    brat(&dir.join("b"), "d", TEXT, "T1\tLOC 16 21;0 4\tParis Anna\n");
    let v = crate::common::fairscore_json(&[
        "agree",
        "--annotator",
        dir.join("a").to_str().unwrap(),
        "--annotator",
        dir.join("b").to_str().unwrap(),
        "--json",
        "-",
    ]);
    let pairs = crate::common::json_table(&v, "instance-pairs");
    let s = &pairs["rows"][0]["scores"];
    assert_eq!(
        (s["TP"].as_u64(), s["FP"].as_u64(), s["FN"].as_u64()),
        (Some(1), Some(0), Some(0))
    );
}

#[test]
fn an_event_line_of_roles_only_does_not_drop_an_entity() {
    let dir = temp_dir("adv_event");
    // brat reads `Agent:T1` as TYPE:TRIGGER and refuses a trigger of another type; fairscore
    // took the entity T1 for a trigger and dropped it.
    let ann = brat(&dir, "a", TEXT, "T1\tPER 0 4\tAnna\nE1\tAgent:T1\n");
    let (code, err) = spans(&ann, &ann, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("a.ann:2: event \"E1\""), "{err}");
    // A well-formed event still drops only its trigger.
    let ann = brat(
        &dir,
        "b",
        TEXT,
        "E1\tMeet:T3 Agent:T1\nT1\tPER 0 4\tAnna\nT3\tMeet 5 8\tmet\nA1\tNegation E1\n",
    );
    let ((tp, _, _), _) = strict_all(&ann, &ann, &[]);
    assert_eq!(tp, 1.0);
}

#[test]
fn doccano_labels_and_entities_that_differ_are_refused() {
    let dir = temp_dir("adv_doccano_both");
    let f = put(
        &dir,
        "both.jsonl",
        r#"{"text": "Anna met Bob", "labels": [[0, 4, "PER"]], "entities": [{"start_offset": 9, "end_offset": 12, "label": "PER"}]}
"#,
    );
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("both.jsonl:1: both \"entities\" and \"labels\""),
        "{err}"
    );
}

#[test]
fn doccano_text_classification_is_not_read_as_no_spans() {
    let dir = temp_dir("adv_doccano_textcat");
    let f = put(
        &dir,
        "cats.jsonl",
        "{\"text\": \"Anna met Bob\", \"label\": \"positive\"}\n",
    );
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("cats.jsonl:1: expected \"label\" to be a list"),
        "{err}"
    );
}

#[test]
fn a_record_of_another_layout_is_refused_not_read_without_spans() {
    let dir = temp_dir("adv_mixed_layout");
    let f = put(
        &dir,
        "mixed.jsonl",
        "{\"text\": \"Anna met Bob\", \"labels\": [[0, 4, \"PER\"]]}\n\
         {\"text\": \"Bob\", \"spans\": [{\"start\": 0, \"end\": 3, \"label\": \"PER\"}]}\n",
    );
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("mixed.jsonl:2:"), "{err}");
}

#[test]
fn a_broken_first_json_line_is_reported_as_bad_json() {
    let dir = temp_dir("adv_bad_first_line");
    let f = put(
        &dir,
        "run.jsonl",
        "{\"text\": \"Anna met Bob\", \"labels\": [[0, 4, \"PER\"],]}\n",
    );
    // Before: taken for a CoNLL file ("column TAG: expected an IOB tag").
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("run.jsonl:1: bad JSON: trailing comma"),
        "{err}"
    );
}

#[test]
fn a_json_array_of_doccano_records_is_read_as_doccano() {
    let dir = temp_dir("adv_doccano_array");
    let f = put(
        &dir,
        "gold.json",
        r#"[{"text": "Anna met Bob", "labels": [[0, 4, "PER"]]}, {"text": "Bob", "labels": [[0, 3, "PER"]]}]"#,
    );
    for extra in [&[][..], &["--format", "doccano"][..]] {
        let ((tp, _, _), units) = strict_all(&f, &f, extra);
        assert_eq!((tp, units), (2.0, 2), "{extra:?}");
    }
}

#[test]
fn spacy_doc_json_entities_are_read() {
    let dir = temp_dir("adv_spacy");
    // spaCy's Doc.to_json: entities under `ents`, span groups (a dict) under `spans`.
    let g = put(
        &dir,
        "gold.jsonl",
        r#"{"text": "Anna met Bob", "ents": [{"start": 0, "end": 4, "label": "PER"}], "spans": {"sc": []}, "tokens": []}
"#,
    );
    let r = put(
        &dir,
        "run.jsonl",
        "{\"text\": \"Anna met Bob\", \"labels\": [[0, 4, \"PER\"]]}\n",
    );
    let ((tp, fp, fn_), _) = strict_all(&g, &r, &[]);
    assert_eq!((tp, fp, fn_), (1.0, 0.0, 0.0));
}

#[test]
fn prodigy_rejected_and_ignored_records_are_left_out() {
    let dir = temp_dir("adv_prodigy_reject");
    let f = put(
        &dir,
        "gold.jsonl",
        "{\"text\": \"Anna met Bob\", \"spans\": [{\"start\": 0, \"end\": 4, \"label\": \"ORG\"}], \"answer\": \"reject\"}\n\
         {\"text\": \"Anna met Bob\", \"spans\": [{\"start\": 0, \"end\": 4, \"label\": \"PER\"}], \"answer\": \"accept\"}\n\
         {\"text\": \"Bob\", \"spans\": [{\"start\": 0, \"end\": 3, \"label\": \"PER\"}], \"answer\": \"ignore\"}\n",
    );
    let v = evaluate_tables(
        "spans",
        Path::new(&f),
        Path::new(&f),
        &["--regimes", "strict"],
    );
    let labels: Vec<&str> = v["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["key"]["label"].as_str())
        .collect();
    assert_eq!((v["units"].as_u64(), labels), (Some(1), vec!["ALL", "PER"]));
}

#[test]
fn a_document_id_given_twice_in_one_file_is_refused_naming_both_lines() {
    let dir = temp_dir("adv_duplicate_id");
    let a = put(
        &dir,
        "anna.jsonl",
        "{\"id\": 1, \"text\": \"Anna met Bob\", \"labels\": [[0, 4, \"PER\"]]}\n\
         {\"id\": 1, \"text\": \"Anna met Bob\", \"labels\": [[9, 12, \"PER\"]]}\n",
    );
    let b = put(
        &dir,
        "ben.jsonl",
        "{\"id\": 1, \"text\": \"Anna met Bob\", \"labels\": [[9, 12, \"PER\"]]}\n\
         {\"id\": 2, \"text\": \"Bob\", \"labels\": []}\n",
    );
    // Before: agree kept the second line of anna's silently.
    let (code, err) = run(&["agree", "--annotator", &a, "--annotator", &b]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("anna.jsonl:2: document \"1\" is given twice (lines 1 and 2)"),
        "{err}"
    );
}

/// A Label Studio export of one task over `text` with these results.
fn label_studio(text: &str, results: &str) -> String {
    format!(
        r#"[{{"id": 1, "data": {{"text": {text:?}}}, "annotations": [{{"result": [{results}]}}]}}]"#
    )
}

#[test]
fn label_studio_per_region_results_of_other_types_are_not_spans() {
    let dir = temp_dir("adv_ls_per_region");
    let f = put(
        &dir,
        "ls.json",
        label_studio(
            "Anna met Bob",
            r#"{"id": "r1", "type": "labels", "value": {"start": 0, "end": 4, "text": "Anna", "labels": ["PER"]}},
               {"id": "r1", "type": "textarea", "value": {"start": 0, "end": 4, "text": ["a note"]}},
               {"id": "r1", "type": "choices", "value": {"start": 0, "end": 4, "choices": ["sure"]}}"#,
        ),
    );
    let ((tp, _, _), _) = strict_all(&f, &f, &[]);
    assert_eq!(tp, 1.0);
}

#[test]
fn a_label_studio_region_with_several_labels_is_one_span_per_label() {
    let dir = temp_dir("adv_ls_multi_label");
    let g = put(
        &dir,
        "ls.json",
        label_studio(
            "Anna met Bob",
            r#"{"type": "labels", "value": {"start": 0, "end": 4, "text": "Anna", "labels": ["PER", "ORG"]}}"#,
        ),
    );
    let r = put(
        &dir,
        "run.jsonl",
        "{\"id\": 1, \"text\": \"Anna met Bob\", \"labels\": [[0, 4, \"ORG\"]]}\n",
    );
    // Before: only PER was read, so the run's ORG was a false positive.
    let ((tp, fp, fn_), _) = strict_all(&g, &r, &[]);
    assert_eq!((tp, fp, fn_), (1.0, 0.0, 1.0));
}

#[test]
fn label_studio_offset_errors_name_the_task() {
    let dir = temp_dir("adv_ls_task");
    let f = put(
        &dir,
        "ls.json",
        r#"[{"data": {"text": "ab"}, "annotations": [{"result": []}]},
            {"data": {"text": "ab"}, "annotations": [{"result": [{"value": {"start": 0, "end": 9, "labels": ["X"]}}]}]}]"#,
    );
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("ls.json: task 2: span 0-9 is beyond"), "{err}");
}

#[test]
fn label_studio_region_text_is_checked_against_its_offsets() {
    let dir = temp_dir("adv_ls_text");
    // Offsets counted in code points (as a Python converter would) where Label Studio counts
    // UTF-16 code units: the emoji shifts the span by one; its own text says so.
    let f = put(
        &dir,
        "ls.json",
        label_studio(
            "😀 Anna met Bob",
            r#"{"type": "labels", "value": {"start": 2, "end": 6, "text": "Anna", "labels": ["PER"]}}"#,
        ),
    );
    let (code, err) = spans(&f, &f, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("task 1: text mismatch"), "{err}");
}

#[test]
fn an_export_without_documents_is_an_error() {
    let dir = temp_dir("adv_no_document");
    let empty = put(&dir, "empty.jsonl", "");
    let (code, err) = spans(&empty, &empty, &["--format", "doccano"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("empty.jsonl: the file is empty"), "{err}");
    let none = put(&dir, "none.json", "[]");
    let (code, err) = spans(&none, &none, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("none.json: no document"), "{err}");
}
