//! What the breakdown keys read of one span, and of a training file.

use std::collections::{HashMap, HashSet};

/// The capitalisation class of a span's text (its letters only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Caps {
    /// Every letter upper case (`UNESCO`, `A`).
    Upper,
    /// Each word's first letter upper case, its other letters lower case (`Jean Dupont`).
    Title,
    /// Every letter lower case.
    Lower,
    /// Anything else with letters (`McCain`, `de Gaulle`).
    Mixed,
    /// No letter at all (`1914`, `§ 3`).
    NoLetters,
}

impl Caps {
    /// Every class, in the order buckets show them.
    pub const ALL: [Caps; 5] = [
        Caps::Upper,
        Caps::Title,
        Caps::Lower,
        Caps::Mixed,
        Caps::NoLetters,
    ];

    /// The class's bucket name.
    pub fn name(self) -> &'static str {
        match self {
            Caps::Upper => "upper",
            Caps::Title => "title",
            Caps::Lower => "lower",
            Caps::Mixed => "mixed",
            Caps::NoLetters => "no letters",
        }
    }

    /// The class of `words` (a span's tokens; a word is a whitespace-separated piece). Letters
    /// are what Unicode calls alphabetic; a letter without case (CJK) counts as neither upper
    /// nor lower, so a text of such letters only is `mixed`.
    pub fn of<'a>(words: impl Iterator<Item = &'a str> + Clone) -> Caps {
        let letters = || {
            words
                .clone()
                .flat_map(str::split_whitespace)
                .flat_map(str::chars)
                .filter(|c| c.is_alphabetic())
        };
        if letters().next().is_none() {
            return Caps::NoLetters;
        }
        if letters().all(char::is_uppercase) {
            return Caps::Upper;
        }
        if letters().all(char::is_lowercase) {
            return Caps::Lower;
        }
        let title = words.flat_map(str::split_whitespace).all(|w| {
            let mut ls = w.chars().filter(|c| c.is_alphabetic());
            match ls.next() {
                None => true,
                Some(first) => first.is_uppercase() && ls.all(char::is_lowercase),
            }
        });
        if title {
            Caps::Title
        } else {
            Caps::Mixed
        }
    }
}

/// One span of gold or run with the values the keys read.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// The unit (document, or sentence) of the statistics it belongs to.
    pub unit: usize,
    /// Whether it counts as a true positive in the regime of the breakdown.
    pub correct: bool,
    /// Its label.
    pub label: String,
    /// Tokens.
    pub tokens: u32,
    /// Characters of its text (tokens joined by one space).
    pub chars: u32,
    /// Tokens of its sentence (the sentence of its first token).
    pub sentence_tokens: u32,
    /// Gold entities starting in its sentence.
    pub sentence_entities: u32,
    /// Its first token's 0-based position in the sentence.
    pub start_in_sentence: u32,
    /// Capitalisation class of its text.
    pub caps: Caps,
    /// Its document's name.
    pub document: String,
    /// With a training file: whether one of its tokens never occurs there.
    pub oov: bool,
    /// With a training file: occurrences of its text as an entity there.
    pub train_freq: u32,
    /// With a training file: occurrences of its text as an entity of its label there.
    pub train_same_label: u32,
    /// An id for listings: document, sentence, tokens and text.
    pub id: String,
    /// The line of its first token in its file (0 when the format has no lines).
    pub line: usize,
}

impl Facts {
    /// Sets the training values of a span of `words` (its tokens).
    pub fn set_train<'a>(&mut self, train: &Train, words: impl Iterator<Item = &'a str> + Clone) {
        self.oov = words
            .clone()
            .flat_map(str::split_whitespace)
            .any(|w| !train.vocabulary.contains(w));
        let text = join(words);
        if let Some(labels) = train.entities.get(&text) {
            self.train_freq = labels.values().sum();
            self.train_same_label = labels.get(&self.label).copied().unwrap_or(0);
        }
    }
}

/// The words of a text joined by one space (a span's text as the training keys compare it).
pub fn join<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for w in words.flat_map(str::split_whitespace) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// What the training keys read of a training file: its tokens, and for each entity text the
/// number of its occurrences per label.
#[derive(Debug, Clone, Default)]
pub struct Train {
    /// Every token (whitespace-separated word) of the file.
    pub vocabulary: HashSet<String>,
    /// Entity text (words joined by one space) → label → occurrences.
    pub entities: HashMap<String, HashMap<String, u32>>,
}

impl Train {
    /// Counts one entity of the training file.
    pub fn add_entity(&mut self, text: String, label: &str) {
        *self
            .entities
            .entry(text)
            .or_default()
            .entry(label.to_string())
            .or_default() += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalisation_classes() {
        let c = |s: &str| Caps::of(s.split(' '));
        assert_eq!(c("UNESCO"), Caps::Upper);
        assert_eq!(c("Jean Dupont"), Caps::Title);
        assert_eq!(c("Jean-pierre l'"), Caps::Mixed);
        assert_eq!(c("paris"), Caps::Lower);
        assert_eq!(c("de Gaulle"), Caps::Mixed);
        assert_eq!(c("1914 ,"), Caps::NoLetters);
        assert_eq!(c("A"), Caps::Upper);
        assert_eq!(c("Zürich 2"), Caps::Title);
    }
}
