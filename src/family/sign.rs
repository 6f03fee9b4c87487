//! The signature of a family scoring ([`crate::table::Signature`]): the family, its options as
//! the family applies them (defaults written out where the family has one), the resampling,
//! short content hashes of the gold and run files and the fairscore version.

use std::path::Path;

use super::Options;
use crate::error::Result;
use crate::metrics::resample::{PairedTest, Resampler};
use crate::table::signature::short_hash;
use crate::table::{Signature, Unit};

/// How the numbers were resampled, for the signature.
#[derive(Debug, Clone, Copy)]
pub struct Resampled<'a> {
    /// The resampler.
    pub resampler: &'a Resampler,
    /// The unit resampled.
    pub unit: Unit,
    /// The paired test (comparisons only).
    pub test: Option<PairedTest>,
}

/// The short content hash of a file (read through the input guard); of a directory of brat
/// pairs, the hash of every `.ann` and `.txt` by relative path; of a brat `.ann` file (by its
/// extension or content) beside its `.txt`, the hash of both, as for a directory of that
/// one pair (the offsets refer to the text: another text is another input).
pub fn file_hash(path: &Path) -> Result<String> {
    if path.is_dir() {
        let mut items = Vec::new();
        for rel in crate::formats::brat::ann_files(path)? {
            let ann = path.join(&rel);
            let txt = crate::formats::brat::text_path(&ann);
            items.push((rel.clone(), short_hash(&crate::io::read_input(&ann)?)));
            items.push((
                format!("{rel}.txt"),
                short_hash(&crate::io::read_input(&txt)?),
            ));
        }
        return Ok(set_hash(&items));
    }
    bytes_hash(path, &crate::io::read_input(path)?)
}

/// [`file_hash`] of a file (not a directory) whose bytes were read already.
pub(crate) fn bytes_hash(path: &Path, bytes: &[u8]) -> Result<String> {
    let txt = crate::formats::brat::text_path(path);
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]);
    let brat =
        path.extension().is_some_and(|x| x == "ann") || crate::formats::brat::looks_like_ann(&head);
    if brat && txt != path && txt.is_file() {
        let rel = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Ok(set_hash(&[
            (rel.clone(), short_hash(bytes)),
            (
                format!("{rel}.txt"),
                short_hash(&crate::io::read_input(&txt)?),
            ),
        ]));
    }
    Ok(short_hash(bytes))
}

/// The content hashes an agreement's signature names: each annotator's input in report order
/// (a brat folder or file with its texts, a JSON export) and the project's `annotation.conf`
/// when it has one. Made apart from [`agree_signature`] so that `agree` can hash its inputs
/// while it reads them.
#[derive(Debug, Clone)]
pub struct AgreeHashes {
    inputs: Vec<String>,
    conf: Option<String>,
}

/// Hashes `agree`'s inputs (see [`AgreeHashes`]).
pub fn agree_hashes(inputs: &[&Path], conf: Option<&Path>) -> Result<AgreeHashes> {
    Ok(AgreeHashes {
        conf: conf.map(file_hash).transpose()?,
        inputs: inputs
            .iter()
            .map(|p| file_hash(p))
            .collect::<Result<Vec<_>>>()?,
    })
}

/// The signature of an agreement (`agree`): family `agree`, the format (`auto` unless given),
/// the hash of the project's `annotation.conf` when it has one, the annotators in report
/// order with a hash of each one's input ([`agree_hashes`]), the version.
pub fn agree_signature(
    format: Option<&str>,
    annotators: &[String],
    hashes: &AgreeHashes,
) -> Signature {
    let mut sig = Signature::new();
    sig.push("family", "agree");
    sig.push("format", format.unwrap_or("auto"));
    if let Some(c) = &hashes.conf {
        sig.push("conf", c.clone());
    }
    sig.push("annotators", annotators.join(","));
    sig.push("inputs", hashes.inputs.join(","));
    sig.push("version", env!("CARGO_PKG_VERSION"));
    sig
}

/// One short hash over several (name, hash) pairs, in the order given: the hash of a run set.
pub fn set_hash(items: &[(String, String)]) -> String {
    let mut text = String::new();
    for (n, h) in items {
        text.push_str(n);
        text.push('\t');
        text.push_str(h);
        text.push('\n');
    }
    short_hash(text.as_bytes())
}

