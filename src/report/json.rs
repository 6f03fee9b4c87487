//! A JSON writer that prints exactly as Python's `json.dump(obj, f, indent=4)`: insertion
//! order, `": "` and `","` separators, `repr()` floats, `ensure_ascii` escapes, no final newline.

use crate::metrics::PyNum;
#[cfg(test)]
use std::borrow::Cow;

/// A JSON value with ordered objects: the tree [`Writer`] is checked against (tests only).
#[cfg(test)]
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// A number, printed as Python prints it (`null` for `None`).
    Num(PyNum),
    /// A list (written one element per line, as Python's `indent=4`).
    Arr(Vec<Json>),
    /// An object: keys and values in insertion order.
    Obj(Vec<(Cow<'static, str>, Json)>),
}

#[cfg(test)]
impl Json {
    /// An empty object.
    pub fn obj() -> Json {
        Json::Obj(Vec::new())
    }

    /// Sets `key` (replacing an existing value in place, as a Python dict does).
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Obj(items) = self {
            if let Some(slot) = items.iter_mut().find(|(k, _)| k == key) {
                slot.1 = value;
            } else {
                items.push((Cow::Owned(key.to_string()), value));
            }
        }
    }

    /// The object at `key`, created empty if absent (a non-object becomes an empty object).
    pub fn entry(&mut self, key: &str) -> &mut Json {
        if !matches!(self, Json::Obj(_)) {
            *self = Json::obj();
        }
        let Json::Obj(items) = self else {
            return self;
        };
        let pos = match items.iter().position(|(k, _)| k == key) {
            Some(p) => p,
            None => {
                items.push((Cow::Owned(key.to_string()), Json::obj()));
                items.len() - 1
            }
        };
        &mut items[pos].1
    }

    /// Serializes with Python's indent=4 layout.
    pub fn to_python_string(&self) -> String {
        let mut out = String::with_capacity(4096);
        write_value(self, 0, &mut out);
        out
    }
}

/// Writes JSON straight into a string, laid out as Python's `json.dump(obj, f, indent=4)`
/// prints the same tree, without building a tree: objects are opened, filled key by key and
/// closed.
#[derive(Debug)]
pub struct Writer<'a> {
    out: &'a mut String,
    depth: usize,
    /// Whether the innermost open object holds no key yet.
    first: bool,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out`.
    pub fn new(out: &'a mut String) -> Self {
        Writer {
            out,
            depth: 0,
            first: true,
        }
    }

    /// Starts the next key of the open object (`,`, new line, indent, `"key": `).
    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        newline_indent(self.depth, self.out);
        write_str(key, self.out);
        // Two pushes, not a two-byte copy call.
        self.out.push(':');
        self.out.push(' ');
    }

    /// Opens an object: the top-level one (`key` `None`) or the value of `key` in the open
    /// object.
    pub fn open(&mut self, key: Option<&str>) {
        if let Some(k) = key {
            self.key(k);
        }
        self.out.push('{');
        self.depth += 1;
        self.first = true;
    }

    /// Closes the innermost open object (`{}` when it holds no key).
    pub fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if !self.first {
            newline_indent(self.depth, self.out);
        }
        self.out.push('}');
        self.first = false;
    }

    /// Writes `key: n` in the open object.
    pub fn num(&mut self, key: &str, n: PyNum) {
        self.key(key);
        n.push_json(self.out);
    }

    /// Writes `key: [n, …]` in the open object.
    pub fn nums(&mut self, key: &str, ns: &[PyNum]) {
        self.key(key);
        if ns.is_empty() {
            self.out.push_str("[]");
            return;
        }
        self.out.push('[');
        for (i, n) in ns.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            newline_indent(self.depth + 1, self.out);
            n.push_json(self.out);
        }
        newline_indent(self.depth, self.out);
        self.out.push(']');
    }
}

/// Whether a byte is written as it is inside a JSON string (printable ASCII but `"` and `\`).
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        t[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    t
};

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    if s.bytes().all(|b| PLAIN[b as usize]) {
        out.push_str(s);
        out.push('"');
        return;
    }
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                use std::fmt::Write;
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn newline_indent(depth: usize, out: &mut String) {
    /// A new line and the indent of up to 8 levels, pushed at once.
    const INDENTS: &str = "\n                                ";
    match INDENTS.get(..1 + 4 * depth) {
        Some(s) => out.push_str(s),
        None => {
            out.push('\n');
            for _ in 0..depth {
                out.push_str("    ");
            }
        }
    }
}

