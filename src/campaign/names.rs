//! The typed pieces of a campaign file that end up in file names: [`Name`] (a dataset,
//! language, bundle, output suffix, ranking kind or resource file name) and [`Pattern`] (the
//! run-name and gold-file patterns). Both are validated when the campaign is loaded, so nothing
//! read from a campaign file can name a path outside the campaign's directories.

use std::borrow::Borrow;
use std::fmt;

/// A validated plain name: not empty, at most [`Name::MAX_LEN`] bytes, no path separator, no
/// `..`, no control character. Compares, hashes and borrows as its text, so maps keyed by
/// `Name` can be looked up with a `&str`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(String);

impl Name {
    /// Longest name accepted.
    pub const MAX_LEN: usize = 200;

    /// Validates `text`; the error says what is wrong with it.
    pub fn new(text: &str) -> Result<Name, String> {
        check_plain(text, false)?;
        Ok(Name(text.to_string()))
    }

    /// The name's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// Checks text that becomes (part of) a file name. `part`: a piece of a name (a pattern's
/// literal text), which may be short or contain anything but separators and control characters.
pub(crate) fn check_plain(text: &str, part: bool) -> Result<(), String> {
    if text.is_empty() && !part {
        return Err("is empty".into());
    }
    if text.len() > Name::MAX_LEN {
        return Err(format!("is longer than {} bytes", Name::MAX_LEN));
    }
    if text.contains(['/', '\\']) {
        return Err(format!(
            "{} contains a path separator (/ or \\)",
            crate::error::snippet(text)
        ));
    }
    if text.contains("..") {
        return Err(format!("{} contains ..", crate::error::snippet(text)));
    }
    if text.chars().any(char::is_control) {
        return Err(format!(
            "{} contains a control character",
            crate::error::snippet(text)
        ));
    }
    Ok(())
}

/// A placeholder of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placeholder {
    /// `{team}`: the team's name.
    Team,
    /// `{bundle}`: the bundle id (required in run patterns).
    Bundle,
    /// `{dataset}`: the dataset's name.
    Dataset,
    /// `{lang}`: the language (required in run patterns).
    Lang,
    /// `{run}`: the run's id within the bundle (e.g. `1`).
    Run,
}

impl Placeholder {
    /// The name written between braces.
    pub fn as_str(self) -> &'static str {
        match self {
            Placeholder::Team => "team",
            Placeholder::Bundle => "bundle",
            Placeholder::Dataset => "dataset",
            Placeholder::Lang => "lang",
            Placeholder::Run => "run",
        }
    }

    fn parse(s: &str) -> Option<Placeholder> {
        [
            Placeholder::Team,
            Placeholder::Bundle,
            Placeholder::Dataset,
            Placeholder::Lang,
            Placeholder::Run,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}

/// Placeholders of a run-name pattern.
pub const RUN_PLACEHOLDERS: &[Placeholder] = &[
    Placeholder::Team,
    Placeholder::Bundle,
    Placeholder::Dataset,
    Placeholder::Lang,
    Placeholder::Run,
];
/// Placeholders of a gold-file pattern.
pub const GOLD_PLACEHOLDERS: &[Placeholder] = &[Placeholder::Dataset, Placeholder::Lang];

/// One piece of a parsed [`Pattern`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Lit(String),
    Var(Placeholder),
}

/// A validated file-name pattern: literal text and `{placeholder}`s, no two placeholders
/// touching, literal text free of path separators, `..` and control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    text: String,
    parts: Vec<Part>,
}

