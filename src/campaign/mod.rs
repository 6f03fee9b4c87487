//! Whole campaigns: configuration ([`config`], presets in `presets/`), finding runs
//! (`discover`), scoring them in parallel with an injected scorer and writing every output
//! (`runner`), typed per-run score rows (`rows`), the official ranking files
//! (`ranking`), their intervals and significance marks (`marks`, with `bootstrap = N`) and
//! the leaderboard view ([`board`]) that [`crate::report`] renders as Markdown and HTML.
//! `report` knows nothing of campaigns: this layer builds its view types.
//!
//! The scorer is a plain function `Fn(&ScoreJob) -> Result<JobOutput>`: the campaign layer
//! knows nothing of how a run is scored. [`scorer::JobScorer`] is the real one;
//! [`replay_scorer`] serves outputs computed earlier (e.g. the official ones).

pub mod board;
pub mod codabench;
pub mod codabench_bundle;
pub mod codabench_outputs;
pub mod config;
pub(crate) mod confusion;
pub(crate) mod discover;
pub mod families;
pub mod family;
pub mod family_board;
pub(crate) mod family_page;
pub(crate) mod job;
pub(crate) mod marks;
mod names;
mod num;
pub(crate) mod outcome;
mod outdir;
pub(crate) mod ranking;
pub(crate) mod rows;
pub(crate) mod runner;
pub mod scorer;
pub(crate) mod sign;
mod tables;

pub use config::{Campaign, Dataset, Name, Pattern, RankingSpec, SortKey, TaskSpec};
pub use confusion::ConfusionMatrix;
pub use discover::{Closeness, Rejected, RunInfo};
pub use job::{replay_scorer, CampaignDirs, JobOutput, ScoreJob, Scorer};
pub use marks::{Marks, RowMark};
pub use outcome::{CampaignReport, FailedRun, NotEvaluated, RankingFile, ScoredRun};
pub use ranking::{build_ranking, rank, ranking_file_name, Ranked, RankingInput};
pub use rows::{parse_table, ScoreRow};
pub use runner::{run_campaign, run_campaign_with, Progress, RunOptions};

pub use crate::hipe::{Edition, Task};
