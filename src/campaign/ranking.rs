//! Ranking files (`ranking-DATASET-LANG-KIND-all.tsv`) as the HIPE organisers build them: a
//! pure function of each run's name, bundle and per-run TSV text (see
//! `../shared/data/hipe2022/README.md` and [`RankingSpec`]).
//!
//! Recipe: take the runs in file-name byte order (`NAME.tsv`) and, within a run, the named
//! outputs' rows in file order; keep rows whose Evaluation fits the spec; cut to System,
//! Evaluation, Label, P, R, F1, TP, FP, FN; drop a row when its cells after System equal an
//! earlier kept row's ("unique": identical results of two runs appear once, the first run
//! keeps them); sort by the spec's keys, comparing cell text in byte order (C locale), F1 as
//! text descending, and the whole line as last resort (as GNU `sort` does). Lines end in LF.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::path::Path;

use super::config::{RankingSpec, SortKey};
use crate::{Error, Result};

/// Header of every ranking file.
pub const RANKING_HEADER: &str = "System\tEvaluation\tLabel\tP\tR\tF1\tTP\tFP\tFN";

/// Columns of a per-run TSV kept in a ranking (0-based): System … F1, TP, FP, FN.
const KEEP: [usize; 9] = [0, 1, 2, 3, 4, 5, 9, 10, 11];
/// Number of columns of a per-run TSV.
const PER_RUN_COLUMNS: usize = 12;

/// What a ranking needs to know of one run.
#[derive(Debug, Clone, Copy)]
pub struct RankingInput<'a> {
    /// Run file stem, e.g. `team1_bundle4_ajmc_de_1`.
    pub run_name: &'a str,
    pub bundle: &'a str,
    /// (output name such as `nerc_coarse` or `nel_relaxed`, per-run TSV text).
    pub tsvs: &'a [(String, String)],
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

/// Builds the text of one ranking file from the runs of one dataset and language.
pub fn build_ranking(spec: &RankingSpec, runs: &[RankingInput<'_>]) -> Result<String> {
    let mut order: Vec<&RankingInput<'_>> = runs.iter().collect();
    order.sort_by(|a, b| file_order(a.run_name, b.run_name));
    let mut seen: HashSet<Vec<&str>> = HashSet::new();
    let mut rows: Vec<Vec<&str>> = Vec::new();
    for run in order {
        if let Some(bundles) = &spec.bundles {
            if !bundles.iter().any(|b| b == run.bundle) {
                continue;
            }
        }
        for output in &spec.outputs {
            for (name, text) in run.tsvs.iter().filter(|(n, _)| n == output) {
                let where_ = format!("{}_{name}.tsv", run.run_name);
                for cells in data_rows(text, Path::new(&where_))? {
                    if !selects(spec, cells[1]) {
                        continue;
                    }
                    let cut: Vec<&str> = KEEP.iter().map(|&i| cells[i]).collect();
                    if seen.insert(cut[1..].to_vec()) {
                        rows.push(cut);
                    }
                }
            }
        }
    }
    rows.sort_by(|a, b| {
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
    let mut out = String::with_capacity(64 * (rows.len() + 1));
    out.push_str(RANKING_HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&r.join("\t"));
        out.push('\n');
    }
    Ok(out)
}

/// Byte order of the run files (`NAME.tsv`), which is how a shell glob lists them.
fn file_order(a: &str, b: &str) -> Ordering {
    a.bytes()
        .chain(".tsv".bytes())
        .cmp(b.bytes().chain(".tsv".bytes()))
}

/// The data rows of a per-run TSV (header checked and skipped, CR stripped, blank lines
/// skipped), each with at least the 12 official columns.
pub fn data_rows<'t>(text: &'t str, path: &Path) -> Result<Vec<Vec<&'t str>>> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let header = lines.next().unwrap_or("");
    if !header.starts_with("System\tEvaluation\tLabel\t") {
        return Err(Error::input(
            path,
            1,
            "not a per-run score table (header does not start with System, Evaluation, Label)",
        ));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() < PER_RUN_COLUMNS {
            return Err(Error::input(
                path,
                i + 2,
                format!(
                    "{} columns where the score table has {PER_RUN_COLUMNS}",
                    cells.len()
                ),
            ));
        }
        rows.push(cells);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(order: Vec<SortKey>) -> RankingSpec {
        RankingSpec {
            kind: "coarse-micro-fuzzy".into(),
            outputs: vec!["nerc_coarse".into()],
            prefixes: vec!["NE-COARSE".into()],
            contains: vec!["micro-fuzzy".into()],
            excludes: vec![],
            suffix: None,
            bundles: None,
            order,
        }
    }

    fn tsv(system: &str, rows: &[(&str, &str, &str)]) -> String {
        let mut s = String::from(
            "System\tEvaluation\tLabel\tP\tR\tF1\tF1_std\tP_std\tR_std\tTP\tFP\tFN\r\n",
        );
        for (ev, label, f1) in rows {
            s.push_str(&format!(
                "{system}\t{ev}\t{label}\t0.5\t0.5\t{f1}\t\t\t\t1\t1\t1\r\n"
            ));
        }
        s
    }

    #[test]
    fn selects_cuts_uniques_and_sorts_as_text() {
        let fz = "NE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL";
        let st = "NE-COARSE-LIT-micro-strict-TIME-ALL-LED-ALL";
        let a = vec![(
            "nerc_coarse".to_string(),
            tsv(
                "b_1",
                &[(fz, "ALL", "0.9"), (st, "ALL", "0.8"), (fz, "LOC", "0")],
            ),
        )];
        let b = vec![(
            "nerc_coarse".to_string(),
            tsv("a_1", &[(fz, "ALL", "1.0"), (fz, "LOC", "0")]),
        )];
        let c = vec![(
            "nerc_coarse".to_string(),
            tsv("c_1", &[(fz, "ALL", "0.95"), (fz, "LOC", "0.0")]),
        )];
        let runs = [
            RankingInput {
                run_name: "b_1",
                bundle: "1",
                tsvs: &a,
            },
            RankingInput {
                run_name: "a_1",
                bundle: "1",
                tsvs: &b,
            },
            RankingInput {
                run_name: "c_1",
                bundle: "4",
                tsvs: &c,
            },
        ];
        let s = spec(vec![
            SortKey::Label,
            SortKey::F1Desc,
            SortKey::Evaluation,
            SortKey::System,
        ]);
        let out = build_ranking(&s, &runs).unwrap();
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
        let mut only4 = s.clone();
        only4.bundles = Some(vec!["4".into()]);
        assert_eq!(build_ranking(&only4, &runs).unwrap().lines().count(), 3);
    }

    #[test]
    fn short_rows_are_input_errors() {
        let bad = vec![(
            "nerc_coarse".to_string(),
            "System\tEvaluation\tLabel\tP\r\nx\tNE-COARSE-micro-fuzzy\tALL\r\n".to_string(),
        )];
        let runs = [RankingInput {
            run_name: "x",
            bundle: "1",
            tsvs: &bad,
        }];
        let e = build_ranking(&spec(vec![SortKey::System]), &runs).unwrap_err();
        assert!(e.to_string().contains("x_nerc_coarse.tsv:2"), "{e}");
    }
}