#[cfg(test)]
fn write_value(v: &Json, depth: usize, out: &mut String) {
    match v {
        Json::Num(n) => n.push_json(out),
        Json::Arr(values) => {
            if values.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, val) in values.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(depth + 1, out);
                write_value(val, depth + 1, out);
            }
            newline_indent(depth, out);
            out.push(']');
        }
        Json::Obj(items) => {
            if items.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, val)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                for _ in 0..depth + 1 {
                    out.push_str("    ");
                }
                write_str(k, out);
                out.push_str(": ");
                write_value(val, depth + 1, out);
            }
            out.push('\n');
            for _ in 0..depth {
                out.push_str("    ");
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_layout() {
        let mut j = Json::obj();
        j.entry("a").set("x", Json::Num(PyNum::Float(0.5)));
        j.entry("a").set("y", Json::Num(PyNum::None));
        j.set("é", Json::obj());
        assert_eq!(
            j.to_python_string(),
            "{\n    \"a\": {\n        \"x\": 0.5,\n        \"y\": null\n    },\n    \"\\u00e9\": {}\n}"
        );
    }

    #[test]
    fn strings_escaped_as_python_json_dumps() {
        // json.dumps(s) with ensure_ascii, as the official scorer writes its keys.
        for (s, want) in [
            ("Q42", "\"Q42\""),
            (" ~", "\" ~\""),
            ("a\"b", "\"a\\\"b\""),
            ("a\\b", "\"a\\\\b\""),
            ("\u{7f}", "\"\\u007f\""),
            ("\u{1f}\t", "\"\\u001f\\t\""),
            ("é", "\"\\u00e9\""),
        ] {
            let mut out = String::new();
            write_str(s, &mut out);
            assert_eq!(out, want, "{s:?}");
        }
    }

    #[test]
    fn python_list_layout() {
        let mut j = Json::obj();
        j.set(
            "ci",
            Json::Arr(vec![
                Json::Num(PyNum::Float(0.25)),
                Json::Num(PyNum::Int(1)),
            ]),
        );
        j.set("e", Json::Arr(Vec::new()));
        // json.dumps({"ci": [0.25, 1], "e": []}, indent=4)
        assert_eq!(
            j.to_python_string(),
            "{\n    \"ci\": [\n        0.25,\n        1\n    ],\n    \"e\": []\n}"
        );
    }

    #[test]
    fn writer_prints_as_the_tree() {
        let mut j = Json::obj();
        j.entry("a").set("x", Json::Num(PyNum::Float(0.5)));
        j.entry("a").set("é", Json::Num(PyNum::None));
        j.set("e", Json::obj());
        j.entry("c").set(
            "ci",
            Json::Arr(vec![
                Json::Num(PyNum::Float(0.25)),
                Json::Num(PyNum::Int(1)),
            ]),
        );
        j.entry("c").set("n", Json::Arr(Vec::new()));
        let mut out = String::new();
        let mut w = Writer::new(&mut out);
        w.open(None);
        w.open(Some("a"));
        w.num("x", PyNum::Float(0.5));
        w.num("é", PyNum::None);
        w.close();
        w.open(Some("e"));
        w.close();
        w.open(Some("c"));
        w.nums("ci", &[PyNum::Float(0.25), PyNum::Int(1)]);
        w.nums("n", &[]);
        w.close();
        w.close();
        assert_eq!(out, j.to_python_string());
        let mut empty = String::new();
        let mut w = Writer::new(&mut empty);
        w.open(None);
        w.close();
        assert_eq!(empty, "{}");
    }
}
