//! Every command that writes to stdout ends quietly with status 0 when stdout is a pipe whose
//! reader is gone (`fairscore … | head`, `| true`), as ripgrep does: no panic, no error line.

mod common;

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

#[test]
fn every_command_exits_0_on_a_closed_stdout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = |rel: &str| root.join(rel).display().to_string();
    let out = common::temp_dir("closed_pipe");
    let outdir = out.display().to_string();
    let gold = p("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = p("reference_runs/demo_bundle4_newseye_en_1.tsv");
    let seg_g = p("tests/fixtures/segmentation/table1-gold.txt");
    let seg_p = p("tests/fixtures/segmentation/table1-S1.txt");
    let tag_g = p("tests/fixtures/tagging/multi-gold.tsv");
    let tag_p = p("tests/fixtures/tagging/multi-pred.tsv");
    let fair_t = p("tests/fixtures/fair/target.conll");
    let fair_s = p("tests/fixtures/fair/system.conll");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "score",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--task",
            "nerc_coarse",
            "--hipe_edition",
            "hipe-2022",
            "--outdir",
            &outdir,
            "--summary",
        ],
        vec![
            "score",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--task",
            "nerc_coarse",
            "--hipe_edition",
            "hipe-2022",
            "--outdir",
            &outdir,
            "--json",
        ],
        vec![
            "compare",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--pred",
            &run,
            "--hipe_edition",
            "hipe-2022",
            "--bootstrap",
            "50",
        ],
        vec![
            "check",
            "--gold",
            &gold,
            "--pred",
            &run,
            "--hipe_edition",
            "hipe-2022",
        ],
        vec!["fair", "--gold", &fair_t, "--pred", &fair_s],
        vec!["segmentation", "--gold", &seg_g, "--pred", &seg_p],
        vec!["tagging", "--gold", &tag_g, "--pred", &tag_p],
        vec!["muc", "--gold", &gold, "--pred", &run],
        vec![
            "evaluate",
            "--family",
            "segmentation",
            "--gold",
            &seg_g,
            "--pred",
            &seg_p,
            "--table",
            "html",
        ],
        vec!["score", "--help"],
    ];
    for args in cases {
        let (code, err) = run_into_closed_pipe(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{args:?}: {err}"
        );
    }
}
