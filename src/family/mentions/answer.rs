//! Reading what a model printed: the entity shapes of a JSON record and the raw answers
//! (`output` text), by a named parser (`docs/generative.md`). A malformed answer is never an
//! error: it is read as what its parser keeps (often nothing) and counted.

use serde_json::Value;

use super::settings::Parser;

/// One predicted (or gold) mention: its text, its type when it has one, its character
/// offsets when given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// The text as written (a UniversalNER list item: its elements joined by U+0000).
    pub text: String,
    /// The type, when the answer or the query gives one.
    pub label: Option<String>,
    /// `[start, end)` in characters, when given.
    pub offsets: Option<(usize, usize)>,
    /// A list item where UniversalNER expects a string (never equal to a string).
    pub tuple: bool,
    /// The knowledge-base id, when given ([`kb_id`]: `NIL` for none).
    pub kb: Option<String>,
}

impl Mention {
    /// A mention of `text` of type `label`.
    pub fn new(text: &str, label: Option<&str>) -> Mention {
        Mention {
            text: text.to_string(),
            label: label.map(str::to_string),
            offsets: None,
            tuple: false,
            kb: None,
        }
    }
}

/// The fields of an entity object that hold its knowledge-base id, in this order (an
/// entity's `id` is not one: many formats number their annotations with it).
pub const KB_FIELDS: [&str; 4] = ["kb", "qid", "link", "kb_id"];

/// A knowledge-base id as compared: trimmed; empty, `_` and `-` are `NIL`.
pub fn kb_id(id: &str) -> String {
    match id.trim() {
        "" | "_" | "-" => "NIL".to_string(),
        t => t.to_string(),
    }
}

/// One answer read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The mentions kept, in answer order.
    pub mentions: Vec<Mention>,
    /// The answer (or part of it) could not be read as its parser expects.
    pub malformed: bool,
    /// Text around the list was dropped.
    pub prose: bool,
    /// The raw answer text, when the answer was text.
    pub raw: Option<String>,
}

/// Reads an `entities` value: a list of strings (of type `query`), of `[text, type]` pairs
/// (or `[text, type, kb]` triples) or of objects with `text`/`span`/`name`/`mention` and
/// `type`/`label` (offsets `start`, `end` and a knowledge-base id of [`KB_FIELDS`] optional); an object from each type to its list of strings; a string (a raw answer,
/// read by `parser`); `null` (no mention).
pub fn entities(v: &Value, query: Option<&str>, parser: Parser) -> Answer {
    let mut a = Answer::default();
    match v {
        Value::Null => {}
        Value::String(s) => return raw(s, query, parser),
        Value::Array(items) => {
            for it in items {
                match item(it, query) {
                    Some(m) => a.mentions.push(m),
                    None => a.malformed = true,
                }
            }
        }
        Value::Object(map) => {
            if let Some(m) = object_item(map, query) {
                a.mentions.push(m);
            } else {
                for (ty, list) in map {
                    let strings: Option<Vec<&str>> = match list {
                        Value::Array(xs) => xs.iter().map(Value::as_str).collect(),
                        Value::String(s) => Some(vec![s.as_str()]),
                        _ => None,
                    };
                    match strings {
                        Some(xs) => a
                            .mentions
                            .extend(xs.into_iter().map(|x| Mention::new(x, Some(ty)))),
                        None => a.malformed = true,
                    }
                }
            }
        }
        _ => a.malformed = true,
    }
    a
}

fn item(v: &Value, query: Option<&str>) -> Option<Mention> {
    match v {
        Value::String(s) => Some(Mention::new(s, query)),
        Value::Array(xs) => match xs.as_slice() {
            [Value::String(t), Value::String(ty)] => Some(Mention::new(t, Some(ty))),
            [Value::String(t), Value::String(ty), Value::String(kb)] => {
                let mut m = Mention::new(t, Some(ty));
                m.kb = Some(kb_id(kb));
                Some(m)
            }
            [Value::String(t)] => Some(Mention::new(t, query)),
            _ => None,
        },
        Value::Object(map) => object_item(map, query),
        _ => None,
    }
}

