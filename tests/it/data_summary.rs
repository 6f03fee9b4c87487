//! Says how many data tests skipped because `../shared` is absent (on a fresh clone), so
//! that nobody takes their "ok" for checked parity. The count is read from
//! the test sources: a data test calls `shared_data(` or a helper ending in `_or_skip(`.

use std::path::Path;

/// Test functions of `tests/it/**/*.rs` that need `../shared`, as `file::name`.
fn data_tests() -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it")];
    while let Some(dir) = dirs.pop() {
        for p in std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
        {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        // Split at each test attribute; a test's body runs up to the next one.
        for chunk in text.split("#[test]").skip(1) {
            let name = chunk
                .split("fn ")
                .nth(1)
                .and_then(|s| s.split('(').next())
                .unwrap_or("?");
            if chunk.contains("shared_data(") || chunk.contains("_or_skip(") {
                let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned());
                out.push(format!("{}::{name}", stem.unwrap_or_default()));
            }
        }
    }
    out
}

#[test]
fn data_tests_are_counted_and_their_skipping_said() {
    let tests = data_tests();
    assert!(tests.len() >= 10, "found only {} data tests", tests.len());
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    if shared.is_dir() {
        let _ = writeln!(err, "data tests: {} ran on ../shared", tests.len());
    } else {
        let _ = writeln!(
            err,
            "data tests: {} SKIPPED (../shared absent: see the README); the bundled parity test (tests/it/hipe/bundled_parity.rs) ran",
            tests.len()
        );
    }
}
