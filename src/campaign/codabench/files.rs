//! The files of a Codabench submission (`INPUT/res`, the participant's zip as the worker
//! unpacked it), walked without ever following a link. Whatever the participant controls and
//! cannot be scored is a problem of the submission (a refusal, exit 1), never an error of the
//! organiser's side: a symbolic link (to a file or a folder: it could read the gold or any
//! file of the machine), a name that is not UTF-8, something other than a file or folder,
//! folders nested deeper than [`MAX_DEPTH`], more than [`MAX_FILES`] files, a file over
//! [`crate::io::MAX_INPUT`].

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Deepest folder nesting read (the top of the submission is depth 0).
pub const MAX_DEPTH: usize = 16;
/// Most files a submission may hold.
pub const MAX_FILES: usize = 10_000;

/// A file of the submission: its path relative to `res` (`/`-separated) and on disk.
pub type Found = (String, PathBuf);

/// The submission's files and what is wrong with it (one line each; empty: nothing).
pub struct Listing {
    /// Every regular file outside the brat folders, in path order.
    pub files: Vec<Found>,
    /// The brat folders, in path order: each folder holding `.ann` files itself, but for one
    /// inside another (whose run it is part of); the top of the submission is `.`. Their
    /// files are not in [`Listing::files`].
    pub folders: Vec<Found>,
    /// Problems of the participant's making, in path order.
    pub problems: Vec<String>,
}

/// Every regular file under `res`, in path order; hidden files and folders, `__MACOSX/` and
/// the worker's `metadata` at the top are left out. Links, non-UTF-8 names, special files,
/// folders too deep, too many files and files too large are [`Listing::problems`]. Only a
/// `res` that cannot be listed at all is an error (the worker's layout). `layouts`: the
/// folders below a brat gold's top that hold its `.ann` files (`esp`, `ned`; empty: the top);
/// a folder of the submission holding `.ann` files at the end of such a path belongs to the
/// brat run above it (`alpha_1/esp/`, `alpha_1/ned/`: the run `alpha_1/`).
pub fn submission_files(res: &Path, layouts: &[String]) -> Result<Listing> {
    let mut files: Vec<Found> = Vec::new();
    let mut problems: Vec<(String, String)> = Vec::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(res.to_path_buf(), String::new(), 0)];
    // Folders holding `.ann` files themselves: brat runs.
    let mut folders: Vec<Found> = Vec::new();
    while let Some((dir, rel, depth)) = stack.pop() {
        let list = match std::fs::read_dir(&dir) {
            Ok(l) => l,
            Err(e) if depth == 0 => {
                return Err(Error::input(
                    &dir,
                    0,
                    format!("cannot list the directory: {e}"),
                ))
            }
            Err(e) => {
                problems.push((rel.clone(), format!("{rel}: cannot list the folder: {e}")));
                continue;
            }
        };
        for e in list.flatten() {
            let raw = e.file_name();
            let lossy = raw.to_string_lossy().into_owned();
            if lossy.starts_with('.') || lossy == "__MACOSX" || (depth == 0 && lossy == "metadata")
            {
                continue;
            }
            let shown = if rel.is_empty() {
                lossy.clone()
            } else {
                format!("{rel}/{lossy}")
            };
            let mut refuse = |why: &str| problems.push((shown.clone(), format!("{shown}: {why}")));
            if raw.to_str().is_none() {
                refuse("the name is not UTF-8 (shown with \u{fffd}); rename it in UTF-8");
                continue;
            }
            // `DirEntry::file_type` does not follow links.
            let Ok(kind) = e.file_type() else {
                refuse("cannot tell what it is");
                continue;
            };
            if kind.is_symlink() {
                refuse(
                    "a symbolic link in the submitted zip; links are never followed: put the file \
                     itself in the zip",
                );
            } else if kind.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    refuse(&format!(
                        "folders nested too deep (more than {MAX_DEPTH}); put the runs nearer the top"
                    ));
                } else {
                    stack.push((e.path(), shown, depth + 1));
                }
            } else if !kind.is_file() {
                refuse(&format!(
                    "the submitted zip's member is {}, not a regular file (never opened): put \
                     only files and folders in the zip",
                    special_kind(&kind)
                ));
            } else if e.metadata().is_ok_and(|m| m.len() > crate::io::MAX_INPUT) {
                refuse("over 2 GiB, the largest file fairscore reads");
            } else {
                if lossy.ends_with(".ann") && folders.last().is_none_or(|(_, d)| *d != dir) {
                    folders.push((rel.clone(), dir.clone()));
                }
                files.push((shown, e.path()));
                if files.len() > MAX_FILES {
                    problems.push((
                        String::new(),
                        format!(
                            "more than {} files; submit the runs only",
                            fmt_count(MAX_FILES)
                        ),
                    ));
                    return Ok(Listing {
                        files: Vec::new(),
                        folders: Vec::new(),
                        problems: sorted(problems),
                    });
                }
            }
        }
    }
    let (files, folders) = brat_runs(files, lift(folders, layouts));
    Ok(Listing {
        files,
        folders,
        problems: sorted(problems),
    })
}

/// What a file that is no regular file nor directory is, for a message (it is never opened:
/// a FIFO blocks, a device never ends).
fn special_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kinds = [
            (ft.is_fifo(), "a FIFO (named pipe)"),
            (ft.is_char_device() || ft.is_block_device(), "a device"),
            (ft.is_socket(), "a socket"),
        ];
        if let Some((_, k)) = kinds.into_iter().find(|(is, _)| *is) {
            return k;
        }
    }
    match ft.is_symlink() {
        true => "a symbolic link",
        false => "a special file",
    }
}

/// Each folder holding `.ann` files as the folder of its brat run: the folder above the
/// longest of `layouts` its path ends with (`a/esp` with `esp`: `a`; the top is empty).
fn lift(folders: Vec<Found>, layouts: &[String]) -> Vec<Found> {
    folders
        .into_iter()
        .map(|(shown, mut dir)| {
            let cut = layouts
                .iter()
                .filter(|l| !l.is_empty())
                .filter_map(|l| match shown.strip_suffix(l.as_str()) {
                    Some("") => Some(("", l)),
                    Some(up) => up.strip_suffix('/').map(|up| (up, l)),
                    None => None,
                })
                .max_by_key(|(_, l)| l.len());
            match cut {
                Some((up, l)) => {
                    for _ in l.split('/') {
                        dir.pop();
                    }
                    (up.to_string(), dir)
                }
                None => (shown, dir),
            }
        })
        .collect()
}

/// The outermost of the folders holding `.ann` files (sorted; the top shown as `.`), and the
/// files outside them, sorted.
fn brat_runs(mut files: Vec<Found>, mut folders: Vec<Found>) -> (Vec<Found>, Vec<Found>) {
    folders.sort();
    folders.dedup();
    let mut outer: Vec<Found> = Vec::new();
    for f in folders {
        let inside = outer.iter().any(|(o, _)| {
            o.is_empty()
                || f.0
                    .strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if !inside {
            outer.push(f);
        }
    }
    let within = |shown: &str| {
        outer.iter().any(|(o, _)| {
            o.is_empty()
                || shown
                    .strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        })
    };
    files.retain(|(shown, _)| !within(shown));
    files.sort();
    for (shown, _) in &mut outer {
        if shown.is_empty() {
            *shown = ".".into();
        }
    }
    (files, outer)
}

fn sorted(mut p: Vec<(String, String)>) -> Vec<String> {
    p.sort();
    p.into_iter().map(|(_, m)| m).collect()
}

/// `10000` as `10,000`.
fn fmt_count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
