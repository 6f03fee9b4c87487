//! Writing results: typed results in, bytes out. The official per-run JSON and TSV layouts
//! ([`official`]), the `--errors` listing ([`errors`]), fair-evaluation tables ([`fair`]), and
//! the campaign reports ([`markdown`], [`html`], [`latex`]), the `compare` table and JSON ([`compare`]), the
//! `muc` table, JSON and judgements ([`muc`]), and the summary `score` prints on a terminal
//! ([`summary`]).

pub mod board;
pub mod compare;
pub mod errors;
pub mod fair;
#[cfg(feature = "html")]
pub mod html;
pub mod json;
pub mod latex;
pub mod markdown;
pub mod muc;
pub mod official;
pub mod segmentation;
pub mod summary;
pub mod table;
pub mod tagging;
pub mod tsv;
