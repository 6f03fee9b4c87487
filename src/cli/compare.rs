//! `fairscore compare`: paired significance test and interval of the difference between two
//! runs on the same gold: HIPE/CoNLL runs scored as `score` scores them, or any family's runs
//! with `--family`.

use clap::Args;
use fairscore::api;
use fairscore::{Error, Result};
use std::path::PathBuf;

use super::args::{
    settings, FamilyFlag, Gold, Json, Pred, Resampling, SignatureFlag, TableFlag, TestFlag,
};
use super::family_flags::FamilyOptionFlags;

/// The arguments of `fairscore compare`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  fairscore compare --gold gold.tsv --pred a.tsv --pred b.tsv \
--task nerc_coarse --hipe_edition hipe-2022 --json a_vs_b.json\n  fairscore compare --family \
segmentation --gold gold.txt --pred a.txt --pred b.txt"
)]
pub struct CompareArgs {
    #[command(flatten)]
    pub gold: Gold,
    #[command(flatten)]
    pub pred: Pred,
    #[command(flatten)]
    pub family: FamilyFlag,
    #[command(flatten)]
    pub opts: FamilyOptionFlags,
    #[command(flatten)]
    pub test: TestFlag,
    #[command(flatten)]
    pub resampling: Resampling,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub table: TableFlag,
    #[command(flatten)]
    pub signature: SignatureFlag,
}

fn two(args: &CompareArgs) -> Result<(&PathBuf, &PathBuf)> {
    match args.pred.pred.as_slice() {
        [a, b] => Ok((a, b)),
        v => Err(Error::usage(format!(
            "pred: give exactly two runs (--pred A --pred B), not {}",
            v.len()
        ))),
    }
}

/// `compare --family F`: any family's runs, paired unit by unit.
fn run_family(args: &CompareArgs, name: &str) -> Result<i32> {
    let (a, b) = two(args)?;
    let s = settings(&[&args.opts, &args.resampling, &args.test]);
    let fam = fairscore::family::build(name, &api::family_options(&s)?)?;
    let rs = api::resampling(&s, "bootstrap", Some(10_000))?
        .ok_or_else(|| Error::usage("bootstrap: no resampling"))?;
    let test = api::paired_test(&s)?;
    s.finish(&format!("compare --family {name}"))?;
    if args.signature.signature {
        return super::print_signature(
            name,
            &s,
            &args.gold.gold,
            &[a.as_path(), b.as_path()],
            Some(10_000),
            Some(test),
        );
    }
    let train = args
        .opts
        .spans
        .breakdown
        .train
        .as_ref()
        .map(std::path::PathBuf::from);
    let mut inputs = vec![
        ("--gold", args.gold.gold.as_path()),
        ("--pred", a.as_path()),
        ("--pred", b.as_path()),
    ];
    inputs.extend(train.as_deref().map(|p| ("--train", p)));
    let spinner = super::progress::Progress::spinner(false, "scoring and resampling");
    let mut results = fairscore::family::compare(fam.as_ref(), &args.gold.gold, a, b, &rs, test)?;
    spinner.finish();
    let resampled = fairscore::family::Resampled {
        resampler: &rs,
        unit: results.unit,
        test: Some(test),
    };
    results.signature = Some(fairscore::family::signature(
        fam.as_ref(),
        Some(resampled),
        &args.gold.gold,
        &[a.as_path(), b.as_path()],
    )?);
    super::family_output(&results, &args.json, &args.table, &inputs, None)
}

pub fn run(args: CompareArgs) -> Result<i32> {
    if let Some(name) = args.family.family.clone() {
        return run_family(&args, &name);
    }
    let (a, b) = two(&args)?;
    let reference = &args.gold.gold;
    let tagset = args.opts.tagset.tagset.as_ref().map(PathBuf::from);
    let mut inputs = vec![
        ("--gold", reference.as_path()),
        ("--pred", a.as_path()),
        ("--pred", b.as_path()),
    ];
    inputs.extend(tagset.as_deref().map(|p| ("--tagset", p)));
    let json = args
        .json
        .json
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"));
    if let Some(out) = json {
        fairscore::io::check_outputs(&inputs, &[("--json", out)], &[])?;
    }
    if args.opts.beta.beta.is_some() {
        return Err(Error::usage(
            "beta goes with --family; compare of HIPE or CoNLL runs scores F1",
        ));
    }
    // Every family option is put, so that one this path does not read (a spans, fair, nel or
    // mentions flag, --hipe, --normalize-run) is refused by `finish`, never ignored.
    let s = settings(&[&args.opts, &args.test, &args.resampling]);
    let (opts, copts) = api::compare_options(&s)?;
    s.finish("compare of HIPE or CoNLL runs; it goes with --family")?;
    let sig = api::hipe_signature(
        &s,
        reference,
        &[a.as_path(), b.as_path()],
        Some(10_000),
        Some(copts.test),
    )?;
    if args.signature.signature {
        super::print(&format!("{sig}\n"))?;
        return Ok(0);
    }
    let spinner = super::progress::Progress::spinner(false, "scoring and resampling");
    let result = fairscore::compare_paths(reference, a, b, &opts, &copts)?;
    spinner.finish();
    let mut results = fairscore::report::compare_results(&result);
    results.signature = Some(sig);
    if args.table.table.is_some() || args.json.json.as_deref() == Some(std::path::Path::new("-")) {
        return super::family_output(&results, &args.json, &args.table, &inputs, None);
    }
    // The default text is the comparison's own table, with the result table's JSON.
    for w in &result.warnings {
        eprintln!("fairscore: warning: {}", fairscore::io::escape_controls(w));
    }
    if let Some(out) = json {
        let text = fairscore::report::render(&results, fairscore::table::TableFormat::Json)?;
        fairscore::io::write_atomic(out, text.as_bytes())?;
    }
    super::print(&fairscore::report::compare_table(&result))?;
    Ok(0)
}
