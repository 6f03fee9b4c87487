//! HIPE campaigns on Codabench: the bundle of a HIPE preset (`codabench-bundle --preset
//! NAME --resources DIR`) ships the tag sets and QID maps its tasks read, and its scoring
//! program, run as Codabench's worker runs it (`tests/common/worker.rs`) on real runs zipped
//! as participants zip them, gives in `scores.json` exactly what `fairscore score` gives for
//! the same run, task and options (relaxed NEL: the run normalized by `fairscore normalize`
//! and scored against the normalized gold, as the organisers did). HIPE-2022: every real run
//! in ../shared, one submission per team, bundle and run number; HIPE-2020: the synthetic
//! runs.

use std::collections::BTreeMap;
use std::path::Path;

use fairscore::campaign::Campaign;

use crate::common::worker::Worker;
use crate::common::{fairscore, shared_data, temp_dir};

/// The first column of a task, whose `ALL` F1 is the headline (strict for NERC, fuzzy for
/// NEL), as the official outputs name it.
fn headline(task: &str) -> (&'static str, &'static str) {
    match task {
        "nerc_coarse" => ("NE-COARSE-LIT", "strict"),
        "nerc_fine" => ("NE-FINE-LIT", "strict"),
        _ => ("NEL-LIT", "ent_type"),
    }
}

