//! `docs/errors.md` and `check::Code` stay in step: every code appears in the findings table
//! with its severity, and every (code, severity) of the table exists.

use fairscore::check::Code;
use std::collections::BTreeSet;

/// The (code, severity) pairs of the findings table: the Markdown table after the heading
/// `### Findings`, its first cell holding one or more backticked codes.
fn documented() -> BTreeSet<(String, String)> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/errors.md"))
        .expect("docs/errors.md");
    let section = doc
        .split("### Findings")
        .nth(1)
        .expect("a `### Findings` section");
    let mut rows = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    let header = rows.next().expect("table header");
    assert!(
        header.contains("code") && header.contains("severity"),
        "{header}"
    );
    let mut pairs = BTreeSet::new();
    for row in rows.filter(|r| !r.starts_with("|---")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // cells[0] is empty (the leading `|`).
        let (codes, severity) = (cells[1], cells[2]);
        let names: Vec<&str> = codes
            .split(',')
            .map(|c| c.trim().trim_matches('`'))
            .collect();
        assert!(
            names.iter().all(|n| !n.is_empty()) && codes.contains('`'),
            "row without a code: {row}"
        );
        for n in names {
            assert!(
                pairs.insert((n.to_string(), severity.to_string())),
                "{n} ({severity}) listed twice"
            );
        }
    }
    pairs
}

#[test]
fn every_code_is_documented_with_its_severity_and_nothing_else_is() {
    let documented = documented();
    let codes: BTreeSet<(String, String)> = Code::ALL
        .iter()
        .map(|c| (c.as_str().to_string(), c.severity().as_str().to_string()))
        .collect();
    let undocumented: Vec<_> = codes.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&codes).collect();
    assert!(
        undocumented.is_empty() && unknown.is_empty(),
        "in the code but not in docs/errors.md: {undocumented:?}; in the docs but not in the code: {unknown:?}"
    );
    assert_eq!(
        codes.len(),
        Code::ALL.len(),
        "two variants with one code and severity"
    );
}
