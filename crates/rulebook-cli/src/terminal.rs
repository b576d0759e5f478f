//! The width of the terminal the output goes to, for the tables that fit it (`compare`):
//! `COLUMNS` when set (as `ls` and clap read it), else the terminal's own when standard
//! output is one; `None` for a pipe or a file, whose lines are never broken.

use std::io::IsTerminal;

/// The width in columns, if the output has one (see the module docs).
pub(crate) fn width() -> Option<usize> {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
    {
        return Some(columns);
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    of_the_terminal()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn of_the_terminal() -> Option<usize> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: `TIOCGWINSZ` writes one `winsize` into the struct given, which lives for the
    // call; on a descriptor that is no terminal it fails and writes nothing.
    #[allow(unsafe_code, reason = "the one call that asks the terminal its size")]
    let done = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &raw mut size) };
    (done == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn of_the_terminal() -> Option<usize> {
    None
}
