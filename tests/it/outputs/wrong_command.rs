//! Issue 34: a command given input it does not read names the command that reads it (a
//! `hint:` line after the error), one case per command; and a command given what it reads
//! gets no such hint, even when the input is otherwise wrong.

use crate::common::{fairscore, temp_dir, write_file};

/// Small inputs of every kind, in one folder.
struct Inputs {
    conll: String,
    conll2: String,
    text: String,
    text2: String,
    conllu: String,
    tags: String,
    brat_dir: String,
    project: String,
}

fn inputs(name: &str) -> Inputs {
    let dir = temp_dir(name);
    let conll = write_file(&dir, "gold.conll", "Anna B-PER\nreads O\n\nParis B-LOC\n");
    let conll2 = write_file(&dir, "run.conll", "Anna B-PER\nreads O\n\nParis B-ORG\n");
    let text = write_file(&dir, "gold.txt", "约翰 喜欢 玛丽\n他 走 了\n");
    let text2 = write_file(&dir, "run.txt", "约翰 喜欢 玛 丽\n他 走 了\n");
    let conllu = write_file(
        &dir,
        "gold.conllu",
        "1\tAnna\tAnna\tPROPN\t_\t_\t0\troot\t_\t_\n2\treads\tread\tVERB\t_\t_\t1\tdep\t_\t_\n\n",
    );
    let tags = write_file(&dir, "gold.tsv", "Anna\tNOUN\nreads\tVERB\n");
    let brat = dir.join("brat");
    for a in ["ann1", "ann2"] {
        let d = brat.join(a);
        std::fs::create_dir_all(&d).unwrap();
        write_file(&d, "doc.txt", "Anna reads");
        write_file(&d, "doc.ann", "T1\tPER 0 4\tAnna\n");
    }
    Inputs {
        conll,
        conll2,
        text,
        text2,
        conllu,
        tags,
        brat_dir: brat.join("ann1").to_string_lossy().into_owned(),
        project: brat.to_string_lossy().into_owned(),
    }
}