/// `fairscore score`'s headline F1 of `run` for the output `spec` of `cfg` on
/// `dataset`/`lang`.
#[allow(clippy::too_many_arguments)]
fn score_f1(
    cfg: &Campaign,
    output: &str,
    gold_dir: &Path,
    resources: &Path,
    run: &Path,
    dataset: &str,
    lang: &str,
    work: &Path,
) -> f64 {
    let spec = &cfg.tasks[output];
    let gold = gold_dir.join(cfg.gold_file(spec, dataset, lang));
    let out = work.join(format!(
        "{}_{output}",
        run.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&out).unwrap();
    let mut pred = run.to_path_buf();
    if spec.normalize {
        let map = cfg.datasets[dataset].map.as_ref().expect("a QID map");
        pred = out.join(run.file_name().unwrap());
        let o = fairscore(&[
            "normalize",
            "-i",
            &run.display().to_string(),
            "-o",
            &pred.display().to_string(),
            "--norm-time",
            "--norm-histo",
            "-m",
            &resources.join(map.as_str()).display().to_string(),
            "-e",
            cfg.edition.name(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let task = spec.task.as_str();
    let mut args: Vec<String> = vec![
        "score".into(),
        "--ref".into(),
        gold.display().to_string(),
        "--pred".into(),
        pred.display().to_string(),
        "--task".into(),
        task.into(),
        "--hipe_edition".into(),
        cfg.edition.name().into(),
        "--skip-check".into(),
        "--outdir".into(),
        out.display().to_string(),
        "--json".into(),
        "-".into(),
    ];
    if let Some(t) = cfg.tagset_file(spec) {
        args.extend([
            "--tagset".into(),
            resources.join(t.as_str()).display().to_string(),
        ]);
    }
    if !spec.n_best.is_empty() && task == "nel" {
        let n: Vec<String> = spec.n_best.iter().map(|k| k.to_string()).collect();
        args.extend(["--n_best".into(), n.join(",")]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = fairscore(&refs);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("score's JSON");
    let (column, regime) = headline(task);
    let v = if task == "nel" {
        let first = spec.n_best.first().copied().unwrap_or(1);
        &v[first.to_string()]
    } else {
        &v
    };
    v[column]["TIME-ALL"]["LED-ALL"]["ALL"][regime]["F1_micro"]
        .as_f64()
        .unwrap_or_else(|| panic!("{}: no F1 of {column}", run.display()))
}

/// Every run of `runs_dir` (named by the campaign's pattern) submitted to the preset's
/// Codabench program, one submission per team, bundle and run number; returns (values
/// compared, values from a run).
fn campaign_on_codabench(
    preset: &str,
    gold_dir: &Path,
    runs_dir: &Path,
    resources: &Path,
) -> (usize, usize) {
    let cfg = Campaign::preset(preset).expect("the preset");
    let dir = temp_dir(&format!("codabench_{preset}"));
    let worker = Worker::with(
        &dir,
        gold_dir,
        &[
            "--preset".into(),
            preset.into(),
            "--resources".into(),
            resources.display().to_string(),
        ],
    );
    // The resources the tasks read are shipped with the program.
    let shipped = worker.root.join("scoring_program/resources");
    for t in cfg.tasks.values().filter_map(|s| cfg.tagset_file(s)) {
        assert!(shipped.join(t.as_str()).is_file(), "{t:?} not shipped");
    }
    let run = std::fs::read_to_string(worker.root.join("scoring_program/run.sh")).unwrap();
    assert!(run.contains("--resources \"$P/resources\""), "{run}");
    // The public data: each gold blind (NE columns O, NEL columns _, tokens kept, MISC only
    // some of the gold's flags of the layout); the starting kit's sample submission, made of
    // them, is accepted and scores 0.
    let mut blind = 0;
    for e in std::fs::read_dir(gold_dir).unwrap().flatten() {
        let public = worker.root.join("public_data").join(e.file_name());
        let Ok(b) = std::fs::read_to_string(&public) else {
            continue;
        };
        let g = std::fs::read_to_string(e.path()).unwrap();
        assert_eq!(g.lines().count(), b.lines().count(), "{public:?}");
        let header: Vec<&str> = b.lines().next().unwrap().split('\t').collect();
        for (gl, bl) in g.lines().zip(b.lines()).skip(1) {
            // A comment is kept; a row of cells whose token is `#` is made blind.
            if (gl.starts_with('#') && !gl.contains('\t')) || gl.trim().is_empty() {
                assert_eq!(gl, bl);
                continue;
            }
            for ((h, gc), bc) in header.iter().zip(gl.split('\t')).zip(bl.split('\t')) {
                let want = match *h {
                    h if h.starts_with("NEL-") => "_",
                    h if h.starts_with("NE-") => "O",
                    "MISC" => {
                        let layout = [
                            "NoSpaceAfter",
                            "EndOfLine",
                            "EndOfSentence",
                            "EndOfParagraph",
                            "PySBDSegment",
                            "_",
                        ];
                        let fits = bc.split('|').all(|f| {
                            layout.contains(&f) && (f == "_" || gc.split('|').any(|x| x == f))
                        });
                        assert!(fits, "{public:?}: MISC {bc:?} of {gl:?}");
                        bc
                    }
                    _ => gc,
                };
                assert_eq!(bc, want, "{public:?}: {h} of {gl:?}");
            }
        }
        blind += 1;
    }
    assert!(blind > 0, "{preset}: no public data");
    let (code, stderr, scores) = worker.score_zip(
        "sample",
        &worker.root.join("starting_kit/sample_submission.zip"),
    );
    // Issue 46.5: the sample scores, 0 in every column. The HIPE-2022 newseye fi and sv golds
    // have a token `nan` where their _histonorm golds (relaxed NEL) have an empty TOKEN cell,
    // a row the reader skips: one run file cannot line up with both, so a run of a bundle with
    // relaxed NEL cannot be scored there, the sample's as any participant's. That costs those
    // columns only: the page says why; every other column takes its sample run.
    assert_eq!(code, 0, "{preset}: the sample refused: {stderr}");
    let scores = scores.expect("scores.json");
    for k in &worker.keys {
        assert_eq!(scores[k].as_f64(), Some(0.0), "{preset} sample {k}");
    }
    assert!(
        !stderr.contains("no run in the submission"),
        "{preset}: a column without a sample run: {stderr}"
    );
    let page = std::fs::read_to_string(
        worker
            .root
            .parent()
            .unwrap()
            .join("sample/output/detailed_results.html"),
    )
    .unwrap()
    .replace("<wbr>", "");
    let unscored: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": not scored, scored 0: "))
        .collect();
    let want: Vec<&str> = match preset {
        "hipe-2022" => vec!["nel_relaxed_newseye_fi__F1", "nel_relaxed_newseye_sv__F1"],
        _ => Vec::new(),
    };
    assert_eq!(unscored.len(), want.len(), "{preset}: {stderr}");
    for (l, key) in unscored.iter().zip(&want) {
        assert!(
            l.contains(&format!("note: {key}: ")) && l.contains("does not line up with"),
            "{preset}: {l}"
        );
        let run = format!("sample_bundle1_newseye_{}_1.tsv", &key[20..22]);
        assert!(
            page.contains(&format!("{run}: not scored (")),
            "{preset}: {key}: the page does not say why"
        );
    }
    // Submissions: the runs by team, bundle and run number.
    let mut subs: BTreeMap<(String, String, String), Vec<std::path::PathBuf>> = BTreeMap::new();
    let mut names: Vec<String> = std::fs::read_dir(runs_dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tsv"))
        .collect();
    names.sort();
    let mut info: BTreeMap<String, (String, String, String)> = BTreeMap::new();
    for n in &names {
        let stem = n.trim_end_matches(".tsv");
        let m = cfg
            .run_pattern
            .matches(stem)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{n} does not fit the preset's run pattern"));
        let get = |p: &str| {
            m.iter()
                .find(|(q, _)| q.as_str() == p)
                .map(|(_, v)| v.to_string())
                .unwrap_or_default()
        };
        let dataset = match get("dataset") {
            d if d.is_empty() => cfg.datasets.keys().next().unwrap().as_str().to_string(),
            d => d,
        };
        info.insert(n.clone(), (get("bundle"), dataset, get("lang")));
        subs.entry((get("team"), get("bundle"), get("run")))
            .or_default()
            .push(runs_dir.join(n));
    }
    let (mut compared, mut from_runs, mut positive) = (0, 0, 0);
    for ((team, bundle, run), files) in &subs {
        let name = format!("{team}_b{bundle}_r{run}");
        let zip = dir.join(format!("{name}.zip"));
        // Zipped as a participant would (Python's zipfile), the runs in a folder of the team.
        let mut entries: Vec<(String, std::path::PathBuf)> = files
            .iter()
            .map(|f| {
                let inside = format!("{team}/{}", f.file_name().unwrap().to_string_lossy());
                (inside, f.clone())
            })
            .collect();
        let readme = dir.join("README.txt");
        std::fs::write(&readme, b"our runs\n").unwrap();
        entries.push(("README.txt".into(), readme));
        crate::common::worker::zip_files(&zip, &entries);
        let (code, stderr, scores) = worker.score_zip(&name, &zip);
        assert_eq!(code, 0, "{name}: {stderr}");
        let scores = scores.expect("scores.json");
        let obj = scores.as_object().unwrap();
        assert_eq!(
            obj.keys().collect::<Vec<_>>(),
            worker.keys.iter().collect::<Vec<_>>(),
            "{name}: exactly the leaderboard's keys"
        );
        let mut expected: BTreeMap<String, f64> =
            worker.keys.iter().map(|k| (k.clone(), 0.0)).collect();
        for f in files {
            let n = f.file_name().unwrap().to_string_lossy().into_owned();
            let (b, dataset, lang) = &info[&n];
            for output in cfg.bundles[b.as_str()].iter() {
                let key = format!("{output}_{dataset}_{lang}__F1");
                let spec = &cfg.tasks[output.as_str()];
                if !gold_dir.join(cfg.gold_file(spec, dataset, lang)).is_file() {
                    continue;
                }
                assert!(expected.contains_key(&key), "{key}: not a column");
                let f1 = score_f1(
                    &cfg,
                    output.as_str(),
                    gold_dir,
                    resources,
                    f,
                    dataset,
                    lang,
                    &dir.join("score"),
                );
                positive += usize::from(f1 > 0.0);
                expected.insert(key, f1);
                from_runs += 1;
            }
        }
        for (k, want) in &expected {
            let got = obj[k]
                .as_f64()
                .unwrap_or_else(|| panic!("{name} {k}: not a number"));
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{name} {k}: {got} on Codabench, {want} by score"
            );
            compared += 1;
        }
    }
    // Not a comparison of zeros: most runs score above 0.
    assert!(
        positive * 2 > from_runs,
        "{preset}: {positive} of {from_runs} above 0"
    );
    (compared, from_runs)
}

#[test]
fn hipe_presets_score_on_codabench_as_fairscore_score_does() {
    let Some(data) = shared_data("hipe_presets_score_on_codabench_as_fairscore_score_does") else {
        return;
    };
    let resources = data.join("hipe2022/resources");
    let (n22, r22) = campaign_on_codabench(
        "hipe-2022",
        &data.join("hipe2022/gold"),
        &data.join("hipe2022/submissions"),
        &resources,
    );
    let (n20, r20) = campaign_on_codabench(
        "hipe-2020",
        &data.join("hipe2020-synth/gold"),
        &data.join("hipe2020-synth/submissions"),
        &resources,
    );
    eprintln!(
        "codabench, HIPE presets: hipe-2022 {n22} values equal ({r22} from runs, the others \
         columns without a run), hipe-2020 {n20} ({r20} from runs)"
    );
    assert_eq!(
        r22, 68,
        "every (run, output) of HIPE-2022: one per official output file"
    );
    assert!(r20 >= 16, "the four synthetic runs in four tasks");
}
