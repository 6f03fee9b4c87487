//! Where two files of sentences part when their sentence counts differ: the first sentence
//! that is not the gold's, and whether the run skipped a gold sentence or added one there.
//! Used by the segmentation and tagging evaluations, whose runs must have the gold's
//! sentences. Only called on the error path (it allocates one key per sentence).

use crate::error::Error;
use std::path::Path;

/// A sentence as compared across the files: a key equal for the same sentence in gold and
/// run (its characters without whitespace for segmentation, its word forms for tagging) and
/// the file line it starts on.
pub struct Sentence {
    /// What must be equal in gold and run.
    pub key: String,
    /// 1-based file line of the sentence's start.
    pub line: usize,
}

/// The error for a run whose number of sentences differs from the gold's, at the run's line
/// where the two part, saying whether a gold sentence is missing there or a run sentence
/// is extra.
pub fn count_error(
    gold_path: &Path,
    pred_path: &Path,
    gold: &[Sentence],
    pred: &[Sentence],
) -> Error {
    let (ng, np) = (gold.len(), pred.len());
    let gold_at = |i: usize| {
        format!(
            "{}:{}",
            gold_path.display(),
            gold.get(i).map_or(0, |s| s.line)
        )
    };
    let counts = format!("the run has {np} sentences, the gold {ng}");
    let k = gold
        .iter()
        .zip(pred)
        .position(|(g, p)| g.key != p.key)
        .unwrap_or(ng.min(np));
    let same = |g: usize, p: usize| match (gold.get(g), pred.get(p)) {
        (Some(a), Some(b)) => a.key == b.key,
        _ => false,
    };
    if k == np {
        let last = pred.last().map_or(0, |s| s.line);
        return Error::input(
            pred_path,
            last,
            format!(
                "the run ends after sentence {k}; the gold goes on with sentence {} at {} ({counts})",
                k + 1,
                gold_at(k)
            ),
        );
    }
    let line = pred[k].line;
    let message = if k == ng {
        format!(
            "the gold ends after sentence {k} ({}); the run goes on here with sentence {} ({counts})",
            gold_at(k.saturating_sub(1)),
            k + 1
        )
    } else if same(k + 1, k) {
        format!(
            "the gold's sentence {} ({}) is missing from the run: this is the gold's sentence {} ({}); {counts}",
            k + 1,
            gold_at(k),
            k + 2,
            gold_at(k + 1)
        )
    } else if same(k, k + 1) {
        format!(
            "sentence {} of the run is not in the gold: the gold's sentence {} ({}) is the run's next one; {counts}",
            k + 1,
            k + 1,
            gold_at(k)
        )
    } else {
        format!(
            "sentence {} differs from the gold's ({}), and {counts}: gold and run must have the same sentences",
            k + 1,
            gold_at(k)
        )
    };
    Error::input(pred_path, line, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(keys: &[&str]) -> Vec<Sentence> {
        keys.iter()
            .enumerate()
            .map(|(i, k)| Sentence {
                key: k.to_string(),
                line: 10 * (i + 1),
            })
            .collect()
    }

    fn msg(g: &[&str], p: &[&str]) -> String {
        count_error(Path::new("g"), Path::new("p"), &s(g), &s(p)).to_string()
    }

    #[test]
    fn names_the_place_and_the_kind_of_difference() {
        let m = msg(&["a", "b", "c", "d"], &["a", "c", "d"]);
        assert!(
            m.starts_with("p:20:") && m.contains("sentence 2 (g:20) is missing"),
            "{m}"
        );
        let m = msg(&["a", "b", "c"], &["a", "x", "b", "c"]);
        assert!(
            m.starts_with("p:20:") && m.contains("sentence 2 of the run is not in the gold"),
            "{m}"
        );
        let m = msg(&["a", "b", "c"], &["a", "b"]);
        assert!(
            m.starts_with("p:20:") && m.contains("ends after sentence 2") && m.contains("g:30"),
            "{m}"
        );
        let m = msg(&["a", "b"], &["a", "b", "c"]);
        assert!(
            m.starts_with("p:30:") && m.contains("the gold ends after sentence 2"),
            "{m}"
        );
        let m = msg(&["a", "b", "c"], &["a", "y", "z", "w"]);
        assert!(
            m.starts_with("p:20:") && m.contains("sentence 2 differs"),
            "{m}"
        );
    }
}
