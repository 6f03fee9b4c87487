//! What `fairscore codabench-bundle` writes and says (docs/codabench.md): detailed results
//! private unless the campaign publishes them, names Codabench cannot store refused with their
//! place, the binary shipped (the portable build, else a warning), a short report of what was
//! written and what each public file reveals, blind HIPE golds keeping only the MISC flags of
//! the text's layout, and a brat gold publishing its documents only.

use std::path::{Path, PathBuf};

use crate::common::worker::{unzip, Worker};
use crate::common::{copy_dir, shared_data, temp_dir};

const CONLL: &str =
    "-DOCSTART- O\n\nAda B-PER\nLovelace I-PER\nmet O\nBabbage B-PER\n\nin O\nLondon B-LOC\n";

const FAKE_ELF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/bad_inputs/codabench/fake_elf"
);

/// A one-task CoNLL campaign (`top`: more keys at its top) and its gold directory.
fn conll_campaign(dir: &Path, top: &str, task: &str) -> (PathBuf, PathBuf) {
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("ner.conll"), CONLL).unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        format!(
            "name = \"c\"\n{top}\n[[task]]\nname = \"{task}\"\nfamily = \"spans\"\nformat = \"conll\"\ngold = \"ner.conll\"\nruns = \"{{team}}_{{run}}.conll\"\n"
        ),
    )
    .unwrap();
    (c, gold)
}

/// `codabench-bundle` with `args` then `OUT.zip` in `dir` (working directory `cwd`).
fn bundle_in(cwd: &Path, args: &[&str], out: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .arg("codabench-bundle")
        .args(args)
        .arg(out)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file of the bundle `zip`, unpacked into `dir`.
fn read_in(zip: &Path, dir: &Path, name: &str) -> String {
    let _ = std::fs::remove_dir_all(dir);
    unzip(zip, dir);
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// A HIPE campaign of one output (NERC coarse) on the bundled ajmc-en gold.
const HIPE: &str = "name = \"hipe-mini\"\nedition = \"hipe-2022\"\n\
run_pattern = \"{team}_bundle{bundle}_{dataset}_{lang}_{run}\"\n\
gold_pattern = \"HIPE-2022-v2.1-{dataset}-test-{lang}.tsv\"\ntagset = \"tagset-hipe2022-all.txt\"\nTOP\n\
[datasets.ajmc]\nlanguages = [\"en\"]\n[[task]]\ntask = \"nerc_coarse\"\n[bundles]\n1 = [\"nerc_coarse\"]\n";

fn hipe_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hipe2022-ajmc-en")
}

#[test]
fn detailed_results_stay_private_unless_the_campaign_publishes_them() {
    let dir = temp_dir("cb_bundle_detailed");
    let line = |zip: &Path| {
        read_in(zip, &dir.join("x"), "competition.yaml")
            .lines()
            .find(|l| l.starts_with("show_detailed_results_in_leaderboard:"))
            .map(str::to_string)
    };
    for (top, shown) in [("", "False"), ("detailed_results_public = true", "True")] {
        let (c, gold) = conll_campaign(&dir, top, "ner");
        let zip = dir.join("f.zip");
        let args = [
            "--campaign",
            c.to_str().unwrap(),
            "--gold-dir",
            gold.to_str().unwrap(),
        ];
        let o = bundle_in(&dir, &[&args[..], &["--binary", FAKE_ELF]].concat(), &zip);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            line(&zip).as_deref(),
            Some(format!("show_detailed_results_in_leaderboard: {shown}").as_str()),
            "{top:?}"
        );
        let hipe = dir.join("hipe.toml");
        std::fs::write(&hipe, HIPE.replace("TOP", top)).unwrap();
        let data = hipe_data();
        let args = [
            "--campaign",
            hipe.to_str().unwrap(),
            "--resources",
            data.to_str().unwrap(),
            "--gold-dir",
            data.to_str().unwrap(),
            "--binary",
            FAKE_ELF,
        ];
        let zip = dir.join("h.zip");
        let o = bundle_in(&dir, &args, &zip);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            line(&zip).as_deref(),
            Some(format!("show_detailed_results_in_leaderboard: {shown}").as_str()),
            "HIPE {top:?}"
        );
    }
    // Not a flag of anything else.
    let (c, gold) = conll_campaign(&dir, "detailed_results_public = \"yes\"", "ner");
    let o = bundle_in(
        &dir,
        &[
            "--campaign",
            c.to_str().unwrap(),
            "--gold-dir",
            gold.to_str().unwrap(),
        ],
        &dir.join("g.zip"),
    );
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("campaign.toml:2:"), "{}", text(&o));
}

