//! Issue 26, class 5: a selection that matches nothing is said, never silent. A `fair`
//! `--labels`/`--exclude` label that occurs in neither file is an error (issue 46.16; it was a
//! warning), a tagset that lists none of the data's values gives a warning as data (the
//! ranking filter is in hardening_campaign.rs).

use std::path::Path;

use fairscore::eval::evaluate_fair_files as evaluate_files;
use fairscore::eval::FairOptions;
use fairscore::family::Tagset;

fn bad(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad_inputs")
        .join(name)
}

#[test]
fn fair_labels_that_occur_nowhere_are_named_with_the_closest_label() {
    // spans_gold.spans has PER and LOC. Issue 46.16: a usage error (it was a warning).
    let opts = FairOptions {
        labels: Some(vec!["PERS".into(), "LOC".into()]),
        exclude: vec!["ORGG".into()],
        ..FairOptions::default()
    };
    let g = bad("spans_gold.spans");
    let e = evaluate_files(&g, &g, &opts).unwrap_err();
    assert_eq!(e.class(), fairscore::ErrorClass::Usage);
    let e = e.to_string();
    assert!(
        e.contains("--labels: label \"PERS\" occurs in neither"),
        "{e}"
    );
    assert!(e.contains("did you mean \"PER\"?"), "{e}");
    assert!(e.contains("--exclude: label \"ORGG\""), "{e}");
    assert!(e.contains("the labels are \"LOC, PER\""), "{e}");
    // Labels that occur: no error, no warning.
    let opts = FairOptions {
        labels: Some(vec!["PER".into()]),
        ..FairOptions::default()
    };
    assert!(evaluate_files(&g, &g, &opts).unwrap().warnings.is_empty());
}

#[test]
fn a_tagset_listing_none_of_the_values_is_warned_about() {
    let gold = "a\tsubst:sg:nom\nb\tadj:pl:gen\n";
    let pred = "a\tsubst:nom:sg\nb\tadj:gen:pl\n";
    // The tagging family on the two texts, with the tag set `ts` (written to the file `name`;
    // None: no tag set); its warnings.
    let dir = crate::common::temp_dir("hardening_selection_tagsets");
    let eval = |name: &str, ts: Option<&str>| {
        let path = dir.join(name);
        let spec = path.to_string_lossy().into_owned();
        let mut opts = vec![("format", "tsv")];
        if let Some(ts) = ts {
            Tagset::parse(Path::new("t.toml"), ts).unwrap();
            std::fs::write(&path, ts).unwrap();
            opts.push(("tagset", &spec));
        }
        crate::common::family_texts("tagging", &opts, gold, pred, "tsv")
            .unwrap()
            .warnings
    };
    let other = eval(
        "other.toml",
        Some("[categories]\nnumber = [\"x\", \"y\"]\n"),
    );
    assert_eq!(other.len(), 1, "{other:?}");
    assert!(other[0].contains("lists none of the 8 values"), "{other:?}");
    let right = eval(
        "right.toml",
        Some("[categories]\nnumber = [\"sg\", \"pl\"]\ncase = [\"nom\", \"gen\"]\n"),
    );
    assert!(right.is_empty(), "{right:?}");
    // Without a tagset values are keyed by position: nothing to warn about.
    let none = eval("none.toml", None);
    assert!(none.is_empty(), "{none:?}");
}

/// Warnings concern what is scored: the README's first command (nerc_coarse) is told about
/// the IOBES tags of NE-COARSE-LIT, not about those of NE-FINE-LIT, which it does not score;
/// nerc_fine the other way round; nel about the NE column that bounds its links.
#[test]
fn warnings_concern_the_scored_columns_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gold = root.join("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = root.join("reference_runs/demo_bundle4_newseye_en_1.tsv");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-warnings");
    for (task, want, not) in [
        ("nerc_coarse", "column NE-COARSE-LIT", "column NE-FINE-LIT"),
        ("nerc_fine", "column NE-FINE-LIT", "column NE-COARSE-LIT"),
        ("nel", "column NE-COARSE-LIT", "column NE-FINE-LIT"),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .args(["score", "--ref", gold.to_str().unwrap(), "--pred"])
            .arg(&run)
            .args([
                "--task",
                task,
                "--hipe_edition",
                "hipe-2022",
                "--skip-check",
                "--outdir",
            ])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{task}: {stderr}");
        assert!(stderr.contains(want), "{task}: {stderr}");
        assert!(!stderr.contains(not), "{task}: {stderr}");
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(["muc", "--ref", gold.to_str().unwrap(), "--pred"])
        .arg(&run)
        // muc has no --hipe_edition any more (the column says what is scored); HIPE TSV is its
        // default format, given here as the edition was.
        .args(["--format", "hipe"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("NE-FINE-LIT"), "{stderr}");
}
