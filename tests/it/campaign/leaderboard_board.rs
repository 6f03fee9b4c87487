//! What organisers tripped over in the leaderboard (issue 12), on a small hand-made campaign
//! whose per-run outputs are made up (`report_given`): a missing gold variant affects only the outputs that need it; the
//! tables show the rows and order of the ranking files (identical runs listed once) and a
//! per-team view; tables without gold entities are left out with a note; numbers have one
//! form; reports name inputs relative to the campaign's directories and escape Markdown
//! without HTML entities; stale outputs are removed; a wrong preset is said once; a bad
//! campaign file is refused at load with its line.

use std::path::{Path, PathBuf};
use std::process::Command;

use fairscore::campaign::build_board as build;
use fairscore::campaign::InputNames;
use fairscore::campaign::{
    parse_table, report_given, Campaign, CampaignDirs, CampaignReport, ConfusionMatrix, Given,
    RunInfo,
};
use fairscore::Error;

const CAMPAIGN: &str = r#"name = "board \"test\" <b>"
edition = "hipe-2022"
run_pattern = "{team}_bundle{bundle}_{dataset}_{lang}_{run}"
gold_pattern = "gold-{dataset}-{lang}.tsv"

[datasets.demo]
languages = ["en"]
map = "map.tsv"

[[task]]
task = "nerc_coarse"

[[task]]
task = "nerc_fine"

[[task]]
task = "nel"
suffix = "relaxed"
normalize = true
gold_pattern = "gold-{dataset}-{lang}_histonorm.tsv"

[bundles]
1 = ["nerc_coarse", "nerc_fine", "nel_relaxed"]
3 = ["nerc_coarse", "nerc_fine"]
4 = ["nerc_coarse"]

[[ranking]]
kind = "coarse-micro-fuzzy"
outputs = ["nerc_coarse"]
prefixes = ["NE-COARSE"]
contains = ["micro-fuzzy"]
order = ["label", "f1-desc", "evaluation", "system"]

[[ranking]]
kind = "fine-micro-fuzzy"
outputs = ["nerc_fine"]
prefixes = ["NE-FINE", "NE-NESTED"]
contains = ["micro-fuzzy"]
order = ["label", "f1-desc", "evaluation", "system"]

[[ranking]]
kind = "nel-micro-fuzzy-relaxed"
outputs = ["nel_relaxed"]
prefixes = ["NEL"]
contains = ["micro-fuzzy"]
suffix = "-@1"
order = ["evaluation", "f1-desc", "system"]
"#;

/// Runs of the tests: team1's bundle 3 and bundle 4 runs have identical results.
const RUNS: &[&str] = &[
    "team1_bundle3_demo_en_1.tsv",
    "team1_bundle4_demo_en_1.tsv",
    "team1_bundle4_demo_en_2.tsv",
    "team2_bundle1_demo_en_1.tsv",
    "team3_bundle1_demo_en_1.tsv",
];

