//! Parsed inputs shared between the scorings of a campaign: a file that several scorings read
//! (a HIPE run scored for nerc_coarse, nerc_fine and nel; a gold scored against every run) is
//! read and parsed once, and its parse is dropped after the last scoring that reads it, so
//! memory follows the files in use, not the campaign's size. Small files (tag sets, QID
//! maps) and content hashes (for the signatures) are read once and kept.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::error::Result;

type Parsed = Arc<dyn Any + Send + Sync>;
type Cell<T> = Arc<OnceLock<Result<T>>>;

/// A file's parses (one per way of reading it) and how many scorings are still to read it.
#[derive(Default)]
struct Entry {
    uses: usize,
    parsed: HashMap<String, Cell<Parsed>>,
}

/// Parsed input files shared between scorings (see the module documentation). A scorer
/// announces how many scorings read each file ([`Inputs::expect`]) and says when each is done
/// with it ([`Inputs::done`]); a family reads through [`Inputs::get`]
/// (`Family::statistics_in`).
#[derive(Default)]
pub struct Inputs {
    files: Mutex<HashMap<PathBuf, Entry>>,
    kept: Mutex<HashMap<(PathBuf, String), Cell<Parsed>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Inputs {
    /// Nothing shared yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Announces that `uses` scorings read `path`, unless it is announced already (every
    /// scoring of a file may announce the same number before reading it): its parses are kept
    /// until that many [`Inputs::done`] calls.
    pub fn expect(&self, path: &Path, uses: usize) {
        if uses > 0 {
            lock(&self.files)
                .entry(path.to_path_buf())
                .or_insert_with(|| Entry {
                    uses,
                    parsed: HashMap::new(),
                });
        }
    }

    /// One scoring is done with `path`; after the last one announced its parses are dropped
    /// (freed once no scoring holds them).
    pub fn done(&self, path: &Path) {
        let mut files = lock(&self.files);
        if let Some(e) = files.get_mut(path) {
            e.uses = e.uses.saturating_sub(1);
            if e.uses == 0 {
                files.remove(path);
            }
        }
    }

    /// `path` as `load` reads it, `key` naming the way it is read (the same file read two
    /// ways is two parses). Loaded once while scorings announced for `path` remain (the
    /// other threads asking meanwhile wait for it), and shared; a file not announced is
    /// loaded for this call alone. An error is shared as the parse would have been.
    pub fn get<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        key: &str,
        load: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let cell = {
            let mut files = lock(&self.files);
            match files.get_mut(path) {
                Some(e) => e.parsed.entry(key.to_string()).or_default().clone(),
                None => return load().map(Arc::new),
            }
        };
        resolve(&cell, path, key, load)
    }

    /// As [`Inputs::get`], for a small file (a tag set, a QID map) kept for the life of the
    /// `Inputs`, announced or not.
    pub fn kept<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        key: &str,
        load: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let cell = lock(&self.kept)
            .entry((path.to_path_buf(), key.to_string()))
            .or_default()
            .clone();
        resolve(&cell, path, key, load)
    }

    /// The short content hash of `path` ([`super::sign::file_hash`]), computed once.
    pub fn file_hash(&self, path: &Path) -> Result<String> {
        self.kept(path, "hash", || super::sign::file_hash(path))
            .map(|h| h.as_ref().clone())
    }
}

/// The value of `cell`, loaded by `load` if it is the first; a value of another type is
/// loaded again for this caller alone.
fn resolve<T: Send + Sync + 'static>(
    cell: &Cell<Parsed>,
    path: &Path,
    key: &str,
    load: impl FnOnce() -> Result<T>,
) -> Result<Arc<T>> {
    let mut load = Some(load);
    let parsed = cell.get_or_init(|| match load.take() {
        Some(f) => f().map(|v| Arc::new(v) as Parsed),
        None => Ok(Arc::new(()) as Parsed),
    });
    match parsed {
        Ok(p) => match Arc::clone(p).downcast::<T>() {
            Ok(v) => Ok(v),
            Err(_) => match load.take() {
                Some(f) => f().map(Arc::new),
                None => Err(crate::error::Error::usage(format!(
                    "{}: read as two types under one key ({key})",
                    path.display()
                ))),
            },
        },
        Err(e) => Err(e.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_loaded_once_while_announced_and_dropped_after() {
        let inputs = Inputs::new();
        let p = Path::new("x");
        let loads = std::sync::atomic::AtomicUsize::new(0);
        let load = || {
            loads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(7u32)
        };
        inputs.expect(p, 2);
        // Announced already: the same number again changes nothing.
        inputs.expect(p, 2);
        assert_eq!(*inputs.get(p, "a", load).unwrap(), 7);
        assert_eq!(*inputs.get(p, "a", load).unwrap(), 7);
        assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), 1);
        // Another way of reading it is another parse.
        assert_eq!(*inputs.get(p, "b", load).unwrap(), 7);
        assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), 2);
        inputs.done(p);
        assert_eq!(*inputs.get(p, "a", load).unwrap(), 7);
        assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), 2);
        inputs.done(p);
        // Dropped: not announced any more, loaded for the call alone.
        assert_eq!(*inputs.get(p, "a", load).unwrap(), 7);
        assert_eq!(*inputs.get(p, "a", load).unwrap(), 7);
        assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), 4);
        assert!(lock(&inputs.files).is_empty());
    }

    #[test]
    fn an_error_is_shared_and_another_type_is_read_again() {
        let inputs = Inputs::new();
        let p = Path::new("y");
        inputs.expect(p, 3);
        let err = || -> Result<u8> { Err(crate::error::Error::usage("bad")) };
        assert!(inputs.get(p, "a", err).is_err());
        assert!(inputs.get(p, "a", || Ok(1u8)).is_err());
        assert_eq!(*inputs.get(p, "b", || Ok(1u8)).unwrap(), 1);
        assert_eq!(*inputs.get(p, "b", || Ok("s".to_string())).unwrap(), "s");
    }
}
