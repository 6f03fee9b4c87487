//! The `fairscore` command line: a thin layer that parses arguments, calls the library and maps
//! errors to exit statuses (see docs/errors.md).

mod cli;

fn main() {
    ignore_file_size_signal();
    std::process::exit(cli::run());
}

/// A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, which kills the process
/// and leaves its temporary file behind; ignored, the write fails with EFBIG instead, which
/// is an output error (exit 4) whose temporary file is removed.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN before any other thread starts; no
    // handler code runs.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
