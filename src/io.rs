//! Every file fairscore reads or writes goes through here, except two reads of the campaign
//! layer (the campaign file, replayed scorer outputs), which still use `std::fs` directly.
//!
//! Reading: [`read_input`] is the one input guard (device files refused, size capped, the error
//! naming the file), [`read_text`] adds UTF-8 decoding with the line of the first bad byte and
//! drops a byte-order mark. Writing: [`write_atomic`] and [`write_atomic_all`] write to a
//! temporary file in the same directory and rename it, so that an interrupted or failed run
//! never leaves a truncated file beside good ones.

use crate::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest input file read (the TSV reader indexes cells with 32-bit offsets).
pub const MAX_INPUT: u64 = 2 << 30;

/// Reads an input file, with the error naming it. Device files (`/dev/zero`, a terminal) are
/// refused and reading stops after [`MAX_INPUT`] bytes, so no input can hang fairscore or
/// exhaust memory; pipes (`/dev/stdin`) are read.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    let (file, len) = open_input(path)?;
    let mut bytes = Vec::with_capacity(len.min(MAX_INPUT) as usize);
    file.take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(path, 0, io_reason(&e)))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(too_large(path));
    }
    Ok(bytes)
}

/// The first `n` bytes (or fewer) of the regular file at `path`, through the input guard;
/// `None` for anything else (a pipe can be read once only: its head is left to the reader).
pub fn read_head(path: &Path, n: usize) -> Result<Option<Vec<u8>>> {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let (file, _) = open_input(path)?;
    let mut head = Vec::with_capacity(n);
    file.take(n as u64)
        .read_to_end(&mut head)
        .map_err(|e| Error::input(path, 0, io_reason(&e)))?;
    Ok(Some(head))
}

/// Opens an input file after the guard's checks (no device, socket or directory); also
/// returns its length as the file system gives it (0 for a pipe).
fn open_input(path: &Path) -> Result<(std::fs::File, u64)> {
    let fail = |e: std::io::Error| Error::input(path, 0, io_reason(&e));
    let meta = std::fs::metadata(path).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let ft = meta.file_type();
        if ft.is_char_device() || ft.is_block_device() || ft.is_socket() {
            return Err(Error::input(
                path,
                0,
                "a device or socket, expected a regular file",
            ));
        }
    }
    if meta.is_dir() {
        return Err(Error::input(path, 0, "is a directory, expected a file"));
    }
    // A regular file's length is known before reading a byte: one over the cap (a sparse
    // file, a zip of zeros unpacked) is refused without reading it. Files whose length the
    // file system does not give (pipes, `/proc`) are capped while they are read.
    if meta.is_file() && meta.len() > MAX_INPUT {
        return Err(too_large(path));
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    Ok((file, meta.len()))
}

fn too_large(path: &Path) -> Error {
    Error::input(
        path,
        0,
        format!(
            "file too large (over {} GiB, the input size limit)",
            MAX_INPUT >> 30
        ),
    )
}

/// A piece of an input file handed over by [`read_lines`]: whole lines of UTF-8 text.
#[derive(Debug, Clone, Copy)]
pub struct Lines<'a> {
    /// Whole lines, each ending with `\n`, except in the last piece: there the text after
    /// the file's last `\n` (empty when the file ends with one) comes last, without an end.
    pub text: &'a str,
    /// The 1-based line number of the first line of `text`.
    pub first_line: usize,
    /// Whether this is the last piece.
    pub last: bool,
    /// The file's length as the file system gives it (0 for a pipe): a hint for sizing.
    pub file_len: u64,
}

/// The size of the pieces [`read_lines`] reads (a piece holds more when a line is longer).
pub const PIECE: usize = 256 << 10;

