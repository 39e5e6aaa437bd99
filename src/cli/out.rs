//! Standard output for the subcommands. A reader that stops early (`| head`, `| grep -q`)
//! closes the pipe; Rust ignores SIGPIPE, so the next write fails with `BrokenPipe`, and
//! `println!` would turn that into a panic with a backtrace and exit code 101. Every
//! subcommand writes through here instead and ends quietly, as Unix tools do.

use std::fmt;
use std::io::{ErrorKind, Write};

/// Why a subcommand stopped.
#[derive(Debug, PartialEq)]
pub enum Failure {
    /// A message for the user; the command exits non-zero.
    Message(String),
    /// Whoever read our output stopped reading: not an error, nothing to say.
    OutputClosed,
    /// An exit status of its own (`diff`'s 1 for "different", 2 for trouble), with a message
    /// for stderr when there is one.
    Status(u8, Option<String>),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Message(message.to_string())
    }
}

/// A write error as the command sees it: a closed pipe ends it quietly, anything else (a full
/// disk behind a redirect) is reported.
pub fn write_failure(e: std::io::Error) -> Failure {
    if e.kind() == ErrorKind::BrokenPipe {
        Failure::OutputClosed
    } else {
        Failure::Message(format!("cannot write the output: {e}"))
    }
}

/// `print!` that reports a closed pipe instead of panicking.
pub fn print(args: fmt::Arguments<'_>) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|_| out.flush())
        .map_err(write_failure)
}

/// `println!` that reports a closed pipe instead of panicking.
macro_rules! outln {
    () => {
        $crate::cli::out::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that reports a closed pipe instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!($($arg)*))
    };
}

pub(crate) use {out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_broken_pipe_is_quiet() {
        let closed = std::io::Error::new(ErrorKind::BrokenPipe, "closed");
        assert_eq!(write_failure(closed), Failure::OutputClosed);
        let full = std::io::Error::new(ErrorKind::StorageFull, "no space");
        assert!(matches!(write_failure(full), Failure::Message(m) if m.contains("no space")));
    }
}
