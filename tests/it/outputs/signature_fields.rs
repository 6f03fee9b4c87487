//! Issue 47.7: a signature names each field once. The mentions family (and a generative run
//! placed on the gold's texts in the span families) has an option `unit`; with `--bootstrap`
//! the resampling's unit is a field of its own, `resample-unit`, so `unit` is never written
//! twice (a parser keeping the first or the last would read one of them wrong).

use crate::common::{fairscore, temp_dir, write_file};

fn fields(sig: &str) -> Vec<(String, String)> {
    sig.trim()
        .split('|')
        .skip(1)
        .map(|f| {
            let (k, v) = f.split_once(':').unwrap_or((f, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn a_signature_names_each_field_once() {
    let dir = temp_dir("signature_fields_once");
    let gold = write_file(
        &dir,
        "gold.jsonl",
        "{\"id\": \"a\", \"text\": \"Anna reads\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"text\": \"Paris is\", \"entities\": [[\"Paris\", \"LOC\"]]}\n",
    );
    let run = write_file(
        &dir,
        "run.jsonl",
        "{\"id\": \"a\", \"entities\": [[\"Anna\", \"PER\"]]}\n\
         {\"id\": \"b\", \"entities\": [[\"Paris\", \"PER\"]]}\n",
    );
    // (family, its options, the resampling unit: a generative run placed on the gold's texts
    // is scored document by document).
    for (family, extra, resampled) in [
        ("mentions", vec![], "sentence"),
        ("spans", vec!["--align", "exact"], "document"),
    ] {
        let mut args = vec![
            "evaluate",
            "--family",
            family,
            "--gold",
            &gold,
            "--pred",
            &run,
            "--bootstrap",
            "100",
            "--signature",
        ];
        args.extend(extra);
        let out = fairscore(&args);
        let sig = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{family}: {sig}");
        let f = fields(&sig);
        let mut names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "{family}: a field named twice: {sig}");
        let get = |k: &str| f.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("unit"), Some("sentence"), "{family}: {sig}");
        assert_eq!(get("resample-unit"), Some(resampled), "{family}: {sig}");
    }
}

/// The signatures of two fixed scorings, per version. A signature names everything the numbers
/// depend on, so a change of its fields, of their values or of the content hashes is a change
/// of version (issue 48: every hash changed while the version stayed 0.1.0): bump the version
/// in Cargo.toml and add that version's lines here, never edit an earlier one.
const PINNED: &[(&str, &str, &str)] = &[(
    "0.2.0",
    "fairscore|family:spans|regimes:strict,ent_type,partial,exact|format:auto|beta:1|resample:bootstrap|n:100|seed:7|conf:0.95|resample-unit:sentence|gold:2382c8ca|run:b515dc06|version:0.2.0",
    "fairscore|family:fair|focus:target|repair:conlleval|ignore-punct:no|format:auto|beta:1|resample:none|gold:2382c8ca|run:b515dc06|version:0.2.0",
)];

#[test]
fn a_signature_changes_only_with_the_version() {
    let dir = temp_dir("signature_pinned");
    let gold = write_file(
        &dir,
        "g.conll",
        "Anna B-PER\nreads O\nin O\nParis B-LOC\n\nBob B-PER\n",
    );
    let run = write_file(
        &dir,
        "r.conll",
        "Anna B-PER\nreads O\nin O\nParis B-PER\n\nBob O\n",
    );
    let signature = |args: &[&str]| {
        let mut a = vec!["evaluate", "--gold", &gold, "--pred", &run];
        a.extend(args);
        let out = fairscore(&a);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find_map(|l| l.strip_prefix("signature: "))
            .unwrap_or_else(|| panic!("no signature: {text}"))
            .to_string()
    };
    let version = env!("CARGO_PKG_VERSION");
    let Some(&(_, spans, fair)) = PINNED.iter().find(|p| p.0 == version) else {
        panic!("version {version} has no pinned signatures: add them to PINNED");
    };
    let got = (
        signature(&["--family", "spans", "--bootstrap", "100", "--seed", "7"]),
        signature(&["--family", "fair"]),
    );
    assert_eq!(
        got,
        (spans.to_string(), fair.to_string()),
        "the signatures changed while the version stayed {version}: bump the version"
    );
}
