//! Writing results: typed results in, bytes out. Any family's result tables (`table`), the
//! official per-run JSON and TSV layouts (`official`), the `--errors` listing of `score`
//! (`errors`), the campaign reports (`markdown`, `html`, `latex`), the `compare` table
//! and JSON (`compare`), the summary `score` prints on a terminal (`summary`) and the error browser of
//! `inspect` (`inspect`).

pub(crate) mod board;
pub(crate) mod compare;
pub(crate) mod errors;
#[cfg(feature = "html")]
pub(crate) mod html;
#[cfg(feature = "html")]
pub(crate) mod inspect;
pub(crate) mod json;
pub(crate) mod latex;
pub(crate) mod markdown;
pub(crate) mod official;
pub(crate) mod summary;
pub(crate) mod table;
pub(crate) mod tsv;
pub use compare::{results as compare_results, table as compare_table};
#[cfg(feature = "html")]
pub use inspect::render as render_inspection;
pub use official::evaluation_json;
pub use summary::table as summary_table;
pub use table::{json::render as render_json, render};
