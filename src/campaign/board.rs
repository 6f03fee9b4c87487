//! Builds the leaderboard view (`crate::report::board::Board`) from a campaign's report.
//!
//! The tables are the ranking files: per dataset and language, per ranking and evaluated
//! column, the label-ALL micro rows of the ranking in ranking order, so the published ranks
//! are those of the official files (a run whose results equal an earlier run's is listed
//! once, as there, with a note). Tables whose gold has no entities (every run TP = FN = 0) are
//! left out with a note. The drill-down shows each run's per-label rows of every regime from
//! its own score rows, and the fair confusion matrix where the scorer gave one. With
//! `bootstrap = N` (`super::marks`) every ranked row also shows its F1 interval and its
//! tests against the next and the top run. Input paths are named relative to the campaign's
//! directories.

use std::path::Path;

use indexmap::IndexMap;

use super::config::Campaign;
use super::config::CampaignDirs;
use super::discover::Closeness;
use super::marks::Marks;
use super::outcome::CampaignReport;
use crate::report::board::{
    slug, Board, Notice, RankingLink, Resampling, Row, Section, Summary, TeamCard, TeamEntry,
};
use crate::Result;

/// Names input paths relative to the campaign's directories (`gold/…`, `submissions/…`): a
/// published report shows no local absolute paths.
#[derive(Debug, Clone, Default)]
pub struct InputNames {
    /// (directory as it appears in messages, with a trailing `/`; its short name).
    prefixes: Vec<(String, String)>,
}

impl InputNames {
    /// The directories of a campaign, and the replay directory if any.
    pub fn new(dirs: &CampaignDirs, replay: Option<&Path>) -> InputNames {
        let mut prefixes = Vec::new();
        let mut add = |dir: &Path, role: &str| {
            let short = std::fs::canonicalize(dir)
                .ok()
                .and_then(|c| c.file_name().map(|n| n.to_string_lossy().into_owned()))
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| role.to_string());
            let mut forms = vec![dir.display().to_string()];
            if let Ok(c) = std::fs::canonicalize(dir) {
                forms.push(c.display().to_string());
            }
            for f in forms {
                let f = f.trim_end_matches('/').to_string();
                if !f.is_empty() {
                    prefixes.push((format!("{f}/"), format!("{short}/")));
                }
            }
        };
        add(&dirs.gold, "gold");
        add(&dirs.runs, "runs");
        add(&dirs.resources, "resources");
        add(&dirs.outdir, "out");
        if let Some(r) = replay {
            add(r, "replay");
        }
        // Longest first, so that a directory inside another is named by the inner one.
        prefixes.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        InputNames { prefixes }
    }

    /// `text` with every campaign directory replaced by its short name.
    pub fn name(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (long, short) in &self.prefixes {
            out = out.replace(long.as_str(), short);
        }
        out
    }
}

/// Builds the view of a campaign, without intervals or marks.
pub fn build(cfg: &Campaign, report: &CampaignReport, names: &InputNames) -> Board {
    build_marked(cfg, report, names, &Marks::default())
}

/// What the reports do once the ranking files are written: computes the marks when the
/// campaign asks for them (`cfg.bootstrap`), writes the `.ci.tsv` files next to the ranking
/// files in `rankings_dir` (removing stale ones) and builds the view with the marks.
pub fn build_and_write_marks(
    cfg: &Campaign,
    report: &CampaignReport,
    names: &InputNames,
    rankings_dir: &Path,
) -> Result<Board> {
    let marks = super::marks::compute(report, cfg.bootstrap.as_ref())?;
    super::marks::write(rankings_dir, report, &marks)?;
    Ok(build_marked(cfg, report, names, &marks))
}

/// Builds the view of a campaign with the given marks.
pub fn build_marked(
    cfg: &Campaign,
    report: &CampaignReport,
    names: &InputNames,
    marks: &Marks,
) -> Board {
    let mut board = Board {
        title: cfg.name.clone(),
        edition: report.edition.name().to_string(),
        about: "tables follow the ranking files (micro F1 of label ALL)".to_string(),
        metric: "F1".to_string(),
        summary: Summary {
            runs: report.scored.len(),
            jobs: report.scored.iter().map(|s| s.outputs.len()).sum(),
            failed: report.failed.len(),
            failed_jobs: report.failed.iter().map(|f| f.errors.len()).sum(),
            rejected: report.rejected.len(),
            not_evaluated: report.not_evaluated.len(),
        },
        rankings: report
            .rankings
            .iter()
            .map(|r| RankingLink {
                file: r.file_name.clone(),
                rows: r.rows.len(),
            })
            .collect(),
        resampling: marks.settings.map(|r| Resampling {
            samples: r.samples,
            seed: r.seed,
            level: short(r.confidence * 100.0),
            alpha: short(1.0 - r.confidence),
            units: "documents".to_string(),
        }),
        ..Board::default()
    };
    board.not_scored = not_scored(cfg, report, names);
    for n in &report.not_evaluated {
        let rankings = if n.rankings.is_empty() {
            String::new()
        } else {
            format!("; ranking files not written: {}", n.rankings.join(", "))
        };
        board.not_evaluated.push(Notice {
            subject: format!("{} · {} · {}", n.dataset, n.lang, n.output),
            reason: format!(
                "{} {} {} (needed by {} runs){rankings}",
                n.what,
                names.name(&n.path.display().to_string()),
                n.reason,
                n.runs
            ),
        });
    }
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for r in &report.rankings {
        if !pairs.contains(&(r.dataset.as_str(), r.lang.as_str())) {
            pairs.push((&r.dataset, &r.lang));
        }
    }
    for (dataset, lang) in pairs {
        let section =
            super::tables::build_section(cfg, report, dataset, lang, &mut board.skipped, marks);
        board.sections.push(section);
    }
    for n in &report.not_evaluated {
        if let Some(s) = board
            .sections
            .iter_mut()
            .find(|s| s.dataset == n.dataset && s.lang == n.lang)
        {
            s.notes
                .push(format!("{} not evaluated: {} missing.", n.output, n.what));
        }
    }
    if cfg.run_pattern.has(super::config::Placeholder::Team) {
        board.teams = team_cards(&board.sections);
    }
    board
}

