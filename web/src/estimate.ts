// A run's estimated cost in words: plain numbers and a rounded duration, never scientific notation.

import type { CostEstimate } from './sim/protocol';

/** The seconds the page waits for a scenario on `workers` workers: its runs (a sweep's, or
 * flows run alone) are shared among them, and none ends before the costliest run. */
export function wallSeconds(e: CostEstimate, workers: number): number {
  const sharing = Math.max(1, Math.min(workers, e.runs));
  return Math.max(e.longest_run_seconds, e.browser_seconds / sharing);
}

/** "about 12 s in this browser", and the workers when the runs are shared among them. */
export function inThisBrowser(e: CostEstimate, workers: number): string {
  const sharing = Math.min(workers, e.runs);
  return `${aboutDuration(wallSeconds(e, workers))} in this browser${sharing > 1 ? ` on ${sharing} workers` : ''}`;
}

/** "about 2 minutes": a duration for people. */
export function aboutDuration(s: number): string {
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `about ${Math.round(s / 60)} minutes`;
  return `about ${Math.round(s / 3600)} hours`;
}

/** "3.2 million", "260 million": a count for people, to two significant digits. */
export function aboutCount(n: number): string {
  const two = (x: number) => Number(x.toPrecision(2)).toLocaleString('en');
  if (n >= 1e9) return `${two(n / 1e9)} billion`;
  if (n >= 1e6) return `${two(n / 1e6)} million`;
  return Math.round(n).toLocaleString('en');
}
