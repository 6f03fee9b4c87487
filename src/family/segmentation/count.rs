//! Word segmentation: one sentence of gold words against one sentence of predicted words.
//!
//! A sentence's characters are the non-whitespace characters of its words, in order (Unicode
//! scalar values, no normalization). Gold and prediction must have the same characters. A word
//! is the span `[start, end)` of its characters; a predicted word is a true positive when a
//! gold word has the same span (Shao et al. 2017, §2.1). The inner boundaries of a sentence of
//! N characters are the N − 1 positions between two characters; a segmentation has a boundary
//! where one of its words ends before the last character (Palmer and Burger 1997, as cited in
//! Shao et al. 2017, §2.3). TW = N(N + 1)/2 is the number of substrings, the possible words
//! (Shao et al. 2017, eq. 1).
//!
//! The comparison walks both word lists once, with no allocation.

use std::str::Chars;

/// Counts of one sentence or summed over sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SegCounts {
    /// Characters (N), summed.
    pub chars: u64,
    /// Possible words, Σ N(N + 1)/2.
    pub tw: u64,
    /// Gold words (RP).
    pub gold_words: u64,
    /// Predicted words (PP).
    pub pred_words: u64,
    /// Predicted words whose span equals a gold word's span.
    pub tp_words: u64,
    /// Inner boundaries of the gold (a sentence of k words has k − 1).
    pub gold_boundaries: u64,
    /// Inner boundaries of the prediction.
    pub pred_boundaries: u64,
    /// Inner boundaries that gold and prediction share.
    pub tp_boundaries: u64,
}

/// Which side of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The gold words.
    Gold,
    /// The predicted words.
    Pred,
}

/// Why two sentences cannot be compared. `index` is the 0-based character position, `word`
/// the 0-based index of the word holding the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    /// Different characters at `index`.
    Char {
        /// 0-based character position.
        index: u64,
        /// The gold character.
        gold: char,
        /// 0-based index of the gold word holding it.
        gold_word: usize,
        /// The predicted character.
        pred: char,
        /// 0-based index of the predicted word holding it.
        pred_word: usize,
    },
    /// `side` has the character `ch` at `index`, where the other side has already ended.
    Longer {
        /// The side that goes on.
        side: Side,
        /// 0-based position of `ch`: the other side's number of characters.
        index: u64,
        /// The first character past the other side's end.
        ch: char,
        /// 0-based index of the word of `side` holding `ch`.
        word: usize,
    },
    /// A word with no (non-whitespace) character.
    EmptyWord {
        /// The side with the empty word.
        side: Side,
        /// 0-based index of the empty word.
        word: usize,
    },
}

/// The characters of a word sequence, each with whether it ends its word.
struct Stream<'a, I> {
    words: I,
    /// Index of the current word; `usize::MAX` before the first.
    word: usize,
    chars: Chars<'a>,
    peek: Option<char>,
    side: Side,
}

impl<'a, I: Iterator<Item = &'a str>> Stream<'a, I> {
    fn new(words: I, side: Side) -> Self {
        Stream {
            words,
            word: usize::MAX,
            chars: "".chars(),
            peek: None,
            side,
        }
    }

    fn next_char(chars: &mut Chars<'a>) -> Option<char> {
        chars.find(|c| !c.is_whitespace())
    }

    /// The next character and whether it is its word's last; `None` at the end.
    fn next(&mut self) -> Result<Option<(char, bool)>, Mismatch> {
        if self.peek.is_none() {
            let Some(w) = self.words.next() else {
                return Ok(None);
            };
            self.word = self.word.wrapping_add(1);
            self.chars = w.chars();
            self.peek = Self::next_char(&mut self.chars);
            if self.peek.is_none() {
                return Err(Mismatch::EmptyWord {
                    side: self.side,
                    word: self.word,
                });
            }
        }
        let c = self.peek.take();
        self.peek = Self::next_char(&mut self.chars);
        Ok(c.map(|c| (c, self.peek.is_none())))
    }
}

/// Compares one sentence: gold words against predicted words. Errs with the first
/// [`Mismatch`] met while walking the characters (gold checked before prediction).
pub fn compare<'a, G, P>(gold: G, pred: P) -> Result<SegCounts, Mismatch>
where
    G: IntoIterator<Item = &'a str>,
    P: IntoIterator<Item = &'a str>,
{
    let mut g = Stream::new(gold.into_iter(), Side::Gold);
    let mut p = Stream::new(pred.into_iter(), Side::Pred);
    let mut c = SegCounts::default();
    let (mut gstart, mut pstart) = (0u64, 0u64);
    let mut both_end = 0u64;
    let mut pos = 0u64;
    loop {
        match (g.next()?, p.next()?) {
            (None, None) => break,
            (Some((gc, gend)), Some((pc, pend))) => {
                if gc != pc {
                    return Err(Mismatch::Char {
                        index: pos,
                        gold: gc,
                        gold_word: g.word,
                        pred: pc,
                        pred_word: p.word,
                    });
                }
                pos += 1;
                if gend && pend {
                    both_end += 1;
                    if gstart == pstart {
                        c.tp_words += 1;
                    }
                }
                if gend {
                    c.gold_words += 1;
                    gstart = pos;
                }
                if pend {
                    c.pred_words += 1;
                    pstart = pos;
                }
            }
            (Some((ch, _)), None) => {
                return Err(Mismatch::Longer {
                    side: Side::Gold,
                    index: pos,
                    ch,
                    word: g.word,
                })
            }
            (None, Some((ch, _))) => {
                return Err(Mismatch::Longer {
                    side: Side::Pred,
                    index: pos,
                    ch,
                    word: p.word,
                })
            }
        }
    }
    c.chars = pos;
    c.tw = pos * (pos + 1) / 2;
    if pos > 0 {
        // The last character ends a word on both sides: it is not an inner boundary.
        c.gold_boundaries = c.gold_words - 1;
        c.pred_boundaries = c.pred_words - 1;
        c.tp_boundaries = both_end - 1;
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(g: &str, p: &str) -> Result<SegCounts, Mismatch> {
        compare(g.split_whitespace(), p.split_whitespace())
    }

    #[test]
    fn counts() {
        let c = cmp("约翰 喜欢 玛丽", "约翰 喜欢 玛 丽").unwrap();
        assert_eq!(
            (c.chars, c.tw, c.gold_words, c.pred_words, c.tp_words),
            (6, 21, 3, 4, 2)
        );
        assert_eq!(
            (c.gold_boundaries, c.pred_boundaries, c.tp_boundaries),
            (2, 3, 2)
        );
        let e = cmp("", "").unwrap();
        assert_eq!(e, SegCounts::default());
    }

    #[test]
    fn mismatches() {
        assert_eq!(
            cmp("ab c", "ab d"),
            Err(Mismatch::Char {
                index: 2,
                gold: 'c',
                gold_word: 1,
                pred: 'd',
                pred_word: 1
            })
        );
        assert_eq!(
            cmp("ab c", "a b"),
            Err(Mismatch::Longer {
                side: Side::Gold,
                index: 2,
                ch: 'c',
                word: 1
            })
        );
        assert_eq!(
            cmp("a", "a bc"),
            Err(Mismatch::Longer {
                side: Side::Pred,
                index: 1,
                ch: 'b',
                word: 1
            })
        );
        assert_eq!(
            compare(["a", " "], ["a"]),
            Err(Mismatch::EmptyWord {
                side: Side::Gold,
                word: 1
            })
        );
    }
}
