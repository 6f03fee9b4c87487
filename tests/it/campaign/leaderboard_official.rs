//! A HIPE-2022 campaign reported from given per-run outputs (`report_given`, serving the
//! official ones as `--replay` does): the 56 official rankings are reproduced row for row,
//! every per-run output is written unchanged, the outputs asked for follow the README's
//! matrix, and the bytes written do not depend on the thread count. The family engine's typed
//! rows equal the official tables. Needs ../shared (skipped, with a message, when absent).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fairscore::campaign::{
    replayed, report_given, Campaign, CampaignDirs, CampaignReport, Edition, Given, RunInfo, Task,
    TaskSpec,
};

/// `../shared/data/hipe2022`, or `None` (with a skip notice) when `../shared` is absent; under
/// CI a missing `../shared` fails (see `common::shared_data`).
fn hipe2022() -> Option<PathBuf> {
    crate::common::shared_data("leaderboard_official").map(|d| d.join("hipe2022"))
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairscore-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What the README says each output of a run must be scored with, checked on every output
/// asked for.
fn check_output(cfg: &Campaign, run: &RunInfo, output: &str, spec: &TaskSpec) -> Vec<String> {
    let mut bad = Vec::new();
    let stem = format!("{}_{output}", run.name);
    let tagset = cfg.tagset_file(spec).map(|t| t.as_str());
    if tagset != Some("tagset-hipe2022-all.txt") {
        bad.push(format!("{stem}: tagset {tagset:?}"));
    }
    if cfg.edition != Edition::Hipe2022 {
        bad.push(format!("{stem}: edition {:?}", cfg.edition));
    }
    let gold_name = cfg.gold_file(spec, &run.dataset, &run.lang);
    let relaxed = spec.suffix.as_ref().map(|s| s.as_str()) == Some("relaxed");
    let want_gold = format!(
        "HIPE-2022-v2.1-{}-test-{}{}.tsv",
        run.dataset,
        run.lang,
        if relaxed { "_histonorm" } else { "" }
    );
    if gold_name != want_gold {
        bad.push(format!("{stem}: gold {gold_name}"));
    }
    let map = cfg
        .datasets
        .get(run.dataset.as_str())
        .and_then(|d| d.map.as_ref())
        .filter(|_| spec.normalize)
        .map(|m| m.as_str());
    let want_map = relaxed.then_some(if run.dataset == "ajmc" {
        "ajmc-alternatives-QID-mapping-ID-mapping.tsv"
    } else {
        "historico-fuzzy-QID-mapping-ID-mapping.tsv"
    });
    if map != want_map {
        bad.push(format!("{stem}: map {map:?}"));
    }
    let want_n_best: Vec<usize> = match (spec.task, relaxed) {
        (Task::Nel, true) => vec![1, 3, 5],
        _ => vec![1],
    };
    if spec.n_best != want_n_best {
        bad.push(format!("{stem}: n_best {:?}", spec.n_best));
    }
    if !run.path.ends_with(format!("submissions/{}.tsv", run.name)) {
        bad.push(format!("{stem}: run path {:?}", run.path));
    }
    bad
}

fn dirs(data: &Path, out: &Path) -> CampaignDirs {
    CampaignDirs {
        gold: data.join("gold"),
        runs: data.join("submissions"),
        resources: data.join("resources"),
        outdir: out.to_path_buf(),
    }
}

/// The campaign reported on `threads` threads from the official per-run outputs.
fn run(data: &Path, out: &Path, threads: usize, seen: &Mutex<Vec<String>>) -> CampaignReport {
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let official = data.join("official");
    let source = |run: &RunInfo, output: &str, spec: &TaskSpec| -> fairscore::Result<Given> {
        let mut problems = check_output(&cfg, run, output, spec);
        problems.push(format!("job {}_{output}", run.name));
        seen.lock().unwrap().extend(problems);
        replayed(&official, run, output)
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| report_given(&cfg, &dirs(data, out), None, &source, None))
        .unwrap()
}

fn read_dir_bytes(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            out.insert(
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

#[test]
fn official_rankings_and_per_run_outputs_are_reproduced() {
    let Some(data) = hipe2022() else { return };
    let out = tmp_dir("board-official");
    let seen = Mutex::new(Vec::new());
    let report = run(&data, &out, 2, &seen);

    let seen = seen.into_inner().unwrap();
    let problems: Vec<&String> = seen.iter().filter(|s| !s.starts_with("job ")).collect();
    assert!(
        problems.is_empty(),
        "jobs differ from the README: {problems:?}"
    );
    // README matrix: bundle 1 → 4 outputs, 2 → 3, 3 → 2, 4 → 1, 5 → 2.
    let mut expected_jobs = 0;
    for e in std::fs::read_dir(data.join("submissions")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let bundle = name.split("_bundle").nth(1).and_then(|s| s.chars().next());
        expected_jobs += match bundle {
            Some('1') => 4,
            Some('2') => 3,
            Some('3') => 2,
            Some('4') => 1,
            Some('5') => 2,
            other => panic!("unexpected run {name} ({other:?})"),
        };
    }
    assert_eq!(report.jobs, expected_jobs);
    assert_eq!(seen.len(), expected_jobs, "each job scored once");
    assert!(report.all_ok(), "{:?} {:?}", report.failed, report.rejected);

    // Every per-run output equals the official one, and nothing else is written.
    let official = read_dir_bytes(&data.join("official"));
    let written = read_dir_bytes(&out.join("runs"));
    assert_eq!(
        written.keys().collect::<Vec<_>>(),
        official.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &official {
        assert!(written[name] == *bytes, "{name} differs");
    }

    // The rankings, row for row (line ends aside).
    let want = read_dir_bytes(&data.join("rankings"));
    let got = read_dir_bytes(&out.join("rankings"));
    assert_eq!(want.len(), 56);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    let mut nonempty = 0;
    for (name, bytes) in &want {
        let (w, g) = (lines(bytes), lines(&got[name]));
        if w.len() > 1 {
            nonempty += 1;
        }
        assert_eq!(g, w, "{name}");
    }
    assert!(nonempty >= 30, "only {nonempty} non-empty rankings");
    assert_eq!(report.rankings.len(), 56);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn outputs_do_not_depend_on_the_thread_count() {
    let Some(data) = hipe2022() else { return };
    let a = tmp_dir("board-threads-1");
    let b = tmp_dir("board-threads-3");
    let seen = Mutex::new(Vec::new());
    run(&data, &a, 1, &seen);
    run(&data, &b, 3, &seen);
    for sub in ["", "rankings", "runs"] {
        let (x, y) = (read_dir_bytes(&a.join(sub)), read_dir_bytes(&b.join(sub)));
        assert!(!x.is_empty(), "{sub} is empty");
        assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>());
        for (name, bytes) in &x {
            assert!(
                y[name] == *bytes,
                "{sub}/{name} differs between 1 and 3 threads"
            );
        }
    }
    let html = String::from_utf8(std::fs::read(a.join("index.html")).unwrap()).unwrap();
    assert!(html.contains("team1_bundle4_ajmc_en_2"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "page must work offline"
    );
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// The command itself, with the real scorer: every per-run output byte-identical to the
/// official one, every ranking equal row for row, and the same bytes with 1 and 2 threads.
#[test]
fn leaderboard_command_with_the_real_scorer_reproduces_the_official_campaign() {
    let Some(data) = hipe2022() else { return };
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = tmp_dir(&format!("real-{threads}"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
            .arg("leaderboard")
            .args(["--gold-dir", data.join("gold").to_str().unwrap()])
            .args(["--runs-dir", data.join("submissions").to_str().unwrap()])
            .args(["--resources", data.join("resources").to_str().unwrap()])
            .args([
                "--outdir",
                out.to_str().unwrap(),
                "--threads",
                threads,
                "--quiet",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outputs.push(out);
    }
    let runs = read_dir_bytes(&outputs[0].join("runs"));
    let official = read_dir_bytes(&data.join("official"));
    assert_eq!(runs.len(), 136);
    for (name, bytes) in &runs {
        assert!(
            official.get(name) == Some(bytes),
            "{name} differs from the official output"
        );
    }
    let rankings = read_dir_bytes(&outputs[0].join("rankings"));
    let expected = read_dir_bytes(&data.join("rankings"));
    assert_eq!(rankings.len(), 56);
    for (name, bytes) in &expected {
        let ours = rankings
            .get(name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(lines(ours), lines(bytes), "{name}");
    }
    for sub in ["runs", "rankings"] {
        assert_eq!(
            read_dir_bytes(&outputs[0].join(sub)),
            read_dir_bytes(&outputs[1].join(sub)),
            "{sub} differ between 1 and 2 threads"
        );
    }
    for f in ["index.html", "leaderboard.md", "leaderboard.tex"] {
        assert_eq!(
            std::fs::read(outputs[0].join(f)).unwrap(),
            std::fs::read(outputs[1].join(f)).unwrap(),
            "{f} differs between 1 and 2 threads"
        );
    }
}

/// The family engine's typed rows (what `leaderboard` ranks) equal the official per-run
/// tables parsed back, row for row, for every output of the campaign.
#[test]
fn family_engine_rows_equal_the_official_tables() {
    let Some(data) = hipe2022() else { return };
    let out = tmp_dir("typed-rows");
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let report =
        fairscore::campaign::score_official(&cfg, Path::new("hipe-2022"), &dirs(&data, &out), None)
            .unwrap();
    assert!(report.all_ok());
    let official = data.join("official");
    let mut differ = Vec::new();
    let mut checked = 0;
    for run in &report.scored {
        for (output, rows) in &run.outputs {
            let path = official.join(format!("{}_{output}.tsv", run.run.name));
            let text = std::fs::read_to_string(&path).unwrap();
            let want = fairscore::campaign::parse_table(&text, &path).unwrap();
            if *rows != want {
                differ.push(path.display().to_string());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 68);
    assert!(differ.is_empty(), "{differ:?}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Every published table is its ranking file's label-ALL rows of one Evaluation, in file
/// order; every table and group that is left out has no gold entities.
#[test]
fn published_tables_are_the_ranking_files() {
    let Some(data) = hipe2022() else { return };
    let out = tmp_dir("board-tables");
    let seen = Mutex::new(Vec::new());
    let report = run(&data, &out, 2, &seen);
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let board = fairscore::campaign::build_board(
        &cfg,
        &report,
        &fairscore::campaign::InputNames::default(),
    );
    let mut tables = 0;
    for section in &board.sections {
        for group in &section.groups {
            for t in &group.tables {
                let file = std::fs::read_to_string(out.join("rankings").join(&t.ranking)).unwrap();
                let in_file: Vec<&str> = file
                    .lines()
                    .filter(|l| l.contains(&format!("\t{}\tALL\t", t.evaluation)))
                    .map(|l| l.split('\t').next().unwrap_or(""))
                    .collect();
                let shown: Vec<String> = t.rows.iter().map(|r| r.system.to_lowercase()).collect();
                assert_eq!(in_file, shown, "{} {}", t.ranking, t.evaluation);
                tables += 1;
            }
        }
    }
    assert!(tables >= 40, "{tables} tables");
    // ajmc has no nested entities: its NE-NESTED tables are left out, with a note.
    assert!(board
        .skipped
        .iter()
        .any(|n| n.subject.starts_with("ajmc · de · NE-NESTED")));
    assert!(!board.teams.is_empty());
    let _ = std::fs::remove_dir_all(&out);
}

/// With fair scoring on, confusion matrices over link labels stay compact: the page of the
/// whole campaign is a few hundred KB (it was 853 MB with full QID × QID grids) and passes
/// the page check at phone and laptop widths.
#[test]
fn fair_campaign_page_stays_small_and_fits_the_screen() {
    let Some(data) = hipe2022() else { return };
    let out = tmp_dir("board-fair");
    let campaign = out.join("fair.toml");
    let text = fairscore::campaign::PRESETS[0]
        .1
        .replace("\ntagset = ", "\nfair = true\ntagset = ");
    std::fs::write(&campaign, text).unwrap();
    let board = out.join("board");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", data.join("gold").to_str().unwrap()])
        .args(["--runs-dir", data.join("submissions").to_str().unwrap()])
        .args(["--resources", data.join("resources").to_str().unwrap()])
        .args(["--outdir", board.to_str().unwrap(), "--quiet"])
        .args(["--campaign", campaign.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = board.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.len() < 3_000_000, "{} bytes", html.len());
    assert!(html.contains("Fair regime") && html.contains("summed in “other”"));
    let check = std::process::Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/page_check.sh"))
        .arg(&page)
        .args(["--max-bytes", "3000000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&check.stdout);
    {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{stdout}");
    }
    assert!(check.status.success(), "{stdout}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The evaluation repository's `submitted/` directory as organisers keep it: the runs beside
/// the campaign's key file, per-team manifests and system files. Those are listed once as
/// ignored and the campaign exits 0, with the same rankings as the runs alone.
#[test]
fn a_submitted_directory_with_manifests_and_key_files_exits_0() {
    let Some(data) = hipe2022() else {
        return;
    };
    let dir = tmp_dir("leaderboard_submitted");
    let runs = dir.join("submitted");
    std::fs::create_dir_all(&runs).unwrap();
    for e in std::fs::read_dir(data.join("submissions"))
        .unwrap()
        .flatten()
    {
        std::fs::copy(e.path(), runs.join(e.file_name())).unwrap();
    }
    for (name, text) in [
        ("TEAM_KEYS.txt", "neurbsl\tteam-a\nteam1\tteam-b\n"),
        ("neurbsl_bundle3_manifest.txt", "runs: 7\n"),
        ("team1_bundle4_manifest.txt", "runs: 9\n"),
        ("README.md", "# submitted runs\n"),
        (".DS_Store", "\0\0"),
    ] {
        std::fs::write(runs.join(name), text).unwrap();
    }
    let leaderboard = |runs: &Path, out: &Path| {
        crate::common::fairscore(&[
            "leaderboard",
            "--quiet",
            "--gold-dir",
            &data.join("gold").display().to_string(),
            "--runs-dir",
            &runs.display().to_string(),
            "--resources",
            &data.join("resources").display().to_string(),
            "--outdir",
            &out.display().to_string(),
        ])
    };
    let o = leaderboard(&runs, &dir.join("out"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ignored 4 file(s) that are not runs")
            && err.contains("TEAM_KEYS.txt")
            && err.contains("neurbsl_bundle3_manifest.txt"),
        "{err}"
    );
    let alone = leaderboard(&data.join("submissions"), &dir.join("alone"));
    assert_eq!(alone.status.code(), Some(0));
    let (a, b) = (
        read_dir_bytes(&dir.join("out").join("rankings")),
        read_dir_bytes(&dir.join("alone").join("rankings")),
    );
    assert!(!a.is_empty());
    assert_eq!(
        a, b,
        "the rankings do not depend on the files that are not runs"
    );
}
