//! The signatures of campaigns ([`crate::table::Signature`]): for a HIPE campaign, the
//! edition, the resampling of the marks, one hash over the gold files scored against, one
//! over the runs ranked and the fairscore version; for a family task, the family signature
//! with one hash over its runs (each run's own hash is in `leaderboard.json`).

use std::path::{Path, PathBuf};

use super::config::Campaign;
use super::outcome::CampaignReport;
use crate::error::Result;
use crate::family::sign::{resampling_fields, set_hash, Resampled};
use crate::table::{Signature, Unit};

/// How a file's content hash is had ([`crate::family::sign::file_hash`], or a cache of the hashes computed while
/// the files were scored: [`crate::family::Inputs::file_hash`]).
pub type Hasher<'a> = dyn Fn(&Path) -> Result<String> + 'a;

/// One hash over files, each named by its file name (the order of `paths` does not matter),
/// each file's hash had from `hash`.
pub fn files_hash(paths: &[&Path], hash: &Hasher<'_>) -> Result<String> {
    let mut items: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((name, hash(p)?))
        })
        .collect::<Result<_>>()?;
    items.sort();
    Ok(set_hash(&items))
}

/// The signature of a HIPE campaign: `golds` are the gold files scored against; the files'
/// content hashes are had from `hash`.
pub fn hipe_signature(
    cfg: &Campaign,
    report: &CampaignReport,
    golds: &[PathBuf],
    hash: &Hasher<'_>,
) -> Result<Signature> {
    let mut sig = Signature::new();
    sig.push("family", "hipe");
    sig.push("edition", report.edition.name());
    sig.push("scorer", "official");
    let resampled = cfg.bootstrap.as_ref().map(|r| Resampled {
        resampler: r,
        unit: Unit::Document,
        test: Some(crate::metrics::resample::PairedTest::Permutation),
    });
    resampling_fields(resampled, &mut sig);
    let gold: Vec<&Path> = golds.iter().map(PathBuf::as_path).collect();
    sig.push("gold", files_hash(&gold, hash)?);
    let runs: Vec<&Path> = report.scored.iter().map(|r| r.run.path.as_path()).collect();
    sig.push("runs", runs.len().to_string());
    sig.push("run", files_hash(&runs, hash)?);
    sig.push("version", env!("CARGO_PKG_VERSION"));
    Ok(sig)
}
