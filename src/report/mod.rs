//! Writing results: the campaign reports (`markdown`, `html`).

pub mod html;
pub mod markdown;
