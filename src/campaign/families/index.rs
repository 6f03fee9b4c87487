//! The run patterns a file name may fit, by a literal key of each pattern.

use crate::campaign::names::Pattern;

/// Which tasks' run patterns a file name may fit, found without trying every task: each
/// pattern has a key, the literal piece of it fewest patterns share (the task's own part, as
/// `_ner_` in `{team}_ner_{run}.txt`); a name can only fit the patterns whose key it contains.
/// Trying every pattern on every file made a campaign of n tasks (and so about n times their
/// runs) cost n².
pub(super) struct TaskIndex {
    /// Tasks by key.
    by_key: std::collections::HashMap<String, Vec<usize>>,
    /// The keys' lengths, each once.
    lengths: Vec<usize>,
    /// Tasks whose pattern has no literal text: every name is a candidate.
    always: Vec<usize>,
}

impl TaskIndex {
    /// The index of the tasks' run patterns, in task order.
    pub(super) fn new<'p>(patterns: impl IntoIterator<Item = &'p Pattern>) -> TaskIndex {
        let mut uses: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let literals: Vec<Vec<&str>> = patterns.into_iter().map(Pattern::literals).collect();
        for lits in &literals {
            let distinct: std::collections::BTreeSet<&str> = lits.iter().copied().collect();
            for l in distinct {
                *uses.entry(l).or_default() += 1;
            }
        }
        let mut index = TaskIndex {
            by_key: std::collections::HashMap::new(),
            lengths: Vec::new(),
            always: Vec::new(),
        };
        for (k, lits) in literals.iter().enumerate() {
            // Fewest sharing patterns first, then the longest, then the first written.
            let key = lits
                .iter()
                .enumerate()
                .min_by_key(|(i, l)| (uses.get(**l).copied(), std::cmp::Reverse(l.len()), *i))
                .map(|(_, l)| *l);
            match key {
                Some(l) => {
                    index.by_key.entry(l.to_string()).or_default().push(k);
                    if !index.lengths.contains(&l.len()) {
                        index.lengths.push(l.len());
                    }
                }
                None => index.always.push(k),
            }
        }
        index
    }

    /// The tasks whose key `name` contains, in task order (each once).
    pub(super) fn candidates(&self, name: &str, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.always);
        for &len in &self.lengths {
            for start in 0..name.len().saturating_sub(len) + 1 {
                if let Some(tasks) = name
                    .get(start..start + len)
                    .and_then(|s| self.by_key.get(s))
                {
                    out.extend_from_slice(tasks);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::names::Placeholder;

    const RUN_PLACEHOLDERS: &[Placeholder] = &[Placeholder::Team, Placeholder::Run];

    fn pattern(p: &str) -> Pattern {
        Pattern::parse(p, RUN_PLACEHOLDERS).expect("pattern")
    }

    /// Every task whose pattern a name fits is a candidate (here: patterns sharing literals,
    /// one without any, keys inside other keys).
    #[test]
    fn candidates_hold_every_fitting_task() {
        let patterns: Vec<Pattern> = [
            "{team}_ner_{run}.txt",
            "{team}_ner_{run}.conll",
            "{team}_{run}.txt",
            "{team}",
            "{team}_nerfine_{run}.txt",
            "x{team}.txt",
        ]
        .iter()
        .map(|p| pattern(p))
        .collect();
        let index = TaskIndex::new(&patterns);
        let mut c = Vec::new();
        for name in [
            "a_ner_1.txt",
            "a_ner_1.conll",
            "a_nerfine_2.txt",
            "xa.txt",
            "a_1.txt",
            "b",
            "é_ner_é.txt",
        ] {
            index.candidates(name, &mut c);
            for (k, p) in patterns.iter().enumerate() {
                if !p.matches(name).is_empty() {
                    assert!(c.contains(&k), "{name} fits {p} but is not a candidate");
                }
            }
            assert!(c.windows(2).all(|w| w[0] < w[1]), "in task order, once");
        }
    }

    /// A campaign of many tasks tries each run file on its own task only: the work is the
    /// number of files, not files × tasks (issue 33: family campaigns were quadratic in the
    /// number of tasks).
    #[test]
    fn many_tasks_cost_one_try_per_file() {
        for n in [100usize, 400] {
            let patterns: Vec<Pattern> = (0..n)
                .map(|i| pattern(&format!("{{team}}_t{i}_{{run}}.txt")))
                .collect();
            let index = TaskIndex::new(&patterns);
            let mut c = Vec::new();
            let mut tries = 0;
            for i in 0..n {
                for team in ["a", "b"] {
                    index.candidates(&format!("{team}_t{i}_1.txt"), &mut c);
                    tries += c.len();
                }
            }
            assert_eq!(tries, 2 * n, "{n} tasks: one try per file");
        }
    }
}
