//! Ctrl-C: the first stops the work at hand cleanly (a run at its current event, with the
//! partial result printed; a sweep before its next job, with the rows done printed), and the
//! program exits with [`EXIT_CODE`]; a second Ctrl-C exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// The shell's convention for a program ended by SIGINT: 128 + 2.
pub const EXIT_CODE: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler. Until then (and for commands that never call it) Ctrl-C ends the
/// program at once, as it does any other.
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: exiting at once");
            std::process::exit(EXIT_CODE.into());
        }
        eprintln!("\ninterrupted: stopping (press Ctrl-C again to exit at once)");
    });
    if let Err(e) = installed {
        // Not fatal: Ctrl-C then ends the program the default way.
        eprintln!("warning: Ctrl-C handler not installed: {e}");
    }
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}
