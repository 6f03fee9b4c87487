//! Pairing the run's records with the gold's units: by `id` (or by order when no record has
//! one), the run's labels upper-cased against a HIPE gold; the refusals (a run naming no
//! unit, a unit id given twice) and the warnings (records naming no unit, a run none of whose
//! labels the gold has).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use super::read::{Gold, Record};
use super::settings::{Norm, Settings};
use crate::error::{snippet, Error, Result};

/// Up to three of `ids`, quoted, and how many there are when more.
fn few<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = ids.collect();
    let shown: Vec<String> = all.iter().take(3).map(|s| snippet(s)).collect();
    match all.len() {
        n if n > 3 => format!("{}, … ({n} in all)", shown.join(", ")),
        _ => shown.join(", "),
    }
}

/// The records of each gold unit (by id, or by order when no record has an id), and the
/// warnings about records that answer no unit and about a run none of whose labels the gold
/// has. With a HIPE gold the run's labels are upper-cased first (as the standoff scorings
/// compare them, docs/standoff.md). A run with ids none of which names a gold unit, and a
/// gold that gives a unit id twice, are input errors. A record's id names a unit as written,
/// or without a final `.ann` (a brat document's name in earlier versions).
pub fn pair(
    gold: &Gold,
    mut records: Vec<Record>,
    pred: &Path,
    s: &Settings,
) -> Result<(Vec<Vec<Record>>, Vec<String>)> {
    let mut out: Vec<Vec<Record>> = vec![Vec::new(); gold.units.len()];
    let mut warnings = Vec::new();
    if gold.upper {
        for r in &mut records {
            r.query = r.query.take().map(|q| q.to_uppercase());
            for m in &mut r.answer.mentions {
                m.label = m.label.take().map(|l| l.to_uppercase());
            }
        }
    }
    warnings.extend(unknown_labels(gold, &records, pred, s));
    let with_id = records.iter().filter(|r| r.id.is_some()).count();
    if with_id == 0 {
        if records.len() != gold.units.len() {
            return Err(Error::input(
                pred,
                0,
                format!(
                    "expected one record per gold unit ({}) when records have no id; found {}",
                    gold.units.len(),
                    records.len()
                ),
            ));
        }
        for (slot, r) in out.iter_mut().zip(records) {
            slot.push(r);
        }
        return Ok((out, warnings));
    }
    if with_id != records.len() {
        return Err(Error::input(
            pred,
            0,
            "expected an id in every record, or in none (records are then paired by order)",
        ));
    }
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(gold.units.len());
    for (i, u) in gold.units.iter().enumerate() {
        if let Some(first) = index.insert(u.id.as_str(), i) {
            return Err(Error::input(
                &gold.path,
                u.line,
                format!(
                    "unit id {} is given twice (first at line {}): run records name a unit by its id",
                    snippet(&u.id),
                    gold.units[first].line
                ),
            ));
        }
    }
    let unit_of = |id: &str| {
        index
            .get(id)
            .or_else(|| id.strip_suffix(".ann").and_then(|x| index.get(x)))
            .copied()
    };
    let (first_line, n) = (records[0].line, records.len());
    let mut unknown: Vec<Record> = Vec::new();
    for r in records {
        match r.id.as_deref().and_then(unit_of) {
            Some(i) => out[i].push(r),
            None => unknown.push(r),
        }
    }
    let ids = |rs: &[Record]| few(rs.iter().filter_map(|r| r.id.as_deref()));
    let gold_ids = few(gold.units.iter().map(|u| u.id.as_str()));
    if unknown.len() == n {
        return Err(Error::input(
            pred,
            first_line,
            format!(
                "no record's id names a unit of the gold {}: the run's ids are {}, the gold's {}",
                gold.path.display(),
                ids(&unknown),
                gold_ids
            ),
        ));
    }
    if !unknown.is_empty() {
        warnings.push(format!(
            "{}: {} record(s) name no gold unit (ids {}; the gold's are {}); they are not scored",
            pred.display(),
            unknown.len(),
            ids(&unknown),
            gold_ids
        ));
    }
    Ok((out, warnings))
}

/// The warning for a run whose every label is unknown to the gold (typed comparison, the
/// labels compared as written, upper-cased against HIPE TSV): it names the run's labels and
/// the gold's.
fn unknown_labels(gold: &Gold, records: &[Record], pred: &Path, s: &Settings) -> Option<String> {
    if !s.typed || s.norm == Norm::Instructuie {
        return None;
    }
    let known: HashSet<&str> = gold
        .units
        .iter()
        .flat_map(|u| u.mentions.iter().filter_map(|m| m.label.as_deref()))
        .collect();
    let said = || {
        records.iter().flat_map(|r| {
            let labels = r.answer.mentions.iter().filter_map(|m| m.label.as_deref());
            labels.chain(r.query.as_deref())
        })
    };
    if known.is_empty() || said().next().is_none() || said().any(|l| known.contains(l)) {
        return None;
    }
    let said: BTreeSet<&str> = said().collect();
    let known: BTreeSet<&str> = known.into_iter().collect();
    Some(format!(
        "{}: no label of the run is a label of the gold ({}, as written{}): the run's {}; the gold's {}",
        pred.display(),
        gold.path.display(),
        if gold.upper { ", upper-cased against HIPE TSV" } else { "" },
        few(said.into_iter()),
        few(known.into_iter())
    ))
}
