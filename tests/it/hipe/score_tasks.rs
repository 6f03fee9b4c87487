//! `score --task nerc_coarse,nerc_fine,nel`: several tasks in one process give, byte for
//! byte, the files one process per task gives (the bundled demo run and, when ../shared is
//! there, every HIPE-2022 run of one data set), and the task list is checked.

use crate::common::*;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `score` with `--task tasks` into a fresh directory; returns it (or the failure).
fn score(name: &str, gold: &Path, run: &Path, tasks: &str, extra: &[&str]) -> PathBuf {
    let out = temp_dir(name);
    let mut args = vec![
        "score",
        "--ref",
        gold.to_str().unwrap(),
        "--pred",
        run.to_str().unwrap(),
        "--task",
        tasks,
        "--hipe_edition",
        "hipe-2022",
        "--outdir",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let o = fairscore(&args);
    assert!(
        o.status.success(),
        "{tasks}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The files of a directory, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// One process for all three tasks against one per task: the same files, the same bytes.
fn same_as_one_per_task(name: &str, gold: &Path, run: &Path, extra: &[&str]) {
    let all = score(
        &format!("{name}-all"),
        gold,
        run,
        "nerc_coarse,nerc_fine,nel",
        extra,
    );
    let mut expected: Vec<(String, Vec<u8>)> = Vec::new();
    for task in ["nerc_coarse", "nerc_fine", "nel"] {
        let one = score(&format!("{name}-{task}"), gold, run, task, extra);
        expected.extend(files(&one));
    }
    expected.sort();
    let got = files(&all);
    assert_eq!(
        got.len(),
        6,
        "{name}: {:?}",
        got.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert_eq!(
        got.iter().map(|f| &f.0).collect::<Vec<_>>(),
        expected.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (g, e) in got.iter().zip(&expected) {
        assert!(g.1 == e.1, "{name}: {} differs", g.0);
    }
}

#[test]
fn three_tasks_in_one_process_equal_three_processes_on_the_demo_run() {
    let gold = root().join("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = root().join("reference_runs/demo_bundle4_newseye_en_1.tsv");
    same_as_one_per_task("tasks-demo", &gold, &run, &[]);
    same_as_one_per_task(
        "tasks-demo-opts",
        &gold,
        &run,
        &["--n_best", "1,3", "--suffix", "x"],
    );
}

#[test]
fn three_tasks_in_one_process_equal_three_processes_on_shared_runs() {
    let Some(data) = shared_data("three_tasks_in_one_process_equal_three_processes_on_shared_runs")
    else {
        return;
    };
    let data = data.join("hipe2022");
    let gold = data.join("gold/HIPE-2022-v2.1-newseye-test-de.tsv");
    let mut runs: Vec<PathBuf> = std::fs::read_dir(data.join("submissions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains("_newseye_de_"))
        })
        .collect();
    runs.sort();
    assert!(!runs.is_empty(), "no newseye-de run in {}", data.display());
    for (i, run) in runs.iter().enumerate() {
        same_as_one_per_task(&format!("tasks-shared-{i}"), &gold, run, &[]);
    }
}

#[test]
fn the_task_list_is_checked() {
    let gold = root().join("reference_runs/HIPE-2022-demo-test-en.tsv");
    let run = root().join("reference_runs/demo_bundle4_newseye_en_1.tsv");
    let out = temp_dir("tasks-bad");
    let base = |tasks: &'static str| {
        vec![
            "score".to_string(),
            "--ref".into(),
            gold.to_str().unwrap().into(),
            "--pred".into(),
            run.to_str().unwrap().into(),
            "--task".into(),
            tasks.into(),
            "--hipe_edition".into(),
            "hipe-2022".into(),
            "--outdir".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (base("nel,nerc_coarse,nel"), "given twice"),
        (base("nerc_coarse,ner"), "ner"),
        (
            [
                base("nerc_coarse,nerc_fine"),
                vec!["--errors".into(), "e.tsv".into()],
            ]
            .concat(),
            "--errors",
        ),
        (
            [
                base("nerc_coarse,nel"),
                vec!["--relaxed".into(), "map.tsv".into()],
            ]
            .concat(),
            "--relaxed",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = fairscore(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Nothing was written.
    assert!(std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_none()));
}
