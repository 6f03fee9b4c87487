//! Writing results: typed results in, bytes out. Any family's result tables ([`table`]), the
//! official per-run JSON and TSV layouts ([`official`]), the `--errors` listing of `score`
//! ([`errors`]), the campaign reports ([`markdown`], [`html`], [`latex`]), the `compare` table
//! and JSON ([`compare`]), and the summary `score` prints on a terminal ([`summary`]).

pub mod board;
pub mod compare;
pub mod errors;
#[cfg(feature = "html")]
pub mod html;
pub mod json;
pub mod latex;
pub mod markdown;
pub mod official;
pub mod summary;
pub mod table;
pub mod tsv;
