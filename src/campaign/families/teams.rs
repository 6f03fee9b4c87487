//! The best run of each team of a family task's ranking.

use std::collections::BTreeMap;

use super::super::family::{ranked_value, FamilyRanking};
use crate::table::{Column, KeyKind, Kind, Table, Value};

/// The best run of each team, teams ordered by it (equal values share a rank): the table
/// `teams` with the team, its run, the team's rank, the ranked value (with its interval) and,
/// with resampling, whether the run shares first place.
pub fn best_per_team(r: &FamilyRanking, teams: &BTreeMap<String, String>) -> Table {
    let mut cols = vec![Column::new("rank", Kind::Count), r.column.clone()];
    if r.resampling.is_some() {
        cols.push(Column::new("first", Kind::Count));
    }
    let mut t = Table::new(
        "teams",
        "Best run per team",
        vec![KeyKind::Team, KeyKind::System],
        cols,
    );
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let (mut rank, mut last) = (0usize, None::<f64>);
    for run in &r.runs {
        let team = teams
            .get(&run.system)
            .map_or(run.system.as_str(), String::as_str);
        if !seen.insert(team) {
            continue;
        }
        if last != Some(run.value) {
            rank = seen.len();
            last = Some(run.value);
        }
        let mut v = vec![Value::Count(rank as u64), ranked_value(r, run.value)];
        if r.resampling.is_some() {
            v.push(Value::Count(u64::from(run.shares_first)));
        }
        t.push(vec![team.to_string(), run.system.clone()], v);
        if let (Some(ci), Some(row)) = (run.ci, t.rows.last_mut()) {
            row.ci[1] = Some(ci);
        }
    }
    t
}
