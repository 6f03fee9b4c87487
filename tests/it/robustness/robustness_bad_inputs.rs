//! The bad-input corpus: every case of `tests/bad_inputs/manifest.tsv` is run through the
//! binary, which must exit with the expected status and print the expected message fragment
//! (stdout or stderr), never panic, and leave no file in the output directory when it fails.

use std::path::Path;

#[test]
fn every_bad_input_gets_its_exit_status_and_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
    let mut failures = Vec::new();
    let mut n = 0;
    let mut files = std::collections::BTreeSet::new();
    for (i, line) in manifest.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 4, "manifest line {}: {line:?}", i + 1);
        let (file, args, want_exit, fragment) = (cells[0], cells[1], cells[2], cells[3]);
        let want_exit: i32 = want_exit.parse().expect("exit status");
        let out = crate::common::temp_dir(&format!("bad_inputs_{}", i + 1));
        let args = args
            .replace("{dir}", &dir.to_string_lossy())
            .replace("{out}", &out.to_string_lossy());
        let mut argv: Vec<String> = args.split(' ').map(str::to_string).collect();
        if let Some(last) = argv.last_mut() {
            last.push_str(file);
        }
        let argv_ref: Vec<&str> = argv.iter().map(String::as_str).collect();
        let o = crate::common::fairscore(&argv_ref);
        n += 1;
        if dir.join(file).is_file() {
            files.insert(file.to_string());
        }
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let code = o.status.code();
        let mut why = Vec::new();
        if code != Some(want_exit) {
            why.push(format!("exit {code:?}, expected {want_exit}"));
        }
        if !stdout.contains(fragment) && !stderr.contains(fragment) {
            why.push(format!("no {fragment:?} in the output"));
        }
        if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
            why.push("panicked".into());
        }
        if want_exit >= 2 {
            // One clear error line naming the problem.
            let errors: Vec<&str> = stderr
                .lines()
                .filter(|l| l.starts_with("fairscore: error:") || l.starts_with("error:"))
                .collect();
            if errors.len() != 1 {
                why.push(format!("{} error lines, expected 1", errors.len()));
            }
            let left: Vec<_> = std::fs::read_dir(&out)
                .map(|d| d.flatten().map(|e| e.file_name()).collect())
                .unwrap_or_default();
            if !left.is_empty() {
                why.push(format!("files left in the output directory: {left:?}"));
            }
        }
        if !why.is_empty() {
            failures.push(format!(
                "line {} ({file}, {args}): {}\n  stdout: {}\n  stderr: {}",
                i + 1,
                why.join("; "),
                stdout.lines().take(4).collect::<Vec<_>>().join(" | "),
                stderr.lines().take(4).collect::<Vec<_>>().join(" | ")
            ));
        }
    }
    assert!(n >= 60, "only {n} cases");
    assert!(
        files.len() >= 30,
        "only {} distinct input files",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
