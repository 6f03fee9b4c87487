//! Any family's scoring (the `evaluate`, `fair`, `muc`, `segmentation` and `tagging`
//! commands) with resampling and listing, and the options of `normalize`, from [`Settings`]:
//! one parser for the CLI and Python; the options of `convert`.

use std::path::Path;

use super::{family_options, resampling, Settings};
use crate::convert::{read_type_map, ConvertOptions, TypeChanges};
use crate::error::{snippet, Error, Result};
use crate::family::sign::{signature, Resampled};
use crate::family::Family;
use crate::formats::InputFormat;
use crate::hipe::Edition;
use crate::metrics::resample::Resampler;
use crate::normalize::{read_map, NormalizeOptions};
use crate::spans::encoding::{Encoding, Repair};
use crate::table::{Results, Signature};

/// A family scoring made ready from settings: the family, its options and resampling, and
/// the file its listing goes to when one was asked for. It is `Send`: the Python bindings run
/// it on a worker thread.
pub struct FamilyPlan {
    fam: Box<dyn Family>,
    resampler: Option<Resampler>,
    listing: Option<(&'static str, std::path::PathBuf)>,
}

impl FamilyPlan {
    /// The setting that named the family's listing (`errors` for fair, `judgements` for muc)
    /// and the file it goes to, when one was asked for.
    pub fn listing(&self) -> Option<(&'static str, &Path)> {
        self.listing.as_ref().map(|(n, p)| (*n, p.as_path()))
    }
}

/// What a family scoring gives the front ends: the results, carrying their signature, and the
/// family's listing when the plan asked for one.
pub struct FamilyRun {
    /// The family's tables (and details) with provenance and signature.
    pub results: Results,
    /// The listing's text (TSV) when [`FamilyPlan::listing`] is set.
    pub listing: Option<String>,
}

/// Family `name` with its options, resampling and listing file from `s`, which must hold
/// nothing else but `table` and `json` (which the caller writes).
pub fn family_plan(name: &str, s: &Settings) -> Result<FamilyPlan> {
    let mut opts = family_options(s)?;
    let mut fam = crate::family::build(name, &opts)?;
    let listing = fam
        .listing_name()
        .and_then(|n| Some((n, std::path::PathBuf::from(s.get(n)?))));
    if listing.is_some() {
        opts.listing = true;
        fam = crate::family::build(name, &opts)?;
    }
    let resampler = resampling(s, "bootstrap", None)?;
    s.take("table");
    s.take("json");
    s.finish(name)?;
    Ok(FamilyPlan {
        fam,
        resampler,
        listing,
    })
}

/// Scores `gold` and `pred` as `plan` says; the results carry their signature.
pub fn run_family_plan(plan: &FamilyPlan, gold: &Path, pred: &Path) -> Result<FamilyRun> {
    let fam = plan.fam.as_ref();
    let (mut stats, [gold_hash, run_hash]) = fam.statistics_hashed(gold, pred)?;
    let listing = stats.listing.take();
    let mut results = crate::family::scored(fam, &stats, plan.resampler.as_ref())?;
    let resampled = plan.resampler.as_ref().map(|x| Resampled {
        resampler: x,
        unit: results.unit,
        test: None,
    });
    results.signature = Some(crate::family::sign::signature_of(
        fam,
        resampled,
        gold_hash,
        &[run_hash],
    ));
    Ok(FamilyRun { results, listing })
}

/// The mentions family on gold units and run records in memory (`fairscore.mentions`, for
/// evaluation inside a generation loop): JSON values as the lines of the gold's and the run's
/// JSONL files, or entity lists, or raw answers (see
/// [`MentionsFamily::statistics_in_memory`](crate::family::MentionsFamily::statistics_in_memory)).
/// `s` holds the family's options and resampling. The signature's `gold` and `run` are the
/// hashes of the values written as compact JSON, one a line (those of a file written so).
pub fn run_mentions_in_memory(
    s: &Settings,
    gold: &[serde_json::Value],
    run: &[serde_json::Value],
) -> Result<Results> {
    let opts = family_options(s)?;
    let fam = crate::family::MentionsFamily::new(&opts)?;
    let resampler = resampling(s, "bootstrap", None)?;
    s.take("table");
    s.take("json");
    s.finish("mentions")?;
    let stats = fam.statistics_in_memory(gold, run)?;
    let mut results = crate::family::scored(&fam, &stats, resampler.as_ref())?;
    let mut sig = crate::family::signature_head(&fam);
    crate::family::resampling_fields(
        resampler.as_ref().map(|x| Resampled {
            resampler: x,
            unit: results.unit,
            test: None,
        }),
        &mut sig,
    );
    let hash = |vs: &[serde_json::Value]| {
        let mut text = String::new();
        for v in vs {
            text.push_str(&v.to_string());
            text.push('\n');
        }
        crate::table::signature::short_hash(text.as_bytes())
    };
    sig.push("gold", hash(gold));
    sig.push("run", hash(run));
    sig.push("version", env!("CARGO_PKG_VERSION"));
    results.signature = Some(sig);
    Ok(results)
}

/// [`family_plan`] and [`run_family_plan`] in one call.
pub fn run_family(name: &str, s: &Settings, gold: &Path, pred: &Path) -> Result<FamilyRun> {
    run_family_plan(&family_plan(name, s)?, gold, pred)
}

/// `fairscore inspect`: the fair evaluation of `pred` against `gold` laid out for reading
/// ([`crate::eval::fair::Inspection`]), with the fair family's options from `s` (as `evaluate
/// --family fair` takes them) and its signature.
pub fn inspect(s: &Settings, gold: &Path, pred: &Path) -> Result<crate::eval::fair::Inspection> {
    let opts = family_options(s)?;
    s.finish("inspect")?;
    crate::family::fair::inspect(&opts, gold, pred)
}

/// The signature of scoring `runs` (one, or two for a comparison with `test`) against `gold`
/// with family `name` and the family options and resampling of `s` (with `default_samples`
/// resamples when none is given, as `compare` has), without scoring: with resampling, the
/// unit is read from the files.
pub fn family_signature(
    name: &str,
    s: &Settings,
    gold: &Path,
    runs: &[&Path],
    default_samples: Option<usize>,
    test: Option<crate::metrics::resample::PairedTest>,
) -> Result<Signature> {
    let fam = crate::family::build(name, &family_options(s)?)?;
    let rs = resampling(s, "bootstrap", default_samples)?;
    let unit = match (&rs, runs.first()) {
        (Some(_), Some(run)) => Some(fam.statistics(gold, run)?.unit),
        _ => None,
    };
    let resampled = rs.as_ref().zip(unit).map(|(x, unit)| Resampled {
        resampler: x,
        unit,
        test,
    });
    signature(fam.as_ref(), resampled, gold, runs)
}

/// Settings of `score` and `compare` that name outputs or checks, not how numbers are made.
const NOT_SIGNED: [&str; 10] = [
    "outdir",
    "log",
    "errors",
    "json",
    "table",
    "skip_check",
    "suffix",
    "summary",
    "bootstrap",
    "samples",
];

/// The signature of a HIPE scoring (`score`, or `compare` with `test`) of `runs` against
/// `gold`: `family:hipe`, the task and edition (defaults written out), every other setting
/// given that changes the numbers, in the order given (a file by its content hash), the
/// resampling (`default_samples` when none is given), the hashes and the version.
pub fn hipe_signature(
    s: &Settings,
    gold: &Path,
    runs: &[&Path],
    default_samples: Option<usize>,
    test: Option<crate::metrics::resample::PairedTest>,
) -> Result<Signature> {
    use crate::family::sign::{file_hash, input_fields, resampling_fields};
    let mut sig = Signature::new();
    sig.push("family", "hipe");
    sig.push(
        "task",
        s.get("task").unwrap_or_else(|| "nerc_coarse".into()),
    );
    sig.push(
        "edition",
        Edition::parse(&s.get("hipe_edition").unwrap_or_else(|| "hipe-2020".into()))?.name(),
    );
    let rs = resampling(s, "bootstrap", default_samples)?;
    let names: Vec<String> = s.names().map(str::to_string).collect();
    for n in names {
        if matches!(n.as_str(), "task" | "hipe_edition" | "seed" | "confidence")
            || NOT_SIGNED.contains(&n.as_str())
        {
            continue;
        }
        let Some(v) = s.get(&n) else { continue };
        let p = Path::new(&v);
        let v = match (matches!(n.as_str(), "tagset" | "relaxed" | "map_types") && p.is_file())
            .then(|| file_hash(p))
        {
            Some(h) => format!("file-{}", h?),
            None => v,
        };
        sig.push(&n.replace('_', "-"), v);
    }
    let resampled = rs.as_ref().map(|r| Resampled {
        resampler: r,
        unit: crate::table::Unit::Document,
        test,
    });
    resampling_fields(resampled, &mut sig);
    input_fields(gold, runs, &mut sig)?;
    Ok(sig)
}

/// `normalize`: norm_time, norm_histo (needs map), map, union_interleave, union_meto_lit (the
/// official no-op), hipe_edition.
pub fn normalize_options(s: &Settings) -> Result<NormalizeOptions> {
    let edition = Edition::parse(&s.get("hipe_edition").unwrap_or_else(|| "hipe-2020".into()))?;
    let mut opts = NormalizeOptions::for_edition(edition);
    opts.norm_time = s.switch("norm_time")?;
    opts.union_interleave = s.switch("union_interleave")?;
    s.switch("union_meto_lit")?;
    let histo = s.switch("norm_histo")?;
    match (s.get("map"), histo) {
        (Some(m), true) => opts.map = Some(read_map(Path::new(&m))?),
        (None, true) => return Err(Error::usage("norm_histo needs map MAP")),
        (Some(_), false) => {
            return Err(Error::usage("map is used with norm_histo; add norm_histo"))
        }
        (None, false) => {}
    }
    Ok(opts)
}

/// `convert`: format (input, default detected), out_format (default the input's), from and
/// to (tag encodings), column, repair (conlleval or discard), map_types (a JSON type map
/// file), keep_types and remove_types (comma-separated).
pub fn convert_options(s: &Settings) -> Result<ConvertOptions> {
    let format = |name: &str| -> Result<Option<InputFormat>> {
        match s.get(name) {
            None => Ok(None),
            Some(f) if f.eq_ignore_ascii_case("auto") => Ok(None),
            Some(f) => f.parse::<InputFormat>().map(Some).map_err(|e| match e {
                Error::Usage(m) => {
                    Error::usage(format!("{name}: {}", m.trim_start_matches("format: ")))
                }
                e => e,
            }),
        }
    };
    let encoding = |name: &str| -> Result<Option<Encoding>> {
        match s.get(name) {
            None => Ok(None),
            Some(e) => Encoding::parse(&e).map(Some).ok_or_else(|| {
                Error::usage(format!(
                    "{name}: unknown encoding {}; use BIO (IOB2), IOB (IOB1), BIOES (IOBES), \
                     BILOU, BMES, BMEOW or IO",
                    snippet(&e)
                ))
            }),
        }
    };
    let repair = match s.get("repair") {
        None => None,
        Some(r) => Some(Repair::parse(&r).ok_or_else(|| {
            Error::usage(format!(
                "repair: unknown repair {}; use conlleval or discard",
                snippet(&r)
            ))
        })?),
    };
    let mut types = TypeChanges::default();
    types.set_lists(
        s.get("keep_types").as_deref(),
        s.get("remove_types").as_deref(),
    )?;
    if let Some(m) = s.get("map_types") {
        types.map = read_type_map(Path::new(&m))?;
    }
    // A generative run placed on the texts of `onto` (its gold).
    let aligned = match (s.get("onto"), s.get("align")) {
        (None, None) => None,
        (Some(gold), Some(align)) => {
            let mut o = crate::family::Options::default();
            o.set("align", &align)?;
            for k in ["parser", "unit", "align_threshold"] {
                if let Some(v) = s.get(k) {
                    o.set(k, &v)?;
                }
            }
            o.column = s.get("column");
            let r = crate::family::aligned_converter(&o)?;
            Some((std::path::PathBuf::from(gold), r))
        }
        (None, Some(_)) => {
            return Err(Error::usage(
                "align: convert places a generative run on the texts of its gold: give the gold as onto",
            ))
        }
        (Some(_), None) => {
            return Err(Error::usage(
                "onto: goes with align exact, case or fuzzy (a generative run placed on the gold's texts)",
            ))
        }
    };
    if aligned.is_some() && s.has("format") {
        return Err(Error::usage(
            "format: a generative run is JSONL entity lists; its gold's format is detected",
        ));
    }
    Ok(ConvertOptions {
        aligned,
        input_format: format("format")?,
        output_format: format("out_format")?,
        from: encoding("from")?,
        to: encoding("to")?,
        column: s.get("column"),
        repair,
        types,
    })
}
