//! The signature of a scoring (sacreBLEU's idea): one line that names everything the numbers
//! depend on, field by field — the family, its options as the family applies them, the
//! resampling, short content hashes of the gold and run files and the fairscore version:
//!
//! ```text
//! fairscore|family:spans|format:conll|beta:1|regimes:strict,ent_type,partial,exact|resample:bootstrap|n:1000|seed:42|conf:0.95|unit:document|gold:1a2b3c4d|run:5e6f7a8b|version:0.2.0
//! ```
//!
//! Two scorings with the same signature were made the same way on the same bytes. A
//! [`Signature`] is an ordered list of `name:value` fields; [`Signature::parse`] reads the text
//! back (`parse(display(s)) == s`). A `|` or `%` inside a value is written `%7C` or `%25`.

use std::fmt;

use crate::error::{snippet, Error, Result};

/// The first field of every signature.
pub const PREFIX: &str = "fairscore";

/// A scoring's signature: ordered `name:value` fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    fields: Vec<(String, String)>,
}

impl Signature {
    /// An empty signature (no fields).
    pub fn new() -> Self {
        Signature::default()
    }

    /// Appends field `name` (a name is lower-case letters, digits, `_` and `-`).
    pub fn push(&mut self, name: &str, value: impl Into<String>) {
        self.fields.push((name.to_string(), value.into()));
    }

    /// The fields, in order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.fields
    }

    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Reads a signature back from its text.
    pub fn parse(text: &str) -> Result<Signature> {
        let bad = |m: String| Error::usage(format!("signature {}: {m}", snippet(text)));
        let mut parts = text.trim().split('|');
        if parts.next() != Some(PREFIX) {
            return Err(bad(format!("expected it to start with `{PREFIX}|`")));
        }
        let mut out = Signature::new();
        for part in parts {
            let (name, value) = part
                .split_once(':')
                .ok_or_else(|| bad(format!("field {} has no `:`", snippet(part))))?;
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
            if !ok {
                return Err(bad(format!("bad field name {}", snippet(name))));
            }
            out.push(
                name,
                unescape(value).ok_or_else(|| bad("bad % escape".into()))?,
            );
        }
        Ok(out)
    }
}

fn escape(v: &str) -> String {
    v.replace('%', "%25")
        .replace('|', "%7C")
        .replace('\n', "%0A")
        .replace('\r', "%0D")
}

fn unescape(v: &str) -> Option<String> {
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 3)?;
        out.push(match code {
            "25" => '%',
            "7C" | "7c" => '|',
            "0A" | "0a" => '\n',
            "0D" | "0d" => '\r',
            _ => return None,
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    Some(out)
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PREFIX)?;
        for (n, v) in &self.fields {
            write!(f, "|{n}:{}", escape(v))?;
        }
        Ok(())
    }
}

/// A short content hash, the hash of every input a signature names (docs/signatures.md): a
/// multiply-rotate hash over the bytes as little-endian 8-byte words (the last one padded with
/// zeros), then their length, mixed by MurmurHash3's finaliser and folded to 32 bits, as 8
/// hexadecimal digits. The same on every platform; a word at a time, about ten times faster
/// than a byte-wise hash such as FNV-1a.
pub fn short_hash(bytes: &[u8]) -> String {
    let mut h = ContentHash::default();
    h.add(bytes);
    h.finish()
}

/// [`short_hash`] made piece by piece: the same value for the same bytes however they are
/// cut.
#[derive(Debug, Clone, Copy)]
pub struct ContentHash {
    h: u64,
    /// The bytes of the word under way, and how many.
    word: [u8; 8],
    filled: usize,
    len: u64,
}

impl Default for ContentHash {
    fn default() -> Self {
        ContentHash {
            h: 0x243f_6a88_85a3_08d3,
            word: [0; 8],
            filled: 0,
            len: 0,
        }
    }
}

impl ContentHash {
    #[inline]
    fn step(&mut self, w: u64) {
        self.h = (self.h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    /// Adds the next bytes.
    pub fn add(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.word[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.step(u64::from_le_bytes(self.word));
            self.filled = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.step(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        self.word[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// The hash: the last word padded with zeros, then the length, mixed and folded to 32
    /// bits, as 8 hexadecimal digits.
    pub fn finish(mut self) -> String {
        if self.filled > 0 {
            self.word[self.filled..].fill(0);
            self.step(u64::from_le_bytes(self.word));
        }
        let len = self.len;
        self.step(len);
        let mut h = self.h;
        // Every input bit reaches every output bit (MurmurHash3's finaliser).
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        format!("{:08x}", (h ^ (h >> 32)) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_round_trip_with_escapes() {
        let mut s = Signature::new();
        s.push("family", "fair");
        s.push("weights", "LE = 0.5 FP | 50% FN");
        s.push("gold", short_hash(b"abc"));
        let text = s.to_string();
        assert!(text.starts_with("fairscore|family:fair|weights:LE = 0.5 FP %7C 50%25 FN|"));
        assert_eq!(Signature::parse(&text).ok(), Some(s.clone()));
        assert_eq!(s.get("family"), Some("fair"));
        assert!(Signature::parse("sacrebleu|a:b").is_err());
        assert!(Signature::parse("fairscore|ab").is_err());
        assert!(Signature::parse("fairscore|a:%zz").is_err());
        assert_ne!(short_hash(b"abc"), short_hash(b"abd"));
        assert_eq!(short_hash(b"abc").len(), 8);
    }

    #[test]
    fn content_hash_sees_every_byte_and_the_length() {
        let base = short_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n");
        assert_eq!(base.len(), 8);
        assert!(base.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(base, short_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n"));
        assert_ne!(base, short_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOD\n"));
        assert_ne!(base, short_hash(b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\n\0"));
        assert_ne!(short_hash(b""), short_hash(b"\0"));
        // Piece by piece, cut anywhere, the same hash.
        let whole = b"TOKEN\tNE-COARSE-LIT\nParis\tB-LOC\nest\tO\n";
        for a in 0..whole.len() {
            for b in a..whole.len() {
                let mut h = ContentHash::default();
                for piece in [&whole[..a], &whole[a..b], &whole[b..]] {
                    h.add(piece);
                }
                assert_eq!(h.finish(), short_hash(whole), "{a} {b}");
            }
        }
        // One flipped bit anywhere changes the hash.
        let text = b"abcdefghijklmnopqrstuvwxyz".to_vec();
        for i in 0..text.len() * 8 {
            let mut t = text.clone();
            t[i / 8] ^= 1 << (i % 8);
            assert_ne!(short_hash(&t), short_hash(&text), "bit {i}");
        }
    }
}
