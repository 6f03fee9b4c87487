//! `check --format conll|conllu|tsv|text`: each defect of a column-file run is found at the
//! right line of both files, with one summary line and exit status 1 (0 for a clean run).

use crate::common::{fairscore, temp_dir};
use std::path::Path;

fn check(dir: &Path, format: &str, gold: &str, run: &str, extra: &[&str]) -> (i32, String) {
    let ext = match format {
        "text" => "txt",
        f => f,
    };
    let (g, r) = (
        dir.join(format!("gold.{ext}")),
        dir.join(format!("team_1.{ext}")),
    );
    std::fs::write(&g, gold).unwrap();
    std::fs::write(&r, run).unwrap();
    let (g, r) = (g.display().to_string(), r.display().to_string());
    let mut args = vec!["check", "--format", format, "--gold", &g, "--pred", &r];
    args.extend_from_slice(extra);
    let o = fairscore(&args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

const GOLD: &str = "-DOCSTART- O\n\nParis B-LOC\nis O\nnice O\n\nAnna B-PER\nsings O\n";

#[test]
fn a_clean_conll_run_passes_with_one_summary_line() {
    let dir = temp_dir("check_formats_clean");
    let (code, out) = check(&dir, "conll", GOLD, GOLD, &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains("0 errors, 0 warnings, 0 notes (format: conll)"),
        "{out}"
    );
}

#[test]
fn conll_defects_are_found_at_their_lines() {
    let dir = temp_dir("check_formats_conll");
    // A token that differs (run line 4, gold line 4).
    let run = GOLD.replace("is O", "was O");
    let (code, out) = check(&dir, "conll", GOLD, &run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.conll:4") && out.contains("\"was\"") && out.contains("gold.conll:4"),
        "{out}"
    );
    // A sentence break the gold does not have (before "nice", run line 5).
    let run = GOLD.replace("is O\nnice O", "is O\n\nnice O");
    let (code, out) = check(&dir, "conll", GOLD, &run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("warning: ")
            && out.contains("team_1.conll:6")
            && out.contains("run starts a sentence"),
        "{out}"
    );
    // Such a run is scored, read with the gold's breaks, with one warning naming the place.
    let (g, r) = (
        dir.join("gold.conll").display().to_string(),
        dir.join("team_1.conll").display().to_string(),
    );
    let o = fairscore(&[
        "evaluate", "--family", "spans", "--gold", &g, "--pred", &r, "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("sentence breaks differ") && err.contains("read with the gold's breaks"),
        "{err}"
    );
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["tables"][0]["rows"][0]["scores"]["F1"], 1.0);
    let out_dir = dir.join("score").display().to_string();
    let o = fairscore(&[
        "score",
        "--format",
        "conll",
        "--gold",
        &g,
        "--pred",
        &r,
        "--task",
        "nerc_coarse",
        "--outdir",
        &out_dir,
        "--skip-check",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("team_1.conll:6") && err.contains("gold line 5"),
        "{err}"
    );
    // Missing lines: the run stops after "Anna".
    let run = GOLD.replace("sings O\n", "");
    let (_, out) = check(&dir, "conll", GOLD, &run, &[]);
    assert!(
        out.contains("team_1.conll:7") && out.contains("gold.conll:8") && out.contains("\"sings\""),
        "{out}"
    );
    // Extra lines.
    let run = format!("{GOLD}again O\n");
    let (_, out) = check(&dir, "conll", GOLD, &run, &[]);
    assert!(
        out.contains("team_1.conll:9") && out.contains("1 more than the gold's 5"),
        "{out}"
    );
    // A tag outside the scheme and a misspelled label, with the closest gold label.
    let run = GOLD
        .replace("Paris B-LOC", "Paris LOC")
        .replace("Anna B-PER", "Anna B-PR");
    let (code, out) = check(&dir, "conll", GOLD, &run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.conll:3") && out.contains("tag \"LOC\" is not O or B-/I-/E-/S-TYPE"),
        "{out}"
    );
    assert!(
        out.contains("team_1.conll:7")
            && out.contains("label \"PR\" is not a gold label")
            && out.contains("did you mean PER?"),
        "{out}"
    );
}

#[test]
fn tagging_and_segmentation_defects_are_found() {
    let dir = temp_dir("check_formats_tags");
    let gold = "Ala\tsubst:sg:nom:f\nma\tfin:sg:ter:imperf\n\nkota\tsubst:sg:acc:m2\n";
    let run = "Ala\tsubst:sg:nom:f\nma\tfin:sg:ter:imperf\n\nkota\tsubst:sg:zzz:m2\n";
    let (code, out) = check(&dir, "tsv", gold, run, &["--tagset", "nkjp"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.tsv:4") && out.contains("value \"zzz\"") && out.contains("hint:"),
        "{out}"
    );
    // A part of speech the tag set does not list, with the closest one.
    let run2 = run.replace("subst:sg:zzz:m2", "subts:sg:acc:m2");
    let (code, out) = check(&dir, "tsv", gold, &run2, &["--tagset", "nkjp"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.tsv:4: part of speech \"subts\"")
            && out.contains("closest part of speech of the tag set is subst"),
        "{out}"
    );
    // Without a tag set: a tag the gold never uses.
    let (_, out) = check(&dir, "tsv", gold, run, &[]);
    assert!(
        out.contains("never occurs in the gold") && out.contains("subst:sg:acc:m2"),
        "{out}"
    );
    // Text: a sentence whose characters differ, and a missing line.
    let gold = "约翰 喜欢 玛丽\nJohn likes Mary\nab cd\n";
    let (code, out) = check(&dir, "text", gold, "约翰 喜欢玛丽\nJohn likes Marie\n", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.txt:2") && out.contains("gold.txt:2") && out.contains("sentence 2"),
        "{out}"
    );
    assert!(
        out.contains("the run ends after 2 sentences") && out.contains("gold.txt:3"),
        "{out}"
    );
    // Text: a line missing and a line added in the middle, found at the line where the files
    // part (and nothing reported for the lines after, which agree again).
    let gold = "一 二\n三 四\n五 六\n七 八\n九 十\n";
    let (code, out) = check(&dir, "text", gold, "一二\n五 六\n七 八\n九 十\n", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.txt:2: the gold's sentence 2 (")
            && out.contains("gold.txt:2, \"三 四\") is missing from the run before this line"),
        "{out}"
    );
    assert!(out.contains("1 error,"), "{out}");
    let (code, out) = check(
        &dir,
        "text",
        gold,
        "一二\n三 四\n多\n五 六\n七 八\n九 十\n",
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.txt:3: the run's sentence 3 (\"多\") is not in the gold")
            && out.contains("1 error,"),
        "{out}"
    );
    // CoNLL: two tokens dropped in the middle of a sentence.
    let gold = "a O\nb B-PER\nc O\nd O\ne O\nf O\ng O\nh O\n\ni O\nj O\n";
    let run = "a O\nb B-PER\ne O\nf O\ng O\nh O\n\ni O\nj O\n";
    let (code, out) = check(&dir, "conll", gold, run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.conll:3: the gold's token 3 (")
            && out.contains("gold.conll:3, \"c\") and the 1 after it are missing"),
        "{out}"
    );
    // A token that differs near the end is one difference, not a gap and an extra token.
    let gold = "a O\nb O\nc O\nd O\ne O\nf O\ng O\n. O\n";
    let run = "a O\nb O\nc O\nd O\ne O\nf O\n. O\n. O\n";
    let (code, out) = check(&dir, "conll", gold, run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.conll:7: token 7 of the run is \".\"") && out.contains("1 error,"),
        "{out}"
    );
    // CoNLL-U: a token that differs.
    let conllu =
        "# text = a b\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n2\tb\tb\tY\tY\t_\t1\tdep\t_\t_\n\n";
    let run = conllu.replace("2\tb\tb", "2\tc\tc");
    let (code, out) = check(&dir, "conllu", conllu, &run, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("team_1.conllu:3") && out.contains("\"c\""),
        "{out}"
    );
    // Options of HIPE runs are refused for column files.
    let (code, out) = check(&dir, "conll", GOLD, GOLD, &["--task", "nel"]);
    assert_eq!(code, 2, "{out}");
}
