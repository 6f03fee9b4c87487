//! Paired comparison of two runs of any family on the same gold ([`compare`]): every ratio
//! cell of the family's tables, A, B, A − B, its paired-bootstrap interval and p-value.

use std::path::Path;

use super::{ratios_of, results_of, units_of, Family, Statistics};
use crate::error::{Error, Result};
use crate::metrics::resample::{PairedTest, Resampler, Units};
use crate::table::{Column, KeyKind, Kind, Results, Table, Value};

/// Statistics of two runs on the same labels (the union, in the order of A then B).
pub fn on_same_labels(a: &Statistics, b: &Statistics) -> (Statistics, Statistics) {
    if a.labels == b.labels {
        return (a.clone(), b.clone());
    }
    let mut labels = a.labels.clone();
    for l in &b.labels {
        if !labels.contains(l) {
            labels.push(l.clone());
        }
    }
    (a.relabel(&labels), b.relabel(&labels))
}

/// Compares run A with run B on the same gold, for every ratio cell of the family's tables:
/// A, B, A − B, the paired-bootstrap interval of A − B and the p-value of `test`, paired unit
/// by unit. One table of rows keyed by (table, row, measure).
///
/// ```
/// # fn main() -> fairscore::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("fairscore-doc-{}-{}", "compare", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let write = |n: &str, t: &str| { let p = dir.join(n); std::fs::write(&p, t).unwrap(); p };
/// # let gold = write("gold.txt", "ab cd ef\ngh ij\nkl mn op\n");
/// # let a = write("a.txt", "ab cd ef\ngh ij\nkl mnop\n");
/// # let b = write("b.txt", "abcd ef\nghij\nkl mnop\n");
/// use fairscore::{build_family, compare, Options, PairedTest, Resampler};
///
/// let seg = build_family("segmentation", &Options::default())?;
/// let r = compare(seg.as_ref(), &gold, &a, &b, &Resampler::new(500, 7), PairedTest::Permutation)?;
/// let t = &r.tables[0];
/// // Run A finds more of the gold's words than run B: A − B of the words' F1 is positive.
/// let f1 = t.row(&["segmentation", "words", "F1"]).expect("the F1 of the words");
/// let column = |name: &str| t.columns.iter().position(|c| c.name == name).unwrap();
/// assert!(f1.values[column("A-B")].as_f64().unwrap() > 0.0);
/// # Ok(())
/// # }
/// ```
pub fn compare(
    fam: &dyn Family,
    gold: &Path,
    a: &Path,
    b: &Path,
    resampler: &Resampler,
    test: PairedTest,
) -> Result<Results> {
    let sa = fam.statistics(gold, a)?;
    let sb = fam.statistics(gold, b)?;
    compare_statistics(fam, &sa, &sb, resampler, test)
}

/// [`compare`] on statistics already made.
pub fn compare_statistics(
    fam: &dyn Family,
    sa: &Statistics,
    sb: &Statistics,
    resampler: &Resampler,
    test: PairedTest,
) -> Result<Results> {
    let (sa, sb) = on_same_labels(sa, sb);
    // A discrete key's buckets are the values of gold and run: both runs on their union.
    let (sa, sb) = super::breakdown::same_buckets(&sa, &sb)?;
    if sa.len() != sb.len() {
        return Err(Error::usage(format!(
            "compare: run A has {} {}s and run B {}; both must have the gold's",
            sa.len(),
            sa.unit.name(),
            sb.len()
        )));
    }
    let Some(ua) = units_of(&sa)? else {
        return Err(Error::usage(format!(
            "compare: the {}s hold no numbers to compare (neither the gold nor the runs have a label)",
            sa.unit.name()
        )));
    };
    let ub = Units::new(&sb.data, sb.width())?;
    let point = results_of(fam, &sa, &sa.total());
    // The ratio cells, named.
    let mut names: Vec<(String, String, String)> = Vec::new();
    for t in &point.tables {
        for r in &t.rows {
            for c in &t.columns {
                if c.kind == Kind::Ratio {
                    names.push((t.name.clone(), r.key.join(" "), c.name.clone()));
                }
            }
        }
    }
    let k = names.len();
    let score = |sums: &[f64], out: &mut [f64]| {
        let mut v = Vec::with_capacity(k);
        ratios_of(fam, &sa, sums, &mut v);
        for (o, x) in out.iter_mut().zip(v) {
            *o = x;
        }
    };
    let tests = resampler.paired_vec(test, ua, ub, k, &score)?;
    let mut t = compare_table(vec![KeyKind::Table, KeyKind::Level, KeyKind::Measure]);
    for ((table, row, measure), p) in names.into_iter().zip(tests) {
        t.push(
            vec![table, row, measure],
            vec![
                Value::ratio(p.a),
                Value::ratio(p.b),
                Value::ratio(p.diff),
                Value::ratio(p.ci.lo),
                Value::ratio(p.ci.hi),
                Value::amount(p.p),
            ],
        );
    }
    let mut r = Results::new(fam.name(), sa.unit, sa.len());
    r.notes = fam.notes();
    r.notes.push(format!(
        "paired {} over {}s, {} resamples, seed {}; interval of A-B: {:.0} % paired bootstrap",
        match test {
            PairedTest::Permutation => "approximate randomization",
            PairedTest::Bootstrap => "bootstrap",
        },
        sa.unit.name(),
        resampler.samples,
        resampler.seed,
        resampler.confidence * 100.0
    ));
    r.warnings = sa.warnings.clone();
    r.warnings.extend(sb.warnings.iter().cloned());
    r.tables.push(t);
    Ok(r)
}

/// The empty table of a paired comparison, rows keyed by `keys`: `A`, `B`, `A-B`, the
/// interval `lo`, `hi` of A − B and the p-value `p` (any family's `compare`, and HIPE's).
pub fn compare_table(keys: Vec<KeyKind>) -> Table {
    Table::new(
        "compare",
        "A − B: paired comparison",
        keys,
        vec![
            Column::new("A", Kind::Ratio),
            Column::new("B", Kind::Ratio),
            Column::new("A-B", Kind::Ratio),
            Column::new("lo", Kind::Ratio),
            Column::new("hi", Kind::Ratio),
            Column::new("p", Kind::PValue),
        ],
    )
}
