//! A HIPE campaign's breakdowns (docs/campaigns.md, "HIPE campaigns: breakdowns"): the keys
//! `breakdown` gives every NERC output (at the top of the file) or one output (in its
//! `[[task]]`), and the `train` pattern naming each dataset and language's training file in
//! the resources directory, for the keys `oov`, `train_freq` and `train_consistency`. The
//! keys are those of the hipe family's `breakdown` option; the NEL outputs have none.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned as S;

use super::source::Source;
use crate::campaign::names::{Name, Pattern, GOLD_PLACEHOLDERS};
use crate::hipe::Task;
use crate::Result;

/// `breakdown` as written: a list of keys, or one text of keys separated by commas.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Keys {
    /// `["label", "length:6"]`.
    List(Vec<String>),
    /// `"label,length:6"`.
    Text(String),
}

/// The keys of a `breakdown` value, each checked as the hipe family checks it (an unknown
/// key, a key given twice, a number of buckets out of range are said at the value's line).
/// `what`: the output the value belongs to, for the message (empty at the top).
pub(super) fn keys(src: &Source<'_>, v: &S<Keys>, what: &str) -> Result<Vec<String>> {
    let keys: Vec<String> = match v.get_ref() {
        Keys::List(l) => l.iter().map(|k| k.trim().to_string()).collect(),
        Keys::Text(t) => t.split(',').map(|k| k.trim().to_string()).collect(),
    };
    let keys: Vec<String> = keys.into_iter().filter(|k| !k.is_empty()).collect();
    if !keys.is_empty() {
        crate::family::breakdown::parse_keys(&keys.join(","))
            .map_err(|e| src.err(v, format!("{what}{}", plain(&e))))?;
    }
    Ok(keys)
}

/// Whether some of `keys` read a training file.
pub fn reads_train(keys: &[String]) -> bool {
    crate::family::breakdown::parse_keys(&keys.join(","))
        .is_ok_and(|a| a.iter().any(|k| k.key.needs_train()))
}

/// A usage error's message without its class prefix.
fn plain(e: &crate::Error) -> String {
    e.to_string().trim_start_matches("usage: ").to_string()
}

/// The written values a campaign's breakdowns are checked against: the top `breakdown` and
/// `train`, and each output's `breakdown` with the output's name and task.
pub(super) struct Written<'a> {
    pub top: Option<&'a S<Keys>>,
    pub train: Option<&'a S<String>>,
    pub outputs: Vec<(&'a Name, Task, Option<&'a S<Keys>>)>,
}

/// The campaign's keys and training pattern, checked as a whole: an output's `breakdown` on
/// a NEL output is refused, as is a top `breakdown` in a campaign without NERC output, keys
/// that read a training file without `train`, and a `train` that no output's keys read.
/// `own`: each output's own keys (`None`: the campaign's), by output name.
pub(super) fn campaign(
    src: &Source<'_>,
    w: &Written<'_>,
    own: &IndexMap<Name, Option<Vec<String>>>,
) -> Result<(Vec<String>, Option<Pattern>)> {
    let top = match w.top {
        Some(v) => keys(src, v, "breakdown: ")?,
        None => Vec::new(),
    };
    let train = match w.train {
        Some(t) => Some(src.pattern(t, "train", GOLD_PLACEHOLDERS)?),
        None => None,
    };
    let mut any_nerc = false;
    let mut reads = false;
    for (name, task, written) in &w.outputs {
        let mine = own.get(*name).cloned().flatten();
        if *task == Task::Nel {
            if let (Some(v), Some(k)) = (written, &mine) {
                if !k.is_empty() {
                    return Err(src.err(
                        v,
                        format!(
                            "{name}: breakdown: the hipe family breaks down the NERC outputs \
                             (nerc_coarse, nerc_fine), not nel"
                        ),
                    ));
                }
            }
            continue;
        }
        any_nerc = true;
        let (keys, at) = match (&mine, written) {
            (Some(k), Some(v)) => (k, *v),
            _ => match w.top {
                Some(v) => (&top, v),
                None => continue,
            },
        };
        if reads_train(keys) {
            reads = true;
            if train.is_none() {
                return Err(src.err(
                    at,
                    format!(
                        "{name}: breakdown: oov, train_freq and train_consistency read a \
                         training file, which the campaign's train names (a pattern of files \
                         in the resources directory, e.g. \"train-{{dataset}}-{{lang}}.tsv\")"
                    ),
                ));
            }
        }
    }
    if let (Some(v), false) = (w.top, any_nerc || top.is_empty()) {
        return Err(src.err(
            v,
            "breakdown: the campaign has no NERC output (nerc_coarse, nerc_fine) to break down",
        ));
    }
    if let (Some(t), false) = (w.train, reads) {
        return Err(src.err(
            t,
            "train: the training file is read by the breakdown keys oov, train_freq and \
             train_consistency; no NERC output's breakdown has one of them",
        ));
    }
    Ok((top, train))
}
