//! The `collidoscope` command: the viewer by default, and the record, info, validate and
//! query subcommands.

use std::process::ExitCode;

fn main() -> ExitCode {
    collidoscope::cli::main()
}
