//! `fairscore leaderboard` (work in progress).

use clap::Args;

#[derive(Args, Debug)]
pub struct LeaderboardArgs {}

pub fn run(_args: LeaderboardArgs) -> fairscore::Result<i32> {
    Err(fairscore::Error::usage("leaderboard: not implemented yet"))
}
