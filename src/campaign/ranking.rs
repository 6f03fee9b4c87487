//! Ranking files (`ranking-DATASET-LANG-KIND-all.tsv`) as the HIPE organisers build them: a
//! pure function of each run's name, bundle and typed score rows (see
//! `../shared/data/hipe2022/README.md` and [`RankingSpec`]).
//!
//! Recipe: take the runs in file-name byte order (`NAME.tsv`) and, within a run, the named
//! outputs' rows in table order; keep rows whose Evaluation fits the spec; cut to System,
//! Evaluation, Label, P, R, F1, TP, FP, FN; drop a row when its cells after System equal an
//! earlier kept row's ("unique": identical results of two runs appear once, the first run
//! keeps them); sort by the spec's keys, comparing cell text in byte order (C locale), F1 as
//! text descending, and the whole line as last resort (as GNU `sort` does). Cells are the text
//! of the per-run table ([`super::rows::Num`]), so the file shows what the official one shows.
//! Lines end in LF.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashSet;

use super::config::{RankingSpec, SortKey};
use super::rows::ScoreRow;
use crate::report::tsv::cell;

/// Header of every ranking file.
pub const RANKING_HEADER: &str = "System\tEvaluation\tLabel\tP\tR\tF1\tTP\tFP\tFN";

/// What a ranking needs to know of one run.
#[derive(Debug, Clone, Copy)]
pub struct RankingInput<'a> {
    /// Run file stem, e.g. `team1_bundle4_ajmc_de_1`.
    pub run_name: &'a str,
    /// The run's bundle id, for the spec's bundle filter.
    pub bundle: &'a str,
    /// (output name such as `nerc_coarse` or `nel_relaxed`, its score rows).
    pub outputs: &'a [(String, Vec<ScoreRow>)],
}

/// One row of a ranking: indices of the run (in the slice given to [`rank`]), of its output
/// and of the row in that output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ranked {
    /// Index of the run in the slice given to [`rank`].
    pub run: usize,
    /// Index of the output in the run's [`RankingInput::outputs`].
    pub output: usize,
    /// Index of the row in that output's score rows.
    pub row: usize,
}

impl Ranked {
    /// The row itself.
    pub fn get<'a>(&self, runs: &[RankingInput<'a>]) -> Option<&'a ScoreRow> {
        runs.get(self.run)?
            .outputs
            .get(self.output)?
            .1
            .get(self.row)
    }
}

/// `ranking-DATASET-LANG-KIND-all.tsv`.
pub fn ranking_file_name(dataset: &str, lang: &str, kind: &str) -> String {
    format!("ranking-{dataset}-{lang}-{kind}-all.tsv")
}

/// Does an Evaluation cell belong to the ranking?
pub fn selects(spec: &RankingSpec, evaluation: &str) -> bool {
    spec.prefixes
        .iter()
        .any(|p| evaluation.starts_with(p.as_str()))
        && spec
            .contains
            .iter()
            .all(|c| evaluation.contains(c.as_str()))
        && !spec
            .excludes
            .iter()
            .any(|x| evaluation.contains(x.as_str()))
        && spec
            .suffix
            .as_deref()
            .is_none_or(|s| evaluation.ends_with(s))
}

/// Does the ranking take this run's rows (bundle filter)?
pub fn takes_bundle(spec: &RankingSpec, bundle: &str) -> bool {
    spec.bundles
        .as_ref()
        .is_none_or(|bs| bs.iter().any(|b| b == bundle))
}

/// The cells of a row in a ranking file: System, Evaluation, Label quoted as in the per-run
/// table (and escaped by [`cell`]: no tab or line break, no spreadsheet formula), then P, R,
/// F1, TP, FP, FN.
pub fn cells(row: &ScoreRow) -> [Cow<'_, str>; 9] {
    [
        cell(&row.system),
        cell(&row.evaluation),
        cell(&row.label),
        Cow::Borrowed(row.p.text()),
        Cow::Borrowed(row.r.text()),
        Cow::Borrowed(row.f1.text()),
        Cow::Borrowed(row.tp.text()),
        Cow::Borrowed(row.fp.text()),
        Cow::Borrowed(row.fn_.text()),
    ]
}

