//! The floor every benchmark compares against: read the given files through the input guard
//! (`fairscore::io::read_text`: size cap, UTF-8 check, BOM) and split every line into its
//! tab-separated cells, doing nothing with them. A scoring command cannot be cheaper than this.
//!
//!     cargo run --release --example read_floor -- FILE...
//!     cargo run --release --example read_floor -- --write-like OUTPUTS DEST FILE...
//!
//! With `--write-like OUTPUTS DEST` it also writes, after reading, one file under DEST for
//! every file under the directory OUTPUTS (same relative path, same size; its bytes taken
//! from the inputs read): the read+write floor of a command whose outputs OUTPUTS holds (a
//! campaign writes per-run outputs several times the size of its inputs).
//!
//! Prints the number of files, lines and cells read (and bytes written), so that the work
//! cannot be optimised away.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Every file under `dir` with its path relative to `dir` and its size, in name order.
fn files_under(dir: &Path, rel: &Path, out: &mut Vec<(PathBuf, u64)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let t = e.file_type()?;
        let r = rel.join(e.file_name());
        if t.is_dir() {
            files_under(&e.path(), &r, out)?;
        } else if t.is_file() {
            out.push((r, e.metadata()?.len()));
        }
    }
    Ok(())
}

/// Writes under `dest` one file of each size of `layout` from the bytes of `source`
/// (repeated as needed); returns the bytes written.
fn write_like(layout: &[(PathBuf, u64)], dest: &Path, source: &[u8]) -> std::io::Result<u64> {
    use std::io::Write;
    let fill = if source.is_empty() {
        &b"\n"[..]
    } else {
        source
    };
    let mut total = 0;
    for (rel, len) in layout {
        let path = dest.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path)?);
        let mut left = *len as usize;
        while left > 0 {
            let n = left.min(fill.len());
            f.write_all(&fill[..n])?;
            left -= n;
        }
        f.flush()?;
        total += len;
    }
    Ok(total)
}

fn main() -> ExitCode {
    let mut args: Vec<_> = std::env::args_os().skip(1).collect();
    let mut layout = None;
    if args.first().is_some_and(|a| a == "--write-like") {
        if args.len() < 3 {
            eprintln!("read_floor: --write-like OUTPUTS DEST FILE...");
            return ExitCode::from(2);
        }
        let dest = PathBuf::from(args.remove(2));
        let outputs = PathBuf::from(args.remove(1));
        args.remove(0);
        let mut files = Vec::new();
        if let Err(e) = files_under(&outputs, Path::new(""), &mut files) {
            eprintln!("read_floor: {}: {e}", outputs.display());
            return ExitCode::from(3);
        }
        layout = Some((files, dest));
    }
    let (mut files, mut lines, mut cells) = (0usize, 0usize, 0usize);
    let mut largest = String::new();
    for arg in args {
        let text = match fairscore::io::read_text(Path::new(&arg)) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("read_floor: {e}");
                return ExitCode::from(3);
            }
        };
        files += 1;
        for line in text.split('\n') {
            lines += 1;
            cells += line.split('\t').count();
        }
        if text.len() > largest.len() {
            largest = text;
        }
    }
    let mut wrote = 0;
    if let Some((layout, dest)) = layout {
        match write_like(&layout, &dest, largest.as_bytes()) {
            Ok(n) => wrote = n,
            Err(e) => {
                eprintln!("read_floor: writing under {}: {e}", dest.display());
                return ExitCode::from(4);
            }
        }
    }
    println!("{files} files, {lines} lines, {cells} cells; {wrote} bytes written");
    ExitCode::SUCCESS
}