/// A number with at most six decimals and no trailing zeros (`95`, `0.05`).
pub(super) fn short(x: f64) -> String {
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Failed runs and rejected files; when no file fits the run pattern, one notice that says
/// so with the closest name, instead of one per file.
fn not_scored(cfg: &Campaign, report: &CampaignReport, names: &InputNames) -> Vec<Notice> {
    let mut out: Vec<Notice> = report
        .failed
        .iter()
        .map(|f| Notice {
            subject: f.run.file_name.clone(),
            reason: format!("scoring failed: {}", names.name(&f.errors.join("; "))),
        })
        .collect();
    match no_run_fits(cfg, report) {
        Some(n) => out.push(n),
        None => out.extend(report.rejected.iter().map(|r| Notice {
            subject: r.file_name.clone(),
            reason: r.reason.clone(),
        })),
    }
    out
}

/// When files were found but none fits the campaign: one notice naming the convention, the
/// closest file and why it does not fit, and a preset that fits, if one does.
pub fn no_run_fits(cfg: &Campaign, report: &CampaignReport) -> Option<Notice> {
    if !report.scored.is_empty() || !report.failed.is_empty() {
        return None;
    }
    let closest = report
        .rejected
        .iter()
        .filter(|r| r.closeness > Closeness::Foreign)
        .max_by(|a, b| {
            a.closeness
                .cmp(&b.closeness)
                .then(b.file_name.cmp(&a.file_name))
        })?;
    let mut reason = format!(
        "no file fits the campaign's run names {}.tsv; closest: {} ({})",
        cfg.run_pattern, closest.file_name, closest.reason
    );
    let candidates = report
        .rejected
        .iter()
        .filter(|r| r.closeness > Closeness::Foreign);
    let mut best: Option<(&str, usize)> = None;
    for (preset, _) in super::config::PRESETS {
        let Ok(other) = Campaign::preset(preset) else {
            continue;
        };
        if other.name == cfg.name {
            continue;
        }
        let fits = candidates
            .clone()
            .filter(|r| super::discover::classify(&other, &r.file_name).is_ok())
            .count();
        if fits > best.map_or(0, |b| b.1) {
            best = Some((preset, fits));
        }
    }
    if let Some((preset, fits)) = best {
        reason.push_str(&format!("; {fits} of them fit --preset {preset}"));
    }
    Some(Notice {
        subject: format!("{} files", report.rejected.len()),
        reason,
    })
}

/// Each team's best run per table (its first row in ranking order) and the team's rank among
/// the teams of that table (teams with the same ranked score share a rank).
pub(super) fn team_cards(sections: &[Section]) -> Vec<TeamCard> {
    let mut cards: IndexMap<String, Vec<TeamEntry>> = IndexMap::new();
    for s in sections {
        for g in &s.groups {
            for t in &g.tables {
                let mut best: Vec<&Row> = Vec::new();
                for r in &t.rows {
                    if !best.iter().any(|b| b.team == r.team) {
                        best.push(r);
                    }
                }
                let metric = t.columns.iter().position(|c| *c == t.metric);
                let mut prev: Option<(&str, usize)> = None;
                for (pos, r) in best.iter().enumerate() {
                    let score = metric
                        .and_then(|i| r.cells.get(i))
                        .map_or("", |c| c.text.as_str());
                    let rank = match prev {
                        Some((p, k)) if p == score => k,
                        _ => pos + 1,
                    };
                    prev = Some((score, rank));
                    let scope = if g.scope.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", g.scope)
                    };
                    cards.entry(r.team.clone()).or_default().push(TeamEntry {
                        section: crate::report::markdown::section_name(&s.dataset, &s.lang),
                        table: format!("{}{scope} {}", g.title, t.regime),
                        system: r.system.clone(),
                        score: score.to_string(),
                        rank,
                        teams: best.len(),
                    });
                }
            }
        }
    }
    cards.sort_by(|a, _, b, _| a.as_bytes().cmp(b.as_bytes()));
    cards
        .into_iter()
        .enumerate()
        .map(|(i, (team, entries))| TeamCard {
            id: slug(&format!("team-{i}-{team}")),
            team,
            entries,
        })
        .collect()
}
