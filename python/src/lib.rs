//! The `fairscore` Python package's extension module (`fairscore._fairscore`): thin wrappers
//! around the fairscore library. Options are turned into the library's option types as the CLI
//! turns its flags, the scoring runs on a worker thread with the GIL released and Ctrl-C
//! checked every 50 ms ([`interruptible`]), results come back as the JSON the
//! CLI writes (loaded with Python's `json`) or as plain dicts, and library errors become
//! `fairscore.UsageError`, `InputError` or `OutputError` carrying `file`, `line` and `message`.

// pyo3 0.22's #[pyfunction] expansion converts PyErr into PyErr (a clippy false positive).
#![allow(clippy::useless_conversion)]

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError};
use pyo3::prelude::*;

mod files;
mod intern;
mod mentions;
mod nervaluate;
mod seqeval;
mod tags;

create_exception!(
    fairscore,
    FairscoreError,
    PyException,
    "Base class of fairscore's errors; `file`, `line` (1-based, 0: the file as a whole) and `message` say where and what."
);
create_exception!(
    fairscore,
    UsageError,
    FairscoreError,
    "A wrong option or option value (the CLI's exit status 2)."
);
create_exception!(
    fairscore,
    InputError,
    FairscoreError,
    "An input file (or y_true/y_pred) is missing, unreadable or malformed (exit status 3)."
);
create_exception!(
    fairscore,
    OutputError,
    FairscoreError,
    "An output could not be written (exit status 4)."
);

/// A library error as the Python exception of its class, with `file`, `line` and `message`.
pub(crate) fn to_py(py: Python<'_>, err: fairscore::Error) -> PyErr {
    use fairscore::Error;
    // Option names the library marks with backquotes are keyword arguments here.
    let text = err.to_string().replace('`', "");
    let (e, file, line, message) = match err {
        Error::Usage(m) => (UsageError::new_err(text), None, None, m),
        Error::Input {
            path,
            line,
            message,
        } => (
            InputError::new_err(text),
            Some(path.to_string_lossy().into_owned()),
            Some(line),
            message,
        ),
        Error::Output { path, message } => (
            OutputError::new_err(text),
            Some(path.to_string_lossy().into_owned()),
            None,
            message,
        ),
    };
    let value = e.value_bound(py);
    let set = value
        .setattr("file", file)
        .and_then(|_| value.setattr("line", line))
        .and_then(|_| value.setattr("message", message));
    match set {
        Ok(()) => e,
        Err(other) => other,
    }
}

/// Converts a library result, raising its error as a Python exception.
pub(crate) fn lift<T>(py: Python<'_>, r: fairscore::Result<T>) -> PyResult<T> {
    r.map_err(|e| to_py(py, e))
}

/// How often [`interruptible`] looks for a signal while the work runs.
const SIGNAL_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `work` on a worker thread while the calling thread, with the GIL released between
/// polls, checks for signals every 50 ms (`py.check_signals()`): Ctrl-C (SIGINT) raises
/// `KeyboardInterrupt` at once instead of after the call, and any exception a Python signal
/// handler raises is returned the same way. The GIL is free while the work runs, as with
/// `allow_threads`. After an interrupt the worker finishes in the background and its result
/// is dropped (the library has no cancellation points); a panic in the worker becomes a
/// `RuntimeError`. `work` owns what it needs (`'static`), since it may outlive the call.
///
/// Every long call of the module goes through here:
/// `crate::interruptible(py, move || fairscore::…(&owned_inputs))` then `lift`.
pub(crate) fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let (tx, mut rx) = channel();
    std::thread::Builder::new()
        .name("fairscore-worker".into())
        .spawn(move || {
            // The receiver is gone when the call was interrupted: the result is dropped.
            let _ = tx.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
    loop {
        // The receiver is Send, not Sync: it goes into the GIL-free closure and comes back.
        let (got, back) = py.allow_threads(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match got {
            Ok(v) => return Ok(v),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "fairscore: the worker thread panicked (a bug: please report it)",
                ))
            }
        }
    }
}

/// A JSON text as Python objects (`json.loads`: the same dicts as loading the CLI's file).
pub(crate) fn loads(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    let json = py.import_bound("json")?;
    Ok(json.call_method1("loads", (text,))?.unbind())
}

#[pymodule]
fn _fairscore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("FairscoreError", py.get_type_bound::<FairscoreError>())?;
    m.add("UsageError", py.get_type_bound::<UsageError>())?;
    m.add("InputError", py.get_type_bound::<InputError>())?;
    m.add("OutputError", py.get_type_bound::<OutputError>())?;
    files::register(m)?;
    tags::register(m)?;
    seqeval::register(m)?;
    nervaluate::register(m)?;
    mentions::register(m)?;
    Ok(())
}