fn object_item(map: &serde_json::Map<String, Value>, query: Option<&str>) -> Option<Mention> {
    let text = ["text", "span", "name", "mention", "entity"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))?;
    let label = ["type", "label", "entity_type", "category"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .or(query);
    let mut m = Mention::new(text, label);
    m.kb = KB_FIELDS
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .map(kb_id);
    let off = |k: &str| map.get(k).and_then(Value::as_u64).map(|x| x as usize);
    if let (Some(s), Some(e)) = (off("start"), off("end")) {
        m.offsets = (s <= e).then_some((s, e));
    }
    Some(m)
}

/// Reads a raw answer with `parser` (`query`: the type a query asked for).
pub fn raw(text: &str, query: Option<&str>, parser: Parser) -> Answer {
    let mut a = match parser {
        Parser::JsonList => json_list(text, query),
        Parser::Pairs => pairs(text, query),
        Parser::Python => python(text),
        Parser::Auto => auto(text, query),
    };
    a.raw = Some(text.to_string());
    a
}

/// UniversalNER's `parser`: `re.match(r'\[(.*?)\]', text)` (the list must open the answer
/// and close on its first line at the first `]`), then `json.loads`; every item a string or
/// a list of strings, else the whole answer is empty.
fn json_list(text: &str, query: Option<&str>) -> Answer {
    let mut a = Answer::default();
    let close = text
        .strip_prefix('[')
        .and_then(|rest| rest.find([']', '\n']))
        .filter(|&i| text.as_bytes()[i + 1] == b']');
    let Some(i) = close else {
        a.malformed = !text.trim().is_empty();
        return a;
    };
    a.prose = !text[i + 2..].trim().is_empty();
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&text[..i + 2]) else {
        a.malformed = true;
        return a;
    };
    for it in &items {
        match it {
            Value::String(s) => a.mentions.push(Mention::new(s, query)),
            Value::Array(xs) => {
                let parts: Option<Vec<&str>> = xs.iter().map(Value::as_str).collect();
                let Some(parts) = parts else {
                    a.mentions.clear();
                    a.malformed = true;
                    return a;
                };
                let mut m = Mention::new(&parts.join("\u{0}"), query);
                m.tuple = true;
                a.mentions.push(m);
            }
            _ => {
                a.mentions.clear();
                a.malformed = true;
                return a;
            }
        }
    }
    a
}

/// `type: name` items separated by `;` (or line breaks); an item without `:` is a name of
/// the query's type, or malformed without a query.
fn pairs(text: &str, query: Option<&str>) -> Answer {
    let mut a = Answer::default();
    for piece in text.split([';', '\n']) {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        match (piece.split_once(':'), query) {
            (Some((ty, name)), _) if !name.trim().is_empty() => {
                a.mentions.push(Mention::new(name.trim(), Some(ty.trim())))
            }
            (None, Some(q)) => a.mentions.push(Mention::new(piece, Some(q))),
            _ => a.malformed = true,
        }
    }
    a
}

/// JSON as a whole; else, when the answer holds a `[` or `{`, the JSON inside prose (from the
/// first `[` or `{` to the last `]` or `}`; malformed when that is no JSON); else `type: name`
/// items, or one name a line for a query. Answers saying there is nothing
/// (`None`, `[]`, `no entities`) are empty.
fn auto(text: &str, query: Option<&str>) -> Answer {
    let t = text.trim();
    if t.is_empty()
        || matches!(
            t.to_ascii_lowercase().as_str(),
            "none" | "null" | "n/a" | "no entities" | "no entity"
        )
    {
        return Answer::default();
    }
    if let Ok(v) = serde_json::from_str::<Value>(t) {
        if matches!(v, Value::Array(_) | Value::Object(_)) {
            return entities(&v, query, Parser::Auto);
        }
    }
    if let Some(open) = t.find(['[', '{']) {
        let close = t.rfind([']', '}']).filter(|&c| c > open);
        let parsed = close.and_then(|c| serde_json::from_str::<Value>(&t[open..=c]).ok());
        return match parsed {
            Some(v) => {
                let mut a = entities(&v, query, Parser::Auto);
                a.prose = true;
                a
            }
            None => Answer {
                malformed: true,
                ..Answer::default()
            },
        };
    }
    if t.contains(':') || query.is_none() {
        return pairs(t, query);
    }
    let mut a = Answer::default();
    for line in t.lines() {
        let name = line.trim().trim_start_matches(['-', '*', '•']).trim();
        if !name.is_empty() {
            a.mentions.push(Mention::new(name, query));
        }
    }
    a
}

