//! What a family campaign does beside scoring and ranking: a hook called as each run is
//! scored, where results go, how much of them is kept, and the cache of inputs to share.

use std::path::Path;

use super::FamilyTask;
use crate::error::Result;

/// What is done with each run's statistics as soon as it is scored, before it is ranked:
/// (task, system, gold file, run file, statistics). An output error stops the campaign; any
/// other error fails the run.
pub type OnScored<'a> =
    dyn Fn(&FamilyTask, &str, [&Path; 2], &mut crate::family::Statistics) -> Result<()> + Sync + 'a;

/// What a family campaign does beside scoring and ranking.
#[derive(Default, Clone, Copy)]
pub struct CampaignHooks<'a> {
    /// Called with each run's statistics as it is scored (a HIPE campaign writes its
    /// official per-run files there: [`crate::campaign::OfficialRuns`]).
    pub on_scored: Option<&'a OnScored<'a>>,
    /// The output directory: each ranked run's results are written to `runs/` as soon as its
    /// task is ranked, and only what the reports read is kept, so that memory does not grow
    /// with the number of runs ([`crate::campaign::write_family_outputs`] then writes the rest).
    pub outdir: Option<&'a Path>,
    /// The caller reads nothing of the runs' results but their headline values (a HIPE
    /// campaign's reports come from its official rows, kept by `on_scored`): each run's
    /// results are cut to the headline row as it is scored, so that memory does not grow
    /// with the number of runs.
    pub headline_only: bool,
    /// The cache of parsed inputs and content hashes to use (one of the campaign's own when
    /// `None`): a caller that hashes the same files afterwards finds them there.
    pub inputs: Option<&'a crate::family::Inputs>,
}
