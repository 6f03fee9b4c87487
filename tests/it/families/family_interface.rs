//! A family defined only here (token accuracy) gets every output of the crate by implementing
//! `fairscore::family::Family` alone: text, JSON, CSV, TSV, Markdown and HTML tables, bootstrap
//! intervals, paired comparisons and campaign rankings.

use std::path::{Path, PathBuf};

use fairscore::campaign::rank_runs;
use fairscore::campaign::ranking_results;
use fairscore::family::{self, Family, Headline, Statistics};
use fairscore::metrics::PairedTest;
use fairscore::metrics::Resampler;
use fairscore::report::render;
use fairscore::table::{Column, KeyKind, Kind, Table, TableFormat, Unit, Value};
use fairscore::{Error, Result};

/// Token accuracy of `token TAB tag` files, sentences separated by blank lines.
struct Accuracy;

fn sentences(path: &Path) -> Result<Vec<Vec<(String, String)>>> {
    let text = fairscore::io::read_text(path)?;
    let mut out = vec![Vec::new()];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            if out.last().is_some_and(|s| !s.is_empty()) {
                out.push(Vec::new());
            }
            continue;
        }
        let (tok, tag) = line
            .split_once('\t')
            .ok_or_else(|| Error::input(path, i + 1, "expected token TAB tag"))?;
        if let Some(s) = out.last_mut() {
            s.push((tok.to_string(), tag.to_string()));
        }
    }
    out.retain(|s| !s.is_empty());
    Ok(out)
}

/// Per sentence: the tokens whose tags are `same`, and the tokens.
fn accuracy_statistics(
    gold: &Path,
    pred: &Path,
    same: impl Fn(&str, &str) -> bool,
) -> Result<Statistics> {
    let (g, p) = (sentences(gold)?, sentences(pred)?);
    let mut s = Statistics::new(Unit::Sentence, 2, 0, Vec::new());
    for (gs, ps) in g.iter().zip(&p) {
        let right = gs.iter().zip(ps).filter(|(a, b)| same(&a.1, &b.1)).count();
        s.push_unit(vec![right as f64, gs.len() as f64]);
    }
    Ok(s)
}

impl Family for Accuracy {
    fn name(&self) -> &str {
        "accuracy"
    }
    fn formats(&self) -> &[&'static str] {
        &["tsv"]
    }
    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        accuracy_statistics(gold, pred, |a, b| a == b)
    }
    fn tables(&self, _: &Statistics, x: &[f64]) -> Vec<Table> {
        let mut t = Table::new(
            "accuracy",
            "Token accuracy",
            vec![KeyKind::Level],
            vec![
                Column::new("right", Kind::Count),
                Column::new("tokens", Kind::Count),
                Column::new("accuracy", Kind::Ratio),
            ],
        );
        let acc = if x[1] > 0.0 { x[0] / x[1] } else { 0.0 };
        t.push(
            vec!["all".into()],
            vec![
                Value::Count(x[0] as u64),
                Value::Count(x[1] as u64),
                Value::ratio(acc),
            ],
        );
        vec![t]
    }
    fn headline(&self) -> Headline {
        Headline {
            table: "accuracy".into(),
            row: vec!["all".into()],
            column: "accuracy".into(),
        }
    }
}

struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(name: &str) -> Files {
        let dir =
            std::env::temp_dir().join(format!("fairscore-family-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Files { dir }
    }
    /// A file of `n` sentences of 4 tokens; sentence i has `wrong(i)` wrong tags.
    fn write(&self, name: &str, n: usize, wrong: impl Fn(usize) -> usize) -> PathBuf {
        let mut text = String::new();
        for i in 0..n {
            for k in 0..4 {
                let tag = if k < wrong(i) { "X" } else { "N" };
                text.push_str(&format!("w{k}\t{tag}\n"));
            }
            text.push('\n');
        }
        let p = self.dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_family_defined_outside_the_crate_gets_every_table_format() {
    let f = Files::new("formats");
    let gold = f.write("gold.tsv", 10, |_| 0);
    let run = f.write("run.tsv", 10, |i| i % 3); // 0+1+2+0+1+2+0+1+2+0 = 9 of 40 wrong
    let r = family::evaluate(&Accuracy, &gold, &run, None).unwrap();
    let t = r.table("accuracy").unwrap();
    assert_eq!(
        t.row(&["all"]).unwrap().values[2],
        Value::Ratio(31.0 / 40.0)
    );
    let text = render(&r, TableFormat::Text).unwrap();
    assert!(text.contains("77.50"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&render(&r, TableFormat::Json).unwrap()).unwrap();
    assert_eq!(json["tables"][0]["rows"][0]["scores"]["accuracy"], 0.775);
    assert_eq!(json["unit"], "sentence");
    let csv = render(&r, TableFormat::Csv).unwrap();
    assert!(csv.starts_with("table,level,metric,value,lo,hi\n"), "{csv}");
    assert!(csv.contains("accuracy,all,accuracy,0.775,,\n"), "{csv}");
    assert!(render(&r, TableFormat::Tsv)
        .unwrap()
        .contains("accuracy\tall\tright\t31\t\t\n"));
    let md = render(&r, TableFormat::Markdown).unwrap();
    assert!(md.contains("| all | 31 | 40 | 77.50 |"), "{md}");
    let html = render(&r, TableFormat::Html).unwrap();
    assert!(
        html.contains(">77.50</td>") && html.contains("Token accuracy"),
        "{html}"
    );
}

#[test]
fn intervals_comparisons_and_rankings_come_from_the_interface() {
    let f = Files::new("stats");
    let gold = f.write("gold.tsv", 30, |_| 0);
    let a = f.write("a.tsv", 30, |i| usize::from(i % 5 == 0));
    let b = f.write("b.tsv", 30, |i| i % 3);
    let c = f.write("c.tsv", 30, |i| usize::from(i % 6 == 0));
    let rs = Resampler::new(2000, 7);
    let r = family::evaluate(&Accuracy, &gold, &a, Some(&rs)).unwrap();
    let row = r.table("accuracy").unwrap().row(&["all"]).unwrap().clone();
    let [lo, hi] = row.ci[2].unwrap();
    let acc = row.values[2].as_f64().unwrap();
    assert!(
        lo < acc && acc < hi && hi <= 1.0 && lo >= 0.75,
        "{lo} {acc} {hi}"
    );
    assert!(row.ci[0].is_none(), "counts get no interval");
    // The same seed gives the same interval.
    let again = family::evaluate(&Accuracy, &gold, &a, Some(&rs)).unwrap();
    assert_eq!(again, r);
    assert!(render(&r, TableFormat::Text)
        .unwrap()
        .contains("intervals: 95 % percentile bootstrap over sentences"));

    // A run against itself: no difference, p = 1; A against B: the difference of accuracies.
    let same = family::compare(&Accuracy, &gold, &a, &a, &rs, PairedTest::Permutation).unwrap();
    let t = &same.tables[0];
    assert_eq!(t.rows[0].values[2], Value::Ratio(0.0));
    assert_eq!(t.rows[0].values[5].as_f64(), Some(1.0));
    let ab = family::compare(&Accuracy, &gold, &a, &b, &rs, PairedTest::Bootstrap).unwrap();
    let d = ab.tables[0].rows[0].values[2].as_f64().unwrap();
    assert!((d - (114.0 / 120.0 - 90.0 / 120.0)).abs() < 1e-12, "{d}");
    assert!(ab.tables[0].rows[0].values[5].as_f64().unwrap() < 0.01);

    // A campaign ranking of three runs.
    let runs = vec![
        ("team-b".to_string(), b.clone()),
        ("team-a".to_string(), a.clone()),
        ("team-c".to_string(), c.clone()),
    ];
    let ranking = rank_runs(&Accuracy, &gold, &runs, None, Some(&rs)).unwrap();
    let names: Vec<&str> = ranking.runs.iter().map(|r| r.system.as_str()).collect();
    assert_eq!(names, ["team-c", "team-a", "team-b"]);
    assert!(
        ranking.runs[1].shares_first,
        "c and a differ by one token in 120"
    );
    assert!(!ranking.runs[2].shares_first);
    assert!(ranking.runs[2].p_top.unwrap() < 0.05);
    let table = ranking_results(&Accuracy, &ranking);
    let md = render(&table, TableFormat::Markdown).unwrap();
    assert!(md.contains("| team-c | 1 |"), "{md}");
    for fmt in TableFormat::ALL {
        assert!(!render(&table, fmt).unwrap().is_empty());
    }
}

#[test]
fn one_unit_gives_no_interval_but_says_why() {
    let f = Files::new("one");
    let gold = f.write("gold.tsv", 1, |_| 0);
    let run = f.write("run.tsv", 1, |_| 1);
    let e = family::evaluate(&Accuracy, &gold, &run, Some(&Resampler::new(100, 1))).unwrap_err();
    assert!(e.to_string().contains("at least two sentences"), "{e}");
}

/// The families of one campaign resample the same units of the same files: documents for a
/// CoNLL file with `-DOCSTART-` (its sentences are only where spans end), sentences without.
#[test]
fn span_families_share_their_units_on_conll_files() {
    let f = Files::new("units");
    let doc = |body: &str| format!("-DOCSTART- O\n\n{body}");
    let gold_text = doc("Anna B-PER\nlebt O\n\nBob B-PER\n. O\n\n")
        + &doc("Carl B-PER\nx O\n\nDora B-LOC\ny O\n");
    let run_text = gold_text
        .replace("Dora B-LOC", "Dora B-PER")
        .replace("Anna B-PER", "Anna O");
    let gold = f.dir.join("gold.conll");
    let run = f.dir.join("run.conll");
    std::fs::write(&gold, &gold_text).unwrap();
    std::fs::write(&run, &run_text).unwrap();
    let (flat_gold, flat_run) = (f.dir.join("flat-gold.conll"), f.dir.join("flat-run.conll"));
    std::fs::write(&flat_gold, gold_text.replace("-DOCSTART- O\n\n", "")).unwrap();
    std::fs::write(&flat_run, run_text.replace("-DOCSTART- O\n\n", "")).unwrap();
    let mut opts = family::Options::default();
    opts.set("format", "conll").unwrap();
    // A file that ends with a `-DOCSTART-` line has a last document without a sentence.
    let (ended_gold, ended_run) = (
        f.dir.join("ended-gold.conll"),
        f.dir.join("ended-run.conll"),
    );
    std::fs::write(&ended_gold, format!("{gold_text}-DOCSTART- O\n")).unwrap();
    std::fs::write(&ended_run, format!("{run_text}-DOCSTART- O\n")).unwrap();
    for name in ["spans", "fair", "muc"] {
        let fam = family::build(name, &opts).unwrap();
        let s = fam.statistics(&ended_gold, &ended_run).unwrap();
        assert_eq!((s.unit, s.len()), (Unit::Document, 3), "{name}");
        let s = fam.statistics(&gold, &run).unwrap();
        assert_eq!((s.unit, s.len()), (Unit::Document, 2), "{name}");
        let s = fam.statistics(&flat_gold, &flat_run).unwrap();
        assert_eq!((s.unit, s.len()), (Unit::Sentence, 4), "{name}");
    }
}

/// Token accuracy with an option of its own, `ignore-case`: registered here, and from then on
/// built by name like the crate's families.
struct CaseAccuracy {
    ignore_case: bool,
}

impl CaseAccuracy {
    fn new(opts: &family::Options) -> Result<Self> {
        opts.refuse_except("caseacc", &["ignore-case"])?;
        let ignore_case = match opts.own("ignore-case") {
            None | Some("no") => false,
            Some("yes") => true,
            Some(v) => return Err(Error::usage(format!("ignore-case: {v:?}: use yes or no"))),
        };
        Ok(CaseAccuracy { ignore_case })
    }
}

impl Family for CaseAccuracy {
    fn name(&self) -> &str {
        "caseacc"
    }
    fn formats(&self) -> &[&'static str] {
        &["tsv"]
    }
    fn statistics(&self, gold: &Path, pred: &Path) -> Result<Statistics> {
        accuracy_statistics(gold, pred, |a, b| {
            if self.ignore_case {
                a.eq_ignore_ascii_case(b)
            } else {
                a == b
            }
        })
    }
    fn tables(&self, stats: &Statistics, x: &[f64]) -> Vec<Table> {
        Accuracy.tables(stats, x)
    }
    fn headline(&self) -> Headline {
        Accuracy.headline()
    }
    fn signature_fields(&self) -> Vec<(String, String)> {
        let v = if self.ignore_case { "yes" } else { "no" };
        vec![("ignore-case".into(), v.into())]
    }
}

fn register_caseacc() {
    family::register(family::Registration {
        name: "caseacc",
        options: &["ignore-case"],
        build: |o| Ok(Box::new(CaseAccuracy::new(o)?)),
    })
    .unwrap();
}

#[test]
fn a_registered_family_with_an_option_of_its_own_reaches_every_front_end() {
    register_caseacc();
    // Registering it again is harmless; another family under a taken name is refused.
    register_caseacc();
    assert!(family::register(family::Registration {
        name: "spans",
        options: &[],
        build: |o| Ok(Box::new(CaseAccuracy::new(o)?)),
    })
    .is_err());
    assert!(family::names().contains(&"caseacc"));

    let f = Files::new("own-option");
    let gold = f.write("gold.tsv", 20, |_| 0);
    // A run whose tags differ from the gold's in case only (n for N): wrong unless ignored.
    let text = std::fs::read_to_string(&gold)
        .unwrap()
        .replace("\tN", "\tn");
    let lower = f.dir.join("lower.tsv");
    std::fs::write(&lower, text).unwrap();
    let strict_run = f.write("strict.tsv", 20, |i| usize::from(i % 4 == 0));

    // CLI-free evaluation, by name, with the option parsed by the one option parser.
    let mut opts = family::Options::default();
    opts.set("ignore_case", "yes").unwrap();
    let fam = family::build("caseacc", &opts).unwrap();
    let acc = |r: &fairscore::table::Results| {
        r.table("accuracy").unwrap().rows[0].values[2]
            .as_f64()
            .unwrap()
    };
    assert_eq!(
        acc(&family::evaluate(fam.as_ref(), &gold, &lower, None).unwrap()),
        1.0
    );
    let plain = family::build("caseacc", &family::Options::default()).unwrap();
    assert_eq!(
        acc(&family::evaluate(plain.as_ref(), &gold, &lower, None).unwrap()),
        0.0
    );
    let mut bad = family::Options::default();
    bad.set("ignore-case", "maybe").unwrap();
    assert!(family::build("caseacc", &bad).is_err());
    // The crate's families refuse the option: it is not theirs.
    assert!(family::build("segmentation", &opts).is_err());

    // Intervals and a comparison.
    let rs = Resampler::new(500, 3);
    let r = family::evaluate(fam.as_ref(), &gold, &strict_run, Some(&rs)).unwrap();
    let ci = r.table("accuracy").unwrap().rows[0].ci[2].unwrap();
    assert!(ci[0] < ci[1], "{ci:?}");
    let cmp = family::compare(
        fam.as_ref(),
        &gold,
        &lower,
        &strict_run,
        &rs,
        PairedTest::Permutation,
    )
    .unwrap();
    assert!(cmp.tables[0].rows[0].values[2].as_f64().unwrap() > 0.0);

    // The signature carries the option, through the front ends' settings.
    let mut s = fairscore::api::Settings::new();
    s.text("ignore_case", Some("yes"));
    let run = fairscore::api::run_family("caseacc", &s, &gold, &lower).unwrap();
    let sig = run.results.signature.unwrap().to_string();
    assert!(
        sig.starts_with("fairscore|family:caseacc|ignore-case:yes|resample:none|"),
        "{sig}"
    );

    // A campaign of the family, the option given in its task.
    let runs_dir = f.dir.join("runs");
    std::fs::create_dir_all(&runs_dir).unwrap();
    std::fs::copy(&lower, runs_dir.join("alpha_1.tsv")).unwrap();
    std::fs::copy(&strict_run, runs_dir.join("beta_1.tsv")).unwrap();
    let toml = "name = \"own option\"\n\n[[task]]\nname = \"acc\"\nfamily = \"caseacc\"\n\
                gold = \"gold.tsv\"\nruns = \"{team}_{run}.tsv\"\nignore-case = \"yes\"\n";
    let cfg_path = f.dir.join("campaign.toml");
    std::fs::write(&cfg_path, toml).unwrap();
    let cfg = fairscore::campaign::FamilyCampaign::parse(&cfg_path, toml).unwrap();
    let report = fairscore::campaign::run_family_campaign(&cfg, &f.dir, &runs_dir).unwrap();
    let ranking = &report.rankings[0];
    let order: Vec<&str> = ranking
        .ranking
        .runs
        .iter()
        .map(|r| r.system.as_str())
        .collect();
    assert_eq!(
        order[0], "alpha_1",
        "case ignored: alpha is right everywhere"
    );
    assert!(ranking.signature.to_string().contains("|ignore-case:yes|"));
}
