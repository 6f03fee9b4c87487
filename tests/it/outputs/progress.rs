//! Progress of long commands (issue 12, item 14): drawn with indicatif when stderr is a
//! terminal, silent otherwise. The terminal case runs the binary under `script(1)`, which gives
//! it a pseudo-terminal; the data is the HIPE-2022 campaign in ../shared.

use crate::common::*;
use std::process::Command;

fn leaderboard_args(data: &std::path::Path, out: &std::path::Path) -> Vec<String> {
    let d = data.join("hipe2022");
    vec![
        "leaderboard".into(),
        "--gold-dir".into(),
        d.join("gold").to_string_lossy().into_owned(),
        "--runs-dir".into(),
        d.join("submissions").to_string_lossy().into_owned(),
        "--resources".into(),
        d.join("resources").to_string_lossy().into_owned(),
        "--outdir".into(),
        out.to_string_lossy().into_owned(),
    ]
}

#[test]
fn leaderboard_progress_only_on_a_terminal() {
    let Some(data) = shared_data("leaderboard_progress_only_on_a_terminal") else {
        return;
    };
    let args = leaderboard_args(&data, &temp_dir("progress_pipe"));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = fairscore(&argv);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        !stderr.contains('\r') && !stderr.contains('\x1b'),
        "{stderr:?}"
    );
    assert!(!stderr.contains("scoring ["), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "only the closing line: {stderr}");

    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("leaderboard_progress_only_on_a_terminal: terminal part skipped: no script(1)");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_fairscore");
    let tty_args = leaderboard_args(&data, &temp_dir("progress_tty"));
    let cmd = std::iter::once(bin.to_string())
        .chain(tty_args)
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ");
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script runs");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("scoring ["), "no bar on a terminal: {text}");
    assert!(
        text.contains("/68"),
        "the bar counts the campaign's 68 jobs: {text}"
    );
    assert!(text.contains("ETA"), "{text}");
    assert!(text.contains("41 runs scored"), "{text}");
    // With --quiet the terminal stays clean too.
    let quiet = format!("{cmd} --quiet");
    let o = Command::new("script")
        .args(["-qec", &quiet, "/dev/null"])
        .output()
        .expect("script runs");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("scoring ["), "{text}");
}
