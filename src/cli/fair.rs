//! `fairscore fair` (work in progress).

use clap::Args;

#[derive(Args, Debug)]
pub struct FairArgs {}

pub fn run(_args: FairArgs) -> fairscore::Result<i32> {
    Err(fairscore::Error::usage("fair: not implemented yet"))
}
