//! The HIPE campaign reports on a hand-made campaign (`tests/fixtures/board/mini.toml`) whose run
//! names and labels contain `<script>` and quotes: the HTML and Markdown escape them, a run
//! whose scoring fails and files that are not runs are listed with the reason while the others
//! still score, the fair heat map appears where the scorer gave a matrix, and the command line
//! exits 1 in that case.

use std::path::{Path, PathBuf};
use std::process::Command;

use fairscore::campaign::{
    parse_table, report_given, Campaign, CampaignDirs, CampaignReport, ConfusionMatrix, Given,
    RunInfo, Task, TaskSpec,
};
use fairscore::Error;

const EVIL_TEAM: &str = "evil<script>alert(\"x\")'";
const EVIL_LABEL: &str = "<script>alert(\"label\")</script>";

fn fixture_campaign() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/board/mini.toml")
}

/// gold/, runs/, resources/ in a fresh temporary directory.
fn setup(name: &str, runs: &[&str]) -> (PathBuf, CampaignDirs) {
    let root = std::env::temp_dir().join(format!("fairscore-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for lang in ["en", "de"] {
        std::fs::write(root.join(format!("gold/gold-demo-{lang}.tsv")), "TOKEN\n").unwrap();
    }
    for r in runs {
        std::fs::write(root.join("runs").join(r), "TOKEN\n").unwrap();
    }
    let dirs = CampaignDirs {
        gold: root.join("gold"),
        runs: root.join("runs"),
        resources: root.join("resources"),
        outdir: root.join("out"),
    };
    (root, dirs)
}

/// A small score table made up from the run number.
fn table(run_name: &str, task: Task) -> String {
    let f1 = if run_name.ends_with("_1") {
        "0.8"
    } else {
        "0.6"
    };
    let col = match task {
        Task::Nel => "NEL-LIT",
        _ => "NE-COARSE-LIT",
    };
    let at = if task == Task::Nel { "-@1" } else { "" };
    let mut tsv =
        String::from("System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n");
    for regime in ["fuzzy", "strict"] {
        for label in ["ALL", EVIL_LABEL] {
            tsv.push_str(&format!(
                "{}\t{col}-micro-{regime}-TIME-ALL-LED-ALL{at}\t{label}\t{f1}\t{f1}\t{f1}\t\t\t\t4\t1\t1\r\n",
                run_name.to_lowercase()
            ));
        }
    }
    tsv
}

/// The made-up output of a run (with a fair matrix for NERC when the campaign asks for the
/// fair regime); fails runs of team `broken`.
fn fake_output(run: &RunInfo, spec: &TaskSpec, fair: bool) -> fairscore::Result<Given> {
    if run.name.starts_with("broken") {
        return Err(Error::input(&run.path, 7, "bad tag \"X-FOO\""));
    }
    let tsv = table(&run.name, spec.task);
    Ok(Given::Output {
        files: vec![(
            format!("{}_{}.tsv", run.name, spec.output_name()),
            tsv.clone().into_bytes(),
        )],
        rows: parse_table(&tsv, &run.path)?,
        fair: (fair && spec.task == Task::NercCoarse).then(|| ConfusionMatrix {
            rows: vec!["PER".into(), EVIL_LABEL.into()],
            cols: vec!["PER".into(), "O".into()],
            counts: vec![vec![5, 1], vec![0, 2]],
            totals: vec![("TP".into(), 5), ("LE".into(), 1)],
            folded: 0,
        }),
    })
}

/// The campaign reported from the made-up outputs.
fn run_campaign(cfg: &Campaign, dirs: &CampaignDirs) -> fairscore::Result<CampaignReport> {
    let source = |r: &RunInfo, _: &str, spec: &TaskSpec| fake_output(r, spec, cfg.fair);
    report_given(cfg, dirs, None, &source, None)
}

#[test]
fn html_and_markdown_escape_names_and_labels_and_list_what_was_not_scored() {
    let good = format!("{EVIL_TEAM}_bundle1_demo_en_1.tsv");
    let runs = [
        good.as_str(),
        "team2_bundle4_demo_en_2.tsv",
        "broken_bundle1_demo_en_1.tsv",
        "team3_bundle9_demo_en_1.tsv",
        "notes.txt",
    ];
    let (root, dirs) = setup("board-report", &runs);
    let cfg = Campaign::from_file(&fixture_campaign()).unwrap();
    let report = run_campaign(&cfg, &dirs).unwrap();

    assert_eq!(report.scored.len(), 2);
    assert_eq!(report.failed.len(), 1);
    assert!(report.failed[0].errors[0].contains("bad tag"));
    let rejected: Vec<(&str, &str)> = report
        .rejected
        .iter()
        .map(|r| (r.file_name.as_str(), r.reason.as_str()))
        .collect();
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    // A file of another extension is no run and no problem: ignored.
    assert_eq!(report.ignored, vec!["notes.txt".to_string()]);
    assert!(rejected
        .iter()
        .any(|(f, r)| f.contains("bundle9") && r.contains("bundle \"9\"")));

    let html = std::fs::read_to_string(dirs.outdir.join("index.html")).unwrap();
    assert!(!html.contains("<script"), "raw <script> in the page");
    assert!(!html.contains("alert(\""), "raw quote in the page");
    assert!(html.contains("evil&lt;script&gt;alert(&quot;x&quot;)&#x27;_bundle1_demo_en_1"));
    assert!(html.contains("evil&lt;script&gt;alert(&quot;x&quot;)&#x27;_<wbr>bundle1_<wbr>demo"));
    assert!(html.contains("&lt;script&gt;alert(&quot;label&quot;)&lt;&#x2F;script&gt;"));
    assert!(html.contains("mini &lt;campaign&gt; &quot;q&quot;"));
    // Ranked: the _1 run (F1 0.8) before the _2 run (0.6), best F1 marked on the former.
    let first = html.find("evil&lt;script&gt;").unwrap();
    let second = html.find("team2_bundle4_demo_en_2").unwrap();
    assert!(first < second);
    assert!(html.contains("f1 best\" title=\"best\">0.800<span class=\"star\">★</span><svg"));
    assert!(html.contains("<rect width=\"80\""));
    // The heat map from the fair matrix, and the failed and rejected files with reasons.
    assert!(html.contains("Fair regime"));
    assert!(html.contains("rgba(var(--heat),0.2)\">1</td>"));
    assert!(html.contains("broken_bundle1_demo_en_1.tsv</code>: scoring failed"));
    // A file of another extension is no run and no problem: not listed on the page.
    assert!(!html.contains("notes.txt"));

    let md = std::fs::read_to_string(dirs.outdir.join("leaderboard.md")).unwrap();
    assert!(
        !md.replace("\\<", "").contains('<'),
        "unescaped < in the Markdown"
    );
    assert!(
        md.contains("evil\\<script\\>alert(\"x\")'\\_bundle1_demo_en_1"),
        "{md}"
    );
    assert!(
        !md.contains("&quot;") && !md.contains("&lt;"),
        "HTML entities in the Markdown"
    );
    assert!(md.contains("broken_bundle1_demo_en_1.tsv: scoring failed"));

    // Rankings for every language, empty ones with the header only; the per-run outputs.
    let en = std::fs::read_to_string(
        dirs.outdir
            .join("rankings/ranking-demo-en-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert_eq!(en.lines().count(), 1 + 4, "{en}");
    let de = std::fs::read_to_string(
        dirs.outdir
            .join("rankings/ranking-demo-de-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert_eq!(de, "System\tEvaluation\tLabel\tP\tR\tF1\tTP\tFP\tFN\n");
    assert!(dirs
        .outdir
        .join("runs/team2_bundle4_demo_en_2_nerc_coarse.tsv")
        .is_file());
    assert!(!dirs
        .outdir
        .join("runs/team2_bundle4_demo_en_2_nel.tsv")
        .exists());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn missing_directories_and_resources_are_errors() {
    let (root, mut dirs) = setup("board-missing", &[]);
    let cfg = Campaign::preset("hipe-2022").unwrap();
    let e = run_campaign(&cfg, &dirs).unwrap_err();
    assert!(e.to_string().contains("tagset-hipe2022-all.txt"), "{e}");
    dirs.runs = root.join("nope");
    let cfg = Campaign::from_file(&fixture_campaign()).unwrap();
    let e = run_campaign(&cfg, &dirs).unwrap_err();
    assert!(matches!(e, Error::Input { .. }), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn command_line_replays_outputs_and_exits_1_when_something_was_not_scored() {
    let (root, dirs) = setup(
        "board-cli",
        &[
            "a_bundle4_demo_en_1.tsv",
            "b_bundle4_demo_en_1.tsv",
            "x.csv",
        ],
    );
    let replay = root.join("replay");
    std::fs::create_dir_all(&replay).unwrap();
    // Only run a has outputs to replay.
    std::fs::write(
        replay.join("a_bundle4_demo_en_1_nerc_coarse.tsv"),
        table("a_bundle4_demo_en_1", Task::NercCoarse),
    )
    .unwrap();
    std::fs::write(replay.join("a_bundle4_demo_en_1_nerc_coarse.json"), "{}\n").unwrap();

    let status = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", dirs.gold.to_str().unwrap()])
        .args(["--runs-dir", dirs.runs.to_str().unwrap()])
        .args(["--resources", dirs.resources.to_str().unwrap()])
        .args(["--outdir", dirs.outdir.to_str().unwrap()])
        .args(["--campaign", fixture_campaign().to_str().unwrap()])
        .args(["--replay", replay.to_str().unwrap(), "--threads", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("b_bundle4_demo_en_1.tsv: scoring failed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ignored 1 file(s) that are not runs: x.csv"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 runs scored, 1 failed, 0 not runs"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(
            dirs.outdir
                .join("runs/a_bundle4_demo_en_1_nerc_coarse.json")
        )
        .unwrap(),
        b"{}\n"
    );

    // Without --replay the runs are scored for real: these header-only files lack the scored
    // column, so every run fails with a message naming it; the command still reports.
    let status = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", dirs.gold.to_str().unwrap()])
        .args(["--runs-dir", dirs.runs.to_str().unwrap()])
        .args(["--resources", dirs.resources.to_str().unwrap()])
        .args(["--outdir", dirs.outdir.to_str().unwrap()])
        .args(["--campaign", fixture_campaign().to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("column NE-COARSE-LIT is missing"),
        "{stderr}"
    );
    assert!(stderr.contains("0 runs scored, 2 failed"), "{stderr}");

    // A preset and a campaign file together are a usage error (exit 2).
    let status = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(["leaderboard", "--gold-dir", "g", "--runs-dir", "r"])
        .args(["--resources", "x", "--outdir", "o", "--preset", "hipe-2022"])
        .args(["--campaign", "c.toml"])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&root);
}

/// End to end with the real scorer: a small campaign built from the bundled example, with the
/// fair regime asked for, scores its runs, ranks them and draws the confusion heat map.
#[test]
fn real_scorer_scores_a_small_campaign_with_fair_regime() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (root, dirs) = setup("board-real", &[]);
    let gold = std::fs::read(manifest.join("reference_runs/HIPE-2022-demo-test-en.tsv")).unwrap();
    let run = std::fs::read(manifest.join("reference_runs/demo_bundle4_newseye_en_1.tsv")).unwrap();
    for lang in ["en", "de"] {
        std::fs::write(dirs.gold.join(format!("gold-demo-{lang}.tsv")), &gold).unwrap();
    }
    std::fs::write(dirs.runs.join("alpha_bundle4_demo_en_1.tsv"), &run).unwrap();
    std::fs::write(dirs.runs.join("beta_bundle4_demo_de_1.tsv"), &gold).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", dirs.gold.to_str().unwrap()])
        .args(["--runs-dir", dirs.runs.to_str().unwrap()])
        .args(["--resources", dirs.resources.to_str().unwrap()])
        .args(["--outdir", dirs.outdir.to_str().unwrap()])
        .args(["--campaign", fixture_campaign().to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(0), "{stderr}");
    // The per-run output equals `score` with the fair regime, the hand-checked rows included.
    let tsv = std::fs::read_to_string(
        dirs.outdir
            .join("runs/alpha_bundle4_demo_en_1_nerc_coarse.tsv"),
    )
    .unwrap();
    assert!(tsv.contains("alpha_bundle4_demo_en_1\tNE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL\tALL\t0.4\t0.4\t0.4\t\t\t\t2\t3\t3\r\n"), "{tsv}");
    assert!(
        tsv.contains("NE-COARSE-LIT-micro-fair-TIME-ALL-LED-ALL\tALL\t0.286\t0.286\t0.286"),
        "{tsv}"
    );
    // The gold scored against itself is perfect.
    let beta = std::fs::read_to_string(
        dirs.outdir
            .join("runs/beta_bundle4_demo_de_1_nerc_coarse.tsv"),
    )
    .unwrap();
    assert!(
        beta.contains("NE-COARSE-LIT-micro-strict-TIME-ALL-LED-ALL\tALL\t1.0\t1.0\t1.0"),
        "{beta}"
    );
    let ranking = std::fs::read_to_string(
        dirs.outdir
            .join("rankings/ranking-demo-en-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert!(ranking.contains("alpha_bundle4_demo_en_1"), "{ranking}");
    let html = std::fs::read_to_string(dirs.outdir.join("index.html")).unwrap();
    assert!(html.contains("alpha_bundle4_demo_en_1"));
    assert!(
        html.to_lowercase().contains("confusion"),
        "heat map section"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// The hipe-2022 preset covers every dataset of the campaign: a run of a dataset the shared
/// data does not have (letemps) is found, scored and ranked; datasets without gold or runs get
/// no ranking files and no section.
#[test]
fn preset_covers_every_hipe2022_dataset() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (root, dirs) = setup("board-letemps", &[]);
    let gold = std::fs::read(manifest.join("reference_runs/HIPE-2022-demo-test-en.tsv")).unwrap();
    let run = std::fs::read(manifest.join("reference_runs/demo_bundle4_newseye_en_1.tsv")).unwrap();
    std::fs::write(dirs.gold.join("HIPE-2022-v2.1-letemps-test-fr.tsv"), &gold).unwrap();
    std::fs::write(dirs.runs.join("demo_bundle4_letemps_fr_1.tsv"), &run).unwrap();
    std::fs::write(
        dirs.resources.join("tagset-hipe2022-all.txt"),
        "loc\norg\npers\n",
    )
    .unwrap();
    for map in [
        "ajmc-alternatives-QID-mapping-ID-mapping.tsv",
        "historico-fuzzy-QID-mapping-ID-mapping.tsv",
    ] {
        std::fs::write(dirs.resources.join(map), "Main\tAlternatives\n").unwrap();
    }
    let status = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", dirs.gold.to_str().unwrap()])
        .args(["--runs-dir", dirs.runs.to_str().unwrap()])
        .args(["--resources", dirs.resources.to_str().unwrap()])
        .args([
            "--outdir",
            dirs.outdir.to_str().unwrap(),
            "--preset",
            "hipe-2022",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(0), "{stderr}");
    let mut rankings: Vec<String> = std::fs::read_dir(dirs.outdir.join("rankings"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    rankings.sort();
    assert_eq!(rankings.len(), 8, "{rankings:?}");
    assert!(
        rankings
            .iter()
            .all(|r| r.starts_with("ranking-letemps-fr-")),
        "{rankings:?}"
    );
    let coarse = std::fs::read_to_string(
        dirs.outdir
            .join("rankings/ranking-letemps-fr-coarse-micro-fuzzy-all.tsv"),
    )
    .unwrap();
    assert!(coarse.contains("demo_bundle4_letemps_fr_1\tNE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL\tALL\t0.4\t0.4\t0.4\t2\t3\t3"), "{coarse}");
    let html = std::fs::read_to_string(dirs.outdir.join("index.html")).unwrap();
    assert!(html.contains("letemps"));
    assert!(
        !html.contains("sonar"),
        "no section for datasets without gold or runs"
    );
    let _ = std::fs::remove_dir_all(&root);
}
