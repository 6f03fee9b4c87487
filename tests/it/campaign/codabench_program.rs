//! Issues 46 and 47, the Codabench scoring program (`fairscore codabench`), run as the worker
//! runs it (`tests/common/worker.rs`) on the bundle `codabench-bundle` writes:
//! `scores.json` fits Codabench's `numeric(20,10)` scores (46.2); a run that cannot be scored
//! costs its columns only (46.5); a brat gold and runs in subfolders (46.6); participant-visible
//! outputs hide the gold unless `reveal_gold = true` (46.1, 47.1); the `inspect` pages are
//! embedded in the one file Codabench uploads (46.7); a campaign placing generative runs
//! (`align`) is scored by every way of scoring (47.4).

use std::path::{Path, PathBuf};

use super::fixtures::{board_json, leaderboard};
use crate::common::worker::{embedded_pages, zip_files, Worker};
use crate::common::{copy_dir, fairscore, shared_data, temp_dir};

/// Two documents; `Zanzibar` is a gold entity only (the runs below miss it).
const GOLD: &str = "-DOCSTART- O\n\nAnna B-PER\nSmith I-PER\nvisited O\nZanzibar B-LOC\n. O\n\n\
                    -DOCSTART- O\n\nBob B-PER\nmet O\nthe O\nUN B-ORG\nin O\nParis B-LOC\n. O\n\n";

/// A run: Anna Smith right, Zanzibar missed, UN as LOC, Paris right, `met` spurious.
const RUN: &str = "-DOCSTART- O\n\nAnna B-PER\nSmith I-PER\nvisited O\nZanzibar O\n. O\n\n\
                   -DOCSTART- O\n\nBob B-PER\nmet B-PER\nthe O\nUN B-LOC\nin O\nParis B-LOC\n. O\n\n";

const SEG_GOLD: &str = "ab cd ef\ngh ij\n";

/// A campaign of a spans task on `test.conll` (with `ner` lines added) and a segmentation
/// task, `top` lines at its top: the gold directory and the campaign file.
fn campaign(dir: &Path, top: &str, ner: &str) -> (PathBuf, PathBuf) {
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("test.conll"), GOLD).unwrap();
    std::fs::write(gold.join("seg.txt"), SEG_GOLD).unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        format!(
            "name = \"program\"\n{top}\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\nformat = \"conll\"\n\
             gold = \"test.conll\"\nruns = \"{{team}}_{{run}}.conll\"\n{ner}\n\n[[task]]\nname = \"seg\"\n\
             family = \"segmentation\"\nformat = \"text\"\ngold = \"seg.txt\"\nruns = \"{{team}}_{{run}}.txt\"\n"
        ),
    )
    .unwrap();
    (gold, c)
}

/// `fairscore leaderboard`'s `leaderboard.json` of the campaign, written in `dir/site`.
fn board(dir: &Path, c: &Path, gold: &Path, runs: &Path) -> serde_json::Value {
    leaderboard(c, gold, runs, &dir.join("site"), &["--quiet"]);
    board_json(&dir.join("site"))
}

