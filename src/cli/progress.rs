//! Progress on stderr for long work, with indicatif (rate, ETA, terminal detection; the bar is
//! cleared before any message is printed). Drawn only when stderr is a terminal and `--quiet`
//! is not given: batch use and pipes see nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress bar (counted work) or spinner (work of unknown length), or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Whether progress would be drawn: stderr is a terminal and the user did not ask for
    /// quiet.
    pub fn wanted(quiet: bool) -> bool {
        !quiet && std::io::stderr().is_terminal()
    }

    /// A bar over `total` items (its length can be set later with [`Progress::set_total`]).
    pub fn bar(quiet: bool, total: u64, what: &str) -> Self {
        if !Self::wanted(quiet) {
            return Progress { bar: None };
        }
        // Hidden until the number of items is known (drawn by the first `set_total`).
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {rate} ETA {eta} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        )
        .progress_chars("#>.");
        bar.set_style(style);
        bar.set_prefix(what.to_string());
        Progress { bar: Some(bar) }
    }

    /// A spinner with a message, ticking on its own, for work whose length is not known.
    pub fn spinner(quiet: bool, what: &str) -> Self {
        if !Self::wanted(quiet) {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar: Some(bar) }
    }

    /// Sets the number of items (and shows the bar once there are some).
    pub fn set_total(&self, total: u64) {
        if let Some(b) = &self.bar {
            if b.length() != Some(total) {
                b.set_length(total);
            }
            if total > 0 && b.is_hidden() {
                b.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    /// Marks items done (a position only moves forward) and names the last one.
    pub fn done(&self, done: u64, last: &str) {
        if let Some(b) = &self.bar {
            if done > b.position() {
                b.set_position(done);
                b.set_message(last.to_string());
            }
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
