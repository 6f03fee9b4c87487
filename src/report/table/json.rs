//! JSON: `{"family", "unit", "units", "resampling"?, "notes", "warnings", "tables": [{"name",
//! "title", "keys", "columns": [{"name", "kind"}], "rows": [{"key": {KIND: value},
//! "scores": {COLUMN: number|null}, "ci": {COLUMN: [lo, hi]}}]}], "signature"?,
//! "signature_fields"?}`. Scores are fractions; no
//! number is ever NaN or Infinity ([`crate::table::Value`] keeps them finite).

use serde_json::{Map, Value as Json};

use crate::table::{Kind, Results, Signature, Table, Value};

fn num(x: f64) -> Json {
    serde_json::Number::from_f64(x).map_or(Json::Null, Json::Number)
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Count => "count",
        Kind::Amount => "amount",
        Kind::Ratio => "ratio",
        Kind::PValue => "p-value",
    }
}

/// The JSON value of one cell.
pub fn value(v: Value) -> Json {
    match v {
        Value::Count(n) => Json::from(n),
        Value::Amount(x) | Value::Ratio(x) => num(x),
        Value::Missing => Json::Null,
    }
}

/// One table as a JSON object.
pub fn table(t: &Table) -> Json {
    let mut m = Map::new();
    m.insert("name".into(), Json::from(t.name.as_str()));
    m.insert("title".into(), Json::from(t.title.as_str()));
    m.insert(
        "keys".into(),
        Json::Array(t.keys.iter().map(|k| Json::from(k.name())).collect()),
    );
    let cols = t
        .columns
        .iter()
        .map(|c| {
            let mut o = Map::new();
            o.insert("name".into(), Json::from(c.name.as_str()));
            o.insert("kind".into(), Json::from(kind(c.kind)));
            Json::Object(o)
        })
        .collect();
    m.insert("columns".into(), Json::Array(cols));
    let rows = t
        .rows
        .iter()
        .map(|r| {
            let mut o = Map::new();
            let key: Map<String, Json> = t
                .keys
                .iter()
                .zip(&r.key)
                .map(|(k, v)| (k.name().to_string(), Json::from(v.as_str())))
                .collect();
            o.insert("key".into(), Json::Object(key));
            let scores: Map<String, Json> = t
                .columns
                .iter()
                .zip(&r.values)
                .map(|(c, v)| (c.name.clone(), value(*v)))
                .collect();
            o.insert("scores".into(), Json::Object(scores));
            let ci: Map<String, Json> = t
                .columns
                .iter()
                .zip(&r.ci)
                .filter_map(|(c, ci)| {
                    ci.map(|[lo, hi]| (c.name.clone(), Json::from(vec![num(lo), num(hi)])))
                })
                .collect();
            if !ci.is_empty() {
                o.insert("ci".into(), Json::Object(ci));
            }
            Json::Object(o)
        })
        .collect();
    m.insert("rows".into(), Json::Array(rows));
    Json::Object(m)
}

/// The whole document as a JSON value.
pub fn to_json(r: &Results) -> Json {
    let mut m = Map::new();
    m.insert("family".into(), Json::from(r.family.as_str()));
    m.insert("unit".into(), Json::from(r.unit.name()));
    m.insert("units".into(), Json::from(r.units));
    if let Some(s) = r.resampling {
        let mut o = Map::new();
        o.insert("method".into(), Json::from("percentile bootstrap"));
        o.insert("samples".into(), Json::from(s.samples));
        o.insert("seed".into(), Json::from(s.seed));
        o.insert("confidence".into(), num(s.confidence));
        o.insert("unit".into(), Json::from(r.unit.name()));
        m.insert("resampling".into(), Json::Object(o));
    }
    m.insert(
        "notes".into(),
        Json::Array(r.notes.iter().map(|n| Json::from(n.as_str())).collect()),
    );
    m.insert(
        "warnings".into(),
        Json::Array(r.warnings.iter().map(|n| Json::from(n.as_str())).collect()),
    );
    m.insert(
        "tables".into(),
        Json::Array(r.tables.iter().map(table).collect()),
    );
    if let Some(sig) = &r.signature {
        signature_into(&mut m, sig);
    }
    Json::Object(m)
}

/// Adds `"signature": TEXT` and `"signature_fields": {NAME: VALUE}` to a JSON object.
pub fn signature_into(m: &mut Map<String, Json>, sig: &Signature) {
    m.insert("signature".into(), Json::from(sig.to_string()));
    let fields: Map<String, Json> = sig
        .fields()
        .iter()
        .map(|(n, v)| (n.clone(), Json::from(v.as_str())))
        .collect();
    m.insert("signature_fields".into(), Json::Object(fields));
}

/// The document as pretty text with a final newline.
pub fn render(r: &Results) -> String {
    let mut s = serde_json::to_string_pretty(&to_json(r)).unwrap_or_default();
    s.push('\n');
    s
}