/// Reads an input file through the same guard as [`read_input`] (device files refused, size
/// capped), handing its text to `f` in pieces of whole lines ([`Lines`]) instead of holding
/// it whole: memory is a piece, not the file. Each piece is checked as UTF-8 (an error names
/// the line of the first bad byte and its offset in the file, as [`into_utf8`] does).
pub fn read_lines(path: &Path, mut f: impl FnMut(Lines<'_>) -> Result<()>) -> Result<()> {
    let (file, file_len) = open_input(path)?;
    let mut file = file.take(MAX_INPUT + 1);
    let mut buf: Vec<u8> = Vec::with_capacity(PIECE.min(file_len as usize + 1));
    let (mut line, mut offset, mut want) = (1usize, 0u64, PIECE);
    loop {
        let got = (&mut file)
            .take(want as u64)
            .read_to_end(&mut buf)
            .map_err(|e| Error::input(path, 0, io_reason(&e)))?;
        if offset + buf.len() as u64 > MAX_INPUT {
            return Err(too_large(path));
        }
        let last = got < want;
        let cut = if last {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf) {
                Some(i) => i + 1,
                None => {
                    // A line longer than the piece: read on (bounded by the size cap).
                    want = buf.len().max(PIECE);
                    continue;
                }
            }
        };
        let piece = &buf[..cut];
        let text = std::str::from_utf8(piece).map_err(|e| {
            let at = e.valid_up_to();
            let before = memchr::memchr_iter(b'\n', &piece[..at]).count();
            utf8_error_at(path, line + before, offset + at as u64)
        })?;
        f(Lines {
            text,
            first_line: line,
            last,
            file_len,
        })?;
        if last {
            return Ok(());
        }
        line += memchr::memchr_iter(b'\n', piece).count();
        offset += cut as u64;
        buf.drain(..cut);
        want = PIECE;
    }
}

/// Reads a whole input file as UTF-8 text through [`read_input`], without a leading
/// byte-order mark.
pub fn read_text(path: &Path) -> Result<String> {
    let text = into_utf8(path, read_input(path)?)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The bytes of a file as a string, or an input error naming the line of the first invalid
/// UTF-8 byte.
pub fn into_utf8(path: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| utf8_error(path, e.as_bytes(), &e.utf8_error()))
}

/// The input error for invalid UTF-8 in `bytes`.
pub fn utf8_error(path: &Path, bytes: &[u8], e: &std::str::Utf8Error) -> Error {
    let at = e.valid_up_to();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    utf8_error_at(path, line, at as u64)
}

fn utf8_error_at(path: &Path, line: usize, at: u64) -> Error {
    Error::input(
        path,
        line,
        format!("invalid UTF-8 (byte offset {at}); input files must be UTF-8 encoded"),
    )
}

/// A short reason for an I/O error, for messages.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ if e.raw_os_error() == Some(21) => "is a directory, expected a file".to_string(),
        _ => e.to_string(),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, then rename.
///
/// Targets that are not regular files are written straight through instead: `-` is standard
/// output, character devices and pipes (`/dev/stdout`, a FIFO) are opened and written, and a
/// symbolic link is followed (the file it points to is replaced atomically; the link stays).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = match special_target(path) {
        Target::Stream(p) => return write_through(path, &p, bytes),
        Target::File(p) => p,
    };
    let tmp = temp_path(&target, "tmp")?;
    write_temp(&tmp, path, bytes)?;
    std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        unregister_temp(&tmp);
        Error::output(path, io_reason(&e))
    })?;
    unregister_temp(&tmp);
    Ok(())
}

/// Where an output really goes.
enum Target {
    /// A regular file (or a new one) at this path: written atomically.
    File(PathBuf),
    /// Standard output (`-`), a device or a pipe: written straight through.
    Stream(PathBuf),
}

fn special_target(path: &Path) -> Target {
    if path.as_os_str() == "-" {
        return Target::Stream(path.to_path_buf());
    }
    // Follow links: the link itself is never replaced.
    let resolved = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    };
    match std::fs::metadata(&resolved) {
        Ok(m) if !m.is_file() && !m.is_dir() => Target::Stream(resolved),
        _ => Target::File(resolved),
    }
}

fn write_through(shown: &Path, target: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let fail = |e: std::io::Error| Error::output(shown, io_reason(&e));
    if target.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        return out.write_all(bytes).and_then(|_| out.flush()).map_err(fail);
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(fail)?;
    f.write_all(bytes).and_then(|_| f.flush()).map_err(fail)
}

/// Removes a symbolic link at `path` (the link itself, never the file it points to), so that
/// an output written there next is a file of its own instead of replacing the link's target.
/// Nothing happens when `path` is no link. For outputs in a directory others can plant links
/// in (the Codabench scoring program's output folder).
pub fn remove_link(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::remove_file(path).map_err(|e| {
            Error::output(
                path,
                format!("cannot remove the symbolic link: {}", io_reason(&e)),
            )
        }),
        _ => Ok(()),
    }
}

