//! The entities a scoring extracted from the tags, kept for a caller that reads them too (the
//! breakdowns of the spans and hipe families), so that the tags are not decoded twice: per
//! gold document, the gold's and the run's entities of the evaluated labels.

use std::collections::BTreeSet;

use crate::spans::Spans;

/// One entity: its first and last position in its document (0-based, inclusive) and its label
/// (an index into [`Entities::labels`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entity {
    /// First position.
    pub start: u32,
    /// Last position (inclusive).
    pub end: u32,
    /// The label's index in [`Entities::labels`].
    pub label: u32,
}

/// The entities of one side, document after document.
#[derive(Debug, Clone, Default)]
struct Side {
    all: Vec<Entity>,
    /// Where each document's entities start in `all` (one more than the documents).
    at: Vec<u32>,
}

/// The entities of every gold document of one scored column, gold and run, in the order
/// they start; only those of the evaluated labels.
#[derive(Debug, Clone, Default)]
pub struct Entities {
    /// The evaluated labels, in byte order.
    pub labels: Vec<String>,
    sides: [Side; 2],
}

impl Entities {
    /// No entity yet, of the evaluated labels `tags`.
    pub(crate) fn new(tags: &BTreeSet<String>) -> Self {
        let side = || Side {
            all: Vec::new(),
            at: vec![0],
        };
        Entities {
            labels: tags.iter().cloned().collect(),
            sides: [side(), side()],
        }
    }

    /// Adds the entities, gold and run, of the current document's next unit as the scorer
    /// extracted them: `offset` is the unit's first position in the document (0 for a HIPE
    /// document scored whole; a CoNLL sentence's start, as sentences bound entities there).
    pub(crate) fn push_unit(&mut self, gold: &Spans<'_>, run: &Spans<'_>, offset: usize) {
        let offset = offset as u32;
        for (side, sp) in self.sides.iter_mut().zip([gold, run]) {
            for x in &sp.spans {
                let label = sp.label(x);
                if let Ok(i) = self.labels.binary_search_by(|l| l.as_str().cmp(label)) {
                    side.all.push(Entity {
                        start: x.start + offset,
                        end: x.end + offset,
                        label: i as u32,
                    });
                }
            }
        }
    }

    /// Ends the current document: the entities pushed since the last end are its own.
    pub(crate) fn end_doc(&mut self) {
        for side in &mut self.sides {
            side.at.push(side.all.len() as u32);
        }
    }

    /// The entities of document `doc` of the gold (`side` 0) or the run (1).
    pub fn doc(&self, side: usize, doc: usize) -> &[Entity] {
        let s = &self.sides[side.min(1)];
        match (s.at.get(doc), s.at.get(doc + 1)) {
            (Some(&a), Some(&b)) => &s.all[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The label of an entity.
    pub fn label(&self, e: &Entity) -> &str {
        self.labels.get(e.label as usize).map_or("", String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_evaluated_labels_document_by_document() {
        let tags: BTreeSet<String> = ["LOC", "PER"].iter().map(|s| s.to_string()).collect();
        let mut e = Entities::new(&tags);
        let (mut g, mut r) = (Spans::default(), Spans::default());
        g.push_labeled(0, 1, "PER");
        g.push_labeled(3, 3, "ORG");
        r.push_labeled(0, 0, "LOC");
        e.push_unit(&g, &r, 0);
        e.end_doc();
        g.clear();
        r.clear();
        r.push_labeled(0, 2, "PER");
        e.push_unit(&g, &r, 2);
        e.end_doc();
        let one: Vec<(u32, u32, &str)> = e
            .doc(0, 0)
            .iter()
            .map(|x| (x.start, x.end, e.label(x)))
            .collect();
        assert_eq!(one, vec![(0, 1, "PER")]);
        assert_eq!(e.doc(1, 0).len(), 1);
        assert_eq!(e.label(&e.doc(1, 0)[0]), "LOC");
        assert!(e.doc(0, 1).is_empty());
        assert_eq!(e.doc(1, 1)[0].start, 2);
        assert!(e.doc(0, 2).is_empty());
    }
}
