//! What `score` tells a participant (issue 12, items 8–10): a warning for every run label the
//! gold and tag set do not know (with its count and the closest known label) while the
//! official outputs stay as they were; a hint to add `--hipe_edition` when the run's name
//! fits the other edition; a summary table with `--summary`, nothing on a redirected stdout.

use crate::common::*;
use std::path::Path;

const GOLD: &str = "tests/bad_inputs/gold.tsv";
const RUN: &str = "tests/bad_inputs/good_bundle1_newseye_fr_1.tsv";

fn manifest(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(p)
        .to_string_lossy()
        .into_owned()
}

/// Scores `run` (nerc_coarse, hipe-2022) into `dir`; returns (status, stdout, stderr, JSON).
fn score(dir: &Path, run: &str, extra: &[&str]) -> (i32, String, String, String) {
    std::fs::create_dir_all(dir).unwrap();
    let gold = manifest(GOLD);
    let mut args = vec![
        "score",
        "--ref",
        &gold,
        "--pred",
        run,
        "-t",
        "nerc_coarse",
        "-e",
        "hipe-2022",
        "--skip-check",
        "-o",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = fairscore(&args);
    let stem = Path::new(run).file_stem().unwrap().to_string_lossy();
    let json =
        std::fs::read_to_string(dir.join(format!("{stem}_nerc_coarse.json"))).unwrap_or_default();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        json,
    )
}

