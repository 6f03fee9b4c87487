//! Issue 47.3: `leaderboard --replay` validates every number of the per-run files it is
//! given. Before, a copy of HIPE-2022's official ajmc-en outputs with a TP of −3, an FP of
//! 1e300 or an F1 of 7.5 was replayed as it stood: the run ranked first on that F1 in the
//! published ranking files. Now each such run fails with an input error naming the file, the
//! line and the column, and the other runs are reported as before.

use crate::common::fairscore;
use std::path::Path;

/// Replaces, in the per-run table `path`, cell `col` (0-based) of the micro strict PERS row
/// by `value`; returns the row's line (1-based).
fn corrupt(path: &Path, col: usize, value: &str) -> usize {
    let text = std::fs::read_to_string(path).expect("read");
    let mut lines: Vec<String> = text.split("\r\n").map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            c.len() > 2 && c[1] == "NE-COARSE-LIT-micro-strict-TIME-ALL-LED-ALL" && c[2] == "PERS"
        })
        .expect("the PERS row");
    let mut cells: Vec<&str> = lines[at].split('\t').collect();
    cells[col] = value;
    lines[at] = cells.join("\t");
    std::fs::write(path, lines.join("\r\n")).expect("write");
    at + 1
}

#[test]
fn replayed_counts_and_ratios_out_of_range_fail_their_run_naming_file_and_line() {
    let Some(data) = crate::common::shared_data("replay_values") else {
        return;
    };
    let h = data.join("hipe2022");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-values");
    let _ = std::fs::remove_dir_all(&root);
    let (runs, given, out) = (root.join("runs"), root.join("given"), root.join("out"));
    for d in [&runs, &given] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let copy = |from: &Path, to: &Path| {
        for e in std::fs::read_dir(from).expect("dir").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains("_ajmc_en_") {
                std::fs::copy(e.path(), to.join(&name)).expect("copy");
            }
        }
    };
    copy(&h.join("submissions"), &runs);
    copy(&h.join("official"), &given);
    let bad = [
        (
            "team1_bundle4_ajmc_en_1",
            5,
            "7.5",
            "column 6 (F1): \"7.5\" is not a ratio",
        ),
        (
            "team1_bundle4_ajmc_en_2",
            9,
            "-3",
            "column 10 (TP): \"-3\" is not a whole count",
        ),
        (
            "team2_bundle1_ajmc_en_2",
            10,
            "1e300",
            "column 11 (FP): \"1e300\" is not",
        ),
    ];
    let mut expected = Vec::new();
    for (run, col, value, what) in bad {
        let file = given.join(format!("{run}_nerc_coarse.tsv"));
        let line = corrupt(&file, col, value);
        expected.push(format!("{}:{line}: {what}", file.display()));
    }
    let s = |p: &Path| p.display().to_string();
    let o = fairscore(&[
        "leaderboard",
        "--preset",
        "hipe-2022",
        "--gold-dir",
        &s(&h.join("gold")),
        "--runs-dir",
        &s(&runs),
        "--resources",
        &s(&h.join("resources")),
        "--outdir",
        &s(&out),
        "--quiet",
        "--replay",
        &s(&given),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "some runs failed: {err}");
    for e in &expected {
        assert!(err.contains(e), "{e}\nin\n{err}");
    }
    assert!(err.contains("3 failed"), "{err}");
    // The rankings hold the other runs and none of the refused ones.
    let ranking =
        std::fs::read_to_string(out.join("rankings/ranking-ajmc-en-coarse-micro-strict-all.tsv"))
            .expect("ranking");
    assert!(ranking.contains("neurbsl_bundle3_ajmc_en_1"), "{ranking}");
    for (run, ..) in bad {
        assert!(!ranking.contains(run), "{run} ranked:\n{ranking}");
    }
    let _ = std::fs::remove_dir_all(root);
}