/// GoLLIE's output: a Python list of calls `Type(span="…")` (or `Type("…")`), read as
/// `eval` reads it; anything else (a truncated list, prose) makes the whole answer empty.
fn python(text: &str) -> Answer {
    match python_list(text) {
        Some(mentions) => Answer {
            mentions,
            ..Answer::default()
        },
        None => Answer {
            malformed: true,
            ..Answer::default()
        },
    }
}

fn python_list(text: &str) -> Option<Vec<Mention>> {
    let mut p = Cursor {
        s: text.as_bytes(),
        i: 0,
    };
    let mut out = Vec::new();
    p.ws();
    p.eat(b'[')?;
    loop {
        p.ws();
        if p.eat(b']').is_some() {
            break;
        }
        let ty = p.ident()?;
        p.ws();
        p.eat(b'(')?;
        p.ws();
        let save = p.i;
        if let Some(kw) = p.ident() {
            p.ws();
            if kw != "span" || p.eat(b'=').is_none() {
                return None;
            }
            p.ws();
        } else {
            p.i = save;
        }
        let span = p.string()?;
        p.ws();
        p.eat(b',');
        p.ws();
        p.eat(b')')?;
        out.push(Mention::new(&span, Some(ty)));
        p.ws();
        if p.eat(b',').is_none() {
            p.ws();
            p.eat(b']')?;
            break;
        }
    }
    p.ws();
    (p.i == p.s.len()).then_some(out)
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.s.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            self.i += 1;
        }
        let id = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        (id.chars().next().is_some_and(|c| !c.is_ascii_digit())).then_some(id)
    }

    /// A Python string literal in `'` or `"` with the common backslash escapes.
    fn string(&mut self) -> Option<String> {
        let q = *self.s.get(self.i).filter(|c| **c == b'"' || **c == b'\'')?;
        self.i += 1;
        let mut bytes = Vec::new();
        loop {
            let c = *self.s.get(self.i)?;
            self.i += 1;
            match c {
                b'\n' => return None,
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'n' => bytes.push(b'\n'),
                        b't' => bytes.push(b'\t'),
                        b'\\' | b'\'' | b'"' => bytes.push(e),
                        _ => bytes.extend([b'\\', e]),
                    }
                }
                _ if c == q => break,
                _ => bytes.push(c),
            }
        }
        String::from_utf8(bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(a: &Answer) -> Vec<(String, Option<String>)> {
        a.mentions
            .iter()
            .map(|m| (m.text.clone(), m.label.clone()))
            .collect()
    }

    #[test]
    fn universalner_reads_only_a_leading_one_line_list() {
        let a = raw(
            "[\"Obama\", \"Hawaii\"] and more",
            Some("person"),
            Parser::JsonList,
        );
        assert_eq!(a.mentions.len(), 2);
        assert!(a.prose && !a.malformed);
        assert!(raw("Sure: [\"Obama\"]", None, Parser::JsonList)
            .mentions
            .is_empty());
        assert!(raw("[\n\"Obama\"]", None, Parser::JsonList).malformed);
        assert!(raw("[\"a]b\"]", None, Parser::JsonList).malformed);
        let b = raw("[\"x\", 3]", None, Parser::JsonList);
        assert!(b.mentions.is_empty() && b.malformed);
    }

    #[test]
    fn auto_reads_pairs_prose_and_broken_json() {
        let a = raw("person: Obama; location: Hawaii", None, Parser::Auto);
        assert_eq!(
            texts(&a),
            vec![
                ("Obama".into(), Some("person".into())),
                ("Hawaii".into(), Some("location".into()))
            ]
        );
        let b = raw("Here: [[\"Obama\", \"person\"]] done", None, Parser::Auto);
        assert!(b.prose && b.mentions.len() == 1);
        let c = raw("[[\"Obama\", \"person\"], [\"Haw", None, Parser::Auto);
        assert!(c.malformed && c.mentions.is_empty());
    }

    #[test]
    fn gollie_reads_calls_and_refuses_truncation() {
        let a = raw(
            "[Person(span=\"Obama\"), Location(span='Hawaii'),]",
            None,
            Parser::Python,
        );
        assert_eq!(a.mentions.len(), 2);
        assert_eq!(a.mentions[1].label.as_deref(), Some("Location"));
        assert!(raw("[Person(span=\"Obama\"), Loc", None, Parser::Python).malformed);
    }
}
