//! The one pool of threads of the native front ends: `orbitcp sweep` (a sweep's jobs), `orbitcp
//! run` (a `flows_alone` scenario's simulations) and the Python package's `Plan.run_all`. Jobs
//! are taken in index order by whichever thread is free and their results come back in index
//! order, so what a front end reports never depends on the thread count or the scheduling. The
//! browser spreads its work over Web Workers instead (`web/src/sim/client.ts`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Where the pool stands, for a progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Jobs finished.
    pub done: usize,
    /// Jobs under way.
    pub running: usize,
}

/// How often the calling thread looks at the pool while the workers run: a Ctrl-C seen by
/// `watch` stops the taking of jobs within this time, well under what a person notices.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// Runs `job(i)` for every `i` in `0..count` on up to `threads` threads (at least one, at most one
/// per job), and returns the results in index order. Once `stop()` is true no job starts (the
/// ones under way finish): the results are then those of the jobs before the first one not run.
/// While the workers run, the calling thread calls `watch` every few milliseconds with the
/// tally (to draw progress, or to look for a signal and make `stop` true). If the system
/// refuses every thread, the calling thread runs the jobs itself, without `watch`.
pub fn run_jobs<T: Send>(
    count: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    stop: impl Fn() -> bool + Sync,
    mut watch: impl FnMut(Tally),
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let work = || loop {
        if stop() {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            break;
        }
        running.fetch_add(1, Ordering::Relaxed);
        let r = job(i);
        results.lock().expect("no panics while holding the lock")[i] = Some(r);
        running.fetch_sub(1, Ordering::Relaxed);
        done.fetch_add(1, Ordering::Relaxed);
    };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.clamp(1, count.max(1)))
            .map_while(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
            .collect();
        if workers.is_empty() {
            work();
        }
        while !workers.iter().all(|w| w.is_finished()) {
            watch(Tally { done: done.load(Ordering::Relaxed), running: running.load(Ordering::Relaxed) });
            std::thread::sleep(LOOK_EVERY);
        }
    });
    // A worker's panic is re-raised by `scope` above, so the lock cannot be poisoned here.
    let results = results.into_inner().expect("no panics while holding the lock");
    results.into_iter().map_while(|r| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn results_come_back_in_index_order_whatever_the_thread_count() {
        // Later jobs finish first, so scheduling order and index order differ.
        let job = |i: usize| {
            std::thread::sleep(Duration::from_millis(((12 - i) % 4) as u64));
            i * i
        };
        let want: Vec<usize> = (0..12).map(|i| i * i).collect();
        for threads in [0, 1, 3, 12, 40] {
            assert_eq!(run_jobs(12, threads, job, || false, |_| {}), want, "{threads} threads");
        }
        assert!(run_jobs(0, 4, job, || false, |_| {}).is_empty());
    }

    #[test]
    fn once_stopped_no_job_starts_and_the_finished_prefix_is_returned() {
        let stopped = AtomicBool::new(false);
        let started = AtomicUsize::new(0);
        let job = |i: usize| {
            started.fetch_add(1, Ordering::Relaxed);
            if i == 3 {
                stopped.store(true, Ordering::Relaxed);
            }
            i
        };
        let got = run_jobs(100, 1, job, || stopped.load(Ordering::Relaxed), |_| {});
        assert_eq!(got, vec![0, 1, 2, 3]);
        assert_eq!(started.load(Ordering::Relaxed), 4);
    }

    #[test]
    fn the_watcher_sees_the_tally_and_can_stop_the_pool() {
        let stopped = AtomicBool::new(false);
        let mut tallies = Vec::new();
        let job = |i: usize| {
            std::thread::sleep(Duration::from_millis(5));
            i
        };
        let got = run_jobs(
            10_000,
            2,
            job,
            || stopped.load(Ordering::Relaxed),
            |t| {
                tallies.push(t);
                if t.done >= 4 {
                    stopped.store(true, Ordering::Relaxed);
                }
            },
        );
        assert!(got.len() >= 4 && got.len() < 10_000, "{} jobs", got.len());
        assert_eq!(got, (0..got.len()).collect::<Vec<_>>());
        assert!(tallies.iter().all(|t| t.running <= 2), "{tallies:?}");
        assert!(tallies.windows(2).all(|w| w[0].done <= w[1].done), "{tallies:?}");
    }
}
