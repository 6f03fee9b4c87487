//! The floor every benchmark compares against: read the given files through the input guard
//! (`fairscore::io::read_text`: size cap, UTF-8 check, BOM) and split every line into its
//! tab-separated cells, doing nothing with them. A scoring command cannot be cheaper than this.
//!
//!     cargo run --release --example read_floor -- FILE...
//!
//! Prints the number of files, lines and cells read, so that the work cannot be optimised away.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (mut files, mut lines, mut cells) = (0usize, 0usize, 0usize);
    for arg in std::env::args_os().skip(1) {
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
    }
    println!("{files} files, {lines} lines, {cells} cells");
    ExitCode::SUCCESS
}
