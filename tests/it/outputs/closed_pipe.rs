//! Every command that writes to stdout ends quietly with status 0 when stdout is a pipe whose
//! reader is gone (`fairscore … | head`, `| true`), as ripgrep does: no panic, no error line.

use std::path::Path;
use std::process::{Command, Stdio};

fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("run fairscore");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The arguments of each command's case (paths into the repository's fixtures).
fn case(name: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = |rel: &str| root.join(rel).display().to_string();
    let out = crate::common::temp_dir(&format!("closed_pipe_{name}"))
        .display()
        .to_string();
    let gold = p("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = p("reference_runs/demo_bundle4_newseye_en_1.tsv");
    let seg = (
        p("tests/fixtures/segmentation/table1-gold.txt"),
        p("tests/fixtures/segmentation/table1-S1.txt"),
    );
    let tag = (
        p("tests/fixtures/tagging/multi-gold.tsv"),
        p("tests/fixtures/tagging/multi-pred.tsv"),
    );
    let fair = (
        p("tests/fixtures/fair/target.conll"),
        p("tests/fixtures/fair/system.conll"),
    );
    let hipe = |cmd: &str| -> Vec<String> {
        [
            cmd,
            "--gold",
            &gold,
            "--pred",
            &run,
            "--hipe_edition",
            "hipe-2022",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let v = |xs: &[&str]| -> Vec<String> { xs.iter().map(|s| s.to_string()).collect() };
    match name {
        "score" => [
            hipe("score"),
            v(&["--task", "nerc_coarse", "--outdir", &out, "--summary"]),
        ]
        .concat(),
        "score_json" => [
            hipe("score"),
            v(&["--task", "nerc_coarse", "--outdir", &out, "--json"]),
        ]
        .concat(),
        "compare" => [hipe("compare"), v(&["--pred", &run, "--bootstrap", "50"])].concat(),
        "check" => hipe("check"),
        // muc has no edition option: the column (NE-COARSE-LIT) says what it judges.
        "muc" => v(&["muc", "--gold", &gold, "--pred", &run]),
        "fair" => v(&["fair", "--gold", &fair.0, "--pred", &fair.1]),
        "segmentation" => v(&["segmentation", "--gold", &seg.0, "--pred", &seg.1]),
        "tagging" => v(&["tagging", "--gold", &tag.0, "--pred", &tag.1]),
        "evaluate" => v(&[
            "evaluate",
            "--family",
            "segmentation",
            "--gold",
            &seg.0,
            "--pred",
            &seg.1,
            "--table",
            "html",
        ]),
        "help" => v(&["score", "--help"]),
        _ => unreachable!(),
    }
}

fn quiet_exit(name: &str) {
    let args = case(name);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, err) = run_into_closed_pipe(&refs);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("error"),
        "{args:?}: {err}"
    );
}

macro_rules! closed_pipe_tests {
    ($($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                quiet_exit(stringify!($name));
            }
        )*
    };
}

closed_pipe_tests!(
    score,
    score_json,
    compare,
    check,
    muc,
    fair,
    segmentation,
    tagging,
    evaluate,
    help
);
