//! Issue 47.7: doccano's own export layout, `{"text", "entities": [{"id", "label",
//! "start_offset", "end_offset"}]}`, is read as doccano by every command, the mentions
//! family's gold included (whose own JSONL layout also has `entities`: a list of strings or
//! `[text, type]` pairs), without `--format doccano`.

use crate::common::{fairscore, temp_dir, write_file};

#[test]
fn doccanos_entities_layout_is_read_as_doccano() {
    let dir = temp_dir("doccano_entities_layout");
    let gold = write_file(
        &dir,
        "gold.jsonl",
        "{\"id\": 1, \"text\": \"Anna reads in Paris\", \"entities\": [{\"id\": 10, \"label\": \"PER\", \
         \"start_offset\": 0, \"end_offset\": 4}, {\"id\": 11, \"label\": \"LOC\", \"start_offset\": 14, \
         \"end_offset\": 19}], \"relations\": [], \"Comments\": []}\n",
    );
    let run = write_file(
        &dir,
        "run.jsonl",
        "{\"id\": \"1\", \"entities\": [[\"Anna\", \"PER\"], [\"Paris\", \"PER\"]]}\n",
    );
    let out = fairscore(&[
        "evaluate", "--family", "mentions", "--gold", &gold, "--pred", &run, "--table", "json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = &v["tables"][0]["rows"][0]["scores"];
    // One of two mentions right: the gold's two spans were read.
    assert_eq!(all["TP"], 1.0, "{v}");
    assert_eq!(all["FN"], 1.0, "{v}");
    // And as a doccano file by the span families, the same spans.
    let out = fairscore(&[
        "evaluate", "--family", "spans", "--gold", &gold, "--pred", &gold, "--table", "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