#[test]
fn names_longer_than_codabench_stores_are_refused_with_their_place() {
    let dir = temp_dir("cb_bundle_long");
    // 29 characters: the key `…__F1` has 33, fits.
    let (c, gold) = conll_campaign(&dir, "", "a_task_of_twenty_nine_letters");
    let zip = dir.join("ok.zip");
    let args = [
        "--campaign",
        c.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
    ];
    let o = bundle_in(&dir, &[&args[..], &["--binary", FAKE_ELF]].concat(), &zip);
    assert!(o.status.success(), "{}", text(&o));
    // 33: the key has 37.
    let (c, gold) = conll_campaign(&dir, "", "a_task_named_thirty_three_letters");
    let zip = dir.join("long.zip");
    let args = [
        "--campaign",
        c.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
    ];
    let o = bundle_in(&dir, &[&args[..], &["--binary", FAKE_ELF]].concat(), &zip);
    let err = text(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("campaign.toml:4:"),
        "the task's name line: {err}"
    );
    assert!(
        err.contains("a_task_named_thirty_three_letters__F1") && err.contains("36"),
        "{err}"
    );
    assert!(!zip.exists(), "nothing written");
}

#[test]
fn without_binary_the_portable_build_is_shipped_or_a_warning_says_how_to_make_it() {
    let dir = temp_dir("cb_bundle_binary");
    let (c, gold) = conll_campaign(&dir, "", "ner");
    let args = [
        "--campaign",
        c.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
    ];
    let portable = format!(
        "dist/fairscore-{}-x86_64-linux-glibc2.17",
        env!("CARGO_PKG_VERSION")
    );
    // A portable build in ./dist is taken.
    let here = dir.join("with_dist");
    std::fs::create_dir_all(here.join("dist")).unwrap();
    std::fs::copy(FAKE_ELF, here.join(&portable)).unwrap();
    let zip = dir.join("a.zip");
    let o = bundle_in(&here, &args, &zip);
    assert!(o.status.success(), "{}", text(&o));
    read_in(&zip, &dir.join("x"), "competition.yaml");
    let shipped = std::fs::read(dir.join("x/scoring_program/fairscore")).unwrap();
    assert!(
        shipped == std::fs::read(FAKE_ELF).unwrap(),
        "the portable build"
    );
    assert!(text(&o).contains(&portable), "{}", text(&o));
    assert!(!text(&o).contains("glibc 2.3"), "{}", text(&o));
    // Without one: this binary (glibc of this machine), with a warning saying how to build it,
    // unless the repository holds a portable build, which is then taken.
    let elsewhere = dir.join("no_dist");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let zip = dir.join("b.zip");
    let o = bundle_in(&elsewhere, &args, &zip);
    assert!(o.status.success(), "{}", text(&o));
    let yaml = read_in(&zip, &dir.join("y"), "competition.yaml");
    assert!(
        yaml.contains("docker_image: \"codalab/codalab-legacy:py37\""),
        "Codabench's own default image: {yaml}"
    );
    let shipped = std::fs::read(dir.join("y/scoring_program/fairscore")).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join(&portable);
    if repo.is_file() {
        assert!(
            shipped == std::fs::read(repo).unwrap(),
            "the repository's build"
        );
    } else {
        let this = std::fs::read(env!("CARGO_BIN_EXE_fairscore")).unwrap();
        assert!(shipped == this, "this binary");
        let err = text(&o);
        assert!(
            err.contains("warning:")
                && err.contains("glibc")
                && err.contains("scripts/prebuilt.sh"),
            "{err}"
        );
    }
}

