//! `check` findings depend on what is checked against: a masked gold (no annotations, what
//! participants have before the deadline) is said once and only structure and syntax are
//! checked, an all-empty run is a warning; a linking-only run (bundle 5) is not told about
//! the labels of its entity columns, which NEL scores do not use (issue 12, items 11 and 12).

use fairscore::check::{check_bytes, CheckOptions, CheckReport, Severity};
use fairscore::Edition;
use std::collections::BTreeSet;
use std::path::Path;

const H: &str = "TOKEN\tNE-COARSE-LIT\tNE-FINE-LIT\tNE-NESTED\tNEL-LIT\n";

fn gold() -> String {
    format!(
        "{H}# hipe2022:document_id = a\nJean\tB-PERS\tB-PERS.X\tO\tQ1\nvit\tO\tO\tO\t_\nà\tO\tO\tO\t_\nParis\tB-LOC\tB-LOC.X\tO\tQ90\n"
    )
}

/// The gold with every annotation cell replaced by `_`.
fn masked() -> String {
    gold()
        .lines()
        .map(|l| {
            if l.starts_with('#') || l.starts_with("TOKEN") {
                l.to_string()
            } else {
                let tok = l.split('\t').next().unwrap_or_default();
                format!("{tok}\t_\t_\t_\t_")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn run_check(gold: &str, name: &str, run: &str, opts: &CheckOptions) -> CheckReport {
    check_bytes(
        Path::new("HIPE-2022-v2.1-ajmc-test-fr.tsv"),
        gold.as_bytes(),
        Path::new(name),
        run.as_bytes(),
        opts,
    )
    .expect("check")
}

fn codes(r: &CheckReport) -> Vec<(&str, Severity)> {
    r.findings.iter().map(|f| (f.code, f.severity)).collect()
}

#[test]
fn a_masked_gold_is_said_once_and_a_good_run_passes() {
    let opts = CheckOptions::new(Edition::Hipe2022);
    let r = run_check(&masked(), "team_bundle1_ajmc_fr_1.tsv", &gold(), &opts);
    // Labels cannot be checked against a gold without any: no unknown-label warnings.
    assert_eq!(codes(&r), vec![("masked-gold", Severity::Note)], "{r:#?}");
    assert!(r.ok());
    assert_eq!(r.findings[0].line, 0);
    assert!(r.findings[0]
        .message
        .contains("only the run's structure and syntax are checked"));
    // With a tagset, labels are checked against it alone.
    let mut opts = CheckOptions::new(Edition::Hipe2022);
    opts.tagset = Some(BTreeSet::from(["PERS".to_string()]));
    let r = run_check(&masked(), "team_bundle4_ajmc_fr_1.tsv", &gold(), &opts);
    let unknown: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.code == "unknown-label")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(unknown.len(), 1, "{r:#?}");
    assert!(
        unknown[0].contains("\"LOC\" is not in the tagset"),
        "{unknown:?}"
    );
}

#[test]
fn an_all_empty_run_is_a_warning_against_a_masked_gold() {
    let empty = masked();
    for (name, skip) in [
        ("team_bundle1_ajmc_fr_1.tsv", false),
        // Tasks inferred from the gold's columns: a run with nothing at all is still a warning.
        ("run.tsv", true),
    ] {
        let mut opts = CheckOptions::new(Edition::Hipe2022);
        opts.skip_name_check = skip;
        let r = run_check(&masked(), name, &empty, &opts);
        assert!(!r.ok(), "{name}: {r:#?}");
        let masked_notes = r
            .findings
            .iter()
            .filter(|f| f.code == "masked-gold")
            .count();
        assert_eq!(masked_notes, 1, "{name}");
        let warned: Vec<&str> = r
            .findings
            .iter()
            .filter(|f| f.code == "empty-column" && f.severity == Severity::Warning)
            .filter_map(|f| f.column.as_deref())
            .collect();
        assert_eq!(
            warned,
            vec!["NE-COARSE-LIT", "NE-FINE-LIT", "NE-NESTED", "NEL-LIT"],
            "{name}: {r:#?}"
        );
    }
    // Against the annotated gold the same run is a warning too, and the gold is not masked.
    let r = run_check(
        &gold(),
        "team_bundle1_ajmc_fr_1.tsv",
        &empty,
        &CheckOptions::new(Edition::Hipe2022),
    );
    assert!(!r.ok());
    assert!(r.findings.iter().all(|f| f.code != "masked-gold"));
}

/// A run with the gold's links whose entity column uses labels the gold does not know.
fn linking_run() -> String {
    gold()
        .replace("B-PERS\t", "B-PER\t")
        .replace("B-LOC\t", "B-LIEU\t")
}

#[test]
fn a_linking_only_run_is_not_told_about_its_entity_labels() {
    let opts = CheckOptions::new(Edition::Hipe2022);
    let r = run_check(&gold(), "team_bundle5_ajmc_fr_1.tsv", &linking_run(), &opts);
    assert!(r.ok() && r.findings.is_empty(), "{r:#?}");
    // The same run submitted for NERC too: its labels matter.
    let r = run_check(&gold(), "team_bundle2_ajmc_fr_1.tsv", &linking_run(), &opts);
    let unknown = r
        .findings
        .iter()
        .filter(|f| f.code == "unknown-label")
        .count();
    assert_eq!(unknown, 2, "{r:#?}");
}

#[test]
fn a_linking_only_run_without_entity_boundaries_is_a_warning() {
    // NEL link objects are bounded by the NE-COARSE-LIT entities: without any, links can
    // hardly be scored as meant, whether the column holds `O` or `_`.
    let opts = CheckOptions::new(Edition::Hipe2022);
    for empty in ["O", "_"] {
        let run = gold()
            .replace("B-PERS\t", &format!("{empty}\t"))
            .replace("B-LOC\t", &format!("{empty}\t"))
            .replace("\tO\tO\tO\t", &format!("\t{empty}\tO\tO\t"));
        let r = run_check(&gold(), "team_bundle5_ajmc_fr_1.tsv", &run, &opts);
        let w: Vec<(&str, Option<&str>)> = r
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .map(|f| (f.code, f.column.as_deref()))
            .collect();
        assert_eq!(
            w,
            vec![("empty-column", Some("NE-COARSE-LIT"))],
            "{empty}: {r:#?}"
        );
    }
}

#[test]
fn the_binary_exits_0_for_a_good_linking_only_run_and_1_for_an_empty_run() {
    let dir = crate::common::temp_dir("check_tasks_and_masked_gold");
    let gold_path = dir.join("HIPE-2022-v2.1-ajmc-test-fr.tsv");
    let masked_path = dir.join("HIPE-2022-v2.1-ajmc-test_masked-fr.tsv");
    let linking = dir.join("team_bundle5_ajmc_fr_1.tsv");
    let empty = dir.join("team_bundle4_ajmc_fr_1.tsv");
    for (p, text) in [
        (&gold_path, gold()),
        (&masked_path, masked()),
        (&linking, linking_run()),
        (&empty, masked()),
    ] {
        std::fs::write(p, text).expect("write");
    }
    let check = |gold: &Path, run: &Path| {
        let o = crate::common::fairscore(&[
            "check",
            "--ref",
            gold.to_str().unwrap_or_default(),
            "--pred",
            run.to_str().unwrap_or_default(),
            "--hipe_edition",
            "hipe-2022",
        ]);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, out) = check(&gold_path, &linking);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = check(&masked_path, &empty);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(out.matches("carries no annotations").count(), 1, "{out}");
    assert!(out.contains("holds nothing but `_`"), "{out}");
}