impl Pattern {
    /// Parses `text`, allowing only the given placeholders.
    pub fn parse(text: &str, allowed: &[Placeholder]) -> Result<Pattern, String> {
        let mut parts = Vec::new();
        let mut prev_var = false;
        for piece in pieces(text)? {
            match piece {
                Piece::Var(v) => {
                    let p = Placeholder::parse(v)
                        .filter(|p| allowed.contains(p))
                        .ok_or_else(|| {
                            let names: Vec<&str> = allowed.iter().map(|p| p.as_str()).collect();
                            format!(
                                "unknown placeholder {{{v}}} in {text:?} (allowed: {})",
                                names.join(", ")
                            )
                        })?;
                    if prev_var {
                        return Err(format!("two placeholders touch in {text:?}"));
                    }
                    if parts.contains(&Part::Var(p)) {
                        return Err(format!(
                            "placeholder {{{v}}} is given twice in {text:?} (a name fits it in one place only)"
                        ));
                    }
                    prev_var = true;
                    parts.push(Part::Var(p));
                }
                Piece::Lit(l) => {
                    check_plain(l, true).map_err(|e| format!("pattern {text:?}: {e}"))?;
                    prev_var = false;
                    parts.push(Part::Lit(l.to_string()));
                }
            }
        }
        if parts.is_empty() {
            return Err("empty pattern".into());
        }
        Ok(Pattern {
            text: text.to_string(),
            parts,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Does the pattern use this placeholder?
    pub fn has(&self, p: Placeholder) -> bool {
        self.parts.contains(&Part::Var(p))
    }

    /// The pattern's literal pieces, in order (a name fitting it contains every one).
    pub fn literals(&self) -> Vec<&str> {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Lit(l) => Some(l.as_str()),
                Part::Var(_) => None,
            })
            .collect()
    }

    /// The pattern with its placeholders filled (a placeholder without a value stays as
    /// written).
    pub fn fill(&self, values: &[(Placeholder, &str)]) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Lit(l) => out.push_str(l),
                Part::Var(v) => match values.iter().find(|(p, _)| p == v) {
                    Some((_, value)) => out.push_str(value),
                    None => {
                        out.push('{');
                        out.push_str(v.as_str());
                        out.push('}');
                    }
                },
            }
        }
        out
    }

    /// Every way `text` fits the pattern, each placeholder taking a non-empty value (at most
    /// 64 ways: a pattern has a handful of placeholders and names are short).
    pub fn matches<'t>(&self, text: &'t str) -> Vec<Vec<(Placeholder, &'t str)>> {
        let mut out = Vec::new();
        match_parts(&self.parts, text, &mut Vec::new(), &mut out);
        out
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn match_parts<'t>(
    parts: &[Part],
    text: &'t str,
    bound: &mut Vec<(Placeholder, &'t str)>,
    out: &mut Vec<Vec<(Placeholder, &'t str)>>,
) {
    if out.len() >= 64 {
        return;
    }
    match parts.split_first() {
        None => {
            if text.is_empty() {
                out.push(bound.clone());
            }
        }
        Some((Part::Lit(l), rest)) => {
            if let Some(t) = text.strip_prefix(l.as_str()) {
                match_parts(rest, t, bound, out);
            }
        }
        Some((Part::Var(v), rest)) => {
            for (i, _) in text.char_indices().skip(1).chain([(text.len(), ' ')]) {
                bound.push((*v, &text[..i]));
                match_parts(rest, &text[i..], bound, out);
                bound.pop();
            }
        }
    }
}

/// The extension of a file's name as run names drop it: the text from the last `.`, when
/// it is 1 to 16 ASCII letters and digits starting with a letter (`.conll`, `.jsonl`, `.txt`)
/// and leaves a non-empty stem; `None` otherwise (`v1.5` keeps its `.5`).
pub fn file_extension(name: &str) -> Option<&str> {
    let dot = name.rfind('.')?;
    let ext = &name[dot + 1..];
    let ok = dot > 0
        && (1..=16).contains(&ext.len())
        && ext.starts_with(|c: char| c.is_ascii_alphabetic())
        && ext.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then_some(&name[dot..])
}

/// The extension of a run pattern (`.conll` of `{team}_{run}.conll`): the literal text after
/// its last placeholder, from its last `.`; `None` when the pattern ends without one.
pub fn pattern_extension(p: &Pattern) -> Option<&str> {
    match p.parts.last()? {
        Part::Lit(l) => l.rfind('.').map(|i| &l[i..]),
        Part::Var(_) => None,
    }
}

/// What a run pattern is matched against, and what names the system: a name matched by a
/// pattern with an extension is the name without it (`alpha_1.conll` for
/// `{team}_{run}.conll`: the system `alpha_1`), a file for a pattern without one is matched
/// without its own extension ([`file_extension`]: `bravo_1.jsonl` for `{team}_{run}` is
/// `bravo_1`, run `1`), and a folder (a brat run) by its whole name. The text matched,
/// then the system name: the same function for `leaderboard --campaign` and the Codabench
/// scoring program, so that the two name runs alike.
pub fn run_stem<'n>(pattern: &Pattern, name: &'n str, folder: bool) -> (&'n str, &'n str) {
    match pattern_extension(pattern) {
        Some(ext) => (name, name.strip_suffix(ext).unwrap_or(name)),
        None if folder => (name, name),
        None => {
            let stem = file_extension(name).map_or(name, |e| &name[..name.len() - e.len()]);
            (stem, stem)
        }
    }
}

/// The pieces of a pattern as written: literal text and `{name}` placeholders, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Literal text.
    Lit(&'a str),
    /// A placeholder's name, without the braces.
    Var(&'a str),
}

/// Splits a pattern into pieces. Errors on an unclosed brace.
pub fn pieces(pattern: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Piece::Lit(&rest[..open]));
        }
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed {{ in pattern {pattern:?}"))?;
        out.push(Piece::Var(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Lit(rest));
    }
    Ok(out)
}

/// Fills `{name}` placeholders of a pattern text; unknown ones are left as written.
pub fn fill(pattern: &str, values: &[(&str, &str)]) -> String {
    let mut out = pattern.to_string();
    for (k, v) in values {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_refuse_paths_and_control_characters() {
        assert!(Name::new("relaxed").is_ok());
        for bad in ["", "a/b", "x/../../escaped", "..", "a\\b", "a\nb", "a\tb"] {
            assert!(Name::new(bad).is_err(), "{bad:?}");
        }
        assert!(Name::new(&"x".repeat(201)).is_err());
    }

    #[test]
    fn patterns_parse_fill_and_match() {
        let p = Pattern::parse("{team}_bundle{bundle}_{lang}", RUN_PLACEHOLDERS).unwrap();
        assert!(p.has(Placeholder::Bundle) && !p.has(Placeholder::Dataset));
        assert_eq!(
            p.fill(&[(Placeholder::Team, "t"), (Placeholder::Lang, "de")]),
            "t_bundle{bundle}_de"
        );
        let m = p.matches("a_b_bundle1_de");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0][0], (Placeholder::Team, "a_b"));
        assert!(Pattern::parse("{team}{run}", RUN_PLACEHOLDERS).is_err());
        assert!(Pattern::parse("{x}", RUN_PLACEHOLDERS).is_err());
        assert!(Pattern::parse("{run}", GOLD_PLACEHOLDERS).is_err());
        assert!(Pattern::parse("../{lang}.tsv", GOLD_PLACEHOLDERS).is_err());
        assert!(Pattern::parse("gold/{lang}.tsv", GOLD_PLACEHOLDERS).is_err());
        assert!(Pattern::parse("{lang", GOLD_PLACEHOLDERS).is_err());
        assert_eq!(
            pieces("{team}_bundle{bundle}").unwrap(),
            vec![
                Piece::Var("team"),
                Piece::Lit("_bundle"),
                Piece::Var("bundle")
            ]
        );
        assert_eq!(fill("a-{lang}-{x}", &[("lang", "de")]), "a-de-{x}");
    }

    #[test]
    fn run_names_drop_extensions_and_keep_folders() {
        let bare = Pattern::parse("{team}_{run}", RUN_PLACEHOLDERS).unwrap();
        let conll = Pattern::parse("{team}_{run}.conll", RUN_PLACEHOLDERS).unwrap();
        assert_eq!(pattern_extension(&bare), None);
        assert_eq!(pattern_extension(&conll), Some(".conll"));
        assert_eq!(
            run_stem(&bare, "bravo_1.jsonl", false),
            ("bravo_1", "bravo_1")
        );
        assert_eq!(run_stem(&bare, "alpha_1", true), ("alpha_1", "alpha_1"));
        assert_eq!(
            run_stem(&bare, "alpha_1.brat", true),
            ("alpha_1.brat", "alpha_1.brat")
        );
        assert_eq!(run_stem(&bare, "t_v1.5", false), ("t_v1.5", "t_v1.5"));
        assert_eq!(run_stem(&bare, ".conll", false), (".conll", ".conll"));
        assert_eq!(run_stem(&conll, "a_1.conll", false), ("a_1.conll", "a_1"));
        assert_eq!(file_extension("x.tar_gz"), None);
        assert_eq!(file_extension("x.json"), Some(".json"));
    }
}