struct Setup {
    root: PathBuf,
    dirs: CampaignDirs,
    campaign: PathBuf,
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn setup(name: &str, runs: &[&str], histonorm: bool) -> Setup {
    let root = std::env::temp_dir().join(format!("fairscore-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for d in ["gold", "runs", "resources"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("gold/gold-demo-en.tsv"), "TOKEN\n").unwrap();
    if histonorm {
        std::fs::write(root.join("gold/gold-demo-en_histonorm.tsv"), "TOKEN\n").unwrap();
    }
    std::fs::write(root.join("resources/map.tsv"), "Main\tAlt\n").unwrap();
    for r in runs {
        std::fs::write(root.join("runs").join(r), "TOKEN\n").unwrap();
    }
    let campaign = root.join("campaign.toml");
    std::fs::write(&campaign, CAMPAIGN).unwrap();
    let dirs = CampaignDirs {
        gold: root.join("gold"),
        runs: root.join("runs"),
        resources: root.join("resources"),
        outdir: root.join("out"),
    };
    Setup {
        root,
        dirs,
        campaign,
    }
}

/// F1 (as the official table writes it) and TP, FP, FN of a run's label-ALL rows.
fn results(run: &str) -> (&'static str, [u64; 3]) {
    match run {
        "team1_bundle3_demo_en_1" | "team1_bundle4_demo_en_1" => ("0.9", [9, 1, 1]),
        "team1_bundle4_demo_en_2" => ("0.95", [19, 1, 1]),
        // Same F1, other counts: both listed, tied.
        "team2_bundle1_demo_en_1" => ("0.8", [8, 2, 2]),
        "team3_bundle1_demo_en_1" => ("0.8", [16, 4, 4]),
        // Predicted nothing: FP 0, the lowest, but no merit.
        "team5_bundle4_demo_en_1" => ("0", [0, 0, 30]),
        _ => ("0", [0, 5, 5]),
    }
}

fn table(run_name: &str, output: &str) -> String {
    let system = run_name.to_lowercase();
    let (f1, [tp, fp, fn_]) = results(run_name);
    let mut t =
        String::from("System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n");
    let at = if output == "nel_relaxed" { "-@1" } else { "" };
    let mut row = |ev: &str, label: &str, f1: &str, c: [u64; 3]| {
        t.push_str(&format!(
            "{system}\t{ev}-TIME-ALL-LED-ALL{at}\t{label}\t{f1}\t{f1}\t{f1}\t\t\t\t{}\t{}\t{}\r\n",
            c[0], c[1], c[2]
        ));
    };
    for regime in ["fuzzy", "strict"] {
        match output {
            "nerc_coarse" => {
                row(
                    &format!("NE-COARSE-LIT-micro-{regime}"),
                    "ALL",
                    f1,
                    [tp, fp, fn_],
                );
                row(
                    &format!("NE-COARSE-LIT-micro-{regime}"),
                    "LOC",
                    "1.0",
                    [1, 0, 0],
                );
            }
            "nerc_fine" => {
                row(
                    &format!("NE-FINE-LIT-micro-{regime}"),
                    "ALL",
                    f1,
                    [tp, fp, fn_],
                );
                // The gold has no nested entities: every run scores 0 with TP = FN = 0.
                row(&format!("NE-NESTED-micro-{regime}"), "ALL", "0", [0, 3, 0]);
            }
            _ => row(
                &format!("NEL-LIT-micro-{regime}-relaxed"),
                "ALL",
                f1,
                [tp, fp, fn_],
            ),
        }
    }
    t
}

/// The made-up output `output` of `run`; runs of team `broken` fail.
fn fake_output(run: &RunInfo, output: &str) -> fairscore::Result<Given> {
    if run.name.starts_with("broken") {
        return Err(Error::input(&run.path, 7, "bad tag \"X-FOO\""));
    }
    let tsv = table(&run.name, output);
    // A link column's matrix: 300 QIDs; the board must show a compact one.
    let fair = (output == "nel_relaxed").then(|| {
        let labels: Vec<String> = (0..300).map(|i| format!("Q{i}")).collect();
        let counts = (0..300)
            .map(|i| (0..300).map(|j| u64::from(i == j || j == 0)).collect())
            .collect();
        ConfusionMatrix {
            rows: labels.clone(),
            cols: labels,
            counts,
            totals: vec![("TP".into(), 3), ("LE".into(), 2)],
            folded: 0,
        }
    });
    Ok(Given::Output {
        files: vec![(
            format!("{}_{output}.tsv", run.name),
            tsv.clone().into_bytes(),
        )],
        rows: parse_table(&tsv, &run.path)?,
        fair,
    })
}

fn run(s: &Setup) -> (Campaign, CampaignReport) {
    let cfg = Campaign::from_file(&s.campaign).unwrap();
    let source = |r: &RunInfo, o: &str, _: &fairscore::campaign::TaskSpec| fake_output(r, o);
    let report = report_given(&cfg, &s.dirs, None, &source, None).unwrap();
    (cfg, report)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn leaderboard(s: &Setup, extra: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("leaderboard")
        .args(["--gold-dir", s.dirs.gold.to_str().unwrap()])
        .args(["--runs-dir", s.dirs.runs.to_str().unwrap()])
        .args(["--resources", s.dirs.resources.to_str().unwrap()])
        .args(["--outdir", s.dirs.outdir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn missing_gold_variant_affects_only_the_outputs_that_need_it() {
    let s = setup("board-variant", RUNS, false);
    let (_, report) = run(&s);
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(report.scored.len(), RUNS.len());
    assert_eq!(report.not_evaluated.len(), 1, "{:?}", report.not_evaluated);
    let n = &report.not_evaluated[0];
    assert_eq!((n.output.as_str(), n.runs), ("nel_relaxed", 2));
    assert!(n.path.ends_with("gold/gold-demo-en_histonorm.tsv"));
    // NERC rankings keep every run (the two identical ones once); no relaxed ranking.
    let rankings = s.dirs.outdir.join("rankings");
    let coarse = read(&rankings.join("ranking-demo-en-coarse-micro-fuzzy-all.tsv"));
    assert_eq!(coarse.lines().filter(|l| l.contains("\tALL\t")).count(), 4);
    assert!(!rankings
        .join("ranking-demo-en-nel-micro-fuzzy-relaxed-all.tsv")
        .exists());
    // Said once, with the path expected, relative to the gold directory.
    let md = read(&s.dirs.outdir.join("leaderboard.md"));
    assert_eq!(
        md.matches("gold/gold-demo-en_histonorm.tsv").count(),
        1,
        "{md}"
    );
    assert!(md.contains("## Not evaluated"), "{md}");
    let html = read(&s.dirs.outdir.join("index.html"));
    // Tera writes `/` as `&#x2F;`.
    assert_eq!(
        html.matches("gold&#x2F;gold-demo-en_histonorm.tsv").count(),
        1
    );
    // The command says it once too and exits 1.
    let (code, stderr) = leaderboard(&s, &["--campaign", s.campaign.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.matches("not evaluated:").count(), 1, "{stderr}");
    assert!(
        stderr.contains("gold-demo-en_histonorm.tsv not found"),
        "{stderr}"
    );
}

#[test]
fn tables_follow_the_ranking_files_and_teams_get_their_own_view() {
    let s = setup("board-ranks", RUNS, true);
    let (cfg, report) = run(&s);
    assert!(report.all_ok());
    let board = build(&cfg, &report, &InputNames::default());
    let section = &board.sections[0];
    let coarse = &section.groups[0];
    assert_eq!(coarse.title, "NE-COARSE-LIT");
    let fuzzy = &coarse.tables[0];
    assert_eq!(fuzzy.regime, "fuzzy");
    let shown: Vec<(usize, &str)> = fuzzy
        .rows
        .iter()
        .map(|r| (r.rank, r.system.as_str()))
        .collect();
    assert_eq!(
        shown,
        vec![
            (1, "team1_bundle4_demo_en_2"),
            (2, "team1_bundle3_demo_en_1"),
            (3, "team2_bundle1_demo_en_1"),
            (3, "team3_bundle1_demo_en_1"),
        ]
    );
    // The same rows, in the same order, as the ranking file the command wrote.
    let file = read(&s.dirs.outdir.join("rankings").join(&fuzzy.ranking));
    let in_file: Vec<&str> = file
        .lines()
        .filter(|l| l.contains(&format!("\t{}\tALL\t", fuzzy.evaluation)))
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let in_table: Vec<&str> = shown.iter().map(|(_, s)| *s).collect();
    assert_eq!(in_file, in_table);
    assert_eq!(fuzzy.folded.len(), 1);
    assert_eq!(fuzzy.folded[0].subject, "team1_bundle4_demo_en_1");
    assert!(fuzzy.folded[0].reason.contains("team1_bundle3_demo_en_1"));

    // Each team's best run per table, with the team's rank among teams.
    let teams: Vec<(&str, &str, usize, usize)> = board
        .teams
        .iter()
        .filter_map(|c| {
            let e = c
                .entries
                .iter()
                .find(|e| e.table == "NE-COARSE-LIT fuzzy")?;
            Some((c.team.as_str(), e.system.as_str(), e.rank, e.teams))
        })
        .collect();
    assert_eq!(
        teams,
        vec![
            ("team1", "team1_bundle4_demo_en_2", 1, 3),
            ("team2", "team2_bundle1_demo_en_1", 2, 3),
            ("team3", "team3_bundle1_demo_en_1", 2, 3),
        ]
    );
    // Both reports show the same ranks.
    let md = read(&s.dirs.outdir.join("leaderboard.md"));
    assert!(
        md.contains("| 2 | team1\\_bundle3\\_demo\\_en\\_1 |")
            || md.contains("| 2 | team1_bundle3_demo_en_1 |"),
        "{md}"
    );
    assert!(md.contains("| 3 | team3_bundle1_demo_en_1 |"), "{md}");
    assert!(md.contains("## By team"));
    let html = read(&s.dirs.outdir.join("index.html"));
    assert!(html.contains("id=\"teams\""));
    let pos = |name: &str| html.find(name).unwrap_or(usize::MAX);
    assert!(pos("team1_<wbr>bundle4_<wbr>demo_<wbr>en_<wbr>2") < pos("team1_<wbr>bundle3"));
    assert!(html.contains("Not listed: team1_bundle4_demo_en_1"));
}

#[test]
fn tables_without_gold_entities_are_left_out_and_numbers_have_one_form() {
    let s = setup("board-empty", RUNS, true);
    let (cfg, report) = run(&s);
    let board = build(&cfg, &report, &InputNames::default());
    let titles: Vec<&str> = board.sections[0]
        .groups
        .iter()
        .map(|g| g.title.as_str())
        .collect();
    assert!(!titles.contains(&"NE-NESTED"), "{titles:?}");
    assert!(titles.contains(&"NE-FINE-LIT"), "{titles:?}");
    assert_eq!(board.skipped.len(), 1, "{:?}", board.skipped);
    assert!(board.skipped[0].subject.contains("NE-NESTED"));
    assert!(board.sections[0]
        .notes
        .iter()
        .any(|n| n.contains("NE-NESTED")));
    // The ranking file itself is the official one: the NE-NESTED rows stay.
    let fine = read(
        &s.dirs
            .outdir
            .join("rankings/ranking-demo-en-fine-micro-fuzzy-all.tsv"),
    );
    assert!(fine.contains("NE-NESTED-micro-fuzzy"));
    // Scores with three decimals, counts whole, in every table of both reports.
    let md = read(&s.dirs.outdir.join("leaderboard.md"));
    let mut rows = 0;
    for line in md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| #"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 8 {
            continue;
        }
        rows += 1;
        for c in &cells[2..5] {
            let c = c.trim_matches('*');
            assert!(c.len() == 5 && c.as_bytes()[1] == b'.', "{line}");
        }
        for c in &cells[5..8] {
            assert!(c.trim_matches('*').parse::<u64>().is_ok(), "{line}");
        }
    }
    assert!(rows >= 8, "{md}");
    assert!(md.contains("0.950") && md.contains("0.800") && !md.contains("| 0.8 |"));
    assert!(!md.contains("NE-NESTED ·"), "no NE-NESTED table");
}

#[test]
fn reports_name_inputs_relatively_escape_markdown_and_drop_stale_outputs() {
    let runs = [RUNS[0], RUNS[1], "broken_bundle4_demo_en_1.tsv"];
    let s = setup("board-stale", &runs, true);
    let out = &s.dirs.outdir;
    std::fs::create_dir_all(out.join("runs")).unwrap();
    std::fs::create_dir_all(out.join("rankings")).unwrap();
    for f in [
        "runs/gone_bundle4_demo_en_1_nerc_coarse.tsv",
        "runs/gone_bundle4_demo_en_1_nerc_coarse.json",
        "runs/notes.txt",
        "runs/broken_bundle4_demo_en_1_nerc_coarse.tsv",
        "rankings/ranking-demo-de-coarse-micro-fuzzy-all.tsv",
    ] {
        std::fs::write(out.join(f), "old\n").unwrap();
    }
    let (_, report) = run(&s);
    assert_eq!(report.failed.len(), 1);
    assert_eq!(
        report.removed,
        vec![
            "runs/broken_bundle4_demo_en_1_nerc_coarse.tsv",
            "runs/gone_bundle4_demo_en_1_nerc_coarse.json",
            "runs/gone_bundle4_demo_en_1_nerc_coarse.tsv",
            "rankings/ranking-demo-de-coarse-micro-fuzzy-all.tsv",
        ]
    );
    assert!(out.join("runs/notes.txt").is_file(), "not ours: kept");
    assert!(out
        .join("runs/team1_bundle3_demo_en_1_nerc_coarse.tsv")
        .is_file());

    let root = s.root.to_str().unwrap();
    let md = read(&out.join("leaderboard.md"));
    let html = read(&out.join("index.html"));
    let html = html.replace("&#x2F;", "/");
    for (name, text) in [("md", &md), ("html", &html)] {
        assert!(!text.contains(root), "{name} names a local path:\n{text}");
        assert!(
            text.contains("runs/broken_bundle4_demo_en_1.tsv:7"),
            "{name}:\n{text}"
        );
    }
    assert!(!md.contains("&quot;") && !md.contains("&lt;") && !md.contains("&amp;"));
    assert!(
        md.starts_with("# Leaderboard: board \"test\" \\<b\\>\n"),
        "{md}"
    );

    // A run that is gone: its outputs go at the next invocation.
    std::fs::remove_file(s.dirs.runs.join(RUNS[1])).unwrap();
    let (_, report) = run(&s);
    assert!(report
        .removed
        .contains(&"runs/team1_bundle4_demo_en_1_nerc_coarse.tsv".to_string()));
}

#[test]
fn a_wrong_preset_is_said_once_with_the_convention_and_the_closest_name() {
    let s = setup("board-preset", RUNS, true);
    let (code, stderr) = leaderboard(&s, &["--preset", "hipe-2020"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("not a run"), "{stderr}");
    let line: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("no file fits"))
        .collect();
    assert_eq!(line.len(), 1, "{stderr}");
    assert!(
        line[0].contains("{team}_bundle{bundle}_{lang}_{run}.tsv"),
        "{stderr}"
    );
    assert!(
        line[0].contains("closest: team1_bundle3_demo_en_1.tsv"),
        "{stderr}"
    );
    let md = read(&s.dirs.outdir.join("leaderboard.md"));
    assert_eq!(md.matches("no file fits").count(), 1, "{md}");
}

#[test]
fn compact_confusion_matrices_for_link_columns() {
    let mut s = setup("board-heat", RUNS, true);
    let text = CAMPAIGN.replace("edition = ", "fair = true\nedition = ");
    s.campaign = s.root.join("fair.toml");
    std::fs::write(&s.campaign, text).unwrap();
    let (_, report) = run(&s);
    assert!(report.all_ok());
    let html = read(&s.dirs.outdir.join("index.html"));
    assert!(html.len() < 200_000, "{} bytes", html.len());
    let heat = html.find("<table class=\"heat\">").expect("a heat map");
    let head = &html[heat..heat + html[heat..].find("</thead>").unwrap_or(0)];
    assert_eq!(head.matches("</th>").count(), 1 + 8 + 1, "{head}");
    assert!(html.contains("292 less frequent labels are summed in “other”"));
    assert!(html.contains("<b>LE</b>2"));
}

#[test]
fn bad_campaign_files_are_refused_at_load_with_file_and_line() {
    let s = setup("board-load", RUNS, true);
    let cases = [
        (
            "edition = \"hipe-2022\"",
            "edition = \"hipe-2021\"",
            "unknown edition",
        ),
        (
            "suffix = \"relaxed\"",
            "suffix = \"x/../../escaped\"",
            "suffix",
        ),
        (
            "kind = \"fine-micro-fuzzy\"",
            "kind = \"../fine\"",
            "ranking kind",
        ),
    ];
    for (from, to, what) in cases {
        let text = CAMPAIGN.replace(from, to);
        let line = text.lines().position(|l| l == to).map(|i| i + 1).unwrap();
        std::fs::write(&s.campaign, &text).unwrap();
        let (code, stderr) = leaderboard(&s, &["--campaign", s.campaign.to_str().unwrap()]);
        assert_eq!(code, Some(3), "{stderr}");
        assert!(
            stderr.contains(&format!("campaign.toml:{line}: invalid campaign: {what}")),
            "{stderr}"
        );
        assert!(
            !s.dirs.outdir.exists(),
            "nothing written for a bad campaign"
        );
    }
    let (code, stderr) = leaderboard(&s, &["--campaign", "/dev/zero"]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("/dev/zero"), "{stderr}");
}

/// The page reads on a 390 px phone and a 1366 px laptop: every cell of every table (per-run
/// details opened) inside the screen, nothing clipped, no sideways scrolling, size bounded
/// (`scripts/page_check.sh`, headless Chromium; skipped with a notice without Chromium).
#[test]
fn page_fits_phone_and_laptop_screens() {
    let long = "a_team_with_a_remarkably_long_name_indeed_bundle4_demo_en_1.tsv";
    let runs: Vec<&str> = RUNS.iter().copied().chain([long]).collect();
    let mut s = setup("board-page", &runs, true);
    let text = CAMPAIGN.replace("edition = ", "fair = true\nedition = ");
    s.campaign = s.root.join("fair.toml");
    std::fs::write(&s.campaign, text).unwrap();
    run(&s);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/page_check.sh");
    let o = Command::new("bash")
        .arg(script)
        .arg(s.dirs.outdir.join("index.html"))
        .args(["--max-bytes", "300000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{stdout}");
    }
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The output directory may be the runs directory: a second invocation behaves like the first
/// (the reports are not taken for runs). File names with control characters are escaped on
/// the terminal.
#[test]
fn outdir_may_be_the_runs_directory_and_names_are_escaped_on_the_terminal() {
    let mut s = setup("board-same", &RUNS[..2], true);
    std::fs::write(s.dirs.runs.join("evil\n\u{1b}[2Jname.txt"), "x").unwrap();
    s.dirs.outdir = s.dirs.runs.clone();
    for _ in 0..2 {
        let (code, stderr) = leaderboard(&s, &["--campaign", s.campaign.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains("not runs: evil\\n\\u{1b}[2Jname.txt"),
            "{stderr}"
        );
        // The real scorer: these one-column files fail, the same way both times.
        assert!(
            stderr.contains("0 runs scored, 2 failed, 0 not runs"),
            "{stderr}"
        );
    }
}

/// A run with P = R = F1 = 0 (it predicted nothing) gets no "best" for its FP of 0, and a
/// "Not listed" note is said once in a section, not under each of its tables (issue 26).
#[test]
fn a_run_that_found_nothing_is_not_best_and_notes_are_not_repeated() {
    let mut runs = RUNS.to_vec();
    runs.push("team5_bundle4_demo_en_1.tsv");
    let s = setup("board-zero", &runs, true);
    // A strict ranking beside the fuzzy one: the coarse group gets two tables.
    let strict = "\n[[ranking]]\nkind = \"coarse-micro-strict\"\noutputs = [\"nerc_coarse\"]\n\
                  prefixes = [\"NE-COARSE\"]\ncontains = [\"micro-strict\"]\n\
                  order = [\"label\", \"f1-desc\", \"evaluation\", \"system\"]\n";
    std::fs::write(&s.campaign, format!("{CAMPAIGN}{strict}")).unwrap();
    let (cfg, report) = run(&s);
    let board = build(&cfg, &report, &InputNames::default());
    let section = &board.sections[0];
    let mut seen_zero = 0;
    for t in section.groups.iter().flat_map(|g| &g.tables) {
        for r in &t.rows {
            if r.system == "team5_bundle4_demo_en_1" {
                seen_zero += 1;
                assert!(r.cells.iter().all(|c| !c.best), "{t:?}");
            }
        }
        if !t.rows.iter().any(|r| r.system == "team5_bundle4_demo_en_1") {
            continue;
        }
        // The lowest FP among the runs that found something (1) is marked.
        let fp_best: Vec<&str> = t
            .rows
            .iter()
            .filter(|r| r.cells[4].best)
            .map(|r| r.cells[4].text.as_str())
            .collect();
        assert!(
            !fp_best.is_empty() && fp_best.iter().all(|c| *c == "1"),
            "{fp_best:?}"
        );
    }
    assert!(seen_zero >= 2);
    assert_eq!(section.groups[0].tables.len(), 2);
    let notes: Vec<_> = section
        .groups
        .iter()
        .flat_map(|g| &g.tables)
        .flat_map(|t| &t.folded)
        .collect();
    assert!(!notes.is_empty());
    for (i, n) in notes.iter().enumerate() {
        assert!(!notes[..i].contains(n), "{n:?} repeated");
    }
    let md = read(&s.dirs.outdir.join("leaderboard.md"));
    assert_eq!(
        md.matches("team1_bundle4_demo_en_1: same results").count(),
        1,
        "{md}"
    );
}
