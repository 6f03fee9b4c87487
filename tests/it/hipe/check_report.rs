//! The `check` library API: findings folded once per problem with their count, ordered most
//! serious first, tasks taken from the bundle, text and JSON forms.

use fairscore::check::{check_bytes, CheckOptions, Severity};
use fairscore::{Edition, Task};
use std::path::Path;

const H: &str = "TOKEN\tNE-COARSE-LIT\tNE-FINE-LIT\tNE-NESTED\tNEL-LIT\n";

fn gold() -> String {
    format!(
        "{H}# hipe2022:document_id = a\nJean\tB-PERS\tB-PERS.X\tO\tQ1\nvit\tO\tO\tO\t_\nà\tO\tO\tO\t_\nParis\tB-LOC\tB-LOC.X\tO\tQ90\n"
    )
}

#[test]
fn repeated_problems_are_one_finding_with_a_count() {
    let run = gold()
        .replace("B-PERS\t", "b-pers\t")
        .replace("B-LOC\t", "b-loc\t")
        .replace("vit\tO", "vit\tB-ANIMAL")
        .replace("à\tO", "à\tB-ANIMAL")
        .replace("Paris", "PARIS");
    let mut opts = CheckOptions::new(Edition::Hipe2022);
    opts.task = Some(Task::NercCoarse);
    opts.skip_name_check = true;
    let r = check_bytes(
        Path::new("g.tsv"),
        gold().as_bytes(),
        Path::new("r.tsv"),
        run.as_bytes(),
        &opts,
    )
    .unwrap();
    let codes: Vec<&str> = r.findings.iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        vec!["unknown-label", "token-text", "lower-case"],
        "{r:#?}"
    );
    let unknown = &r.findings[0];
    assert_eq!(
        (unknown.line, unknown.count, unknown.severity),
        (4, 2, Severity::Warning)
    );
    assert_eq!(unknown.column.as_deref(), Some("NE-COARSE-LIT"));
    assert!(
        unknown.message.contains("\"ANIMAL\""),
        "{}",
        unknown.message
    );
    assert!(!unknown.hint.is_empty());
    assert_eq!(r.findings[2].count, 2);
    assert!(!r.ok());
    let text = r.to_text();
    assert!(
        text.starts_with("warning: r.tsv:4 [NE-COARSE-LIT]: entity type \"ANIMAL\""),
        "{text}"
    );
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("summary: r.tsv: 0 errors, 2 warnings, 1 note"));
    let j = r.to_json();
    assert_eq!(j["ok"], false);
    assert_eq!(j["warnings"], 2);
    assert_eq!(j["findings"][0]["code"], "unknown-label");
    assert_eq!(j["findings"][0]["count"], 2);
    assert_eq!(j["tasks"][0], "nerc_coarse");
}

#[test]
fn tasks_come_from_the_bundle_and_errors_come_first() {
    let run = gold().replace("Jean\t", "Je\tan\t");
    let opts = CheckOptions::new(Edition::Hipe2022);
    let r = check_bytes(
        Path::new("HIPE-2022-v2.1-ajmc-test-de.tsv"),
        gold().as_bytes(),
        Path::new("team_bundle4_ajmc_fr_1.tsv"),
        run.as_bytes(),
        &opts,
    )
    .unwrap();
    assert_eq!(r.tasks, vec![Task::NercCoarse]);
    assert_eq!(r.findings[0].severity, Severity::Error);
    assert_eq!(r.findings[0].code, "extra-cells");
    assert_eq!(r.findings[0].line, 3);
    assert!(r
        .findings
        .iter()
        .any(|f| f.code == "data-set-name" && f.severity == Severity::Warning));
    let sev: Vec<Severity> = r.findings.iter().map(|f| f.severity).collect();
    let mut sorted = sev.clone();
    sorted.sort();
    assert_eq!(sev, sorted);
}

#[test]
fn a_clean_run_passes_and_a_malformed_gold_is_an_error() {
    let opts = CheckOptions::new(Edition::Hipe2022);
    let r = check_bytes(
        Path::new("g.tsv"),
        gold().as_bytes(),
        Path::new("team_bundle1_ajmc_de_1.tsv"),
        gold().as_bytes(),
        &opts,
    )
    .unwrap();
    assert!(r.ok() && r.findings.is_empty(), "{r:#?}");
    assert_eq!(r.tasks, vec![Task::NercCoarse, Task::NercFine, Task::Nel]);
    let e = check_bytes(
        Path::new("g.tsv"),
        b"",
        Path::new("r.tsv"),
        gold().as_bytes(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(e.class(), fairscore::ErrorClass::Input);
    assert!(e.to_string().starts_with("g.tsv:1:"), "{e}");
}
