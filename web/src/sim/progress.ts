// Progress as the page shows it: how far a run or sweep is, and once it has gone on long enough
// to tell, about how long is left. Reports are thinned out: each one re-renders the page, and a
// sweep of short runs, or a pool of workers each reporting every 50 ms, would otherwise keep the
// UI thread busy on the cores the workers need.

export interface Progress {
  /** 0..1 */
  fraction: number;
  label: string;
  /** "about 1 min 20 s left", once an estimate can be made. */
  timeLeft?: string;
}

/** At most this many reports reach the page per second (but the first and the last always): a
 * report re-renders the page, which took the UI thread about a third of a core at 5 a second
 * during the LEO preset's run (profiled in Chromium). */
export const PROGRESS_REPORTS_PER_S = 2;
/** No estimate before this much time: the first moments (loading, routes) say little. */
const ESTIMATE_AFTER_MS = 1000;

/** Seconds left when `fraction` of the work took `elapsedMs`, if it can be told yet. */
export function secondsLeft(fraction: number, elapsedMs: number): number | null {
  if (elapsedMs < ESTIMATE_AFTER_MS || !(fraction > 0) || fraction >= 1) return null;
  return ((elapsedMs / 1000) * (1 - fraction)) / fraction;
}

/** "about 45 s left", "about 2 min 10 s left", "about 1 h 5 min left". */
export function timeLeftText(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `about ${s} s left`;
  if (s < 3600) return `about ${Math.floor(s / 60)} min ${s % 60} s left`;
  return `about ${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min left`;
}

/** A reporter that passes progress on to `onProgress` at most PROGRESS_REPORTS_PER_S times a
 * second (always the first report and a finished one), with the time left estimated from the
 * time since the reporter was made, unless the caller knows it better (`leftS`; null: not yet). */
export function progressReporter(onProgress: ((p: Progress) => void) | undefined, now: () => number = () => performance.now()) {
  const start = now();
  let last = -Infinity;
  return (fraction: number, label: string, leftS?: number | null) => {
    const t = now();
    if (!onProgress || (fraction < 1 && t - last < 1000 / PROGRESS_REPORTS_PER_S)) return;
    last = t;
    const left = fraction >= 1 ? null : leftS !== undefined ? leftS : secondsLeft(fraction, t - start);
    onProgress(left === null ? { fraction, label } : { fraction, label, timeLeft: timeLeftText(left) });
  };
}
