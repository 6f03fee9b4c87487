//! The options of the family commands (`segmentation`, `tagging`, `muc`, `fair`), of
//! `normalize`, and any family's scoring with resampling, from [`Settings`]: one parser for
//! the CLI and Python.

use std::path::Path;

use super::{family_options, resampling, Settings};
use crate::error::{snippet, Error, Result};
use crate::eval::fair::{parse_weights, FairOptions, ReadOptions};
use crate::eval::muc::MucOptions;
use crate::eval::segmentation::{SegmentationFormat, SegmentationOptions};
use crate::eval::tagging::{column_index, TaggingFormat, TaggingOptions};
use crate::family::sign::{signature, Resampled};
use crate::family::Family;
use crate::formats::{conllu, Format};
use crate::hipe::Edition;
use crate::matching::tagset::Tagset;
use crate::metrics::resample::Resampler;
use crate::normalize::{read_map, NormalizeOptions};
use crate::table::{Results, Signature};

/// Whether a family command gives the family table (and intervals): with `bootstrap` or
/// `table` given.
pub fn wants_family_table(s: &Settings) -> bool {
    s.has("bootstrap") || s.has("table")
}

/// Family `name` with its options and resampling from `s`, which must hold nothing else but
/// `table` and `json` (which the caller writes).
pub fn prepare_family(name: &str, s: &Settings) -> Result<(Box<dyn Family>, Option<Resampler>)> {
    let fam = crate::family::build(name, &family_options(s)?)?;
    let rs = resampling(s, "bootstrap", None)?;
    s.take("table");
    s.take("json");
    s.finish(name)?;
    Ok((fam, rs))
}

/// Scores `gold` and `pred` with family `name` as [`prepare_family`] makes it; the results
/// carry their signature.
pub fn run_family(name: &str, s: &Settings, gold: &Path, pred: &Path) -> Result<Results> {
    let (fam, rs) = prepare_family(name, s)?;
    let mut r = crate::family::evaluate(fam.as_ref(), gold, pred, rs.as_ref())?;
    let resampled = rs.as_ref().map(|x| Resampled {
        resampler: x,
        unit: r.unit,
        test: None,
    });
    r.signature = Some(signature(
        name,
        &family_options(s)?,
        resampled,
        gold,
        &[pred],
    )?);
    Ok(r)
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
    let opts = family_options(s)?;
    let fam = crate::family::build(name, &opts)?;
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
    signature(name, &opts, resampled, gold, runs)
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
        let v = match (matches!(n.as_str(), "tagset" | "relaxed") && p.is_file())
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

fn beta(s: &Settings) -> Result<Option<f64>> {
    s.get("beta")
        .map(|b| crate::family::options::parse_beta(&b))
        .transpose()
}

/// `segmentation`: format (auto, text, conllu; auto by the gold's extension) and beta.
pub fn segmentation_options(s: &Settings, gold: &Path) -> Result<SegmentationOptions> {
    let format = match s.get("format").as_deref() {
        None | Some("auto") => SegmentationFormat::from_path(gold),
        Some("text") => SegmentationFormat::Text,
        Some("conllu") => SegmentationFormat::Conllu,
        Some(f) => {
            return Err(Error::usage(format!(
                "format {}: segmentation reads text or conllu",
                snippet(f)
            )))
        }
    };
    Ok(SegmentationOptions {
        format,
        beta: beta(s)?,
    })
}

/// Refuses standoff files (brat, doccano, Label Studio, Prodigy) given to the `segmentation`
/// or `tagging` command (`family`) when its format is left to detection: they read token
/// files, and would misread a brat `.ann` as text.
pub fn refuse_standoff(s: &Settings, family: &str, gold: &Path, pred: &Path) -> Result<()> {
    match s.get("format").as_deref() {
        None | Some("auto") => crate::family::refuse_standoff(family, gold, pred),
        Some(_) => Ok(()),
    }
}

/// `tagging`: format (auto, conllu, tsv), column, tagset (a file or `nkjp`) and beta.
pub fn tagging_options(s: &Settings, gold: &Path) -> Result<TaggingOptions> {
    let format = match s.get("format").as_deref() {
        None | Some("auto") => TaggingFormat::from_path(gold),
        Some("conllu") => TaggingFormat::Conllu,
        Some("tsv") => TaggingFormat::Tsv,
        Some(f) => {
            return Err(Error::usage(format!(
                "format {}: tagging reads conllu or tsv",
                snippet(f)
            )))
        }
    };
    let column = match s.get("column") {
        Some(c) => column_index(&c, format)?,
        None => match format {
            TaggingFormat::Conllu => conllu::XPOS,
            TaggingFormat::Tsv => 1,
        },
    };
    Ok(TaggingOptions {
        format,
        column,
        tagset: s.get("tagset").as_deref().map(Tagset::load).transpose()?,
        beta: beta(s)?,
    })
}

/// `muc`: format (hipe, default, or conll), column, hipe_edition, beta (the caller sets
/// `judgements` when it writes them).
pub fn muc_options(s: &Settings) -> Result<MucOptions> {
    let format = match s.get("format").as_deref() {
        None | Some("hipe") => Format::Hipe,
        Some("conll") => Format::Conll,
        Some(f) => {
            return Err(Error::usage(format!(
                "format: unknown format {}; use hipe or conll",
                snippet(f)
            )))
        }
    };
    Ok(MucOptions {
        format,
        column: s.get("column"),
        edition: Edition::parse(&s.get("hipe_edition").unwrap_or_else(|| "hipe-2020".into()))?,
        beta: beta(s)?.unwrap_or(1.0),
        judgements: false,
    })
}

/// `fair`: the reading, focus, weights and label selection, and the β of the extra F column.
pub fn fair_options(s: &Settings) -> Result<(FairOptions, Option<f64>)> {
    let o = family_options(s)?;
    if let Some(f) = o.format {
        if f.corpus_format().is_none() && f.standoff().is_none() {
            return Err(Error::usage(format!(
                "format {f}: fair reads spans, conll, hipe, brat, doccano, labelstudio or prodigy"
            )));
        }
    }
    let mut read = ReadOptions {
        format: o
            .format
            .and_then(crate::formats::InputFormat::corpus_format),
        standoff: o.format.and_then(crate::formats::InputFormat::standoff),
        ignore_punct: o.ignore_punct,
        continuation: o.continuation.unwrap_or_default(),
        ..ReadOptions::default()
    };
    if let Some(c) = &o.column {
        read.columns = c
            .split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect();
    }
    Ok((
        FairOptions {
            read,
            focus: o.focus.unwrap_or_default(),
            weights: o.weights.as_deref().map(parse_weights).transpose()?,
            labels: o.labels.clone(),
            exclude: o.exclude.clone(),
        },
        o.beta,
    ))
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