/// Runs `args`; asserts it fails with a hint naming `want` (and the offending file).
fn hints(args: &[&str], file: &str, want: &str) {
    let out = fairscore(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{args:?} should fail: {err}");
    let hint = err
        .lines()
        .find(|l| l.trim_start().starts_with("hint:") && l.contains("looks like"))
        .unwrap_or_else(|| panic!("{args:?}: no hint naming a command in {err}"));
    assert!(
        hint.contains(want),
        "{args:?}: the hint should name {want}: {hint}"
    );
    assert!(
        hint.contains(file),
        "{args:?}: the hint should name {file}: {hint}"
    );
}

/// Runs `args`; asserts no redirecting hint is printed (success or another error).
fn no_hint(args: &[&str]) {
    let out = fairscore(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("looks like"),
        "{args:?}: unexpected hint: {err}"
    );
}

#[test]
fn score_given_conll_or_brat_names_evaluate() {
    let i = inputs("wrong_score");
    let args = [
        "score",
        "--gold",
        &i.conll,
        "--pred",
        &i.conll2,
        "--task",
        "nerc_coarse",
    ];
    // The error names the run (its file name): the hint is about the run (issue 46.8).
    hints(&args, &i.conll2, "evaluate --family spans");
    hints(
        &["score", "--gold", &i.brat_dir, "--pred", &i.brat_dir],
        &i.brat_dir,
        "--format brat",
    );
    // Told how to read: `score --format conll` takes CoNLL (its outputs in a folder of
    // the test's, not in the working directory).
    let out = temp_dir("wrong_score_out");
    no_hint(&[
        "score",
        "--outdir",
        out.to_str().unwrap(),
        "--gold",
        &i.conll,
        "--pred",
        &i.conll2,
        "--task",
        "nerc_coarse",
        "--format",
        "conll",
        "--skip-check",
    ]);
}

#[test]
fn check_given_plain_text_names_segmentation() {
    let i = inputs("wrong_check");
    hints(
        &["check", "--gold", &i.text, "--pred", &i.text2],
        &i.text2,
        "fairscore segmentation",
    );
}

#[test]
fn normalize_given_conll_names_evaluate() {
    let i = inputs("wrong_normalize");
    let out = format!("{}.out", i.conll);
    hints(
        &["normalize", "--in", &i.conll, "--out", &out],
        &i.conll,
        "evaluate --family spans",
    );
}

#[test]
fn fair_and_muc_given_text_name_segmentation() {
    let i = inputs("wrong_fair_muc");
    for cmd in ["fair", "muc"] {
        hints(
            &[cmd, "--gold", &i.text, "--pred", &i.text2],
            &i.text2,
            "fairscore segmentation",
        );
    }
    no_hint(&["fair", "--gold", &i.conll, "--pred", &i.conll2]);
}

#[test]
fn segmentation_given_conll_names_evaluate() {
    let i = inputs("wrong_segmentation");
    hints(
        &["segmentation", "--gold", &i.conll, "--pred", &i.conll2],
        &i.conll,
        "evaluate --family spans",
    );
    no_hint(&["segmentation", "--gold", &i.text, "--pred", &i.text2]);
}

#[test]
fn tagging_given_conll_names_evaluate() {
    let i = inputs("wrong_tagging");
    hints(
        &["tagging", "--gold", &i.conll, "--pred", &i.conll2],
        &i.conll,
        "evaluate --family spans",
    );
    no_hint(&["tagging", "--gold", &i.conllu, "--pred", &i.conllu]);
}

#[test]
fn evaluate_names_the_family_that_reads_the_input() {
    let i = inputs("wrong_evaluate");
    hints(
        &[
            "evaluate", "--family", "ner", "--gold", &i.tags, "--pred", &i.tags,
        ],
        &i.tags,
        "fairscore tagging",
    );
    hints(
        &[
            "evaluate",
            "--family",
            "segmentation",
            "--gold",
            &i.conll,
            "--pred",
            &i.conll2,
        ],
        &i.conll,
        "evaluate --family spans",
    );
    // `ner` is the spans family.
    let out = fairscore(&[
        "evaluate", "--family", "ner", "--gold", &i.conll, "--pred", &i.conll2, "--table", "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spans = fairscore(&[
        "evaluate", "--family", "spans", "--gold", &i.conll, "--pred", &i.conll2, "--table", "json",
    ]);
    assert_eq!(
        out.stdout, spans.stdout,
        "ner and spans give the same document"
    );
}

#[test]
fn compare_given_conll_names_its_family_flag() {
    let i = inputs("wrong_compare");
    hints(
        &[
            "compare", "--gold", &i.conll, "--pred", &i.conll2, "--pred", &i.conll,
        ],
        &i.conll,
        "compare --family spans",
    );
}

#[test]
fn leaderboard_given_brat_names_campaign() {
    let i = inputs("wrong_leaderboard");
    let out = format!("{}.out", i.project);
    hints(
        &[
            "leaderboard",
            "--gold-dir",
            &i.project,
            "--runs-dir",
            &i.project,
            "--outdir",
            &out,
        ],
        &i.project,
        "--campaign FILE",
    );
}

#[test]
fn agree_given_conll_names_evaluate() {
    let i = inputs("wrong_agree");
    hints(
        &["agree", "--annotator", &i.conll, "--annotator", &i.conll2],
        &i.conll,
        "evaluate --family spans",
    );
}

/// A FIFO given as input is never opened to guess its kind (it could block for ever): the
/// usage error comes at once, without a hint.
#[cfg(unix)]
#[test]
fn a_fifo_input_is_not_opened_for_a_hint() {
    let dir = temp_dir("wrong_fifo");
    let fifo = dir.join("gold.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let f = fifo.to_str().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(["score", "--gold", f, "--pred", f])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("score hung on a FIFO input");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46.8: a hint follows from the error, not from the gold's shape. A brat gold with
/// subfolders (the CoNLL-ST 2002 layout: `esp/`, `ned/`) reads fine; an error in the run
/// names the run, and no hint calls the gold a brat project; a hint, when there is one,
/// names the file the error names.
#[test]
fn a_hint_follows_from_the_error_not_from_the_golds_shape() {
    let dir = temp_dir("wrong_hint_from_error");
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    for side in [&gold, &run] {
        for lang in ["esp", "ned"] {
            let d = side.join(lang);
            std::fs::create_dir_all(&d).unwrap();
            write_file(&d, "doc.txt", "Anna reads");
            write_file(&d, "doc.ann", "T1\tPER 0 4\tAnna\n");
        }
    }
    // The run's offsets go beyond its text.
    write_file(&run.join("ned"), "doc.ann", "T1\tPER 0 44\tAnna\n");
    let (g, r) = (gold.to_str().unwrap(), run.to_str().unwrap());
    for args in [
        vec!["evaluate", "--family", "spans", "--gold", g, "--pred", r],
        vec!["fair", "--gold", g, "--pred", r],
        vec!["check", "--gold", g, "--pred", r],
    ] {
        let out = fairscore(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        let all = format!("{}{err}", String::from_utf8_lossy(&out.stdout));
        assert_ne!(out.status.code(), Some(0), "{args:?}: {all}");
        assert!(all.contains("beyond the end"), "{args:?}: {all}");
        assert!(
            !all.contains("looks like"),
            "{args:?}: a hint from the gold's shape: {all}"
        );
    }
    // A hint names the file the error is about: the run's, not the gold's.
    let i = inputs("wrong_hint_names_the_run");
    let out = fairscore(&[
        "score",
        "--gold",
        &i.conll,
        "--pred",
        &i.conll2,
        "--task",
        "nerc_coarse",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let hint = err.lines().find(|l| l.contains("looks like")).unwrap_or("");
    assert!(hint.contains(&i.conll2), "{err}");
}