#[test]
fn unknown_run_labels_are_named_with_a_suggestion_and_scores_stay_official() {
    let dir = temp_dir("score_guidance_labels");
    let text = std::fs::read_to_string(manifest(RUN)).unwrap();
    assert!(
        text.contains("B-pers") || text.contains("B-PERS"),
        "fixture has a PERS entity"
    );
    // Rename every PERS to PRS; and, as the reference, drop those entities altogether.
    let renamed = text
        .replace("B-pers", "B-prs")
        .replace("I-pers", "I-prs")
        .replace("B-PERS", "B-PRS")
        .replace("I-PERS", "I-PRS");
    let mut dropped = String::new();
    for line in text.split_inclusive('\n') {
        let mut cells: Vec<&str> = line.trim_end_matches('\n').split('\t').collect();
        if cells.len() > 1 && cells[1].to_uppercase().ends_with("-PERS") {
            cells[1] = "O";
        }
        dropped.push_str(&cells.join("\t"));
        if line.ends_with('\n') {
            dropped.push('\n');
        }
    }
    let n_pers = text
        .lines()
        .filter(|l| {
            l.split('\t')
                .nth(1)
                .is_some_and(|c| c.to_uppercase() == "B-PERS")
        })
        .count();
    assert!(n_pers > 0);
    let renamed_path = write_file(&dir, "renamed.tsv", &renamed);
    let dropped_path = write_file(&dir, "dropped.tsv", &dropped);

    let (status, _, stderr, json_renamed) = score(&dir.join("a"), &renamed_path, &[]);
    assert_eq!(status, 0, "{stderr}");
    let plural = if n_pers == 1 { "entity" } else { "entities" };
    assert!(
        stderr.contains(&format!("run label \"PRS\" ({n_pers} {plural})")),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean PERS?"), "{stderr}");
    assert_eq!(
        stderr.matches("run label").count(),
        1,
        "one warning per label: {stderr}"
    );

    // The unknown entities are ignored, exactly as if they were not there.
    let (status, _, stderr, json_dropped) = score(&dir.join("b"), &dropped_path, &[]);
    assert_eq!(status, 0, "{stderr}");
    assert!(!stderr.contains("run label"), "{stderr}");
    assert!(!json_renamed.is_empty());
    assert_eq!(json_renamed, json_dropped);

    // A label far from every known one gets no suggestion.
    let far = text.replace("-pers", "-zzzzzz").replace("-PERS", "-ZZZZZZ");
    let far_path = write_file(&dir, "far.tsv", &far);
    let (_, _, stderr, _) = score(&dir.join("c"), &far_path, &[]);
    assert!(stderr.contains("run label \"ZZZZZZ\""), "{stderr}");
    assert!(!stderr.contains("did you mean"), "{stderr}");
}

#[test]
fn a_name_of_the_other_edition_gets_an_edition_hint() {
    let dir = temp_dir("score_guidance_edition");
    let gold = manifest(GOLD);
    let run = manifest(RUN);
    let o = fairscore(&[
        "score",
        "--ref",
        &gold,
        "--pred",
        &run,
        "-t",
        "nerc_coarse",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("add --hipe_edition hipe-2022"), "{stderr}");
    assert!(!stderr.contains("--skip-check"), "{stderr}");
    // A name that fits neither edition keeps the rename-or-skip advice.
    let other = write_file(
        &dir,
        "whatever.tsv",
        &std::fs::read_to_string(&run).unwrap(),
    );
    let o = fairscore(&[
        "score",
        "--ref",
        &gold,
        "--pred",
        &other,
        "-t",
        "nerc_coarse",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("rename the file or pass --skip-check"),
        "{stderr}"
    );
    assert!(!stderr.contains("--hipe_edition"), "{stderr}");
}

#[test]
fn summary_on_request_silence_when_redirected() {
    let dir = temp_dir("score_guidance_summary");
    let run = manifest(RUN);
    let (status, stdout, stderr, json) = score(&dir.join("quiet"), &run, &[]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(stdout, "", "batch use stays silent");
    let (status, stdout, _, _) = score(&dir.join("summary"), &run, &["--summary"]);
    assert_eq!(status, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("nerc_coarse"), "{stdout}");
    assert!(
        lines[1].starts_with("column") && lines[1].contains("F1"),
        "{stdout}"
    );
    // The strict row carries the JSON's micro numbers, rounded to 3 places.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let strict = &v["NE-COARSE-LIT"]["TIME-ALL"]["LED-ALL"]["ALL"]["strict"];
    let f1 = format!("{:.3}", strict["F1_micro"].as_f64().unwrap());
    let tp = strict["TP"].as_u64().unwrap().to_string();
    let row = lines
        .iter()
        .find(|l| l.starts_with("NE-COARSE-LIT") && l.contains("strict"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[4], f1, "{row}");
    assert_eq!(cells[5], tp, "{row}");
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("fuzzy")),
        "{stdout}"
    );
    assert!(stdout.contains("wrote "), "{stdout}");
}

#[test]
fn files_written_for_the_other_edition_are_named_even_with_skip_check() {
    let dir = temp_dir("score_guidance_edition_comments");
    let gold = manifest(GOLD);
    let run = manifest(RUN);
    let base = [
        "score",
        "--ref",
        &gold,
        "--pred",
        &run,
        "-t",
        "nerc_coarse",
        "--skip-check",
        "-o",
    ];
    let mut args = base.to_vec();
    args.push(dir.to_str().unwrap());
    let o = fairscore(&args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("looks like a hipe-2022 file")
            && stderr.contains("add --hipe_edition hipe-2022"),
        "{stderr}"
    );
    args.extend(["-e", "hipe-2022"]);
    let o = fairscore(&args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("looks like"), "{stderr}");
    // A HIPE-2020 style file scored as hipe-2022 gets the hint the other way round.
    let old_style = std::fs::read_to_string(&run)
        .unwrap()
        .replace("# hipe2022:document_id", "# document_id")
        .replace("# hipe2022:date", "# date");
    let old_gold = std::fs::read_to_string(&gold)
        .unwrap()
        .replace("# hipe2022:", "# ");
    let p = write_file(&dir, "old_bundle1_fr_1.tsv", &old_style);
    let g = write_file(&dir, "old_gold.tsv", &old_gold);
    let o = fairscore(&[
        "score",
        "--ref",
        &g,
        "--pred",
        &p,
        "-t",
        "nerc_coarse",
        "--skip-check",
        "-e",
        "hipe-2022",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("add --hipe_edition hipe-2020"), "{stderr}");
}
