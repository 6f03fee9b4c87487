//! Whole campaigns: configuration (`config`, presets in `presets/`), finding runs
//! (`discover`), typed per-run score rows (`rows`), the official ranking files (`ranking`),
//! their intervals and significance marks (`marks`, with `bootstrap = N`) and the leaderboard
//! view (`board`) that [`crate::report`] renders as Markdown and HTML. `report` knows nothing
//! of campaigns: this layer builds its view types.
//!
//! A HIPE campaign is scored on the family engine as `hipe` tasks ([`score_official`]), or its
//! per-run outputs are given ([`replay_official`] reads them from a directory,
//! [`report_given`] takes them from any [`Source`]); either way the same code reports them.

pub(crate) mod board;
mod breakdown_grid;
pub(crate) mod codabench;
mod codabench_blind;
pub(crate) mod codabench_bundle;
mod codabench_kit;
pub(crate) mod codabench_outputs;
pub(crate) mod config;
pub(crate) mod confusion;
pub(crate) mod discover;
mod drill_part;
pub(crate) mod families;
pub(crate) mod family;
pub(crate) mod family_board;
pub(crate) mod family_page;
mod hipe_breakdowns;
mod hipe_plan;
mod hipe_report;
pub(crate) mod marks;
mod names;
mod num;
mod official;
pub(crate) mod outcome;
mod outdir;
pub(crate) mod ranking;
mod replay;
pub(crate) mod rows;
pub(crate) mod sign;
mod tables;

pub use config::{Campaign, CampaignDirs, Dataset, Name, Pattern, RankingSpec, SortKey, TaskSpec};
pub use confusion::ConfusionMatrix;
pub use discover::{Closeness, Rejected, RunInfo};
pub use hipe_report::Progress;
pub use marks::{Marks, RowMark};
pub use outcome::{CampaignReport, FailedRun, NotEvaluated, OfficialPages, RankingFile, ScoredRun};
pub use ranking::{build_ranking, rank, ranking_file_name, Ranked, RankingInput};
pub use replay::{replay_official, replayed, report_given, Given, Source};
pub use rows::{parse_table, ScoreRow};

pub use crate::hipe::{Edition, Task};
pub use board::{build as build_board, no_run_fits, InputNames};
pub use codabench::{score_submission, Verdict, DETAILED_FILE, SCORES_FILE};
pub use codabench_blind::Reveal;
pub use codabench_bundle::{
    placeholders, write_bundle, Bundle, BundleOptions, DEFAULT_IMAGE, DEFAULT_START,
};
pub use codabench_kit::portable_binary;
pub use codabench_outputs::write_outputs as write_codabench_outputs;
pub use config::PRESETS;
pub use families::insight::inspectable;
pub use families::{
    campaign_kind, run_family_campaign, run_family_campaign_with, CampaignHooks, FailedScoring,
    FamilyCampaign, FamilyReport, OfficialOutput, OnScored,
};
pub use families::{Insight, Pages};
pub use family::{rank_runs, ranking_results};
pub use family_board::write_family_outputs;
pub use hipe_report::{official_report, score_official};
pub use names::{fill as fill_pattern, pieces as pattern_pieces};
pub use official::{official_rankings, OfficialRuns};
