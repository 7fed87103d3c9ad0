//! Ctrl-C: the first stops the work at hand cleanly (a run at its current event, with the
//! partial result printed; a constellation's route precomputation at its next step; a sweep
//! before its next job, with the rows done printed; `route` at its next step, with the rows
//! done), and the program exits with [`EXIT_CODE`] once what was done is written; a second
//! Ctrl-C exits at once.
//!
//! A second SIGINT within [`SAME_PRESS`] of the first is the same Ctrl-C delivered twice:
//! `timeout -s INT` and Slurm signal the process and then its process group, so both arrive
//! together, and counting them as two would lose the partial result half the time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The shell's convention for a program ended by SIGINT: 128 + 2.
pub const EXIT_CODE: u8 = 130;

/// Signals closer than this to the first count as the first (no hand presses Ctrl-C twice
/// within 100 ms; a signal sent to a process and to its group arrives within microseconds).
pub const SAME_PRESS: Duration = Duration::from_millis(100);

static REQUESTED: AtomicBool = AtomicBool::new(false);
static FIRST: OnceLock<Instant> = OnceLock::new();

/// What a SIGINT arriving at `now` does, given when the first one arrived.
#[derive(Debug, PartialEq, Eq)]
enum Press {
    First,
    Same,
    Again,
}

fn press(first: Option<Instant>, now: Instant) -> Press {
    match first {
        None => Press::First,
        Some(t) if now.saturating_duration_since(t) < SAME_PRESS => Press::Same,
        Some(_) => Press::Again,
    }
}

/// Installs the handler. Until then (and for commands that never call it) Ctrl-C ends the
/// program at once, as it does any other.
pub fn install() {
    // ctrlc runs the handler on one thread, one signal after another.
    let installed = ctrlc::set_handler(|| {
        let now = Instant::now();
        match press(FIRST.get().copied(), now) {
            Press::First => {
                let _ = FIRST.set(now);
                REQUESTED.store(true, Ordering::SeqCst);
                eprintln!("\ninterrupted: stopping (press Ctrl-C again to exit at once)");
            }
            Press::Same => {}
            Press::Again => {
                eprintln!("\ninterrupted again: exiting at once");
                std::process::exit(EXIT_CODE.into());
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_signal_within_100_ms_is_the_same_press() {
        let t = Instant::now();
        assert_eq!(press(None, t), Press::First);
        assert_eq!(press(Some(t), t), Press::Same);
        assert_eq!(press(Some(t), t + Duration::from_millis(99)), Press::Same);
        assert_eq!(press(Some(t), t + SAME_PRESS), Press::Again);
        assert_eq!(press(Some(t + Duration::from_secs(1)), t), Press::Same, "a clock that steps back");
    }
}
