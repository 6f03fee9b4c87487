//! Parity of `fairscore score` with the official HIPE scorer on real data (../shared):
//! every HIPE-2022 `*_nerc_coarse.*` / `*_nerc_fine.*` file and every NERC case of the
//! HIPE-2020 synthetic runs' commands.txt.

mod common;
use common::*;
use std::path::Path;

/// Runs one official command line (arguments after `score`) into `out` and compares every
/// file it writes with `official_dir`. Returns (files compared, byte-identical).
fn run_case(
    args: &[String],
    cwd_data: &Path,
    out: &Path,
    official_dir: &Path,
) -> Result<(usize, usize), String> {
    let mut full: Vec<String> = vec!["score".into()];
    full.extend(args.iter().cloned());
    full.push("--outdir".into());
    full.push(out.to_string_lossy().into_owned());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .current_dir(cwd_data)
        .args(&full)
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "{full:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut n = 0;
    let mut same = 0;
    let mut entries: Vec<_> = std::fs::read_dir(out)
        .map_err(|e| e.to_string())?
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let official = official_dir.join(e.file_name());
        n += 1;
        if compare_file(&e.path(), &official)? {
            same += 1;
        }
        let _ = std::fs::remove_file(e.path());
    }
    if n == 0 {
        return Err(format!("{full:?} wrote nothing"));
    }
    Ok((n, same))
}

#[test]
fn hipe2022_official_nerc_outputs_are_reproduced() {
    let Some(data) = shared_data("hipe2022_official_nerc_outputs_are_reproduced") else {
        return;
    };
    let d = data.join("hipe2022");
    let out = temp_dir("parity2022nerc");
    let mut official: Vec<String> = std::fs::read_dir(d.join("official"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("_nerc_coarse.tsv") || n.ends_with("_nerc_fine.tsv"))
        .collect();
    official.sort();
    let mut failures = Vec::new();
    let (mut files, mut identical) = (0, 0);
    for name in &official {
        let (run, task) = if let Some(r) = name.strip_suffix("_nerc_coarse.tsv") {
            (r, "nerc_coarse")
        } else {
            (name.strip_suffix("_nerc_fine.tsv").unwrap(), "nerc_fine")
        };
        let parts: Vec<&str> = run.split('_').collect();
        let gold = format!(
            "hipe2022/gold/HIPE-2022-v2.1-{}-test-{}.tsv",
            parts[2], parts[3]
        );
        let args: Vec<String> = [
            "--ref",
            &gold,
            "--pred",
            &format!("hipe2022/submissions/{run}.tsv"),
            "--task",
            task,
            "--tagset",
            "hipe2022/resources/tagset-hipe2022-all.txt",
            "--hipe_edition",
            "hipe-2022",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        match run_case(&args, &data, &out, &d.join("official")) {
            Ok((n, s)) => {
                files += n;
                identical += s;
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "hipe2022 NERC parity: {files} files compared, {identical} byte-identical, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(files, 88, "expected 88 official NERC files");
}

/// The commands of hipe2020-synth/commands.txt whose names are in `kinds`.
pub fn synth_commands(data: &Path, kinds: &[&str]) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(data.join("hipe2020-synth/commands.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (kind, cmd) = l.split_once(": ")?;
            if !kinds.contains(&kind) {
                return None;
            }
            let mut words: Vec<String> = cmd.split_whitespace().map(|s| s.to_string()).collect();
            if words.first().map(|w| w.as_str()) != Some("score") {
                return None;
            }
            words.remove(0);
            Some((kind.to_string(), words))
        })
        .collect()
}

#[test]
fn hipe2020_synth_nerc_cases_are_reproduced() {
    let Some(data) = shared_data("hipe2020_synth_nerc_cases_are_reproduced") else {
        return;
    };
    let base = data.join("hipe2020-synth");
    let out = temp_dir("parity2020nerc");
    let cases = synth_commands(
        &data,
        &["nerc_coarse", "nerc_fine", "breakdown", "skipcheck"],
    );
    assert_eq!(cases.len(), 16, "4 runs × 4 NERC cases");
    let mut failures = Vec::new();
    let (mut files, mut identical) = (0, 0);
    for (kind, args) in &cases {
        // Paths in commands.txt are relative to hipe2020-synth, the tagset to resources.
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if a == "tagset.txt" {
                    "../hipe2022/resources/tagset.txt".to_string()
                } else {
                    a.clone()
                }
            })
            .collect();
        match run_case(&args, &base, &out, &base.join("official")) {
            Ok((n, s)) => {
                files += n;
                identical += s;
            }
            Err(e) => failures.push(format!("{kind}: {e}")),
        }
    }
    println!("hipe2020-synth NERC parity: {files} files compared, {identical} byte-identical, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