/// The common option fields of `opts` in a fixed order (column, tagset, regimes, weights,
/// labels, exclude), then `extra` (a family's own fields), then format and beta: what a family
/// returns from [`super::Family::signature_fields`].
pub fn option_fields(opts: &Options, extra: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |n: &str, v: String| out.push((n.to_string(), v));
    if let Some(c) = &opts.column {
        push("column", c.clone());
    }
    if let Some(t) = &opts.tagset {
        // A tag set file by its content, a preset by its name.
        let p = Path::new(t);
        let v = match p.is_file().then(|| file_hash(p)) {
            Some(Ok(h)) => format!("file-{h}"),
            _ => t.clone(),
        };
        push("tagset", v);
    }
    if let Some(r) = &opts.regimes {
        let names: Vec<&str> = r.iter().map(|x| x.json_name()).collect();
        push("regimes", names.join(","));
    }
    if let Some(w) = &opts.weights {
        let v = crate::eval::weights::parse_weights(w)
            .map(|w| crate::eval::weights::format_weights(&w))
            .unwrap_or_else(|_| w.clone());
        push("weights", v);
    }
    if let Some(l) = &opts.labels {
        push("labels", l.join(","));
    }
    if !opts.exclude.is_empty() {
        push("exclude", opts.exclude.join(","));
    }
    out.extend(crate::convert::signature_fields(opts.repair, &opts.types));
    out.extend(extra);
    out.push((
        "format".into(),
        opts.format.map_or("auto", |f| f.name()).into(),
    ));
    out.push(("beta".into(), format!("{}", opts.beta())));
    out
}

/// The signature of a scoring of `runs` against `gold` by `fam`: its name, the fields it
/// declares ([`super::Family::signature_fields`]), the resampling, the hashes and the version.
///
/// ```
/// # fn main() -> fairscore::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}-{}", "signature", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let gold = dir.join("gold.txt");
/// # std::fs::write(&gold, "ab cd\n").unwrap();
/// # let run = dir.join("run.txt");
/// # std::fs::write(&run, "abcd\n").unwrap();
/// use fairscore::{build_family, signature, Options};
///
/// let seg = build_family("segmentation", &Options::default())?;
/// let sig = signature(seg.as_ref(), None, &gold, &[run.as_path()])?.to_string();
/// assert!(sig.starts_with("fairscore|family:segmentation|"));
/// assert!(sig.contains("|resample:none|") && sig.contains("|gold:"));
/// # Ok(())
/// # }
/// ```
pub fn signature(
    fam: &dyn super::Family,
    resampled: Option<Resampled<'_>>,
    gold: &Path,
    runs: &[&Path],
) -> Result<Signature> {
    let mut sig = head(fam);
    resampling_fields(resampled, &mut sig);
    input_fields(gold, runs, &mut sig)?;
    Ok(sig)
}

/// [`signature`] of inputs hashed already ([`file_hash`]: the gold's, the runs'), as
/// [`super::Family::statistics_hashed`] gives them.
pub fn signature_of(
    fam: &dyn super::Family,
    resampled: Option<Resampled<'_>>,
    gold: String,
    runs: &[String],
) -> Signature {
    let mut sig = head(fam);
    resampling_fields(resampled, &mut sig);
    hash_fields(gold, runs, &mut sig);
    sig
}

/// The opening fields of a family's signatures: `family` and the fields it declares.
pub fn head(fam: &dyn super::Family) -> Signature {
    let mut sig = Signature::new();
    sig.push("family", fam.name());
    for (n, v) in fam.signature_fields() {
        sig.push(&n, v);
    }
    sig
}

/// The closing fields of every scoring's signature: the gold's and the runs' hashes and the
/// fairscore version.
pub fn input_fields(gold: &Path, runs: &[&Path], sig: &mut Signature) -> Result<()> {
    let gold = file_hash(gold)?;
    let hashes = runs
        .iter()
        .map(|r| file_hash(r))
        .collect::<Result<Vec<_>>>()?;
    hash_fields(gold, &hashes, sig);
    Ok(())
}

/// [`input_fields`] of the hashes made already.
fn hash_fields(gold: String, runs: &[String], sig: &mut Signature) {
    sig.push("gold", gold);
    sig.push("run", runs.join(","));
    sig.push("version", env!("CARGO_PKG_VERSION"));
}

/// The resampling fields: `resample:none`, or `resample:bootstrap|n|seed|conf|resample-unit` (and
/// `test` for comparisons).
pub fn resampling_fields(resampled: Option<Resampled<'_>>, sig: &mut Signature) {
    match resampled {
        None => sig.push("resample", "none"),
        Some(r) => {
            sig.push("resample", "bootstrap");
            sig.push("n", r.resampler.samples.to_string());
            sig.push("seed", r.resampler.seed.to_string());
            sig.push("conf", format!("{}", r.resampler.confidence));
            // Not `unit`: a family may have an option of that name (mentions, and the span
            // families' generative runs), which would then be named twice (issue 47.7).
            sig.push("resample-unit", r.unit.name());
            if let Some(t) = r.test {
                sig.push("test", t.name());
            }
        }
    }
}
