//! Issue 47.7, the type changes of `convert` and of the scoring commands (docs/convert.md,
//! "Type changes"): a type map key that no CoNLL tag or brat type can hold (white space, `;`,
//! `|`) is refused naming the map file and the key's line, before anything is written (it
//! made `convert` write a CoNLL file that `evaluate` then refused, blaming the run's line); a
//! type named by `--keep-types`, `--remove-types` or a map's lists that no mention of the
//! input has is a warning naming it (a typo, `--keep-types PERS`, removed every mention
//! without a word; seqscore is silent too).

use crate::common::{fairscore, temp_dir, write_file};

const BIO: &str = "Anna B-PER\nMaria I-PER\nand O\nParis B-LOC\n";

/// Runs fairscore: exit code and standard error.
fn run(args: &[&str]) -> (i32, String) {
    let o = fairscore(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code().unwrap_or(-1), err)
}

#[test]
fn a_map_key_no_output_can_hold_is_refused_naming_the_map_file() {
    let dir = temp_dir("convert-types-keys");
    let input = write_file(&dir, "in.conll", BIO);
    let out = dir.join("out.conll");
    let o = out.display().to_string();
    for key in ["MY TYPE", "A;B", "A|B", "TAB\tX"] {
        let json = serde_json::json!({ "LOC": ["GPE"], key: ["PER"] });
        let text = serde_json::to_string_pretty(&json).expect("json");
        let quoted = serde_json::to_string(key).expect("json");
        let line = text
            .lines()
            .position(|l| l.contains(&quoted))
            .map_or(0, |i| i + 1);
        let map = write_file(&dir, "map.json", &text);
        let (code, err) = run(&["convert", "--in", &input, "--out", &o, "--map-types", &map]);
        assert_eq!(code, 3, "{key}: {err}");
        assert!(
            err.contains(&format!("map.json:{line}: key")),
            "{key}: {err}"
        );
        assert!(!out.exists(), "{key}: nothing written");
        // The scoring commands read the map the same way: the map is named, not the run.
        let (code, err) = run(&[
            "evaluate",
            "--family",
            "spans",
            "--gold",
            &input,
            "--pred",
            &input,
            "--map-types",
            &map,
        ]);
        assert_eq!(code, 3, "{key}: {err}");
        assert!(
            err.contains("map.json:") && !err.contains("in.conll"),
            "{key}: {err}"
        );
    }
    let map = write_file(&dir, "map.json", r#"{"PERSON": ["PER"]}"#);
    let (code, err) = run(&["convert", "--in", &input, "--out", &o, "--map-types", &map]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out)
        .expect("out")
        .contains("B-PERSON"));
}

#[test]
fn a_type_named_that_no_mention_has_is_a_warning_naming_it() {
    let dir = temp_dir("convert-types-unseen");
    let input = write_file(&dir, "in.conll", BIO);
    let o = dir.join("out.conll").display().to_string();
    let warned = |err: &str, option: &str, ty: &str| {
        err.lines().any(|l| {
            l.starts_with(&format!("fairscore: warning: {option}: no mention of "))
                && l.contains("in.conll")
                && l.contains(&format!("the type \"{ty}\""))
        })
    };
    let (code, err) = run(&[
        "convert",
        "--in",
        &input,
        "--out",
        &o,
        "--keep-types",
        "PERS",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(warned(&err, "keep_types", "PERS"), "{err}");
    assert!(err.contains("did you mean \"PER\"?"), "{err}");
    let (_, err) = run(&[
        "convert",
        "--in",
        &input,
        "--out",
        &o,
        "--remove-types",
        "LCO,PER",
    ]);
    assert!(
        warned(&err, "remove_types", "LCO") && !err.contains("\"PER\""),
        "{err}"
    );
    // A map's old type that no mention has maps nothing; keep and remove read mapped types.
    let map = write_file(&dir, "m.json", r#"{"MISC": ["EVENT", "PER"]}"#);
    let (_, err) = run(&[
        "convert",
        "--in",
        &input,
        "--out",
        &o,
        "--map-types",
        &map,
        "--keep-types",
        "MISC,PER",
    ]);
    assert!(warned(&err, "map_types", "EVENT"), "{err}");
    assert!(
        warned(&err, "keep_types", "PER") && !warned(&err, "keep_types", "MISC"),
        "{err}"
    );
    // Every type named is there: no warning.
    let (_, err) = run(&[
        "convert",
        "--in",
        &input,
        "--out",
        &o,
        "--keep-types",
        "PER,LOC",
    ]);
    assert!(!err.contains("warning"), "{err}");
    // A standoff input, and a scoring command (the changes apply to the run).
    let doccano = write_file(
        &dir,
        "in.jsonl",
        "{\"id\": 1, \"text\": \"Anna met Bob\", \"label\": [[0, 4, \"PER\"]]}\n",
    );
    let (code, err) = run(&[
        "convert",
        "--in",
        &doccano,
        "--out",
        &o,
        "--out-format",
        "conll",
        "--keep-types",
        "PERS",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("keep_types: no mention of") && err.contains("in.jsonl"),
        "{err}"
    );
    let (code, err) = run(&[
        "evaluate",
        "--family",
        "spans",
        "--gold",
        &input,
        "--pred",
        &input,
        "--keep-types",
        "PERS",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(warned(&err, "keep_types", "PERS"), "{err}");
}