/// Whether two paths name the same file (after links; by device and inode on Unix). A path
/// that does not exist yet is the same as another only if both resolve to the same name in
/// the same directory.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    let resolve = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = std::fs::canonicalize(p) {
            return Some(c);
        }
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(p.file_name()?))
    };
    match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Whether `path` (existing or not) lies under the directory `dir` (symbolic links resolved).
fn inside_dir(path: &Path, dir: &Path) -> bool {
    if !dir.is_dir() {
        return false;
    }
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return false;
    };
    // The nearest existing ancestor of `path`, resolved, and the rest joined back on.
    let mut rest = Vec::new();
    let mut cur = path.to_path_buf();
    loop {
        if let Ok(c) = std::fs::canonicalize(&cur) {
            let full = rest
                .iter()
                .rev()
                .fold(c, |acc: PathBuf, part| acc.join(part));
            return full.starts_with(&dir) && full != dir;
        }
        match (cur.file_name(), cur.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                cur = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return false,
        }
    }
}

/// Refuses, as a usage error naming both options, an output that is one of the inputs or
/// another output of the same command. `inputs` and `outputs` pair an option name with its
/// path; standard output (`-`) and devices may repeat. An input named in `in_place` may be
/// its own output (a command meant to rewrite a file in place). An output is refused too where
/// it is the `.txt` of an input `.ann` file (brat reads both) or lies inside an input
/// directory.
pub fn check_outputs(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, &Path)],
    in_place: &[&str],
) -> Result<()> {
    let stream = |p: &Path| matches!(special_target(p), Target::Stream(_));
    for (i, (oname, out)) in outputs.iter().enumerate() {
        if stream(out) {
            continue;
        }
        for (iname, inp) in inputs {
            if same_file(out, inp) && !in_place.contains(iname) {
                return Err(Error::usage(format!(
                    "{oname} {} is the same file as {iname} {}: fairscore never writes over an input; choose another output path",
                    show_path(out),
                    show_path(inp)
                )));
            }
            // A brat `.ann` is read with the `.txt` beside it, so that is an input too.
            if inp.extension().is_some_and(|x| x == "ann")
                && same_file(out, &inp.with_extension("txt"))
            {
                return Err(Error::usage(format!(
                    "{oname} {} is the text file of {iname} {}: fairscore never writes over an input; choose another output path",
                    show_path(out),
                    show_path(inp)
                )));
            }
            // Every file under an input directory (a brat project, a folder of `.ann` files)
            // may be read: nothing is written there.
            if inside_dir(out, inp) {
                return Err(Error::usage(format!(
                    "{oname} {} is inside the input directory {iname} {}: fairscore never writes into an input directory; choose another output path",
                    show_path(out),
                    show_path(inp)
                )));
            }
        }
        for (oname2, out2) in &outputs[..i] {
            if same_file(out, out2) {
                return Err(Error::usage(format!(
                    "{oname} and {oname2} both name {}: give each output its own path",
                    show_path(out)
                )));
            }
        }
    }
    Ok(())
}

/// A path for a terminal message: control characters (newline, escape, …) are escaped, so a
/// file name cannot forge lines or colours.
pub fn show_path(p: &Path) -> String {
    escape_controls(&p.to_string_lossy())
}

pub use crate::error::escape_controls;

/// Temporary files being written by this process, removed by [`remove_temp_files`] (called
/// on SIGINT/SIGTERM by the binary and on every error path).
/// A set, so that registering and unregistering the thousands of files of one
/// [`write_atomic_all`] (a campaign's outputs) costs a logarithm each, not a scan.
static TEMPS: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

fn register_temp(p: &Path) {
    if let Ok(mut t) = TEMPS.lock() {
        t.insert(p.to_path_buf());
    }
}

fn unregister_temp(p: &Path) {
    if let Ok(mut t) = TEMPS.lock() {
        t.remove(p);
    }
}