/// The rows of one ranking, in ranking order.
pub fn rank(spec: &RankingSpec, runs: &[RankingInput<'_>]) -> Vec<Ranked> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| file_order(runs[a].run_name, runs[b].run_name));
    let mut seen: HashSet<Vec<Cow<'_, str>>> = HashSet::new();
    let mut kept: Vec<(Ranked, [Cow<'_, str>; 9])> = Vec::new();
    for run in order {
        let input = &runs[run];
        if !takes_bundle(spec, input.bundle) {
            continue;
        }
        for wanted in &spec.outputs {
            for (output, (name, rows)) in input.outputs.iter().enumerate() {
                if name != wanted.as_str() {
                    continue;
                }
                for (i, row) in rows.iter().enumerate() {
                    if !selects(spec, &row.evaluation) {
                        continue;
                    }
                    let c = cells(row);
                    if seen.insert(c[1..].to_vec()) {
                        kept.push((
                            Ranked {
                                run,
                                output,
                                row: i,
                            },
                            c,
                        ));
                    }
                }
            }
        }
    }
    kept.sort_by(|(_, a), (_, b)| {
        for key in &spec.order {
            let o = match key {
                SortKey::System => a[0].as_bytes().cmp(b[0].as_bytes()),
                SortKey::Evaluation => a[1].as_bytes().cmp(b[1].as_bytes()),
                SortKey::Label => a[2].as_bytes().cmp(b[2].as_bytes()),
                SortKey::F1Desc => b[5].as_bytes().cmp(a[5].as_bytes()),
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.iter()
            .map(|c| c.as_bytes())
            .cmp(b.iter().map(|c| c.as_bytes()))
    });
    kept.into_iter().map(|(r, _)| r).collect()
}

/// When the ranking's outputs give rows (of runs of the bundles it takes) but its Evaluation
/// filter keeps none of them: how many rows it saw and the first one's Evaluation cell. A
/// filter that matches nothing is a mistake in the campaign file, not an empty ranking.
pub fn keeps_nothing(spec: &RankingSpec, runs: &[RankingInput<'_>]) -> Option<(usize, String)> {
    let mut seen = 0;
    let mut example = None;
    for input in runs.iter().filter(|r| takes_bundle(spec, r.bundle)) {
        for (name, rows) in input.outputs {
            if !spec.outputs.iter().any(|o| o.as_str() == name) {
                continue;
            }
            for row in rows {
                if selects(spec, &row.evaluation) {
                    return None;
                }
                seen += 1;
                example.get_or_insert_with(|| row.evaluation.clone());
            }
        }
    }
    example.map(|e| (seen, e))
}

/// The text of a ranking file.
pub fn ranking_text(runs: &[RankingInput<'_>], ranked: &[Ranked]) -> String {
    let mut out = String::with_capacity(64 * (ranked.len() + 1));
    out.push_str(RANKING_HEADER);
    out.push('\n');
    for row in ranked.iter().filter_map(|r| r.get(runs)) {
        out.push_str(&cells(row).join("\t"));
        out.push('\n');
    }
    out
}

/// Builds the text of one ranking file from the runs of one dataset and language.
pub fn build_ranking(spec: &RankingSpec, runs: &[RankingInput<'_>]) -> String {
    ranking_text(runs, &rank(spec, runs))
}

/// Byte order of the run files (`NAME.tsv`), which is how a shell glob lists them.
fn file_order(a: &str, b: &str) -> Ordering {
    a.bytes()
        .chain(".tsv".bytes())
        .cmp(b.bytes().chain(".tsv".bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::config::Name;
    use crate::campaign::rows::parse_table;
    use std::path::Path;

    fn spec(order: Vec<SortKey>) -> RankingSpec {
        RankingSpec {
            kind: Name::new("coarse-micro-fuzzy").unwrap(),
            outputs: vec![Name::new("nerc_coarse").unwrap()],
            prefixes: vec!["NE-COARSE".into()],
            contains: vec!["micro-fuzzy".into()],
            excludes: vec![],
            suffix: None,
            bundles: None,
            order,
        }
    }

    fn table(system: &str, rows: &[(&str, &str, &str)]) -> Vec<(String, Vec<ScoreRow>)> {
        let mut s = String::from(
            "System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n",
        );
        for (ev, label, f1) in rows {
            s.push_str(&format!(
                "{system}\t{ev}\t{label}\t0.5\t0.5\t{f1}\t\t\t\t1\t1\t1\r\n"
            ));
        }
        vec![(
            "nerc_coarse".to_string(),
            parse_table(&s, Path::new("x.tsv")).unwrap(),
        )]
    }

    #[test]
    fn selects_cuts_uniques_and_sorts_as_text() {
        let fz = "NE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL";
        let st = "NE-COARSE-LIT-micro-strict-TIME-ALL-LED-ALL";
        let a = table(
            "b_1",
            &[(fz, "ALL", "0.9"), (st, "ALL", "0.8"), (fz, "LOC", "0")],
        );
        let b = table("a_1", &[(fz, "ALL", "1.0"), (fz, "LOC", "0")]);
        let c = table("c_1", &[(fz, "ALL", "0.95"), (fz, "LOC", "0.0")]);
        let runs = [
            RankingInput {
                run_name: "b_1",
                bundle: "1",
                outputs: &a,
            },
            RankingInput {
                run_name: "a_1",
                bundle: "1",
                outputs: &b,
            },
            RankingInput {
                run_name: "c_1",
                bundle: "4",
                outputs: &c,
            },
        ];
        let s = spec(vec![
            SortKey::Label,
            SortKey::F1Desc,
            SortKey::Evaluation,
            SortKey::System,
        ]);
        let out = build_ranking(&s, &runs);
        let systems: Vec<(&str, &str)> = out
            .lines()
            .skip(1)
            .map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                (c[0], c[5])
            })
            .collect();
        // "1.0" > "0.95" > "0.9" as text; b_1's LOC row equals a_1's and a_1 sorts first;
        // "0.0" > "0" as text.
        assert_eq!(
            systems,
            vec![
                ("a_1", "1.0"),
                ("c_1", "0.95"),
                ("b_1", "0.9"),
                ("c_1", "0.0"),
                ("a_1", "0")
            ]
        );
        assert!(out.starts_with("System\tEvaluation\tLabel\tP\tR\tF1\tTP\tFP\tFN\n"));
        assert!(!out.contains('\r'));
        let ranked = rank(&s, &runs);
        assert_eq!(ranked[0].run, 1);
        assert_eq!(ranked[0].get(&runs).map(|r| r.f1.text()), Some("1.0"));
        let mut only4 = s.clone();
        only4.bundles = Some(vec![Name::new("4").unwrap()]);
        assert_eq!(build_ranking(&only4, &runs).lines().count(), 3);
    }

    #[test]
    fn quoted_systems_stay_quoted() {
        let fz = "NE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL";
        let a = table("\"x\"\"y\"", &[(fz, "ALL", "0.9")]);
        let runs = [RankingInput {
            run_name: "x\"y",
            bundle: "1",
            outputs: &a,
        }];
        let out = build_ranking(&spec(vec![SortKey::System]), &runs);
        assert!(out.contains("\n\"x\"\"y\"\tNE-COARSE"), "{out}");
    }
}
