//! Typed errors of the library. Every error that comes from input names the file and, where
//! there is one, the line. The binary maps the three classes to distinct exit statuses
//! (see `docs/errors.md`).

use std::fmt;
use std::path::{Path, PathBuf};

/// The class of an error decides the exit status of the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// The command line or an option value is wrong (exit 2).
    Usage,
    /// An input file is missing, unreadable or malformed, or gold and run do not line up (exit 3).
    Input,
    /// An output could not be written (exit 4).
    Output,
}

/// An error of fairscore. `Display` gives one line that names the file and line where known.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A wrong option or option value.
    Usage(String),
    /// A problem in an input file. `line` is 1-based; 0 means the file as a whole.
    Input {
        /// The input file, as given.
        path: PathBuf,
        /// The 1-based line, or 0 for the file as a whole.
        line: usize,
        /// What is wrong, without the file and line.
        message: String,
    },
    /// A problem writing an output file.
    Output {
        /// The file that could not be written.
        path: PathBuf,
        /// Why, without the file name.
        message: String,
    },
}

impl Error {
    /// A usage error with `message`.
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// An input error in `path` at the 1-based `line` (0: the file as a whole).
    pub fn input(path: &Path, line: usize, message: impl Into<String>) -> Self {
        Error::Input {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    /// An output error for `path`.
    pub fn output(path: &Path, message: impl Into<String>) -> Self {
        Error::Output {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// The class of the error, which decides the exit status.
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::Usage(_) => ErrorClass::Usage,
            Error::Input { .. } => ErrorClass::Input,
            Error::Output { .. } => ErrorClass::Output,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) => write!(f, "usage: {}", escape_controls(m)),
            Error::Input {
                path,
                line: 0,
                message,
            } => write!(
                f,
                "{}: {}",
                escape_controls(&path.to_string_lossy()),
                escape_controls(message)
            ),
            Error::Input {
                path,
                line,
                message,
            } => write!(
                f,
                "{}:{line}: {}",
                escape_controls(&path.to_string_lossy()),
                escape_controls(message)
            ),
            Error::Output { path, message } => {
                write!(
                    f,
                    "cannot write {}: {}",
                    escape_controls(&path.to_string_lossy()),
                    escape_controls(message)
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Text with control characters escaped as `\n`, `\u{1b}`, … (everything else unchanged), so
/// that a file name or cell in a message cannot forge lines or terminal colours: the terminal
/// rule of `crate::escape::terminal`.
pub fn escape_controls(s: &str) -> String {
    crate::escape::terminal(s)
}

/// A parser's multi-line message (e.g. TOML's) as one line: its lines trimmed and joined with
/// `; `, so that an error stays one line naming file and line.
pub fn one_line(msg: &str) -> String {
    msg.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A value quoted for a message (as `{:?}`), cut to 60 characters so that a huge cell or line
/// never floods a message.
pub fn snippet(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        None => format!("{s:?}"),
        Some((i, _)) => format!("{:?}… ({} bytes)", &s[..i], s.len()),
    }
}

/// The result type of the library, with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
