//! The signature of a scoring (sacreBLEU's idea): one line that names everything the numbers
//! depend on, field by field — the family, its options as the family applies them, the
//! resampling, short content hashes of the gold and run files and the fairscore version:
//!
//! ```text
//! fairscore|family:spans|format:conll|beta:1|regimes:strict,ent_type,partial,exact|resample:bootstrap|n:1000|seed:42|conf:0.95|unit:document|gold:1a2b3c4d|run:5e6f7a8b|version:0.1.0
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

/// A 64-bit FNV-1a hash of `bytes` (the same on every platform).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A short content hash: 8 hex digits of [`fnv1a64`] folded to 32 bits.
pub fn short_hash(bytes: &[u8]) -> String {
    let h = fnv1a64(bytes);
    format!("{:08x}", (h ^ (h >> 32)) as u32)
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
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(short_hash(b"abc"), short_hash(b"abd"));
        assert_eq!(short_hash(b"abc").len(), 8);
    }
}
