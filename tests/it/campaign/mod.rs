mod campaign_families;
mod codabench;
mod leaderboard_board;
mod leaderboard_ci;
mod leaderboard_official;
mod leaderboard_report;
mod page_layout;
mod signature;