#[test]
fn the_report_is_a_few_lines_and_verbose_lists_every_file() {
    let dir = temp_dir("cb_bundle_report");
    let (c, gold) = conll_campaign(&dir, "", "ner");
    let zip = dir.join("r.zip");
    let args = [
        "--campaign",
        c.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
        "--binary",
        FAKE_ELF,
        "--logo",
        concat!(env!("CARGO_MANIFEST_DIR"), "/docs/leaderboard.png"),
    ];
    let o = bundle_in(&dir, &args, &zip);
    let err = text(&o);
    assert!(o.status.success(), "{err}");
    let first = err.lines().next().unwrap();
    assert!(first.contains("r.zip") && first.contains("files"), "{err}");
    assert!(
        !err.contains("starting_kit/README.md"),
        "no file list: {err}"
    );
    assert!(
        err.contains("public_data/ner.conll"),
        "what it reveals: {err}"
    );
    assert!(err.lines().count() <= 5, "a few lines: {err}");
    // docs/codabench.md shows the script as the bundle has it.
    let script = read_in(&zip, &dir.join("r"), "scoring_program/run.sh");
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/codabench.md")).unwrap();
    assert!(
        docs.contains(&script),
        "docs/codabench.md does not show\n{script}"
    );
    let o = bundle_in(&dir, &[&args[..], &["--verbose"]].concat(), &zip);
    let err = text(&o);
    assert!(o.status.success(), "{err}");
    for f in [
        "competition.yaml",
        "starting_kit/README.md",
        "reference_data/ner.conll",
    ] {
        assert!(err.lines().any(|l| l.trim_end().ends_with(f)), "{f}: {err}");
    }
}

