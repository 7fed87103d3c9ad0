//! A progress line on standard error, only when it is a terminal (so pipes, files and tests
//! get nothing), redrawn at most every [`INTERVAL`] and erased when the work is done.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Smallest time between two redraws.
pub const INTERVAL: Duration = Duration::from_millis(150);

pub struct Progress {
    enabled: bool,
    started: Instant,
    last: Option<Instant>,
}

impl Progress {
    /// A progress line if standard error is a terminal; otherwise one that prints nothing.
    pub fn on_terminal() -> Progress {
        Progress::new(std::io::stderr().is_terminal())
    }

    pub fn new(enabled: bool) -> Progress {
        Progress { enabled, started: Instant::now(), last: None }
    }

    /// Wall time since the work started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether a redraw is due: enabled, and [`INTERVAL`] since the last one.
    pub fn due(&self) -> bool {
        self.enabled && self.last.is_none_or(|t| t.elapsed() >= INTERVAL)
    }

    /// Draws `line` over the previous one.
    pub fn show(&mut self, line: &str) {
        if self.enabled {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{}\x1b[K", crate::term::line(line));
            let _ = err.flush();
            self.last = Some(Instant::now());
        }
    }

    /// Erases the line, so that what follows starts on a clean one.
    pub fn clear(&mut self) {
        if self.enabled && self.last.take().is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// `12.3 of 60.0 s simulated (20 %), 4.12 M events/s`.
pub fn run_line(done_s: f64, total_s: f64, events: u64, elapsed: Duration) -> String {
    let pct = if total_s > 0.0 { 100.0 * done_s / total_s } else { 100.0 };
    let rate = events as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6;
    format!("{done_s:.1} of {total_s:.1} s simulated ({pct:.0} %), {rate:.2} M events/s")
}

/// `[#####     ] 12/40 runs, 3 running, 8 s`.
pub fn sweep_line(done: usize, running: usize, total: usize, elapsed: Duration) -> String {
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width).min(width);
    format!(
        "[{}{}] {done}/{total} runs, {running} running, {:.0} s",
        "#".repeat(filled),
        " ".repeat(width - filled),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_off_a_terminal_is_never_due() {
        let mut p = Progress::new(false);
        assert!(!p.due());
        p.show("x");
        p.clear();
    }

    #[test]
    fn redraws_wait_for_the_interval() {
        let mut p = Progress::new(true);
        assert!(p.due(), "the first draw is due at once");
        p.last = Some(Instant::now());
        assert!(!p.due());
        p.last = Some(Instant::now() - INTERVAL);
        assert!(p.due());
    }

    #[test]
    fn lines_say_how_far_and_how_fast() {
        assert_eq!(
            run_line(12.34, 60.0, 4_120_000, Duration::from_secs(1)),
            "12.3 of 60.0 s simulated (21 %), 4.12 M events/s"
        );
        assert_eq!(
            sweep_line(3, 2, 6, Duration::from_secs(8)),
            format!("[{}{}] 3/6 runs, 2 running, 8 s", "#".repeat(15), " ".repeat(15))
        );
    }
}
