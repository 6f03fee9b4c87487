//! What the breakdown keys read of one span, and of a training file.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

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
    pub fn of<'a>(words: impl Iterator<Item = &'a str>) -> Caps {
        // One pass over the letters: whether any, whether all upper, all lower, and whether
        // each word's first letter is upper and its others lower (a word: a piece between
        // whitespace, within a token).
        let (mut any, mut upper, mut lower, mut title) = (false, true, true, true);
        for token in words {
            let mut first = true;
            for c in token.chars() {
                if c.is_whitespace() {
                    first = true;
                } else if c.is_alphabetic() {
                    any = true;
                    let (u, l) = (c.is_uppercase(), c.is_lowercase());
                    upper &= u;
                    lower &= l;
                    title &= if first { u } else { l };
                    first = false;
                }
            }
        }
        match (any, upper, lower, title) {
            (false, ..) => Caps::NoLetters,
            (_, true, ..) => Caps::Upper,
            (_, _, true, _) => Caps::Lower,
            (.., true) => Caps::Title,
            _ => Caps::Mixed,
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
    /// The largest noise level (HIPE MISC `LED…`) of the gold's tokens at its positions, 0
    /// when none has one.
    pub noise: f64,
    /// The year of the gold's date at its first token (HIPE `# date`), 0 without one.
    pub year: f64,
    /// An id for listings: document, sentence, tokens and text.
    pub id: String,
    /// The line of its first token in its file (0 when the format has no lines).
    pub line: usize,
}

impl Facts {
    /// Sets the training values of a span of `words` (its tokens).
    pub fn set_train<'a>(&mut self, train: &Train, words: impl Iterator<Item = &'a str> + Clone) {
        let text = join(words.clone());
        self.set_train_joined(train, words, &text);
    }

    /// [`Facts::set_train`] with the words' text joined already ([`join`]).
    pub fn set_train_joined<'a>(
        &mut self,
        train: &Train,
        words: impl Iterator<Item = &'a str>,
        text: &str,
    ) {
        self.oov = words
            .flat_map(str::split_whitespace)
            .any(|w| !train.vocabulary.contains(w));
        if let Some(labels) = train.entities.get(text) {
            self.train_freq = labels.iter().map(|x| x.1).sum();
            self.train_same_label = labels.iter().find(|x| x.0 == self.label).map_or(0, |x| x.1);
        }
    }
}

/// The words of a text joined by one space (a span's text as the training keys compare it).
pub fn join<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for token in words {
        if one_word(token) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(token);
            continue;
        }
        for w in token.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}

/// Whether `token` is one whitespace-separated word as it is: printable ASCII without a space
/// (most tokens; any other is split by [`str::split_whitespace`]).
#[inline]
pub fn one_word(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b > b' ' && b < 0x7f)
}

/// The hasher of the training file's words and entity texts: FxHash's multiply-rotate over
/// 8-byte words (written here), several times faster than the keyed default on short
/// strings. Not keyed: the keys come from the user's own files, not from an adversary.
#[derive(Debug, Clone, Copy, Default)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The hash builder of [`Train`]'s sets and maps.
pub type Words = BuildHasherDefault<WordHasher>;

/// What the training keys read of a training file: its tokens, and for each entity text the
/// number of its occurrences per label.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Train {
    /// Every token (whitespace-separated word) of the file.
    pub vocabulary: HashSet<String, Words>,
    /// Entity text (words joined by one space) → (label, occurrences) of each of its labels.
    pub entities: HashMap<String, Vec<(String, u32)>, Words>,
}

impl Train {
    /// Counts one entity of the training file.
    pub fn add_entity(&mut self, text: &str, label: &str) {
        let labels = match self.entities.get_mut(text) {
            Some(v) => v,
            None => self.entities.entry(text.to_string()).or_default(),
        };
        match labels.iter_mut().find(|x| x.0 == label) {
            Some(x) => x.1 += 1,
            None => labels.push((label.to_string(), 1)),
        }
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
        assert_eq!(c("ÉCOLE"), Caps::Upper);
        assert_eq!(c("jean Dupont"), Caps::Mixed);
        // Words are cut at whitespace inside a token too.
        assert_eq!(Caps::of(["New york", "City"].into_iter()), Caps::Mixed);
        assert_eq!(Caps::of(["New York", "City"].into_iter()), Caps::Title);
        assert_eq!(Caps::of(["北京"].into_iter()), Caps::Mixed);
    }

    #[test]
    fn training_entities_count_per_label() {
        let mut t = Train::default();
        t.add_entity("New York", "LOC");
        t.add_entity("New York", "ORG");
        t.add_entity("New York", "LOC");
        t.vocabulary.insert("New".into());
        let mut f = Facts {
            unit: 0,
            correct: true,
            label: "LOC".into(),
            tokens: 2,
            chars: 8,
            sentence_tokens: 2,
            sentence_entities: 1,
            start_in_sentence: 0,
            caps: Caps::Title,
            document: String::new(),
            oov: false,
            train_freq: 0,
            train_same_label: 0,
            noise: 0.0,
            year: 0.0,
            id: String::new(),
            line: 0,
        };
        f.set_train(&t, ["New", "York"].into_iter());
        assert_eq!((f.oov, f.train_freq, f.train_same_label), (true, 3, 2));
        let mut h = (WordHasher::default(), WordHasher::default());
        h.0.write(b"abcdefghi");
        h.1.write(b"abcdefghj");
        assert_ne!(h.0.finish(), h.1.finish());
    }
}
