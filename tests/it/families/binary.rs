//! Helpers of the family tests that run the binary (segmentation, tagging, muc): the JSON
//! document a family command writes, the command being its family, and bad inputs that
//! write nothing.

use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// Asserts that a family document has the top-level keys of every family, in this order.
pub(super) fn assert_document_keys(v: &Value, what: &str) {
    let keys: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not a JSON object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "family",
            "unit",
            "units",
            "notes",
            "warnings",
            "tables",
            "signature",
            "signature_fields"
        ],
        "{what}: top-level keys"
    );
}

/// The names of a JSON table's columns, in order.
pub(super) fn column_names(t: &Value) -> Vec<&str> {
    t["columns"]
        .as_array()
        .unwrap_or_else(|| panic!("no columns in {t}"))
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_else(|| panic!("column {c}")))
        .collect()
}

/// The `level` key of each row of a JSON table, in order.
pub(super) fn row_levels(t: &Value) -> Vec<&str> {
    t["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows in {t}"))
        .iter()
        .map(|r| {
            r["key"]["level"]
                .as_str()
                .unwrap_or_else(|| panic!("row without a level: {r}"))
        })
        .collect()
}

/// Runs `fairscore FAMILY ARGS --json FILE`, which must succeed, and reads back the document
/// written to FILE (`json`). The command is the family: `FAMILY ARGS --json -` and `evaluate
/// --family FAMILY ARGS --json -` print that same document. Returns the command's output and
/// the document.
pub(super) fn run_family(family: &str, args: &[&str], json: &Path) -> (Output, Value) {
    let file = json.to_string_lossy().into_owned();
    let o = crate::common::fairscore(&[&[family], args, &["--json", &file]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{family} {args:?}: {err}");
    let written = crate::common::schema::read_json(json);
    let args = [args, &["--json", "-"]].concat();
    let a = crate::common::fairscore_json(&[&[family], &args[..]].concat());
    let b = crate::common::fairscore_json(&[&["evaluate", "--family", family], &args[..]].concat());
    assert_eq!(a, b, "{family} {args:?}: not evaluate --family {family}");
    assert_eq!(a, written, "{family} {args:?}: not the document written");
    (o, written)
}

/// Runs the binary with `--json OUT` appended, OUT in a fresh directory named `dir`, and
/// checks the exit status, a message fragment, exactly one error line, no panic, and that no
/// output file was written.
pub(super) fn fails(dir: &str, args: &[&str], status: i32, fragment: &str) {
    let out = crate::common::temp_dir(dir);
    let json = out.join("out.json");
    let mut argv = args.to_vec();
    let j = json.to_string_lossy().into_owned();
    argv.extend(["--json", j.as_str()]);
    let o = crate::common::fairscore(&argv);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(status), "{dir}: {stderr}");
    assert!(
        stderr.contains(fragment),
        "{dir}: {stderr:?} lacks {fragment:?}"
    );
    assert!(!stderr.contains("panicked"), "{dir}: {stderr}");
    let errors = stderr.lines().filter(|l| l.contains("error")).count();
    assert_eq!(errors, 1, "{dir}: {stderr}");
    let leftovers: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
    assert!(leftovers.is_empty(), "{dir}: wrote {leftovers:?}");
}
