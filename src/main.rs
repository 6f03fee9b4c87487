//! The `fairscore` command line: a thin layer that parses arguments, calls the library and maps
//! errors to exit statuses (see docs/errors.md).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
