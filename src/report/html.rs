//! The HTML leaderboard (`index.html`) of a [`Board`]: one self-contained page (inline CSS and
//! SVG, no script, no network) rendered with Tera from `templates/leaderboard.html`, embedded
//! in the binary. Autoescaping is on for every value, with the one HTML rule of
//! [`crate::escape::html`] (see [`tera`]), so run names and labels cannot inject markup. On a narrow screen every table row becomes a compact card (scores, then counts
//! under them), so no table is wider than the screen.

use std::collections::HashMap;
use std::path::Path;

use tera::{Context, Tera};

use super::board::Board;
use crate::{Error, Result};

const TEMPLATE_NAME: &str = "leaderboard.html";
const TEMPLATE: &str = include_str!("../../templates/leaderboard.html");

/// A Tera error as an output error of `file`, with the message Tera nests in its source chain.
pub(crate) fn template_error(file: &str, e: &tera::Error) -> Error {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    Error::output(Path::new(file), format!("template: {msg}"))
}

/// A Tera instance whose autoescaping (on for `.html` templates) and `escape` filter are
/// [`crate::escape::html`]: the one HTML rule, which also shows control characters.
pub(crate) fn tera() -> Tera {
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".html"]);
    tera.set_escape_fn(crate::escape::html);
    tera.register_filter(
        "escape",
        |v: &tera::Value, _: &HashMap<String, tera::Value>| match v.as_str() {
            Some(s) => Ok(tera::Value::String(crate::escape::html(s))),
            None => Err(tera::Error::msg("escape: the value is not text")),
        },
    );
    tera
}

/// Renders the page.
pub fn render(board: &Board) -> Result<String> {
    let fail = |e: tera::Error| template_error("index.html", &e);
    let mut tera = tera();
    tera.add_raw_template(TEMPLATE_NAME, TEMPLATE)
        .map_err(fail)?;
    let mut ctx = Context::new();
    ctx.insert("b", board);
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    tera.render(TEMPLATE_NAME, &ctx).map_err(fail)
}