/// The CoNLL text with every tag `O` (a run predicting nothing).
fn blank(conll: &str) -> String {
    conll
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((w, _)) if !l.starts_with("-DOCSTART-") => format!("{w} O\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

/// The output directory of the worker's run `name`.
fn output(w: &Worker, name: &str) -> PathBuf {
    w.root.parent().unwrap().join(name).join("output")
}

fn detailed(w: &Worker, name: &str) -> String {
    std::fs::read_to_string(output(w, name).join("detailed_results.html")).unwrap()
}

/// Issue 46.2: a column ranked by an error count (`rank_by = "FP"`) without a run scores the
/// worst number Codabench can store (`numeric(20,10)`: below 10^10), not `f64::MAX`, which it
/// refuses (the submission would never reach the leaderboard); a run's count ranks above it.
#[test]
fn a_column_ranked_by_errors_without_a_run_fits_codabench_scores() {
    let dir = temp_dir("codabench_program_fp");
    let (gold, c) = campaign(&dir, "", "rank_by = \"FP\"");
    let w = Worker::new(&dir, &gold, &c);
    assert_eq!(w.keys, ["ner__FP", "seg__F1"]);
    let (code, stderr, scores) = w.score("seg_only", &[("alpha_1.txt", SEG_GOLD)]);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.unwrap();
    let worst = scores["ner__FP"].as_f64().unwrap();
    assert_eq!(worst, 9_999_999_999.0, "{scores}");
    for (k, v) in scores.as_object().unwrap() {
        let v = v.as_f64().unwrap();
        assert!(v.abs() < 1e10, "{k} = {v}: beyond numeric(20,10)");
    }
    let (code, stderr, scores) = w.score("with_run", &[("alpha_1.conll", RUN)]);
    assert_eq!(code, 0, "{stderr}");
    let fp = scores.unwrap()["ner__FP"].as_f64().unwrap();
    assert!(
        fp > 0.0 && fp < worst,
        "{fp}: ranks before a column without a run"
    );
}

/// Issue 46.5: a run that cannot be scored costs its columns only: the other columns keep
/// their scores, its cell on the detailed page says why, stderr too. A submission of nothing
/// but such runs is refused, every line saying so (46.7).
#[test]
fn a_run_that_cannot_be_scored_costs_its_columns_only() {
    let dir = temp_dir("codabench_program_cost");
    let (gold, c) = campaign(&dir, "", "");
    let w = Worker::new(&dir, &gold, &c);
    // A token changed: the run does not line up with the gold.
    let bad = RUN.replace("Paris B-LOC", "Lyon B-LOC");
    let (code, stderr, scores) = w.score(
        "one_bad",
        &[("alpha_1.conll", &bad), ("alpha_1.txt", SEG_GOLD)],
    );
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.expect("scores.json");
    assert_eq!(scores["seg__F1"].as_f64(), Some(1.0));
    assert_eq!(scores["ner__F1"].as_f64(), Some(0.0));
    assert!(
        stderr.contains("note: ner__F1: not scored, scored 0: alpha_1.conll"),
        "{stderr}"
    );
    let page = detailed(&w, "one_bad").replace("<wbr>", "");
    assert!(
        page.contains("alpha_1.conll: not scored ("),
        "the cell says why"
    );
    assert!(page.contains("Lyon"), "the check's finding on the page");
    // Nothing scorable: refused, every line of it marked.
    let (code, stderr, scores) = w.score("all_bad", &[("alpha_1.conll", &bad)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(scores.is_none());
    assert!(stderr.contains("Lyon"), "{stderr}");
    for l in stderr.lines() {
        assert!(l.starts_with("fairscore: submission refused: "), "{l}");
    }
}

/// The brat project of ../shared laid out as the CoNLL-ST_2002 brat corpus is (`esp/`,
/// `ned/`): gold `gold/test/{esp,ned}` (Lisa), runs `runs/alpha_1/{esp,ned}` (Maria).
fn brat_tree(project: &Path, dir: &Path) {
    for (who, to) in [("Lisa", "gold/test"), ("Maria", "runs/alpha_1")] {
        let (flat, root) = (dir.join("flat").join(who), dir.join(to));
        copy_dir(&project.join(who), &flat);
        let mut docs: Vec<String> = std::fs::read_dir(&flat)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".ann").map(str::to_string))
            .collect();
        docs.sort();
        // The first half of the documents in esp/, the rest in ned/.
        let half = docs.len() / 2;
        for (i, d) in docs.iter().enumerate() {
            let sub = root.join(if i < half { "esp" } else { "ned" });
            std::fs::create_dir_all(&sub).unwrap();
            for ext in ["ann", "txt"] {
                let n = format!("{d}.{ext}");
                std::fs::copy(flat.join(&n), sub.join(&n)).unwrap();
            }
        }
    }
}

/// Issue 46.6: a brat gold with subfolders. `leaderboard --campaign` ranks it; the program
/// takes the starting kit's own sample (a folder tree named `sample_1`) and a run nested in
/// a team folder with a README inside, and scores it as `leaderboard` does.
#[test]
fn a_brat_gold_and_runs_with_subfolders_are_scored() {
    let Some(data) = shared_data("a_brat_gold_and_runs_with_subfolders_are_scored") else {
        return;
    };
    let dir = temp_dir("codabench_program_brat_tree");
    brat_tree(&data.join("brat/bratiaa-example/example-project"), &dir);
    let gold = dir.join("gold");
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"brat-tree\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\n\
         runs = \"{team}_{run}\"\n[[task]]\nname = \"fair\"\nfamily = \"fair\"\ngold = \"test\"\n\
         runs = \"{team}_{run}\"\n",
    )
    .unwrap();
    for sub in ["esp", "ned"] {
        assert!(gold.join("test").join(sub).is_dir());
    }
    let board = board(&dir, &c, &gold, &dir.join("runs"));
    let w = Worker::new(&dir, &gold, &c);
    let (code, stderr, scores) =
        w.score_zip("sample", &w.root.join("starting_kit/sample_submission.zip"));
    assert_eq!(code, 0, "the sample refused: {stderr}");
    let scores = scores.unwrap();
    for k in &w.keys {
        assert_eq!(scores[k].as_f64(), Some(0.0), "{k}");
    }
    assert!(!stderr.contains("no run in the submission"), "{stderr}");
    // alpha_1 inside a team folder, a README beside its documents.
    let mut entries = Vec::new();
    let run = dir.join("runs/alpha_1");
    for sub in ["esp", "ned"] {
        for e in std::fs::read_dir(run.join(sub)).unwrap() {
            let p = e.unwrap().path();
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            entries.push((format!("team/alpha_1/{sub}/{n}"), p));
        }
    }
    let readme = dir.join("README.txt");
    std::fs::write(&readme, "our run\n").unwrap();
    entries.push(("team/alpha_1/README.txt".into(), readme));
    let zip = dir.join("alpha.zip");
    zip_files(&zip, &entries);
    let (code, stderr, scores) = w.score_zip("alpha", &zip);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.unwrap();
    for t in board["tables"].as_array().unwrap() {
        let metric = t["metric"].as_str().unwrap();
        let key = format!("{}__{metric}", t["task"].as_str().unwrap());
        let own = t["rows"][0]["scores"][metric].as_f64().unwrap();
        assert!(own > 0.5 && own < 1.0, "{key} {own}");
        assert_eq!(scores[&key].as_f64(), Some(own), "{key}");
    }
}

/// Issue 46.1: the detailed page shows no gold the run's scores do not give: no missed gold
/// span of a breakdown's examples, no table of the gold's mentions per label; with
/// `reveal_gold = true` both show.
#[test]
fn the_detailed_page_hides_the_gold_unless_the_campaign_reveals_it() {
    for (name, top) in [("hidden", ""), ("revealed", "reveal_gold = true")] {
        let dir = temp_dir(&format!("codabench_program_{name}"));
        let (gold, c) = campaign(&dir, top, "breakdown = [\"label\", \"length\"]");
        let w = Worker::new(&dir, &gold, &c);
        let (code, stderr, _) = w.score("run", &[("alpha_1.conll", RUN)]);
        assert_eq!(code, 0, "{stderr}");
        let page = detailed(&w, "run");
        let shown = top.is_empty();
        // Zanzibar, a gold entity the run missed, is on the page only as an FN example.
        assert_eq!(page.contains("Zanzibar"), !shown, "{name}: the missed span");
        assert_eq!(
            page.contains("Gold adequacy"),
            !shown,
            "{name}: gold counts"
        );
        assert_eq!(page.contains(">FN</td>"), !shown, "{name}: FN examples");
        // The run's own spurious spans stay, and its scores.
        assert!(page.contains(">FP</td>") && page.contains("met"), "{name}");
        assert!(page.contains("Breakdown by label"), "{name}");
    }
}

/// The marks of an `inspect` page: (gold marks, run marks, missed spans listed).
fn marks(page: &str) -> (usize, usize, usize) {
    (
        page.matches("<span class=\"g ").count(),
        page.matches("<span class=\"r ").count(),
        page.matches("<li class=\"e fn").count(),
    )
}

/// Issues 47.1 and 46.7: with `inspect = true`, the page is embedded in the detailed page (the
/// one file Codabench uploads; nothing else is written, nothing linked) and, the gold hidden,
/// marks the run's own spans only: a run predicting nothing gets a page of plain text, not of
/// every gold span; a run's page no gold span, no missed one, its text cut only at the run's
/// spans. `reveal_gold = true` gives `fairscore inspect`'s own page.
#[test]
fn inspect_pages_are_embedded_and_show_the_run_only() {
    for (name, top) in [
        ("inspect_hidden", "inspect = true"),
        ("inspect_revealed", "inspect = true\nreveal_gold = true"),
    ] {
        let dir = temp_dir(&format!("codabench_program_{name}"));
        let (gold, c) = campaign(&dir, top, "");
        let w = Worker::new(&dir, &gold, &c);
        let nothing = blank(GOLD);
        for (run, text) in [("nothing", nothing.as_str()), ("run", RUN)] {
            let (code, stderr, _) = w.score(run, &[("alpha_1.conll", text)]);
            assert_eq!(code, 0, "{stderr}");
            let mut files: Vec<String> = std::fs::read_dir(output(&w, run))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            assert_eq!(files, ["detailed_results.html", "scores.json"], "{name}");
            let page = detailed(&w, run);
            assert!(
                !page.contains("<a href="),
                "{name}: a link to a file never uploaded"
            );
            let pages = embedded_pages(&page);
            let inspect = &pages["ner__F1"];
            let (g, r, missed) = marks(inspect);
            match (top.contains("reveal_gold"), run) {
                (false, "nothing") => {
                    assert_eq!((g, r, missed), (0, 0, 0), "{name} {run}");
                    assert!(!inspect.contains("<span class=\"g"), "{name}");
                }
                (false, _) => assert_eq!((g, r, missed), (0, 5, 0), "{name} {run}"),
                (true, "nothing") => assert_eq!((g, r, missed), (5, 0, 5), "{name} {run}"),
                (true, _) => {
                    assert_eq!((g, r, missed), (5, 5, 1), "{name} {run}");
                    // The page of `fairscore inspect` on the same files.
                    let root = w.root.parent().unwrap().join(run);
                    let own = dir.join("own.html");
                    let o = fairscore(&[
                        "inspect",
                        "--format",
                        "conll",
                        "--gold",
                        root.join("input/ref/test.conll").to_str().unwrap(),
                        "--pred",
                        root.join("input/res/alpha_1.conll").to_str().unwrap(),
                        "-o",
                        own.to_str().unwrap(),
                    ]);
                    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                    assert_eq!(*inspect, std::fs::read_to_string(own).unwrap());
                }
            }
            // Hidden: the text is cut where a run span begins or ends, nowhere else.
            if !top.contains("reveal_gold") {
                assert!(inspect.contains(" visited Zanzibar ."), "{name} {run}");
                assert!(!inspect.contains("ORG"), "{name}: a gold label");
            }
        }
    }
}

/// Issue 47.4: a campaign of generative runs on a CoNLL gold (docs/generative.md), placed on
/// the gold's texts (`family = "spans"`, `align`) and scored as strings (`family =
/// "mentions"`): `leaderboard` ranks both and writes the spans task's `inspect` page,
/// `codabench-bundle` writes its bundle (it exited 3: the gold is no entity list), the program
/// scores the same run as `leaderboard` and embeds its page.
#[test]
fn a_campaign_of_aligned_runs_is_scored_every_way() {
    let dir = temp_dir("codabench_program_align");
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("test.conll"), GOLD).unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"gen\"\ninspect = true\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\n\
         align = \"exact\"\nunit = \"document\"\ngold = \"test.conll\"\nruns = \"{team}_{run}.jsonl\"\n\
         [[task]]\nname = \"strings\"\nfamily = \"mentions\"\nunit = \"document\"\n\
         gold = \"test.conll\"\nruns = \"{team}_{run}.jsonl\"\n",
    )
    .unwrap();
    let run =
        "{\"output\": \"[[\\\"Anna Smith\\\", \\\"PER\\\"], [\\\"Paris\\\", \\\"LOC\\\"]]\"}\n\
               {\"output\": \"[[\\\"UN\\\", \\\"LOC\\\"], [\\\"Mars\\\", \\\"LOC\\\"]]\"}\n";
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(runs.join("alpha_1.jsonl"), run).unwrap();
    let board = board(&dir, &c, &gold, &runs);
    let own: Vec<f64> = (0..2)
        .map(|i| {
            board["tables"][i]["rows"][0]["scores"]["F1"]
                .as_f64()
                .unwrap()
        })
        .collect();
    assert!(own.iter().all(|f| *f > 0.0 && *f < 1.0), "{own:?}");
    let pages: Vec<_> = std::fs::read_dir(dir.join("site/inspect"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert_eq!(pages.len(), 1, "leaderboard's inspect page");
    let w = Worker::new(&dir, &gold, &c);
    assert_eq!(w.keys, ["ner__F1", "strings__F1"]);
    let (code, stderr, scores) = w.score("run", &[("alpha_1.jsonl", run)]);
    assert_eq!(code, 0, "{stderr}");
    let scores = scores.unwrap();
    assert_eq!(scores["ner__F1"].as_f64(), Some(own[0]));
    assert_eq!(scores["strings__F1"].as_f64(), Some(own[1]));
    let embedded = embedded_pages(&detailed(&w, "run"));
    assert_eq!(
        marks(&embedded["ner__F1"]).1,
        4,
        "the run's spans, Mars after the text"
    );
}
