//! Parity of `fairscore score` with the official HIPE scorer on real data (../shared):
//! every HIPE-2022 `*_nerc_coarse.*` / `*_nerc_fine.*` file and every NERC case of the
//! HIPE-2020 synthetic runs' commands.txt.

use crate::common::*;

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
    let mut parity = Parity::default();
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
        parity.record("", run_case(&args, &data, &out, &d.join("official")));
    }
    parity.finish("hipe2022 NERC");
    assert_eq!(parity.files, 88, "expected 88 official NERC files");
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
    let mut parity = Parity::default();
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
        parity.record(kind, run_case(&args, &base, &out, &base.join("official")));
    }
    parity.finish("hipe2020-synth NERC");
}
