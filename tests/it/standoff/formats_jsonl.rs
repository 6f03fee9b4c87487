//! The JSON standoff readers (`formats::jsonl`: doccano, Label Studio, Prodigy) on small
//! exports: the layouts, exports as the tools write them, refusals (moved out of the module
//! to keep it under 600 lines).

use std::path::Path;

use fairscore::formats::detect_jsonl as detect;
use fairscore::formats::parse_jsonl as parse;
use fairscore::formats::JsonlLayout as Layout;
use fairscore::Result;

fn spans(text: &str) -> Result<Vec<(String, usize, usize)>> {
    Ok(parse(Path::new("x.jsonl"), text, None)?
        .into_iter()
        .flat_map(|d| d.spans)
        .map(|s| (s.label, s.fragments[0].0, s.fragments[0].1))
        .collect())
}

#[test]
fn three_layouts_give_the_same_spans() {
    let want = vec![("PER".to_string(), 0, 4)];
    let d = r#"{"text": "Anna met Bob", "labels": [[0, 4, "PER"]]}"#;
    let e = r#"{"text": "Anna met Bob", "entities": [{"id": 1, "start_offset": 0, "end_offset": 4, "label": "PER"}]}"#;
    let p = r#"{"text": "Anna met Bob", "spans": [{"start": 0, "end": 4, "label": "PER"}]}"#;
    let l = r#"[{"data": {"text": "Anna met Bob"}, "annotations": [{"result": [{"value": {"start": 0, "end": 4, "text": "Anna", "labels": ["PER"]}}]}]}]"#;
    for t in [d, e, p, l] {
        assert_eq!(spans(t).ok(), Some(want.clone()), "{t}");
    }
}

#[test]
fn exports_as_tools_write_them() {
    // Label Studio: results of another type skipped; two labels, two spans; a JSON array
    // of doccano records; spaCy's `ents`; a rejected Prodigy record left out.
    let l = r#"[{"data": {"text": "a😀 Anna"}, "annotations": [{"result": [
        {"value": {"start": 4, "end": 8, "text": "Anna", "labels": ["PER", "ORG"]}, "type": "labels"},
        {"value": {"start": 4, "end": 8, "choices": ["x"]}, "type": "choices"}]}]}]"#;
    let p = "{\"text\": \"Anna\", \"spans\": [{\"start\": 0, \"end\": 4, \"label\": \"X\"}], \"answer\": \"reject\"}\n\
             {\"text\": \"Anna\", \"ents\": [{\"start\": 0, \"end\": 4, \"label\": \"PER\"}]}\n";
    let per = |s, e| ("PER".to_string(), s, e);
    for (t, want) in [
        (l, vec![per(3, 7), ("ORG".to_string(), 3, 7)]),
        (
            r#"[{"text": "Anna", "labels": [[0, 4, "PER"]]}]"#,
            vec![per(0, 4)],
        ),
        (p, vec![per(0, 4)]),
    ] {
        assert_eq!(spans(t).ok(), Some(want), "{t}");
    }
    assert_eq!(
        detect("{\"text\": \"a\", \"labels\": [],}"),
        Some(Layout::Doccano)
    );
    assert_eq!(detect("{\tO\n"), None);
}

#[test]
fn refuses_bad_offsets_and_json() {
    for (t, needle) in [
        (
            r#"{"text": "Anna", "labels": [[0, 9, "PER"]]}"#,
            "x.jsonl:1: span 0-9 is beyond",
        ),
        (
            r#"{"text": "Anna", "labels": [[3, 1, "PER"]]}"#,
            "before its start",
        ),
        (
            "{\"text\": \"Anna\", \"labels\": []}\n{\"text\": ",
            "x.jsonl:2: bad JSON",
        ),
        (
            r#"[{"data": {"text": "a😀"}, "annotations": [{"result": [{"value": {"start": 0, "end": 2, "labels": ["X"]}}]}]}]"#,
            "x.jsonl: task 1: offset 2 is inside a character",
        ),
        ("[]", "x.jsonl: no document"),
        (
            r#"[{"id": 7, "data": {"text": "A"}}]"#,
            "x.jsonl: task 1: the task (id \"7\") has no annotation: it was never annotated",
        ),
        (
            r#"[{"data": {"text": "A"}, "annotations": [{"was_cancelled": true, "result": []}]}]"#,
            "x.jsonl: task 1: the task has only cancelled annotations (skipped)",
        ),
        (
            "{\"data\": {\"text\": \"A\"}, \"annotations\": []}",
            "x.jsonl:1: task 1: the task has no annotation",
        ),
        (
            "{\"id\": 1, \"text\": \"A\", \"labels\": []}\n{\"id\": 1, \"text\": \"B\"}",
            "x.jsonl:2: document \"1\" is given twice (lines 1 and 2)",
        ),
        (
            r#"{"text": "Anna", "spans": [{"start": 0, "end": 4, "label": "PER", "text": "Bob"}]}"#,
            "x.jsonl:1: text mismatch",
        ),
    ] {
        let e = spans(t).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(needle), "{t}: {e}");
    }
}