/// Removes every temporary file this process is still writing (for signal handlers: a kill
/// leaves no `.NAME.PID-N.tmp` behind).
pub fn remove_temp_files() {
    if let Ok(t) = TEMPS.lock() {
        for p in t.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Removes temporary files that earlier fairscore processes left in `dir` (names
/// `.NAME.PID-N.tmp` or `.bak` whose process no longer runs). Returns how many were removed.
pub fn remove_stale_temp_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = stale_temp_pid(&name) else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !alive
            && e.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(e.path()).is_ok()
        {
            n += 1;
        }
    }
    n
}

/// The process id in a temporary file name `.NAME.PID-N.tmp` / `.bak`.
fn stale_temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let stem = rest
        .strip_suffix(".tmp")
        .or_else(|| rest.strip_suffix(".bak"))?;
    let (before, n) = stem.rsplit_once('-')?;
    n.parse::<u64>().ok()?;
    let (_, pid) = before.rsplit_once('.')?;
    pid.parse().ok()
}

fn temp_path(path: &Path, what: &str) -> Result<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::output(path, "not a file path"))?;
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    Ok(dir.join(format!(".{name}.{}-{n}.{what}", std::process::id())))
}

fn write_temp(tmp: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    register_temp(tmp);
    std::fs::write(tmp, bytes).map_err(|e| {
        let _ = std::fs::remove_file(tmp);
        unregister_temp(tmp);
        Error::output(path, io_reason(&e))
    })
}

/// Writes several files as one: all or (as far as the file system allows) none.
///
/// Every file is first written to a temporary file beside it; if any of these writes fails,
/// the temporary files are removed and no target changes. Then each existing target is moved
/// aside and the new file renamed into place; if a rename fails, the targets already replaced
/// are put back (or removed, when they did not exist before), so a failure never leaves a fresh
/// file beside a stale one of the same run.
///
/// Targets that are not regular files (`-`, devices, pipes) are written straight through after
/// the files, and symbolic links are followed, as in [`write_atomic`].
pub fn write_atomic_all(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut regular: Vec<(PathBuf, &[u8])> = Vec::with_capacity(files.len());
    let mut streams: Vec<(&Path, PathBuf, &[u8])> = Vec::new();
    for (path, bytes) in files {
        match special_target(path) {
            Target::File(p) => regular.push((p, bytes)),
            Target::Stream(p) => streams.push((path, p, bytes)),
        }
    }
    let regular: Vec<(&Path, &[u8])> = regular.iter().map(|(p, b)| (p.as_path(), *b)).collect();
    write_files_atomically(&regular)?;
    for (shown, target, bytes) in streams {
        write_through(shown, &target, bytes)?;
    }
    Ok(())
}

fn write_files_atomically(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut temps: Vec<PathBuf> = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let tmp = match temp_path(path, "tmp") {
            Ok(t) => t,
            Err(e) => {
                temps.iter().for_each(|t| drop(std::fs::remove_file(t)));
                return Err(e);
            }
        };
        if let Err(e) = write_temp(&tmp, path, bytes) {
            temps.iter().for_each(|t| drop(std::fs::remove_file(t)));
            return Err(e);
        }
        temps.push(tmp);
    }
    // (target, backup of the previous file if there was one)
    let mut done: Vec<(&Path, Option<PathBuf>)> = Vec::new();
    let undo = |done: &[(&Path, Option<PathBuf>)]| {
        for (path, backup) in done.iter().rev() {
            match backup {
                Some(b) => drop(std::fs::rename(b, path)),
                None => drop(std::fs::remove_file(path)),
            }
        }
    };
    for (i, (path, _)) in files.iter().enumerate() {
        let backup = if path.is_file() {
            let b = match temp_path(path, "bak") {
                Ok(b) => b,
                Err(e) => {
                    undo(&done);
                    temps[i..]
                        .iter()
                        .for_each(|t| drop(std::fs::remove_file(t)));
                    return Err(e);
                }
            };
            if let Err(e) = std::fs::rename(path, &b) {
                undo(&done);
                temps[i..]
                    .iter()
                    .for_each(|t| drop(std::fs::remove_file(t)));
                return Err(Error::output(path, io_reason(&e)));
            }
            Some(b)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(&temps[i], path) {
            if let Some(b) = &backup {
                let _ = std::fs::rename(b, path);
            }
            undo(&done);
            temps[i..]
                .iter()
                .for_each(|t| drop(std::fs::remove_file(t)));
            return Err(Error::output(path, io_reason(&e)));
        }
        done.push((path, backup));
    }
    for (_, backup) in done {
        if let Some(b) = backup {
            let _ = std::fs::remove_file(b);
        }
    }
    temps.iter().for_each(|t| unregister_temp(t));
    Ok(())
}
