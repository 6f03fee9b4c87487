//! Running the binary with its peak resident memory measured (Linux: the child's own
//! `ru_maxrss` from `wait4`), for the tests of issue 33's class 11 (bounded memory).

/// Runs the binary; returns its exit status, stderr and peak resident memory in KiB (the
/// child's own `ru_maxrss`, from `wait4`).
#[cfg(target_os = "linux")]
#[allow(dead_code)]
pub fn run_measured(args: &[&str]) -> (i32, String, i64) {
    run_measured_out(args, None)
}

/// [`run_measured`], standard output written to `out` (else dropped).
#[cfg(target_os = "linux")]
// The child is reaped by `wait4` below (std's `wait` would not give its rusage).
#[allow(clippy::zombie_processes)]
pub fn run_measured_out(args: &[&str], out: Option<&std::path::Path>) -> (i32, String, i64) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairscore"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(match out {
            Some(p) => Stdio::from(std::fs::File::create(p).expect("create stdout file")),
            None => Stdio::null(),
        })
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fairscore");
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut stderr).expect("read stderr");
    }
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 fills it for the child it reaps.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, stderr, usage.ru_maxrss)
}
