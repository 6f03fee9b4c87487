//! Helpers of the JSON schema tests (tests/it/outputs/json_schemas.rs, tests/it/outputs/json_schema_files.rs):
//! the published schemas of `docs/`, validation, the JSON files of an output directory.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn path(rel: &str) -> String {
    repo()
        .join("tests")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

pub fn schema_doc(name: &str) -> Value {
    let p = repo().join("docs").join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).expect("the schema is JSON")
}

pub fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema_doc(name))
        .unwrap_or_else(|e| panic!("{name}: not a valid draft 2020-12 schema: {e}"))
}

/// The schema's errors on `doc`, as messages (empty: valid).
pub fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

pub fn assert_valid(v: &jsonschema::Validator, what: &str, doc: &Value) {
    let e = errors(v, doc);
    assert!(e.is_empty(), "{what}: {}", e.join("; "));
}

pub fn read_json(p: &Path) -> Value {
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: not JSON: {e}", p.display()))
}

/// Every file under `dir` whose name ends with `.json`, sorted.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(json_files(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// stdout as JSON of a command that may exit 1 (`check` with findings), never 2 or 3.
pub fn json_of(args: &[&str]) -> (i32, Value) {
    let o = crate::common::fairscore(args);
    let code = o.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{args:?}: exit {code}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON: {e}"));
    (code, doc)
}

/// The rules of a check report the schema cannot say: `ok` and the tallies follow from the
/// findings, and the exit status from `ok`.
pub fn check_report_rules(what: &str, code: i32, doc: &Value) {
    let findings = doc["findings"].as_array().expect("findings");
    for sev in ["error", "warning", "note"] {
        let n = findings.iter().filter(|f| f["severity"] == sev).count();
        assert_eq!(doc[format!("{sev}s")], json!(n), "{what}: {sev}s");
    }
    let ok = findings.iter().all(|f| f["severity"] == "note");
    assert_eq!(doc["ok"], json!(ok), "{what}: ok");
    assert_eq!(code, i32::from(!ok), "{what}: exit status");
}