#[test]
fn blind_hipe_golds_keep_only_the_layout_of_the_text() {
    let dir = temp_dir("cb_bundle_hipe_misc");
    let data = hipe_data();
    let hipe = dir.join("hipe.toml");
    std::fs::write(&hipe, HIPE.replace("TOP", "")).unwrap();
    let zip = dir.join("h.zip");
    let args = [
        "--campaign",
        hipe.to_str().unwrap(),
        "--resources",
        data.to_str().unwrap(),
        "--gold-dir",
        data.to_str().unwrap(),
        "--binary",
        FAKE_ELF,
    ];
    let o = bundle_in(&dir, &args, &zip);
    let err = text(&o);
    assert!(o.status.success(), "{err}");
    let name = "HIPE-2022-v2.1-ajmc-test-en.tsv";
    let public = read_in(&zip, &dir.join("b"), &format!("public_data/{name}"));
    let gold = std::fs::read_to_string(data.join(name)).unwrap();
    assert!(gold.contains("LED0.0") && gold.contains("InPrimaryReference"));
    let (mut kept, mut spaces) = (0, 0);
    for (g, p) in gold.lines().zip(public.lines()).skip(1) {
        // A comment is kept; a row of cells whose token is `#` is made blind.
        if (g.starts_with('#') && !g.contains('\t')) || g.trim().is_empty() {
            assert_eq!(g, p);
            continue;
        }
        let (gc, pc): (Vec<&str>, Vec<&str>) = (g.split('\t').collect(), p.split('\t').collect());
        assert_eq!(gc[0], pc[0], "the token");
        assert!(pc[1..9].iter().all(|c| *c == "O" || *c == "_"), "{p}");
        let flags: Vec<&str> = gc[9].split('|').collect();
        let want: Vec<&str> = flags
            .iter()
            .copied()
            .filter(|f| ["NoSpaceAfter", "EndOfSentence"].contains(f))
            .collect();
        let want = if want.is_empty() {
            "_".to_string()
        } else {
            want.join("|")
        };
        assert_eq!(pc[9], want, "{g}");
        kept += usize::from(want != "_");
        spaces += usize::from(want.contains("NoSpaceAfter"));
    }
    assert!(kept > 100 && spaces > 100, "the layout stays");
    // The bundle and the starting kit say what the public file reveals, and what it lost.
    let readme = std::fs::read_to_string(dir.join("b/starting_kit/README.md")).unwrap();
    for said in [&err, &readme] {
        assert!(said.contains(name), "{said}");
        for flag in ["LED", "InPrimaryReference", "Partial"] {
            assert!(said.contains(flag), "{flag} removed: {said}");
        }
    }
    // A layout flag found on entity tokens only says where they are: removed too.
    let gold_dir = dir.join("gold");
    std::fs::create_dir_all(&gold_dir).unwrap();
    let only = gold
        .lines()
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            if c.len() == 10 && !l.starts_with('#') && c[0] != "TOKEN" {
                let end = if c[1] != "O" { "EndOfLine" } else { "_" };
                format!("{}\t{end}", c[..9].join("\t"))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(gold_dir.join(name), only + "\n").unwrap();
    let args = [
        "--campaign",
        hipe.to_str().unwrap(),
        "--resources",
        data.to_str().unwrap(),
        "--gold-dir",
        gold_dir.to_str().unwrap(),
        "--binary",
        FAKE_ELF,
    ];
    let o = bundle_in(&dir, &args, &dir.join("h2.zip"));
    assert!(o.status.success(), "{}", text(&o));
    let public = read_in(
        &dir.join("h2.zip"),
        &dir.join("c"),
        &format!("public_data/{name}"),
    );
    assert!(
        !public.contains("EndOfLine"),
        "EndOfLine marks the entities here"
    );
}

#[test]
fn the_hipe_2020_public_data_does_not_mark_the_entities() {
    let Some(shared) = shared_data("the_hipe_2020_public_data_does_not_mark_the_entities") else {
        return;
    };
    let dir = temp_dir("cb_bundle_hipe2020");
    let gold = shared.join("hipe2020-synth/gold");
    let zip = dir.join("h.zip");
    let resources = shared.join("hipe2022/resources");
    let args = [
        "--preset",
        "hipe-2020",
        "--resources",
        resources.to_str().unwrap(),
        "--gold-dir",
        gold.to_str().unwrap(),
        "--binary",
        FAKE_ELF,
    ];
    let o = bundle_in(&dir, &args, &zip);
    assert!(o.status.success(), "{}", text(&o));
    unzip(&zip, &dir.join("b"));
    let name = "HIPE-data-v1.4-test-de.tsv";
    let g = std::fs::read_to_string(gold.join(name)).unwrap();
    let p = std::fs::read_to_string(dir.join("b/public_data").join(name)).unwrap();
    // In the gold, a MISC value other than `_` marks every entity token; in the public data
    // no MISC value is found on entity tokens only.
    let (mut on_entities, mut elsewhere) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    for (gl, pl) in g.lines().zip(p.lines()).skip(1) {
        let (gc, pc): (Vec<&str>, Vec<&str>) = (gl.split('\t').collect(), pl.split('\t').collect());
        if gl.starts_with('#') || gc.len() < 10 {
            continue;
        }
        for f in pc[9].split('|') {
            if gc[1] != "O" {
                on_entities.insert(f.to_string());
            } else {
                elsewhere.insert(f.to_string());
            }
        }
    }
    assert!(!on_entities.is_empty());
    let only: Vec<&String> = on_entities.difference(&elsewhere).collect();
    assert!(
        only.is_empty(),
        "MISC values on entity tokens only: {only:?}"
    );
}

#[test]
fn a_brat_gold_publishes_and_expects_its_documents_only() {
    let dir = temp_dir("cb_bundle_brat_readme");
    let gold = dir.join("gold");
    let test = gold.join("test");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brat-tiny/ann1"),
        &test,
    );
    std::fs::write(test.join("README.txt"), "About this corpus.\n").unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brat-tiny/annotation.conf"),
        test.join("annotation.conf"),
    )
    .unwrap();
    let c = dir.join("campaign.toml");
    std::fs::write(
        &c,
        "name = \"b\"\n[[task]]\nname = \"ner\"\nfamily = \"spans\"\ngold = \"test\"\nruns = \"{team}_{run}\"\n",
    )
    .unwrap();
    let worker = Worker::new(&dir, &gold, &c);
    let listed = |folder: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(worker.root.join(folder).join("test"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    let docs = ["doc1.ann", "doc1.txt", "doc2.ann", "doc2.txt"];
    assert_eq!(listed("public_data"), docs);
    assert_eq!(listed("reference_data"), docs);
    let (code, stderr, scores) = worker.score_zip(
        "sample",
        &worker.root.join("starting_kit/sample_submission.zip"),
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(scores.unwrap()["ner__F1"].as_f64(), Some(0.0));
}
