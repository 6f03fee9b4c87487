//! `check` gives one verdict for a CoNLL run whatever the gold's format (issue 34): the same
//! annotations as a brat, a doccano and a CoNLL gold (made with `fairscore convert` from an
//! annotator of a real brat project), runs with one defect each checked against every gold
//! give the same verdict, codes and lines; a blind gold (texts, empty `.ann` files) with
//! `--labels` catches an unknown label, and without it a note says labels were not checked.

use std::path::Path;

use crate::common::{fairscore, temp_dir};

/// A finding as (code, severity, line).
type Found = (String, String, u64);

/// Exit status, the findings of `check --json` (sorted) and its output.
fn check(gold: &Path, run: &Path, extra: &[&str]) -> (i32, Vec<Found>, String) {
    let (g, r) = (gold.display().to_string(), run.display().to_string());
    let o = fairscore(&[&["check", "--gold", &g, "--pred", &r, "--json"], extra].concat());
    let code = o.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "check {g} {r}: no JSON ({e}): {stdout}{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut found: Vec<Found> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or("").to_string(),
                f["severity"].as_str().unwrap_or("").to_string(),
                f["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    found.sort();
    (code, found, stdout)
}

fn convert(args: &[&str]) {
    let o = fairscore(&[&["convert"], args].concat());
    assert!(
        o.status.success(),
        "convert {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Replaces the first line ending in `\t{from}` by one ending in `\t{to}`.
fn first_tag(text: &str, from: &str, to: &str) -> String {
    let needle = format!("\t{from}\n");
    let at = text.find(&needle).expect("tag in the gold");
    format!("{}\t{to}\n{}", &text[..at], &text[at + needle.len()..])
}

#[test]
fn a_conll_run_gets_one_verdict_against_brat_doccano_and_conll_gold() {
    let Some(data) = crate::common::shared_data("check_any_gold") else {
        return;
    };
    let annotator = data.join("brat/bratiaa-example/example-project/Maria");
    let dir = temp_dir("check_any_gold");
    let brat = dir.join("gold-brat");
    let blind = dir.join("blind-brat");
    std::fs::create_dir_all(&brat).unwrap();
    std::fs::create_dir_all(&blind).unwrap();
    let mut docs = 0;
    for e in std::fs::read_dir(&annotator).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name();
        match p.extension().and_then(|x| x.to_str()) {
            Some("txt") => {
                std::fs::copy(&p, brat.join(&name)).unwrap();
                std::fs::copy(&p, blind.join(&name)).unwrap();
                std::fs::write(blind.join(&name).with_extension("ann"), "").unwrap();
                docs += 1;
            }
            Some("ann") => {
                std::fs::copy(&p, brat.join(&name)).unwrap();
            }
            _ => {}
        }
    }
    assert_eq!(docs, 7, "the bratiaa example has seven documents");
    let s = |p: &Path| p.display().to_string();
    let (doccano, conll) = (dir.join("gold.jsonl"), dir.join("gold.conll"));
    convert(&[
        "--in",
        &s(&brat),
        "--out",
        &s(&doccano),
        "--out-format",
        "doccano",
    ]);
    convert(&[
        "--in",
        &s(&brat),
        "--out",
        &s(&conll),
        "--out-format",
        "conll",
    ]);
    let gold_conll = std::fs::read_to_string(&conll).unwrap();

    // The runs: the gold's own tags, B_PER/I_PER tags, an unknown label, a token left out.
    let bunder = gold_conll
        .replace("\tB-PER\n", "\tB_PER\n")
        .replace("\tI-PER\n", "\tI_PER\n");
    assert_ne!(bunder, gold_conll);
    let unknown = first_tag(&gold_conll, "B-LOC", "B-PLACE");
    let lines: Vec<&str> = gold_conll.lines().collect();
    // A token inside a sentence (its neighbours are tokens too), well past the start.
    let drop = (40..lines.len() - 1)
        .find(|&i| {
            lines[i].ends_with("\tO")
                && [i - 1, i + 1]
                    .iter()
                    .all(|&k| !lines[k].is_empty() && !lines[k].starts_with("-DOCSTART-"))
        })
        .expect("a token to leave out");
    let misaligned: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != drop)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let runs = [
        ("good", gold_conll.clone()),
        ("bunder", bunder),
        ("unknown", unknown),
        ("misaligned", misaligned),
    ];
    let golds = [&brat, &doccano, &conll];
    for (name, text) in &runs {
        let run = dir.join(format!("{name}.conll"));
        std::fs::write(&run, text).unwrap();
        let results: Vec<(i32, Vec<Found>, String)> =
            golds.iter().map(|g| check(g, &run, &[])).collect();
        for (g, r) in golds.iter().zip(&results).skip(1) {
            assert_eq!(
                (r.0, &r.1),
                (results[0].0, &results[0].1),
                "{name}: against {} and {}:\n{}\n{}",
                g.display(),
                brat.display(),
                r.2,
                results[0].2
            );
        }
        let (status, found, out) = &results[0];
        let codes: Vec<(&str, &str)> = found.iter().map(|f| (f.0.as_str(), f.1.as_str())).collect();
        match *name {
            "good" => assert_eq!((*status, codes), (0, vec![]), "{out}"),
            "bunder" => {
                assert_eq!(
                    (*status, codes),
                    (1, vec![("tag-syntax", "warning")]),
                    "{out}"
                );
                assert!(out.contains("B_PER"), "{out}");
            }
            "unknown" => {
                assert_eq!(
                    (*status, codes),
                    (1, vec![("unknown-label", "warning")]),
                    "{out}"
                );
                assert!(
                    out.contains("PLACE") && out.contains("LOC, MISC, ORG, PER"),
                    "{out}"
                );
            }
            _ => {
                assert_eq!(
                    (*status, codes),
                    (1, vec![("missing-tokens", "error")]),
                    "{out}"
                );
                // Reported at the run's line where the token is missing.
                assert_eq!(found[0].2 as usize, drop + 1, "{out}");
            }
        }
        // A blind gold (texts only): the run's own problems are still found; labels only with
        // a label list, and a note says so without one.
        let labels = dir.join("labels.txt");
        std::fs::write(&labels, "PER\nLOC\nORG\nMISC\n").unwrap();
        let (status, found, out) = check(&blind, &run, &[]);
        assert!(
            found.contains(&("masked-gold".into(), "note".into(), 0))
                && out.contains("labels were not checked"),
            "{out}"
        );
        let (with_list, found_list, out_list) = check(&blind, &run, &["--labels", &s(&labels)]);
        let (with_tagset, found_tagset, _) = check(&blind, &run, &["--tagset", &s(&labels)]);
        assert_eq!((with_list, &found_list), (with_tagset, &found_tagset));
        let unknown_label = |f: &[Found]| f.iter().any(|x| x.0 == "unknown-label");
        match *name {
            "unknown" => {
                assert_eq!(
                    status, 0,
                    "without a label list the label is not checked: {out}"
                );
                assert!(!unknown_label(&found));
                assert!(with_list == 1 && unknown_label(&found_list), "{out_list}");
                assert!(out_list.contains("not in the label list"), "{out_list}");
            }
            "good" => assert_eq!((status, with_list), (0, 0), "{out}{out_list}"),
            "bunder" => assert!(
                status == 1 && found.iter().any(|x| x.0 == "tag-syntax"),
                "{out}"
            ),
            _ => assert!(
                status == 1 && found.iter().any(|x| x.0 == "missing-tokens"),
                "{out}"
            ),
        }
    }

    // The label list is checked against an annotated gold too when given.
    let strict = dir.join("strict.txt");
    std::fs::write(&strict, "PER\nLOC\nORG\n").unwrap();
    for g in golds {
        let (status, found, out) = check(g, &dir.join("good.conll"), &["--labels", &s(&strict)]);
        assert_eq!(status, 1, "{out}");
        assert_eq!(
            found.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
            vec!["unknown-label"],
            "{out}"
        );
        assert!(
            out.contains("\\\"MISC\\\" is not in the label list"),
            "{out}"
        );
    }
}

#[test]
fn a_label_list_is_one_flag_and_refuses_bad_lists_naming_file_and_line() {
    let dir = temp_dir("check_any_gold_lists");
    let gold = dir.join("gold.conll");
    std::fs::write(&gold, "EU\tB-ORG\nrejects\tO\n\nPeter\tB-PER\n").unwrap();
    let run = dir.join("run.conll");
    std::fs::write(&run, "EU\tB-ORG\nrejects\tO\n\nPeter\tB-PERS\n").unwrap();
    let list = dir.join("labels.txt");
    std::fs::write(&list, "ORG\nPER\nORG\n").unwrap();
    let (g, r, l) = (
        gold.display().to_string(),
        run.display().to_string(),
        list.display().to_string(),
    );
    let o = fairscore(&["check", "--gold", &g, "--pred", &r, "--labels", &l]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("labels.txt:3") && err.contains("given twice"),
        "{err}"
    );
    let o = fairscore(&[
        "check", "--gold", &g, "--pred", &r, "--labels", &l, "--tagset", &l,
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Without a label list, a CoNLL gold is detected (no --format) and its labels checked.
    let o = fairscore(&["check", "--gold", &g, "--pred", &r]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("run.conll:4") && out.contains("\"PERS\" is not a gold label"),
        "{out}"
    );
    assert!(out.contains("did you mean PER?"), "{out}");
}
