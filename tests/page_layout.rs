//! `scripts/page_check.sh` (headless Chromium) catches a cell whose text wraps where it should
//! not (a fixture). Without Chromium the test skips with a notice, as page_check.sh does.

use std::path::Path;
use std::process::Command;

/// Whether page_check.sh finds a browser (it looks for the same three names); prints the skip
/// notice when it does not.
fn chromium(test: &str) -> bool {
    let found = Command::new("bash")
        .args([
            "-c",
            "command -v chromium || command -v chromium-browser || command -v google-chrome",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "{test}: skipped: no chromium (apt-get install -y chromium); layout not checked"
        );
    }
    found
}

/// Runs page_check.sh at 390 and 1366 px: (passed, its output), the output also on stderr.
fn page_check(page: &Path, max_bytes: usize) -> (bool, String) {
    let o = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/page_check.sh"))
        .arg(page)
        .args([
            "--widths",
            "390 1366",
            "--max-bytes",
            &max_bytes.to_string(),
        ])
        .output()
        .unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{}:\n{out}", page.display());
    }
    (o.status.success(), out)
}

/// The check fails a page whose cells wrap where they should not, and names each such cell:
/// an interval in a column too narrow for it, a header broken inside a word, a name one or two
/// letters a line; the cells that wrap as they may (a name at its spaces, an interval on a line
/// of its own after `<br>`) are not reported.
#[test]
fn the_check_catches_cells_that_wrap() {
    if !chromium("the_check_catches_cells_that_wrap") {
        return;
    }
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/page/wrapping.html");
    let (ok, out) = page_check(&page, 10_000);
    assert!(!ok, "{out}");
    for w in ["390", "1366"] {
        assert!(
            out.contains(&format!(
                "FAIL at {w} px: PAGECHECK width={w} cells=10 values=3 bad=3"
            )),
            "{out}"
        );
    }
    for bad in [
        "value on 4 lines: TD \"0.911–0.952\"",
        "broken inside a word (h|o): TH \"Who\"",
        "3 lines of 5 characters: TD \"a b c d e\"",
    ] {
        assert_eq!(out.matches(bad).count(), 2, "{bad}:\n{out}");
    }
    for fine in ["neurbsl", "74.52", "\"12\""] {
        assert!(!out.contains(fine), "{fine}:\n{out}");
    }
}
